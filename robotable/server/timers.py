"""The server's background timers: fire clock time-outs and expire abandoned tables.

Every process runs them; the database decides which process fires each time-out and expires each table
(conditional updates, see :meth:`Clocks.fire_due` and :func:`expiry.expire_due`), so nothing happens
twice. The process that fired a time-out writes the note and tells the table's watchers through the
table manager's publish path (``push_table``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Protocol

from . import expiry, reputation
from .clocks import LIVE
from .errors import ApiError

if TYPE_CHECKING:
    from .table.live import LiveTable


class Tables(expiry.Tables, Protocol):
    """What the timers need of the table manager (``table.TableManager``)."""

    closing: bool

    async def get(self, table_id: str, fresh: bool = True) -> LiveTable:
        """The live table."""
        ...


log = logging.getLogger("robotable.server")


async def run(manager: Tables) -> None:
    """Look for time-outs every tick and for expired tables every ``expiry.every`` seconds."""
    settings = expiry.ExpirySettings.from_env()
    last_sweep = 0.0
    while not manager.closing:
        await asyncio.sleep(manager.clocks.settings.tick)
        try:
            for table_id, seat in await asyncio.to_thread(manager.clocks.fire_due):
                await timed_out(manager, table_id, seat)
            if time.monotonic() - last_sweep >= settings.every:
                last_sweep = time.monotonic()
                await expiry.sweep(manager, settings)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the timers failed; trying again at the next tick")


async def timed_out(manager: Tables, table_id: str, seat: int) -> None:
    """A seat's clock ran out: note it and show the others they may now hand the seat to a bot."""
    try:
        live = await manager.get(table_id)
    except ApiError:
        return
    manager.clocks.forget(table_id)  # read what the firing wrote
    name = live.seat(seat).name
    manager.clocks.note(live, seat, "timeout", f"{name} ran out of time")
    log.info("table %s: seat %s ran out of time", table_id, seat)
    if manager.clocks.of(live).control.kind == LIVE:  # abandoning a live table (turn-based: reputation.py)
        await asyncio.to_thread(reputation.seat_abandoned, manager.storage, live.row, seat)
    manager.push_table(live)
