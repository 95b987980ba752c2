"""Who is connected to each table (:class:`Presence`), in this process and the others.

Presence is coalesced: who is connected is sent as one debounced summary per table, not one broadcast per
join, and is shared with the other processes through the fan-out (repeated before they forget it). A
seat's socket coming or going also starts or stops its clock's grace countdown, written in a thread of
its own so the writes keep the order of the sockets.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor

from ..clocks import Clocks
from ..fanout import PRESENCE, Fanout, News
from ..hub import Hub
from .live import LiveTable

log = logging.getLogger("robotable.server")

#: Seconds a presence change waits for others before one summary goes out (joins and leaves coalesce).
PRESENCE_DEBOUNCE = 0.3
#: Another process's presence counts this long after it last said so (it repeats every sweep).
PRESENCE_TTL = 30.0


class Presence:
    """Connected seats per table; ``deliver`` sends a table's new summary to its sockets here."""

    def __init__(
        self,
        live: dict[str, LiveTable],
        hub: Hub,
        fanout: Fanout,
        clocks: Clocks,
        deliver: Callable[[LiveTable, str], None],
    ) -> None:
        self.live = live
        self.hub = hub
        self.fanout = fanout
        self.clocks = clocks
        self.deliver = deliver
        self.remote_presence: dict[str, dict[str, tuple[frozenset[int], float]]] = {}
        self._told: dict[str, frozenset[int]] = {}  # seats this process last published per table
        self._presence_due: dict[str, asyncio.TimerHandle] = {}
        self._presence_writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="robotable-presence")
        self._tasks: set[asyncio.Task[None]] = set()
        self._last_presence_repeat = 0.0

    def stop(self) -> None:
        """Cancel pending summaries and let the presence writer go."""
        for handle in self._presence_due.values():
            handle.cancel()
        self._presence_writer.shutdown(wait=False)

    def receive(self, news: News) -> None:
        """Presence news from another process (``message`` is ``{"seats": [...]}``)."""
        seats = frozenset(int(s) for s in (news.message or {}).get("seats", ()))
        before = self.connected_elsewhere(news.table)
        if seats:
            self.remote_presence.setdefault(news.table, {})[news.origin] = (seats, time.monotonic())
        else:
            self.remote_presence.get(news.table, {}).pop(news.origin, None)
        if self.connected_elsewhere(news.table) != before and news.table in self.live:
            self._debounce_summary(news.table)

    def resync_all(self) -> None:
        """After the fan-out (re)connected: tell the others again who is connected here."""
        for table_id in list(self.hub.tables):
            self._told.pop(table_id, None)
            self.presence_changed(table_id)

    async def seat_presence(self, live: LiveTable, seat: int | None) -> None:
        """A seat's socket connected or left here: its clock's grace countdown (``clocks.presence``, which
        writes to the database) in a thread of its own, so the writes leave the event loop in the order
        the sockets came and went."""
        if seat is None:
            return
        connected = self.connected(live.id)
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._presence_writer, self.clocks.presence, live, seat, connected)
        except Exception:
            log.exception("table %s: seat %d's presence not recorded", live.id, seat + 1)

    def socket_left(self, table_id: str, seat: int | None, stop: Awaitable[None]) -> asyncio.Task[None]:
        """A socket closed here: stop its sender (``stop``), start its seat's grace countdown and tell the
        others, in a task of its own, so the server cancelling the closed socket's handler (as test
        clients and shutdowns do) cannot skip the countdown. Await it shielded."""

        async def left() -> None:
            await stop
            live = self.live.get(table_id)
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
        return self.hub.connected_seats(table_id) | self.connected_elsewhere(table_id)

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
        local = frozenset(self.hub.connected_seats(table_id))
        if self._told.get(table_id) != local:
            if local or table_id in self._told:
                self.fanout.publish(
                    News(table_id, PRESENCE, message={"seats": sorted(local)}, origin=self.fanout.origin)
                )
            if local:
                self._told[table_id] = local
            else:
                self._told.pop(table_id, None)
        live = self.live.get(table_id)
        if live is not None and self.hub.tables.get(table_id):
            self.deliver(live, "table")

    def repeat(self) -> None:
        """Say again which seats are connected here, before other processes forget it."""
        now = time.monotonic()
        if now - self._last_presence_repeat < PRESENCE_TTL / 3:
            return
        self._last_presence_repeat = now
        for table_id, seats in list(self._told.items()):
            if seats:
                self.fanout.publish(
                    News(table_id, PRESENCE, message={"seats": sorted(seats)}, origin=self.fanout.origin)
                )
