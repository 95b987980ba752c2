"""The lobby's list of tables (:class:`Lobby`): summaries read from the database without replaying."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from robotable import games

from ..errors import ApiError, quoted
from ..messages import TableSummary
from ..storage import Storage
from .live import LiveTable, plausible_id
from .views import Views

log = logging.getLogger("robotable.server")


class Lobby:
    """Pages of table summaries; tables in memory here (``live``) show their clocks too."""

    def __init__(
        self, storage: Storage, live: dict[str, LiveTable], get: Callable[[str], Awaitable[LiveTable]], views: Views
    ) -> None:
        self.storage = storage
        self.live = live
        self.get = get
        self.views = views

    async def list_tables(
        self, statuses: Sequence[str] | None, limit: int = 200, before: str | None = None, game: str | None = None
    ) -> list[TableSummary]:
        """Summaries for the lobby (only ``game``'s tables if given), a page at a time, read from the
        database without replaying (tables in memory here show their clocks too).

        ``before`` is the id of the last table of the previous page.
        """
        cursor = None
        if before is not None:
            if not plausible_id(before):
                raise ApiError(f"before: no table {quoted(before)}")
            head = await asyncio.to_thread(self.storage.list_page_key, before)
            if head is None:
                raise ApiError(f"before: no table {quoted(before)}")
            cursor = head
        wanted = tuple(statuses) if statuses else None
        rows = await asyncio.to_thread(self.storage.list_rows, wanted, limit, cursor, game)
        out: list[TableSummary] = []
        for row in rows:
            try:
                live = self.live.get(row.id)
                if live is not None and live.row.version == row.version:
                    out.append(self.views.summary(live))
                    continue
                over = row.status in ("finished", "expired")
                if row.to_act is None and not over:  # stored before to_act was
                    out.append(self.views.summary(await self.get(row.id)))
                    continue
                to_act = [] if over else list(row.to_act or [])
                out.append(self.views.summary_of_row(row, games.load(row.game), to_act))
            except Exception:
                log.exception("table %s cannot be listed", row.id)
        return out
