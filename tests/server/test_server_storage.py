"""Storage on SQLite and on a real PostgreSQL (127.0.0.1:5432, database test, a schema per test)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from people import bearer, guest_token, wait_for

from robotable.server import create_app
from robotable.server.batched_writes import BatchedWrites
from robotable.server.clocks import CLOCK_TABLES, TimeControl, seat_clocks_table, seat_notes_table
from robotable.server.clocks import Clocks as ClockStore
from robotable.server.storage import (
    MoveRow,
    RowUpdate,
    SeatRow,
    StaleTable,
    Storage,
    TableRow,
    appends_name,
    database_url,
    now,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request, tmp_path: Path, pg_schema: str, pg_url: str):
    if request.param == "sqlite":
        store = Storage(f"sqlite:///{tmp_path / 'store.db'}")
    else:
        store = Storage(pg_url, schema=pg_schema)
    yield store
    store.close()


def table_row(table_id: str = "t1") -> TableRow:
    stamp = now()
    return TableRow(
        id=table_id,
        game="tf22-reload",
        num_players=2,
        seed=2**62 + 5,  # seeds are 63-bit
        options={},
        status="open",
        num_moves=0,
        result=None,
        next_table=None,
        parent=None,
        created_at=stamp,
        updated_at=stamp,
        seats=[SeatRow(0, "human", "Ann", account_id=None), SeatRow(1, "open", "Open seat 2")],
    )


def test_tables_moves_and_seats_round_trip(storage: Storage) -> None:
    storage.create_table(table_row())
    loaded = storage.load_table("t1")
    assert loaded is not None and loaded.seed == 2**62 + 5 and loaded.created_at.tzinfo is not None
    assert [s.kind for s in loaded.seats] == ["human", "open"] and loaded.seats[0].account_id is None
    storage.append_move("t1", MoveRow(0, 0, {"type": "play", "value": 7}, "human"), "open", None)
    storage.append_move("t1", MoveRow(1, 1, {"type": "play", "value": 2}, "bot"), "running", None)
    with pytest.raises(StaleTable):  # a move at an index already taken is refused
        storage.append_move("t1", MoveRow(1, 1, {"type": "play", "value": 3}, "bot"), "running", None)
    loaded = storage.load_table("t1")
    assert loaded.num_moves == 2 and loaded.status == "running"
    assert [(m.idx, m.seat, m.action, m.actor) for m in loaded.moves] == [
        (0, 0, {"type": "play", "value": 7}, "human"),
        (1, 1, {"type": "play", "value": 2}, "bot"),
    ]
    with pytest.raises(StaleTable):
        storage.truncate_moves("t1", keep=1, expected=5, status="running")
    storage.truncate_moves("t1", keep=1, expected=2, status="running")
    assert [m.idx for m in storage.load_table("t1").moves] == [0]
    assert storage.claim_seat("t1", SeatRow(1, "human", "Bob"))
    assert not storage.claim_seat("t1", SeatRow(1, "human", "Eve"))
    assert storage.load_table("t1").seats[1].name == "Bob"
    storage.update_seat("t1", SeatRow(1, "human", "Bob", "random", True))
    assert storage.load_table("t1").seats[1].handed_to_bot is True
    storage.create_table(table_row("t2"))
    assert storage.link_next("t1", "t2") and not storage.link_next("t1", "t3")
    assert storage.load_table("t1").next_table == "t2"
    assert set(storage.table_ids(("running", "open"))) == {"t1", "t2"}
    assert storage.load_table("missing") is None


def run_then_close(storage: Storage | BatchedWrites, play: Callable[[], Awaitable[None]]) -> None:
    """Run ``play`` in an event loop of its own, then close the asyncio connections (``aclose``) there."""

    async def play_then_close() -> None:
        try:
            await play()
        finally:
            await storage.aclose()

    asyncio.run(play_then_close())


def _seat_clocks(storage: Storage, table_id: str) -> list[tuple[int, int, bool]]:
    with storage.read() as conn:
        rows = conn.execute(
            sa.select(seat_clocks_table.c.seat, seat_clocks_table.c.remaining_ms, seat_clocks_table.c.timed_out)
            .where(seat_clocks_table.c.table_id == table_id)
            .order_by(seat_clocks_table.c.seat)
        )
        return [tuple(r) for r in rows]


def test_moves_appended_from_the_event_loop_write_their_clocks_with_them_or_nothing(storage: Storage) -> None:
    """The event loop's append (one statement on PostgreSQL, a worker thread on SQLite): the move, the
    table's columns and the rows that go with it all commit, or, if the table moved on, none does."""
    storage.create_table(table_row())
    ClockStore(storage).create("t1", TimeControl("live", base=60, increment=5), table_row().seats)
    clocks = [
        RowUpdate(seat_clocks_table, {"table_id": "t1", "seat": 0}, {"remaining_ms": 1234, "timed_out": True}),
        RowUpdate(seat_clocks_table, {"table_id": "t1", "seat": 1}, {"remaining_ms": 99}),
    ]
    stale_clock = RowUpdate(seat_clocks_table, {"table_id": "t1", "seat": 1}, {"remaining_ms": 5})

    async def play() -> None:
        move = MoveRow(0, 0, {"type": "play", "value": 7}, "human")
        await storage.append_move_async("t1", move, "running", None, 0, [1], None, clocks)
        again = MoveRow(0, 1, {"type": "play", "value": 3}, "human")
        with pytest.raises(StaleTable):  # the table is at version 1 now: nothing of this is written
            await storage.append_move_async("t1", again, "running", None, 0, [0], None, [stale_clock])
        last = MoveRow(1, 1, {"type": "play", "value": 2}, "human")
        await storage.append_move_async("t1", last, "finished", {"winner": [1]}, 1, [], None, ())

    run_then_close(storage, play)
    loaded = storage.load_table("t1")
    assert [(m.idx, m.seat, m.action) for m in loaded.moves] == [
        (0, 0, {"type": "play", "value": 7}),
        (1, 1, {"type": "play", "value": 2}),
    ]
    assert (loaded.num_moves, loaded.status, loaded.result, loaded.version, loaded.to_act) == (
        2,
        "finished",
        {"winner": [1]},
        2,
        [],
    )
    assert _seat_clocks(storage, "t1") == [(0, 1234, True), (1, 99, False)]


def test_changes_read_from_the_event_loop_are_those_a_worker_thread_reads(storage: Storage) -> None:
    """A lost race's catch-up reads the table, its seats, the moves a copy lacks and its clocks in one
    statement on the event loop (PostgreSQL; a worker thread on SQLite): the same as load_changes and the
    clocks' own read, for every copy (up to date, behind, ahead, before an undo) and a missing table."""
    storage.create_table(table_row())
    clocks = ClockStore(storage)
    clocks.create("t1", TimeControl("live", base=60, increment=5), table_row().seats)
    for i in range(3):
        storage.append_move("t1", MoveRow(i, i % 2, {"type": "play", "value": i}, "human"), "running", None)
    storage.write_rows([RowUpdate(seat_clocks_table, {"table_id": "t1", "seat": 1}, {"deadline": now()})])
    with storage.transaction() as conn:
        note = {"table_id": "t1", "seat": 1, "kind": "timeout", "move": 2, "detail": "Bob ran out", "at": now()}
        conn.execute(sa.insert(seat_notes_table).values(**note))
    storage.update_seat("t1", SeatRow(1, "human", "Bob", "random", True))
    answers: dict[tuple[int, int], object] = {}

    async def play() -> None:
        for history in (0, 1):
            for have in range(5):
                answers[history, have] = await storage.load_changes_async("t1", history, have, CLOCK_TABLES)
        answers["missing"] = await storage.load_changes_async("missing", 0, 0, CLOCK_TABLES)  # type: ignore[index]

    run_then_close(storage, play)
    stored_clock = clocks.load("t1")
    assert stored_clock is not None and stored_clock.notes and stored_clock.seats[1].running
    for (history, have), answer in ((k, v) for k, v in answers.items() if k != "missing"):
        row, first = storage.load_changes("t1", history, have)
        assert answer is not None
        read_row, read_first, clock_rows = answer
        assert (read_row, read_first) == (row, first), (history, have)
        assert first == (have if history == 0 and have <= 3 else 0)
        assert [m.idx for m in read_row.moves] == list(range(first, 3))
        assert ClockStore.from_rows(clock_rows) == stored_clock
    assert answers["missing"] is None  # type: ignore[index]


def test_a_lost_append_answers_what_the_table_is_at_in_the_same_round_trip(storage: Storage) -> None:
    """PostgreSQL: a move appended with the copy's history that loses its compare-and-set carries the
    table as the statement saw it (row, seats, the moves the copy lacks, its clocks), the same as a read
    afterwards; a won append writes as before. SQLite (a worker thread) carries nothing."""
    storage.create_table(table_row())
    clocks = ClockStore(storage)
    clocks.create("t1", TimeControl("live", base=60, increment=5), table_row().seats)
    lost: list[StaleTable] = []

    async def play() -> None:
        first = MoveRow(0, 0, {"type": "play", "value": 7}, "human")
        await storage.append_move_async("t1", first, "running", None, 0, [1], None, (), 0, CLOCK_TABLES)
        second = MoveRow(1, 1, {"type": "play", "value": 2}, "human")
        await storage.append_move_async("t1", second, "running", None, 1, [0], None, (), 0, CLOCK_TABLES)
        for have, version in ((0, 0), (1, 1)):  # a copy one and two moves behind
            late = MoveRow(have, 1, {"type": "play", "value": 3}, "human")
            with pytest.raises(StaleTable) as raced:
                await storage.append_move_async("t1", late, "running", None, version, [0], None, (), 0, CLOCK_TABLES)
            lost.append(raced.value)

    run_then_close(storage, play)
    assert [m.idx for m in storage.load_table("t1").moves] == [0, 1]
    for raced, have in zip(lost, (0, 1), strict=True):
        if storage.url.startswith("sqlite"):
            assert raced.changes is None
            continue
        assert raced.changes is not None
        row, first, clock_rows = raced.changes
        assert (row, first) == storage.load_changes("t1", 0, have)
        assert [m.idx for m in row.moves] == list(range(have, 2)) and row.version == 2
        assert ClockStore.from_rows(clock_rows) == clocks.load("t1")


def test_an_append_from_the_event_loop_survives_terminated_database_sessions(pg_url: str, pg_schema: str) -> None:
    """PostgreSQL: the asyncio connections of the appends are terminated (as by a database restart or an
    operator); the next append runs once more on a fresh connection and is stored once."""
    storage = Storage(pg_url, schema=pg_schema)
    storage.create_table(table_row())

    async def play() -> None:
        await storage.append_move_async("t1", MoveRow(0, 0, {"type": "play", "value": 7}, "human"), "running", None, 0)
        with storage.read() as conn:
            ended = conn.execute(
                sa.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND application_name = :name"
                ),
                {"name": appends_name(pg_schema)},
            ).all()
        assert ended, "no append connection to terminate"
        await asyncio.sleep(0.2)
        await storage.append_move_async("t1", MoveRow(1, 1, {"type": "play", "value": 2}, "human"), "running", None, 1)

    run_then_close(storage, play)
    assert [m.idx for m in storage.load_table("t1").moves] == [0, 1]
    storage.close()


def test_schema_is_created_once_and_reopened(storage: Storage) -> None:
    storage.create_table(table_row())
    reopened = Storage(storage.url, schema=storage.schema)
    assert reopened.load_table("t1").id == "t1"
    reopened.close()


def test_database_urls() -> None:
    assert database_url(None) == "sqlite:///robotable.db"
    assert database_url("games.db") == "sqlite:///games.db"
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:////tmp/x.db") == "sqlite:////tmp/x.db"


def test_the_app_on_postgresql_resumes_after_a_restart(pg_schema: str) -> None:
    def client() -> TestClient:
        return TestClient(create_app("postgresql://postgres@127.0.0.1:5432/test", schema=pg_schema, bot_delay=0))

    with client() as c:
        token = guest_token(c)
        made = c.post("/api/tables", json={"game": "tf22-reload", "num_players": 3}, headers=bearer(token)).json()
        table = made["table"]["id"]
        for _ in range(5):
            now_ = c.get(f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(token)).json()
            while not now_["legal"]:
                time.sleep(0.01)
                now_ = c.get(f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(token)).json()
            body = {"seat": 0, "action": now_["legal"][0], "after": now_["moves"]}
            assert c.post(f"/api/tables/{table}/moves", json=body, headers=bearer(token)).status_code == 200

        # the bots have answered (seat 0 may move again, the bots wait for it): nothing moves before the restart
        def seat_0_to_move() -> dict | None:
            state = c.get(f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(token)).json()
            return state if state["legal"] else None

        before = wait_for(seat_0_to_move, "the bots' moves")
    with client() as c:
        after = c.get(f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(token)).json()
        assert after["moves"] == before["moves"] and after["view"] == before["view"] and after["log"] == before["log"]
