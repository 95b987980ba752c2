"""Your turn in the browser (Playwright, Debian's chromium): the tab title and favicon say when it is your
move, the clocks tick in the seat panel, the sound is off by default, and the hand-over button appears
only once the other seat's clock has run out."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from people import bearer, browser_guest
from playwright import sync_api

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make setup` installs it (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def clock_text(page, seat: int) -> str:
    return page.locator(f'#seats [data-clock-seat="{seat}"]').inner_text()


def test_title_favicon_and_ticking_clocks(server_factory, create_table, browser, monkeypatch) -> None:
    monkeypatch.setenv("ROBOTABLE_CLOCK_TICK", "0.2")
    server = server_factory()
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    me = browser_guest(context, server.url)
    made = create_table(
        server,
        [{"kind": "human"}, {"kind": "human"}],
        time_control={"kind": "live", "base": 6, "increment": 0},
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
    page.wait_for_timeout(1300)
    assert clock_text(page, 0) != first, "my clock does not tick"
    assert "Clock: 6 s + 0 s" in page.inner_text("#turn")

    # I choose: no longer my move; seat 1's clock still runs, and cannot be handed over yet
    page.locator("[data-legal]").first.click()
    page.wait_for_function("() => !document.title.startsWith('▶ Your move')")
    assert page.title() == "TF22: RELOAD! · Robotable"
    assert "favicon.svg" in page.get_attribute("link[rel=icon]", "href")
    assert page.locator("#seats button", has_text="Hand to a bot").count() == 0
    before = clock_text(page, 1)
    page.wait_for_timeout(1100)
    assert clock_text(page, 1) != before, "the other seat's clock does not tick"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "clocks-waiting.png"))

    # seat 1 runs out of time: the page offers to hand its seat to a bot, without a reload
    page.wait_for_selector("#seats button:has-text('Hand to a bot')", timeout=10_000)
    assert "-" in clock_text(page, 1) or clock_text(page, 1).endswith("0:00")

    # seat 1 moves (over the API) until the game waits for me again: the title says so again
    deadline = time.monotonic() + 20
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
