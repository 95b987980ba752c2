"""End to end in Debian's chromium (Playwright): lobby -> TF22 table against two bots -> end screen.

Screenshots go to test-artifacts/: the table mid-game, while loading (legal slots highlighted), the end
screen, the spectator's view and phone-sized pages.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from people import browser_guest
from playwright import sync_api  # the dev extra installs it

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


#: How long Playwright waits for any one condition (a selector, a function, a click's target, a screenshot,
#: a page load): generous, as a busy machine can be many times slower than a quiet one. Tests wait for
#: conditions, never for time, so a quiet machine never waits this long.
WAIT_MS = 120_000


def _generous(make: Callable[..., Any]) -> Callable[..., Any]:
    """``make`` (a browser's new_context or new_page) whose contexts and pages wait up to WAIT_MS."""

    @functools.wraps(make)
    def made(*args: Any, **kwargs: Any) -> Any:
        context_or_page = make(*args, **kwargs)
        context_or_page.set_default_timeout(WAIT_MS)
        return context_or_page

    return made


def launched_browser() -> Iterator[Any]:
    """Debian's chromium through Playwright, closed when the generator ends; its contexts and pages wait
    up to WAIT_MS for a condition. A fixture of any scope yields from it."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make setup` installs it (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        b.new_context = _generous(b.new_context)
        b.new_page = _generous(b.new_page)
        yield b
        b.close()


@pytest.fixture
def browser():
    """Debian's chromium for one test (see :func:`launched_browser`)."""
    yield from launched_browser()


def signed_in_page(browser, server, name: str = "Player 1", **context_args):
    """A page in a new browser context signed in as a new guest, and an API token of that account (so a
    test can set tables up for it)."""
    context = browser.new_context(**context_args)
    token = browser_guest(context, server.url, name)
    return context.new_page(), token


def watch_errors(page, errors: list[str]) -> None:
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)


def click_and_wait_for_the_move(page, target) -> None:
    """Click ``target`` (a locator of a legal action) and wait until the table has taken that move, so the
    next look at the page never sees the buttons of the position before it."""
    moves = page.evaluate("document.body.dataset.moves")
    target.click()
    page.wait_for_function(f"() => document.body.dataset.moves !== '{moves}'")


def click_one_move(page) -> None:
    """Click one legal action (opening the R card first if only R is left), wait for the table to move."""
    legal = page.locator("[data-legal]")
    if legal.count() == 0:
        page.locator("[data-rcard]:not([disabled])").click()
    click_and_wait_for_the_move(page, legal.first)


def test_play_tf22_against_two_bots_to_the_end_screen(server_factory, browser) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    server = server_factory(bot_delay=0.03)
    errors: list[str] = []
    laptop = browser.new_context(viewport={"width": 1366, "height": 900})
    page = laptop.new_page()
    watch_errors(page, errors)

    # the lobby: TF22 for three, seat 1 is me, two random bots (the defaults), create, go to the table
    page.goto(server.url + "/")
    page.wait_for_selector("#seats-fields .seat-row")
    page.select_option("#game-select", "tf22-reload")
    page.select_option("#players-select", "3")
    rows = page.locator("#seats-fields .seat-row")
    assert rows.count() == 3
    page.select_option("#seats-fields .seat-row >> nth=0 >> [name=kind]", "human")
    for i in (1, 2):
        page.select_option(f"#seats-fields .seat-row >> nth={i} >> [name=kind]", "bot")
        page.select_option(f"#seats-fields .seat-row >> nth={i} >> [name=difficulty]", "random")
    page.click("#create-button")
    # signed out: the page asks for a name first (a one-click guest account), then makes the table
    page.fill("#guest-name", "Ada")
    page.click("#guest-go")
    page.click("#go-table")
    page.wait_for_selector("[data-legal]")
    assert page.inner_text("#account-name").startswith("Ada")
    table_id = page.url.split("/table/")[1].split("?")[0]

    # a spectator in a second browser context: sees the table, never a hand or a move to make
    watcher_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    watcher = watcher_ctx.new_page()
    watch_errors(watcher, errors)
    watcher.goto(f"{server.url}/table/{table_id}?watch=1")
    watcher.wait_for_selector(".tf22 .players .player")
    assert watcher.locator(".hand-area").count() == 0
    assert watcher.locator("[data-legal]").count() == 0
    assert "spectator" in watcher.inner_text("#turn")

    # the R card opens its four uses, with the parameters each legal use takes
    page.click("[data-rcard]")
    page.wait_for_selector(".r-panel")
    assert "Take back your played RCU cards" in page.inner_text(".r-panel")
    page.screenshot(path=str(ARTIFACTS / "tf22-r-card.png"))
    page.click("[data-rcard]")
    assert page.locator(".r-panel").count() == 0

    # play by clicking until the end screen
    shots = {"load": False, "mid": False}
    clicks = 0
    while not page.locator("#end-screen").is_visible():
        page.wait_for_selector("[data-legal], [data-rcard]:not([disabled]), #end-screen:not([hidden])")
        if page.locator("#end-screen").is_visible():
            break
        if not shots["load"] and page.locator(".slot.legal").count():
            page.screenshot(path=str(ARTIFACTS / "tf22-table-loading.png"), full_page=True)
            shots["load"] = True
            # load by clicking a highlighted slot on the ship; waiting for the move means the next turn's
            # look never sees this position's buttons (it once saw none and waited on a disabled R card)
            click_and_wait_for_the_move(page, page.locator(".slot.legal").first)
            clicks += 1
            continue
        if not shots["mid"] and int(page.evaluate("document.body.dataset.moves")) > 40:
            page.screenshot(path=str(ARTIFACTS / "tf22-table.png"), full_page=True)
            page.set_viewport_size({"width": 390, "height": 844})
            page.screenshot(path=str(ARTIFACTS / "tf22-table-phone.png"), full_page=True)
            page.set_viewport_size({"width": 1366, "height": 900})
            shots["mid"] = True
        click_one_move(page)
        clicks += 1
        assert clicks < 200, "the game should end within 200 clicks"

    page.wait_for_selector("#end-screen .end-card")
    end_text = page.inner_text("#end-screen")
    assert "Game over" in end_text and "Tie-breaks" in end_text and "Chipcards" in end_text
    page.screenshot(path=str(ARTIFACTS / "tf22-end-screen.png"))
    assert shots["mid"], "the game ended before the mid-game screenshot"

    # the spectator saw the same game to its end
    watcher.wait_for_selector("#end-screen .end-card")
    assert watcher.evaluate("document.body.dataset.moves") == page.evaluate("document.body.dataset.moves")
    assert watcher.locator(".hand-area").count() == 0
    watcher.click("text=See the board")
    watcher.screenshot(path=str(ARTIFACTS / "tf22-spectator.png"), full_page=True)
    watcher.set_viewport_size({"width": 390, "height": 844})
    watcher.screenshot(path=str(ARTIFACTS / "tf22-spectator-phone.png"), full_page=True)

    # the replay viewer steps through the finished game
    page.click("text=Watch the replay")
    page.wait_for_selector("#step-controls:not([hidden])")
    page.click("#next")
    page.click("#next")
    assert page.evaluate("document.body.dataset.step") == "2"
    page.click("#last")
    page.wait_for_selector(".end-inline")
    page.screenshot(path=str(ARTIFACTS / "tf22-replay.png"), full_page=True)

    # the record, downloaded from the table, replays as an upload
    page.go_back()
    page.click("text=See the board")
    with page.expect_download() as download:
        page.click("#download-record")
    record_file = ARTIFACTS / "tf22-record.json"
    download.value.save_as(record_file)
    page.goto(server.url + "/replay")
    page.set_input_files("#record-file", str(record_file))
    page.wait_for_selector("#step-controls:not([hidden])")
    page.click("#last")
    page.wait_for_selector(".end-inline")

    assert not errors, errors
    assert clicks >= 28  # at least one click per battle: the person really played


def test_hotseat_table_plays_every_seat_from_one_browser(server_factory, browser) -> None:
    """A hotseat table (chosen at creation): both seats from one browser, marked unrated; another
    browser opening a seat's table link only watches."""
    server = server_factory(bot_delay=0.0)
    errors: list[str] = []
    page, _ = signed_in_page(browser, server, "Ada", viewport={"width": 1280, "height": 900})
    watch_errors(page, errors)
    page.goto(server.url + "/")
    page.wait_for_selector("#seats-fields .seat-row")
    page.select_option("#players-select", "2")
    page.select_option("#seats-fields .seat-row >> nth=1 >> [name=kind]", "human")
    page.fill("#seats-fields .seat-row >> nth=1 >> [name=name]", "Grace")
    page.check("#hotseat")
    page.click("#create-button")
    page.wait_for_selector("#created h3")
    assert page.locator("#created .invite").count() == 0  # no invites: this browser plays both seats
    assert "not rated" in page.inner_text("#created")
    page.click("#go-table")
    page.wait_for_selector("[data-legal]")
    table_id = page.url.split("/table/")[1].split("?")[0]
    page.locator(".rcu-card[data-legal]").last.click()  # RCU-7 for Ada
    page.wait_for_selector("text=Your secret choice: RCU-7")
    page.click("#seat-switch >> text=Grace")  # switch seats: the page now plays Grace
    page.wait_for_selector(".player.me[data-seat='1']")
    assert "RCU-7" not in page.inner_text("#board")  # Grace never sees Ada's secret card
    assert "Ada has chosen" in page.inner_text("#log")
    page.goto(server.url + "/")
    page.wait_for_selector(f"[data-table='{table_id}'] .tag.hotseat")

    # someone else opening Grace's table link watches: the seat is the hotseat account's
    other, _ = signed_in_page(browser, server, "Eve", viewport={"width": 390, "height": 844})
    watch_errors(other, errors)
    other.goto(f"{server.url}/table/{table_id}?seat=1")
    other.wait_for_selector(".tf22 .players .player")
    assert other.locator("[data-legal]").count() == 0
    assert "spectator" in other.inner_text("#turn")
    assert "RCU-7" not in other.inner_text("#board")
    assert not errors, errors


def test_undo_a_secret_choice_in_the_browser(server_factory, browser, create_table) -> None:
    """Against bots, a player takes back their secret card until the bots have chosen."""
    server = server_factory(bot_delay=3.0)
    page, me = signed_in_page(browser, server, viewport={"width": 1280, "height": 900})
    made = create_table(server, [{"kind": "human"}, {"kind": "bot", "difficulty": "heuristic"}], creator=me)
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server.url + made["links"]["0"])
    page.wait_for_selector(".rcu-card[data-legal]")
    assert page.is_disabled("#undo-button")
    page.locator(".rcu-card[data-legal]").nth(4).click()  # RCU-5
    page.wait_for_selector("text=Your secret choice: RCU-5")
    page.click("#undo-button")
    page.wait_for_selector(".rcu-card[data-legal][data-value='5']")
    assert page.evaluate("document.body.dataset.moves") == "0"
    page.locator(".rcu-card[data-legal][data-value='2']").click()
    page.wait_for_selector(".reveal-item")  # the bot chose after its delay: the reveal
    assert "RCU-2" in page.inner_text("#log") and page.is_disabled("#undo-button")
    assert not errors, errors
