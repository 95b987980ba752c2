"""Pydantic wire schemas: what the HTTP API and the websocket accept and answer.

Every model forbids unknown fields, so a misspelt field is refused with a message naming it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter

SeatKind = Literal["human", "open", "bot"]

#: Bot difficulties offered by the lobby (agent specs for ``robotable.ai.make_agent``).
DIFFICULTIES: tuple[str, ...] = ("random", "heuristic", "ismcts:easy", "ismcts:medium", "ismcts:hard")


class Strict(BaseModel):
    """Base of every request model: unknown fields are an error, and no type is coerced.

    Strict mode: ``seat: true`` or ``seat: "1"`` is refused (not read as 1), a number is not a string.
    """

    model_config = ConfigDict(extra="forbid", strict=True)


def _action_type_is_text(action: dict[str, Any]) -> dict[str, Any]:
    if "type" in action and not isinstance(action["type"], str):
        raise ValueError(f"an action's 'type' must be a string, got {type(action['type']).__name__}")
    return action


#: An action as sent by a client: a JSON object whose ``type`` is a string (the game checks the rest).
ActionJson = Annotated[dict[str, Any], AfterValidator(_action_type_is_text)]


class SeatSpec(Strict):
    """One seat of a new table: a person holding an invite link, an open seat anyone may take, or a bot."""

    kind: SeatKind = "human"
    name: Annotated[str, Field(max_length=40)] | None = None
    difficulty: Annotated[str, Field(max_length=40)] | None = Field(
        default=None, description="bot seats: one of " + ", ".join(DIFFICULTIES)
    )


class TimeControlSpec(Strict):
    """A table's time control: ``live`` (a base time and an increment per turn; defaults: the game's own)
    or ``turn`` (turn-based: 1, 2 or 3 days per move). See "Clocks" in docs/server.md."""

    kind: Literal["live", "turn"] = "live"
    base: int | None = Field(default=None, ge=1, le=4 * 3600, description="live: seconds on each clock")
    increment: int | None = Field(default=None, ge=0, le=600, description="live: seconds added per turn")
    days: Literal[1, 2, 3] | None = Field(default=None, description="turn-based: days per move")


class CreateTable(Strict):
    """A new table: the game, the number of players, the game's options and each seat."""

    game: str
    num_players: int = Field(ge=1, le=16)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] | None = Field(
        default=None, description="one per player; default: seat 0 human, the others random bots"
    )
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    hotseat: bool = Field(
        default=False,
        description="several person seats played from one device by the creator's account (never rated)",
    )
    hints: bool = Field(
        default=False,
        description="the players may ask for hints while playing (POST /api/tables/{id}/hint); never rated",
    )
    time_control: TimeControlSpec | None = Field(default=None, description="default: the game's live clock")
    min_reputation: int | None = Field(
        default=None,
        ge=1,
        le=100,
        description="only accounts with at least this reputation (percent of their games with other people "
        "finished without timing out or being handed to a bot) may take a seat; default: anyone",
    )
    position: dict[str, Any] | None = Field(
        default=None,
        description="a written start position (the game's state JSON); only on servers started with "
        "--allow-positions (tests and puzzles)",
    )


class SeatRef(Strict):
    """One of your seats (you are who your session cookie or API token says; the seat must be yours)."""

    seat: int = Field(ge=0)


class MoveRequest(SeatRef):
    """A move for a seat; ``after`` (optional) is the number of moves the client saw, to refuse stale clicks."""

    action: ActionJson
    after: int | None = Field(default=None, ge=0)


class PreviewRequest(SeatRef):
    """A candidate action of the seat to act, to preview (nothing is played)."""

    action: ActionJson


class EvaluateRequest(SeatRef):
    """A question a seat asks its game about its own position (games with evaluations), e.g. a workbench robot."""

    query: dict[str, Any]


class HandToBot(Strict):
    """Hand an absent player's seat to a bot (you must play at the table)."""

    difficulty: Annotated[str, Field(max_length=40)] | None = Field(
        default=None,
        description="the bot's level, one of " + ", ".join(DIFFICULTIES) + "; default: the strongest that keeps "
        "the table moving at its clock (the clock's hand_over_level)",
    )


class InviteCode(Strict):
    """An invite's one-time code, sent in a body (never in an API URL)."""

    code: Annotated[str, Field(min_length=1, max_length=100)]


class UploadedReplay(Strict):
    """A record to replay (as saved by ``robotable play`` or downloaded from a finished table)."""

    record: dict[str, Any]
    seat: int | None = Field(default=None, ge=0)


class SeatOut(BaseModel):
    """A seat as everyone may see it."""

    seat: int
    kind: SeatKind
    name: str
    difficulty: str | None = None
    agent: str | None = Field(default=None, description="the agent that actually plays a bot seat")
    level_rating: dict[str, Any] | None = Field(
        default=None, description="that agent's arena rating in this game: rating (mu - 3 sigma), mu, sigma, games"
    )
    handed_to_bot: bool = False
    connected: bool = False
    account: str | None = Field(default=None, description="the id of the account that plays this seat")


class TableOut(BaseModel):
    """A table's public summary."""

    id: str
    game: str
    game_name: str
    num_players: int
    options: dict[str, Any]
    status: Literal["open", "running", "finished", "expired"]
    moves: int
    to_act: list[int]
    seats: list[SeatOut]
    result: dict[str, Any] | None = None
    next_table: str | None = None
    undo_supported: bool = False
    created_by: str | None = Field(default=None, description="the id of the account that made the table")
    hotseat: bool = Field(default=False, description="several seats played on one device (chosen at creation)")
    rated: bool = Field(default=False, description="results count for ratings (never for hotseat tables)")
    hints: bool = Field(default=False, description="the creator allowed hints while playing (never rated)")
    min_reputation: int | None = Field(
        default=None, description="the reputation (percent) a seat asks for (None: anyone may sit)"
    )
    clock: dict[str, Any] | None = Field(default=None, description="the time control and each seat's clock")
    created_at: str
    updated_at: str


class CreatedTable(BaseModel):
    """The answer to a table creation: its summary and an invite link per person seat the creator does not play."""

    table: TableOut
    invites: dict[int, str] = Field(description="seat -> /invite/<one-time code> (shown once)")


class ErrorOut(BaseModel):
    """Every 4xx answer: what was wrong (``detail``, in English), and the same as a message catalogue key
    (``code``, in ``app:errors.*``) with its ``params`` for the client to show in the reader's language."""

    detail: str
    code: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)


# -- websocket messages (client -> server) --------------------------------------------------------


class WsMove(Strict):
    """Play an action for the connection's seat."""

    type: Literal["move"]
    action: ActionJson
    after: int | None = Field(default=None, ge=0)
    ref: str | int | None = None


class WsUndo(Strict):
    """Undo the connection's seat's last move (the undo policy in docs/server.md)."""

    type: Literal["undo"]
    ref: str | int | None = None


class WsPing(Strict):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]
    ref: str | int | None = None


WsIncoming = Annotated[WsMove | WsUndo | WsPing, Field(discriminator="type")]
WS_INCOMING: TypeAdapter[WsMove | WsUndo | WsPing] = TypeAdapter(WsIncoming)
