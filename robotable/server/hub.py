"""The websocket hub: who is connected to which table as which seat, and an ordered outbox per connection.

Each connection has its own queue and sender task, so a slow browser never holds up a table or the
other connections, and messages reach each client in the order they were produced. A message is
encoded to JSON text once, however many connections it goes to (:func:`encode`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Any

from starlette.websockets import WebSocket

from .jsontext import encode

log = logging.getLogger("robotable.server")

#: Messages kept for a connection that does not read; beyond this it is closed.
MAX_QUEUE = 500


class Connection:
    """One websocket: a table, the seat it plays (``None`` = spectator) and its outbox.

    ``account``, ``session`` and ``token`` say who opened it: the account id, the SHA-256 of its session
    id (cookie) or of its API token (Bearer). When that session or token ends, :meth:`end` closes it.
    """

    def __init__(
        self,
        websocket: WebSocket,
        table_id: str,
        seat: int | None,
        account: str | None = None,
        session: str | None = None,
        token: str | None = None,
    ) -> None:
        self.websocket = websocket
        self.table_id = table_id
        self.seat = seat
        self.account = account
        self.session = session
        self.token = token
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.sender: asyncio.Task[None] | None = None
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""

    def start(self) -> None:
        """Start the sender task."""
        self.sender = asyncio.create_task(self._send_loop())

    def send(self, message: Mapping[str, Any] | str) -> None:
        """Queue a message, or its JSON text from :func:`encode` (never blocks)."""
        if self.closed:
            return
        if self.queue.qsize() > MAX_QUEUE:
            log.warning("closing a websocket of table %s that does not read", self.table_id)
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message if isinstance(message, str) else encode(message))

    def end(self, message: Mapping[str, Any], code: int, reason: str) -> None:
        """Send ``message`` (an ``error`` saying why), then close with ``code``; nothing else goes out."""
        if self.closed:
            return
        self.queue.put_nowait(encode(message))
        self.close_code, self.close_reason = code, reason
        self.closed = True
        self.queue.put_nowait(None)

    async def _send_loop(self) -> None:
        try:
            while True:
                message = await self.queue.get()
                if message is None:
                    break
                await self.websocket.send_text(message)
        except Exception:  # the client went away: the receive loop notices and unregisters
            self.closed = True
        if self.closed:
            with contextlib.suppress(Exception):
                await self.websocket.close(code=self.close_code, reason=self.close_reason)

    async def stop(self) -> None:
        """Flush and stop the sender."""
        self.closed = True
        self.queue.put_nowait(None)
        if self.sender is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.sender, timeout=2)


class Hub:
    """Connections per table."""

    def __init__(self) -> None:
        self.tables: dict[str, set[Connection]] = {}

    def add(self, conn: Connection) -> None:
        """Register a connection."""
        self.tables.setdefault(conn.table_id, set()).add(conn)

    def remove(self, conn: Connection) -> None:
        """Unregister a connection."""
        conns = self.tables.get(conn.table_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.tables[conn.table_id]

    def connected_seats(self, table_id: str) -> set[int]:
        """Seats with at least one open connection."""
        return {c.seat for c in self.tables.get(table_id, ()) if c.seat is not None and not c.closed}

    def broadcast(self, table_id: str, message_for: Callable[[int | None], Mapping[str, Any]]) -> None:
        """Send each connection the message for its seat (computed and encoded once per seat)."""
        cache: dict[int | None, str] = {}
        for conn in list(self.tables.get(table_id, ())):
            if conn.seat not in cache:
                cache[conn.seat] = encode(message_for(conn.seat))
            conn.send(cache[conn.seat])

    def broadcast_to(self, table_id: str, message: Mapping[str, Any], seats: tuple[int, ...] | None = None) -> None:
        """Send one message to the table's connections (only those playing ``seats``, if given)."""
        text: str | None = None
        for conn in list(self.tables.get(table_id, ())):
            if seats is None or conn.seat in seats:
                text = text or encode(message)
                conn.send(text)

    def connections(self) -> list[Connection]:
        """Every open connection."""
        return [c for conns in self.tables.values() for c in conns if not c.closed]

    def count(self) -> int:
        """Open connections in total."""
        return sum(len(c) for c in self.tables.values())
