"""Live tables as a cache of the database, checked by version, shared by several server processes (:class:`Sync`).

A process never trusts its copies across processes: every stored write bumps the table's ``version``, and
before it answers from memory a process compares its copy's version with the stored one. A stale copy
catches up by move number (the moves it lacks, applied one by one, each pushed to this process's sockets
as an ``update``), or is rebuilt after an undo (a ``snapshot``); changed seats are pushed as a
``snapshot`` too, so nobody skips a move. News from other processes (``fanout.py``) says what changed: a
move it carries is applied without reading the database when the copy is exactly one version behind.
The tables with sockets here are swept every few seconds (news lost while Redis was away is read from
the database).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ..clocks import CLOCK_TABLES, Clocks, SeatClock, TableClock, TimeControl
from ..fanout import MESSAGE_KINDS, News
from ..hub import Hub
from ..storage import Changes, MoveRow, Storage
from .live import LiveTable, apply_stored, rebuild

log = logging.getLogger("robotable.server")

#: Seconds between version sweeps of the tables with sockets in this process.
SWEEP_SECONDS = float(os.environ.get("ROBOTABLE_SWEEP_SECONDS", "2"))

#: Delivers news of a table to this process's sockets (``News.deliver``).
Deliver = Callable[[LiveTable, str], None]


class Sync:
    """Version checks, catch-up and news from other processes for the tables in ``live``."""

    def __init__(
        self, live: dict[str, LiveTable], storage: Storage, clocks: Clocks, hub: Hub, deliver: Deliver
    ) -> None:
        self.live = live
        self.storage = storage
        self.clocks = clocks
        self.hub = hub
        self.deliver = deliver
        self._syncing: dict[str, asyncio.Task[None]] = {}
        self._dirty: set[str] = set()
        self._wanted: dict[str, int | None] = {}  # the version each scheduled catch-up is for (None: unknown)
        self._held: dict[str, dict[int, News]] = {}  # move news that came while the table was busy here
        self._tasks: set[asyncio.Task[None]] = set()
        self.catch_ups = 0  # moves another process made, applied here (tests, benchmarks)
        self.reads = 0  # catch-ups that read the database
        self.race_catch_ups = 0  # compare-and-sets lost to another process

    async def stop(self) -> None:
        """Stop pending catch-ups."""
        tasks = list(self._syncing.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task

    def busy(self, table_id: str) -> bool:
        """Whether ``table_id`` is being caught up (it stays in memory meanwhile)."""
        return table_id in self._syncing

    def forget(self, table_id: str) -> None:
        """``table_id`` left memory: drop the news held for it."""
        self._held.pop(table_id, None)

    # -- versions ---------------------------------------------------------------------------------

    async def sweep(self) -> None:
        """Re-read every table with sockets here whose stored version moved on (missed news)."""
        ids = [t for t in self.hub.tables if t in self.live]
        if not ids:
            return
        stored = await asyncio.to_thread(self.storage.versions, ids)
        for table_id, version in stored.items():
            live = self.live.get(table_id)
            if live is not None and version != live.row.version:
                self.schedule(table_id, version)

    def resync_all(self) -> None:
        """After the fan-out (re)connected: news may have been missed, check every table with sockets."""
        for table_id in list(self.hub.tables):
            if table_id in self.live:
                self.schedule(table_id)

    async def ensure_fresh(self, live: LiveTable) -> None:
        """Bring ``live`` up to the stored version (one cheap query when it is already current)."""
        stored = await asyncio.to_thread(self.storage.versions, [live.id])
        if stored.get(live.id, live.row.version) == live.row.version:
            return
        async with live.lock:
            await self.refresh_locked(live)

    def schedule(self, table_id: str, version: int | None = None) -> None:
        """Catch ``table_id`` up in the background (coalesced: at most one catch-up runs per table).

        ``version`` is the stored version news or a sweep told of: a copy that reached it meanwhile (the
        move that lost a race applies the news it waited for) reads nothing. None: read the database."""
        if version is None or self._wanted.get(table_id, 0) is None:
            self._wanted[table_id] = None
        else:
            self._wanted[table_id] = max(self._wanted.get(table_id) or 0, version)
        task = self._syncing.get(table_id)
        if task is not None and not task.done():
            self._dirty.add(table_id)
            return
        self._syncing[table_id] = asyncio.create_task(self._sync_task(table_id))

    async def _sync_task(self, table_id: str) -> None:
        try:
            while True:
                self._dirty.discard(table_id)
                wanted = self._wanted.pop(table_id, None)
                live = self.live.get(table_id)
                if live is None:
                    self._held.pop(table_id, None)
                    return
                async with live.lock:
                    if wanted is None or live.row.version < wanted:
                        await self.refresh_locked(live)
                if table_id not in self._dirty:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s could not catch up; it is reloaded on next use", table_id)
            self.live.pop(table_id, None)
        finally:
            self._syncing.pop(table_id, None)

    async def refresh_locked(self, live: LiveTable, known: Changes | None = None) -> bool:
        """Catch ``live`` up with the database (its lock held); whether anything changed.

        The moves it lacks are applied in order and each is pushed to this process's sockets; after an
        undo elsewhere it is rebuilt and every socket gets a snapshot; changed seats send a snapshot.
        ``known``: the table as already read (by a lost write, for the copy as it is now), used instead
        of reading it again if it is ahead of the copy.
        """
        if self._apply_held(live):
            return True
        if known is not None and known[0].version > live.row.version and known[1] in (0, len(live.moves)):
            loaded: Changes | None = known
        else:
            self.reads += 1
            loaded = await self.storage.load_changes_async(live.id, live.row.history, len(live.moves), CLOCK_TABLES)
        if loaded is None:
            return False
        row, first, clock_rows = loaded
        if row.version == live.row.version:
            return False
        self.clocks.forget(live.id)  # the clocks moved on with the table: as read with it
        try:
            clock = Clocks.from_rows(clock_rows)
        except (KeyError, TypeError, ValueError):  # read again on first use
            log.warning("table %s: clocks not read with its changes", live.id, exc_info=True)
            clock = None
        if clock is not None:
            self.clocks.cache[live.id] = clock
        seats_changed = [vars(s) for s in row.seats] != [vars(s) for s in live.row.seats]
        bots_changed = [s.kind == "bot" or s.handed_to_bot for s in row.seats] != [
            s.kind == "bot" or s.handed_to_bot for s in live.row.seats
        ]
        links_changed = (row.next_table, row.status) != (live.row.next_table, live.row.status)
        live.row.seats = row.seats
        if first == len(live.moves) and row.history == live.row.history:
            for move in row.moves:
                apply_stored(live, move)
                self.catch_ups += 1
                self.deliver(live, "move")
        else:
            rebuilt = await asyncio.to_thread(rebuild, row)
            live.state, live.events, live.random_moves = rebuilt.state, rebuilt.events, rebuilt.random_moves
            live.waiting = rebuilt.waiting
            live.row.moves = row.moves
            bots_changed = False
            self.deliver(live, "undo")  # a whole snapshot
        for name in ("num_moves", "status", "result", "next_table", "updated_at", "version", "history", "to_act"):
            setattr(live.row, name, getattr(row, name))
        if bots_changed:  # legal moves may differ: a whole snapshot
            self.deliver(live, "seats")
        elif seats_changed or links_changed:
            self.deliver(live, "table")
        return True

    async def catch_up_after_race(self, live: LiveTable, known: Changes | None = None) -> bool:
        """Catch ``live`` up after its write lost a compare-and-set (its lock held): another process
        wrote first (two seats that choose at once, through two processes). Move news that came
        meanwhile is applied; else what the losing write saw (``known``, read in its own round trip)
        if it shows the winner; else the table is read at once, in one statement on the event loop's
        own connections (:meth:`refresh_locked`). Nothing waits for the winner's news: it is late just
        when races happen (a busy publisher), and waiting for it was most of a lost race's time."""
        self.race_catch_ups += 1
        return await self.refresh_locked(live, known)

    # -- news from other processes ----------------------------------------------------------------

    def receive(self, news: News) -> None:
        """Table news published by another process (not presence, not sessions): deliver it here."""
        live = self.live.get(news.table)
        if not self.hub.tables.get(news.table):
            # no sockets here: a copy in memory is checked by version when it is next used, but clocks
            # and notes are kept beside the table (no version): read them again now, off the loop
            if live is not None and news.kind == "table" and news.version == live.row.version:
                self._read_clocks_again(live)
            return
        if news.kind in MESSAGE_KINDS or news.message is not None:
            if live is not None and news.version > live.row.version:
                self.schedule(news.table, news.version)  # it came with a stored change we have not seen
            if news.message is not None:
                self.hub.broadcast_to(news.table, news.message, news.seats)
            return
        if news.kind == "move" and news.move is not None and live is not None:
            if live.lock.locked() or news.table in self._syncing:  # kept for the catch-up that follows
                held = self._held.setdefault(news.table, {})
                held[news.version] = news
                for old in [v for v in held if v <= live.row.version]:
                    del held[old]
            elif self._apply_news(live, news):
                return
        if live is not None and news.version != live.row.version:
            self.schedule(news.table, news.version)
        elif live is not None and news.kind == "table":  # a change kept beside the table (its clocks)
            self._read_clocks_again(live)

    def _read_clocks_again(self, live: LiveTable) -> None:
        task = asyncio.create_task(self._clocks_changed(live, live.row.version))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def move_news(self, live: LiveTable) -> dict[str, Any]:
        """What ``"move"`` news carries: the move just committed at ``live``, the table's new columns,
        and its clocks as this process holds them (None when it holds none, or notes it does not send)."""
        move, row = live.row.moves[-1], live.row
        clock = self.clocks.cache.get(live.id)
        return {
            "idx": move.idx,
            "seat": move.seat,
            "action": move.action,
            "actor": move.actor,
            "history": row.history,
            "status": row.status,
            "result": row.result,
            "to_act": row.to_act,
            "updated_at": row.updated_at.isoformat(),
            "clock": clock_json(clock) if clock is not None and not clock.notes else None,
        }

    def _apply_news(self, live: LiveTable, news: News) -> bool:
        """Apply a move carried by news if ``live`` is exactly one version behind it (no database read);
        whether it did (if not, the caller reads the table from the database)."""
        m = news.move or {}
        fits = news.version == live.row.version + 1 and m.get("idx") == len(live.moves)
        if not fits or m.get("history") != live.row.history:
            return False
        try:
            clock = clock_of(m["clock"])
            move = MoveRow(int(m["idx"]), int(m["seat"]), dict(m["action"]), str(m["actor"]))
            stamp = datetime.fromisoformat(m["updated_at"])
            apply_stored(live, move)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            log.warning("table %s: move news not applied (%s); reading the database", live.id, exc)
            return False
        except Exception:  # the rules refused it here: the database decides
            log.exception("table %s: move news not applied; reading the database", live.id)
            return False
        row = live.row
        finished = m["status"] != row.status
        row.num_moves, row.status, row.result, row.to_act = len(live.moves), m["status"], m["result"], m["to_act"]
        row.updated_at, row.version = stamp, news.version
        self.clocks.cache[live.id] = clock
        self.catch_ups += 1
        self.deliver(live, "move")
        if finished:
            self.deliver(live, "table")
        return True

    def _apply_held(self, live: LiveTable) -> bool:
        """Apply the held move news that follow ``live``'s version in order; whether that made it current
        (the newest held news applied and nothing newer noticed), so no database read is needed."""
        held = self._held.pop(live.id, None)
        if not held:
            return False
        applied = False
        while (news := held.pop(live.row.version + 1, None)) is not None and self._apply_news(live, news):
            applied = True
        return applied and not held

    async def _clocks_changed(self, live: LiveTable, version: int) -> None:
        """Another process changed the table's clocks: read them in a worker thread, then the summary."""
        try:
            clock = await asyncio.to_thread(self.clocks.load, live.id)
        except Exception:
            log.warning("table %s: clocks not read again", live.id, exc_info=True)
            clock = None
        if live.row.version != version:
            return  # moved on meanwhile: its catch-up reads the clocks and tells the sockets
        self.clocks.forget(live.id)
        if clock is not None:
            self.clocks.cache[live.id] = clock
        self.deliver(live, "table")


def clock_json(clock: TableClock) -> dict[str, Any]:
    """A table's clocks (without notes) as JSON for move news."""
    c = clock.control
    return {
        "control": [c.kind, c.base, c.increment, c.days],
        "seats": [
            [
                s.seat,
                s.remaining_ms,
                s.deadline.isoformat() if s.deadline else None,
                s.timed_out,
                s.away_deadline.isoformat() if s.away_deadline else None,
            ]
            for s in clock.seats
        ],
    }


def clock_of(data: Any) -> TableClock:
    """The clocks of :func:`clock_json`; ValueError if there are none."""
    if not isinstance(data, dict):
        raise ValueError("no clocks in the news")

    def when(text: str | None) -> datetime | None:
        return datetime.fromisoformat(text) if text else None

    kind, base, increment, days = data["control"]
    seats = [
        SeatClock(int(seat), int(left), when(deadline), bool(timed_out), when(away))
        for seat, left, deadline, timed_out, away in data["seats"]
    ]
    return TableClock(TimeControl(str(kind), int(base), int(increment), int(days)), seats)
