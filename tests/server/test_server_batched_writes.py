"""PostgreSQL: the event loop's writes sent in batches (batched_writes.py), against the real database.

Each test runs its own event loop and its own schema."""

from __future__ import annotations

import asyncio
import threading

import psycopg
import pytest
import sqlalchemy as sa
from test_server_storage import run_then_close, table_row

from robotable.server.batched_writes import BatchedWrites
from robotable.server.storage import APPENDS_NAME, MoveRow, StaleTable, Storage, _conninfo, appends_name
from robotable.server.timings import Timings


def _writes(pg_url: str, size: int = 2, batch: int = 16) -> BatchedWrites:
    return BatchedWrites(_conninfo(pg_url), APPENDS_NAME, Timings(), size, batch)


@pytest.fixture
def scratch(pg_url: str, pg_schema: str) -> str:
    """A table ``<schema>.scratch (n int primary key)`` to write into."""
    engine = sa.create_engine(pg_url)
    with engine.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{pg_schema}"'))
        conn.execute(sa.text(f'CREATE TABLE "{pg_schema}".scratch (n int PRIMARY KEY)'))
    engine.dispose()
    return f'"{pg_schema}".scratch'


def _stored(pg_url: str, scratch: str) -> list[int]:
    engine = sa.create_engine(pg_url)
    with engine.connect() as conn:
        rows = [r[0] for r in conn.execute(sa.text(f"SELECT n FROM {scratch} ORDER BY n"))]
    engine.dispose()
    return rows


def test_waiting_writes_go_in_batches_and_each_gets_its_own_answer(pg_url: str, scratch: str) -> None:
    writes = _writes(pg_url, size=2)
    answers: list[int] = []

    async def play() -> None:
        insert = f"INSERT INTO {scratch} VALUES (%(n)s) RETURNING n * 10"
        answers.extend(await asyncio.gather(*(writes.run(insert, {"n": n}) for n in range(200))))

    run_then_close(writes, play)
    assert answers == [n * 10 for n in range(200)]
    assert _stored(pg_url, scratch) == list(range(200))
    # 200 writes at once on 2 writers: most went with others
    assert writes.writes == 200 and writes.batches <= 40, (writes.batches, writes.writes)


def test_a_failing_write_fails_alone_and_its_batch_is_written(pg_url: str, scratch: str) -> None:
    """A statement of a batch fails: the batch was rolled back whole, then each write runs alone, so
    only the failing one fails (with its own error) and the others are written once."""
    writes = _writes(pg_url, size=1)
    outcomes: list[object] = []

    async def play() -> None:
        insert = f"INSERT INTO {scratch} VALUES (%(n)s) RETURNING 1"
        broken = f"INSERT INTO {scratch} VALUES (1 / %(n)s) RETURNING 1"  # division by zero
        calls = [writes.run(insert, {"n": n}) for n in range(1, 8)]
        calls.insert(3, writes.run(broken, {"n": 0}))
        outcomes.extend(await asyncio.gather(*calls, return_exceptions=True))

    run_then_close(writes, play)
    assert [type(o) for o in outcomes] == [int] * 3 + [psycopg.errors.DivisionByZero] + [int] * 4
    assert _stored(pg_url, scratch) == list(range(1, 8))
    assert writes.batches < writes.writes  # the batch went together first


def test_a_write_whose_caller_stopped_waiting_is_not_sent(pg_url: str, scratch: str) -> None:
    writes = _writes(pg_url, size=1)

    async def play() -> None:
        # the only writer, busy far longer than a loaded machine may take for the next few steps
        busy = asyncio.create_task(writes.run("SELECT 1 FROM pg_sleep(3)", {}))
        await asyncio.sleep(0.1)
        gone = asyncio.create_task(writes.run(f"INSERT INTO {scratch} VALUES (1) RETURNING 1", {}))
        await asyncio.sleep(0.05)
        gone.cancel()
        kept = await writes.run(f"INSERT INTO {scratch} VALUES (2) RETURNING 2", {})
        assert (await busy, kept) == (1, 2)
        assert gone.cancelled()

    run_then_close(writes, play)
    assert _stored(pg_url, scratch) == [2]


def test_closing_fails_the_waiting_writes_and_stops_the_writers(pg_url: str, scratch: str) -> None:
    writes = _writes(pg_url, size=1)
    seen: list[object] = []

    async def play() -> None:
        busy = asyncio.create_task(writes.run("SELECT 1 FROM pg_sleep(5)", {}))
        await asyncio.sleep(0.2)
        waiting = asyncio.create_task(writes.run(f"INSERT INTO {scratch} VALUES (1) RETURNING 1", {}))
        await asyncio.sleep(0.05)
        writers = list(writes._writers)
        await writes.aclose()
        seen.extend(await asyncio.gather(busy, waiting, return_exceptions=True))
        assert all(t.done() for t in writers)

    asyncio.run(play())
    assert [type(s) for s in seen] == [ConnectionError, ConnectionError]
    assert _stored(pg_url, scratch) == []


def test_moves_written_while_their_sessions_are_terminated_are_never_lost_nor_doubled(
    pg_url: str, pg_schema: str
) -> None:
    """Many tables append moves at once, in batches, while another connection terminates the writers'
    database sessions again and again. Each append either is acknowledged or raises (StaleTable: it did
    commit before its connection went, or the connection failed twice); every acknowledged move is
    stored, no move is stored twice, and the tables take moves again afterwards."""
    storage = Storage(pg_url, schema=pg_schema)
    tables = [f"t{i}" for i in range(30)]
    for t in tables:
        storage.create_table(table_row(t))
    acked: dict[str, list[int]] = {t: [] for t in tables}
    stop = threading.Event()
    killed: list[int] = []

    def terminate() -> None:
        engine = sa.create_engine(pg_url)
        while True:  # once at once, then every 30 ms until the tables are done
            with engine.connect() as conn:
                rows = conn.execute(
                    sa.text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND application_name = :name"
                    ),
                    {"name": appends_name(pg_schema)},
                ).all()
                conn.commit()
            killed.extend(1 for r in rows if r[0])
            if stop.wait(0.03):
                break
        engine.dispose()

    async def play_table(t: str) -> None:
        idx = 0
        for _ in range(12):
            move = MoveRow(idx, idx % 2, {"type": "play", "value": idx}, "human")
            try:
                await storage.append_move_async(t, move, "running", None, idx)
            except (StaleTable, psycopg.OperationalError):
                idx = storage.load_table(t).num_moves  # what the database holds decides
                continue
            acked[t].append(idx)
            idx += 1

    async def play() -> None:
        killer = threading.Thread(target=terminate)
        killer.start()
        try:
            await asyncio.gather(*(play_table(t) for t in tables))
        finally:
            stop.set()
            killer.join()
        after = [storage.load_table(t).num_moves for t in tables]
        await asyncio.gather(
            *(
                storage.append_move_async(
                    t, MoveRow(n, n % 2, {"type": "play", "value": n}, "human"), "running", None, n
                )
                for t, n in zip(tables, after, strict=True)
            )
        )

    run_then_close(storage, play)
    assert killed, "no writer session was terminated"
    for t in tables:
        stored = [m.idx for m in storage.load_table(t).moves]
        assert stored == list(range(len(stored))), (t, stored)  # none twice, none skipped
        assert set(acked[t]) <= set(stored), (t, acked[t], stored)
        assert len(stored) >= len(acked[t]) + 1  # and the move after the terminations
    storage.close()
