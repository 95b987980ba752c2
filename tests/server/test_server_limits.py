"""Limits and hygiene at the edge: rates, connections, timeouts, security headers, JSON errors, secrets."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from people import bearer, guest_token, wait_for
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from robotable.server import create_app
from robotable.server.headers import CSP

HUMAN = {"kind": "human"}
TF22 = {"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, HUMAN]}


def raw_request(port: int, data: bytes, timeout: float = 10) -> bytes:
    """Send raw bytes on a new connection and read the first answer (b"" if it closes silently)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        try:
            return sock.recv(4096)
        except TimeoutError:
            return b"(no answer)"


def test_table_creation_is_rate_limited_per_address(server_factory: Any) -> None:
    server = server_factory(env={"ROBOTABLE_CREATE_RATE": "3/minute"})
    me = bearer(guest_token(server))
    answers = [server.api("POST", "/api/tables", json=TF22, headers=me) for _ in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert "too many tables" in answers[-1].json()["detail"] and "3/minute" in answers[-1].json()["detail"]
    listed = server.api("GET", "/api/tables").json()
    assert len(listed) == 3  # the refused one made nothing


def test_websockets_per_address_are_limited_with_an_error_message(server_factory: Any, create_table: Any) -> None:
    server = server_factory(env={"ROBOTABLE_WS_PER_IP": "2"})
    table = create_table(server, [HUMAN, HUMAN])["table"]["id"]
    url = f"{server.ws_url}/ws/tables/{table}"
    with connect(url) as first, connect(url) as second:
        assert json.loads(first.recv(timeout=10))["type"] == "snapshot"
        assert json.loads(second.recv(timeout=10))["type"] == "snapshot"
        with connect(url) as third:
            refusal = json.loads(third.recv(timeout=10))
            assert refusal["type"] == "error" and refusal["status"] == 429
            assert "too many open connections" in refusal["message"]
            with pytest.raises(ConnectionClosed) as closed:
                third.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429

    # the two closed: room again once the server has seen them go (a client's close handshake can end
    # a moment before the server's handler for that socket does)
    def room_again() -> bool:
        with connect(url) as again:
            answer = json.loads(again.recv(timeout=30))
        assert answer["type"] == "snapshot" or answer["status"] == 429, answer
        return answer["type"] == "snapshot"

    wait_for(room_again, "room for a connection once the two closed")


def test_slow_headers_time_out_and_connections_per_address_are_capped(server_factory: Any) -> None:
    server = server_factory(env={"ROBOTABLE_HEADER_TIMEOUT": "1", "ROBOTABLE_CONNECTIONS_PER_IP": "3"})
    start = time.monotonic()
    answer = raw_request(server.port, b"GET /api/games HTTP/1.1\r\nHost: x\r\n")  # never finishes its headers
    # (the default is 10 s, the read's own timeout: the configured second, not the default, ended it)
    assert answer.startswith(b"HTTP/1.1 408") and time.monotonic() - start < 9
    held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(3)]
    request = b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n"
    try:  # refused once the server has taken the three in (which a busy machine may do a moment late)
        wait_for(lambda: raw_request(server.port, request).startswith(b"HTTP/1.1 503"), "a fourth connection refused")
    finally:
        for sock in held:
            sock.close()
    wait_for(lambda: raw_request(server.port, request).startswith(b"HTTP/1.1 200"), "room once the three closed")


def test_long_targets_and_heads_are_answered(server_factory: Any) -> None:
    server = server_factory()
    upgrade = (
        "GET /ws/tables/abc?x=" + "a" * 8200 + " HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    assert raw_request(server.port, upgrade.encode()).startswith(b"HTTP/1.1 414")
    big_head = b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"p" * 40_000 + b"\r\n\r\n"
    assert raw_request(server.port, big_head).startswith(b"HTTP/1.1 431")
    garbage = raw_request(server.port, b"NOT HTTP AT ALL\r\n\r\n")
    assert garbage.startswith(b"HTTP/1.1 400") and b"application/json" in garbage and b"invalid HTTP request" in garbage
    assert server.api("GET", "/api/games").status_code == 200


def test_security_headers_on_pages_answers_and_errors(client: TestClient) -> None:
    for path in ("/", "/table/abc", "/static/js/lobby.js", "/api/games", "/api/tables/nowhere", "/missing"):
        res = client.get(path)
        assert res.headers["content-security-policy"] == CSP, path
        assert "frame-ancestors 'none'" in CSP and "script-src 'self'" in CSP
        assert res.headers["x-content-type-options"] == "nosniff"
        assert res.headers["referrer-policy"] == "no-referrer"
    docs = client.get("/docs")
    assert docs.status_code == 200 and "cdn.jsdelivr.net" in docs.headers["content-security-policy"]
    refused = client.post("/api/tables", content=b"x" * 70_000, headers={"content-type": "application/json"})
    assert refused.status_code == 413 and refused.headers["content-security-policy"] == CSP


def test_an_unexpected_error_is_a_json_500_without_details(tmp_path: Any) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'crash.db'}")

    @app.get("/api/crash")
    def crash() -> None:
        raise RuntimeError("secret internals")

    with TestClient(app, raise_server_exceptions=False) as client:
        res = client.get("/api/crash")
    assert res.status_code == 500
    assert res.headers["content-type"] == "application/json"
    assert "internal server error" in res.json()["detail"] and "secret" not in res.text
    assert res.headers["content-security-policy"] == CSP


def test_the_database_password_is_never_printed(pg_url: str, pg_schema: str) -> None:
    url = pg_url.replace("postgres@", "postgres:hunter2secret@")  # trust auth: the password is ignored
    proc = subprocess.Popen(
        [sys.executable, "-m", "robotable.server", "--port", "0", "--database", url, "--schema", pg_schema],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        line = proc.stdout.readline().decode() if proc.stdout else ""
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert "Robotable on" in line and "***" in line and "hunter2secret" not in line


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({**TF22, "num_players": True}, "num_players"),
        ({**TF22, "num_players": "2"}, "num_players"),
        ({**TF22, "seed": 2**63}, "seed"),
        ({**TF22, "seats": [{"kind": "human", "name": 5}, HUMAN]}, "name"),
    ],
)
def test_strict_types_at_the_api_edge(client: TestClient, body: dict[str, Any], words: str) -> None:
    res = client.post("/api/tables", json=body, headers=bearer(guest_token(client)))
    assert res.status_code == 422 and words in res.json()["detail"]
    assert client.get("/api/tables").json() == []


def test_spectators_joining_and_leaving_send_the_players_nothing(server_factory: Any, create_table: Any) -> None:
    """Joins and leaves are coalesced: 40 spectators coming and going cost the players no message at all
    (they change no seat's "connected" flag), where every join used to be broadcast to every socket."""
    server = server_factory()
    made = create_table(server, [HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    base = f"{server.ws_url}/ws/tables/{table}"
    with (
        connect(f"{base}?seat=0", additional_headers=bearer(tokens[0])) as a,
        connect(f"{base}?seat=1", additional_headers=bearer(tokens[1])) as b,
    ):
        assert json.loads(a.recv(timeout=10))["type"] == "snapshot"
        assert json.loads(b.recv(timeout=10))["type"] == "snapshot"
        while True:  # the players' own presence: one summary once both are connected
            msg = json.loads(a.recv(timeout=10))
            if msg["type"] == "table" and all(s["connected"] for s in msg["table"]["seats"]):
                break
        for _ in range(4):
            with ExitStack() as stack:
                spectators = [stack.enter_context(connect(base)) for _ in range(10)]
                for s in spectators:
                    assert json.loads(s.recv(timeout=10))["type"] == "snapshot"
        a.send(json.dumps({"type": "ping", "ref": "after"}))
        seen = []
        while (msg := json.loads(a.recv(timeout=10)))["type"] != "pong":
            seen.append(msg["type"])
        assert seen == [] and msg["ref"] == "after"
