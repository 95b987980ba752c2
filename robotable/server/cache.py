"""Live tables as a cache of the database, checked by version, shared by several server processes.

A process keeps the tables it serves in memory (``TableManager.live``), but never trusts them across
processes: every stored write bumps the table's ``version``, and before it answers from memory a process
compares its copy's version with the stored one. A stale copy catches up by move number (the moves it
lacks, applied one by one, each pushed to this process's sockets as an ``update``), or is rebuilt after an
undo (a ``snapshot``); changed seats are pushed as a ``snapshot`` too, so nobody skips a move.

It also keeps memory bounded (idle tables are evicted and reloaded on demand), sweeps the versions of the
tables with sockets here every few seconds (news lost while Redis was away is read from the database),
and coalesces presence: who is connected is sent as one debounced summary per table, not one broadcast
per join, and is shared with the other processes through the fan-out.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import time
from collections.abc import Awaitable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import TYPE_CHECKING, Any

from . import session_end
from .clocks import CLOCK_TABLES, Clocks
from .collector import COLLECTIONS
from .fanout import MESSAGE_KINDS, PRESENCE, News
from .storage import Changes

if TYPE_CHECKING:
    from .tables import LiveTable, TableManager

log = logging.getLogger("robotable.server")

#: Seconds between version sweeps of the tables with sockets in this process.
SWEEP_SECONDS = float(os.environ.get("ROBOTABLE_SWEEP_SECONDS", "2"))
#: An unfinished table nobody used for this long (no socket here, no bot running) leaves memory.
IDLE_SECONDS = float(os.environ.get("ROBOTABLE_IDLE_SECONDS", "300"))
#: A finished (or expired) table leaves sooner: nobody plays it again, and a busy server finishes many.
FINISHED_IDLE_SECONDS = float(os.environ.get("ROBOTABLE_FINISHED_IDLE_SECONDS", "20"))
#: Seconds a presence change waits for others before one summary goes out (joins and leaves coalesce).
PRESENCE_DEBOUNCE = 0.3
#: Another process's presence counts this long after it last said so (it repeats every sweep).
PRESENCE_TTL = 30.0


class TableCache:
    """Version checks, catch-up, eviction and presence for a :class:`TableManager`."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.remote_presence: dict[str, dict[str, tuple[frozenset[int], float]]] = {}
        self._told: dict[str, frozenset[int]] = {}  # seats this process last published per table
        self._presence_due: dict[str, asyncio.TimerHandle] = {}
        self._syncing: dict[str, asyncio.Task[None]] = {}
        self._dirty: set[str] = set()
        self._wanted: dict[str, int | None] = {}  # the version each scheduled catch-up is for (None: unknown)
        self._held: dict[str, dict[int, News]] = {}  # move news that came while the table was busy here
        self._presence_writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="robotable-presence")
        self._tasks: set[asyncio.Task[None]] = set()
        self._janitor: asyncio.Task[None] | None = None
        self._last_presence_repeat = 0.0
        self.catch_ups = 0  # moves another process made, applied here (tests, benchmarks)
        self.reads = 0  # catch-ups that read the database
        self.race_catch_ups = 0  # compare-and-sets lost to another process

    # -- life cycle -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the sweep and eviction loop."""
        self._janitor = asyncio.create_task(self._janitor_loop(), name="table-cache-janitor")

    async def stop(self) -> None:
        """Stop the loop and pending catch-ups."""
        for handle in self._presence_due.values():
            handle.cancel()
        tasks = [t for t in (self._janitor, *self._syncing.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._presence_writer.shutdown(wait=False)

    async def _janitor_loop(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
                self.evict_idle()
                self._repeat_presence()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table cache sweep failed; trying again")

    # -- versions ---------------------------------------------------------------------------------

    async def sweep(self) -> None:
        """Re-read every table with sockets here whose stored version moved on (missed news)."""
        ids = [t for t in self.manager.hub.tables if t in self.manager.live]
        if not ids:
            return
        stored = await asyncio.to_thread(self.manager.storage.versions, ids)
        for table_id, version in stored.items():
            live = self.manager.live.get(table_id)
            if live is not None and version != live.row.version:
                self.schedule(table_id, version)

    async def resync_all(self) -> None:
        """After the fan-out (re)connected: news may have been missed, check every table with sockets."""
        for table_id in list(self.manager.hub.tables):
            if table_id in self.manager.live:
                self.schedule(table_id)
        for table_id in list(self.manager.hub.tables):
            self._told.pop(table_id, None)
            self.presence_changed(table_id)

    async def ensure_fresh(self, live: LiveTable) -> None:
        """Bring ``live`` up to the stored version (one cheap query when it is already current)."""
        stored = await asyncio.to_thread(self.manager.storage.versions, [live.id])
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
                live = self.manager.live.get(table_id)
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
            self.manager.live.pop(table_id, None)
        finally:
            self._syncing.pop(table_id, None)

    async def refresh_locked(self, live: LiveTable, known: Changes | None = None) -> bool:
        """Catch ``live`` up with the database (its lock held); whether anything changed.

        The moves it lacks are applied in order and each is pushed to this process's sockets; after an
        undo elsewhere it is rebuilt and every socket gets a snapshot; changed seats send a snapshot.
        ``known``: the table as already read (by a lost write, for the copy as it is now), used instead
        of reading it again if it is ahead of the copy.
        """
        manager = self.manager
        if self._apply_held(live):
            return True
        if known is not None and known[0].version > live.row.version and known[1] in (0, len(live.moves)):
            loaded: Changes | None = known
        else:
            self.reads += 1
            loaded = await manager.storage.load_changes_async(live.id, live.row.history, len(live.moves), CLOCK_TABLES)
        if loaded is None:
            return False
        row, first, clock_rows = loaded
        if row.version == live.row.version:
            return False
        manager.clocks.forget(live.id)  # the clocks moved on with the table: as read with it
        try:
            clock = Clocks.from_rows(clock_rows)
        except (KeyError, TypeError, ValueError):  # read again on first use
            log.warning("table %s: clocks not read with its changes", live.id, exc_info=True)
            clock = None
        if clock is not None:
            manager.clocks.cache[live.id] = clock
        seats_changed = [vars(s) for s in row.seats] != [vars(s) for s in live.row.seats]
        bots_changed = [s.kind == "bot" or s.handed_to_bot for s in row.seats] != [
            s.kind == "bot" or s.handed_to_bot for s in live.row.seats
        ]
        links_changed = (row.next_table, row.status) != (live.row.next_table, live.row.status)
        live.row.seats = row.seats
        if first == len(live.moves) and row.history == live.row.history:
            for move in row.moves:
                manager.apply_stored(live, move)
                self.catch_ups += 1
                manager.deliver(live, "move")
        else:
            rebuilt = await asyncio.to_thread(manager.rebuild, row)
            live.state, live.events, live.random_moves = rebuilt.state, rebuilt.events, rebuilt.random_moves
            live.waiting = rebuilt.waiting
            live.row.moves = row.moves
            bots_changed = False
            manager.deliver(live, "undo")  # a whole snapshot
        for name in ("num_moves", "status", "result", "next_table", "updated_at", "version", "history", "to_act"):
            setattr(live.row, name, getattr(row, name))
        if bots_changed:  # legal moves may differ: a whole snapshot
            manager.deliver(live, "seats")
        elif seats_changed or links_changed:
            manager.deliver(live, "table")
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

    async def receive(self, news: News) -> None:
        """News published by another process: deliver it to the sockets here."""
        if news.sent:  # published to received (one clock for processes of one machine)
            self.manager.timings.add("news_delay", max(0.0, time.time() - news.sent))
        if news.kind == session_end.SESSIONS:  # sessions another process ended: close their sockets here
            session_end.apply_news(self.manager.hub, news)
            return
        self._receive(news)

    def _receive(self, news: News) -> None:
        manager = self.manager
        if news.kind == PRESENCE:
            seats = frozenset(int(s) for s in (news.message or {}).get("seats", ()))
            before = self.connected_elsewhere(news.table)
            if seats:
                self.remote_presence.setdefault(news.table, {})[news.origin] = (seats, time.monotonic())
            else:
                self.remote_presence.get(news.table, {}).pop(news.origin, None)
            if self.connected_elsewhere(news.table) != before and news.table in manager.live:
                self._debounce_summary(news.table)
            return
        live = manager.live.get(news.table)
        if not manager.hub.tables.get(news.table):
            # no sockets here: a copy in memory is checked by version when it is next used, but clocks
            # and notes are kept beside the table (no version): read them again now, off the loop
            if live is not None and news.kind == "table" and news.version == live.row.version:
                self._read_clocks_again(live)
            return
        if news.kind in MESSAGE_KINDS or news.message is not None:
            if live is not None and news.version > live.row.version:
                self.schedule(news.table, news.version)  # it came with a stored change we have not seen
            if news.message is not None:
                manager.hub.broadcast_to(news.table, news.message, news.seats)
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
        clock = self.manager.clocks.cache.get(live.id)
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
            "clock": _clock_json(clock) if clock is not None and not clock.notes else None,
        }

    def _apply_news(self, live: LiveTable, news: News) -> bool:
        """Apply a move carried by news if ``live`` is exactly one version behind it (no database read);
        whether it did (if not, the caller reads the table from the database)."""
        m = news.move or {}
        fits = news.version == live.row.version + 1 and m.get("idx") == len(live.moves)
        if not fits or m.get("history") != live.row.history:
            return False
        manager = self.manager
        try:
            from .storage import MoveRow

            clock = _clock_of(m["clock"])
            move = MoveRow(int(m["idx"]), int(m["seat"]), dict(m["action"]), str(m["actor"]))
            stamp = datetime.fromisoformat(m["updated_at"])
            manager.apply_stored(live, move)
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
        manager.clocks.cache[live.id] = clock
        self.catch_ups += 1
        manager.deliver(live, "move")
        if finished:
            manager.deliver(live, "table")
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
            clock = await asyncio.to_thread(self.manager.clocks.load, live.id)
        except Exception:
            log.warning("table %s: clocks not read again", live.id, exc_info=True)
            clock = None
        if live.row.version != version:
            return  # moved on meanwhile: its catch-up reads the clocks and tells the sockets
        self.manager.clocks.forget(live.id)
        if clock is not None:
            self.manager.clocks.cache[live.id] = clock
        self.manager.deliver(live, "table")

    # -- presence ---------------------------------------------------------------------------------

    async def seat_presence(self, live: LiveTable, seat: int | None) -> None:
        """A seat's socket connected or left here: its clock's grace countdown (``clocks.presence``, which
        writes to the database) in a thread of its own, so the writes leave the event loop in the order
        the sockets came and went."""
        if seat is None:
            return
        connected = self.connected(live.id)
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._presence_writer, self.manager.clocks.presence, live, seat, connected)
        except Exception:
            log.exception("table %s: seat %d's presence not recorded", live.id, seat + 1)

    def socket_left(self, table_id: str, seat: int | None, stop: Awaitable[None]) -> asyncio.Task[None]:
        """A socket closed here: stop its sender (``stop``), start its seat's grace countdown and tell the
        others, in a task of its own, so the server cancelling the closed socket's handler (as test
        clients and shutdowns do) cannot skip the countdown. Await it shielded."""

        async def left() -> None:
            await stop
            live = self.manager.live.get(table_id)
            if live is not None:
                await self.seat_presence(live, seat)
            if seat is not None:
                self.presence_changed(table_id)

        task = asyncio.create_task(left(), name=f"socket-left-{table_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def connected_elsewhere(self, table_id: str) -> frozenset[int]:
        """Seats connected to other processes (as they last said, within the TTL)."""
        out: set[int] = set()
        horizon = time.monotonic() - PRESENCE_TTL
        for seats, seen in self.remote_presence.get(table_id, {}).values():
            if seen >= horizon:
                out |= seats
        return frozenset(out)

    def connected(self, table_id: str) -> set[int]:
        """Seats with an open socket in any process."""
        return self.manager.hub.connected_seats(table_id) | self.connected_elsewhere(table_id)

    def presence_changed(self, table_id: str) -> None:
        """A socket joined or left here: one summary and one presence notice soon, if seats changed."""
        self._debounce_summary(table_id)

    def _debounce_summary(self, table_id: str) -> None:
        if table_id in self._presence_due:
            return
        loop = asyncio.get_running_loop()
        self._presence_due[table_id] = loop.call_later(PRESENCE_DEBOUNCE, self._presence_now, table_id)

    def _presence_now(self, table_id: str) -> None:
        self._presence_due.pop(table_id, None)
        manager = self.manager
        local = frozenset(manager.hub.connected_seats(table_id))
        if self._told.get(table_id) != local:
            if local or table_id in self._told:
                manager.fanout.publish(
                    News(table_id, PRESENCE, message={"seats": sorted(local)}, origin=manager.fanout.origin)
                )
            if local:
                self._told[table_id] = local
            else:
                self._told.pop(table_id, None)
        live = manager.live.get(table_id)
        if live is not None and manager.hub.tables.get(table_id):
            manager.deliver(live, "table")

    def _repeat_presence(self) -> None:
        """Say again which seats are connected here, before other processes forget it."""
        now = time.monotonic()
        if now - self._last_presence_repeat < PRESENCE_TTL / 3:
            return
        self._last_presence_repeat = now
        for table_id, seats in list(self._told.items()):
            if seats:
                self.manager.fanout.publish(
                    News(table_id, PRESENCE, message={"seats": sorted(seats)}, origin=self.manager.fanout.origin)
                )

    # -- memory -----------------------------------------------------------------------------------

    def evict_idle(self, idle: float | None = None) -> list[str]:
        """Forget tables nobody uses here (no socket, no bot running, idle: :data:`IDLE_SECONDS`, or
        :data:`FINISHED_IDLE_SECONDS` for a finished one); they reload on demand."""
        now = time.monotonic()
        gone = []
        for table_id, live in list(self.manager.live.items()):
            busy = live.bot_task is not None and not live.bot_task.done()
            if busy or self.manager.hub.tables.get(table_id) or live.lock.locked() or table_id in self._syncing:
                continue
            over = live.row.status in ("finished", "expired")
            limit = idle if idle is not None else FINISHED_IDLE_SECONDS if over else IDLE_SECONDS
            if live.last_used <= now - limit:
                del self.manager.live[table_id]
                self._held.pop(table_id, None)
                gone.append(table_id)
        return gone

    def stats(self) -> dict[str, Any]:
        """Figures for operators and benchmarks."""
        return {
            "live_tables": len(self.manager.live),
            "sockets": self.manager.hub.count(),
            "catch_up_moves": self.catch_ups,
            "catch_up_reads": self.reads,
            "races_lost": self.race_catch_ups,
            "fanout_connected": self.manager.fanout.connected,
            "timings": self.manager.timings.figures(),
            "move_connections": self.manager.storage.append_connections(),
            "gc": {
                "thresholds": list(gc.get_threshold()),
                "collections": [g["collections"] for g in gc.get_stats()],
                "pauses": COLLECTIONS.figures(),
            },
        }


def _clock_json(clock: Any) -> dict[str, Any]:
    """A table's clocks (``clocks.TableClock`` without notes) as JSON for move news."""
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


def _clock_of(data: Any) -> Any:
    """The ``clocks.TableClock`` of :func:`_clock_json`; ValueError if there is none."""
    from .clocks import SeatClock, TableClock, TimeControl

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
