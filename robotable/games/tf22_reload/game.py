"""TF22: RELOAD! as a Robotable game: static facts, setup and loading states from JSON."""

from __future__ import annotations

from typing import Any

from robotable.core import Action, ActionEncoding, BadInput, BadOptions, Game, Option, Rng
from robotable.core.state_json import StateReader

from .actions import ACTION_TYPES, ACTIONS, action_from_index, action_index
from .chance import DEAL, DRAWS
from .components import BATTLES_PER_ROUND, COLOUR_NAMES, card
from .observation import OBSERVATION
from .state import GAME_ID, PHASES, Tf22State


class Tf22Reload(Game):
    """TF22: RELOAD! for 2 to 4 players. One option, ``strict_moves``: a reading of the moving rule, not a
    variant (see docs/games/tf22-reload.md). It is on by default (the rulebook's literal words, issue 27);
    ``{"strict_moves": false}`` is the looser reading, which was the default before.

    >>> state = GAME.start(num_players=2, seed=1)
    >>> len(state.legal_actions(0))      # seven numbers and R to take the discards back
    8
    """

    id = GAME_ID
    name = "TF22: RELOAD!"
    min_players = 2
    max_players = 4
    options = (
        Option(
            "strict_moves",
            True,
            "A moved container (bluff reload, R c) goes only onto the top of another stack, never onto an empty"
            " slot, as the rulebook says; off, it may also go onto an empty slot (the looser reading)",
        ),
    )
    option_sets = ({}, {"strict_moves": False})
    action_types = ACTION_TYPES
    # the stable integer encoding of .actions, the same for every player count
    action_encoding = ActionEncoding(len(ACTIONS), action_index, action_from_index)
    undo_barriers = frozenset({"activate", "reveal", "round_start"})  # new cards shown; choices revealed
    simultaneous = True  # everyone chooses a card in secret, then all are revealed
    max_game_length = 56  # 2 rounds x 14 battles, each a simultaneous choice and at most one load decision
    observation_encoder = OBSERVATION  # feature planes for the research adapters (observation.py)
    chance_draws = DRAWS  # the hidden container cards, as chance nodes for research (chance.py)
    chance_deal = DEAL  # the first battle's two cards, as draws (chance.py)
    hooks = {
        "heuristics": "robotable.ai.heuristics.tf22_reload",
        "terminal": "robotable.terminal.tf22_reload",
        "web_data": "robotable.games.tf22_reload",
        "tutorial": "robotable.games.tf22_reload.tutorial",
    }

    def new_state(self, num_players: int, seed: int, options: dict[str, Any]) -> Tf22State:
        state = Tf22State(num_players, seed, options)
        state.setup()
        return state

    def state_from_json(self, data: object) -> Tf22State:
        """Load a state written by ``to_json`` or by hand (see docs/games/tf22-reload.md)."""
        return _StateReader(self, data).read()


class _StateReader(StateReader):
    """Reads a state's JSON with the core reader's policy: every field required, each error naming it."""

    def __init__(self, game: Tf22Reload, data: object) -> None:
        super().__init__(GAME_ID, data)
        self.tf22 = game

    def colour(self, name: object, where: str) -> int:
        return self.name(name, COLOUR_INDEX, where, "colour")

    def cards(self, key: str, raw: list[Any] | None = None, where: str | None = None) -> list[int]:
        raw = self.list(key) if raw is None else raw
        out = []
        for i, item in enumerate(raw):
            at = f"{where or key}[{i}]"
            if not (isinstance(item, list | tuple) and len(item) == 2 and type(item[1]) is int):
                raise self.fail(at, f"a card is [colour, value], got {item!r}")
            if not 0 <= item[1] <= 3:
                raise self.fail(at, f"card values are 0 to 3, got {item[1]}")
            out.append(card(self.colour(item[0], f"{at}[0]"), item[1]))
        return out

    def read(self) -> Tf22State:
        self.game(GAME_ID)
        n = self.int("num_players", self.tf22.min_players, self.tf22.max_players)
        try:
            options = self.tf22.check_options(self.field("options", dict[str, Any]), n)
        except BadOptions as exc:
            raise self.fail("options", str(exc)) from None
        state = Tf22State(n, self.int("seed", 0), options)
        state.rng = Rng.from_json(self.field("rng", int))
        state.round = self.choice("round", (1, 2))
        state.battle = self.int("battle", 0, BATTLES_PER_ROUND)
        state.phase = PHASES.index(self.choice("phase", PHASES))
        state.deck = self.cards("deck")
        state.revealed = self.cards("revealed")
        activated = self.field("activated", str | None)
        state.activated = -1 if activated is None else self.colour(activated, "activated")
        state.set_aside = self.cards("set_aside")
        piles = self.per_seat("cc_piles", n, list[Any])
        state.cc_piles = [self.cards("cc_piles", pile, f"cc_piles[{s}]") for s, pile in enumerate(piles)]
        state.hands = [sorted(h) for h in self.per_seat("hands", n, list[int])]
        state.discards = self.per_seat("discards", n, list[int])
        state.ships = [
            [[self.colour(c, f"ships[{s}][{i}]") for c in stack] for i, stack in enumerate(ship)]
            for s, ship in enumerate(self.per_seat("ships", n, list[list[Any]]))
        ]
        state.chips = self.per_seat("chipcards", n, int)
        state.chip_stock = self.int("chipcard_stock")
        stock = self.field("stock", dict[str, int])
        if set(stock) != set(COLOUR_NAMES):
            raise self.fail("stock", f"needs a count for each of {', '.join(COLOUR_NAMES)}, got {sorted(stock)}")
        state.stock = [stock[name] for name in COLOUR_NAMES]
        state.choices = [None if c is None else self._choice(c, s) for s, c in enumerate(self.per_seat("choices", n))]
        state.winner = self.int("winner", -1, n - 1)
        state.scores = self.per_seat("scores", n, list[int])
        state.last_battle = self.field("last_battle", dict[str, Any] | None)
        state.round_scores = self.field("round_scores", list[Any])
        try:
            state.check_invariants()
        except BadInput as exc:
            raise self.fail_state(str(exc).removeprefix(f"{GAME_ID} state: ")) from None
        for seat, choice in enumerate(state.choices):
            if choice is not None and not _legal_choice(state, seat, choice):
                raise self.fail(f"choices[{seat}]", f"{choice.to_json()} is not a legal choice here")
        return state

    def _choice(self, data: object, seat: int) -> Action:
        try:
            return self.tf22.action_from_json(data)
        except BadInput as exc:
            raise self.fail(f"choices[{seat}]", str(exc)) from None


COLOUR_INDEX = {name: i for i, name in enumerate(COLOUR_NAMES)}


def _legal_choice(state: Tf22State, seat: int, choice: Action) -> bool:
    saved, state.choices[seat] = state.choices[seat], None
    try:
        return choice in state.legal_actions(seat)
    finally:
        state.choices[seat] = saved


GAME = Tf22Reload()
Tf22State.game = GAME
