"""Your turn in the browser (Playwright, Debian's chromium): the tab title and favicon say when it is your
move, the clocks tick in the seat panel, the sound is off by default, and the hand-over button appears
only once the other seat's clock has run out."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from people import bearer, browser_guest
from test_server_browser import browser  # noqa: F401  (the browser fixture)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def clock_text(page, seat: int) -> str:
    return page.locator(f'#seats [data-clock-seat="{seat}"]').inner_text()


def ticks(page, seat: int, shown: str) -> bool:
    """Wait until seat's clock shows something other than ``shown`` (a clock ticks each second; on a
    loaded machine the page's timers may run late); True once it does (Playwright times out otherwise)."""
    page.wait_for_function(
        "([seat, shown]) => document.querySelector(`#seats [data-clock-seat='${seat}']`).innerText !== shown",
        arg=[seat, shown],
    )
    return True


def test_title_favicon_and_ticking_clocks(server_factory, create_table, browser, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setenv("ROBOTABLE_CLOCK_TICK", "0.2")
    server = server_factory()
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    me = browser_guest(context, server.url)
    made = create_table(
        server,
        [{"kind": "human"}, {"kind": "human"}],
        time_control={"kind": "live", "base": 20, "increment": 0},  # long enough for a loaded machine
        creator=me,
    )
    table, tokens = made["table"]["id"], made["tokens"]
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.url}/table/{table}?seat=0")
    page.wait_for_selector("[data-legal]")

    # TF22 opens with a secret choice: it is my move, the tab says so, my clock ticks
    page.wait_for_function("() => document.title.startsWith('▶ Your move')")
    assert "favicon-turn.svg" in page.get_attribute("link[rel=icon]", "href")
    assert page.locator("#sound-toggle").is_checked() is False  # sound is off by default
    first = clock_text(page, 0)
    assert ticks(page, 0, first), "my clock does not tick"
    assert "Clock: 20 s + 0 s" in page.inner_text("#turn")

    # I choose: no longer my move; seat 1's clock still runs, and cannot be handed over yet
    page.locator("[data-legal]").first.click()
    page.wait_for_function("() => !document.title.startsWith('▶ Your move')")
    assert page.title() == "TF22: RELOAD! · Robotable"
    assert "favicon.svg" in page.get_attribute("link[rel=icon]", "href")
    assert page.locator("#seats button", has_text="Hand to a bot").count() == 0
    before = clock_text(page, 1)
    assert ticks(page, 1, before), "the other seat's clock does not tick"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "clocks-waiting.png"))

    # seat 1 runs out of time: the page offers to hand its seat to a bot, without a reload
    page.wait_for_selector("#seats button:has-text('Hand to a bot')")
    run_out = clock_text(page, 1)
    assert run_out.startswith(("-0:", "0:00")) and not run_out.startswith("-0:00"), run_out
    # the others choose the bot's level: by default the strongest that keeps a 20 s clock moving (issue 27)
    level = page.locator("#seats select.hand-level")
    assert level.input_value() == "heuristic"
    assert level.locator("option").count() >= 3

    # seat 1 moves (over the API) until the game waits for me again: the title says so again
    deadline = time.monotonic() + 120  # (generous: a busy machine)
    while page.evaluate("document.body.dataset.yourTurn") != "1":
        assert time.monotonic() < deadline, "the game never came back to me"
        snap = server.api("GET", f"/api/tables/{table}/state", params={"seat": 1}, headers=bearer(tokens[1])).json()
        if snap["legal"]:
            body = {"seat": 1, "action": snap["legal"][0], "after": snap["moves"]}
            server.api("POST", f"/api/tables/{table}/moves", json=body, headers=bearer(tokens[1]))
        time.sleep(0.2)
    page.wait_for_function("() => document.title.startsWith('▶ Your move')")
    assert "favicon-turn.svg" in page.get_attribute("link[rel=icon]", "href")
    assert not errors, errors
    context.close()


# Records each Notification the page makes (the real one is still made) and lets the test say whether the
# page is hidden: headless Chromium always reports its pages visible, so that one browser state is set here.
NOTIFICATION_SPY = """
window.__notes = [];
window.__hidden = sessionStorage.getItem("test.hidden") !== "0"; // hidden until the test says otherwise
Object.defineProperty(document, "hidden", { get: () => window.__hidden });
Object.defineProperty(document, "visibilityState", { get: () => (window.__hidden ? "hidden" : "visible") });
const RealNotification = window.Notification;
window.Notification = new Proxy(RealNotification, {
  construct(target, args) { window.__notes.push(args[0]); return new target(...args); },
  get(target, prop) { const v = target[prop]; return typeof v === "function" ? v.bind(target) : v; },
});
"""


@pytest.fixture
def grace_server(server_factory):
    """A server with a short grace, on SQLite: the pages do not see the database, and the same grace,
    hand-over and take-back run on both databases in test_server_clocks.py (in-process, through the API)."""
    return server_factory(env={"ROBOTABLE_GRACE_SECONDS": "6", "ROBOTABLE_CLOCK_TICK": "0.2"})


def seat_line(page, seat: int):
    return page.locator("#seats .seat-line").nth(seat)


def test_grace_countdown_hand_over_take_back_and_the_result_records_it(grace_server, browser) -> None:  # noqa: F811
    """Two browsers: Bob leaves; Ann sees his grace counting down and may hand his seat to a bot only when it
    reaches zero; Bob comes back and takes the seat back from his page; the end screen and the record list
    the hand-over and the take-back. Ann's page, hidden when it becomes her move, shows a notification."""
    server = grace_server
    ann_ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    ann_ctx.grant_permissions(["notifications"], origin=server.url)
    ann_ctx.add_init_script(NOTIFICATION_SPY)
    bob_ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    ann_token, bob_token = browser_guest(ann_ctx, server.url, "Ann"), browser_guest(bob_ctx, server.url, "Bob")
    body = {
        "game": "tf22-reload",
        "num_players": 2,
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "time_control": {"kind": "live", "base": 600, "increment": 0},
    }
    res = server.api("POST", "/api/tables", json=body, headers=bearer(ann_token))
    assert res.status_code == 201, res.text
    table, link = res.json()["table"]["id"], res.json()["invites"]["1"]
    code = link.rsplit("/", 1)[1]
    res = server.api("POST", "/api/invites/accept", json={"code": code}, headers=bearer(bob_token))
    assert res.status_code == 200, res.text
    errors: list[str] = []
    bob = bob_ctx.new_page()
    bob.on("pageerror", lambda exc: errors.append(str(exc)))
    bob.goto(f"{server.url}/table/{table}?seat=1")
    bob.wait_for_selector("[data-legal]")
    # Bob has not allowed notifications: the page offers to ask; once allowed, it says they are on
    assert bob.evaluate("() => Notification.permission") == "default"
    assert bob.locator("#notify-button").is_visible()
    bob_ctx.grant_permissions(["notifications"], origin=server.url)
    bob.reload()
    bob.wait_for_selector("[data-legal]")
    assert not bob.locator("#notify-button").is_visible()
    assert "notifications on" in bob.inner_text(".turn-controls")

    # Ann's page opens hidden (another tab in front) on her move: a notification says so
    ann = ann_ctx.new_page()
    ann.on("pageerror", lambda exc: errors.append(str(exc)))
    ann.goto(f"{server.url}/table/{table}?seat=0")
    ann.wait_for_selector("[data-legal]")
    ann.wait_for_function("() => window.__notes.length === 1")
    assert ann.evaluate("window.__notes") == ["Your move: TF22: RELOAD!"]
    ann.evaluate("window.__hidden = false; sessionStorage.setItem('test.hidden', '0')")
    # the sound is off by default; turned on, it stays on after a reload (kept in this browser)
    assert ann.locator("#sound-toggle").is_checked() is False
    ann.check("#sound-toggle")
    ann.reload()
    ann.wait_for_selector("[data-legal]")
    assert ann.locator("#sound-toggle").is_checked() is True
    assert ann.evaluate("window.__notes") == []  # visible now: no notification on this load

    # Ann chooses; Bob is online: no hand-over
    ann.locator("[data-legal]").first.click()
    ann.wait_for_function("() => document.body.dataset.yourTurn === '0'")
    ann.wait_for_selector("#seats .seat-line:nth-child(2) .tag.on")
    assert seat_line(ann, 1).locator("button", has_text="Hand to a bot").count() == 0

    # Bob leaves: Ann sees his grace counting down, and no hand-over button until it reaches zero
    bob.close()
    ann.wait_for_selector('#seats [data-clock-seat="1"]:has-text("away")')
    away = ann.locator('#seats [data-clock-seat="1"]').inner_text()
    assert seat_line(ann, 1).locator("button", has_text="Hand to a bot").count() == 0
    assert ticks(ann, 1, away), "the grace does not count down"
    button = seat_line(ann, 1).locator("button", has_text="Hand to a bot")
    button.wait_for()
    assert "away 0:00" in ann.locator('#seats [data-clock-seat="1"]').inner_text()
    button.click()
    ann.wait_for_selector("#seats .seat-line:nth-child(2) .tag.bot")
    ann.wait_for_function("() => Number(document.body.dataset.moves) >= 2")  # the bot made Bob's choice

    # Bob comes back and takes his seat back from his page
    bob = bob_ctx.new_page()
    bob.on("pageerror", lambda exc: errors.append(str(exc)))
    bob.goto(f"{server.url}/table/{table}?seat=1")
    # (a toast lives 3 s: record every toast from before the click, so a busy machine cannot miss it)
    bob.evaluate(
        """() => {
            window.toastsSeen = [];
            new MutationObserver(() => {
                const items = document.querySelectorAll('#toasts .toast');
                for (const item of items) window.toastsSeen.push(item.textContent);
            }).observe(document.body, { childList: true, subtree: true });
        }"""
    )
    bob.locator("#seats button", has_text="Take my seat back").click()
    bob.wait_for_function("() => window.toastsSeen.some(text => text.includes('the seat is yours again'))")
    ann.wait_for_function("() => !document.querySelector('#seats .seat-line:nth-child(2) .tag.bot')")

    # both play on (over the API) to the end: the end screen and the record list the hand-over
    tokens = {0: ann_token, 1: bob_token}
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the game did not end"
        snaps = {
            s: server.api("GET", f"/api/tables/{table}/state", params={"seat": s}, headers=bearer(t)).json()
            for s, t in tokens.items()
        }
        if snaps[0]["result"]:
            break
        for seat, snap in snaps.items():
            if snap["legal"]:
                move = {"seat": seat, "action": snap["legal"][0], "after": snap["moves"]}
                server.api("POST", f"/api/tables/{table}/moves", json=move, headers=bearer(tokens[seat]))
    ann.wait_for_selector("#end-screen #seat-notes")
    notes = ann.inner_text("#seat-notes")
    # the note names the level the page chose by default (the table's clock allows the top level)
    assert "handed to a bot (ismcts:hard) by seat 1" in notes and "taken back from the bot by its player" in notes
    record = server.api("GET", f"/api/tables/{table}/record", headers=bearer(ann_token)).json()
    assert [(n["seat"], n["kind"]) for n in record["meta"]["seat_notes"]] == [(1, "handed_to_bot"), (1, "reclaimed")]
    ARTIFACTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(ARTIFACTS / f"handover-end-{server.schema or 'sqlite'}.png"))
    assert not errors, errors
    ann_ctx.close()
    bob_ctx.close()
