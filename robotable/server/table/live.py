"""A live table (:class:`LiveTable`): a stored row, its game, the current state and the events of every move.

Also the plain functions every part of the table code shares: the first state of a table, replaying a
stored row, applying a stored move, whether a chosen move went stale, and table ids.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from robotable import games
from robotable.core import Event, Game, State
from robotable.core.record import Record

from ..errors import Conflict
from ..storage import MoveRow, SeatRow, TableRow

#: Times a move or a seat change is tried again after another process changed the table meanwhile.
RETRIES = 3
#: Where a table started from a written position keeps it, in its stored options (test servers only).
POSITION_KEY = "__position__"


class Raced(Conflict):
    """Another process changed the table between our read and our write (the write was refused)."""


def start_state(game: Game, num_players: int, seed: int, options: dict[str, Any]) -> State:
    """A table's first state: its written position if it has one, else a new game."""
    if POSITION_KEY in options:
        return game.state_from_json(options[POSITION_KEY])
    return game.start(num_players, seed=seed, options=options)


def public_options(options: dict[str, Any]) -> dict[str, Any]:
    """The game's options, without a written start position (which holds every secret)."""
    return {k: v for k, v in options.items() if k != POSITION_KEY}


@dataclass
class LiveTable:
    """A table in memory: its stored row, the game, the current state and the events of every move."""

    row: TableRow
    game: Game
    state: State
    events: list[list[Event]] = field(default_factory=list)
    random_moves: list[bool] = field(default_factory=list)  # the move drew from the state's RNG
    waiting: list[list[int]] = field(default_factory=list)  # to_act before any move, then after each
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    last_used: float = field(default_factory=time.monotonic)
    optional_at: int = -1  # the move at which bots last chose whether to act out of turn

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def moves(self) -> list[MoveRow]:
        return self.row.moves

    def seat(self, seat: int) -> SeatRow:
        return self.row.seats[seat]

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays ``seat`` now (a bot seat, or a human seat handed to a bot)."""
        s = self.row.seats[seat]
        return s.kind == "bot" or s.handed_to_bot

    def status(self) -> str:
        if self.state.is_over():
            return "finished"
        return "open" if any(s.kind == "open" for s in self.row.seats) else "running"

    def record(self) -> Record:
        return Record(
            self.row.game,
            self.row.num_players,
            self.row.seed,
            dict(self.row.options),
            [(m.seat, m.action) for m in self.moves],
            {"table": self.id, "seats": [s.name for s in self.row.seats]},
        )


def rng_state(state: State) -> Any:
    """The state's random generator's own state (to tell whether a move drew from it)."""
    rng = getattr(state, "rng", None)
    return getattr(rng, "state", None)


def rebuild(row: TableRow) -> LiveTable:
    """A table replayed from its stored row."""
    game = games.load(row.game)
    state = start_state(game, row.num_players, row.seed, row.options)
    live = LiveTable(row, game, state, waiting=[state.to_act()])
    for move in row.moves:
        before = rng_state(state)
        events = state.apply(move.seat, game.action_from_json(move.action))
        live.events.append(events)
        live.random_moves.append(rng_state(state) != before)
        live.waiting.append(state.to_act())
    return live


def apply_stored(live: LiveTable, move: MoveRow) -> None:
    """Apply a move another process stored (catching up by move number)."""
    before = rng_state(live.state)
    state = live.state.clone()
    events = state.apply(move.seat, live.game.action_from_json(move.action))
    live.state = state
    live.row.moves.append(move)
    live.events.append(events)
    live.random_moves.append(rng_state(state) != before)
    live.waiting.append(state.to_act())


def is_stale(live: LiveTable, seat: int, after: int) -> bool:
    """Whether a move ``seat`` chose when the table was at move ``after`` no longer fits.

    It does not fit if the seat has moved since, or stopped being waited for at any point since
    (its decision was settled and a new one came up). Other seats' moves in a simultaneous choice
    leave it valid: they change nothing this seat was deciding on.
    """
    if after > len(live.moves):
        return True
    if any(m.seat == seat for m in live.moves[after:]):
        return True
    if seat not in live.state.to_act() and seat in live.state.optional_actors():
        return False  # a move made at any time (a trade offer): the rules check it as it stands
    return any(seat not in live.waiting[k] for k in range(after, len(live.moves) + 1))


def no_such_seat(live: LiveTable, seat: object) -> str:
    """The message for a seat index the table does not have (seats are named from 1, indexes from 0)."""
    n = live.row.num_players
    if isinstance(seat, int) and not isinstance(seat, bool):
        return f"table {live.id} has seats 1 to {n} (indexes 0 to {n - 1}), not index {seat} (seat {seat + 1})"
    return f"table {live.id} has seats 1 to {n} (indexes 0 to {n - 1})"


def new_id() -> str:
    """A new table's id."""
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def plausible_id(table_id: str) -> bool:
    """Whether ``table_id`` could be a table's id (only such ids are quoted back in errors)."""
    return 0 < len(table_id) <= 24 and table_id.isascii() and table_id.replace("-", "").replace("_", "").isalnum()
