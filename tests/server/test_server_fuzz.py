"""Bad input against a real server process, over HTTP and websockets, on SQLite and on PostgreSQL.

Each input listed in issue 14 (and random JSON from hypothesis, a bounded number of examples) must get
a 4xx answer or a websocket ``error`` naming the problem: never a 500, never a dropped socket, and the
table must not change (its state is compared before and after).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from people import bearer
from websockets.sync.client import ClientConnection, connect

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}
DEEP = "[" * 30_000 + "]" * 30_000  # 60,000 bytes: under the size limit, far over the depth limit
BIG_NUMBER = "9" * 5_000


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, server_factory: Any, pg_url: str, pg_schema: str) -> Any:
    """A real server process on SQLite or on PostgreSQL (in a schema of its own)."""
    env = {"ROBOTABLE_CREATE_RATE": "1000/minute"}
    if request.param == "sqlite":
        return server_factory(env=env)
    return server_factory(database=pg_url, schema=pg_schema, env=env)


class Table:
    """A two-person table on the server, with helpers to send bad input and check nothing changed."""

    def __init__(self, server: Any, create_table: Any) -> None:
        self.server = server
        made = create_table(server, [HUMAN, HUMAN])
        self.id, self.tokens = made["table"]["id"], made["tokens"]
        self.before = self.state()

    def state(self) -> dict[str, Any]:
        res = self.server.api("GET", f"/api/tables/{self.id}/state", params={"seat": 0}, headers=bearer(self.tokens[0]))
        assert res.status_code == 200, res.text
        return res.json()

    def post_raw(self, path: str, body: bytes) -> Any:
        headers = {"content-type": "application/json", **bearer(self.tokens[0])}
        return self.server.api("POST", path, content=body, headers=headers)

    @contextmanager
    def socket(self) -> Iterator[ClientConnection]:
        url = f"{self.server.ws_url}/ws/tables/{self.id}?seat=0"
        with connect(url, open_timeout=10, max_size=2**22, additional_headers=bearer(self.tokens[0])) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
            yield ws

    def assert_unchanged(self) -> None:
        after = self.state()
        assert after["moves"] == self.before["moves"] == 0
        assert after["view"] == self.before["view"] and after["table"]["seats"] == self.before["table"]["seats"]


def refused(res: Any, status: int | tuple[int, ...], words: str) -> None:
    """A 4xx JSON answer naming the problem, that does not echo a big body back."""
    statuses = status if isinstance(status, tuple) else (status,)
    assert res.status_code in statuses, (res.status_code, res.text[:300])
    assert res.headers["content-type"].startswith("application/json")
    assert words in res.json()["detail"], res.json()
    assert len(res.content) < 2_000


def ws_refused(ws: ClientConnection, message: str | bytes, words: str) -> None:
    """An ``error`` naming the problem, and the socket still answers a ping."""
    ws.send(message)
    while True:
        reply = json.loads(ws.recv(timeout=10))
        if reply["type"] != "table":
            break
    assert reply["type"] == "error" and 400 <= reply["status"] < 500, reply
    assert words in reply["message"], reply
    assert len(reply["message"]) < 2_000
    ws.send(json.dumps({"type": "ping", "ref": "alive"}))
    while (pong := json.loads(ws.recv(timeout=10)))["type"] == "table":
        pass
    assert pong == {"type": "pong", "ref": "alive"}


def test_listed_inputs_over_http_are_refused_and_change_nothing(server: Any, create_table: Any) -> None:
    table = Table(server, create_table)
    move = f"/api/tables/{table.id}/moves"

    def body(action: str, seat: str = "0") -> bytes:
        return f'{{"seat": {seat}, "action": {action}}}'.encode()

    refused(table.post_raw(move, body('{"type": "play", "value": 6}', seat="true")), 422, "seat")
    refused(table.post_raw(move, body('{"type": ["play"], "value": 6}')), 422, "'type' must be a string")
    refused(table.post_raw(move, body('{"type": {"a": 1}, "value": 6}')), 422, "'type' must be a string")
    preview = f"/api/tables/{table.id}/preview"
    refused(table.post_raw(preview, body('{"type": [], "value": 6}')), 422, "'type' must be a string")
    refused(table.post_raw(move, body('{"type": "play", "\\ud800": 6}')), 422, "lone surrogate")
    refused(table.post_raw(move, body('{"type": "play", "value": ' + BIG_NUMBER + "}")), 422, "5000 characters")
    refused(table.post_raw(move, body('{"type": "play", "value": NaN}')), 422, "NaN")
    refused(table.post_raw(move, b'{"seat": 0, "tok\xff\xfe'), 422, "UTF-8")
    refused(table.post_raw(move, body('{"type": "play", "value": 6}') + b" " * 70_000), 413, "bytes")
    refused(table.post_raw(move, b"[" * 50_000 + b"]" * 50_000), 413, "bytes")  # 100 kB: too big first
    refused(table.post_raw(move, DEEP.encode()), 422, "deep")
    seed_2_64 = {"game": "tf22-reload", "num_players": 2, "seed": 2**64, "moves": []}
    refused(server.api("POST", "/api/replays", json={"record": seed_2_64}), 400, "seed")
    bad_type = {"game": "tf22-reload", "num_players": 2, "seed": 1, "moves": [[0, {"type": [1]}]]}
    refused(server.api("POST", "/api/replays", json={"record": bad_type}), 400, "'type' must be a string")
    refused(server.api("POST", "/api/replays", json={"record": {**seed_2_64, "seed": 1}, "seat": True}), 422, "seat")
    nested = '{"a": ' * 1_500 + "1" + "}" * 1_500
    create = '{"game": "tf22-reload", "num_players": 2, "options": ' + nested + "}"
    refused(table.post_raw("/api/tables", create.encode()), 422, "deep")
    named = {"game": "tf22-reload", "num_players": 2, "seats": [{"kind": "human", "name": "a\x00b"}, HUMAN]}
    refused(server.api("POST", "/api/tables", json=named, headers=bearer(table.tokens[0])), 422, "NUL")
    claim = f"/api/tables/{table.id}/seats/1/claim"
    refused(table.post_raw(claim, b'{"name": "x\\u0000y"}'), 422, "NUL")
    deep_options = {"num_players": 2, "options": "[" * 300 + "]" * 300}
    setup = server.api("GET", "/api/games/tf22-reload/setup", params=deep_options)
    refused(setup, 400, "deep")
    refused(server.api("GET", "/api/tables/nowhere"), 404, "no table")
    table.assert_unchanged()
    assert create_table(server, [HUMAN, BOT])["table"]["moves"] == 0  # the server still works


def test_listed_inputs_over_the_websocket_are_refused_and_change_nothing(server: Any, create_table: Any) -> None:
    table = Table(server, create_table)
    with table.socket() as ws:
        ws_refused(ws, DEEP, "deep")
        ws_refused(ws, '{"type": "move", "action": {"type": "play", "value": ' + BIG_NUMBER + "}}", "characters")
        ws_refused(ws, '{"type": ["move"], "action": {"type": "play", "value": 6}}', "bad message")
        ws_refused(ws, '{"type": "move", "action": {"type": ["play"], "value": 6}}', "'type' must be a string")
        ws_refused(ws, '{"type": "move", "action": {"type": {}, "value": 6}}', "'type' must be a string")
        ws_refused(ws, '{"type": "ping", "ref": "\\udc00"}', "lone surrogate")
        ws_refused(ws, '{"type": "move", "action": {"type": "play", "\\ud800": 6}}', "lone surrogate")
        ws_refused(ws, '{"type": "move", "action": {"type": "play", "value": 6}, "after": true}', "after")
        ws_refused(ws, json.dumps({"type": "ping", "pad": "x" * 100_000}), "bytes")
        ws_refused(ws, b"\x00\x01binary", "binary")
    table.assert_unchanged()


JSON_SCALARS = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
#: Messages shaped like the real ones with wrong parts, and arbitrary JSON.
WS_MESSAGES = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["move", "undo", "ping"]) | JSON_VALUES, "action": JSON_VALUES}),
    st.fixed_dictionaries({"type": st.just("move"), "action": st.dictionaries(st.text(max_size=8), JSON_VALUES)}),
    JSON_VALUES,
)


def test_random_json_never_breaks_the_server(server: Any, create_table: Any) -> None:
    """Random JSON to every body-taking endpoint and over the socket: only 2xx/4xx, the socket stays open."""
    table = Table(server, create_table)
    t0 = table.tokens[0]
    paths = [
        f"/api/tables/{table.id}/moves",
        f"/api/tables/{table.id}/preview",
        f"/api/tables/{table.id}/undo",
        "/api/replays",
        "/api/internal/bot-moves",  # the workers' endpoint: refused without their secret
    ]
    accepted = 0
    with table.socket() as ws:

        @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
        @given(message=WS_MESSAGES, action=JSON_VALUES, path=st.sampled_from(paths))
        def probe(message: Any, action: Any, path: str) -> None:
            nonlocal accepted
            res = server.api("POST", path, json={"seat": 0, "action": action}, headers=bearer(t0))
            assert res.status_code < 500 and res.headers["content-type"].startswith("application/json"), res.text
            accepted += res.status_code == 200 and path.endswith("/moves")
            ws.send(json.dumps(message))
            while (reply := json.loads(ws.recv(timeout=10)))["type"] in ("table", "update"):
                pass
            assert reply["type"] in ("error", "pong", "ack"), reply
            accepted += reply["type"] == "ack"
            if reply["type"] == "error":
                assert reply["status"] < 500, reply

        probe()
    assert table.state()["moves"] == accepted  # only accepted moves changed the table
