"""Ending a session ends it everywhere (issue 28, findings 1 and 5).

Real server processes and real websocket clients: a seat's socket opened with a session cookie (or an API
token) is closed with code 4401 after an ``error`` "signed out: sign in again" when that session ends by
sign-out, a password change on another device, "sign out everywhere", expiry or deletion; its moves are
refused and not stored. On a two-process cluster (PostgreSQL + Redis) the news goes through the fan-out.
API tokens die with a password change, and a token cannot make tokens.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy
from conftest import PG_URL, ServerProcess
from people import bearer
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from robotable.server.session_end import SIGNED_OUT
from robotable.server.sessions import COOKIE

REDIS = "redis://127.0.0.1:6379/0"
BOT = {"kind": "bot", "difficulty": "random"}
HUMAN = {"kind": "human"}


class Person:
    """A browser: a cookie jar on one server (``at`` moves it to another process of the cluster)."""

    def __init__(self, server: ServerProcess) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=10)
        self.csrf: str | None = None

    def at(self, server: ServerProcess) -> Person:
        """The same browser (same cookie) talking to another process."""
        other = Person(server)
        other.http.cookies.set(COOKIE, self.cookie)
        other.csrf = self.csrf
        return other

    @property
    def cookie(self) -> str:
        return self.http.cookies[COOKIE]

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf or ""})

    def sign_up(self, username: str, password: str = "correct horse 1") -> Person:
        res = self.http.post("/api/account/signup", json={"username": username, "password": password})
        assert res.status_code == 201, res.text
        self.csrf = res.json()["csrf"]
        return self

    def sign_in(self, username: str, password: str = "correct horse 1") -> Person:
        res = self.http.post("/api/account/signin", json={"username": username, "password": password})
        assert res.status_code == 200, res.text
        self.csrf = res.json()["csrf"]
        return self

    def guest(self, name: str = "Guest") -> Person:
        res = self.http.post("/api/account/guest", json={"display_name": name})
        assert res.status_code == 201, res.text
        self.csrf = res.json()["csrf"]
        return self

    def bot_table(self) -> str:
        """A table of this person (seat 0) against a random bot that waits for the person."""
        res = self.post("/api/tables", {"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, BOT]})
        assert res.status_code == 201, res.text
        return res.json()["table"]["id"]

    def close(self) -> None:
        self.http.close()


class Socket:
    """A seat's websocket (cookie or token), keeping every message."""

    def __init__(self, server: ServerProcess, table: str, cookie: str | None = None, token: str | None = None):
        headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else bearer(token or "")
        self._stack = ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect(f"{server.ws_url}/ws/tables/{table}?seat=0", open_timeout=10, additional_headers=headers)
        )
        self.received: list[dict[str, Any]] = []
        self.snapshot = self.until(lambda m: m["type"] == "snapshot")

    def until(self, check: Callable[[dict[str, Any]], bool], timeout: float = 60) -> dict[str, Any]:
        while True:
            msg = json.loads(self.ws.recv(timeout=timeout))
            self.received.append(msg)
            if check(msg):
                return msg

    def ended(self, timeout: float = 60) -> tuple[dict[str, Any], int]:
        """The signed-out error, then the close code (every message after it is kept in ``received``)."""
        error = self.until(lambda m: m["type"] == "error", timeout)
        with pytest.raises(ConnectionClosed):
            while True:
                self.received.append(json.loads(self.ws.recv(timeout=timeout)))
        assert self.ws.close_code is not None
        return error, self.ws.close_code

    def move(self) -> None:
        self.ws.send(json.dumps({"type": "move", "action": self.snapshot["legal"][0], "ref": "m"}))

    def close(self) -> None:
        self._stack.close()


def moves_stored(server: ServerProcess, table: str) -> int:
    return server.api("GET", f"/api/tables/{table}").json()["moves"]


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """``start(env=..., extra=...)``: server processes on one SQLite file (stopped at the end)."""
    started: list[ServerProcess] = []

    def start(env: dict[str, str] | None = None, extra: tuple[str, ...] = ()) -> ServerProcess:
        server = ServerProcess(f"sqlite:///{tmp_path / 'sec.db'}", 0.0, env=env, extra=extra)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def cluster(pg_schema: str) -> Iterator[Callable[..., list[ServerProcess]]]:
    """``cluster(env=...)``: two processes on one PostgreSQL schema and one Redis key prefix."""
    started: list[ServerProcess] = []
    prefix = f"rt-sec-{secrets.token_hex(4)}:"

    def start(env: dict[str, str] | None = None) -> list[ServerProcess]:
        for _ in range(2):
            server = ServerProcess(
                PG_URL, 0.0, schema=pg_schema, extra=("--redis", REDIS, "--redis-prefix", prefix), env=env
            )
            started.append(server)
            server.start()
        return started[-2:]

    yield start
    for server in started:
        server.stop()


def assert_signed_out(sock: Socket, server: ServerProcess, table: str) -> None:
    """The socket got the signed-out error and close code, no private frame after it, and a move sent
    now changes nothing."""
    before = moves_stored(server, table)
    error, code = sock.ended()
    assert error["status"] == 401 and error["code"] == "app:errors.signed_out"
    assert error["message"] == "signed out: sign in again"
    assert code == SIGNED_OUT
    assert sock.received[-1] is error  # nothing after the error
    with pytest.raises(ConnectionClosed):
        sock.move()
    assert moves_stored(server, table) == before


# -- one process ---------------------------------------------------------------------------------------


def test_sign_out_closes_the_sessions_socket_and_its_moves_stop(servers) -> None:
    server = servers()
    alice = Person(server).sign_up("alice")
    table = alice.bot_table()
    thief = Socket(server, table, cookie=alice.cookie)  # a stolen copy of the cookie
    assert thief.snapshot["legal"], "seat 0 is to act"
    assert alice.post("/api/account/signout").status_code == 200
    assert_signed_out(thief, server, table)


def test_a_password_change_on_another_device_ends_the_other_sessions_sockets_and_tokens(servers) -> None:
    server = servers()
    phone = Person(server).sign_up("bob")
    token = phone.post("/api/account/token").json()["token"]
    table = phone.bot_table()
    laptop = Person(server).sign_in("bob")
    by_cookie = Socket(server, table, cookie=phone.cookie)
    by_token = Socket(server, table, token=token)
    mine = Socket(server, table, cookie=laptop.cookie)
    res = laptop.post("/api/account/password", {"current_password": "correct horse 1", "password": "new horse 22"})
    assert res.status_code == 200, res.text
    assert_signed_out(by_cookie, server, table)
    assert_signed_out(by_token, server, table)
    assert server.api("GET", "/api/account", headers=bearer(token)).status_code == 401  # the token died too
    # the session that changed the password plays on
    mine.move()
    ack = mine.until(lambda m: m["type"] in ("ack", "error"))
    assert ack["type"] == "ack", ack
    assert moves_stored(server, table) >= 1


def test_an_api_token_cannot_make_tokens(servers) -> None:
    server = servers()
    owner = Person(server).sign_up("carol")
    token = owner.post("/api/account/token").json()["token"]
    res = server.api("POST", "/api/account/token", headers=bearer(token))
    assert res.status_code == 403 and res.json()["code"] == "app:errors.token_from_token"
    assert server.api("GET", "/api/account", headers=bearer(token)).status_code == 200  # still the same token


def test_a_new_token_closes_the_old_tokens_sockets(servers) -> None:
    server = servers()
    owner = Person(server).sign_up("dora")
    old = owner.post("/api/account/token").json()["token"]
    table = owner.bot_table()
    sock = Socket(server, table, token=old)
    assert owner.post("/api/account/token").status_code == 200
    assert_signed_out(sock, server, table)


def test_an_expired_session_cannot_move_on_its_open_socket(servers, tmp_path: Path) -> None:
    server = servers()
    erin = Person(server).sign_up("erin")
    table = erin.bot_table()
    sock = Socket(server, table, cookie=erin.cookie)
    engine = sqlalchemy.create_engine(f"sqlite:///{tmp_path / 'sec.db'}")
    with engine.begin() as conn:  # the session's expiry passes (the stored time, not a sleep)
        conn.execute(sqlalchemy.text("UPDATE robotable_sessions SET expires_at = '2000-01-01 00:00:00'"))
    engine.dispose()
    sock.move()
    assert_signed_out(sock, server, table)
    assert moves_stored(server, table) == 0


def test_a_deleted_session_closes_its_socket_without_a_write(servers, tmp_path: Path) -> None:
    server = servers(env={"ROBOTABLE_SESSION_CHECK_SECONDS": "0.2"})
    fay = Person(server).sign_up("fay")
    table = fay.bot_table()
    sock = Socket(server, table, cookie=fay.cookie)
    engine = sqlalchemy.create_engine(f"sqlite:///{tmp_path / 'sec.db'}")
    with engine.begin() as conn:
        conn.execute(sqlalchemy.text("DELETE FROM robotable_sessions"))
    engine.dispose()
    assert_signed_out(sock, server, table)


def test_sign_out_everywhere_ends_every_session_and_the_token(servers) -> None:
    server = servers()
    gus = Person(server).sign_up("gus")
    token = gus.post("/api/account/token").json()["token"]
    table = gus.bot_table()
    other = Person(server).sign_in("gus")
    sockets = [Socket(server, table, cookie=gus.cookie), Socket(server, table, token=token)]
    assert other.post("/api/account/signout-everywhere").status_code == 200
    for sock in sockets:
        assert_signed_out(sock, server, table)
    assert gus.http.get("/api/account").json()["account"] is None
    assert server.api("GET", "/api/account", headers=bearer(token)).status_code == 401


def test_a_guest_who_adds_a_password_gets_a_new_session_id(servers) -> None:
    server = servers()
    guest = Person(server).guest("Hal")
    before = guest.cookie
    res = guest.post("/api/account/password", {"username": "hal9000", "password": "open the pod bay"})
    assert res.status_code == 200, res.text
    assert guest.cookie != before
    guest.csrf = res.json()["csrf"]
    assert guest.http.get("/api/account").json()["account"]["username"] == "hal9000"
    old = httpx.get(f"{server.url}/api/account", cookies={COOKIE: before}, timeout=10).json()
    assert old["account"] is None  # the id it had as a guest is worth nothing now


# -- two processes ----------------------------------------------------------------------------------


def test_cluster_sign_out_through_a_closes_the_socket_on_b(cluster) -> None:
    a, b = cluster()
    ivy = Person(a).sign_up("ivy")
    table = ivy.bot_table()
    thief = Socket(b, table, cookie=ivy.cookie)
    assert ivy.post("/api/account/signout").status_code == 200
    assert_signed_out(thief, b, table)


def test_cluster_password_change_through_a_closes_sockets_on_b(cluster) -> None:
    a, b = cluster()
    jan = Person(a).sign_up("jan")
    token = jan.post("/api/account/token").json()["token"]
    table = jan.bot_table()
    on_b = [Socket(b, table, cookie=jan.cookie), Socket(b, table, token=token)]
    laptop = Person(a).sign_in("jan")
    res = laptop.post("/api/account/password", {"current_password": "correct horse 1", "password": "new horse 22"})
    assert res.status_code == 200, res.text
    for sock in on_b:
        assert_signed_out(sock, b, table)
