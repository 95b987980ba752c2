"""Storage of tables as records (game, options, seed, moves) in SQLite or PostgreSQL (SQLAlchemy 2).

A move is appended in one transaction together with the table's move count, status and result, and
the append only succeeds if the count is still the one the server saw: an accepted move is a committed
move, and a restarted server rebuilds every table by replaying its moves.

A seat belongs to an account (``account_id``); accounts, sessions, invites and chat are in
``people_tables.py`` on the same metadata.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    DefaultClause,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    false,
    insert,
    inspect,
    literal,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.sql.expression import Update

from .batched_writes import BatchedWrites
from .timings import Timings
from .wallclock import now  # the server's one clock (re-exported: other modules import it from here)

P = ParamSpec("P")
R = TypeVar("R")

SCHEMA_VERSION = 1
#: Threads a server process runs its blocking database calls on (its default executor), and the size of
#: its connection pool on PostgreSQL (SQLAlchemy's default of 5 queued moves behind each other under load).
DB_THREADS = int(os.environ.get("ROBOTABLE_DB_THREADS", "12"))
#: PostgreSQL: connections (and writer tasks) of the event loop's writes of moves (batched_writes.py).
MOVE_CONNECTIONS = max(1, int(os.environ.get("ROBOTABLE_MOVE_CONNECTIONS", str(DB_THREADS))))  # 0 or less: 1
#: PostgreSQL: moves written at most in one batch (one round trip, one commit); 1: each alone.
MOVE_BATCH = max(1, int(os.environ.get("ROBOTABLE_MOVE_BATCH", "16")))
#: A pooled PostgreSQL connection unused for this many seconds is pinged before it is handed out.
PING_IDLE_SECONDS = 1.0

metadata = MetaData()

meta_table = Table(
    "robotable_meta",
    metadata,
    Column("key", String(40), primary_key=True),
    Column("value", String(200), nullable=False),
)

tables_table = Table(
    "robotable_tables",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("game", String(60), nullable=False),
    Column("num_players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", JSON, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("num_moves", Integer, nullable=False, default=0),
    Column("result", JSON, nullable=True),
    Column("next_table", String(24), nullable=True),
    Column("parent", String(24), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # people (server/accounts.py): who made the table; hotseat tables (several seats on one device,
    # chosen at creation) are never rated
    Column("created_by", String(24), ForeignKey("robotable_accounts.id", ondelete="SET NULL"), nullable=True),
    Column("hotseat", Boolean, nullable=False, default=False, server_default=false()),
    Column("rated", Boolean, nullable=False, default=False, server_default=false()),
    # hints while playing (server/hint_api.py): the creator allowed them (such a table is never rated)
    Column("hints", Boolean, nullable=False, default=False, server_default=false()),
    # scaling out (server/cache.py): every write bumps ``version`` (a cache is current iff its version is the
    # row's); an undo also bumps ``history`` (moves were taken back, so a cache cannot just append);
    # ``to_act`` is who the game waits for, so lobby summaries need no replay.
    Column("version", BigInteger, nullable=False, default=0, server_default=text("0")),
    Column("history", Integer, nullable=False, default=0, server_default=text("0")),
    Column("to_act", JSON, nullable=True),
)

seats_table = Table(
    "robotable_seats",
    metadata,
    Column("table_id", String(24), ForeignKey("robotable_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(60), nullable=False),
    Column("difficulty", String(40), nullable=True),
    Column("handed_to_bot", Boolean, nullable=False, default=False),
    # the account that plays this seat (None: a bot, an open seat, or an invite not yet accepted)
    Column(
        "account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="SET NULL"), nullable=True, index=True
    ),
)

moves_table = Table(
    "robotable_moves",
    metadata,
    Column("table_id", String(24), ForeignKey("robotable_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", JSON, nullable=False),
    Column("actor", String(8), nullable=False),  # "human" or "bot": undo never passes another human's move
    Column("created_at", DateTime(timezone=True), nullable=False),
)


def database_url(database: str | None) -> str:
    """A SQLAlchemy URL from the ``--database`` value: a URL, a file path, or None (``robotable.db``).

    ``postgresql://`` and ``postgres://`` URLs are sent to the psycopg 3 driver.
    """
    if not database:
        return "sqlite:///robotable.db"
    if "://" not in database:
        return f"sqlite:///{Path(database)}"
    for prefix in ("postgresql://", "postgres://"):
        if database.startswith(prefix):
            return "postgresql+psycopg://" + database[len(prefix) :]
    return database


@dataclass
class SeatRow:
    """A stored seat."""

    seat: int
    kind: str
    name: str
    difficulty: str | None = None
    handed_to_bot: bool = False
    account_id: str | None = None


@dataclass
class MoveRow:
    """A stored move."""

    idx: int
    seat: int
    action: dict[str, Any]
    actor: str


@dataclass
class TableRow:
    """A stored table with its seats and moves."""

    id: str
    game: str
    num_players: int
    seed: int
    options: dict[str, Any]
    status: str
    num_moves: int
    result: dict[str, Any] | None
    next_table: str | None
    parent: str | None
    created_at: datetime
    updated_at: datetime
    seats: list[SeatRow] = field(default_factory=list)
    moves: list[MoveRow] = field(default_factory=list)
    created_by: str | None = None
    hotseat: bool = False
    rated: bool = False
    hints: bool = False
    version: int = 0
    history: int = 0
    to_act: list[int] | None = None


# The statements of every move, built once (building one costs more than running it): the table's
# compare-and-set (with and without the caller's version) and the move's row. Parameters named at_*
# select the row; the others are the columns written.
_APPEND = (
    update(tables_table)
    .where(tables_table.c.id == bindparam("at_id"), tables_table.c.num_moves == bindparam("at_moves"))
    .values(version=tables_table.c.version + 1)
)
_APPEND_AT_VERSION = _APPEND.where(tables_table.c.version == bindparam("at_version"))
_INSERT_MOVE = insert(moves_table)
_MOVE_COLUMNS = ("table_id", "idx", "seat", "action", "actor", "created_at")


@dataclass(frozen=True)
class RowUpdate:
    """Columns of one row written together with a move, in its transaction (its clocks): ``values``
    into the row of ``table`` whose key columns equal ``key``."""

    table: Table
    key: dict[str, Any]
    values: dict[str, Any]


@functools.cache
def _row_update(table: Table, key: tuple[str, ...]) -> Update:
    """The update of a row of ``table`` by the columns ``key`` (parameters ``at_<column>``), built once."""
    return update(table).where(*(table.c[k] == bindparam("at_" + k) for k in key))


def _param(table: Table, column: str, name: str) -> str:
    """PostgreSQL: the parameter ``name`` (psycopg's style) cast to the type of ``table.column``."""
    return f"CAST(%({name})s AS {table.c[column].type.compile(dialect=_POSTGRESQL)})"


_POSTGRESQL = postgresql.dialect()


@functools.cache
def _append_in_one_statement(
    prefix: str,
    at_version: bool,
    updates: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...],
    beside: tuple[str, ...] | None = None,
) -> str:
    """PostgreSQL: a move's compare-and-set, its row and the rows that go with it (``updates``: each
    table, key columns and columns written) as one statement, whose data-modifying parts write only if
    the compare-and-set did; it answers 1 if it did, 0 if the table moved on. Run outside a
    transaction it commits as a whole, in one round trip (a transaction of separate statements takes
    one for its BEGIN, one for each statement and one for its COMMIT). Built once for each shape.

    With ``beside`` (table names, see :func:`_changes_in_one_statement`) it answers NULL if it wrote,
    and if the table moved on, what the table is at as the statement saw it (parameter ``at_history``
    too): a lost race learns what it lost to in the same round trip. The statement sees the database
    as it was when it began, so a winner that committed while it waited for the row's lock is not in
    that answer (its version is the caller's own then)."""
    t = tables_table
    written = ", ".join(f"{c} = {_param(t, c, c)}" for c in ("num_moves", "status", "result", "updated_at", "to_act"))
    where = f"id = {_param(t, 'id', 'at_id')} AND num_moves = {_param(t, 'num_moves', 'at_moves')}"
    if at_version:
        where += f" AND version = {_param(t, 'version', 'at_version')}"
    parts = [
        f"cas AS (UPDATE {prefix}{t.name} SET {written}, version = version + 1 WHERE {where} RETURNING id)",
        f"move AS (INSERT INTO {prefix}{moves_table.name} ({', '.join(_MOVE_COLUMNS)}) SELECT id, "
        + ", ".join(_param(moves_table, c, c) for c in _MOVE_COLUMNS[1:])
        + " FROM cas)",
    ]
    for i, (name, key, columns) in enumerate(updates):
        table = metadata.tables[name]
        sets = ", ".join(f"{c} = {_param(table, c, f'u{i}_{c}')}" for c in columns)
        match = " AND ".join(f"{k} = {_param(table, k, f'u{i}_at_{k}')}" for k in key)
        parts.append(f"u{i} AS (UPDATE {prefix}{name} SET {sets} WHERE {match} AND EXISTS (SELECT FROM cas))")
    if beside is None:
        return "WITH " + ",\n".join(parts) + "\nSELECT count(*) FROM cas"
    now_at, changes = _changes_parts(prefix, beside)  # read only if nothing was written (an InitPlan)
    return (
        "WITH "
        + ",\n".join([*parts, now_at])
        + f"\nSELECT CASE WHEN EXISTS (SELECT FROM cas) THEN NULL ELSE {changes} END"
    )


@functools.cache
def _changes_in_one_statement(prefix: str, beside: tuple[str, ...]) -> str:
    """PostgreSQL: what :meth:`Storage.load_changes` reads (the table, its seats, the moves a copy at
    ``at_moves`` moves and history ``at_history`` lacks, and from which move they start) and every row
    of each table named in ``beside`` that belongs to the table (by ``table_id``, in key order), as one
    JSON value: one statement, one round trip, on the event loop's connections. Built once for each
    shape."""
    now_at, changes = _changes_parts(prefix, beside)
    return f"WITH {now_at}\nSELECT {changes}"


def _changes_parts(prefix: str, beside: tuple[str, ...]) -> tuple[str, str]:
    """:func:`_changes_in_one_statement` as the common table expression ``t`` (the table's row) and the
    JSON value read with it, to go in other statements too."""
    t, seats, moves = tables_table, seats_table, moves_table
    table_id = _param(t, "id", "at_id")
    have = _param(t, "num_moves", "at_moves")
    history = _param(t, "history", "at_history")
    first = f"CASE WHEN t.history = {history} AND t.num_moves >= {have} THEN {have} ELSE 0 END"
    move = ", ".join(f"'{c}', m.{c}" for c in ("idx", "seat", "action", "actor"))
    rows = []
    for name in beside:
        table = metadata.tables[name]
        order = ", ".join(f"b.{c.name}" for c in table.primary_key.columns if c.name != "table_id") or "b.table_id"
        rows.append(
            f"(SELECT coalesce(json_agg(b ORDER BY {order}), '[]'::json) FROM {prefix}{name} b"
            f" WHERE b.table_id = {table_id})"
        )
    return (
        f"t AS (SELECT * FROM {prefix}{t.name} WHERE id = {table_id})",
        "json_build_object(\n"
        "  'table', (SELECT row_to_json(t) FROM t),\n"
        f"  'first', (SELECT {first} FROM t),\n"
        f"  'seats', (SELECT coalesce(json_agg(s ORDER BY s.seat), '[]'::json) FROM {prefix}{seats.name} s"
        f" WHERE s.table_id = {table_id}),\n"
        f"  'moves', (SELECT coalesce(json_agg(json_build_object({move}) ORDER BY m.idx), '[]'::json)"
        f" FROM {prefix}{moves.name} m, t WHERE m.table_id = {table_id} AND m.idx >= {first}),\n"
        f"  'beside', json_build_array({', '.join(rows)}))",
    )


#: How the connections of the event loop's appends name themselves (``pg_stat_activity.application_name``).
APPENDS_NAME = "robotable moves"


def _conninfo(url: str) -> str:
    """A libpq connection string of a SQLAlchemy URL (password included: it is not printed)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _json_text(value: Any) -> str:
    """A JSON column's value as SQLAlchemy's JSON type writes it (``None`` as JSON ``null``)."""
    return json.dumps(value)


def once_more_if_disconnected(method: Callable[P, R]) -> Callable[P, R]:
    """Run a storage call again (once) if its database connection was lost (a restarted database, a
    terminated session): the pool hands out a fresh connection. A write that did commit before the
    connection went fails its compare-and-set the second time (StaleTable), so nothing is written twice.
    """

    @functools.wraps(method)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            return method(*args, **kwargs)

    return call


#: What a table is at as read in one statement: its row (seats and the moves a copy lacks included), the
#: index of the first of those moves (0: every move, the copy must be rebuilt) and the rows of the tables
#: read beside it (:meth:`Storage.load_changes_async`).
Changes = tuple[TableRow, int, list[list[dict[str, Any]]]]


class StaleTable(Exception):
    """The table moved on in the database since it was read (another process, or a race).

    ``changes``: what the table was at as the losing write saw it, when it asked (see
    :meth:`Storage.append_move_async`), else None."""

    def __init__(self, message: str, changes: Changes | None = None) -> None:
        super().__init__(message)
        self.changes = changes


class Storage:
    """The database. ``schema`` (PostgreSQL) puts every table in that schema, created if missing."""

    def __init__(self, url: str, schema: str | None = None) -> None:
        self.url = url
        self.schema = schema
        kwargs: dict[str, Any] = {"future": True}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs.update(pool_size=DB_THREADS, max_overflow=4)
        engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(engine, "connect", _sqlite_pragmas)
        else:
            _ping_idle_connections(engine)
        if schema:
            engine = engine.execution_options(schema_translate_map={None: schema})
        self.engine: Engine = engine
        # reads need no transaction: on PostgreSQL (read committed) each statement sees what was committed
        # when it started either way, and without one a read costs no BEGIN and ROLLBACK round trips (a
        # rollback also makes psycopg drop its prepared statements); SQLite begins none for reads anyway
        self.reader: Engine = (
            engine if url.startswith("sqlite") else engine.execution_options(isolation_level="AUTOCOMMIT")
        )
        # PostgreSQL: the moves of the event loop are appended on asyncio connections of their own
        #: this process's timings (see timings.py), the table manager's too
        self.timings = Timings()
        self._appends = (
            None
            if url.startswith("sqlite")
            else BatchedWrites(_conninfo(url), APPENDS_NAME, self.timings, MOVE_CONNECTIONS, MOVE_BATCH)
        )
        self._prefix = f'"{schema}".' if schema else ""
        self.create_schema()

    def create_schema(self) -> None:
        """Create (or check) the tables; refuse a database written by a newer version."""
        from . import people_tables  # noqa: F401  (registers the accounts, sessions, invites and chat tables)

        with self.engine.begin() as conn:
            if self.schema:
                conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"'))
            metadata.create_all(conn)
            _add_missing_columns(conn, self.schema)
            row = conn.execute(select(meta_table.c.value).where(meta_table.c.key == "schema_version")).first()
            if row is None:
                conn.execute(insert(meta_table).values(key="schema_version", value=str(SCHEMA_VERSION)))
            elif int(row[0]) > SCHEMA_VERSION:
                raise RuntimeError(f"the database has schema version {row[0]}; this server knows {SCHEMA_VERSION}")

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

    def create_table(self, row: TableRow) -> None:
        """Insert a new table and its seats."""
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

    @once_more_if_disconnected
    def append_move(
        self,
        table_id: str,
        move: MoveRow,
        status: str,
        result: dict[str, Any] | None,
        version: int | None = None,
        to_act: list[int] | None = None,
        stamp: datetime | None = None,
        also: Sequence[RowUpdate] = (),
    ) -> datetime:
        """Record a move, the new count, status and result in one transaction; StaleTable if raced.

        The append succeeds only if the table is still at move ``move.idx`` (and at ``version``, when
        given: then nothing else changed either since the caller read it); it bumps the version. ``also``
        is written with the move (its clocks), in the same transaction.
        """
        stamp = stamp or now()
        with self.transaction() as conn:
            columns = {"num_moves": move.idx + 1, "status": status, "result": result, "updated_at": stamp}
            columns |= {"to_act": to_act, "at_id": table_id, "at_moves": move.idx}
            if version is None:
                done = conn.execute(_APPEND, columns)
            else:
                done = conn.execute(_APPEND_AT_VERSION, columns | {"at_version": version})
            if done.rowcount != 1:  # raced: nothing was written, so it commits (a rollback would make
                conn.commit()  # psycopg drop its prepared statements, which each connection then prepares again)
                raise StaleTable(f"table {table_id} is no longer at move {move.idx}")
            conn.execute(
                _INSERT_MOVE,
                {
                    "table_id": table_id,
                    "idx": move.idx,
                    "seat": move.seat,
                    "action": move.action,
                    "actor": move.actor,
                    "created_at": stamp,
                },
            )
            self._write_rows(conn, also)
        return stamp

    async def append_move_async(
        self,
        table_id: str,
        move: MoveRow,
        status: str,
        result: dict[str, Any] | None,
        version: int | None = None,
        to_act: list[int] | None = None,
        stamp: datetime | None = None,
        also: Sequence[RowUpdate] = (),
        history: int | None = None,
        beside: Sequence[Table] = (),
    ) -> datetime:
        """:meth:`append_move` from the event loop. On PostgreSQL it is one statement
        (:func:`_append_in_one_statement`) on an asyncio connection: no worker thread, one round trip;
        on SQLite, :meth:`append_move` in a worker thread.

        With the caller's ``history`` (PostgreSQL), a lost compare-and-set's StaleTable carries what the
        table was at as the statement saw it (``changes``, as :meth:`load_changes_async` answers with
        ``beside``; None if the table is gone), read in the same round trip."""
        if self._appends is None:
            return await asyncio.to_thread(
                self.append_move, table_id, move, status, result, version, to_act, stamp, also
            )
        stamp = stamp or now()
        shape = tuple((u.table.name, tuple(u.key), tuple(u.values)) for u in also)
        answers = tuple(b.name for b in beside) if history is not None else None
        sql = _append_in_one_statement(self._prefix, version is not None, shape, answers)
        params: dict[str, Any] = {"at_id": table_id, "at_moves": move.idx, "num_moves": move.idx + 1}
        params |= {"status": status, "result": _json_text(result), "updated_at": stamp, "to_act": _json_text(to_act)}
        params |= {"idx": move.idx, "seat": move.seat, "action": _json_text(move.action), "actor": move.actor}
        params["created_at"] = stamp
        if version is not None:
            params["at_version"] = version
        for i, u in enumerate(also):
            params.update({f"u{i}_{c}": v for c, v in u.values.items()})
            params.update({f"u{i}_at_{k}": v for k, v in u.key.items()})
        if answers is None:
            if await self._appends.run(sql, params) != 1:
                raise StaleTable(f"table {table_id} is no longer at move {move.idx}")
            return stamp
        params["at_history"] = history
        found = await self._appends.run(sql, params)
        if found is not None:
            raise StaleTable(f"table {table_id} is no longer at move {move.idx}", _changes_of(found))
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
            statement = _row_update(u.table, tuple(u.key))
            conn.execute(statement, u.values | {"at_" + k: v for k, v in u.key.items()})

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
            table = _table_row(row)
            table.seats = [
                SeatRow(r.seat, r.kind, r.name, r.difficulty, bool(r.handed_to_bot), r.account_id)
                for r in conn.execute(
                    select(seats_table).where(seats_table.c.table_id == table_id).order_by(seats_table.c.seat)
                )
            ]
            table.moves = [
                MoveRow(r.idx, r.seat, dict(r.action), r.actor)
                for r in conn.execute(
                    select(moves_table).where(moves_table.c.table_id == table_id).order_by(moves_table.c.idx)
                )
            ]
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
            head = conn.execute(select(tables_table).where(tables_table.c.id == table_id)).mappings().first()
            if head is None:
                return None
            table = _table_row(head)
            first = have if table.history == history and table.num_moves >= have else 0
            table.seats = _seats(conn, table_id)
            table.moves = [
                MoveRow(r.idx, r.seat, dict(r.action), r.actor)
                for r in conn.execute(
                    select(moves_table)
                    .where(moves_table.c.table_id == table_id, moves_table.c.idx >= first)
                    .order_by(moves_table.c.idx)
                )
            ]
        return table, first

    async def load_changes_async(
        self, table_id: str, history: int, have: int, beside: Sequence[Table] = ()
    ) -> Changes | None:
        """:meth:`load_changes` from the event loop, with every row of each table of ``beside`` that
        belongs to the table (keyed by ``table_id``: its clocks), as ``(row, first, beside_rows)``.

        On PostgreSQL it is one statement (:func:`_changes_in_one_statement`) on the event loop's own
        connections, beside the moves' writes: no worker thread, one round trip; on SQLite, a worker
        thread. None if the table does not exist."""
        if self._appends is None:
            return await asyncio.to_thread(self._load_changes_beside, table_id, history, have, beside)
        sql = _changes_in_one_statement(self._prefix, tuple(b.name for b in beside))
        return _changes_of(
            await self._appends.run(sql, {"at_id": table_id, "at_history": history, "at_moves": have}, None)
        )

    def _load_changes_beside(self, table_id: str, history: int, have: int, beside: Sequence[Table]) -> Changes | None:
        """:meth:`load_changes_async` in a worker thread (SQLite)."""
        loaded = self.load_changes(table_id, history, have)
        if loaded is None:
            return None
        with self.read() as conn:
            return loaded[0], loaded[1], rows_beside(conn, table_id, beside)

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
            rows = [_table_row(r) for r in conn.execute(query).mappings()]
            if rows:
                seats: dict[str, list[SeatRow]] = {r.id: [] for r in rows}
                for r in conn.execute(
                    select(seats_table)
                    .where(seats_table.c.table_id.in_(list(seats)))
                    .order_by(seats_table.c.table_id, seats_table.c.seat)
                ):
                    seats[r.table_id].append(_seat_row(r))
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


def _changes_of(found: Any) -> Changes | None:
    """What :func:`_changes_parts`'s JSON value says (None: no such table)."""
    if not isinstance(found, dict) or found.get("table") is None:
        return None
    head = found["table"]
    for column in ("created_at", "updated_at"):
        head[column] = datetime.fromisoformat(head[column])
    table = _table_row(head)
    table.seats = [_seat_row(SimpleNamespace(**r)) for r in found["seats"]]
    table.moves = [MoveRow(r["idx"], r["seat"], dict(r["action"]), r["actor"]) for r in found["moves"]]
    return table, int(found["first"]), found["beside"]


def _seat_row(r: Any) -> SeatRow:
    return SeatRow(r.seat, r.kind, r.name, r.difficulty, bool(r.handed_to_bot), r.account_id)


def _seats(conn: Connection, table_id: str) -> list[SeatRow]:
    return [
        _seat_row(r)
        for r in conn.execute(
            select(seats_table).where(seats_table.c.table_id == table_id).order_by(seats_table.c.seat)
        )
    ]


def _table_row(row: Any) -> TableRow:
    return TableRow(
        id=row["id"],
        game=row["game"],
        num_players=row["num_players"],
        seed=int(row["seed"]),
        options=dict(row["options"] or {}),
        status=row["status"],
        num_moves=row["num_moves"],
        result=row["result"],
        next_table=row["next_table"],
        parent=row["parent"],
        created_at=_utc(row["created_at"]),
        updated_at=_utc(row["updated_at"]),
        created_by=row["created_by"],
        hotseat=bool(row["hotseat"]),
        rated=bool(row["rated"]),
        hints=bool(row["hints"]),
        version=int(row["version"]),
        history=int(row["history"]),
        to_act=list(row["to_act"]) if row["to_act"] is not None else None,
    )


def _add_missing_columns(conn: Connection, schema: str | None) -> None:
    """Add the columns a newer version declares to tables an older version created (each has a default)."""
    inspector = inspect(conn)
    for table in metadata.sorted_tables:
        present = {c["name"] for c in inspector.get_columns(table.name, schema=schema)}
        for column in table.columns:
            if column.name in present:
                continue
            kind = column.type.compile(dialect=conn.dialect)
            default = ""
            if isinstance(column.server_default, DefaultClause):  # a SQL expression: false(), text("0")
                arg = column.server_default.arg
                sql = literal(arg) if isinstance(arg, str) else arg  # a plain string is a quoted value
                default = " DEFAULT " + str(sql.compile(dialect=conn.dialect, compile_kwargs={"literal_binds": True}))
            null = "" if column.nullable else " NOT NULL"
            prefix = f'"{schema}".' if schema else ""
            conn.execute(text(f'ALTER TABLE {prefix}"{table.name}" ADD COLUMN "{column.name}" {kind}{default}{null}'))


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _ping_idle_connections(engine: Engine) -> None:
    """Replace dropped PostgreSQL connections (a restarted database, terminated sessions) before use.

    SQLAlchemy's ``pool_pre_ping`` pings on every checkout: a round trip for each transaction and read.
    This pings only a connection that sat in the pool for :data:`PING_IDLE_SECONDS`; one that dropped
    while in steady use fails its statement instead, which makes SQLAlchemy replace every pooled
    connection, and the hot storage calls run once more (:func:`once_more_if_disconnected`).
    """
    dialect = engine.dialect

    @event.listens_for(engine, "checkin")
    def checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info["checked_in"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if time.monotonic() - record.info.get("checked_in", 0.0) < PING_IDLE_SECONDS:
            return
        try:
            dialect.do_ping(dbapi_connection)
        except Exception as exc:
            if isinstance(exc, dialect.loaded_dbapi.Error) and dialect.is_disconnect(exc, dbapi_connection, None):
                raise DisconnectionError(str(exc)) from exc  # the pool tries a new connection
            raise


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
