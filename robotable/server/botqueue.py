"""The bot-turn queue in the database: which tables wait for a bot, who owns them, who is thinking.

One row per table that has ever had a bot to move (``robotable_bot_turns``): the table's owner (an
account, or the creator's address for guests), whether every seat is a bot, and, while a bot turn is
pending, the move count it is for, when it is due, and the lease of the worker thinking on it.

- Web processes :meth:`BotQueue.enqueue` a turn when bots are to move (after a person's move, a
  hand-over, a start-up resume, or a bot move that leaves bots to move).
- Workers :meth:`BotQueue.claim` the oldest due turn (tables with people first): on PostgreSQL
  ``SELECT ... FOR UPDATE SKIP LOCKED``, then a conditional update setting a lease (which is all SQLite
  needs: its writes are serialised). A worker renews its lease while it thinks; a killed worker's lease
  runs out and another worker claims the turn.
- When the moves are in (or the table moved on without them) the worker calls :meth:`finish`; a failure
  :meth:`retry` s the turn later with exponential backoff: a table is never dropped.

Thinking time is counted per owner in ``robotable_bot_usage`` (an hourly window) for the quotas.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import (
    and_,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from .storage import Storage, now, tables_table
from .storage.schema import bot_turns, bot_usage

#: The quota window for bot thinking time.
WINDOW = timedelta(hours=1)
#: Longest wait between two attempts at a failing turn.
MAX_BACKOFF = 30.0


@dataclass(frozen=True)
class Turn:
    """A claimed bot turn: the table, the move count it is for, its owner and how often it was tried."""

    table_id: str
    version: int
    owner: str | None
    attempts: int


def backoff(attempts: int) -> float:
    """Seconds before the next attempt after ``attempts`` failed ones: 0.25, 0.5, 1, ... up to 30."""
    return min(MAX_BACKOFF, 0.25 * 2 ** max(0, attempts - 1))


class BotQueue:
    """The queue on a :class:`Storage` (same database, same schema). Every method is blocking."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage  # its tables are created with the storage's (storage/schema.py)

    # -- web processes ------------------------------------------------------------------------------

    def register(self, table_id: str, owner: str | None, all_bots: bool) -> None:
        """Record a table's owner (at creation), keeping any pending turn."""
        for attempt in range(2):  # an insert racing the table's first enqueue (its bots start) becomes an update
            try:
                with self.storage.transaction() as conn:
                    done = conn.execute(
                        update(bot_turns).where(bot_turns.c.table_id == table_id).values(owner=owner, all_bots=all_bots)
                    )
                    if done.rowcount == 0:
                        conn.execute(
                            insert(bot_turns).values(
                                table_id=table_id,
                                owner=owner,
                                all_bots=all_bots,
                                pending=False,
                                version=0,
                                due_at=now(),
                            )
                        )
                return
            except IntegrityError:
                if attempt:
                    raise

    def enqueue(self, table_id: str, version: int, delay: float = 0.0, all_bots: bool = False) -> None:
        """Bots are to move at move count ``version``: due after ``delay`` seconds.

        The version is a hint (an undo may lower it): the worker reads the table's stored move count.
        Turns of tables with people (``all_bots`` false) are taken before those of all-bot tables.
        """
        due = now() + timedelta(seconds=delay)
        values = {
            "pending": True,
            "version": version,
            "due_at": due,
            "attempts": 0,
            "last_error": None,
            "all_bots": all_bots,
        }
        for _ in range(2):  # an insert racing another process's insert becomes an update
            try:
                with self.storage.transaction() as conn:
                    done = conn.execute(update(bot_turns).where(bot_turns.c.table_id == table_id).values(**values))
                    if done.rowcount == 0:
                        conn.execute(insert(bot_turns).values(table_id=table_id, **values))
                return
            except IntegrityError:
                continue

    def owner_of(self, table_id: str) -> str | None:
        """The owner recorded for a table."""
        with self.storage.read() as conn:
            return conn.execute(select(bot_turns.c.owner).where(bot_turns.c.table_id == table_id)).scalar()

    def running_bot_tables(self, owner: str) -> int:
        """Unfinished all-bot tables of ``owner``."""
        query = (
            select(func.count())
            .select_from(bot_turns.join(tables_table, tables_table.c.id == bot_turns.c.table_id))
            .where(
                bot_turns.c.owner == owner,
                bot_turns.c.all_bots.is_(True),
                tables_table.c.status.in_(("open", "running")),
            )
        )
        with self.storage.read() as conn:
            return int(conn.execute(query).scalar() or 0)

    def pending(self, table_id: str) -> dict | None:
        """The queue row of a table (tests and operators)."""
        with self.storage.read() as conn:
            row = conn.execute(select(bot_turns).where(bot_turns.c.table_id == table_id)).mappings().first()
            return dict(row) if row is not None else None

    # -- workers ------------------------------------------------------------------------------------

    def claim(self, worker: str, lease: float, people_only: bool = False) -> Turn | None:
        """Take the oldest due turn whose lease is free (or ran out); None if there is none.

        ``people_only``: only turns of tables with people (a worker kept for them, so all-bot tables
        never make a person wait).
        """
        stamp = now()
        free = or_(bot_turns.c.lease_until.is_(None), bot_turns.c.lease_until < stamp)
        wanted = [bot_turns.c.pending.is_(True), bot_turns.c.due_at <= stamp, free]
        if people_only:
            wanted.append(bot_turns.c.all_bots.is_(False))
        with self.storage.transaction() as conn:
            row = (
                conn.execute(
                    select(bot_turns)
                    .where(*wanted)
                    .order_by(bot_turns.c.all_bots, bot_turns.c.due_at)  # people waiting first
                    .limit(1)
                    .with_for_update(skip_locked=True)
                )
                .mappings()
                .first()
            )
            if row is None:
                return None
            done = conn.execute(
                update(bot_turns)
                .where(bot_turns.c.table_id == row["table_id"], bot_turns.c.version == row["version"], free)
                .values(lease_until=stamp + timedelta(seconds=lease), worker=worker, attempts=bot_turns.c.attempts + 1)
            )
            if done.rowcount != 1:
                return None  # another worker was quicker (SQLite)
        return Turn(row["table_id"], row["version"], row["owner"], row["attempts"] + 1)

    def renew(self, turn: Turn, worker: str, lease: float) -> bool:
        """Extend the lease while thinking; False if the turn is no longer this worker's."""
        with self.storage.transaction() as conn:
            done = conn.execute(
                update(bot_turns)
                .where(bot_turns.c.table_id == turn.table_id, bot_turns.c.worker == worker)
                .values(lease_until=now() + timedelta(seconds=lease))
            )
            return done.rowcount == 1

    def finish(self, turn: Turn, worker: str) -> None:
        """The turn is played (or moot): clear it unless a newer one was queued meanwhile."""
        with self.storage.transaction() as conn:
            conn.execute(
                update(bot_turns)
                .where(bot_turns.c.table_id == turn.table_id, bot_turns.c.version == turn.version)
                .values(pending=False, lease_until=None, worker=None, last_error=None)
            )
            conn.execute(
                update(bot_turns)
                .where(bot_turns.c.table_id == turn.table_id, bot_turns.c.worker == worker)
                .values(lease_until=None, worker=None)
            )

    def retry(self, turn: Turn, worker: str, error: str) -> float:
        """The turn failed: try again after a backoff (returned, in seconds), by any worker."""
        wait = backoff(turn.attempts)
        with self.storage.transaction() as conn:
            conn.execute(
                update(bot_turns)
                .where(and_(bot_turns.c.table_id == turn.table_id, bot_turns.c.worker == worker))
                .values(
                    lease_until=None,
                    worker=None,
                    due_at=now() + timedelta(seconds=wait),
                    last_error=error[:200],
                )
            )
        return wait

    # -- thinking time --------------------------------------------------------------------------------

    def charge(self, owner: str, seconds: float) -> None:
        """Add thinking time to ``owner``'s current window."""
        stamp = now()
        for _ in range(2):
            try:
                with self.storage.transaction() as conn:
                    row = conn.execute(select(bot_usage).where(bot_usage.c.owner == owner)).mappings().first()
                    if row is None:
                        conn.execute(insert(bot_usage).values(owner=owner, window_start=stamp, seconds=seconds))
                    elif _utc(row["window_start"]) + WINDOW <= stamp:
                        conn.execute(
                            update(bot_usage)
                            .where(bot_usage.c.owner == owner)
                            .values(window_start=stamp, seconds=seconds)
                        )
                    else:
                        conn.execute(
                            update(bot_usage)
                            .where(bot_usage.c.owner == owner)
                            .values(seconds=bot_usage.c.seconds + seconds)
                        )
                return
            except IntegrityError:
                continue

    def used(self, owner: str) -> float:
        """Seconds of thinking ``owner``'s bots used in the current window."""
        with self.storage.read() as conn:
            row = conn.execute(select(bot_usage).where(bot_usage.c.owner == owner)).mappings().first()
        if row is None or _utc(row["window_start"]) + WINDOW <= now():
            return 0.0
        return float(row["seconds"])


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)
