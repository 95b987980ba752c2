"""TF22: RELOAD! as a Robotable game: static facts, setup and loading states from JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from robotable.core import Action, BadInput, Game, Rng
from robotable.core.actions import decode_value

from .actions import ACTION_TYPES, ACTIONS, action_from_index, action_index
from .components import COLOUR_NAMES, NUM_COLOURS, card
from .observation import OBSERVATION
from .state import GAME_ID, PHASES, Tf22State


class Tf22Reload(Game):
    """TF22: RELOAD! for 2 to 4 players. No options: the rulebook has no variants.

    >>> state = GAME.start(num_players=2, seed=1)
    >>> len(state.legal_actions(0))      # seven numbers and R to take the discards back
    8
    """

    id = GAME_ID
    name = "TF22: RELOAD!"
    min_players = 2
    max_players = 4
    options = ()
    action_types = ACTION_TYPES
    undo_barriers = frozenset({"activate", "reveal", "round_start"})  # new cards shown; choices revealed
    # Capabilities read by the research adapters (interim names until robotable.core declares them).
    simultaneous = True  # the battle choice is secret and simultaneous
    max_game_length = 56  # decision steps: 2 rounds x 14 battles x (choice + load decision)
    observation_encoder = OBSERVATION  # feature planes (observation.py)

    def new_state(self, num_players: int, seed: int, options: dict[str, Any]) -> Tf22State:
        state = Tf22State(num_players, seed, options)
        state.setup()
        return state

    def state_from_json(self, data: object) -> Tf22State:
        """Load a state written by ``to_json`` or by hand (see docs/games/tf22-reload.md)."""
        return _StateReader(self, data).read()

    # The stable integer encoding of :mod:`.actions` (the same for every player count).

    def num_distinct_actions(self, num_players: int, options: Mapping[str, Any] | None = None) -> int:
        """Every action a game can offer has an index below this (see :data:`.actions.ACTIONS`)."""
        return len(ACTIONS)

    def action_index(self, action: Action) -> int:
        """See :func:`.actions.action_index`."""
        return action_index(action)

    def action_from_index(self, index: int) -> Action:
        """See :func:`.actions.action_from_index`."""
        return action_from_index(index)


class _StateReader:
    """Reads a state's JSON field by field, naming the field in every error."""

    def __init__(self, game: Tf22Reload, data: object) -> None:
        if not isinstance(data, Mapping):
            raise BadInput("tf22-reload state: expected a JSON object")
        self.game = game
        self.data = data

    def get(self, key: str, tp: Any) -> Any:
        if key not in self.data:
            raise BadInput(f"tf22-reload state: missing field {key!r}")
        return decode_value(self.data[key], tp, f"tf22-reload state: field {key!r}")

    def colour(self, name: object, where: str) -> int:
        if name not in COLOUR_NAMES:
            raise BadInput(f"tf22-reload state: {where}: unknown colour {name!r} (one of {', '.join(COLOUR_NAMES)})")
        return COLOUR_NAMES.index(name)  # type: ignore[arg-type]

    def cards(self, key: str, raw: Any = None) -> list[int]:
        raw = self.get(key, list[Any]) if raw is None else raw
        out = []
        for i, item in enumerate(raw):
            where = f"{key}[{i}]"
            if not (isinstance(item, list | tuple) and len(item) == 2 and isinstance(item[1], int)):
                raise BadInput(f"tf22-reload state: {where}: a card is [colour, value], got {item!r}")
            if not 0 <= item[1] <= 3:
                raise BadInput(f"tf22-reload state: {where}: card values are 0 to 3, got {item[1]}")
            out.append(card(self.colour(item[0], where), item[1]))
        return out

    def per_seat(self, key: str, n: int) -> list[Any]:
        value = self.get(key, list[Any])
        if len(value) != n:
            raise BadInput(f"tf22-reload state: field {key!r} needs one entry per seat ({n}), got {len(value)}")
        return value

    def read(self) -> Tf22State:
        game_id = self.data.get("game", GAME_ID)
        if game_id != GAME_ID:
            raise BadInput(f"tf22-reload state: this is a state of {game_id!r}")
        n = self.get("num_players", int)
        if not self.game.min_players <= n <= self.game.max_players:
            raise BadInput(f"tf22-reload state: num_players must be 2 to 4, got {n}")
        state = Tf22State(n, self.get("seed", int), {})
        state.rng = Rng.from_json(self.data.get("rng", state.seed))
        state.round = self.get("round", int)
        if state.round not in (1, 2):
            raise BadInput(f"tf22-reload state: round must be 1 or 2, got {state.round}")
        state.battle = self.get("battle", int)
        phase = self.get("phase", str)
        if phase not in PHASES:
            raise BadInput(f"tf22-reload state: phase must be one of {', '.join(PHASES)}, got {phase!r}")
        state.phase = PHASES.index(phase)
        state.deck = self.cards("deck")
        state.revealed = self.cards("revealed")
        activated = self.data.get("activated")
        state.activated = -1 if activated is None else self.colour(activated, "activated")
        state.set_aside = self.cards("set_aside")
        state.cc_piles = [self.cards(f"cc_piles[{s}]", pile) for s, pile in enumerate(self.per_seat("cc_piles", n))]
        state.hands = [
            sorted(decode_value(h, list_of_ints, f"tf22-reload state: hands[{s}]"))
            for s, h in enumerate(self.per_seat("hands", n))
        ]
        state.discards = [
            list(decode_value(d, list_of_ints, f"tf22-reload state: discards[{s}]"))
            for s, d in enumerate(self.per_seat("discards", n))
        ]
        state.ships = [
            [[self.colour(c, f"ships[{s}]") for c in stack] for stack in decode_value(ship, list[Any], f"ships[{s}]")]
            for s, ship in enumerate(self.per_seat("ships", n))
        ]
        state.chips = list(decode_value(self.per_seat("chipcards", n), list_of_ints, "chipcards"))
        state.chip_stock = self.get("chipcard_stock", int)
        stock = self.get("stock", dict[str, Any])
        if set(stock) != set(COLOUR_NAMES):
            raise BadInput(f"tf22-reload state: stock needs a count for each of {', '.join(COLOUR_NAMES)}")
        state.stock = [
            decode_value(stock[COLOUR_NAMES[c]], int, f"stock.{COLOUR_NAMES[c]}") for c in range(NUM_COLOURS)
        ]
        state.choices = [None if c is None else self.game.action_from_json(c) for c in self.per_seat("choices", n)]
        state.winner = self.data.get("winner", -1)
        state.scores = [list(decode_value(s, list_of_ints, "scores")) for s in self.per_seat("scores", n)]
        state.last_battle = self.data.get("last_battle")
        state.round_scores = list(self.data.get("round_scores", []))
        state.check_invariants()
        for seat, choice in enumerate(state.choices):
            if choice is not None and not _legal_choice(state, seat, choice):
                raise BadInput(f"tf22-reload state: seat {seat}'s choice {choice.to_json()} is not legal here")
        return state


list_of_ints = tuple[int, ...]


def _legal_choice(state: Tf22State, seat: int, choice: Action) -> bool:
    saved, state.choices[seat] = state.choices[seat], None
    try:
        return choice in state.legal_actions(seat)
    finally:
        state.choices[seat] = saved


GAME = Tf22Reload()
Tf22State.game = GAME
