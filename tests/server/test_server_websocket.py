"""Websockets against a real uvicorn process: two seats and a spectator, pushes, secrets, refusals."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest
from clock_helpers import timeless
from message_check import received_messages_are_declared  # noqa: F401  (every message received is declared)
from people import bearer, guest_token
from websockets.sync.client import ClientConnection, connect

HUMAN = {"kind": "human"}


class Client:
    """A websocket client that keeps every message it received."""

    def __init__(self, url: str, token: str | None = None, headers: dict[str, str] | None = None) -> None:
        self._stack = ExitStack()
        headers = {**(headers or {}), **(bearer(token) if token else {})}
        self.ws: ClientConnection = self._stack.enter_context(connect(url, open_timeout=10, additional_headers=headers))
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []

    def next(self, timeout: float = 60) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        self.raw.append(text)
        msg = json.loads(text)
        self.received.append(msg)
        return msg

    def until(self, kind: str, timeout: float = 60) -> dict[str, Any]:
        """The next message of type ``kind``, skipping summary pushes (and, for answers, earlier updates)."""
        skip = ("table",) if kind in ("snapshot", "update") else ("table", "update")
        while True:
            msg = self.next(timeout)
            if msg["type"] == kind:
                return msg
            assert msg["type"] in skip, f"expected {kind}, got {msg}"

    def send(self, data: Any) -> None:
        self.ws.send(data if isinstance(data, str | bytes) else json.dumps(data))

    def close(self) -> None:
        self._stack.close()


@pytest.fixture
def two_seats(server_factory, create_table):
    server = server_factory()
    made = create_table(server, [HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    base = f"{server.ws_url}/ws/tables/{table}"
    a = Client(f"{base}?seat=0", tokens[0])
    b = Client(f"{base}?seat=1", tokens[1])
    spectator = Client(base)
    yield server, table, tokens, a, b, spectator
    for c in (a, b, spectator):
        c.close()


def test_moves_are_pushed_to_both_seats_and_secrets_stay_secret(two_seats) -> None:
    server, table, _tokens, a, b, spectator = two_seats
    snap_a, snap_b, snap_s = a.until("snapshot"), b.until("snapshot"), spectator.until("snapshot")
    assert snap_a["seat"] == 0 and snap_b["seat"] == 1 and snap_s["seat"] is None
    assert snap_a["legal"] and snap_b["legal"] and snap_s["legal"] == []

    a.send({"type": "move", "action": {"type": "play", "value": 6}, "after": 0, "ref": "m1"})
    upd_a = a.until("update")
    assert a.until("ack") == {"type": "ack", "ref": "m1", "moves": 1}
    assert {"type": "your_choice", "seat": 0, "choice": {"type": "play", "value": 6}, "move": 1} in upd_a["events"]
    assert upd_a["view"]["players"][0]["choice"] == {"type": "play", "value": 6}
    assert upd_a["legal"] == []

    for other in (b, spectator):
        upd = other.until("update")
        assert upd["moves"] == 1
        assert [e["type"] for e in upd["events"]] == ["chose"]
        seat0 = upd["view"]["players"][0]
        assert seat0["has_chosen"] and "choice" not in seat0 and 6 in seat0["hand"]
        assert all("your_choice" not in raw and '"choice"' not in raw for raw in other.raw)
    assert b.received[-1]["legal"], "seat 1 still has to choose"

    b.send({"type": "move", "action": {"type": "play", "value": 2}})
    for c in (a, b, spectator):
        upd = c.until("update")
        reveal = next(e for e in upd["events"] if e["type"] == "reveal")
        assert reveal["choices"] == [{"type": "play", "value": 6}, {"type": "play", "value": 2}]
        assert upd["view"]["phase"] == "load" and upd["to_act"] == [0]
    assert a.received[-1]["legal"] and not b.received[-1]["legal"]
    assert server.api("GET", f"/api/tables/{table}").json()["moves"] == 2


def test_refused_websocket_moves_change_nothing(two_seats, server_factory) -> None:
    server, table, tokens, a, b, spectator = two_seats
    for c in (a, b, spectator):
        c.until("snapshot")
    a.send({"type": "move", "action": {"type": "play", "value": 7}})
    a.until("update"), a.until("ack"), b.until("update")
    b.send({"type": "move", "action": {"type": "play", "value": 3}})
    a.until("update"), b.until("update"), b.until("ack")
    before = server.api("GET", f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(tokens[0])).json()
    assert before["view"]["phase"] == "load" and before["to_act"] == [0]

    def refused(client: Client, message: Any, words: str) -> None:
        client.send(message)
        err = client.until("error")
        assert words in err["message"], err

    refused(b, {"type": "move", "action": {"type": "play", "value": 4}}, "not to act")  # out of turn
    refused(a, {"type": "move", "action": {"type": "play", "value": 4}}, "must decide")  # illegal now
    refused(a, {"type": "move", "action": {"type": "load", "slot": 42}}, "loading rules")  # illegal slot
    refused(a, {"type": "move", "action": {"type": "load"}}, "missing field 'slot'")  # malformed action
    refused(a, {"type": "move", "action": {"type": "load", "slot": 0}, "after": 1}, "stale")
    refused(a, "{this is not json", "not valid JSON")
    refused(a, {"type": "teleport"}, "bad message")
    refused(a, {"type": "move"}, "action")
    refused(a, [1, 2, 3], "bad message")
    refused(a, b"\x00binary", "not binary")
    refused(spectator, {"type": "move", "action": {"type": "load", "slot": 0}}, "spectators cannot play")
    refused(a, {"type": "undo"}, "cannot undo past another player's move")  # b's move came after a's

    # seat 1's player, a stranger, a signed-out client, a bad token and another site's page cannot play seat 0
    for token, status, words in (
        (tokens[1], 403, "seat 1 is not yours"),
        (guest_token(server, "Stranger"), 403, "seat 1 is not yours"),
        (None, 401, "sign in"),
        ("rt_stolen", 401, "unknown or revoked API token"),
    ):
        wrong = Client(f"{server.ws_url}/ws/tables/{table}?seat=0", token)
        err = wrong.next()
        assert err["type"] == "error" and err["status"] == status and words in err["message"], err
        wrong.close()
    cross = Client(f"{server.ws_url}/ws/tables/{table}?seat=0", tokens[0], {"Origin": "http://evil.example"})
    err = cross.next()
    assert err["status"] == 403 and "another site" in err["message"]
    cross.close()
    # a token in the URL is not read: this is a spectator
    spy = Client(f"{server.ws_url}/ws/tables/{table}?token={tokens[0]}")
    assert spy.until("snapshot")["seat"] is None
    spy.close()
    missing = Client(f"{server.ws_url}/ws/tables/nowhere")
    assert missing.next()["status"] == 404
    missing.close()

    after = server.api("GET", f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(tokens[0])).json()
    assert timeless(after) == timeless(before)
    a.send({"type": "ping", "ref": 7})
    assert a.until("pong")["ref"] == 7
    # the legal move still goes through, and both see it
    a.send({"type": "move", "action": before["legal"][0], "after": before["moves"]})
    assert a.until("update")["moves"] == before["moves"] + 1
    assert b.until("update")["moves"] == before["moves"] + 1


def test_bots_move_on_the_server_and_undo_over_the_socket(server_factory, create_table) -> None:
    server = server_factory(bot_delay=3.0)
    made = create_table(server, [HUMAN, {"kind": "bot", "difficulty": "random"}])
    table, token = made["table"]["id"], made["tokens"][0]
    a = Client(f"{server.ws_url}/ws/tables/{table}?seat=0", token)
    a.until("snapshot")
    a.send({"type": "move", "action": {"type": "play", "value": 5}})
    assert a.until("update")["can_undo"] is True
    a.until("ack")
    a.send({"type": "undo", "ref": "u"})
    snap = a.until("snapshot")
    assert snap["reason"] == "undo" and snap["moves"] == 0 and {"type": "play", "value": 5} in snap["legal"]
    assert a.until("ack") == {"type": "ack", "ref": "u", "moves": 0, "undone": 1}
    a.send({"type": "move", "action": {"type": "play", "value": 3}})
    a.until("update"), a.until("ack")
    bot_move = a.until("update", timeout=10)  # the bot chooses after its delay: the reveal
    assert bot_move["moves"] == 2 and any(e["type"] == "reveal" for e in bot_move["events"])
    a.send({"type": "undo"})
    assert "revealed" in a.until("error")["message"]
    a.close()
