"""/api/tutorials on the real app (issue 33): every lesson of every game played through HTTP with no
account, step by step; a legal move that is not the step's goal is not played and answers the hint; an
illegal or malformed move, stale moves, unknown games and lessons are refused with a clear 4xx; the view
sent is always the lesson seat's own."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotable import games
from robotable.core import visible_events
from robotable.core.tutorial import MAX_STEPS, begin, tutorial_of

GAMES = ["tf22-reload", "twin-tin-bots", "robots-on-the-line"]
LESSONS = [(g, lesson.id) for g in GAMES for lesson in tutorial_of(games.load(g)).lessons]


def url(game: str, lesson: str, tail: str = "") -> str:
    return f"/api/tutorials/{game}/{lesson}{tail}"


def test_the_list_names_every_game_and_every_kind_of_action(client: TestClient) -> None:
    answer = client.get("/api/tutorials")
    assert answer.status_code == 200
    listed = {t["game"]: t for t in answer.json()["tutorials"]}
    assert sorted(listed) == sorted(GAMES)
    for game_id, tut in listed.items():
        game = games.load(game_id)
        assert set(tut["kinds"]) == {cls.type for cls in game.action_types}
        assert [x["id"] for x in tut["lessons"]] == [x.id for x in tutorial_of(game).lessons]
        assert client.get(f"/api/tutorials/{game_id}").json() == tut


@pytest.mark.parametrize(("game_id", "lesson_id"), LESSONS)
def test_every_lesson_is_played_to_its_end_over_http(client: TestClient, game_id: str, lesson_id: str) -> None:
    game = games.load(game_id)
    lesson = tutorial_of(game).lesson(lesson_id)
    walk = begin(game, lesson)  # the same lesson in this process: what the server must answer
    start = client.get(url(game_id, lesson_id))
    assert start.status_code == 200, start.text
    body = start.json()
    assert body["step"] == 0 and not body["finished"] and body["seat"] == lesson.seat
    assert body["view"] == json.loads(json.dumps(walk.state.view(lesson.seat)))  # the seat's own view
    assert body["legal"] == [a.to_json() for a in walk.legal()]
    assert body["expected"] and all(a in body["legal"] for a in body["expected"])
    assert body["title"] == f"{game_id}:tutorial.{lesson_id}.title"
    assert [s["id"] for s in body["steps"]] == [s.id for s in lesson.steps]
    moves: list[dict[str, Any]] = []
    for k in range(len(lesson.steps)):
        wrong = [a for a in body["legal"] if a not in body["expected"]]
        if wrong:  # a legal move that is not the step's: not played, the step's hint
            answer = client.post(url(game_id, lesson_id, "/try"), json={"moves": moves, "action": wrong[0]})
            assert answer.status_code == 200, answer.text
            refused = answer.json()
            assert refused["accepted"] is False and refused["hint"] == body["steps"][k]["hint"]
            assert refused["step"] == k and refused["view"] == body["view"] and refused["moves"] == len(moves)
        action = body["expected"][0]
        answer = client.post(url(game_id, lesson_id, "/try"), json={"moves": moves, "action": action})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["accepted"] is True and body["hint"] is None and body["step"] == k + 1
        moves.append(action)
        assert walk.attempt(game.action_from_json(action))
        assert body["view"] == json.loads(json.dumps(walk.state.view(lesson.seat)))
        # the events of the move and the other seats' answers, as that seat may see them
        assert body["events"] == [e.to_json() for e in visible_events(walk.events, lesson.seat)]
    assert body["finished"] and body["legal"] == [] and body["expected"] == []
    again = client.post(url(game_id, lesson_id, "/try"), json={"moves": moves, "action": moves[-1]})
    assert again.status_code == 400 and again.json()["code"] == "app:errors.tutorial_finished"
    resumed = client.post(url(game_id, lesson_id, "/state"), json={"moves": moves})
    assert resumed.status_code == 200 and resumed.json()["view"] == body["view"]


def test_refusals_are_clear_and_never_a_500(client: TestClient) -> None:
    ttb = "twin-tin-bots"
    first = client.get(url(ttb, "push")).json()
    cases: list[tuple[str, str, Any, int, str | None]] = [
        ("GET", "/api/tutorials/chess", None, 404, "app:errors.tutorial_game"),
        ("GET", url("chess", "push"), None, 404, "app:errors.tutorial_game"),
        ("GET", url(ttb, "nope"), None, 404, "app:errors.tutorial_lesson"),
        # illegal: a tile red does not hold, with the game's own reason
        ("POST", url(ttb, "push", "/try"), {"action": {"type": "place", "slot": 0, "tile": "jump"}}, 409, None),
        ("POST", url(ttb, "push", "/try"), {"action": {"type": "plac"}}, 400, "app:errors.action.unknown_type"),
        ("POST", url(ttb, "push", "/try"), {"action": {"type": "place", "slot": "x", "tile": "zap"}}, 400, None),
        (
            "POST",
            url(ttb, "push", "/try"),
            {"moves": [{"type": "pass"}], "action": {"type": "pass"}},
            400,
            "app:errors.tutorial_moves",
        ),
        ("POST", url(ttb, "push", "/try"), {"moves": [{"type": "pass"}] * (MAX_STEPS + 1), "action": {}}, 422, None),
        ("POST", url(ttb, "push", "/try"), {"action": {"type": "pass"}, "extra": 1}, 422, None),
        ("POST", url(ttb, "push", "/try"), {"moves": []}, 422, None),
        ("POST", url(ttb, "push", "/try"), [1, 2], 422, None),
        (
            "POST",
            url("tf22-reload", "battle", "/preview"),
            {"action": {"type": "play", "value": 5}},
            400,
            "app:errors.no_previews",
        ),
        ("POST", url(ttb, "push", "/evaluate"), {"query": {}}, 400, None),
        ("POST", url(ttb, "push", "/preview"), {"action": {"type": "place", "slot": 0, "tile": "jump"}}, 409, None),
    ]
    for method, path, body, status, code in cases:
        answer = client.request(method, path, json=body) if body is not None else client.request(method, path)
        assert answer.status_code == status, (path, body, answer.text)
        if code:
            assert answer.json()["code"] == code, answer.json()
        assert answer.json()["detail"]
    illegal = client.post(
        url(ttb, "push", "/try"), json={"action": {"type": "place", "slot": 0, "tile": "jump"}}
    ).json()
    assert illegal["code"] == "twin-tin-bots:refusals.tile_not_in_hand"
    # nothing changed: the lesson still starts where it did
    assert client.get(url(ttb, "push")).json() == first


def test_previews_and_evaluations_answer_as_at_a_table(client: TestClient) -> None:
    preview = client.post(
        url("twin-tin-bots", "zap", "/preview"), json={"action": {"type": "place", "slot": 0, "tile": "zap"}}
    )
    assert preview.status_code == 200, preview.text
    assert preview.json()["moves"] == 0
    assert any(e["type"] == "zap" for e in preview.json()["preview"]["events"])
    bench = client.post(url("robots-on-the-line", "sell", "/evaluate"), json={"query": {"layout": []}})
    assert bench.status_code == 200, bench.text
    assert "buyer-3" in {b["id"] for b in bench.json()["evaluation"]["buyers"]}


def test_the_opponents_secret_choice_never_leaves_the_server(client: TestClient) -> None:
    """TF22 lessons start with the opponent's card chosen (written in the lesson): only 'has chosen' shows."""
    for lesson in ("battle", "one-seven", "tie", "loading", "majorities", "r-card"):
        body = client.get(url("tf22-reload", lesson)).json()
        opponent = body["view"]["players"][1]
        assert opponent["has_chosen"] is True and "choice" not in opponent, lesson
        assert "deck" not in body["view"] and "rng" not in json.dumps(body)


def test_the_pages_are_served_without_an_account(client: TestClient) -> None:
    for path in ("/tutorial", "/tutorial/twin-tin-bots"):
        page = client.get(path)
        assert page.status_code == 200 and "tutorial.js" in page.text


JSONS = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(["place", "pass", "zap", "load", "A1", ""]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["type", "slot", "tile", "value"]), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(game=st.sampled_from(GAMES), action=JSONS, moves=st.lists(JSONS, max_size=3))
def test_random_bodies_get_a_4xx_or_an_answer(client: TestClient, game: str, action: Any, moves: Any) -> None:
    lesson = tutorial_of(games.load(game)).lessons[0].id
    answer = client.post(url(game, lesson, "/try"), json={"moves": moves, "action": action})
    assert answer.status_code in (200, 400, 409, 422), answer.text


def test_a_lesson_goes_on_in_another_process(make_client, tmp_path) -> None:
    """Nothing is kept between requests: each move may reach another server process (here, another app
    on another database) and the lesson goes on from the moves the page sends."""
    one, two = make_client(), make_client(database=f"sqlite:///{tmp_path / 'other.db'}")
    game, lesson = "tf22-reload", "loading"
    moves: list[dict[str, Any]] = []
    body = one.get(url(game, lesson)).json()
    for k in range(len(body["steps"])):
        client = (one, two)[k % 2]
        action = body["expected"][0]
        answer = client.post(url(game, lesson, "/try"), json={"moves": moves, "action": action})
        assert answer.status_code == 200 and answer.json()["accepted"], answer.text
        moves.append(action)
        body = answer.json()
    assert body["finished"]
    assert (
        one.post(url(game, lesson, "/state"), json={"moves": moves}).json()
        == two.post(url(game, lesson, "/state"), json={"moves": moves}).json()
    )
