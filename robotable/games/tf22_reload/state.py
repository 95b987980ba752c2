"""The state of a game of TF22: RELOAD!: everything that changes, in plain ints and lists.

The rules it follows live one module each: :mod:`.choices` (what a seat may choose), :mod:`.battle`
(activation, the reveal, R uses, ties), :mod:`.loading` (the winner's load decision), :mod:`.rounds`
(battles to the end of a round, scoring, round 2), :mod:`.view`, :mod:`.serialize`, :mod:`.invariants`
and :mod:`.refusals`.
"""

from __future__ import annotations

from typing import Any

from robotable.core import Action, BadInput, Event, IllegalAction, Result, Rng, State

from . import battle, choices, invariants, loading, refusals, rounds, rules, serialize, view
from .choices import action_json
from .components import (
    CARDS_PER_BATTLE,
    CHIPCARDS,
    CONTAINERS_PER_COLOUR,
    NUM_COLOURS,
    RCU_VALUES,
    SLOTS_BY_PLAYERS,
)
from .phases import CHOOSE, GAME_ID, LOAD, OVER, PHASES
from .refusals import action_name

__all__ = ["CHOOSE", "GAME_ID", "LOAD", "OVER", "PHASES", "Tf22State", "action_json", "action_name"]


class Tf22State(State):
    """A game of TF22: RELOAD! in progress.

    Seat 0 is the first player: R uses resolve and chipcards are handed out in seat order from it.
    """

    __slots__ = (
        "activated",
        "battle",
        "cc_piles",
        "chip_stock",
        "chips",
        "choices",
        "deck",
        "discards",
        "hands",
        "last_battle",
        "num_players",
        "options",
        "phase",
        "revealed",
        "rng",
        "round",
        "round_scores",
        "scores",
        "seed",
        "set_aside",
        "ships",
        "stock",
        "winner",
    )

    def __init__(self, num_players: int, seed: int, options: dict[str, Any]) -> None:
        self.num_players = num_players
        self.seed = seed
        self.options = options
        self.rng = Rng(seed)
        self.round = 1
        self.battle = 0  # battles begun this round
        self.deck: list[int] = []  # face down; the top card is the last one
        self.revealed: list[int] = []
        self.activated = -1  # colour of the activated container, -1 if the stock had none
        self.set_aside: list[int] = []
        self.cc_piles: list[list[int]] = [[] for _ in range(num_players)]
        self.hands: list[list[int]] = [list(RCU_VALUES) for _ in range(num_players)]
        self.discards: list[list[int]] = [[] for _ in range(num_players)]
        slots = SLOTS_BY_PLAYERS[num_players]
        self.ships: list[list[list[int]]] = [[[] for _ in range(slots)] for _ in range(num_players)]
        self.chips = [0] * num_players
        self.chip_stock = CHIPCARDS
        self.stock = [CONTAINERS_PER_COLOUR] * NUM_COLOURS
        self.choices: list[Action | None] = [None] * num_players
        self.phase = CHOOSE
        self.winner = -1  # the seat deciding where the won container goes
        self.scores = [[0, 0, 0] for _ in range(num_players)]  # round 1, round 2, bonus
        self.last_battle: dict[str, Any] | None = None
        self.round_scores: list[list[rules.SeatScore]] = []

    # -- the contract ---------------------------------------------------------------------------

    def to_act(self) -> list[int]:
        if self.phase == CHOOSE:
            return [p for p, choice in enumerate(self.choices) if choice is None]
        if self.phase == LOAD:
            return [self.winner]
        return []

    def legal_actions(self, player: int) -> list[Action]:
        if self.phase == CHOOSE:
            return choices.battle_choices(self, player) if self.choices[player] is None else []
        if self.phase == LOAD and player == self.winner:
            return choices.load_decisions(self, player)
        return []

    def is_legal(self, player: int, action: Action) -> bool:
        """Same answer as ``action in legal_actions(player)``, without building the list."""
        if self.phase == CHOOSE:
            return self.choices[player] is None and choices.is_battle_choice(self, player, action)
        if self.phase == LOAD and player == self.winner:
            return choices.is_load_decision(self, player, action)
        return False

    def why_illegal(self, player: int, action: Action) -> str:
        """Why ``action`` is refused, as a coded ``Reason`` (docs/i18n.md): actions, colours and cards named as
        the table names them."""
        return refusals.why_illegal(self, player, action)

    def apply_legal(self, player: int, action: Action) -> list[Event]:
        events: list[Event] = []
        if self.phase == CHOOSE:
            self.choices[player] = action
            events.append(Event("chose", {"seat": player}))
            events.append(Event("your_choice", {"seat": player, "choice": action_json(action)}, (player,)))
            if None not in self.choices:
                battle.resolve_battle(self, events)
        else:
            loading.decide_load(self, player, action, events)
        return events

    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> Result:
        if self.phase != OVER:
            raise IllegalAction("the game is not over")
        totals = [sum(s) for s in self.scores]
        # Highest total; then most chipcards; then fewest bonus points; then the victory is shared.
        keys = [(totals[p], self.chips[p], -self.scores[p][2]) for p in range(self.num_players)]
        details = {
            "round_1": [s[0] for s in self.scores],
            "round_2": [s[1] for s in self.scores],
            "bonus": [s[2] for s in self.scores],
            "chipcards": list(self.chips),
            "tie_breaks": "total, then most chipcards, then fewest bonus points",
        }
        return Result.from_keys(totals, keys, "end of round 2", details)

    def battle_colour(self) -> int:
        """The colour the two revealed container cards activate (-1 between battles)."""
        if len(self.revealed) < CARDS_PER_BATTLE:
            return -1
        return rules.activated_colour(self.revealed[0], self.revealed[1])

    def setup(self) -> list[Event]:
        """Shuffle the container cards and reveal the first two (called once, by the game)."""
        return rounds.setup(self)

    # -- copies, views and JSON -------------------------------------------------------------------

    def clone(self) -> Tf22State:
        new = Tf22State.__new__(Tf22State)
        new.num_players = self.num_players
        new.seed = self.seed
        new.options = self.options
        new.rng = Rng(self.rng.state)
        new.round = self.round
        new.battle = self.battle
        new.deck = self.deck[:]
        new.revealed = self.revealed[:]
        new.activated = self.activated
        new.set_aside = self.set_aside[:]
        new.cc_piles = [p[:] for p in self.cc_piles]
        new.hands = [h[:] for h in self.hands]
        new.discards = [d[:] for d in self.discards]
        new.ships = [[s[:] for s in ship] for ship in self.ships]
        new.chips = self.chips[:]
        new.chip_stock = self.chip_stock
        new.stock = self.stock[:]
        new.choices = self.choices[:]
        new.phase = self.phase
        new.winner = self.winner
        new.scores = [s[:] for s in self.scores]
        new.last_battle = self.last_battle  # never mutated, only replaced
        new.round_scores = self.round_scores  # never mutated, only replaced
        return new

    def determinize(self, player: int | None, rng: Rng) -> Tf22State:
        """Shuffle the unseen container cards; resample other seats' unrevealed choices.

        The sample depends only on what ``player`` knows and on ``rng``: the stack is sorted before it is
        shuffled, and the state's own generator (which fixes future shuffles) and seed are replaced.
        """
        new = self.clone()
        new.seed = 0
        new.deck.sort()
        rng.shuffle(new.deck)
        new.rng = rng.fork()
        if new.phase == CHOOSE:
            for seat in range(new.num_players):
                if seat != player and new.choices[seat] is not None:
                    new.choices[seat] = None
                    options = choices.battle_choices(new, seat)
                    new.choices[seat] = options[rng.randrange(len(options))]
        return new

    def reopen_choices(self, player: int) -> None:
        if self.phase == CHOOSE:
            self.choices = [c if seat == player else None for seat, c in enumerate(self.choices)]

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` sees: everything on the table but the stack order and others' choices."""
        return view.view(self, player)

    def to_json(self) -> dict[str, Any]:
        return serialize.to_json(self)

    def check_invariants(self) -> None:
        """Raise :class:`BadInput` if a component is not conserved or a rule is broken."""
        for problem in invariants.problems(self):
            raise BadInput(f"tf22-reload state: {problem}")
