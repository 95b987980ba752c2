"""Clocks live in the database (SQLite and PostgreSQL): a killed server's clocks keep their deadlines when it
starts again, and with two server processes on one database (and one Redis, as several processes need: the
process that did not fire a time-out learns of it from the fan-out) each time-out is fired (and noted)
exactly once, and both show it."""

from __future__ import annotations

import secrets
import time
from typing import Any

import pytest
from people import bearer


@pytest.fixture(params=["sqlite", "postgresql"])
def database_of(request, pg_url) -> dict[str, Any]:
    """server_factory's database arguments: the test's SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        return {}
    return {"database": pg_url, "schema": request.getfixturevalue("pg_schema")}


def summary(server, table: str) -> dict[str, Any]:
    res = server.api("GET", f"/api/tables/{table}")
    assert res.status_code == 200, res.text
    return res.json()


def test_clocks_survive_a_restart_and_fire_once_across_processes(
    server_factory, create_table, monkeypatch, database_of
) -> None:
    monkeypatch.setenv("ROBOTABLE_CLOCK_TICK", "0.1")
    monkeypatch.setenv("ROBOTABLE_GRACE_SECONDS", "600")
    monkeypatch.setenv("ROBOTABLE_REDIS", "redis://127.0.0.1:6379/0")  # several processes: news between them
    monkeypatch.setenv("ROBOTABLE_REDIS_PREFIX", f"rt-test-{secrets.token_hex(4)}:")
    server = server_factory(**database_of)
    made = create_table(server, [{"kind": "human"}, {"kind": "human"}], time_control={"kind": "live", "base": 8})
    table, tokens = made["table"]["id"], made["tokens"]
    play = {"seat": 0, "action": {"type": "play", "value": 6}}
    assert server.api("POST", f"/api/tables/{table}/moves", json=play, headers=bearer(tokens[0])).status_code == 200
    before = summary(server, table)["clock"]["seats"]
    assert [c["running"] for c in before] == [False, True]

    server.kill()  # a crash: nothing is saved on the way out
    again = server_factory(database=server.database, schema=server.schema)
    twin = server_factory(database=server.database, schema=server.schema)  # a second process, same database
    after = summary(again, table)["clock"]["seats"]
    assert [c["deadline"] for c in after] == [c["deadline"] for c in before]
    assert after[0]["left_ms"] == before[0]["left_ms"]  # a stopped clock keeps what it had
    body = {"difficulty": "random"}
    if after[1]["left_ms"] > 2000:  # the restarts took less than the clock had left (with room for this request)
        early = again.api("POST", f"/api/tables/{table}/seats/1/bot", json=body, headers=bearer(tokens[0]))
        assert early.status_code == 409 and "cannot be handed to a bot yet" in early.json()["detail"]

    deadline = time.monotonic() + 120
    while not summary(again, table)["clock"]["notes"] and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)  # both processes tick several times more
    for server_now in (again, twin):
        notes = summary(server_now, table)["clock"]["notes"]
        assert [(n["seat"], n["kind"]) for n in notes] == [(1, "timeout")]
    res = twin.api("POST", f"/api/tables/{table}/seats/1/bot", json=body, headers=bearer(tokens[0]))
    assert res.status_code == 200, res.text
    assert res.json()["seats"][1]["handed_to_bot"] is True
