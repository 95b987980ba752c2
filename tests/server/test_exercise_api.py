"""/api/exercises on the real app (issue 30): "find the better move" opened as the seat saw the position,
answered by playing a move, in every game; for the player of that seat only."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from people import bearer, guest_token, wait_for
from test_server_api import BOT, HUMAN, play_out

from robotable.ai.review import Budget
from robotable.server.exercise_api import MARGIN

#: A tiny budget: the test checks the endpoints, not the search's strength.
BUDGET = Budget(iterations=3, seed=5)
#: The heuristic bot: Twin Tin Bots against a random bot (or between first legal moves) does not end.
HEURISTIC = {"kind": "bot", "difficulty": "heuristic"}


def finished_and_reviewed(client: TestClient, create_table, game: str) -> tuple[str, str, dict[str, Any]]:
    """A 2-player table of ``game``, seat 0 a person playing first legal moves against a bot (in TF22 the
    random bot; in the others the heuristic one, since their games between random or first-legal players
    do not end), played out and reviewed: ``(table, token, seat 0's review)``."""
    client.app.state.review_budget = BUDGET
    # a fixed deal (seed 7): whether seat 0 differs from the search somewhere depends on the deal
    made = create_table(client, [HUMAN, BOT if game == "tf22-reload" else HEURISTIC], game=game, seed=7)
    table, token = made["table"]["id"], made["tokens"][0]
    play_out(client, table, 0, token)

    def reviewed() -> Any:
        r = client.get(f"/api/tables/{table}/review", params={"seat": 0}, headers=bearer(token))
        return r.status_code == 200 and r.json()

    (seat,) = wait_for(reviewed, "the review", timeout=300)["seats"]  # (a guard: a busy machine is slow)
    return table, token, seat


@pytest.mark.parametrize("game", ["tf22-reload", "twin-tin-bots", "robots-on-the-line"])
def test_an_exercise_is_the_seats_own_view_and_is_solved_by_the_better_move(
    client: TestClient, create_table, game: str
) -> None:
    table, token, seat = finished_and_reviewed(client, create_table, game)
    moments = [m for m in seat["moments"] if m["played"] != m["best"]]
    assert moments, "seat 0 differs from the search somewhere"
    listed = client.get("/api/exercises", params={"min_loss": 0.01, "limit": 50}, headers=bearer(token)).json()
    losses = [m for m in moments if m["loss"] >= 0.01]
    assert len(listed) == min(50, len(losses)) and all(not x["solved"] for x in listed)
    assert {x["move"] for x in listed} <= {m["index"] for m in losses}
    moment = next(m for m in moments if m["index"] == listed[0]["move"]) if listed else moments[0]
    ex = f"{table}.0.{moment['index']}"
    assert not listed or ex == listed[0]["id"]

    got = client.get(f"/api/exercises/{ex}", headers=bearer(token))
    assert got.status_code == 200, got.text
    body = got.json()
    # the seat's own view at that decision, as its replay shows it; its legal moves; never the answer
    replay = client.get(f"/api/tables/{table}/replay", params={"seat": 0}, headers=bearer(token)).json()
    assert body["view"] == replay["steps"][moment["index"]]["view"]
    assert moment["best"] in body["legal"] and moment["played"] in body["legal"]
    assert "better" not in body and "better_text" not in body and body["solved"] is False
    assert body["previews"] is (game == "twin-tin-bots")

    played = client.post(f"/api/exercises/{ex}/answer", json={"action": moment["played"]}, headers=bearer(token))
    assert played.status_code == 200 and played.json()["verdict"] == "played" and not played.json()["solved"]
    better = client.post(f"/api/exercises/{ex}/answer", json={"action": moment["best"]}, headers=bearer(token))
    assert better.status_code == 200 and better.json() == {
        "solved": True,
        "verdict": "better",
        "value": moment["before"],
        "before": moment["before"],
        "margin": MARGIN,
    }
    assert client.get(f"/api/exercises/{ex}", headers=bearer(token)).json()["solved"] is True
    again = client.get("/api/exercises", params={"min_loss": 0.0, "limit": 50}, headers=bearer(token)).json()
    assert [x["solved"] for x in again if x["id"] == ex] == ([True] if listed else [])
    # min_loss 0: every decision where the search would have played otherwise, up to the limit (never one
    # where it agreed: those are no exercise and used to take places in the limit)
    limit = min(50, len(moments))
    zero = {"min_loss": 0.0, "limit": limit}
    assert len(client.get("/api/exercises", params=zero, headers=bearer(token)).json()) == limit
    mine = client.get("/api/account/exercises", params=zero, headers=bearer(token)).json()
    assert len(mine) == limit and {x["move"] for x in mine} <= {m["index"] for m in moments}

    solution = client.get(f"/api/exercises/{ex}/solution", headers=bearer(token)).json()
    assert (solution["played"], solution["better"]) == (moment["played"], moment["best"])
    assert solution["played_text"] and solution["better_text"]
    if game == "twin-tin-bots":
        assert set(solution["previews"]) == {"played", "better"}
        assert all("paths" in p for p in solution["previews"].values())
        previewed = client.post(f"/api/exercises/{ex}/preview", json={"action": moment["best"]}, headers=bearer(token))
        assert previewed.status_code == 200 and previewed.json()["preview"] == solution["previews"]["better"]
    else:
        assert solution["previews"] is None
        no = client.post(f"/api/exercises/{ex}/preview", json={"action": moment["best"]}, headers=bearer(token))
        assert no.status_code == 400 and "no previews" in no.json()["detail"]
    # the game's evaluations of the seat's position (Robots on the Line's workbench), as at the table
    asked = client.post(
        f"/api/exercises/{ex}/evaluate", json={"query": {"layout": [], "suggest": True}}, headers=bearer(token)
    )
    if game == "robots-on-the-line":
        assert asked.status_code == 200 and asked.json()["moves"] == moment["index"], asked.text
        assert isinstance(asked.json()["evaluation"]["suggestions"], list)
        bad = {"query": {"layout": "torso"}}
        refused = client.post(f"/api/exercises/{ex}/evaluate", json=bad, headers=bearer(token))
        assert refused.status_code == 400 and "layout must be a list" in refused.json()["detail"]
    else:
        assert asked.status_code == 400 and "no evaluations" in asked.json()["detail"]


def test_another_move_is_valued_by_the_reviews_search(client: TestClient, create_table) -> None:
    table, token, seat = finished_and_reviewed(client, create_table, "tf22-reload")
    moment = next(m for m in seat["moments"] if m["played"] != m["best"] and m["legal"] > 2)
    ex = f"{table}.0.{moment['index']}"
    legal = client.get(f"/api/exercises/{ex}", headers=bearer(token)).json()["legal"]
    other = next(a for a in legal if a not in (moment["played"], moment["best"]))
    answer = client.post(f"/api/exercises/{ex}/answer", json={"action": other}, headers=bearer(token)).json()
    assert answer["verdict"] in ("as_good", "worse") and 0.0 <= answer["value"] <= 1.0
    assert answer["solved"] is (answer["value"] >= moment["before"] - MARGIN)


def test_exercises_are_for_their_seats_player_and_bad_input_is_refused(client: TestClient, create_table) -> None:
    table, token, seat = finished_and_reviewed(client, create_table, "tf22-reload")
    moment = next(m for m in seat["moments"] if m["played"] != m["best"])
    agreed = next((m for m in seat["moments"] if m["played"] == m["best"]), None)
    ex = f"{table}.0.{moment['index']}"
    assert client.get(f"/api/exercises/{ex}").status_code == 401
    other = guest_token(client, "Other")
    refused = client.get(f"/api/exercises/{ex}", headers=bearer(other))
    assert refused.status_code == 403 and refused.json()["code"] == "app:errors.exercise_not_yours"
    assert client.get(f"/api/exercises/{table}.1.{moment['index']}", headers=bearer(token)).status_code == 403
    bad = client.get(f"/api/exercises/{table}", headers=bearer(token))
    assert bad.status_code == 400 and "TABLE.SEAT.MOVE" in bad.json()["detail"]
    assert client.get("/api/exercises/no-such-table.0.1", headers=bearer(token)).status_code == 404
    assert client.get(f"/api/exercises/{table}.0.9999", headers=bearer(token)).status_code == 404
    if agreed is not None:  # a decision where the seat played the search's move is no exercise
        assert client.get(f"/api/exercises/{table}.0.{agreed['index']}", headers=bearer(token)).status_code == 404
    nonsense = client.post(f"/api/exercises/{ex}/answer", json={"action": {"type": "fly"}}, headers=bearer(token))
    assert nonsense.status_code == 400, nonsense.text
    extra = client.post(f"/api/exercises/{ex}/answer", json={"action": moment["best"], "x": 1}, headers=bearer(token))
    assert extra.status_code == 422
    # a move of the game that is not legal at this position
    legal = client.get(f"/api/exercises/{ex}", headers=bearer(token)).json()["legal"]
    # a battle's cards where the seat lacks one, else a winner's decision (never legal in the same step)
    candidates = [{"type": "play", "value": v} for v in range(1, 8)] + [{"type": "return"}, {"type": "load", "slot": 0}]
    illegal = next(a for a in candidates if a not in legal)
    refused_move = client.post(f"/api/exercises/{ex}/answer", json={"action": illegal}, headers=bearer(token))
    assert refused_move.status_code in (400, 409), refused_move.text
    assert refused_move.json()["detail"]


def test_a_table_not_reviewed_yet_has_no_exercises(client: TestClient, create_table) -> None:
    made = create_table(client, [HUMAN, BOT])
    table, token = made["table"]["id"], made["tokens"][0]
    running = client.get(f"/api/exercises/{table}.0.0", headers=bearer(token))
    assert running.status_code == 409 and running.json()["code"] == "app:errors.exercise_none"


def test_the_exercise_endpoints_are_in_the_openapi_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/exercises", "/api/exercises/{exercise}", "/api/exercises/{exercise}/answer"} <= set(paths)
    assert {"/api/exercises/{exercise}/solution", "/api/exercises/{exercise}/preview"} <= set(paths)
    assert "/api/exercises/{exercise}/evaluate" in set(paths)
    assert {"200", "400", "401", "403", "404", "409"} <= set(
        paths["/api/exercises/{exercise}/answer"]["post"]["responses"]
    )
