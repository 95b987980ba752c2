"""Game records: game id, player count, options, seed and moves, enough to rebuild any state exactly.

>>> from robotable.core.record import Match, replay
>>> match = Match("tf22-reload", num_players=2, seed=7)
>>> seat = match.state.to_act()[0]
>>> _ = match.apply(seat, match.state.legal_actions(seat)[0])
>>> replay(match.record).to_json() == match.state.to_json()
True

A record holds every secret (the seed fixes every shuffle): it is for the server, bug reports and the
player's own finished games. What a seat may watch is :func:`replay_views`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import registry
from .actions import Action, Event, visible_events
from .errors import BadInput, RobotableError
from .game import Game, State

RECORD_FORMAT = 1


@dataclass
class Record:
    """Everything needed to replay a game: ``(game, num_players, options, seed, moves)``.

    ``moves`` are ``(seat, action JSON)`` pairs in the order they were applied; ``meta`` holds free
    information (seat names, dates, the result) that replay does not read.
    """

    game: str
    num_players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    moves: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON form (see :meth:`from_json`)."""
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "num_players": self.num_players,
            "seed": self.seed,
            "options": self.options,
            "moves": [[seat, action] for seat, action in self.moves],
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: object) -> Record:
        """Read a record; anything malformed raises :class:`BadInput` naming the problem."""
        if not isinstance(data, Mapping):
            raise BadInput("record: expected a JSON object")
        for key in ("game", "num_players", "seed", "moves"):
            if key not in data:
                raise BadInput(f"record: missing field {key!r}")
        if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise BadInput(f"record: unsupported format {data.get('format')!r} (expected {RECORD_FORMAT})")
        if not isinstance(data["game"], str):
            raise BadInput("record: 'game' must be a string")
        for key in ("num_players", "seed"):
            if not isinstance(data[key], int) or isinstance(data[key], bool):
                raise BadInput(f"record: {key!r} must be an integer")
        if not 0 <= data["seed"] < 2**63:
            raise BadInput("record: 'seed' must be from 0 to 2**63 - 1 (seeds are 63-bit)")
        options = data.get("options", {})
        meta = data.get("meta", {})
        if not isinstance(options, Mapping) or not isinstance(meta, Mapping):
            raise BadInput("record: 'options' and 'meta' must be JSON objects")
        moves = data["moves"]
        if not isinstance(moves, list):
            raise BadInput("record: 'moves' must be a list")
        parsed = []
        for i, move in enumerate(moves):
            if (
                not isinstance(move, list | tuple)
                or len(move) != 2
                or not isinstance(move[0], int)
                or isinstance(move[0], bool)
                or not isinstance(move[1], Mapping)
            ):
                raise BadInput(f"record: move {i} must be [seat, action object], got {move!r}")
            parsed.append((move[0], dict(move[1])))
        return cls(data["game"], data["num_players"], data["seed"], dict(options), parsed, dict(meta))

    def save(self, path: str | Path) -> Path:
        """Write the record as JSON; returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n")
        return path

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file; a missing or malformed file raises :class:`BadInput`."""
        try:
            data = json.loads(Path(path).read_text())
        except FileNotFoundError:
            raise BadInput(f"record: no such file {str(path)!r}") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BadInput(f"record: cannot read {str(path)!r}: {exc}") from None
        return cls.from_json(data)


@dataclass
class Step:
    """One replayed move: its index, seat, action, the events it caused and the state after it."""

    index: int
    seat: int
    action: Action
    events: list[Event]
    state: State


class Match:
    """A game in progress with its record, kept in step: ``apply`` records only accepted moves."""

    def __init__(
        self,
        game: str | Game,
        num_players: int,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        self.game = registry.load(game) if isinstance(game, str) else game
        self.state = self.game.start(num_players, seed=seed, options=options)
        self.record = Record(self.game.id, num_players, self.state.seed, dict(self.state.options), [], dict(meta or {}))

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply and record a move (errors propagate and record nothing)."""
        events = self.state.apply(seat, action)
        self.record.moves.append((seat, action.to_json()))
        if self.state.is_over():
            self.record.meta["result"] = self.state.result().to_json()
        return events


def start_state(record: Record) -> tuple[Game, State]:
    """The record's game and its state before the first move."""
    game = registry.load(record.game)
    return game, game.start(record.num_players, seed=record.seed, options=record.options)


def replay_steps(record: Record) -> Iterator[Step]:
    """Replay move by move, yielding each :class:`Step` (the state object is reused: clone to keep)."""
    game, state = start_state(record)
    yield from _steps(game, state, record.moves)


def replay(record: Record, upto: int | None = None) -> State:
    """The exact state after the first ``upto`` moves (all moves by default)."""
    game, state = start_state(record)
    for _ in _steps(game, state, record.moves[:upto]):
        pass
    return state


def _steps(game: Game, state: State, moves: list[tuple[int, dict[str, Any]]]) -> Iterator[Step]:
    for index, (seat, data) in enumerate(moves):
        try:
            action = game.action_from_json(data)
            events = state.apply(seat, action)
        except RobotableError as exc:
            raise BadInput(f"record: move {index} (seat {seat}, {data}) cannot be replayed: {exc}") from None
        yield Step(index, seat, action, events, state)


def replay_views(record: Record, seat: int | None) -> Iterator[dict[str, Any]]:
    """What ``seat`` (``None`` = spectator) saw at each step: its view and the events it could see.

    The first item is the position before any move. Actions of other seats are not shown (a secret
    choice is revealed by the game's own public events when it is revealed).
    """
    _, state = start_state(record)
    yield {"index": 0, "view": state.view(seat), "events": []}
    for step in replay_steps(record):
        events = [e.to_json() for e in visible_events(step.events, seat)]
        yield {"index": step.index + 1, "view": step.state.view(seat), "events": events}
