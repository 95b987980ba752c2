"""The statements of a move, as every database runs them, and the parameters they take.

They are built once (building a statement costs more than running it). The blocking append runs them
as they are (:meth:`Storage.append_move`); PostgreSQL's one-statement append (``postgresql.py``) is
made of the same statements and takes the same parameters, so the two appends cannot drift apart.
Parameters named ``at_*`` select the row; the others are the columns written.
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

from sqlalchemy import BindParameter, Insert, Table, bindparam, insert, update
from sqlalchemy.sql.expression import Update

from .rows import MoveAppend, RowUpdate
from .schema import moves_table, tables_table

#: The columns of the table's row a move's compare-and-set writes (besides its version).
WRITTEN = ("num_moves", "status", "result", "updated_at", "to_act")
#: The columns of a move's row (besides its ``table_id``, the parameter ``at_id``).
MOVE_COLUMNS = ("idx", "seat", "action", "actor", "created_at")


def param(table: Table, column: str, name: str) -> BindParameter[Any]:
    """The parameter ``name``, of the type of ``table.column``."""
    return bindparam(name, type_=table.c[column].type)


@functools.cache
def append_update(at_version: bool) -> Update:
    """A move's compare-and-set on its table's row: only if it is still at ``at_moves`` moves (and, with
    ``at_version``, at that version), write :data:`WRITTEN` and bump the version."""
    t = tables_table
    where = [t.c.id == param(t, "id", "at_id"), t.c.num_moves == param(t, "num_moves", "at_moves")]
    if at_version:
        where.append(t.c.version == param(t, "version", "at_version"))
    return update(t).where(*where).values({c: param(t, c, c) for c in WRITTEN} | {"version": t.c.version + 1})


#: A move's row (its table's id is the parameter ``at_id``).
INSERT_MOVE: Insert = insert(moves_table).values(
    {"table_id": param(moves_table, "table_id", "at_id")} | {c: param(moves_table, c, c) for c in MOVE_COLUMNS}
)


def append_params(append: MoveAppend, stamp: datetime) -> tuple[dict[str, Any], dict[str, Any]]:
    """The parameters of :func:`append_update` and of :data:`INSERT_MOVE` for ``append`` at ``stamp``."""
    move = append.move
    cas: dict[str, Any] = {"at_id": append.table_id, "at_moves": move.idx, "num_moves": move.idx + 1}
    cas |= {"status": append.status, "result": append.result, "updated_at": stamp, "to_act": append.to_act}
    if append.version is not None:
        cas["at_version"] = append.version
    row = {"at_id": append.table_id, "idx": move.idx, "seat": move.seat, "action": move.action, "actor": move.actor}
    return cas, row | {"created_at": stamp}


@functools.cache
def row_update(table: Table, key: tuple[str, ...], columns: tuple[str, ...], prefix: str = "") -> Update:
    """The update of ``columns`` of a row of ``table`` selected by the columns ``key``; its parameters
    are named ``<prefix><column>`` and ``<prefix>at_<key column>`` (:func:`row_update_params`)."""
    where = (table.c[k] == param(table, k, f"{prefix}at_{k}") for k in key)
    return update(table).where(*where).values({c: param(table, c, prefix + c) for c in columns})


def row_update_params(u: RowUpdate, prefix: str = "") -> dict[str, Any]:
    """The parameters of ``u``'s :func:`row_update`."""
    return {prefix + c: v for c, v in u.values.items()} | {f"{prefix}at_{k}": v for k, v in u.key.items()}


def row_update_of(u: RowUpdate, prefix: str = "") -> Update:
    """``u``'s :func:`row_update`."""
    return row_update(u.table, tuple(u.key), tuple(u.values), prefix)
