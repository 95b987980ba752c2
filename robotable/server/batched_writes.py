"""PostgreSQL writes from the event loop, sent in batches (the moves' appends, see storage/store.py).

A write is one statement that answers one value (a compare-and-set: 1 if it wrote, 0 if its table moved
on). :meth:`BatchedWrites.run` puts it on a queue and waits. ``ROBOTABLE_MOVE_CONNECTIONS`` writer tasks,
one per connection of a psycopg asyncio pool, each take every write waiting (up to ``ROBOTABLE_MOVE_BATCH``) and
send them at once in pipeline mode: one round trip and one commit for the batch, which is one implicit
transaction (no Sync between its statements), so it is written whole or not at all.

Why: a write used to hold a connection for its round trip *and* until the event loop came back to it.
Under load moves arrive in bursts (after games end, when new tables and sockets open), and a burst
queued behind the pool for hundreds of milliseconds (``move_connection`` in GET /api/server), while
the database sat idle. A writer hands its connection straight on to the next batch.

Failures:

- a statement fails (an error of the database): the batch was rolled back, so each of its writes is run
  again alone, and only the one that fails again fails;
- the connection is lost (a restarted database, a terminated session): the pool drops its broken
  connections and the batch runs once more on a fresh one; a batch that did commit before the
  connection went then fails its compare-and-sets, so nothing is written twice;
- a write whose caller stopped waiting (cancelled) before its batch was sent is not sent.

The statements of a batch are sorted by their ``at_id`` parameter (the table), so batches of two
processes that write the same tables lock their rows in the same order and cannot deadlock.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from .timings import Timings


@dataclass
class _Write:
    sql: str
    params: dict[str, Any]
    answer: asyncio.Future[Any]
    timing: str | None  # where its wait until it is sent is timed (None: nowhere)
    asked: float = field(default_factory=time.perf_counter)


class BatchedWrites:
    """Statements of the event loop written in batches on a pool of asyncio connections (psycopg_pool),
    opened (in full) on first use in the running loop."""

    #: Seconds a batch waits for a connection (the database unreachable) before its writes fail.
    TIMEOUT = 10.0

    def __init__(self, conninfo: str, application_name: str, timings: Timings, size: int, batch: int) -> None:
        self.conninfo = conninfo
        self.size = max(1, size)  # connections of the pool, and writers
        self.batch = max(1, batch)  # writes sent at most in one batch (1: each alone)
        self.application_name = application_name
        self.timings = timings  # ``move_connection``: each write's wait until its batch has a connection
        self._pool: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[_Write] | None = None
        self._writers: list[asyncio.Task[None]] = []
        self._opening: asyncio.Future[None] | None = None
        self.batches = 0
        self.writes = 0

    async def run(self, sql: str, params: dict[str, Any], timing: str | None = "move_connection") -> Any:
        """Run ``sql`` with ``params`` (in a batch); the first column of its first row. Its wait until it
        is sent is timed as ``timing`` (None: not timed; a read that rides with the writes)."""
        queue = await self._opened()
        write = _Write(sql, params, asyncio.get_running_loop().create_future(), timing)
        queue.put_nowait(write)
        return await write.answer

    async def _opened(self) -> asyncio.Queue[_Write]:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._forget()
            self._loop, self._opening = loop, loop.create_future()
            self._opening.add_done_callback(lambda f: f.exception() if not f.cancelled() else None)
            try:
                await self._open()
            except BaseException as exc:
                self._opening.set_exception(exc)
                self._loop = self._opening = None
                raise
            self._opening.set_result(None)
        elif self._opening is not None and not self._opening.done():
            await asyncio.shield(self._opening)
        assert self._queue is not None
        return self._queue

    async def _open(self) -> None:
        from psycopg_pool import AsyncConnectionPool

        pool = AsyncConnectionPool(
            self.conninfo,
            min_size=self.size,
            max_size=self.size,
            timeout=self.TIMEOUT,
            kwargs={"autocommit": True, "application_name": self.application_name},
            open=False,
        )
        await pool.open()
        self._pool, self._queue = pool, asyncio.Queue()
        self._writers = [asyncio.create_task(self._writer(), name=f"move writer {i}") for i in range(self.size)]

    def _forget(self) -> None:
        """Drop what belongs to another (closed) event loop."""
        self._pool = self._queue = self._loop = self._opening = None
        self._writers = []

    async def _writer(self) -> None:
        assert self._queue is not None
        queue = self._queue
        while True:
            batch = [await queue.get()]
            while len(batch) < self.batch and not queue.empty():
                batch.append(queue.get_nowait())
            batch = sorted((w for w in batch if not w.answer.done()), key=lambda w: str(w.params.get("at_id", "")))
            if not batch:
                continue
            try:
                answers = await self._send(batch)
            except asyncio.CancelledError:
                _fail(batch, ConnectionError("the server is closing"))
                raise
            except Exception as exc:  # the callers get it; the writer writes on
                _fail(batch, exc)
                continue
            for write, answer in zip(batch, answers, strict=True):
                if write.answer.done():
                    continue
                if isinstance(answer, BaseException):
                    write.answer.set_exception(answer)
                else:
                    write.answer.set_result(answer)

    async def _send(self, batch: list[_Write]) -> list[Any]:
        """Each write's answer (or the exception it alone raised)."""
        import psycopg

        for attempt in (1, 2):
            try:
                async with self._pool.connection() as conn:
                    sent = time.perf_counter()
                    for write in batch:
                        if write.timing is not None:
                            self.timings.add(write.timing, sent - write.asked)
                    self.batches += 1
                    self.writes += len(batch)
                    if len(batch) == 1:
                        return [await _answer(await conn.execute(batch[0].sql, batch[0].params))]
                    try:
                        async with conn.pipeline() as pipeline:
                            cursors = [await conn.execute(w.sql, w.params) for w in batch]
                            await pipeline.sync()
                        return [await _answer(c) for c in cursors]
                    except psycopg.OperationalError:
                        raise
                    except psycopg.Error:
                        # the statements after the failing one were skipped, prepared ones included, and
                        # psycopg's cache of prepared statements no longer says what the session holds
                        await conn.close()  # the pool replaces it
                async with self._pool.connection() as conn:  # rolled back whole: each alone, to find the fault
                    return [await _alone(conn, w) for w in batch]
            except psycopg.OperationalError:
                if attempt == 2:
                    raise
                await self._pool.check()  # drop the broken connections (all of them went, most likely)
        raise AssertionError("unreachable")

    def figures(self) -> dict[str, int]:
        """The pool's (connections open, idle, writes waiting, opened, lost) and the batches sent."""
        stats = self._pool.get_stats() if self._pool is not None else {}
        out = {k: stats.get(f"pool_{k}", 0) for k in ("size", "available")}
        out["waiting"] = self._queue.qsize() if self._queue is not None else 0
        out |= {k: stats.get(k, 0) for k in ("connections_num", "connections_lost", "returns_bad")}
        out |= {"requests_num": self.writes, "batches_num": self.batches}
        return out

    async def aclose(self) -> None:
        """Stop the writers (waiting writes fail) and close the pool, if they belong to this loop."""
        if self._loop is asyncio.get_running_loop():
            for task in self._writers:
                task.cancel()
            await asyncio.gather(*self._writers, return_exceptions=True)
            if self._queue is not None:
                waiting = []
                while not self._queue.empty():
                    waiting.append(self._queue.get_nowait())
                _fail(waiting, ConnectionError("the server is closing"))
            if self._pool is not None:
                await self._pool.close()
        self._forget()


async def _answer(cursor: Any) -> Any:
    row = await cursor.fetchone()
    return None if row is None else row[0]


async def _alone(conn: Any, write: _Write) -> Any:
    import psycopg

    try:
        return await _answer(await conn.execute(write.sql, write.params))
    except psycopg.OperationalError:
        raise
    except psycopg.Error as exc:
        return exc


def _fail(writes: list[_Write], exc: BaseException) -> None:
    for write in writes:
        if not write.answer.done():
            write.answer.set_exception(exc)
