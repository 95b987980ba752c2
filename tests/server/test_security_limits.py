"""Rate limits shared by every process, sign-in that cannot lock a person out, trusted proxies (issue 28,
findings 2, 4 and 7).

Real server processes: a two-process cluster on PostgreSQL + Redis counts sign-ins, chat lines and new
tables together; ``--rate-limit-storage`` is an option of both commands and shares the counts of two
SQLite processes; wrong guesses from one address never refuse the right password from another; a
client's ``X-Forwarded-For`` is not believed unless ``--forwarded-allow-ips`` names the proxy.
"""

from __future__ import annotations

import secrets
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from conftest import PG_URL, ServerProcess
from test_security_sessions import REDIS, Person

WRONG = "not the password"
RIGHT = "correct horse 1"


@pytest.fixture
def prefix() -> str:
    """A Redis key prefix of this test's own."""
    return f"rt-sec-{secrets.token_hex(4)}:"


@pytest.fixture
def cluster2(pg_schema: str, prefix: str) -> Iterator[Callable[..., list[ServerProcess]]]:
    """``cluster2(env=...)``: two processes on one PostgreSQL schema and one Redis key prefix."""
    started: list[ServerProcess] = []

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


@pytest.fixture
def sqlite_servers(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """``start(extra=..., env=...)``: processes on one SQLite file."""
    started: list[ServerProcess] = []

    def start(extra: tuple[str, ...] = (), env: dict[str, str] | None = None) -> ServerProcess:
        server = ServerProcess(f"sqlite:///{tmp_path / 'limits.db'}", 0.0, extra=extra, env=env)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


def sign_in(server: ServerProcess, username: str, password: str, **kwargs: object) -> httpx.Response:
    return server.api("POST", "/api/account/signin", json={"username": username, "password": password}, **kwargs)


def from_address(server: ServerProcess, address: str) -> httpx.Client:
    """A client whose connections come from another loopback address (Linux routes all of 127/8)."""
    return httpx.Client(base_url=server.url, timeout=10, transport=httpx.HTTPTransport(local_address=address))


def assert_429(res: httpx.Response) -> None:
    assert res.status_code == 429, res.text
    assert int(res.headers["retry-after"]) >= 1


# -- the cluster ------------------------------------------------------------------------------------


def test_cluster_counts_wrong_sign_ins_through_both_processes(cluster2) -> None:
    a, b = cluster2()
    Person(a).sign_up("kim")
    for _ in range(5):
        assert sign_in(a, "kim", WRONG).status_code == 401
    assert_429(sign_in(b, "kim", WRONG))  # the sixth, through the other process
    assert_429(sign_in(b, "kim", RIGHT))  # from the same address, the right one waits too
    with from_address(b, "127.0.0.2") as other:  # the owner, elsewhere, is not locked out
        res = other.post("/api/account/signin", json={"username": "kim", "password": RIGHT})
        assert res.status_code == 200, res.text


def test_cluster_counts_chat_lines_through_both_processes(cluster2) -> None:
    a, b = cluster2()
    lee = Person(a).sign_up("lee")
    table = lee.bot_table()
    lee_b = lee.at(b)
    for i in range(5):
        res = (lee if i % 2 else lee_b).post(f"/api/tables/{table}/chat", {"text": f"line {i}"})
        assert res.status_code == 200, res.text
    assert_429(lee.post(f"/api/tables/{table}/chat", {"text": "one too many"}))
    assert_429(lee_b.post(f"/api/tables/{table}/chat", {"text": "one too many"}))


def test_cluster_counts_new_tables_through_both_processes_with_retry_after(cluster2) -> None:
    a, b = cluster2(env={"ROBOTABLE_CREATE_RATE": "3/minute"})
    max_ = Person(a).sign_up("max")
    max_b = max_.at(b)
    body = {
        "game": "tf22-reload",
        "num_players": 2,
        "seats": [{"kind": "human"}, {"kind": "bot", "difficulty": "random"}],
    }
    for i in range(3):
        assert (max_ if i % 2 else max_b).post("/api/tables", body).status_code == 201
    res = max_.post("/api/tables", body)
    assert_429(res)
    assert_429(max_b.post("/api/tables", body))


# -- the option, on both commands -------------------------------------------------------------------


def test_rate_limit_storage_and_forwarded_allow_ips_are_options_of_both_commands() -> None:
    module = subprocess.run([sys.executable, "-m", "robotable.server", "--help"], capture_output=True, text=True)
    command = subprocess.run(
        [str(Path(sys.executable).parent / "robotable"), "serve", "--help"],
        capture_output=True,
        text=True,
        env={"COLUMNS": "200", "TERM": "dumb", "PATH": "/usr/bin:/bin"},
    )
    for out in (module.stdout, command.stdout):
        assert "--rate-limit-storage" in out and "--forwarded-allow-ips" in out, out


def test_rate_limit_storage_shares_the_counts_of_two_sqlite_processes(sqlite_servers, prefix: str) -> None:
    options = ("--rate-limit-storage", REDIS, "--redis-prefix", prefix)
    a = sqlite_servers(extra=options)
    b = sqlite_servers(extra=options)
    Person(a).sign_up("ned")
    for _ in range(5):
        assert sign_in(b, "ned", WRONG).status_code == 401
    assert_429(sign_in(a, "ned", WRONG))


# -- no lockout of a person ----------------------------------------------------------------------------


def test_wrong_guesses_from_one_address_never_refuse_the_right_password_from_another(sqlite_servers) -> None:
    server = sqlite_servers()
    Person(server).sign_up("olga")
    for _ in range(5):
        assert sign_in(server, "olga", WRONG).status_code == 401
    assert_429(sign_in(server, "olga", WRONG))
    with from_address(server, "127.0.0.2") as owner:
        res = owner.post("/api/account/signin", json={"username": "olga", "password": RIGHT})
        assert res.status_code == 200, res.text
        # and the owner's own wrong guesses are counted apart from the attacker's
        assert owner.post("/api/account/signin", json={"username": "olga", "password": WRONG}).status_code == 401


def test_an_attacker_cannot_block_the_owners_password_change(sqlite_servers) -> None:
    server = sqlite_servers()
    owner = Person(server).sign_up("pia")
    with from_address(server, "127.0.0.2") as attacker:
        for _ in range(6):
            attacker.post("/api/account/signin", json={"username": "pia", "password": WRONG})
    res = owner.post("/api/account/password", {"current_password": RIGHT, "password": "another horse 3"})
    assert res.status_code == 200, res.text


# -- X-Forwarded-For ---------------------------------------------------------------------------------------


def guesses_claiming_addresses(server: ServerProcess) -> list[int]:
    """21 wrong sign-ins (distinct usernames, so only the per-address limit can refuse), each claiming
    another client address in ``X-Forwarded-For``: their statuses."""
    return [
        sign_in(server, f"nobody{i}", WRONG, headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code
        for i in range(21)
    ]


def test_x_forwarded_for_is_not_trusted_by_default(sqlite_servers) -> None:
    server = sqlite_servers()
    assert guesses_claiming_addresses(server) == [401] * 20 + [429]  # one client, whatever it claims


def test_x_forwarded_for_from_a_named_proxy_is_the_clients_address(sqlite_servers) -> None:
    server = sqlite_servers(extra=("--forwarded-allow-ips", "127.0.0.1"))
    assert guesses_claiming_addresses(server) == [401] * 21  # 21 clients behind the proxy, one guess each
