"""Stored reviews and the review jobs the bot workers take (issue 30; docs/review.md).

One row per review in ``reviews``: a finished table's (keyed by its id), its review from a spectator's
view (keyed ``spectator-<id>``, for the spectators of a game where seats hold cards of their own;
``robotable.ai.review.spectator``) or an uploaded record's (keyed ``upload-<id>``, with the record and the
account that sent it). A row is ``queued``, ``running`` (its
progress in ``done`` of ``total`` moves, and, when a bot worker computes it, that worker's name in
``worker``), ``done`` (the review) or ``failed`` (the error).

Where reviews are computed:

- with bot workers (``--bots spawn`` or ``external``): the workers. A worker with no bot turn to play
  takes the oldest ``queued`` review, or one whose worker stopped recording progress for
  :data:`WORKER_LEASE` (killed), or else a table that finished within :data:`RECENT` and has a person
  among its seats but no review yet (so a table's review starts when it ends, not when a replay is
  opened). While it reviews, it plays every bot turn that comes due between two decisions: bot tables
  never wait for a review.
- without (``inline``): a background process of the web process (``review_api.py``).

Either way the budget is the server's (:func:`server_budget`), the same for every review.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    and_,
    exists,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from robotable.ai.review import Budget, review_record
from robotable.ai.review.spectator import spectator_review
from robotable.core import Record

from .storage import moves_table, seats_table, tables_table
from .storage.schema import add_missing_columns, metadata, reviews
from .table import POSITION_KEY

log = logging.getLogger("robotable.server.review")

#: A review whose worker recorded no progress for this long is taken by another worker (seconds).
WORKER_LEASE = 90.0
#: A worker reviews, unasked, the tables that finished at most this long ago.
RECENT = timedelta(days=1)
#: The running review records its progress at most this often (seconds).
PROGRESS_EVERY = 1.0
#: The key prefix of an uploaded record's review.
UPLOAD = "upload-"
#: The key prefix of a table's review from a spectator's view (the table's id follows).
SPECTATOR = "spectator-"


#: The server's review budget, a whole review's CPU seconds on the reference machine (``Budget.seconds``):
#: a long record's decisions get fewer iterations, so a 4-player Twin Tin Bots review fits issue 30's
#: 5 minutes on a loaded worker (docs/review.md "The budget").
REVIEW_SECONDS = 60.0


def server_budget() -> Budget:
    """The server's review budget: the hard level's iterations scaled to :data:`REVIEW_SECONDS` a review,
    or ``ROBOTABLE_REVIEW_ITERATIONS`` a decision (not scaled)."""
    iterations = os.environ.get("ROBOTABLE_REVIEW_ITERATIONS")
    return Budget(iterations=int(iterations)) if iterations else Budget(seconds=REVIEW_SECONDS)


def budget_spec(budget: Budget) -> dict[str, Any]:
    """A budget as stored with its review."""
    spec: dict[str, Any] = {"level": budget.level, "iterations": budget.iterations, "seed": budget.seed}
    if budget.seconds is not None:
        spec["seconds"] = budget.seconds
    return spec


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)  # SQLite keeps no zone


_ready: set[tuple[str, str | None]] = set()


def ensure_table(engine: Engine, url: str, schema: str | None) -> None:
    """Create the ``reviews`` table, or add the columns an older one lacks (once per database and process)."""
    if (url, schema) in _ready:
        return
    with engine.begin() as conn:
        metadata.create_all(conn, tables=[reviews])
        add_missing_columns(conn, schema, [reviews])
    _ready.add((url, schema))


def row_of(conn: Connection, key: str) -> dict[str, Any] | None:
    row = conn.execute(select(reviews).where(reviews.c.table_id == key)).mappings().first()
    return dict(row) if row is not None else None


# -- queueing (web processes) ---------------------------------------------------------------------------


def queue_review(
    engine: Engine,
    key: str,
    total: int,
    budget: Budget,
    stale: timedelta,
    owner: str | None = None,
    record: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], bool]:
    """The review's row, and whether this call queued it: a new review, or a failed or lost one (quiet
    for ``stale``) queued again. The workers take it from there."""
    fresh = {
        "table_id": key,
        "status": "queued",
        "done": 0,
        "total": total,
        "budget": budget_spec(budget),
        "error": None,
        "worker": None,
        "owner": owner,
        "record": record,
    }
    with engine.begin() as conn:
        row = row_of(conn, key)
    if row is None:
        try:
            with engine.begin() as conn:
                conn.execute(insert(reviews).values(updated_at=now(), **fresh))
            return fresh, True
        except IntegrityError:  # a worker (or another web process) was first
            with engine.begin() as conn:
                row = row_of(conn, key)
            assert row is not None
    if row["status"] in ("done", "queued") or now() - aware(row["updated_at"]) < stale:
        return row, False
    with engine.begin() as conn:  # failed or lost a while ago: queue it again, unless another process just did
        again = conn.execute(
            update(reviews)
            .where(reviews.c.table_id == key, reviews.c.updated_at == row["updated_at"])
            .values(status="queued", done=0, total=total, error=None, worker=None, updated_at=now())
        )
    return {**row, "status": "queued", "done": 0, "error": None}, again.rowcount == 1


# -- the workers' side -------------------------------------------------------------------------------------


class Stopped(Exception):
    """Raised by ``between()`` to stop a review (its worker is stopping): it is queued again."""


class _Lost(Exception):
    """Another worker took the review over."""


@dataclass(frozen=True)
class Job:
    """A claimed review: its key, the record, the budget, and whose quota it counts against (uploads)."""

    key: str
    record: dict[str, Any]
    budget: Budget
    owner: str | None


def claim(engine: Engine, worker: str, budget: Budget, lease: float = WORKER_LEASE) -> Job | None:
    """Take a review to compute: a queued one, one whose worker recorded nothing for ``lease`` seconds,
    or a recently finished table of people not reviewed yet (reviewed with ``budget``). None if none."""
    stamp = now()
    lost = and_(
        reviews.c.status == "running",
        reviews.c.worker.is_not(None),
        reviews.c.updated_at < stamp - timedelta(seconds=lease),
    )
    with engine.begin() as conn:
        rows = conn.execute(
            select(reviews.c.table_id, reviews.c.updated_at)
            .where(or_(reviews.c.status == "queued", lost))
            .order_by(reviews.c.updated_at)
            .limit(5)
        ).all()
    for key, updated in rows:
        with engine.begin() as conn:
            took = conn.execute(
                update(reviews)
                .where(reviews.c.table_id == key, reviews.c.updated_at == updated)
                .values(status="running", worker=worker, done=0, updated_at=now())
            )
            if took.rowcount != 1:
                continue  # another worker was quicker
            row = row_of(conn, key)
        assert row is not None
        job = _job(engine, row)
        if job is not None:
            return job
    return _claim_finished(engine, worker, budget)


def _claim_finished(engine: Engine, worker: str, budget: Budget) -> Job | None:
    """A table of people that finished within :data:`RECENT` and has no review yet, claimed."""
    reviewed = exists().where(reviews.c.table_id == tables_table.c.id)
    people = exists().where(seats_table.c.table_id == tables_table.c.id, seats_table.c.kind == "human")
    with engine.begin() as conn:
        found = conn.execute(
            select(tables_table.c.id, tables_table.c.num_moves)
            .where(tables_table.c.status == "finished", tables_table.c.updated_at >= now() - RECENT, people, ~reviewed)
            .order_by(tables_table.c.updated_at)
            .limit(5)
        ).all()
    for table_id, moves in found:
        values = {"status": "running", "done": 0, "total": moves, "budget": budget_spec(budget), "worker": worker}
        try:
            with engine.begin() as conn:
                conn.execute(insert(reviews).values(table_id=table_id, updated_at=now(), **values))
        except IntegrityError:  # another worker (or a web process) was first
            continue
        job = _job(engine, {"table_id": table_id, **values, "record": None, "owner": None})
        if job is not None:
            return job
    return None


def _job(engine: Engine, row: dict[str, Any]) -> Job | None:
    """The job of a claimed row; None (and the row failed) if there is nothing to review."""
    key = row["table_id"]
    table = key.removeprefix(SPECTATOR)
    record = row.get("record") if key.startswith(UPLOAD) else table_record(engine, table)
    if not isinstance(record, dict):
        fail(engine, key, "this table has no record to review (it started from a written position, or is gone)")
        return None
    spec = row["budget"] if isinstance(row["budget"], dict) else {}
    return Job(key, record, Budget(**spec), row.get("owner"))


def table_record(engine: Engine, table_id: str) -> dict[str, Any] | None:
    """A stored table's record (as ``GET /api/tables/{id}/record`` has it, without the notes)."""
    with engine.begin() as conn:
        table = conn.execute(select(tables_table).where(tables_table.c.id == table_id)).mappings().first()
        if table is None or POSITION_KEY in (table["options"] or {}):
            return None
        moves = conn.execute(
            select(moves_table.c.seat, moves_table.c.action)
            .where(moves_table.c.table_id == table_id)
            .order_by(moves_table.c.idx)
        ).all()
    record = Record(
        table["game"], table["num_players"], table["seed"], dict(table["options"]), [tuple(m) for m in moves]
    )
    return record.to_json()


def fail(engine: Engine, key: str, error: str) -> None:
    with engine.begin() as conn:
        conn.execute(
            update(reviews)
            .where(reviews.c.table_id == key)
            .values(status="failed", error=error[:500], worker=None, updated_at=now())
        )


def compute(
    engine: Engine,
    key: str,
    record: dict[str, Any],
    budget: Budget,
    between: Callable[[], None] | None = None,
    worker: str | None = None,
) -> float:
    """Review a record, recording its progress (at most every :data:`PROGRESS_EVERY` seconds) and then the
    review, or the error; ``between()`` runs after each decision (a worker plays its due bot turns there).
    Returns the CPU seconds the review's search used."""
    last = 0.0
    spent = 0.0
    mine = reviews.c.table_id == key
    if worker is not None:  # a worker whose review was taken over (it went quiet too long) stops writing
        mine = and_(mine, reviews.c.worker == worker)

    def write(**values: Any) -> int:
        with engine.begin() as conn:
            return conn.execute(update(reviews).where(mine).values(updated_at=now(), **values)).rowcount

    started = time.process_time()

    def progress(done: int, total: int) -> None:
        nonlocal last, spent, started
        if between is not None:
            spent += time.process_time() - started
            between()
            started = time.process_time()
        if time.monotonic() - last >= PROGRESS_EVERY:
            last = time.monotonic()
            if write(done=done, total=total) == 0:
                raise _Lost

    try:
        if key.startswith(SPECTATOR):
            result = spectator_review(Record.from_json(record), budget=budget, progress=progress)
        else:
            result = review_record(Record.from_json(record), budget=budget, progress=progress)
        spent += time.process_time() - started
        write(status="done", done=result.moves, review=result.to_json(), worker=None)
    except _Lost:
        log.warning("the review %s was taken over by another worker", key)
    except Stopped:
        write(status="queued", done=0, worker=None)  # another worker (or this one, restarted) takes it
    except Exception as exc:  # recorded for the players; the log has the details
        log.exception("the review %s failed", key)
        write(status="failed", error=f"{type(exc).__name__}: {exc}"[:500], worker=None)
    return spent
