"""Notices for an account, wherever its pages are open: the friends socket (``/ws/friends``).

A notice (a friend request, a request accepted, a seat offered by a friend) is stored first (its rows
are in ``friends.py``); then :meth:`Notices.send` pushes it to the account's open friends sockets in this
process, through a :class:`~robotable.server.hub.Hub` of its own keyed ``@<account id>`` (each socket an
ordered outbox, as at tables), and publishes it as ``"notice"`` news so the other processes push it to
theirs (``TableManager._receive`` passes it to :meth:`Notices.receive`). A notice lost on the way (Redis
down) is not lost for good: pages read the stored requests and offers when they load.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from .fanout import Fanout, News
from .hub import Hub

#: The news kind of a notice for one account.
NOTICE = "notice"


class FriendCard(TypedDict):
    """Who a notice is from: what a friend (or the person asked) sees of an account."""

    id: str
    display_name: str
    username: str | None


class OfferedTable(TypedDict):
    """The table of a seat offer."""

    id: str
    game: str


# the functional form: a notice's field "from" is a Python keyword
#: A friend request came in (``friend_request``), or yours was accepted (``friend_accepted``).
FriendNotice = TypedDict("FriendNotice", {"type": Literal["friend_request", "friend_accepted"], "from": FriendCard})
#: A friend offers you a seat (``seat_offer``): ``seat`` numbered from 0.
SeatOfferNotice = TypedDict(
    "SeatOfferNotice", {"type": Literal["seat_offer"], "from": FriendCard, "table": OfferedTable, "seat": int}
)
#: What the friends socket sends (docs/websocket.md, "The friends socket"), besides an ``error``.
Notice = FriendNotice | SeatOfferNotice


def key(account_id: str) -> str:
    """The hub key of an account's friends sockets (never a table id: those have no ``@``)."""
    return f"@{account_id}"


class Notices:
    """The friends sockets of this process, and the sending of notices to every process's."""

    def __init__(self, fanout: Fanout) -> None:
        self.hub = Hub()
        self.fanout = fanout

    def send(self, account_id: str, message: Notice) -> None:
        """Push ``message`` (JSON-safe, for that account's eyes) to the account's sockets in every process."""
        self.hub.broadcast_to(key(account_id), message)
        self.fanout.publish(News(key(account_id), NOTICE, message=dict(message), origin=self.fanout.origin))

    def receive(self, news: News) -> None:
        """A notice another process sent: push it to the account's sockets here."""
        if news.kind == NOTICE and news.table.startswith("@") and news.message is not None:
            self.hub.broadcast_to(news.table, news.message)
