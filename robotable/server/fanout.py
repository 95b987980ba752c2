"""Fan-out of table news across server processes with Redis pub/sub (redis-py asyncio).

The database is the truth; Redis only carries news: "table T is at version V after a move" (or after an
undo, a seat change, a summary change), a chat line, a clock tick, who is connected. Every process
delivers news to its own sockets, filtered per seat by the table manager. News is published after the
transaction that made it commits, and a process that missed some (Redis restarted, a slow subscriber)
catches up from the database by move number: on reconnecting it re-reads every table it has sockets
for, and a sweep compares stored versions every few seconds anyway.

The one publishing call for the rest of the server is :meth:`TableManager.publish
<robotable.server.table.manager.TableManager.publish>`; this module is its transport, behind one
interface (:class:`Fanout`). Without Redis (``LocalFanout``, the SQLite default) news only reaches the
process that made it, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .jsontext import decode, encode
from .timings import Timings

log = logging.getLogger("robotable.server")

#: News that makes every process re-read the table from the database (by version, by move number).
SYNC_KINDS = frozenset({"move", "undo", "seats", "table"})
#: News whose ``message`` goes to the sockets as it is (filtered by ``seats``): chat lines, clock ticks.
MESSAGE_KINDS = frozenset({"chat", "clock"})
#: Which seats are connected to a process (``message`` is ``{"seats": [...]}``), for "connected" flags.
PRESENCE = "presence"
#: Largest news item published (a chat line or a clock tick is far smaller).
MAX_NEWS = 64_000
#: Most news items sent to Redis in one round trip (a pipeline of PUBLISH commands, in order).
BATCH = 200
#: Seconds between reconnection attempts while Redis is down.
RETRY = 0.5


@dataclass(frozen=True)
class News:
    """Something that happened at a table, after its transaction committed.

    ``version`` is the table's stored version after the change (0 for news that changes nothing
    stored); ``message`` is what sockets receive for message kinds, ``seats`` limits it to those seats
    (None: everyone, spectators included); ``origin`` is the process that published it. ``move``, on
    ``"move"`` news, is the committed move with the table's new columns and clocks
    (:meth:`Sync.move_news <robotable.server.table.sync.Sync.move_news>`): a process whose copy is
    exactly one version behind applies it without reading the database; any other reads it.
    """

    table: str
    kind: str
    version: int = 0
    message: dict[str, Any] | None = None
    seats: tuple[int, ...] | None = None
    origin: str = ""
    move: dict[str, Any] | None = None
    #: when it was published (``time.time()``, seconds): receivers time how late news comes
    sent: float = field(default_factory=time.time)

    def to_json(self) -> str:
        """The news as published; it starts with :meth:`prefix` of its origin."""
        return encode(
            {
                "origin": self.origin,
                "table": self.table,
                "kind": self.kind,
                "version": self.version,
                "message": self.message,
                "seats": list(self.seats) if self.seats is not None else None,
                "move": self.move,
                "sent": self.sent,
            }
        )

    @staticmethod
    def prefix(origin: str) -> bytes:
        """How the published news of ``origin`` begins: a process skips its own without parsing it.

        >>> News("t", "move", origin="7-a1").to_json().encode().startswith(News.prefix("7-a1"))
        True
        """
        return encode({"origin": origin})[:-1].encode() + b","

    @classmethod
    def from_json(cls, text: str | bytes) -> News:
        """Parse published news; ValueError if it is not news."""
        data = decode(text)
        if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in ("table", "kind")):
            raise ValueError("not table news")
        seats = data.get("seats")
        message = data.get("message")
        move = data.get("move")
        return cls(
            table=data["table"],
            kind=data["kind"],
            version=int(data.get("version") or 0),
            message=message if isinstance(message, dict) else None,
            seats=tuple(int(s) for s in seats) if isinstance(seats, list) else None,
            origin=str(data.get("origin") or ""),
            move=move if isinstance(move, dict) else None,
            sent=float(sent) if isinstance(sent := data.get("sent"), (int, float)) else 0.0,
        )


#: What a process does with news from another process.
Receiver = Callable[[News], Awaitable[None]]
#: What a process does after it may have missed news (re-read the tables it has sockets for).
Resync = Callable[[], Awaitable[None]]


class Fanout(Protocol):
    """What the table code needs of a fan-out, in-process or through Redis."""

    #: this process's name in the news it publishes
    origin: str
    #: whether news reaches the other processes now (figures for operators)
    connected: bool
    #: whether other processes receive the news at all (moves then carry what they need to apply them)
    shared: bool

    async def start(self, receive: Receiver, resync: Resync) -> None:
        """Start listening: ``receive`` gets other processes' news, ``resync`` runs after news may be lost."""

    def publish(self, news: News) -> None:
        """Send news to the other processes; never blocks, never fails."""

    async def stop(self) -> None:
        """Stop listening and publishing."""

    def time_with(self, timings: Timings) -> None:
        """Where to time publishing (``news_publish``), if it is timed at all."""


@dataclass
class LocalFanout:
    """No Redis: news stays in this process (one process, SQLite by default)."""

    origin: str = field(default_factory=lambda: f"{os.getpid()}-{secrets.token_hex(3)}")
    connected: bool = True
    shared: bool = False

    async def start(self, receive: Receiver, resync: Resync) -> None:
        """Nothing to connect to."""

    def publish(self, news: News) -> None:
        """Nothing else listens."""

    async def stop(self) -> None:
        """Nothing to close."""

    def time_with(self, timings: Timings) -> None:
        """Nothing is published, so nothing is timed."""


class RedisFanout:
    """News through one Redis pub/sub channel, ``<prefix>news``, shared by every process.

    Publishing never blocks and never fails the caller: news waits in an ordered queue for the
    publisher task, and news that cannot be sent while Redis is down is dropped (the receivers' sweep
    and their resync on reconnection read what they lack from the database).
    """

    def __init__(self, url: str, prefix: str = "robotable:") -> None:
        self.url = url
        self.channel = f"{prefix}news"
        self.origin = f"{os.getpid()}-{secrets.token_hex(3)}"
        self.connected = False
        self._queue: asyncio.Queue[News] = asyncio.Queue(maxsize=100_000)
        self._tasks: list[asyncio.Task[None]] = []
        self.dropped = 0
        #: where ``news_publish`` is timed (from publishing to Redis's answer), set by the table manager
        self.timings: Timings | None = None
        self.shared = True

    def time_with(self, timings: Timings) -> None:
        """Time each publication (``news_publish``, from publishing to Redis's answer) in ``timings``."""
        self.timings = timings

    async def start(self, receive: Receiver, resync: Resync) -> None:
        """Start the subscriber and the publisher (they keep reconnecting while Redis is down)."""
        self._tasks = [
            asyncio.create_task(self._subscribe(receive, resync), name="fanout-subscriber"),
            asyncio.create_task(self._publish_loop(), name="fanout-publisher"),
        ]

    def publish(self, news: News) -> None:
        """Queue news for every other process."""
        try:
            self._queue.put_nowait(news)
        except asyncio.QueueFull:
            self.dropped += 1

    async def stop(self) -> None:
        """Stop both tasks."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task

    def _client(self) -> Any:
        import redis.asyncio as aioredis

        return aioredis.Redis.from_url(
            self.url, socket_connect_timeout=2, socket_keepalive=True, health_check_interval=5
        )

    def _batch(self, first: News) -> tuple[list[str], list[float]]:
        """``first`` and the news queued behind it (up to :data:`BATCH`), as text, in order, and when
        each was published."""
        items = [first]
        while len(items) < BATCH and not self._queue.empty():
            items.append(self._queue.get_nowait())
        texts, sent = [], []
        for news in items:
            text = news.to_json()
            if len(text) > MAX_NEWS:
                log.warning("news of table %s too large to publish (%d bytes)", news.table, len(text))
            else:
                texts.append(text)
                sent.append(news.sent)
        return texts, sent

    async def _publish_loop(self) -> None:
        client = None
        while True:
            texts, sent = self._batch(await self._queue.get())
            if not texts:
                continue
            try:
                if client is None:
                    client = self._client()
                async with client.pipeline(transaction=False) as pipe:  # one round trip for the batch
                    for text in texts:
                        pipe.publish(self.channel, text)
                    await pipe.execute()
                if self.timings is not None:
                    done = time.time()
                    for at in sent:
                        self.timings.add("news_publish", max(0.0, done - at))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis down: drop it, receivers catch up from the database
                self.dropped += len(texts)
                log.warning("fan-out: cannot publish (%s); other processes will catch up", exc)
                if client is not None:
                    with contextlib.suppress(Exception):
                        await client.aclose()
                client = None
                await asyncio.sleep(RETRY)

    async def _subscribe(self, receive: Receiver, resync: Resync) -> None:
        while True:
            client = self._client()
            try:
                async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(self.channel)
                    self.connected = True
                    log.info("fan-out: subscribed to %s", self.channel)
                    own = News.prefix(self.origin)
                    await resync()  # whatever happened while we were not listening
                    while True:
                        message = await pubsub.get_message(timeout=5.0)
                        if message is None:
                            await pubsub.ping()
                            continue
                        if message.get("type") != "message":  # the answer to a ping
                            continue
                        if isinstance(message["data"], bytes) and message["data"].startswith(own):
                            continue  # this process's own news
                        try:
                            news = News.from_json(message["data"])
                        except (ValueError, TypeError) as exc:
                            log.warning("fan-out: ignoring a message that is not news (%s)", exc)
                            continue
                        if news.origin != self.origin:  # (own news as text: skipped above)
                            try:
                                await receive(news)
                            except Exception:
                                log.exception("fan-out: news of table %s could not be delivered", news.table)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.connected:
                    log.warning("fan-out: lost Redis (%s); reconnecting", exc)
                self.connected = False
                await asyncio.sleep(RETRY)
            finally:
                self.connected = False
                with contextlib.suppress(Exception):
                    await client.aclose()


def make_fanout(redis_url: str | None, prefix: str | None = None) -> Fanout:
    """Redis fan-out if a URL is given (or ``ROBOTABLE_REDIS``), else news stays in this process."""
    url = redis_url or os.environ.get("ROBOTABLE_REDIS") or None
    if not url:
        return LocalFanout()
    return RedisFanout(url, prefix or os.environ.get("ROBOTABLE_REDIS_PREFIX") or "robotable:")
