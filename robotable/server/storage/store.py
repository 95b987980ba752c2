"""The store: tables as records (game, options, seed, moves) in SQLite or PostgreSQL (SQLAlchemy 2).

A move is appended in one transaction together with the table's move count, status and result, and
the append only succeeds if the count is still the one the server saw: an accepted move is a committed
move, and a restarted server rebuilds every table by replaying its moves.

The SQL tables are in ``schema.py`` (every table of the server), the Python rows in ``rows.py``, the
statements of a move in ``statements.py`` and PostgreSQL's one-statement forms in ``postgresql.py``.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import Table, delete, insert, select, update
from sqlalchemy.engine import Connection, Engine

from ..batched_writes import BatchedWrites
from ..timings import Timings
from ..wallclock import now
from . import postgresql, schema
from .engine import MOVE_BATCH, MOVE_CONNECTIONS, make_engine, once_more_if_disconnected
from .rows import (
    Changes,
    MoveAppend,
    MoveRow,
    RowUpdate,
    SeatRow,
    StaleTable,
    TableRow,
    changes_of,
    move_row,
    seat_row,
    table_row,
)
from .schema import moves_table, seats_table, tables_table
from .statements import INSERT_MOVE, append_params, append_update, row_update_of, row_update_params

P = ParamSpec("P")
R = TypeVar("R")
A = TypeVar("A")
S = TypeVar("S")

#: How the connections of the event loop's appends name themselves (``pg_stat_activity.application_name``),
#: followed by the schema when there is one (see :func:`appends_name`).
APPENDS_NAME = "robotable moves"


def appends_name(schema: str | None) -> str:
    """The ``application_name`` of the appends' connections: ``robotable moves``, or ``robotable moves
    <schema>`` for a store in a schema, so an operator (or a test) can tell which store's sessions are which.

    >>> appends_name(None), appends_name("rt_a1")
    ('robotable moves', 'robotable moves rt_a1')
    """
    return APPENDS_NAME if schema is None else f"{APPENDS_NAME} {schema}"[:63]


def taking(kind: Callable[P, A]) -> Callable[[Callable[[S, A], R]], Callable[Concatenate[S, P], R]]:
    """A method of one ``kind`` (a dataclass), called with the arguments of ``kind``'s constructor: the
    blocking and the asyncio twin of a write share that one definition of their arguments."""

    def decorate(method: Callable[[S, A], R]) -> Callable[Concatenate[S, P], R]:
        @functools.wraps(method)
        def call(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
            return method(self, kind(*args, **kwargs))

        return call

    return decorate


class Storage:
    """The database. ``schema`` (PostgreSQL) puts every table in that schema, created if missing."""

    def __init__(self, url: str, schema: str | None = None) -> None:
        self.url = url
        self.schema = schema
        self.engine: Engine = make_engine(url, schema)
        # reads need no transaction: on PostgreSQL (read committed) each statement sees what was committed
        # when it started either way, and without one a read costs no BEGIN and ROLLBACK round trips (a
        # rollback also makes psycopg drop its prepared statements); SQLite begins none for reads anyway
        self.reader: Engine = (
            self.engine if url.startswith("sqlite") else self.engine.execution_options(isolation_level="AUTOCOMMIT")
        )
        # PostgreSQL: the moves of the event loop are appended on asyncio connections of their own
        #: this process's timings (see timings.py), the table manager's too
        self.timings = Timings()
        self._appends = (
            None
            if url.startswith("sqlite")
            else BatchedWrites(
                postgresql.conninfo(url), appends_name(schema), self.timings, MOVE_CONNECTIONS, MOVE_BATCH
            )
        )
        self.create_schema()

    def create_schema(self) -> None:
        """Create (or check) every table of ``schema.py``; refuse a database written by a newer version."""
        with self.engine.begin() as conn:
            schema.create(conn, self.schema)

    def close(self) -> None:
        """Release the connections."""
        self.engine.dispose()

    def read(self) -> Connection:
        """A connection for reading (``with storage.read() as conn``): no transaction on PostgreSQL."""
        return self.reader.connect()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One transaction (committed on success, rolled back on error)."""
        with self.engine.begin() as conn:
            yield conn

    # -- writes -----------------------------------------------------------------------------------

    def create_table(self, row: TableRow, beside: Callable[[Connection], None] | None = None) -> None:
        """Insert a new table and its seats, and what ``beside`` writes in the same transaction (its
        clocks: nobody reads the table without them)."""
        with self.transaction() as conn:
            conn.execute(
                insert(tables_table).values(
                    id=row.id,
                    game=row.game,
                    num_players=row.num_players,
                    seed=row.seed,
                    options=row.options,
                    status=row.status,
                    num_moves=0,
                    result=None,
                    next_table=None,
                    parent=row.parent,
                    created_at=row.created_at,
                    updated_at=row.updated_at,
                    created_by=row.created_by,
                    hotseat=row.hotseat,
                    rated=row.rated,
                    hints=row.hints,
                    version=row.version,
                    history=row.history,
                    to_act=row.to_act,
                    min_reputation=row.min_reputation,
                )
            )
            conn.execute(
                insert(seats_table),
                [
                    {
                        "table_id": row.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name,
                        "difficulty": s.difficulty,
                        "handed_to_bot": s.handed_to_bot,
                        "account_id": s.account_id,
                    }
                    for s in row.seats
                ],
            )
            if beside is not None:
                beside(conn)

    @taking(MoveAppend)
    def append_move(self, append: MoveAppend) -> datetime:
        """Record a move, the new count, status and result in one transaction; StaleTable if raced.

        Takes the arguments of :class:`MoveAppend` (which says what is written when); answers the
        move's stamp."""
        return self._append(append)

    @taking(MoveAppend)
    async def append_move_async(self, append: MoveAppend) -> datetime:
        """:meth:`append_move` from the event loop. On PostgreSQL it is one statement
        (:func:`postgresql.append_statement`) on an asyncio connection: no worker thread, one round trip;
        on SQLite, :meth:`append_move` in a worker thread."""
        if self._appends is None:
            return await asyncio.to_thread(self._append, append)
        stamp = append.stamp or now()
        statement, params = postgresql.append(self.schema, append, stamp)
        answer = await self._appends.run(statement.sql, params)
        if append.history is None and answer != 1:
            raise StaleTable(f"table {append.table_id} is no longer at move {append.move.idx}")
        if append.history is not None and answer is not None:
            raise StaleTable(f"table {append.table_id} is no longer at move {append.move.idx}", changes_of(answer))
        return stamp

    @once_more_if_disconnected
    def _append(self, append: MoveAppend) -> datetime:
        """:meth:`append_move`: the compare-and-set, then the move's row and ``also``, in one transaction."""
        stamp = append.stamp or now()
        cas, row = append_params(append, stamp)
        with self.transaction() as conn:
            if conn.execute(append_update(append.version is not None), cas).rowcount != 1:
                # raced: nothing was written, so it commits (a rollback would make psycopg drop its
                conn.commit()  # prepared statements, which each connection then prepares again)
                raise StaleTable(f"table {append.table_id} is no longer at move {append.move.idx}")
            conn.execute(INSERT_MOVE, row)
            self._write_rows(conn, append.also)
        return stamp

    def append_connections(self) -> dict[str, int] | None:
        """PostgreSQL: the pool of the event loop's appends (connections open, idle, requests waiting)."""
        return None if self._appends is None else self._appends.figures()

    async def aclose(self) -> None:
        """Close the asyncio connections (the event loop's part of :meth:`close`)."""
        if self._appends is not None:
            await self._appends.aclose()

    def write_rows(self, updates: Sequence[RowUpdate]) -> None:
        """Write ``updates`` in one transaction."""
        with self.transaction() as conn:
            self._write_rows(conn, updates)

    @staticmethod
    def _write_rows(conn: Connection, updates: Sequence[RowUpdate]) -> None:
        for u in updates:
            conn.execute(row_update_of(u), row_update_params(u))

    @once_more_if_disconnected
    def truncate_moves(
        self,
        table_id: str,
        keep: int,
        expected: int,
        status: str,
        version: int | None = None,
        to_act: list[int] | None = None,
    ) -> datetime:
        """Delete every move from index ``keep`` on (undo), if the table is still at ``expected`` moves.

        An undo bumps both the version and the history (caches elsewhere then rebuild, not append).
        """
        stamp = now()
        with self.transaction() as conn:
            where = [tables_table.c.id == table_id, tables_table.c.num_moves == expected]
            if version is not None:
                where.append(tables_table.c.version == version)
            done = conn.execute(
                update(tables_table)
                .where(*where)
                .values(
                    num_moves=keep,
                    status=status,
                    result=None,
                    updated_at=stamp,
                    version=tables_table.c.version + 1,
                    history=tables_table.c.history + 1,
                    to_act=to_act,
                )
            )
            if done.rowcount != 1:
                raise StaleTable(f"table {table_id} is no longer at move {expected}")
            conn.execute(delete(moves_table).where(moves_table.c.table_id == table_id, moves_table.c.idx >= keep))
        return stamp

    @once_more_if_disconnected
    def change_seat(
        self, table_id: str, before: SeatRow, after: SeatRow, version: int, status: str | None = None
    ) -> datetime:
        """Compare-and-set a seat: only if the table is still at ``version`` and the seat's stored kind,
        account and hand-over flag are still ``before``'s; StaleTable otherwise (nothing written).

        ``status`` also changes the table's status (open -> running when the last open seat is taken).
        """
        stamp = now()
        with self.transaction() as conn:
            values: dict[str, Any] = {"version": tables_table.c.version + 1, "updated_at": stamp}
            if status is not None:
                values["status"] = status
            done = conn.execute(
                update(tables_table)
                .where(tables_table.c.id == table_id, tables_table.c.version == version)
                .values(**values)
            )
            if done.rowcount != 1:
                raise StaleTable(f"table {table_id} changed since version {version}")
            changed = conn.execute(
                update(seats_table)
                .where(
                    seats_table.c.table_id == table_id,
                    seats_table.c.seat == before.seat,
                    seats_table.c.kind == before.kind,
                    seats_table.c.handed_to_bot == before.handed_to_bot,
                    seats_table.c.account_id.is_(None)
                    if before.account_id is None
                    else seats_table.c.account_id == before.account_id,
                )
                .values(
                    kind=after.kind,
                    name=after.name,
                    difficulty=after.difficulty,
                    handed_to_bot=after.handed_to_bot,
                    account_id=after.account_id,
                )
            )
            if changed.rowcount != 1:  # leaving the block with an error rolls the version bump back
                raise StaleTable(f"seat {before.seat + 1} of table {table_id} changed meanwhile")
        return stamp

    def update_seat(self, table_id: str, seat: SeatRow) -> None:
        """Store a seat's kind, name, difficulty, hand-over flag and account (bumps the version)."""
        with self.transaction() as conn:
            conn.execute(
                update(seats_table)
                .where(seats_table.c.table_id == table_id, seats_table.c.seat == seat.seat)
                .values(
                    kind=seat.kind,
                    name=seat.name,
                    difficulty=seat.difficulty,
                    handed_to_bot=seat.handed_to_bot,
                    account_id=seat.account_id,
                )
            )
            _bump(conn, table_id)

    def claim_seat(self, table_id: str, seat: SeatRow) -> bool:
        """Turn an open seat into a human seat, only if it is still open (first claim wins)."""
        with self.transaction() as conn:
            done = conn.execute(
                update(seats_table)
                .where(
                    seats_table.c.table_id == table_id,
                    seats_table.c.seat == seat.seat,
                    seats_table.c.kind == "open",
                )
                .values(kind=seat.kind, name=seat.name, account_id=seat.account_id)
            )
            if done.rowcount == 1:
                _bump(conn, table_id)
            return done.rowcount == 1

    def set_status(self, table_id: str, status: str) -> None:
        """Change a table's status (open -> running when its last open seat is taken)."""
        with self.transaction() as conn:
            conn.execute(update(tables_table).where(tables_table.c.id == table_id).values(status=status))
            _bump(conn, table_id, touch=False)

    def link_next(self, table_id: str, next_id: str) -> bool:
        """Point a finished table at its "play again" table, unless one is already linked."""
        with self.transaction() as conn:
            done = conn.execute(
                update(tables_table)
                .where(tables_table.c.id == table_id, tables_table.c.next_table.is_(None))
                .values(next_table=next_id, version=tables_table.c.version + 1)
            )
            return done.rowcount == 1

    # -- reads ------------------------------------------------------------------------------------

    @once_more_if_disconnected
    def load_table(self, table_id: str) -> TableRow | None:
        """A table with its seats and moves, or None."""
        with self.read() as conn:
            row = conn.execute(select(tables_table).where(tables_table.c.id == table_id)).mappings().first()
            if row is None:
                return None
            table = table_row(row)
            table.seats = _seats(conn, table_id)
            table.moves = _moves(conn, table_id, 0)
        return table

    def table_ids(
        self, statuses: tuple[str, ...] | None = None, limit: int = 200, game: str | None = None
    ) -> list[str]:
        """Table ids, most recently updated first, optionally only with these statuses, of this game."""
        query = select(tables_table.c.id).order_by(tables_table.c.updated_at.desc()).limit(limit)
        if statuses:
            query = query.where(tables_table.c.status.in_(statuses))
        if game:
            query = query.where(tables_table.c.game == game)
        with self.read() as conn:
            return [r[0] for r in conn.execute(query)]

    @once_more_if_disconnected
    def versions(self, table_ids: list[str]) -> dict[str, int]:
        """The stored version of each table (missing ids are left out)."""
        if not table_ids:
            return {}
        query = select(tables_table.c.id, tables_table.c.version).where(tables_table.c.id.in_(table_ids))
        with self.read() as conn:
            return {r[0]: int(r[1]) for r in conn.execute(query)}

    @once_more_if_disconnected
    def load_changes(self, table_id: str, history: int, have: int) -> tuple[TableRow, int] | None:
        """A table with its seats and the moves a cache at ``have`` moves and ``history`` lacks.

        Answers ``(row, first)``: ``row.moves`` are the stored moves from index ``first`` on, which is
        ``have`` when the cache can append them (no undo since), else 0 (rebuild from every move).
        None if the table does not exist.
        """
        with self.read() as conn:
            changes = self._changes(conn, table_id, history, have, ())
        return None if changes is None else changes[:2]

    async def load_changes_async(
        self, table_id: str, history: int, have: int, beside: Sequence[Table] = ()
    ) -> Changes | None:
        """:meth:`load_changes` from the event loop, with every row of each table of ``beside`` that
        belongs to the table (keyed by ``table_id``: its clocks), as ``(row, first, beside_rows)``.

        On PostgreSQL it is one statement (:func:`postgresql.changes_statement`) on the event loop's own
        connections, beside the moves' writes: no worker thread, one round trip; on SQLite, a worker
        thread. None if the table does not exist."""
        if self._appends is None:
            return await asyncio.to_thread(self._load_changes_beside, table_id, history, have, beside)
        statement = postgresql.changes_statement(self.schema, tuple(beside))
        params = statement.params({"at_id": table_id, "at_history": history, "at_moves": have})
        return changes_of(await self._appends.run(statement.sql, params, None))

    @once_more_if_disconnected
    def _load_changes_beside(self, table_id: str, history: int, have: int, beside: Sequence[Table]) -> Changes | None:
        """:meth:`load_changes_async` in a worker thread (SQLite)."""
        with self.read() as conn:
            return self._changes(conn, table_id, history, have, beside)

    @staticmethod
    def _changes(conn: Connection, table_id: str, history: int, have: int, beside: Sequence[Table]) -> Changes | None:
        """What :meth:`load_changes_async` answers, read on ``conn``."""
        head = conn.execute(select(tables_table).where(tables_table.c.id == table_id)).mappings().first()
        if head is None:
            return None
        table = table_row(head)
        first = have if table.history == history and table.num_moves >= have else 0
        table.seats = _seats(conn, table_id)
        table.moves = _moves(conn, table_id, first)
        return table, first, rows_beside(conn, table_id, beside)

    @once_more_if_disconnected
    def list_rows(
        self,
        statuses: tuple[str, ...] | None,
        limit: int = 50,
        before: tuple[datetime, str] | None = None,
        game: str | None = None,
    ) -> list[TableRow]:
        """A page of tables (of ``game`` if given) with their seats (not their moves), most recently
        updated first.

        ``before`` is the ``(updated_at, id)`` of the last table of the previous page (keyset paging).
        """
        t = tables_table
        query = select(t).order_by(t.c.updated_at.desc(), t.c.id.desc()).limit(limit)
        if statuses:
            query = query.where(t.c.status.in_(statuses))
        if game:
            query = query.where(t.c.game == game)
        if before is not None:
            stamp, last = before
            query = query.where((t.c.updated_at < stamp) | ((t.c.updated_at == stamp) & (t.c.id < last)))
        with self.read() as conn:
            rows = [table_row(r) for r in conn.execute(query).mappings()]
            if rows:
                seats: dict[str, list[SeatRow]] = {r.id: [] for r in rows}
                for r in conn.execute(
                    select(seats_table)
                    .where(seats_table.c.table_id.in_(list(seats)))
                    .order_by(seats_table.c.table_id, seats_table.c.seat)
                ):
                    seats[r.table_id].append(seat_row(r))
                for row in rows:
                    row.seats = seats[row.id]
        return rows

    def list_page_key(self, table_id: str) -> tuple[datetime, str] | None:
        """The paging key ``(updated_at, id)`` of a table, or None."""
        query = select(tables_table.c.updated_at).where(tables_table.c.id == table_id)
        with self.read() as conn:
            stamp = conn.execute(query).scalar()
        return None if stamp is None else (stamp, table_id)

    def tables_with_bots(self, limit: int = 10_000) -> list[tuple[str, list[int] | None, list[int]]]:
        """Unfinished tables with a bot (or a seat handed to one): ``(id, to_act, bot seats)`` each."""
        t, s = tables_table, seats_table
        query = (
            select(t.c.id, t.c.to_act, s.c.seat)
            .join(s, s.c.table_id == t.c.id)
            .where(t.c.status.in_(("open", "running")), (s.c.kind == "bot") | (s.c.handed_to_bot.is_(True)))
            .order_by(t.c.updated_at.desc())
            .limit(limit)
        )
        out: dict[str, tuple[str, list[int] | None, list[int]]] = {}
        with self.read() as conn:
            for table_id, to_act, seat in conn.execute(query):
                out.setdefault(table_id, (table_id, to_act, []))[2].append(seat)
        return list(out.values())


def _bump(conn: Connection, table_id: str, touch: bool = True) -> None:
    """A write to a table or its seats: a new version (and, if ``touch``, a new ``updated_at``)."""
    values: dict[str, Any] = {"version": tables_table.c.version + 1}
    if touch:
        values["updated_at"] = now()
    conn.execute(update(tables_table).where(tables_table.c.id == table_id).values(**values))


def rows_beside(conn: Connection, table_id: str, beside: Sequence[Table]) -> list[list[dict[str, Any]]]:
    """Every row of each table of ``beside`` that belongs to the table (by ``table_id``), in key order,
    as column mappings (what :meth:`Storage.load_changes_async` answers beside the table)."""
    return [
        [dict(r) for r in conn.execute(select(b).where(b.c.table_id == table_id).order_by(*b.primary_key)).mappings()]
        for b in beside
    ]


def _seats(conn: Connection, table_id: str) -> list[SeatRow]:
    return [
        seat_row(r)
        for r in conn.execute(
            select(seats_table).where(seats_table.c.table_id == table_id).order_by(seats_table.c.seat)
        )
    ]


def _moves(conn: Connection, table_id: str, first: int) -> list[MoveRow]:
    """The stored moves of a table from index ``first`` on."""
    query = select(moves_table).where(moves_table.c.table_id == table_id, moves_table.c.idx >= first)
    return [move_row(r) for r in conn.execute(query.order_by(moves_table.c.idx))]
