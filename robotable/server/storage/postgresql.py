"""PostgreSQL's own statements: a move's append and the read of what a table is at, each one statement.

They run on the event loop's psycopg connections (``batched_writes.py``), not through SQLAlchemy's
engine: one round trip each, no worker thread. They are built with SQLAlchemy (data-modifying common
table expressions, ``json_agg(... ORDER BY ...)`` of the postgresql dialect) from the statements and
parameters every database runs (``statements.py``), compiled once for each shape and schema to the
psycopg driver's SQL text, and their parameters are bound as that dialect binds them (JSON columns as
psycopg's ``Json``, every parameter cast to its column's type in the text).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    Table,
    and_,
    case,
    exists,
    func,
    insert,
    null,
    select,
)
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.dialects.postgresql.psycopg import dialect as psycopg_dialect
from sqlalchemy.engine import make_url
from sqlalchemy.sql.selectable import CTE

from .rows import MoveAppend
from .schema import moves_table, seats_table, tables_table
from .statements import MOVE_COLUMNS, append_params, append_update, param, row_update, row_update_params

DIALECT = psycopg_dialect()


@dataclass(frozen=True)
class Statement:
    """A statement compiled for psycopg: its SQL text, and how its parameters are bound."""

    sql: str
    #: each parameter's name, its value if it is a constant of the statement (else :data:`_GIVEN`), and
    #: how the dialect binds it (None: as it is)
    binds: tuple[tuple[str, Any, Callable[[Any], Any] | None], ...]

    def params(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The parameters psycopg takes: ``values`` and the statement's constants, as the dialect binds them.
        (SQLAlchemy's ``construct_params`` does the same at several times the cost, on every move.)"""
        params = {}
        for name, constant, process in self.binds:
            value = values[name] if constant is _GIVEN else constant
            params[name] = value if process is None else process(value)
        return params


_GIVEN = object()


def _compiled(statement: Select[Any], schema: str | None) -> Statement:
    translate: dict[str, Any] = {}
    if schema:  # the schema's name in the text (an engine would translate it at each execution)
        translate = {"schema_translate_map": {None: schema}, "render_schema_translate": True}
    compiled = statement.compile(dialect=DIALECT, **translate)
    binds = {}
    for bind, name in compiled.bind_names.items():
        constant = _GIVEN if bind.required else bind.effective_value
        binds[name] = (name, constant, bind.type.dialect_impl(DIALECT).bind_processor(DIALECT))
    return Statement(compiled.string, tuple(binds.values()))


def append(schema: str | None, append: MoveAppend, stamp: Any) -> tuple[Statement, dict[str, Any]]:
    """``append`` (at ``stamp``) as one statement and its parameters (see :func:`append_statement`)."""
    shape = tuple((u.table, tuple(u.key), tuple(u.values)) for u in append.also)
    beside = tuple(append.beside) if append.history is not None else None
    statement = append_statement(schema, append.version is not None, shape, beside)
    cas, row = append_params(append, stamp)
    values = cas | row
    for i, u in enumerate(append.also):
        values |= row_update_params(u, f"u{i}_")
    if beside is not None:
        values["at_history"] = append.history
    return statement, statement.params(values)


@functools.cache
def append_statement(
    schema: str | None,
    at_version: bool,
    updates: tuple[tuple[Table, tuple[str, ...], tuple[str, ...]], ...],
    beside: tuple[Table, ...] | None = None,
) -> Statement:
    """A move's compare-and-set, its row and the rows that go with it (``updates``: each table, key
    columns and columns written) as one statement, whose data-modifying parts write only if the
    compare-and-set did; it answers 1 if it did, 0 if the table moved on. Run outside a transaction it
    commits as a whole, in one round trip (a transaction of separate statements takes one for its BEGIN,
    one for each statement and one for its COMMIT). Built once for each shape.

    With ``beside`` (tables, see :func:`changes_statement`) it answers NULL if it wrote, and if the
    table moved on, what the table is at as the statement saw it (parameter ``at_history`` too): a lost
    race learns what it lost to in the same round trip. The statement sees the database as it was when
    it began, so a winner that committed while it waited for the row's lock is not in that answer (its
    version is the caller's own then)."""
    cas = append_update(at_version).returning(tables_table.c.id).cte("cas")
    wrote = exists(select(cas.c.id))
    move = insert(moves_table).from_select(
        ("table_id", *MOVE_COLUMNS), select(cas.c.id, *(param(moves_table, c, c) for c in MOVE_COLUMNS))
    )
    parts: list[CTE] = [move.cte("move")]
    for i, (table, key, columns) in enumerate(updates):
        # the blocking append's update of the row, its parameters renamed, written only if the move was
        parts.append(row_update(table, key, columns, f"u{i}_").where(wrote).cte(f"u{i}"))
    if beside is None:
        query = select(func.count()).select_from(cas)
    else:  # what the table is at is read only if nothing was written (an InitPlan)
        query = select(case((wrote, null()), else_=_changes(beside)))
    return _compiled(query.add_cte(*parts), schema)


@functools.cache
def changes_statement(schema: str | None, beside: tuple[Table, ...]) -> Statement:
    """What :meth:`Storage.load_changes` reads (the table, its seats, the moves a copy at ``at_moves``
    moves and history ``at_history`` lacks, and from which move they start) and every row of each table
    of ``beside`` that belongs to the table (by ``table_id``, in key order), as one JSON value: one
    statement, one round trip, on the event loop's connections. Built once for each shape."""
    return _compiled(select(_changes(beside)), schema)


def _changes(beside: tuple[Table, ...]) -> ColumnElement[Any]:
    """The JSON value :func:`changes_statement` reads (``rows.changes_of`` reads it back)."""
    t = tables_table
    table_id = param(t, "id", "at_id")
    have = param(t, "num_moves", "at_moves")
    head = select(t).where(t.c.id == table_id).cte("t")
    first = case((and_(head.c.history == param(t, "history", "at_history"), head.c.num_moves >= have), have), else_=0)
    s, m = seats_table.alias("s"), moves_table.alias("m")
    move = func.json_build_object(*(x for c in ("idx", "seat", "action", "actor") for x in (c, m.c[c])))
    rows = []
    for i, table in enumerate(beside):
        b = table.alias(f"b{i}")
        order = [b.c[c.name] for c in table.primary_key.columns if c.name != "table_id"] or [b.c.table_id]
        rows.append(_json_rows(b.table_valued(), *order).where(b.c.table_id == table_id).scalar_subquery())
    return func.json_build_object(
        "table",
        select(func.row_to_json(head.table_valued())).scalar_subquery(),
        "first",
        select(first).scalar_subquery(),
        "seats",
        _json_rows(s.table_valued(), s.c.seat).where(s.c.table_id == table_id).scalar_subquery(),
        "moves",
        _json_rows(move, m.c.idx).where(m.c.table_id == table_id, m.c.idx >= first).scalar_subquery(),
        "beside",
        func.json_build_array(*rows),
    )


def _json_rows(value: Any, *order: Any) -> Select[Any]:
    """``value`` of every row selected, in ``order``, as a JSON array (empty if none)."""
    return select(func.coalesce(func.json_agg(aggregate_order_by(value, *order)), func.json_build_array()))


def conninfo(url: str) -> str:
    """A libpq connection string of a SQLAlchemy URL (password included: it is not printed)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
