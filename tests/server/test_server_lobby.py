"""The lobby's filters (game, status, open seats) and the expiry of abandoned tables, on SQLite and
PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from people import bearer, guest_token, wait_for

HUMAN = {"kind": "human"}
OPEN = {"kind": "open"}
BOT = {"kind": "bot", "difficulty": "random"}


@pytest.fixture(params=["sqlite", "postgresql"])
def lobby_client(request, make_client, monkeypatch, pg_url) -> Callable[..., TestClient]:
    def make(**env: str) -> TestClient:
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        if request.param == "sqlite":
            return make_client()
        return make_client(database=pg_url, schema=request.getfixturevalue("pg_schema"))

    return make


def ids(client: TestClient, **params: Any) -> set[str]:
    res = client.get("/api/tables", params=params)
    assert res.status_code == 200, res.text
    return {t["id"] for t in res.json()}


def test_lobby_filters(lobby_client, create_table) -> None:
    client = lobby_client()
    tf_open = create_table(client, [HUMAN, OPEN])["table"]["id"]
    tf_running = create_table(client, [HUMAN, BOT])["table"]["id"]
    ttb = create_table(client, [HUMAN, BOT], game="twin-tin-bots")["table"]["id"]
    finished = create_table(client, [BOT, BOT])["table"]["id"]
    wait_for(lambda: client.get(f"/api/tables/{finished}").json()["status"] == "finished", "the bots to finish")
    assert ids(client) == {tf_open, tf_running, ttb}
    assert ids(client, game="tf22-reload") == {tf_open, tf_running}
    assert ids(client, game="twin-tin-bots") == {ttb}
    assert ids(client, open_seats="true") == {tf_open}
    assert ids(client, status="running") == {tf_running, ttb}
    assert ids(client, status="finished") == {finished}
    assert ids(client, status=["finished", "open"], game="tf22-reload") == {finished, tf_open}
    for params, words in (({"game": "chess"}, "unknown game 'chess'"), ({"status": "lost"}, "unknown status")):
        res = client.get("/api/tables", params=params)
        assert res.status_code == 400 and words in res.json()["detail"], res.text
    res = client.get("/api/tables", params={"open_seats": "perhaps"})
    assert res.status_code == 422 and "open_seats" in res.json()["detail"]


def test_abandoned_tables_expire(lobby_client, create_table, server_clock) -> None:
    client = lobby_client(
        ROBOTABLE_OPEN_TABLE_TTL="60",
        ROBOTABLE_ABANDONED_TABLE_TTL="120",
        ROBOTABLE_EXPIRY_EVERY="0.1",
        ROBOTABLE_CLOCK_TICK="0.1",
    )
    open_table = create_table(client, [HUMAN, OPEN])
    turn = create_table(client, [HUMAN, HUMAN], time_control={"kind": "turn", "days": 1})
    live = create_table(client, [HUMAN, HUMAN])
    joined = create_table(client, [HUMAN, OPEN])
    joined_id = joined["table"]["id"]
    # a live table whose invited player never comes waits for players too: it expires like an open one
    creator = bearer(guest_token(client, "Creator"))
    body = {"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, HUMAN]}
    invited = client.post("/api/tables", json=body, headers=creator).json()

    def status_of(made: dict[str, Any]) -> str:
        return client.get(f"/api/tables/{made['table']['id']}").json()["status"]

    server_clock.advance(40)
    someone = bearer(guest_token(client, "Someone"))
    assert client.post(f"/api/tables/{joined_id}/seats/1/claim", headers=someone).status_code == 200  # joined
    server_clock.advance(30)  # 70 s since the tables were made, 30 s since a seat of `joined` was taken
    # the open table nobody joined and the one whose invite nobody accepted expire at the next sweep
    wait_for(lambda: status_of(open_table) == status_of(invited) == "expired", "the abandoned tables to expire")
    # that sweep saw the others too: they go on
    assert status_of(joined) == status_of(turn) == status_of(live) == "running"
    assert open_table["table"]["id"] not in ids(client)
    assert open_table["table"]["id"] in ids(client, status="expired")
    play = {"seat": 0, "action": {"type": "play", "value": 3}}
    res = client.post(
        f"/api/tables/{open_table['table']['id']}/moves", json=play, headers=bearer(open_table["tokens"][0])
    )
    assert res.status_code == 409 and "expired" in res.json()["detail"]
    # the turn-based table with no move for the whole time expires; the live one does not
    server_clock.advance(60)
    wait_for(lambda: status_of(turn) == "expired", "the turn-based table to expire")
    assert status_of(live) == "running"
    clock = client.get(f"/api/tables/{turn['table']['id']}").json()["clock"]
    assert not any(c["running"] for c in clock["seats"])  # no time-out fires on an expired table
