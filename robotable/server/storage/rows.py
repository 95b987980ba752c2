"""What the store reads and writes, as Python values: a table's row with its seats and moves, a row
written beside a move, a move to append, and what a lost compare-and-set saw."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Table


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
    min_reputation: int | None = None  # reputation.py: the share of finished games a seat asks for


@dataclass(frozen=True)
class RowUpdate:
    """Columns of one row written together with a move, in its transaction (its clocks): ``values``
    into the row of ``table`` whose key columns equal ``key``."""

    table: Table
    key: dict[str, Any]
    values: dict[str, Any]


@dataclass(frozen=True)
class MoveAppend:
    """A move to append: the arguments of :meth:`Storage.append_move` and :meth:`Storage.append_move_async`.

    The append succeeds only if table ``table_id`` is still at move ``move.idx`` (and at ``version``,
    when given: then nothing else changed either since the caller read it); it stores the move, the new
    count, ``status``, ``result`` and ``to_act``, stamped ``stamp`` (default: now), bumps the version and
    writes ``also`` (the table's clocks) in the same transaction. With the caller's ``history``
    (PostgreSQL, from the event loop), a lost compare-and-set's :class:`StaleTable` carries what the table
    was at as the statement saw it, with the rows of the tables of ``beside`` (:data:`Changes`); the
    blocking append (and SQLite) carries nothing."""

    table_id: str
    move: MoveRow
    status: str
    result: dict[str, Any] | None
    version: int | None = None
    to_act: list[int] | None = None
    stamp: datetime | None = None
    also: Sequence[RowUpdate] = ()
    history: int | None = None
    beside: Sequence[Table] = ()


#: What a table is at as read in one statement: its row (seats and the moves a copy lacks included), the
#: index of the first of those moves (0: every move, the copy must be rebuilt) and the rows of the tables
#: read beside it (:meth:`Storage.load_changes_async`).
Changes = tuple[TableRow, int, list[list[dict[str, Any]]]]


class StaleTable(Exception):
    """The table moved on in the database since it was read (another process, or a race).

    ``changes``: what the table was at as the losing write saw it, when it asked (see
    :class:`MoveAppend`), else None."""

    def __init__(self, message: str, changes: Changes | None = None) -> None:
        super().__init__(message)
        self.changes = changes


def table_row(row: Any) -> TableRow:
    """A :class:`TableRow` (without seats and moves) of a row of ``robotable_tables`` (a mapping)."""
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
        created_at=utc(row["created_at"]),
        updated_at=utc(row["updated_at"]),
        created_by=row["created_by"],
        hotseat=bool(row["hotseat"]),
        rated=bool(row["rated"]),
        hints=bool(row["hints"]),
        version=int(row["version"]),
        history=int(row["history"]),
        to_act=list(row["to_act"]) if row["to_act"] is not None else None,
        min_reputation=row.get("min_reputation"),
    )


def seat_row(r: Any) -> SeatRow:
    """A :class:`SeatRow` of a row of ``robotable_seats`` (attributes)."""
    return SeatRow(r.seat, r.kind, r.name, r.difficulty, bool(r.handed_to_bot), r.account_id)


def move_row(r: Any) -> MoveRow:
    """A :class:`MoveRow` of a row of ``robotable_moves`` (attributes)."""
    return MoveRow(r.idx, r.seat, dict(r.action), r.actor)


def changes_of(found: Any) -> Changes | None:
    """The :data:`Changes` a JSON value read in one statement says (``postgresql.py``; None: no such table)."""
    if not isinstance(found, dict) or found.get("table") is None:
        return None
    head = found["table"]
    for column in ("created_at", "updated_at"):
        head[column] = datetime.fromisoformat(head[column])
    table = table_row(head)
    table.seats = [seat_row(SimpleNamespace(**r)) for r in found["seats"]]
    table.moves = [move_row(SimpleNamespace(**r)) for r in found["moves"]]
    return table, int(found["first"]), found["beside"]


def utc(value: datetime) -> datetime:
    """A stored time in UTC (SQLite keeps no zone)."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)
