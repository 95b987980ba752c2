"""Every message the server sends on a table's websocket, one declared type per kind.

The table code builds them with these types (``table/views.py``, ``table/news.py``, ``app.py``,
``chat_api.py``, ``session_end.py``); :func:`check` validates a sent message against the type of its
``type`` (the websocket tests run it on every message they receive). The list with the fields is in
docs/websocket.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NotRequired

from pydantic import ConfigDict, TypeAdapter, with_config
from typing_extensions import TypedDict

if TYPE_CHECKING:
    from .errors import ApiError

STRICT = ConfigDict(extra="forbid")


@with_config(STRICT)
class SeatSummary(TypedDict):
    """A seat as everyone may see it (``schemas.SeatOut``)."""

    seat: int
    kind: Literal["human", "bot", "open"]
    name: str
    difficulty: str | None
    agent: str | None
    level_rating: dict[str, Any] | None
    handed_to_bot: bool
    connected: bool
    account: str | None


@with_config(STRICT)
class TableSummary(TypedDict):
    """A table's public summary (``schemas.TableOut``)."""

    id: str
    game: str
    game_name: str
    num_players: int
    options: dict[str, Any]
    status: Literal["open", "running", "finished", "expired"]
    moves: int
    to_act: list[int]
    seats: list[SeatSummary]
    result: dict[str, Any] | None
    next_table: str | None
    undo_supported: bool
    created_by: str | None
    hotseat: bool
    rated: bool
    hints: bool
    min_reputation: int | None
    clock: dict[str, Any] | None
    created_at: str
    updated_at: str


@with_config(STRICT)
class SnapshotMessage(TypedDict):
    """The whole table as ``seat`` sees it: on connecting, after an undo or a seat change (``reason``)."""

    type: Literal["snapshot"]
    table: TableSummary
    seat: int | None
    moves: int
    view: dict[str, Any]
    to_act: list[int]
    answering: list[int]
    legal: list[Any]
    can_undo: bool
    result: dict[str, Any] | None
    log: list[dict[str, Any]]
    reason: NotRequired[str]


@with_config(STRICT)
class UpdateMessage(TypedDict):
    """After a move: the events of the new move ``seat`` may see, and the new view."""

    type: Literal["update"]
    table: TableSummary
    seat: int | None
    moves: int
    view: dict[str, Any]
    to_act: list[int]
    answering: list[int]
    legal: list[Any]
    can_undo: bool
    result: dict[str, Any] | None
    events: list[dict[str, Any]]
    reason: NotRequired[str]


@with_config(STRICT)
class TableMessage(TypedDict):
    """The summary changed (who is connected, clocks, links): no view, no legal moves."""

    type: Literal["table"]
    table: TableSummary


@with_config(STRICT)
class ChatLine(TypedDict):
    """A chat line (``chat.line_json``)."""

    idx: int
    seat: int | None
    account: str | None
    name: str
    username: str | None
    guest: bool
    tag: str | None
    text: str
    at: str


@with_config(STRICT)
class ChatMessage(TypedDict):
    """A chat line said at the table (to every socket of it, spectators included)."""

    type: Literal["chat"]
    line: ChatLine


@with_config(STRICT)
class AckMessage(TypedDict):
    """A move or an undo sent on the socket was played: the move count (and how many were undone)."""

    type: Literal["ack"]
    ref: str | int | None
    moves: int
    undone: NotRequired[int]


@with_config(STRICT)
class PongMessage(TypedDict):
    """The answer to a ``ping``."""

    type: Literal["pong"]
    ref: str | int | None


@with_config(STRICT)
class ErrorMessage(TypedDict):
    """A refusal: the English ``message``, the catalogue ``code`` and its ``params`` (and the HTTP-like status)."""

    type: Literal["error"]
    ref: str | int | None
    status: int
    message: str
    code: str | None
    params: dict[str, Any]


#: Every message a table's socket receives.
Message = SnapshotMessage | UpdateMessage | TableMessage | ChatMessage | AckMessage | PongMessage | ErrorMessage

KINDS: dict[str, type] = {
    "snapshot": SnapshotMessage,
    "update": UpdateMessage,
    "table": TableMessage,
    "chat": ChatMessage,
    "ack": AckMessage,
    "pong": PongMessage,
    "error": ErrorMessage,
}

_ADAPTERS: dict[str, TypeAdapter[Any]] = {kind: TypeAdapter(cls) for kind, cls in KINDS.items()}


def check(message: object) -> None:
    """Validate a sent message against the declared type of its ``type``; ValueError naming the problem."""
    if not isinstance(message, dict) or message.get("type") not in _ADAPTERS:
        kind = message.get("type") if isinstance(message, dict) else type(message).__name__
        raise ValueError(f"not a declared websocket message: type {kind!r} (declared: {', '.join(KINDS)})")
    _ADAPTERS[message["type"]].validate_python(message, strict=False)


def ws_error(exc: ApiError, ref: Any = None) -> ErrorMessage:
    """A refusal over a websocket: the English ``message`` and the catalogue ``code`` and ``params``."""
    return ErrorMessage(type="error", ref=ref, status=exc.status, message=exc.message, code=exc.code, params=exc.params)
