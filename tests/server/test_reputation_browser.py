"""Issue 33 in Debian's chromium: the profile shows the rating on the 1500-based scale (provisional, "?")
and the reputation after a live time-out; the lobby and the table page show both beside the names."""

from __future__ import annotations

import re
import time
from typing import Any

from people import call, new_table, wait_for
from test_server_browser import ARTIFACTS, browser, signed_in_page, watch_errors  # noqa: F401  (the fixture)

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}


def play_against_bots(server: Any, table: str, token: str) -> None:
    """Seat 0 plays its first legal action whenever it is to act until the game is over."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        snap = call(server, "GET", f"/api/tables/{table}/state", token, params={"seat": 0}).json()
        if snap["result"]:
            return
        if snap["legal"]:
            body = {"seat": 0, "action": snap["legal"][0], "after": snap["moves"]}
            call(server, "POST", f"/api/tables/{table}/moves", token, json=body)
        else:
            time.sleep(0.02)
    raise AssertionError("the game did not end")


def test_profile_lobby_and_table_show_rating_and_reputation(server_factory, browser) -> None:  # noqa: F811
    ARTIFACTS.mkdir(exist_ok=True)
    server = server_factory(bot_delay=0.0, env={"ROBOTABLE_CLOCK_TICK": "0.2"})
    errors: list[str] = []
    page, ann = signed_in_page(browser, server, "Ann", viewport={"width": 1280, "height": 900})
    watch_errors(page, errors)
    me = call(server, "GET", "/api/account", ann).json()["account"]["id"]
    # a rated game against a bot: Ann's first rating, provisional
    rated = new_table(server, [HUMAN, BOT], creator=ann)["table"]["id"]
    play_against_bots(server, rated, ann)
    # a live table with Bob on a one-second clock: nobody moves, both clocks run out, both abandoned it
    live = new_table(server, [HUMAN, HUMAN], creator=ann, time_control={"kind": "live", "base": 1, "increment": 0})
    wait_for(
        lambda: call(server, "GET", f"/api/profiles/{me}").json()["reputation"]["abandoned"] == 1,
        "the time-out to count",
    )
    profile = call(server, "GET", f"/api/profiles/{me}").json()
    shown = profile["games"]["tf22-reload"]["rating"]["display_rating"]

    page.goto(f"{server.url}/profile/{me}")
    page.wait_for_selector("#profile-reputation")
    assert page.get_attribute("#profile-reputation", "data-percent") == "60"
    assert "Reputation: 60% of games finished" in page.inner_text("#profile-reputation")
    assert "0 finished, 1 abandoned" in page.inner_text("#profile-reputation")
    cell = page.inner_text("#games-table tr[data-game='tf22-reload'] td.rating")
    assert cell.startswith(f"{shown}?"), cell  # the 1500-based scale, provisional after one game
    assert 1000 < shown < 2000
    page.screenshot(path=str(ARTIFACTS / "reputation-profile.png"), full_page=True)

    # the lobby: beside Ann's name at the live table, her rating and her reputation
    page.goto(f"{server.url}/")
    tag = page.locator(f"[data-table='{live['table']['id']}'] .tag.standing[data-account='{me}']")
    tag.wait_for()
    assert re.fullmatch(rf"{shown}\? · 60%", tag.inner_text()), tag.inner_text()
    # the table page: the same beside her seat
    page.goto(f"{server.url}/table/{live['table']['id']}?seat=0")
    tag = page.locator(f"#seats .tag.standing[data-account='{me}']")
    tag.wait_for()
    assert tag.inner_text() == f"{shown}? · 60%"
    errors = [e for e in errors if "the server responded with a status of 4" not in e]
    assert errors == []
    page.context.close()
