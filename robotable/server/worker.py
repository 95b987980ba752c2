"""``robotable worker``: a bot worker process. Takes bot turns from the queue, thinks, submits moves.

    robotable worker --database postgresql://... --server http://127.0.0.1:8000

Each turn: claim it (a lease in the database, renewed while thinking), read the table from the
database, replay it (states are kept between turns and caught up by move number), choose the bots'
moves with a time budget, and submit them to a web process (``POST /api/internal/bot-moves`` with the
shared secret ``ROBOTABLE_WORKER_SECRET``), which plays them like a person's move. A failure (the
database or the web process unreachable) puts the turn back with exponential backoff; a killed worker's
lease runs out and another worker takes the turn. Think time is charged to the table's owner.

Think time: a search level thinks its CPU seconds (``time.thread_time``) within a wall-clock cap. At a
live table the people wait at most the level's cap (``max_wall``, 1.8 s for hard) for one bot, and the
bots of one turn together at most ``--think`` (``ROBOTABLE_BOT_THINK``, default 2 s): on a busy machine
the search is cut short rather than the table kept waiting. At a turn-based table nobody watches the
bot think: the cap is ``--think-turn`` (``ROBOTABLE_BOT_THINK_TURN``, default 10 s) for the turn's
bots, so the level spends its whole CPU budget, plays at the strength it is rated at, and no deeper.

Reviews (issue 30, ``review_jobs.py``): a worker with no bot turn to play computes a review (a finished
table's, or an uploaded record's) with the server's budget (``ROBOTABLE_REVIEW_ITERATIONS`` or the hard
level's), recording its progress, and plays every bot turn that comes due between two of its decisions.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import secrets
import signal
import threading
import time
from collections import OrderedDict

import httpx
from sqlalchemy import select

from robotable import games
from robotable.core import State

from . import bots, review_jobs
from .bot_api import Quotas
from .botqueue import BotQueue, Turn, backoff
from .clocks import TURN, clocks_table
from .storage import MoveRow, Storage, TableRow, database_url
from .table import start_state

log = logging.getLogger("robotable.worker")

#: Wall seconds the bots of one turn may think at a turn-based table (``ROBOTABLE_BOT_THINK_TURN``).
TURN_THINK = 10.0
#: How often an idle worker looks for a review to compute (seconds).
REVIEW_LOOK = 1.0
#: Tables whose replayed state a worker keeps between turns.
CACHED_STATES = 256


class Worker:
    """One worker: a loop of claim, think, submit."""

    def __init__(
        self,
        storage: Storage,
        server: str,
        secret: str,
        think_seconds: float = 2.0,
        lease: float = 15.0,
        poll: float = 0.1,
        seconds_per_hour: float = 1800.0,
        name: str | None = None,
        people_only: bool = False,
        turn_think_seconds: float = TURN_THINK,
        reviews: bool = True,
        review_lease: float = review_jobs.WORKER_LEASE,
    ) -> None:
        self.storage = storage
        self.queue = BotQueue(storage)
        self.http = httpx.Client(base_url=server, headers={"Authorization": f"Bearer {secret}"}, timeout=30)
        self.think_seconds = think_seconds
        self.turn_think_seconds = turn_think_seconds
        self.lease = lease
        self.poll = poll
        self.seconds_per_hour = seconds_per_hour
        self.people_only = people_only
        self.name = name or f"{os.uname().nodename}-{os.getpid()}-{secrets.token_hex(2)}"
        self.states: OrderedDict[str, tuple[list[MoveRow], State]] = OrderedDict()
        #: Set by SIGTERM (a plain flag: a signal handler must not take a lock the loop may hold).
        self.stopping = False
        self.failures = 0
        #: The web process that started this worker (``--parent``): gone, the worker stops.
        self.parent: int | None = None
        #: Whether this worker computes reviews when it has no bot turn (``--no-reviews``: not).
        self.reviews = reviews
        self.review_budget = review_jobs.server_budget()
        #: Seconds without progress after which another worker's review is taken as lost (killed).
        self.review_lease = review_lease
        self.next_review_look = 0.0

    def run(self) -> None:
        """Take turns until stopped."""
        log.info("bot worker %s started", self.name)
        while not self.done():
            if not self.step():
                self.sleep(self.poll)

    def done(self) -> bool:
        """Whether to stop: asked to, or (``--parent``) the web process that started it is gone."""
        if self.parent is not None and os.getppid() != self.parent:
            log.info("bot worker %s: its web process is gone; stopping", self.name)
            self.stopping = True
        return self.stopping

    def sleep(self, seconds: float) -> None:
        """Wait, in short steps so that a stop request or a gone parent is noticed soon."""
        until = time.monotonic() + seconds
        while not self.done() and (left := until - time.monotonic()) > 0:
            time.sleep(min(0.1, left))

    def step(self) -> bool:
        """Take and play one bot turn, else compute one review; False if there was neither."""
        return self.bot_step() or self.review_step()

    def review_step(self) -> bool:
        """Take a review and compute it, playing due bot turns between its decisions; False if none."""
        if not self.reviews or self.done() or time.monotonic() < self.next_review_look:
            return False
        self.next_review_look = time.monotonic() + REVIEW_LOOK
        engine = self.storage.engine
        try:
            review_jobs.ensure_table(engine, self.storage.url, self.storage.schema)
            job = review_jobs.claim(engine, self.name, self.review_budget, self.review_lease)
        except Exception as exc:
            log.warning("cannot take a review (%s)", type(exc).__name__)
            self.storage.engine.dispose()
            return False
        if job is None:
            return False
        self.next_review_look = 0.0  # another may be waiting
        log.info("reviewing %s", job.key)

        def between() -> None:
            while not self.done() and self.bot_step():
                pass
            if self.done():
                raise review_jobs.Stopped("the worker is stopping")

        seconds = review_jobs.compute(engine, job.key, job.record, job.budget, between, self.name)
        if job.owner is not None:
            try:
                self.queue.charge(f"account:{job.owner}", seconds)
            except Exception:
                log.warning("cannot charge review %s to its owner", job.key)
        return True

    def bot_step(self) -> bool:
        """Take and play one turn; False if there was none (or the database is unreachable)."""
        try:
            turn = self.queue.claim(self.name, self.lease, self.people_only)
        except Exception as exc:
            self.failures += 1
            log.warning("cannot reach the queue (%s); retrying", type(exc).__name__)
            self.storage.engine.dispose()  # drop connections a database restart or kill has broken
            self.sleep(backoff(self.failures))
            return False
        self.failures = 0
        if turn is None:
            return False
        try:
            self.play(turn)
            self.queue.finish(turn, self.name)
        except Exception as exc:
            log.warning("turn of table %s failed (attempt %d): %s", turn.table_id, turn.attempts, exc)
            self.storage.engine.dispose()
            try:
                self.queue.retry(turn, self.name, f"{type(exc).__name__}: {exc}")
            except Exception:  # the lease runs out by itself: another attempt follows anyway
                log.warning("cannot put table %s back; its lease will run out", turn.table_id)
        return True

    def play(self, turn: Turn) -> None:
        """Think for the table's bots and submit their moves (nothing if no bot is to move now)."""
        row = self.storage.load_table(turn.table_id)
        if row is None or row.status not in ("open", "running"):
            return
        state = self.state_of(row)
        seats = bots.seats_to_move(
            state,
            lambda s: row.seats[s].kind == "bot" or row.seats[s].handed_to_bot,
            lambda s: row.seats[s].difficulty,
        )
        if not seats:
            return
        owner = turn.owner or "unknown"
        if self.queue.used(owner) >= self.seconds_per_hour:  # over the quota: bots play at once
            seats = [(seat, bots.FALLBACK) for seat, _ in seats]
        renewing = threading.Event()
        renewer = threading.Thread(target=self._renew, args=(turn, renewing), daemon=True)
        renewer.start()
        turn_based = self.turn_based(row.id)
        wall = self.turn_think_seconds if turn_based else self.think_seconds
        started = time.perf_counter()
        try:
            chosen = bots.choose_moves(state, seats, row.seed, row.num_moves, wall=wall, turn_based=turn_based)
        finally:
            renewing.set()
            renewer.join()
        self.queue.charge(owner, time.perf_counter() - started)
        moves = [{"seat": seat, "action": action.to_json()} for seat, action in chosen]
        body = {"table": row.id, "version": row.num_moves, "moves": moves}
        res = self.http.post("/api/internal/bot-moves", json=body)
        if res.status_code == 409:  # the table moved on (an undo, a hand-over): its new turn is queued
            log.info("table %s moved on: %s", row.id, res.json().get("detail"))
            return
        if res.status_code != 200:
            raise RuntimeError(f"the web process answered {res.status_code}: {res.text[:200]}")

    def turn_based(self, table_id: str) -> bool:
        """Whether the table plays a turn-based time control (days per move); live if it has no clock."""
        with self.storage.read() as conn:
            control = conn.execute(select(clocks_table.c.control).where(clocks_table.c.table_id == table_id)).scalar()
        if isinstance(control, str):  # JSON read back as text by some drivers
            control = json.loads(control)
        return isinstance(control, dict) and control.get("kind") == TURN

    def _renew(self, turn: Turn, done: threading.Event) -> None:
        while not done.wait(self.lease / 3):
            try:
                self.queue.renew(turn, self.name, self.lease)
            except Exception:
                log.warning("cannot renew the lease on table %s", turn.table_id)

    def state_of(self, row: TableRow) -> State:
        """The table's current state: the cached one caught up by move number, or a replay."""
        cached = self.states.pop(row.id, None)
        state: State | None
        if cached is not None:
            moves, state = cached
            if len(moves) <= len(row.moves) and row.moves[: len(moves)] == moves:
                state = state.clone()
                game = games.load(row.game)
                for move in row.moves[len(moves) :]:
                    state.apply(move.seat, game.action_from_json(move.action))
            else:
                state = None  # an undo: replay
        else:
            state = None
        if state is None:
            game = games.load(row.game)
            state = start_state(game, row.num_players, row.seed, row.options)
            for move in row.moves:
                state.apply(move.seat, game.action_from_json(move.action))
        self.states[row.id] = (list(row.moves), state)
        while len(self.states) > CACHED_STATES:
            self.states.popitem(last=False)
        return state

    def close(self) -> None:
        self.http.close()
        self.storage.close()


def main(argv: list[str] | None = None) -> None:
    """``python -m robotable.server.worker`` (and ``robotable worker``)."""
    parser = argparse.ArgumentParser(prog="robotable worker", description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default=os.environ.get("ROBOTABLE_DATABASE"), help="SQLAlchemy URL or file")
    parser.add_argument("--schema", default=os.environ.get("ROBOTABLE_DB_SCHEMA"), help="PostgreSQL schema")
    parser.add_argument(
        "--server",
        default=os.environ.get("ROBOTABLE_SERVER_URL", "http://127.0.0.1:8000"),
        help="a web process (or the proxy in front of them) to submit moves to",
    )
    parser.add_argument(
        "--think", type=float, default=None, help="live tables: wall seconds the bots of one turn may think in all"
    )
    parser.add_argument(
        "--think-turn",
        type=float,
        default=float(os.environ.get("ROBOTABLE_BOT_THINK_TURN", TURN_THINK)),
        help="turn-based tables: wall seconds the bots of one turn may think in all",
    )
    parser.add_argument("--lease", type=float, default=15.0, help="seconds a claimed turn stays this worker's")
    parser.add_argument(
        "--people-only", action="store_true", help="take only turns of tables with people (never all-bot tables)"
    )
    parser.add_argument(
        "--review-lease",
        type=float,
        default=review_jobs.WORKER_LEASE,
        help="seconds without progress after which another worker's review is taken over",
    )
    parser.add_argument(
        "--no-reviews", action="store_true", help="compute no reviews (only bot turns); default: reviews when idle"
    )
    parser.add_argument(
        "--parent", type=int, default=None, help="pid of the web process that started this worker: stop when it is gone"
    )
    parser.add_argument(
        "--nice",
        type=int,
        default=os.environ.get("ROBOTABLE_WORKER_NICE", "10"),  # argparse checks it with type=int
        help="how much lower than the web processes this worker runs (os.nice; 0: the same priority)",
    )
    args = parser.parse_args(argv)
    if args.nice > 0:
        os.nice(args.nice)  # bots think with the CPU the web processes leave: people's moves come first
    secret = os.environ.get("ROBOTABLE_WORKER_SECRET")
    if not secret:
        parser.error("set ROBOTABLE_WORKER_SECRET (the same as the web processes')")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    quotas = Quotas.from_env()
    worker = Worker(
        Storage(database_url(args.database), schema=args.schema or None),
        args.server,
        secret,
        think_seconds=args.think if args.think is not None else quotas.think_seconds,
        lease=args.lease,
        seconds_per_hour=quotas.seconds_per_hour,
        people_only=args.people_only,
        turn_think_seconds=args.think_turn,
        reviews=not args.no_reviews,
        review_lease=args.review_lease,
    )
    worker.parent = args.parent  # given by the parent: read here, it could already be gone (then pid 1)
    signal.signal(signal.SIGTERM, lambda *_: setattr(worker, "stopping", True))
    try:
        worker.run()
    except KeyboardInterrupt:
        pass
    finally:
        worker.close()


if __name__ == "__main__":
    main()
