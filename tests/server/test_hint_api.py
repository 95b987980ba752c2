"""POST /api/tables/{id}/hint on the real app (issue 30): the bots' three best choices for the seat to
move, only where hints cannot spoil a rated game, rate-limited and counted against the bot quota."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient
from people import bearer, guest_token
from test_server_api import BOT, HUMAN, move, state

from robotable.server.bot_api import owner_key


def ask(client: TestClient, table: str, seat: int, token: str | None, **params: Any):
    headers = bearer(token) if token else None
    return client.post(f"/api/tables/{table}/hint", json={"seat": seat}, params=params, headers=headers)


def test_a_hint_on_a_table_with_hints_allowed(make_client, database, create_table) -> None:
    """On SQLite and PostgreSQL: the table option is stored, the hint lists legal moves, best first."""
    url, schema = database
    client = make_client(database=url, schema=schema)
    made = create_table(client, [HUMAN, HUMAN], hints=True)
    table, tokens = made["table"]["id"], made["tokens"]
    assert made["table"]["hints"] is True and made["table"]["rated"] is False  # hints: never rated
    now = state(client, table, 0, tokens[0])
    seat = now["to_act"][0]
    answer = ask(client, table, seat, tokens[seat], lang="ja")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["table"] == table and body["seat"] == seat and body["moves"] == now["moves"]
    legal = state(client, table, seat, tokens[seat])["legal"]
    choices = body["choices"]
    assert 1 <= len(choices) <= 3 and all(c["action"] in legal for c in choices)
    assert len({str(c["action"]) for c in choices}) == len(choices)
    assert all(0.0 <= c["value"] <= 1.0 and c["text"] for c in choices)
    # the best first: the most visited choice
    assert choices[0]["visits"] == max(c["visits"] for c in choices)
    # and the move it names can be played
    assert move(client, table, seat, tokens[seat], choices[0]["action"]).status_code == 200


def test_hints_are_refused_on_rated_tables_and_where_not_allowed(client: TestClient, create_table) -> None:
    rated = create_table(client, [HUMAN, BOT])  # a person against a bot: rated unless hints are allowed
    assert rated["table"]["rated"] is True
    refused = ask(client, rated["table"]["id"], 0, rated["tokens"][0])
    assert refused.status_code == 403 and refused.json()["code"] == "app:errors.hints_rated"
    assert "rated" in refused.json()["detail"]
    people = create_table(client, [HUMAN, HUMAN])  # two people, no hints ticked: rated
    refused = ask(client, people["table"]["id"], 0, people["tokens"][0])
    assert refused.status_code == 403 and refused.json()["code"] == "app:errors.hints_rated"
    casual_bots = create_table(client, [HUMAN, BOT], seed=7)  # one person against bots, unrated: allowed
    assert ask(client, casual_bots["table"]["id"], 0, casual_bots["tokens"][0]).status_code in (200, 409)
    hotseat = create_table(client, [HUMAN, HUMAN], hotseat=True)
    table, token = hotseat["table"]["id"], hotseat["tokens"][0]
    to_move = state(client, table, 0, token)["to_act"][0]
    assert ask(client, table, to_move, token).status_code == 200


def test_hints_are_refused_to_a_seat_not_to_move_and_to_others(client: TestClient, create_table) -> None:
    made = create_table(client, [HUMAN, HUMAN], hints=True)
    table, tokens = made["table"]["id"], made["tokens"]
    now = state(client, table, 0, tokens[0])
    waiting = [s for s in (0, 1) if s not in now["to_act"]]
    if not waiting:  # both choose at once: the one who chooses first then waits
        move(client, table, 0, tokens[0], now["legal"][0])
        waiting = [0]
    (idle,) = waiting
    refused = ask(client, table, idle, tokens[idle])
    assert refused.status_code == 409 and "not to move" in refused.json()["detail"]
    other = 1 - idle
    not_mine = ask(client, table, other, tokens[idle])
    assert not_mine.status_code == 403 and not_mine.json()["code"] == "app:errors.not_your_seat"
    assert ask(client, table, other, None).status_code == 401
    assert ask(client, table, other, guest_token(client, "Spectator")).status_code == 403
    assert ask(client, "no-such-table", 0, tokens[0]).status_code == 404


def test_hints_are_rate_limited_and_counted_against_the_bot_quota(make_client, create_table, monkeypatch) -> None:
    monkeypatch.setenv("ROBOTABLE_HINT_RATE", "2/minute")
    client = make_client()
    made = create_table(client, [HUMAN, HUMAN], hotseat=True)
    table, token = made["table"]["id"], made["tokens"][0]
    seat = state(client, table, 0, token)["to_act"][0]
    assert [ask(client, table, seat, token).status_code for _ in range(2)] == [200, 200]
    limited = ask(client, table, seat, token)
    assert limited.status_code == 429 and "too many hints" in limited.json()["detail"]
    assert int(limited.headers["retry-after"]) >= 1
    # the hints' thinking time is the account's, in the bot quota's hourly window
    account = client.get("/api/account", headers=bearer(token)).json()["account"]
    owner = owner_key(None, SimpleNamespace(id=account["id"]))  # type: ignore[arg-type]
    assert client.app.state.bot_queue.used(owner) > 0


def test_hints_over_the_bot_quota_are_refused(make_client, create_table, monkeypatch) -> None:
    monkeypatch.setenv("ROBOTABLE_BOT_SECONDS", "0")
    client = make_client()
    made = create_table(client, [HUMAN, HUMAN], hotseat=True)
    table, token = made["table"]["id"], made["tokens"][0]
    seat = state(client, table, 0, token)["to_act"][0]
    refused = ask(client, table, seat, token)
    assert refused.status_code == 429 and "bot quota" in refused.json()["detail"]


def test_the_hint_endpoint_is_in_the_openapi_schema(client: TestClient) -> None:
    post = client.get("/openapi.json").json()["paths"]["/api/tables/{table_id}/hint"]["post"]
    assert {"200", "401", "403", "409", "429"} <= set(post["responses"])
    assert post["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("HintOut")


def test_a_table_of_people_created_without_hints_allowed_refuses_hints(client: TestClient, create_table) -> None:
    """Not rated (a chosen seed), several people, "Hints allowed" not ticked: 403, for every seat, the
    seat to move too; the same table with hints allowed answers."""
    client.app.state.manager.allow_positions = True  # a test server: a chosen seed for a table of people
    plain = create_table(client, [HUMAN, HUMAN], seed=7)
    assert plain["table"]["rated"] is False and plain["table"]["hints"] is False
    table, tokens = plain["table"]["id"], plain["tokens"]
    to_move = state(client, table, 0, tokens[0])["to_act"]
    for seat in (0, 1):
        refused = ask(client, table, seat, tokens[seat])
        assert refused.status_code == 403, (seat, refused.text)
        assert refused.json()["code"] == "app:errors.hints_not_allowed" and "not allowed" in refused.json()["detail"]
    allowed = create_table(client, [HUMAN, HUMAN], seed=7, hints=True)
    seat = to_move[0]
    assert ask(client, allowed["table"]["id"], seat, allowed["tokens"][seat]).status_code == 200
