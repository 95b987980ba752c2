"""The web side of bot workers: queueing bot turns, the workers' move endpoint, quotas, a local worker.

How bots play is chosen per web process (``ROBOTABLE_BOTS`` or ``--bots``):

- ``inline``: bots think in a thread of the web process (``create_app``'s default: tests, embedding);
- ``spawn``: the web process queues bot turns and starts one ``robotable worker`` subprocess of its own
  (the default of ``robotable serve``: SQLite, one machine, and the web process never searches);
- ``external``: the web process only queues turns; ``robotable worker`` processes, started apart (on
  this machine or others), take them.

A worker thinks, then submits its moves to ``POST /api/internal/bot-moves`` with the shared secret
(``ROBOTABLE_WORKER_SECRET``, as a Bearer token): the web process checks and plays them exactly like a
person's move (engine-checked, committed, then published), so there is one path for every move.

Quotas (per account, or per address for guests): all-bot tables running at once, and bot thinking time
per hour; over either, creating a table that needs it is refused (429) naming the quota.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from pydantic import Field

from .botqueue import BotQueue, backoff
from .errors import ApiError, Forbidden, NotFound
from .limits import TooMany, client_ip
from .schemas import ActionJson, CreateTable, Strict

log = logging.getLogger("robotable.server")

MODES = ("inline", "spawn", "external")


@dataclass(frozen=True)
class Quotas:
    """Per-owner bot quotas (``ROBOTABLE_BOT_TABLES``, ``ROBOTABLE_BOT_SECONDS``, ``ROBOTABLE_BOT_THINK``)."""

    #: All-bot tables one owner may have running at once.
    all_bot_tables: int = 6
    #: Seconds of bot thinking one owner's tables may use per hour.
    seconds_per_hour: float = 1800.0
    #: Longest a worker thinks for one decision (search agents are cut there).
    think_seconds: float = 2.0

    @classmethod
    def from_env(cls) -> Quotas:
        env = os.environ
        return cls(
            all_bot_tables=int(env.get("ROBOTABLE_BOT_TABLES", cls.all_bot_tables)),
            seconds_per_hour=float(env.get("ROBOTABLE_BOT_SECONDS", cls.seconds_per_hour)),
            think_seconds=float(env.get("ROBOTABLE_BOT_THINK", cls.think_seconds)),
        )


def owner_key(request: Request, account: Any) -> str:
    """Whose quota a request counts against: the signed-in account, else the client's address."""
    if account is not None:
        return f"account:{account.id}"
    return f"ip:{client_ip(request.scope)}"


class QueuedBots:
    """Bot turns go to the database queue (``TableManager.bot_workers``)."""

    def __init__(self, queue: BotQueue, delay: float) -> None:
        self.queue = queue
        self.delay = delay

    async def enqueue(self, live: Any) -> None:
        """Queue the table's bot turn; a database hiccup is retried with backoff, never dropped."""
        failures = 0
        while True:
            version = len(live.moves)
            try:
                all_bots = all(live.is_bot(s.seat) for s in live.row.seats)
                await asyncio.to_thread(self.queue.enqueue, live.id, version, self.delay, all_bots)
            except Exception:
                failures += 1
                log.exception("queueing the bots of table %s failed (attempt %d)", live.id, failures)
                await asyncio.sleep(backoff(failures))
                continue
            if len(live.moves) == version:  # else an undo or a move came meanwhile: queue that one
                return


# -- quotas -------------------------------------------------------------------------------------------


async def check_quotas(request: Request, body: CreateTable, account: Any) -> None:
    """Refuse (429) a table whose bots would go over its owner's quotas."""
    queue: BotQueue | None = getattr(request.app.state, "bot_queue", None)
    seats = body.seats or []
    bots = [s for s in seats if s.kind == "bot"]
    if queue is None or not bots:
        return
    quotas: Quotas = request.app.state.bot_quotas
    owner = owner_key(request, account)
    if len(bots) == len(seats):
        running = await asyncio.to_thread(queue.running_bot_tables, owner)
        if running >= quotas.all_bot_tables:
            raise TooMany(
                f"bot quota: you have {running} all-bot tables running (at most {quotas.all_bot_tables}); "
                "wait for one to finish"
            )
    if any((s.difficulty or "random") != "random" for s in bots):
        await check_thinking_time(request, owner, "your bots", "; random bots are still available")


async def check_thinking_time(request: Request, owner: str, spent_by: str, advice: str = "") -> None:
    """Refuse (429) more thinking for ``owner`` once ``spent_by`` (their bots, hints, reviews) thought for
    the hour's quota of seconds. Nothing to check without a bot queue (its ledger keeps the seconds)."""
    queue: BotQueue | None = getattr(request.app.state, "bot_queue", None)
    quotas: Quotas | None = getattr(request.app.state, "bot_quotas", None)
    if queue is None or quotas is None:
        return
    used = await asyncio.to_thread(queue.used, owner)
    if used >= quotas.seconds_per_hour:
        raise TooMany(
            f"bot quota: {spent_by} thought for {used:.0f} s in the last hour (at most "
            f"{quotas.seconds_per_hour:.0f} s){advice}"
        )


async def register(request: Request, table_id: str, body: CreateTable, account: Any) -> None:
    """Record a new table's owner for the quotas."""
    queue: BotQueue | None = getattr(request.app.state, "bot_queue", None)
    seats = body.seats or []
    if queue is None or not any(s.kind == "bot" for s in seats):
        return
    all_bots = all(s.kind == "bot" for s in seats)
    await asyncio.to_thread(queue.register, table_id, owner_key(request, account), all_bots)


# -- the workers' endpoint ------------------------------------------------------------------------------


class BotMove(Strict):
    """One bot's move."""

    seat: int = Field(ge=0)
    action: ActionJson


class BotMoves(Strict):
    """Moves a worker chose for a table at move count ``version``."""

    table: Annotated[str, Field(max_length=24)]
    version: int = Field(ge=0)
    moves: Annotated[list[BotMove], Field(max_length=16)]


router = APIRouter()


@router.get("/api/bots/status", tags=["server"])
def bots_status(request: Request) -> dict[str, Any]:
    """Whether this process's own bot workers run (``spawn`` mode): ``running`` is false, with the
    workers' exit code in ``problem``, once they keep dying at start; other modes answer ``running``
    true (their workers are started apart and watched by the operator)."""
    workers = getattr(request.app.state, "local_workers", None)
    if workers is None:
        return {"running": True, "problem": None, "restarts": 0}
    return workers.status()


@router.post("/api/internal/bot-moves", include_in_schema=False)
async def bot_moves(request: Request, body: BotMoves, authorization: Annotated[str, Header()] = "") -> dict:
    """A worker's moves, played like a person's (checked by the engine, committed, then published)."""
    secret: str | None = getattr(request.app.state, "worker_secret", None)
    if not secret:
        raise NotFound("this server takes no bot workers")
    given = authorization.removeprefix("Bearer ").strip()
    if not secrets.compare_digest(given.encode(), secret.encode()):
        raise Forbidden("bot moves need the workers' secret")
    chosen = [(m.seat, m.action) for m in body.moves]
    moves = await request.app.state.manager.apply_bot_moves(body.table, body.version, chosen)
    return {"moves": moves}


# -- setting it up ----------------------------------------------------------------------------------------


def mode_of(value: str | None) -> str:
    """The bots mode from an option or ``ROBOTABLE_BOTS`` (default ``inline``)."""
    mode = value or os.environ.get("ROBOTABLE_BOTS") or "inline"
    if mode not in MODES:
        raise ValueError(f"bots must be one of {', '.join(MODES)}, not {mode!r}")
    return mode


class LocalWorkers:
    """The worker subprocesses a web process starts in ``spawn`` mode (each restarted if it dies).

    Two: one for every table (people's first), and one kept for tables with people, so that all-bot
    tables thinking hard never make a person wait for their own bot.

    A worker that dies is logged as an error with its exit code and the last lines it wrote to stderr,
    and started again after a back-off that doubles with every quick death in a row (up to
    :attr:`MAX_BACKOFF` seconds). After :attr:`FAILING_AFTER` quick deaths in a row the bots count as
    down: :meth:`status` (``GET /api/bots/status``, shown on the page of every table with bots) says so
    with the worker's own words, until a worker stays up.
    """

    #: A worker that exits within this many seconds of its start died "quickly".
    QUICK_DEATH = 10.0
    #: Quick deaths in a row after which the bots count as down.
    FAILING_AFTER = 3
    #: The longest wait between two starts.
    MAX_BACKOFF = 60.0

    def __init__(
        self,
        database: str,
        schema: str | None,
        server_url: str,
        secret: str,
        *,
        cmds: list[list[str]] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        cmd = [sys.executable, "-m", "robotable.server.worker", "--server", server_url, "--parent", str(os.getpid())]
        if schema:
            cmd += ["--schema", schema]
        self.cmds = cmds if cmds is not None else [cmd, [*cmd, "--people-only"]]
        # the database URL (it may hold a password) and the secret go by environment, never on a command line
        self.env = {**os.environ, "ROBOTABLE_DATABASE": database, "ROBOTABLE_WORKER_SECRET": secret}
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.clock, self.sleep = clock, sleep
        self.restarts = 0
        self.quick_deaths = [0] * len(self.cmds)
        self.last_problem: str | None = None
        self.last_exit: str | None = None

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self._keep_running(i)) for i in range(len(self.cmds))]

    def status(self) -> dict[str, Any]:
        """Whether the bots are running: ``running`` false once a worker died quickly
        :attr:`FAILING_AFTER` times in a row, with ``problem`` (its exit code: what it wrote goes to the
        server's log only, never to clients) and ``restarts``."""
        down = max(self.quick_deaths, default=0) >= self.FAILING_AFTER
        problem = self.last_exit if down else None
        return {"running": not down, "problem": problem, "restarts": self.restarts}

    async def _keep_running(self, i: int) -> None:
        while True:
            await self._run_once(i)

    async def _run_once(self, i: int) -> None:
        """Start worker ``i``, wait for it to exit, report it, and wait out the back-off."""
        with tempfile.TemporaryFile() as err:
            started = self.clock()
            proc = self.procs[i] = subprocess.Popen(self.cmds[i], env=self.env, stderr=err)
            while proc.poll() is None:
                if self.clock() - started >= self.QUICK_DEATH:
                    self.quick_deaths[i] = 0  # up long enough: the bots run again
                await self.sleep(0.5)
            err.seek(0)
            tail = err.read()[-4000:].decode("utf-8", "replace").strip()
        if tail:
            sys.stderr.write(tail + "\n")  # what the worker said goes on to the server's own log
        lines = [line for line in tail.splitlines() if line.strip()]
        words = lines[-1] if lines else f"exit code {proc.returncode}"
        self.restarts += 1
        quick = self.clock() - started < self.QUICK_DEATH
        self.quick_deaths[i] = self.quick_deaths[i] + 1 if quick else 0
        delay = min(self.MAX_BACKOFF, 2.0 ** self.quick_deaths[i]) if quick else 1.0
        deaths = self.quick_deaths[i]
        self.last_exit = f"a bot worker exited with code {proc.returncode}, {deaths} times in a row at start"
        self.last_problem = f"bot worker exited with code {proc.returncode}: {words}"
        if self.quick_deaths[i] >= self.FAILING_AFTER:
            log.error(
                "BOTS ARE DOWN: a bot worker died %d times in a row within %.0f s of starting (%s); "
                "starting it again in %.0f s",
                self.quick_deaths[i],
                self.QUICK_DEATH,
                self.last_problem,
                delay,
            )
        else:
            log.error("%s; starting another in %.0f s", self.last_problem, delay)
        await self.sleep(delay)

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs.values():
            try:
                await asyncio.to_thread(proc.wait, 10)
            except subprocess.TimeoutExpired:
                proc.kill()


async def install(app: Any, manager: Any, mode: str, database: str, schema: str | None, self_url: str | None) -> Any:
    """Set up bots for the app's lifespan; returns what to stop at the end (or None)."""
    storage = manager.storage
    app.state.bot_quotas = Quotas.from_env()
    app.state.bot_queue = queue = await asyncio.to_thread(BotQueue, storage)
    app.state.worker_secret = os.environ.get("ROBOTABLE_WORKER_SECRET") or None
    if mode == "inline":
        return None
    manager.bot_workers = QueuedBots(queue, manager.bot_delay)
    if mode == "external":
        if not app.state.worker_secret:
            raise ApiError("--bots external needs ROBOTABLE_WORKER_SECRET, shared with the workers")
        return None
    app.state.worker_secret = app.state.worker_secret or secrets.token_urlsafe(24)
    worker = LocalWorkers(database, schema, self_url or "http://127.0.0.1:8000", app.state.worker_secret)
    worker.start()
    app.state.local_workers = worker
    return worker
