"""Bot workers: real web processes and real ``robotable worker`` processes on SQLite and PostgreSQL.

A worker takes a bot turn; a web process with workers never moves a bot itself; a worker killed with
SIGKILL mid-turn leaves its turn to another; terminated database sessions are retried and the table
plays on; a ``serve`` process keeps its bots in a worker subprocess of its own; quotas refuse clearly.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from fastapi.testclient import TestClient
from people import bearer, guest_token, wait_for

from robotable.server import create_app
from robotable.server.botqueue import BotQueue
from robotable.server.storage import Storage

HUMAN = {"kind": "human"}
SECRET = "test-worker-secret-" + secrets.token_hex(4)

#: How long a stopped worker may take to exit before the test calls it hung: a guard, not a speed check
#: (under a CPU hog and another suite, a worker finishing its turn took over 10 s to exit).
STOP_GUARD = 120


class WorkerProcess:
    """A ``python -m robotable.server.worker`` process."""

    def __init__(self, database: str, server_url: str, schema: str | None, *extra: str) -> None:
        cmd = [sys.executable, "-m", "robotable.server.worker", "--server", server_url, *extra]
        if schema:
            cmd += ["--schema", schema]
        env = {**os.environ, "ROBOTABLE_DATABASE": database, "ROBOTABLE_WORKER_SECRET": SECRET}
        self.log = Path(tempfile.mkstemp(prefix="robotable-worker-", suffix=".log")[1])
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.unlink(missing_ok=True)


@pytest.fixture
def cluster(server_factory: Any, tmp_path: Path, pg_url: str, pg_schema: str) -> Iterator[Callable[..., Any]]:
    """``cluster(db)``: a web process with ``--bots external`` on "sqlite" or "postgresql", and a worker starter."""
    workers: list[WorkerProcess] = []
    queues: list[BotQueue] = []

    def start(db: str, bot_delay: float = 0.05, app_name: str | None = None) -> Any:
        database = f"sqlite:///{tmp_path / 'cluster.db'}" if db == "sqlite" else pg_url
        schema = None if db == "sqlite" else pg_schema
        web_db = database + (f"?application_name={app_name}-web" if app_name else "")
        env = {"ROBOTABLE_BOTS": "external", "ROBOTABLE_WORKER_SECRET": SECRET}
        server = server_factory(bot_delay=bot_delay, database=web_db, schema=schema, env=env)

        def worker(*extra: str) -> WorkerProcess:
            worker_db = database + (f"?application_name={app_name}-worker" if app_name else "")
            proc = WorkerProcess(worker_db, server.url, schema, *extra)
            workers.append(proc)
            return proc

        server.worker = worker
        server.queue = BotQueue(Storage(database, schema=schema))
        queues.append(server.queue)
        return server

    yield start
    for proc in workers:
        proc.stop()
    for queue in queues:
        queue.storage.close()


def moves_of(server: Any, table: str) -> int:
    return server.api("GET", f"/api/tables/{table}").json()["moves"]


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_a_worker_takes_the_bot_turn_and_the_web_process_never_does(cluster: Any, create_table: Any, db: str) -> None:
    server = cluster(db)
    made = create_table(server, [HUMAN, {"kind": "bot", "difficulty": "ismcts:easy"}])
    table, token = made["table"]["id"], made["tokens"][0]
    body = {"seat": 0, "action": {"type": "play", "value": 5}}
    res = server.api("POST", f"/api/tables/{table}/moves", json=body, headers=bearer(token))
    assert res.status_code == 200 and res.json()["moves"] == 1
    wait_for(lambda: (server.queue.pending(table) or {}).get("pending") is True, what="the turn queued")
    forged = {"table": table, "version": 1, "moves": [{"seat": 1, "action": {"type": "play", "value": 1}}]}
    assert server.api("POST", "/api/internal/bot-moves", json=forged).status_code == 403  # no secret
    wrong = {"authorization": "Bearer guessed"}
    assert server.api("POST", "/api/internal/bot-moves", json=forged, headers=wrong).status_code == 403
    illegal = {**forged, "moves": [{"seat": 1, "action": {"type": "play", "value": 99}}]}
    right = {"authorization": f"Bearer {SECRET}"}
    assert server.api("POST", "/api/internal/bot-moves", json=illegal, headers=right).status_code == 409
    stale = {**forged, "version": 0}
    assert server.api("POST", "/api/internal/bot-moves", json=stale, headers=right).status_code == 409
    time.sleep(1.0)
    assert moves_of(server, table) == 1  # no worker yet: the web process did not move the bot
    worker = server.worker()
    wait_for(lambda: moves_of(server, table) == 2, what="the worker's move")
    state = server.api("GET", f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(token)).json()
    assert any(e["type"] == "reveal" for e in state["log"])  # both secret choices were played and revealed
    wait_for(lambda: not server.queue.pending(table)["pending"], what="the turn finished")
    worker.proc.terminate()
    assert worker.proc.wait(timeout=STOP_GUARD) == 0  # SIGTERM stops a worker cleanly


def test_a_killed_workers_turn_is_taken_by_another(cluster: Any, create_table: Any) -> None:
    server = cluster("postgresql", bot_delay=0.0)
    hard = {"kind": "bot", "difficulty": "ismcts:hard"}
    table = create_table(server, [hard, hard, hard, hard])["table"]["id"]  # four hard choices per turn
    first = server.worker("--lease", "1.5")
    held: dict[str, Any] = {}

    def claimed() -> bool:
        row = server.queue.pending(table)
        if row and row["pending"] and row["worker"] and row["lease_until"] is not None:
            held.update(row)
            return True
        return False

    wait_for(claimed, what="the first worker's claim")
    first.kill()  # mid-turn: it holds the lease (its moves may or may not have been submitted)
    at_kill = moves_of(server, table)
    second = server.worker("--lease", "1.5")
    wait_for(lambda: moves_of(server, table) > at_kill, what="the second worker's moves")
    row = server.queue.pending(table)
    assert row["worker"] != held["worker"] or not row["pending"]
    second.stop()


def test_terminated_database_sessions_are_retried_and_the_table_plays_on(
    cluster: Any, create_table: Any, pg_url: str
) -> None:
    name = f"rtw{secrets.token_hex(3)}"
    server = cluster("postgresql", bot_delay=0.02, app_name=name)
    worker = server.worker()
    bot = {"kind": "bot", "difficulty": "random"}
    table = create_table(server, [bot, bot, bot])["table"]["id"]
    engine = sqlalchemy.create_engine(pg_url)
    terminated = 0
    try:
        for _ in range(8):
            seen = moves_of(server, table)
            with engine.begin() as conn:
                terminated += conn.execute(
                    sqlalchemy.text(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name LIKE :n"
                    ),
                    {"n": f"{name}-%"},
                ).scalar()
            if server.api("GET", f"/api/tables/{table}").json()["status"] == "finished":
                break
            wait_for(lambda seen=seen: moves_of(server, table) > seen, what="a move after the hiccup")
    finally:
        engine.dispose()
    assert terminated >= 4  # the hiccups really happened, to the worker and to the web process
    assert worker.proc.poll() is None  # the worker lived through them
    before = moves_of(server, table)
    finished = lambda: server.api("GET", f"/api/tables/{table}").json()["status"] == "finished"  # noqa: E731
    wait_for(lambda: moves_of(server, table) > before or finished(), what="the table playing on")


def workers_of(server: Any) -> list[bytes]:
    """The pids of the worker processes a server started."""
    found = subprocess.run(["pgrep", "-P", str(server.proc.pid), "-f", "robotable.server.worker"], capture_output=True)
    return found.stdout.split()


def test_serve_keeps_bots_in_a_worker_process_of_its_own(server_factory: Any, create_table: Any) -> None:
    server = server_factory(bot_delay=0.02, bots="spawn")  # python -m robotable.server: --bots spawn by default
    worker_pids = workers_of(server)
    assert len(worker_pids) == 2  # one for every table, one kept for tables with people
    made = create_table(server, [HUMAN, {"kind": "bot", "difficulty": "random"}])
    table, token = made["table"]["id"], made["tokens"][0]
    body = {"seat": 0, "action": {"type": "play", "value": 5}}
    assert server.api("POST", f"/api/tables/{table}/moves", json=body, headers=bearer(token)).status_code == 200
    wait_for(lambda: moves_of(server, table) >= 2, what="the spawned worker's move")
    # bots think at a lower priority than the web process: people's moves get the CPU first
    web_nice = os.getpriority(os.PRIO_PROCESS, server.proc.pid)
    niced = lambda: all(os.getpriority(os.PRIO_PROCESS, int(p)) == min(19, web_nice + 10) for p in worker_pids)  # noqa: E731
    wait_for(niced, "the workers to lower their priority")
    for pid in worker_pids:
        os.kill(int(pid), signal.SIGKILL)  # the server starts others
    wait_for(lambda: len(set(workers_of(server)) - set(worker_pids)) == 2, what="new workers")
    bot_moves = 0

    def person_plays() -> bool:
        nonlocal bot_moves
        state = server.api("GET", f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(token)).json()
        bot_moves = sum(e["type"] == "chose" and e["seat"] == 1 for e in state["log"])
        if state["legal"]:
            move = {**body, "action": state["legal"][0], "after": state["moves"]}
            res = server.api("POST", f"/api/tables/{table}/moves", json=move, headers=bearer(token))
            assert res.status_code in (200, 409)
        return bot_moves >= 3

    wait_for(person_plays, what="bots playing on with the new worker")
    server.kill()
    gone = lambda: subprocess.run(["pgrep", "-f", f"--server {server.url}"], capture_output=True).returncode != 0  # noqa: E731
    wait_for(gone, "the worker to stop with its server")


def test_spawned_workers_stop_with_a_server_killed_at_once(server_factory: Any) -> None:
    server = server_factory(bots="spawn")
    server.kill()  # at once: the workers may still be starting, and must not outlive it
    gone = lambda: subprocess.run(["pgrep", "-f", f"--server {server.url}"], capture_output=True).returncode != 0  # noqa: E731
    wait_for(gone, "the workers to stop with their server")


def test_people_are_served_first_and_a_worker_can_be_kept_for_them(tmp_path: Path, server_clock) -> None:
    queue = BotQueue(Storage(f"sqlite:///{tmp_path / 'queue.db'}"))
    try:
        queue.enqueue("allbots", 3, all_bots=True)
        queue.enqueue("people", 5, all_bots=False)  # queued later, taken first
        assert queue.claim("kept", 5.0, people_only=True).table_id == "people"
        assert queue.claim("kept", 5.0, people_only=True) is None  # never an all-bot table
        turn = queue.claim("any", 5.0)
        assert (turn.table_id, turn.version, turn.attempts) == ("allbots", 3, 1)
        assert queue.claim("other", 5.0) is None  # leased
        assert queue.retry(turn, "any", "OperationalError: server closed the connection") == 0.25
        assert queue.pending("allbots")["last_error"].startswith("OperationalError")
        assert queue.claim("other", 5.0) is None  # not due yet: backoff
        server_clock.advance(0.3)
        again = queue.claim("other", 5.0)
        assert (again.table_id, again.attempts) == ("allbots", 2)
        queue.finish(again, "other")
        assert queue.pending("allbots")["pending"] is False
    finally:
        queue.storage.close()


def test_bot_quotas_refuse_with_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROBOTABLE_BOT_TABLES", "2")
    monkeypatch.setenv("ROBOTABLE_BOT_SECONDS", "60")
    app = create_app(f"sqlite:///{tmp_path / 'quota.db'}", bot_delay=30.0)  # bots wait: the tables stay running
    bot = {"kind": "bot", "difficulty": "random"}
    all_bots = {"game": "tf22-reload", "num_players": 2, "seats": [bot, bot]}
    with TestClient(app) as client:
        client.headers.update(bearer(guest_token(client)))
        me = client.get("/api/account").json()["account"]["id"]
        assert [client.post("/api/tables", json=all_bots).status_code for _ in range(2)] == [201, 201]
        refused = client.post("/api/tables", json=all_bots)
        assert refused.status_code == 429
        assert "2 all-bot tables running (at most 2)" in refused.json()["detail"]
        assert len(client.get("/api/tables").json()) == 2  # nothing was made
        people = {"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, bot]}
        assert client.post("/api/tables", json=people).status_code == 201  # people pace their bots
        app.state.bot_queue.charge(f"account:{me}", 61.0)
        searcher = {"kind": "bot", "difficulty": "ismcts:easy"}
        search = {"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, searcher]}
        refused = client.post("/api/tables", json=search)
        assert refused.status_code == 429
        assert "thought for 61 s in the last hour (at most 60 s)" in refused.json()["detail"]
        assert client.post("/api/tables", json=people).status_code == 201  # random bots cost nothing
