"""Fixtures for the web app tests: an in-process client, real server processes, PostgreSQL."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from people import new_table

from robotable.server import create_app
from robotable.server.wallclock import CLOCK, WallClock
from tests.conftest import failed, free_port

#: The PostgreSQL the tests use (trust auth); override with ROBOTABLE_TEST_PG_URL.
PG_URL = os.environ.get("ROBOTABLE_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
#: How long a server process may take to answer (a guard against a hang, not a wait: generous, since a
#: machine busy with other work, or with other test workers, can start one many times slower).
STARTUP_GUARD = 180.0


class PortTaken(RuntimeError):
    """The server could not bind its port: another process took it between the pick and the bind."""


#: Lines of a server's log shown in the report of a test that failed.
LOG_TAIL = 80


@dataclass
class ServerProcess:
    """A real ``python -m robotable.server`` process on a free port."""

    database: str
    bot_delay: float
    port: int = 0
    proc: subprocess.Popen[bytes] | None = None
    schema: str | None = None
    log: Path | None = None
    env: dict[str, str] | None = None  # extra environment variables (limits, workers)
    extra: tuple[str, ...] = ()  # more command-line options (e.g. --redis URL)
    bots: str | None = None  # --bots: inline, spawn or external (None: the server's own default, spawn)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        """Start and wait until the API answers (on another port if something took this one first)."""
        for _ in range(5):
            try:
                return self._start_on(free_port())
            except PortTaken:
                continue
        raise RuntimeError("five ports in a row were taken before the server could bind them")

    def _start_on(self, port: int) -> ServerProcess:
        self.port = port
        cmd = [
            sys.executable,
            "-m",
            "robotable.server",
            "--port",
            str(self.port),
            "--database",
            self.database,
            "--bot-delay",
            str(self.bot_delay),
        ]
        if self.schema:
            cmd += ["--schema", self.schema]
        if self.bots:
            cmd += ["--bots", self.bots]
        cmd += list(self.extra)
        self.log = log = Path(tempfile.mkstemp(prefix="robotable-server-", suffix=".log")[1])
        with log.open("wb") as out:  # a file, not a pipe: a chatty server never blocks on a full pipe
            env = {**os.environ, **self.env} if self.env else None
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + STARTUP_GUARD
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                text = log.read_text()
                if "address already in use" in text:
                    raise PortTaken(text)
                raise RuntimeError(f"server exited: {text}")
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"server did not start within {STARTUP_GUARD:.0f} s")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        """Terminate politely, and remove the server's log."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self.log is not None:
            self.log.unlink(missing_ok=True)

    def api(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """One HTTP request to the server."""
        return httpx.request(method, f"{self.url}{path}", timeout=10, **kwargs)


@pytest.fixture
def server_factory(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Callable[..., ServerProcess]]:
    """Start server processes on a SQLite file in tmp_path (all stopped at the end).

    Their bots think in a thread of the server process (``--bots inline``, as in-process apps do): the
    two worker processes of ``--bots spawn`` (the default of ``robotable serve``) cost two more Python
    start-ups per server and a poll per bot move. The tests of the worker processes themselves ask for
    ``bots="spawn"`` (or set ``ROBOTABLE_BOTS`` in ``env``)."""
    started: list[ServerProcess] = []

    def start(
        bot_delay: float = 0.0,
        database: str | None = None,
        schema: str | None = None,
        env: dict[str, str] | None = None,
        bots: str = "inline",
    ) -> ServerProcess:
        mode = None if env and "ROBOTABLE_BOTS" in env else bots
        database = database or f"sqlite:///{tmp_path / 'robotable.db'}"
        server = ServerProcess(database, bot_delay, schema=schema, env=env, bots=mode)
        started.append(server)  # stopped at the end even if it fails to start
        return server.start()

    yield start
    for server in started:
        if failed(request.node) and server.log is not None and server.log.exists():
            # the server's side of a failure, in the test's report (teardown's captured output)
            lines = server.log.read_text(errors="replace").splitlines()
            print(f"--- the last {min(len(lines), LOG_TAIL)} lines of {server.url}'s log ---")
            print("\n".join(lines[-LOG_TAIL:]))
        server.stop()


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    """In-process clients on a fresh SQLite file; ``bot_delay`` per client."""
    clients: list[TestClient] = []

    def make(bot_delay: float = 0.0, database: str | None = None, schema: str | None = None) -> TestClient:
        app = create_app(database or f"sqlite:///{tmp_path / 'api.db'}", schema=schema, bot_delay=bot_delay)
        client = TestClient(app)
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def server_clock() -> Iterator[WallClock]:
    """The clock of the in-process servers (``make_client``): ``server_clock.advance(seconds)`` lets that
    much time pass at once for every clock, grace period and expiry; real time again after the test."""
    yield CLOCK
    CLOCK.reset()


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    """An in-process client whose bots move at once."""
    return make_client()


@pytest.fixture
def pg_schema() -> Iterator[str]:
    """A unique PostgreSQL schema for this test, dropped at the end."""
    import sqlalchemy

    name = f"rt_test_{secrets.token_hex(6)}"
    yield name
    engine = sqlalchemy.create_engine(PG_URL)
    with engine.begin() as conn:
        conn.execute(sqlalchemy.text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
    engine.dispose()


@pytest.fixture(autouse=True)
def many_accounts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests make many guest accounts from one address: lift that limit (its own test sets it back)."""
    monkeypatch.setenv("ROBOTABLE_ACCOUNTS_RATE", "100000/hour")


HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}


@pytest.fixture
def create_table() -> Callable[..., dict[str, Any]]:
    """``create_table(client_or_server, seats, **extra)``: a new table (see :func:`new_table`)."""
    return new_table


@pytest.fixture
def pg_url() -> str:
    """The SQLAlchemy URL of the test PostgreSQL."""
    return PG_URL


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """``(database URL, schema)``: an SQLite file, then PostgreSQL in a schema of its own (dropped after)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'people.db'}", None
        return
    import sqlalchemy

    name = f"rt_test_{secrets.token_hex(6)}"
    yield PG_URL, name
    engine = sqlalchemy.create_engine(PG_URL)
    with engine.begin() as conn:
        conn.execute(sqlalchemy.text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
    engine.dispose()
