"""News of a change at a table (:class:`Newsroom`): delivered to this process's sockets, published to the others.

``publish`` is THE publishing call of the server: after the transaction that made a change committed,
this process's sockets get what their seat may see, and the fan-out (``fanout.py``) carries the news to
the other processes, which read stored changes from the database by version.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..fanout import MESSAGE_KINDS, Fanout, News
from ..hub import Hub
from ..messages import TableMessage
from .live import LiveTable
from .views import Views


class Newsroom:
    """Publishes table news; ``move_news`` is what a move's news carries to other processes."""

    def __init__(
        self, hub: Hub, fanout: Fanout, views: Views, move_news: Callable[[LiveTable], dict[str, Any]]
    ) -> None:
        self.hub = hub
        self.fanout = fanout
        self.views = views
        self.move_news = move_news

    def publish(
        self,
        live: LiveTable,
        kind: str,
        message: Mapping[str, Any] | None = None,
        seats: Iterable[int] | None = None,
    ) -> None:
        """Tell the sockets of every server process what just changed at ``live``: THE publishing call.

        Call it after the transaction that made the change committed (and after ``live`` holds it):

        - ``"move"``: a move was appended (each socket gets an ``update`` with its seat's events);
        - ``"undo"``: moves were taken back (a ``snapshot`` with ``reason: "undo"``);
        - ``"seats"``: who plays a seat changed so that legal moves may differ (a ``snapshot``);
        - ``"table"``: the summary changed (a ``table`` message);
        - ``"chat"``, ``"clock"`` (or any kind with a ``message``): ``message`` goes to every socket of
          the table as it is, or only to those playing ``seats``; it must be JSON-safe and hold nothing
          a spectator may not see unless ``seats`` limits it.

        This process delivers at once; the others get it through Redis (when configured) and read
        stored changes from the database by version, so nothing is trusted across processes. Stored
        changes must bump the table's version (every ``Storage`` write does). Never blocks, never fails.
        """
        chosen = tuple(seats) if seats is not None else None
        self.deliver(live, kind, message, chosen)
        move = self.move_news(live) if kind == "move" and self.fanout.shared else None
        carried = dict(message) if message is not None else None
        self.fanout.publish(News(live.id, kind, live.row.version, carried, chosen, self.fanout.origin, move))

    def deliver(
        self, live: LiveTable, kind: str, message: Mapping[str, Any] | None = None, seats: tuple[int, ...] | None = None
    ) -> None:
        """Deliver news to this process's sockets at ``live`` (see :meth:`publish`)."""
        if not self.hub.tables.get(live.id):
            return
        if message is not None or kind in MESSAGE_KINDS:
            if message is not None:
                self.hub.broadcast_to(live.id, message, seats)
        elif kind == "move":
            since = len(live.events) - 1
            self.hub.broadcast(live.id, lambda s: self.views.message(live, s, "update", since=since))
        elif kind in ("undo", "seats"):
            self.hub.broadcast(live.id, lambda s: self.views.message(live, s, "snapshot", reason=kind))
        else:
            summary = self.views.summary(live)
            message = TableMessage(type="table", table=summary)
            self.hub.broadcast(live.id, lambda s: message)
