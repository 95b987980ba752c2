"""The tables in memory (:class:`Registry`): loaded and replayed from storage on first use, kept bounded.

A process keeps the tables it serves in memory but never trusts them across processes: before it answers
from memory, a copy is checked against its stored version (``sync.py``). Tables nobody uses here leave
memory (no socket, no bot running, idle long enough) and are loaded again on demand.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable

from ..clocks import Clocks, TableClock
from ..errors import NotFound, quoted
from ..hub import Hub
from ..storage import Storage
from .live import LiveTable, plausible_id, rebuild

log = logging.getLogger("robotable.server")

#: Tables nobody watches are dropped from memory beyond this many live tables (idle ones go anyway).
MAX_LIVE_TABLES = 2000
#: An unfinished table nobody used for this long (no socket here, no bot running) leaves memory.
IDLE_SECONDS = float(os.environ.get("ROBOTABLE_IDLE_SECONDS", "300"))
#: A finished (or expired) table leaves sooner: nobody plays it again, and a busy server finishes many.
FINISHED_IDLE_SECONDS = float(os.environ.get("ROBOTABLE_FINISHED_IDLE_SECONDS", "20"))


class Registry:
    """Every live table of this process, by id.

    ``freshen`` brings a copy up to its stored version; ``busy`` says whether a table is being caught up
    (it stays in memory); ``forgotten`` is told of each table that left memory.
    """

    def __init__(
        self,
        storage: Storage,
        clocks: Clocks,
        hub: Hub,
        freshen: Callable[[LiveTable], Awaitable[None]],
        busy: Callable[[str], bool],
        forgotten: Callable[[str], None],
    ) -> None:
        self.storage = storage
        self.clocks = clocks
        self.hub = hub
        self.live: dict[str, LiveTable] = {}
        self._freshen = freshen
        self._busy = busy
        self._forgotten = forgotten
        self._loading = asyncio.Lock()

    async def get(self, table_id: str, fresh: bool = True) -> LiveTable:
        """The live table, loaded and replayed from storage on first use.

        With ``fresh`` (the default) a table already in memory is first checked against its stored
        version, and caught up if another process changed it. Moves skip that check: their write is a
        compare-and-set on the version, and a refused one catches up and tries again.
        """
        live = self.live.get(table_id)
        if live is not None:
            if fresh:
                if live.lock.locked():  # a change is being made here: answer once it is whole
                    async with live.lock:
                        pass
                await self._freshen(live)
            live.last_used = time.monotonic()
            return live
        if not plausible_id(table_id):  # not quoted back: only a plausible id is (below)
            raise NotFound(f"no table {quoted(table_id)}", code="app:errors.no_table", params={"table": "?"})
        async with self._loading:
            live = self.live.get(table_id)
            if live is None:
                live, clock = await asyncio.to_thread(self._load, table_id)
                if live is None:
                    raise NotFound(f"no table {table_id!r}", code="app:errors.no_table", params={"table": table_id})
                self.clocks.forget(table_id)  # the clocks as read with the table
                if clock is not None:
                    self.clocks.cache[table_id] = clock
                self._evict()
                live = self.live.setdefault(table_id, live)  # unless its creator here kept it meanwhile
        live.last_used = time.monotonic()
        return live

    def _load(self, table_id: str) -> tuple[LiveTable | None, TableClock | None]:
        """Read and replay a table, and read its clocks (in a worker thread: never on the event loop)."""
        row = self.storage.load_table(table_id)
        return (None, None) if row is None else (rebuild(row), self.clocks.load(table_id))

    def _evict(self) -> None:
        """Keep memory bounded: beyond MAX_LIVE_TABLES, forget the tables nobody uses here."""
        if len(self.live) < MAX_LIVE_TABLES:
            return
        self.evict_idle(idle=0)

    def evict_idle(self, idle: float | None = None) -> list[str]:
        """Forget tables nobody uses here (no socket, no bot running, idle: :data:`IDLE_SECONDS`, or
        :data:`FINISHED_IDLE_SECONDS` for a finished one); they reload on demand."""
        now = time.monotonic()
        gone = []
        for table_id, live in list(self.live.items()):
            running = live.bot_task is not None and not live.bot_task.done()
            if running or self.hub.tables.get(table_id) or live.lock.locked() or self._busy(table_id):
                continue
            over = live.row.status in ("finished", "expired")
            limit = idle if idle is not None else FINISHED_IDLE_SECONDS if over else IDLE_SECONDS
            if live.last_used <= now - limit:
                del self.live[table_id]
                self._forgotten(table_id)
                gone.append(table_id)
        return gone
