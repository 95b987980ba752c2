"""Issue 27: a table waiting for players runs no clock. An open seat, or a person seat whose invite is
not yet accepted, means the game has not started: no clock runs, no grace counts down and no person's
seat can be handed to a bot; every clock starts fresh when the last seat is taken. On SQLite and
PostgreSQL; the server's clock is advanced (the ``server_clock`` fixture), so nothing waits for time to
pass."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from people import bearer, guest_token
from test_server_clocks import clocked, summary  # noqa: F401  (the fixture)

from robotable.server import clocks

HUMAN = {"kind": "human"}
OPEN = {"kind": "open"}


def make_waiting_table(client: TestClient, second: dict[str, Any]) -> tuple[str, str, str | None]:
    """A TF22 table for 2 with a live clock of 5 s whose second seat nobody has taken: (id, creator's
    token, the invite code of seat 2 if it has one)."""
    creator = guest_token(client, "Ada")
    body = {
        "game": "tf22-reload",
        "num_players": 2,
        "seats": [HUMAN, second],
        "time_control": {"kind": "live", "base": 5, "increment": 1},
    }
    res = client.post("/api/tables", json=body, headers=bearer(creator))
    assert res.status_code == 201, res.text
    invites = res.json()["invites"]
    code = invites["1"].rsplit("/", 1)[1] if "1" in invites else None
    return res.json()["table"]["id"], creator, code


def hand(client: TestClient, table: str, target: int, token: str):
    return client.post(f"/api/tables/{table}/seats/{target}/bot", json={"difficulty": "random"}, headers=bearer(token))


@pytest.mark.parametrize("second", ["invited", "open"])
def test_no_clock_runs_until_the_table_is_full(clocked, server_clock, second) -> None:  # noqa: F811
    client = clocked(grace=1.0)
    server_clock.freeze()  # the readings below are exact: no real time passes between the join and them
    table, creator, code = make_waiting_table(client, HUMAN if second == "invited" else OPEN)
    server_clock.advance(200)  # far past the 5 s clock and the 1 s grace
    clock = summary(client, table)["clock"]
    assert clock["waiting"] is True
    for seat in clock["seats"]:
        assert (seat["running"], seat["left_ms"], seat["timed_out"], seat["away_ms"]) == (False, 5000, False, None)
    assert clock["seats"][0]["can_hand_over"] is False
    assert clocks.Clocks(client.app.state.manager.storage).fire_due(clocks.now()) == []  # nothing to time out

    joiner = guest_token(client, "Bea")
    if second == "invited":
        early = hand(client, table, 0, creator)  # not even the creator may hand a person's seat over yet
        assert early.status_code in (403, 409), early.text
        taken = client.post("/api/invites/accept", json={"code": code}, headers=bearer(joiner))
    else:
        taken = client.post(f"/api/tables/{table}/seats/1/claim", headers=bearer(joiner))
    assert taken.status_code == 200, taken.text

    # the game starts now: both clocks fresh and running (TF22 opens with a secret choice for both)
    clock = summary(client, table)["clock"]
    assert clock["waiting"] is False
    assert [c["running"] for c in clock["seats"]] == [True, True]
    assert all(c["left_ms"] == 5000 for c in clock["seats"]), clock
    # the first to join cannot hand the creator's seat to a bot at move 0
    refused = hand(client, table, 0, joiner)
    assert refused.status_code == 409, refused.text
    assert not summary(client, table)["seats"][0]["handed_to_bot"]
    # the clock then runs as usual: out of time, the seat may be handed over
    server_clock.advance(10)
    assert summary(client, table)["clock"]["seats"][0]["can_hand_over"] is True


def test_a_waiting_table_refuses_the_hand_over_and_says_why(clocked, server_clock) -> None:  # noqa: F811
    client = clocked(grace=1.0)
    table, creator, _ = make_waiting_table(client, HUMAN)
    server_clock.advance(200)
    other = guest_token(client, "Cy")
    # an open seat may still be filled by a bot at any time (by a player of the table): then it is full
    made = client.post(
        "/api/tables",
        json={"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, OPEN]},
        headers=bearer(other),
    ).json()["table"]["id"]
    filled = hand(client, made, 1, other)
    assert filled.status_code == 200, filled.text
    clock = summary(client, made)["clock"]
    assert clock["waiting"] is False and clock["seats"][0]["running"] is True
    # on the waiting table, a person's seat is not handed over: the reason names the waiting
    waiting = hand(client, table, 1, creator)
    assert waiting.status_code == 409, waiting.text
    assert "waiting for players" in waiting.json()["detail"]
