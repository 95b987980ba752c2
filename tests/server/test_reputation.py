"""Reputation on SQLite and PostgreSQL (reputation.py): a live time-out lowers it at once, the seat handed
over counts no second time, a finished game raises it, a turn-based table that expires with a seat timed
out counts as abandoned; a table's minimum is enforced when taking a seat, with a clear error."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from people import bearer, call, guest_token, wait_for

from robotable.server import expiry
from robotable.server.storage import now

HUMAN = {"kind": "human"}
OPEN = {"kind": "open"}


@pytest.fixture(params=["sqlite", "postgresql"])
def clocked(request, make_client, monkeypatch, pg_url) -> TestClient:
    """An in-process client with a fast time-out tick, on either database."""
    monkeypatch.setenv("ROBOTABLE_GRACE_SECONDS", "600")
    monkeypatch.setenv("ROBOTABLE_CLOCK_TICK", "0.1")
    if request.param == "sqlite":
        return make_client()
    return make_client(database=pg_url, schema=request.getfixturevalue("pg_schema"))


def account_of(client: TestClient, token: str) -> str:
    return client.get("/api/account", headers=bearer(token)).json()["account"]["id"]


def shares(client: TestClient, *ids: str) -> dict[str, int]:
    res = client.get("/api/standing", params={"accounts": list(ids)})
    assert res.status_code == 200, res.text
    return {a: s["reputation"]["percent"] for a, s in res.json()["accounts"].items()}


def play_to_the_end(client: TestClient, table: str, seat: int, token: str) -> dict[str, Any]:
    """``seat`` plays its first legal action whenever it is to act (a bot plays the other) until the end."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        snap = client.get(f"/api/tables/{table}/state", params={"seat": seat}, headers=bearer(token)).json()
        if snap["result"]:
            return snap
        if snap["legal"]:
            body = {"seat": seat, "action": snap["legal"][0], "after": snap["moves"]}
            client.post(f"/api/tables/{table}/moves", json=body, headers=bearer(token))
        else:
            time.sleep(0.01)
    raise AssertionError("the game did not end")


def test_a_live_time_out_lowers_reputation_and_a_finished_game_raises_it(
    clocked: TestClient, create_table: Callable[..., dict[str, Any]], server_clock
) -> None:
    client = clocked
    made = create_table(client, [HUMAN, HUMAN], time_control={"kind": "live", "base": 60, "increment": 1})
    table, tokens = made["table"]["id"], made["tokens"]
    ann, bob = account_of(client, tokens[0]), account_of(client, tokens[1])
    assert shares(client, ann, bob) == {ann: 75, bob: 75}  # a new account's share
    # Ann makes TF22's secret choice; Bob does not, and his live clock runs out
    move = {"seat": 0, "action": {"type": "play", "value": 5}}
    assert client.post(f"/api/tables/{table}/moves", json=move, headers=bearer(tokens[0])).status_code == 200
    server_clock.advance(61)
    wait_for(lambda: shares(client, bob)[bob] == 60, "the time-out to count against Bob")  # 3 of 5
    assert shares(client, ann)[ann] == 75
    # Ann hands his seat to a bot: the same abandonment, counted once
    res = client.post(f"/api/tables/{table}/seats/1/bot", json={"difficulty": "random"}, headers=bearer(tokens[0]))
    assert res.status_code == 200, res.text
    play_to_the_end(client, table, 0, tokens[0])
    # Ann finished with everyone's seat taken: raised; Bob's abandonment stands (a bot finished for him)
    assert shares(client, ann, bob) == {ann: 80, bob: 60}
    profile = client.get(f"/api/profiles/{bob}").json()
    assert profile["reputation"] == {"percent": 60, "finished": 0, "abandoned": 1, "games": 1}
    assert client.get(f"/api/profiles/{ann}").json()["reputation"]["finished"] == 1

    # a table for players of at least 70%: Bob (60%) is refused by invite and at an open seat, clearly
    made = create_table(client, [HUMAN, OPEN], creator=tokens[0], min_reputation=70)
    assert made["table"]["min_reputation"] == 70
    tid = made["table"]["id"]
    refused = client.post(f"/api/tables/{tid}/seats/1/claim", json={}, headers=bearer(tokens[1]))
    assert refused.status_code == 403, refused.text
    assert refused.json()["code"] == "app:errors.reputation_too_low"
    assert refused.json()["params"] == {"need": 70, "have": 60}
    assert "at least 70% (yours is 60%" in refused.json()["detail"]
    assert client.get(f"/api/tables/{tid}").json()["seats"][1]["kind"] == "open"
    res = call(
        client,
        "POST",
        "/api/tables",
        tokens[0],
        json={"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, HUMAN], "min_reputation": 70},
    )
    code = res.json()["invites"]["1"].rsplit("/", 1)[1]
    refused = client.post("/api/invites/accept", json={"code": code}, headers=bearer(tokens[1]))
    assert refused.status_code == 403 and refused.json()["code"] == "app:errors.reputation_too_low", refused.text
    # a new account (75%) may sit; a creator cannot ask more than it has (Ann: 80%)
    carl = guest_token(client, "Carl")
    assert client.post(f"/api/tables/{tid}/seats/1/claim", json={}, headers=bearer(carl)).status_code == 200
    body = {"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, OPEN], "min_reputation": 90}
    res = call(client, "POST", "/api/tables", tokens[0], json=body)
    assert res.status_code == 403 and res.json()["params"] == {"need": 90, "have": 80}, res.text
    for bad in (0, 101, "high"):
        res = call(client, "POST", "/api/tables", tokens[0], json={**body, "min_reputation": bad})
        assert res.status_code == 422, res.text


def test_a_turn_based_table_expired_with_a_seat_timed_out_counts_as_abandoned(
    clocked: TestClient, create_table: Callable[..., dict[str, Any]], server_clock
) -> None:
    client = clocked
    made = create_table(client, [HUMAN, HUMAN], time_control={"kind": "turn", "days": 1})
    table, tokens = made["table"]["id"], made["tokens"]
    ann, bob = account_of(client, tokens[0]), account_of(client, tokens[1])
    move = {"seat": 0, "action": {"type": "play", "value": 5}}
    assert client.post(f"/api/tables/{table}/moves", json=move, headers=bearer(tokens[0])).status_code == 200
    server_clock.advance(86_401)  # Bob's day runs out: a turn-based time-out alone is not abandoning
    wait_for(lambda: client.get(f"/api/tables/{table}").json()["clock"]["notes"], "Bob's time-out")
    assert shares(client, ann, bob) == {ann: 75, bob: 75}
    storage = client.app.state.manager.storage
    settings = expiry.ExpirySettings.from_env()
    assert expiry.expire_due(storage, settings, now() + timedelta(days=15)) == [table]
    assert shares(client, ann, bob) == {ann: 75, bob: 60}  # Bob left it; Ann neither finished nor left


def test_standing_answers_ratings_and_reputation_and_checks_its_input(client: TestClient) -> None:
    ann = account_of(client, guest_token(client, "Ann"))
    res = client.get("/api/standing", params={"accounts": [ann, "nobody"]})
    assert res.status_code == 200, res.text
    got = res.json()["accounts"]
    assert got[ann] == {"reputation": {"percent": 75, "finished": 0, "abandoned": 0, "games": 0}, "ratings": {}}
    assert got["nobody"]["reputation"]["percent"] == 75
    assert client.get("/api/standing").status_code == 422
    assert client.get("/api/standing", params={"accounts": ["x" * 25]}).status_code == 400
    assert client.get("/api/standing?accounts=%00").status_code == 400  # never reaches the database
    assert client.get("/api/standing", params={"accounts": [str(i) for i in range(101)]}).status_code == 422


def test_an_older_tables_table_gets_min_reputation_when_a_storage_starts(database: tuple[str, str | None]) -> None:
    import sqlalchemy as sa

    from robotable.server.storage import Storage, accounts_table, tables_table

    url, schema = database
    old = sa.MetaData(schema=schema)
    sa.Table(accounts_table.name, old, *[c._copy() for c in accounts_table.columns])
    sa.Table(tables_table.name, old, *[c._copy() for c in tables_table.columns if c.name != "min_reputation"])
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        if schema:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        old.create_all(conn)
        stamp = now()
        values = {"id": "t1", "game": "tf22-reload", "num_players": 2, "seed": 1, "options": {}, "status": "running"}
        conn.execute(
            sa.insert(old.tables[f"{schema}.{tables_table.name}" if schema else tables_table.name]).values(
                **values, num_moves=0, created_at=stamp, updated_at=stamp
            )
        )
    engine.dispose()
    store = Storage(url, schema=schema)
    try:
        with store.engine.connect() as conn:
            assert "min_reputation" in {
                c["name"] for c in sa.inspect(conn).get_columns(tables_table.name, schema=schema)
            }
        row = store.load_table("t1")
        assert row is not None and row.min_reputation is None
    finally:
        store.close()
