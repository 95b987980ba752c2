"""Table chat over the API on SQLite and PostgreSQL: who may write, limits, storage, the websocket push, mutes."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient
from message_check import received_messages_are_declared  # noqa: F401  (every message received is declared)
from people import bearer, guest_token, new_table

from robotable.server import create_app

HUMAN = {"kind": "human"}


@pytest.fixture
def make(database: tuple[str, str | None]) -> Iterator[Callable[[], TestClient]]:
    """In-process clients on one app over the parametrized database (a second app = a restarted server)."""
    url, schema = database
    clients: list[TestClient] = []

    def new() -> TestClient:
        client = TestClient(create_app(url, schema=schema, bot_delay=0))
        client.__enter__()
        clients.append(client)
        return client

    yield new
    for client in reversed(clients):
        client.__exit__(None, None, None)


def say(client: TestClient, table: str, token: str | None, text: str):
    return client.post(f"/api/tables/{table}/chat", json={"text": text}, headers=bearer(token) if token else None)


def test_players_chat_spectators_read_and_lines_are_kept_with_the_table(make) -> None:
    client = make()
    made = new_table(client, [HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    with client.websocket_connect(f"/ws/tables/{table}") as spectator:
        assert spectator.receive_json()["type"] == "snapshot"
        res = say(client, table, tokens[1], "  <script>alert(1)</script> hello  ")
        assert res.status_code == 200, res.text
        line = res.json()["line"]
        assert line["text"] == "<script>alert(1)</script> hello" and line["seat"] == 1 and line["name"] == "Player 2"
        pushed = spectator.receive_json()
        while pushed["type"] != "chat":
            pushed = spectator.receive_json()
        assert pushed == {"type": "chat", "line": line}  # through the table's websocket, like a move
    refusals = [
        (say(client, table, None, "hi"), 401, "sign in"),
        (say(client, table, guest_token(client, "Watcher"), "hi"), 403, "only the table's players"),
        (say(client, table, tokens[0], "   "), 400, "cannot be empty"),
        (say(client, table, tokens[0], "x" * 501), 400, "at most 500 characters (this one has 501)"),
        (say(client, table, tokens[0], "two\nlines"), 400, "one line of text"),
        (say(client, table, tokens[0], "x" * 2001), 422, "text"),
    ]
    for res, status, words in refusals:
        assert res.status_code == status and words in res.json()["detail"], res.text
    # stored with the table: a restarted server still has it, for spectators too
    again = make()
    lines = again.get(f"/api/tables/{table}/chat").json()["lines"]
    assert [(x["seat"], x["text"]) for x in lines] == [(1, "<script>alert(1)</script> hello")]


def test_too_fast_is_refused_per_account_and_table(make) -> None:
    client = make()
    made = new_table(client, [HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    for i in range(5):
        assert say(client, table, tokens[0], f"line {i}").status_code == 200
    res = say(client, table, tokens[0], "one more")
    assert res.status_code == 429 and "too many chat messages" in res.json()["detail"]
    assert int(res.headers["Retry-After"]) >= 1
    assert say(client, table, tokens[1], "my turn to talk").status_code == 200  # the other player is not held up
    texts = [x["text"] for x in client.get(f"/api/tables/{table}/chat").json()["lines"]]
    assert "one more" not in texts and len(texts) == 6


def test_mutes_are_per_viewer_and_kept_by_the_server(make) -> None:
    client = make()
    made = new_table(client, [HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    bob = client.get("/api/account", headers=bearer(tokens[1])).json()["account"]["id"]
    ann = client.get("/api/account", headers=bearer(tokens[0])).json()["account"]["id"]
    res = client.post("/api/account/mutes", json={"account": bob}, headers=bearer(tokens[0]))
    assert res.status_code == 200 and res.json()["muted"] == [{"id": bob, "display_name": "Player 2"}]
    seen = client.get(f"/api/tables/{table}/chat", headers=bearer(tokens[0])).json()["muted"]
    assert [m["id"] for m in seen] == [bob]
    assert client.get(f"/api/tables/{table}/chat", headers=bearer(tokens[1])).json()["muted"] == []
    assert client.post("/api/account/mutes", json={"account": ann}, headers=bearer(tokens[0])).status_code == 400
    assert client.post("/api/account/mutes", json={"account": "nobody"}, headers=bearer(tokens[0])).status_code == 404
    assert client.post("/api/account/mutes", json={"account": bob}).status_code == 401
    res = client.delete(f"/api/account/mutes/{bob}", headers=bearer(tokens[0]))
    assert res.status_code == 200 and res.json()["muted"] == []
