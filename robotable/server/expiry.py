"""Expiry of abandoned tables: open tables nobody joined, and turn-based tables whose players all left.

- An ``open`` table (a seat still waits for a player) with no activity (no move, no seat taken) for
  ``open_ttl`` (default 24 hours, ``ROBOTABLE_OPEN_TABLE_TTL`` seconds) expires.
- A turn-based table with no move for ``abandoned_ttl`` (default 14 days, ``ROBOTABLE_ABANDONED_TABLE_TTL``
  seconds) expires: by then every clock it waits for has been out of time for at least 11 days and no
  one handed the seat to a bot.

An expired table keeps its record and notes; its status becomes ``expired``, it leaves the lobby's
default lists and memory, and it takes no more moves. Each expiry is a conditional update (the status
and the last activity still the ones read), so however many processes sweep, a table that moved
meanwhile is left alone and each expiry happens once. See docs/server.md, "Expiry".
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from sqlalchemy import select, update

from . import reputation
from .clocks import TURN, clocks_table, env_seconds, seat_clocks_table
from .storage import Storage, now, seats_table, tables_table

if TYPE_CHECKING:
    from .clocks import Clocks
    from .table.live import LiveTable

log = logging.getLogger("robotable.server")

EXPIRED = "expired"


class Tables(Protocol):
    """What expiring tables needs of the table manager (``table.TableManager``)."""

    storage: Storage
    clocks: Clocks
    live: dict[str, LiveTable]

    def push_table(self, live: LiveTable, full: bool = False) -> None:
        """Tell every connection that the table changed."""


@dataclass(frozen=True)
class ExpirySettings:
    """How long abandoned tables stay (seconds), and how often the server looks."""

    open_ttl: float = 86_400.0
    abandoned_ttl: float = 14 * 86_400.0
    every: float = 60.0

    @classmethod
    def from_env(cls) -> ExpirySettings:
        return cls(
            open_ttl=env_seconds("ROBOTABLE_OPEN_TABLE_TTL", cls.open_ttl),
            abandoned_ttl=env_seconds("ROBOTABLE_ABANDONED_TABLE_TTL", cls.abandoned_ttl),
            every=env_seconds("ROBOTABLE_EXPIRY_EVERY", cls.every, minimum=0.01),
        )


def expire_due(storage: Storage, settings: ExpirySettings, at: datetime | None = None) -> list[str]:
    """Expire every table past its time; returns the ids this call expired."""
    at = at or now()
    t = tables_table.c
    open_cutoff = at - timedelta(seconds=settings.open_ttl)
    turn_cutoff = at - timedelta(seconds=settings.abandoned_ttl)
    with storage.read() as conn:
        candidates = [
            (r.id, r.status, r.updated_at)
            for r in conn.execute(
                select(t.id, t.status, t.updated_at).where(t.status == "open", t.updated_at < open_cutoff).limit(500)
            )
        ]
        # a table whose invited player never came waits for players too (the clocks never started)
        seat = seats_table.c
        invited = select(seat.table_id).where(seat.kind == "human", seat.account_id.is_(None))
        candidates += [
            (r.id, r.status, r.updated_at)
            for r in conn.execute(
                select(t.id, t.status, t.updated_at)
                .where(t.status == "running", t.updated_at < open_cutoff, t.id.in_(invited))
                .limit(500)
            )
        ]
        stale = conn.execute(
            select(t.id, t.status, t.updated_at, clocks_table.c.control)
            .join(clocks_table, clocks_table.c.table_id == t.id)
            .where(t.status.in_(("open", "running")), t.updated_at < turn_cutoff)
            .limit(500)
        )
        candidates += [(r.id, r.status, r.updated_at) for r in stale if dict(r.control).get("kind") == TURN]
    expired = []
    for table_id, status, updated_at in dict.fromkeys(candidates):
        with storage.transaction() as conn:
            done = conn.execute(
                update(tables_table)
                .where(t.id == table_id, t.status == status, t.updated_at == updated_at)
                .values(status=EXPIRED, version=t.version + 1)
            )
            if done.rowcount == 1:  # its clocks stop: no time-out fires on an expired table
                reputation.expired(conn, table_id)  # those whose clocks ran out left it (reputation.py)
                conn.execute(
                    update(seat_clocks_table).where(seat_clocks_table.c.table_id == table_id).values(deadline=None)
                )
        if done.rowcount == 1:
            expired.append(table_id)
    return expired


async def sweep(manager: Tables, settings: ExpirySettings) -> list[str]:
    """Expire what is due, tell the tables' watchers and drop the tables from memory."""
    import asyncio

    expired = await asyncio.to_thread(expire_due, manager.storage, settings)
    for table_id in expired:
        log.info("table %s expired", table_id)
        live = manager.live.pop(table_id, None)
        if live is None:
            continue
        if live.bot_task is not None:
            live.bot_task.cancel()
        live.row.status = EXPIRED
        manager.push_table(live)
        manager.clocks.forget(table_id)
    return expired
