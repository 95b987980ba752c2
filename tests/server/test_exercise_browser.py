"""Issue 30, in Debian's chromium: "find the better move" played. An exercise from a reviewed TF22 game
opens as at the table (the game's renderer, the seat's view, its legal moves); the move that was played
is refused, the better move solves it, and the profile marks it solved. The other games' exercise
views open too (their answers: tests/server/test_exercise_api.py)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from people import bearer, wait_for
from test_exercise_api import HEURISTIC
from test_server_api import BOT, HUMAN, play_out
from test_server_browser import browser, signed_in_page, watch_errors  # noqa: F401  (the browser fixture)

#: A tiny review budget (the server's ROBOTABLE_REVIEW_ITERATIONS): the test checks the page, not the search.
SMALL_REVIEW = {"ROBOTABLE_REVIEW_ITERATIONS": "3"}


def reviewed_table(server: Any, token: str, game: str) -> tuple[str, list[dict[str, Any]]]:
    """A 2-player ``game`` of ``token``'s account (seat 0, first legal moves) against a bot (random in TF22,
    else the heuristic), played out and reviewed: the table and its exercises (every decision where the
    search would have played otherwise)."""
    # a fixed deal (seed 7): whether seat 0 differs from the search somewhere depends on the deal
    body = {"game": game, "num_players": 2, "seats": [HUMAN, BOT if game == "tf22-reload" else HEURISTIC], "seed": 7}
    with httpx.Client(base_url=server.url, timeout=60) as http:
        table = http.post("/api/tables", json=body, headers=bearer(token)).json()["table"]["id"]
        play_out(http, table, 0, token)
        review = f"/api/tables/{table}/review"
        wait_for(lambda: http.get(review, headers=bearer(token)).status_code == 200, "the review", timeout=300)
        listed = http.get("/api/exercises", params={"min_loss": 0.0, "limit": 50}, headers=bearer(token)).json()
    return table, listed


def tf22_control(action: dict[str, Any]) -> str | None:
    """The TF22 table's control for ``action`` (a card of the hand, a ship's slot), if it is one of those."""
    if action["type"] == "play":
        return f".hand [data-legal='play'][data-value='{action['value']}']"
    if action["type"] == "load":
        return f".load-area [data-focus='load-btn:{action['slot']}']"
    return None


def test_a_tf22_exercise_is_solved_by_playing_the_better_move(server_factory, browser, tmp_path) -> None:  # noqa: F811
    server = server_factory(bot_delay=0.0, env=SMALL_REVIEW)
    page, me = signed_in_page(browser, server, "Ada", viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    watch_errors(page, errors)
    _, listed = reviewed_table(server, me, "tf22-reload")
    with httpx.Client(base_url=server.url, timeout=30) as http:  # the profile's: the 3 largest of 10% or more
        on_profile = [x["id"] for x in http.get("/api/exercises", headers=bearer(me)).json()]
    playable = [x for x in listed if tf22_control(x["better"]) and tf22_control(x["played"])]
    playable.sort(key=lambda x: x["id"] not in on_profile)  # one the profile lists, if there is one
    exercise = playable[0] if playable else None
    assert exercise is not None, f"no exercise with a card or a load both ways among {len(listed)}"
    page.goto(f"{server.url}/exercise/{exercise['id']}")
    page.wait_for_selector("body[data-ready='1']")
    assert exercise["played_text"] and page.locator("#exercise-question").inner_text()
    assert page.locator("#board .tf22").is_visible()  # the game's own renderer, with its move controls
    # the move that was played: not solved
    page.locator(tf22_control(exercise["played"])).click()
    page.wait_for_selector("#exercise-verdict.not-yet")
    assert page.evaluate("document.body.dataset.verdict") == "played"
    # the better move: solved
    page.locator(tf22_control(exercise["better"])).click()
    page.wait_for_selector("#exercise-verdict.solved")
    assert page.evaluate("document.body.dataset.verdict") == "better"
    page.screenshot(path=str(tmp_path / "exercise-tf22.png"), full_page=True)
    with httpx.Client(base_url=server.url, timeout=30) as http:
        mine = http.get("/api/exercises", params={"min_loss": 0.0, "limit": 50}, headers=bearer(me)).json()
        account = http.get("/api/account", headers=bearer(me)).json()["account"]["id"]
    assert [x["solved"] for x in mine if x["id"] == exercise["id"]] == [True]
    # the profile lists the largest (10% or more, 3 at most) and marks the solved ones: this one if listed,
    # else the first listed, solved over the API
    if on_profile:
        target = exercise["id"] if exercise["id"] in on_profile else on_profile[0]
        if target != exercise["id"]:
            better = next(x["better"] for x in mine if x["id"] == target)
            with httpx.Client(base_url=server.url, timeout=30) as http:
                answer = http.post(f"/api/exercises/{target}/answer", json={"action": better}, headers=bearer(me))
            assert answer.json()["solved"] is True
        page.goto(f"{server.url}/profile/{account}")
        page.wait_for_selector(f".exercise[data-id='{target}'][data-solved='1'] .exercise-solved")
        assert page.locator(".exercise[data-solved='0'] .exercise-solved").count() == 0
        page.screenshot(path=str(tmp_path / "profile-solved.png"), full_page=True)
    assert errors == []


@pytest.mark.parametrize(("game", "drawn"), [("twin-tin-bots", ".ttb"), ("robots-on-the-line", ".rotl")])
def test_the_exercise_view_opens_in_every_game(server_factory, browser, game: str, drawn: str, tmp_path) -> None:  # noqa: F811
    server = server_factory(bot_delay=0.0, env=SMALL_REVIEW)
    page, me = signed_in_page(browser, server, "Ada", viewport={"width": 390, "height": 844})
    errors: list[str] = []
    watch_errors(page, errors)
    _, listed = reviewed_table(server, me, game)
    assert listed, "a player of first legal moves differs from the search somewhere"
    page.goto(f"{server.url}/exercise/{listed[0]['id']}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector(f"#board {drawn}")
    page.screenshot(path=str(tmp_path / f"exercise-{game}.png"), full_page=True)
    # the seat's moves, offered as at the table (each renderer marks its move controls its own way)
    with httpx.Client(base_url=server.url, timeout=30) as http:
        legal = http.get(f"/api/exercises/{listed[0]['id']}", headers=bearer(me)).json()["legal"]
    assert legal
    if any(a["type"] == "end_turn" for a in legal):  # Robots on the Line's own control for it
        assert page.locator("#board #end-turn").is_enabled()
    else:
        assert page.locator("#board [data-legal], #board .legal, #board button.action:not([disabled])").count() > 0
    assert "null" not in page.locator("#exercise-info").inner_text()
    assert errors == []
