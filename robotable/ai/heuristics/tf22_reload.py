"""TF22: RELOAD! knowledge for agents.

The heuristic agent values the battle it is offered, then spends cards in proportion:

- **Value of a battle** = how much my projected score rises if I win it (the two container cards in my CC
  pile, the activated container loaded where it helps most, majorities recomputed) plus half of what the
  best-placed opponent would gain, since a battle I lose is won by someone else.
- **Bidding.** Everyone's hand is public. For each card in hand: the chance it wins and the chance it
  ties if every opponent played any of its cards (or R) at random, then the expected gain = win chance x
  battle value + tie chance x a chipcard's worth - what the card is worth for later battles (0.3 points
  per face value). R to take the discards back scores what it returns (more when the hand is nearly
  empty); R d (three chipcards) scores the rise of my projected score less the chipcards' worth. The
  best choice is played, after up to 1.5 points of noise: it keeps two copies of this agent from
  mirroring each other's bids (which would tie every battle).
- **Loading.** Load where the projected score is highest, keeping yellow-based stacks growing toward the
  four-colour bonus; reload (the bluff) only when it builds a better stack; return only when nothing helps.

``rollout`` is a cheaper policy for search (bid high on good battles, dump low cards on poor ones) and
``evaluate`` turns projected totals into expected rewards.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from robotable.core import Action, Rng, State
from robotable.games.tf22_reload import Load, PlayCard, RBuy, Reload, ReturnContainer, RTakeBack
from robotable.games.tf22_reload.components import COLOUR_NAMES, NEUTRALIZED, NEUTRALIZER, NUM_COLOURS, card
from robotable.games.tf22_reload.rules import bonus, load_slots, score_round

from ..base import Decision


@dataclass
class Table:
    """What every player can see, as plain ints (from a view or from a state)."""

    seat: int
    round: int
    hands: list[list[int]]
    ships: list[list[list[int]]]
    cc_piles: list[list[int]]
    chips: list[int]
    revealed: list[int]
    activated: int
    stock: list[int]
    banked: list[int]

    @classmethod
    def from_view(cls, view: dict, seat: int) -> Table:
        colour = COLOUR_NAMES.index
        players = view["players"]
        return cls(
            seat,
            view["round"],
            [p["hand"] for p in players],
            [[[colour(c) for c in stack] for stack in p["ship"]] for p in players],
            [[card(colour(c), v) for c, v in p["cc_pile"]] for p in players],
            [p["chipcards"] for p in players],
            [card(colour(c), v) for c, v in view["revealed"]],
            colour(view["activated"]) if view["activated"] else -1,
            [view["stock"][c] for c in COLOUR_NAMES],
            [p["scores"]["round_1"] + p["scores"]["round_2"] for p in players],
        )

    @classmethod
    def from_state(cls, state: State, seat: int) -> Table:
        s = state
        return cls(
            seat,
            s.round,
            s.hands,
            s.ships,
            s.cc_piles,
            s.chips,
            s.revealed,
            s.activated,
            s.stock,
            [sc[0] + sc[1] for sc in s.scores],
        )  # type: ignore[attr-defined]


def projected(table: Table) -> list[float]:
    """Each seat's total if the game were scored now (future rounds: containers and full stacks)."""
    now = score_round(table.ships, table.cc_piles)
    out = []
    for seat, part in enumerate(now):
        ship = table.ships[seat]
        future = part["containers"] if table.round == 1 else 0  # containers score again in round 2
        out.append(table.banked[seat] + part["total"] + future + bonus(ship))
    return out


def _structure(ship: list[list[int]]) -> float:
    """Stacks that can still become four-colour stacks (yellow at the bottom), by height."""
    return sum(0.4 * len(stack) for stack in ship if stack and stack[0] == 0 and len(stack) < NUM_COLOURS)


def _gain_if_won(table: Table, seat: int) -> float:
    """How much ``seat``'s projected total rises if it wins the current battle and loads well."""
    before = projected(table)[seat]
    ships = [[st[:] for st in ship] for ship in table.ships]
    piles = [p[:] for p in table.cc_piles]
    piles[seat] = piles[seat] + table.revealed
    best = -math.inf
    options = load_slots(ships[seat], table.activated) if table.activated >= 0 else []
    for slot in options or [None]:
        if slot is not None:
            ships[seat][slot].append(table.activated)
        trial = Table(seat, table.round, table.hands, ships, piles, table.chips, [], -1, table.stock, table.banked)
        best = max(best, projected(trial)[seat] + _structure(ships[seat]))
        if slot is not None:
            ships[seat][slot].pop()
    return best - before - _structure(table.ships[seat])


def battle_value(table: Table) -> float:
    """What winning this battle is worth to me, counting what an opponent would gain instead."""
    me = table.seat
    mine = _gain_if_won(table, me)
    others = [_gain_if_won(table, o) for o in range(len(table.hands)) if o != me]
    return mine + 0.5 * max(others, default=0.0)


def _odds(table: Table, value: int) -> tuple[float, float]:
    """Chances that ``value`` wins, and that it ties, if each opponent plays any card of its hand or R
    with equal probability (hands are public; this ignores ties among the opponents themselves)."""
    win, no_tie = 1.0, 1.0
    for seat, hand in enumerate(table.hands):
        if seat == table.seat:
            continue
        options = len(hand) + 1  # the numbers in hand, and R
        if value == NEUTRALIZED:
            below = sum(1 for v in hand if v < value and v != NEUTRALIZER) + 1
        elif value == NEUTRALIZER:
            below = sum(1 for v in hand if v == NEUTRALIZED) + 1
        else:
            below = sum(1 for v in hand if v < value) + 1
        same = sum(1 for v in hand if v == value)
        win *= below / options
        no_tie *= 1 - same / options
    return win, 1 - no_tie


#: What a card in hand is worth for later battles, in points per face value.
CARD_COST = 0.3
#: What a chipcard is worth, in points.
CHIP_VALUE = 0.6
#: Up to this many points of noise on every choice (measured: 1.5 plays best with copies at one table).
NOISE = 1.5


def _best_buy(table: Table, legal: Sequence[Action]) -> tuple[float, Action | None]:
    me = table.seat
    before = projected(table)[me] + _structure(table.ships[me])
    best: tuple[float, Action | None] = (0.0, None)
    for action in legal:
        if isinstance(action, RBuy):
            ship = table.ships[me]
            ship[action.slot].append(int(action.colour))
            gain = projected(table)[me] + _structure(ship) - before
            ship[action.slot].pop()
            if gain > best[0]:
                best = (gain, action)
    return best


def choose_battle_card(table: Table, legal: Sequence[Action], rng: Rng) -> Action:
    """The battle choice: the card with the best expected gain, or R to refill or buy."""
    hand = sorted(a.value for a in legal if isinstance(a, PlayCard))
    value = battle_value(table)
    best: Action = RTakeBack()
    discards = [v for v in range(1, 8) if v not in hand]
    # R a: sit out, and get the discards back (worth more the emptier the hand is)
    best_score = CARD_COST * sum(discards) * (0.5 if len(hand) <= 2 else 0.1) + NOISE * rng.random()
    if table.chips[table.seat] >= 3:
        buy_gain, buy = _best_buy(table, legal)
        if buy is not None and buy_gain - 3 * CHIP_VALUE > best_score:
            best, best_score = buy, buy_gain - 3 * CHIP_VALUE
    for v in hand:
        win, tie = _odds(table, v)
        score = win * value + tie * CHIP_VALUE - CARD_COST * v + NOISE * rng.random()
        if score > best_score:
            best, best_score = PlayCard(v), score
    return best


def choose_load(table: Table, legal: Sequence[Action]) -> Action:
    """After a win: the load, reload or return that leaves the best projected score and stacks."""
    me = table.seat
    ship = table.ships[me]
    best_action: Action = ReturnContainer()
    best = projected(table)[me] + _structure(ship)
    for action in legal:
        if isinstance(action, Load):
            ship[action.slot].append(table.activated)
            score = projected(table)[me] + _structure(ship) + 0.01
            ship[action.slot].pop()
        elif isinstance(action, Reload):
            moved = ship[action.from_slot].pop()
            ship[action.to_slot].append(moved)
            score = projected(table)[me] + _structure(ship)
            ship[action.to_slot].pop()
            ship[action.from_slot].append(moved)
        else:
            continue
        if score > best:
            best, best_action = score, action
    return best_action


def choose(decision: Decision, rng: Rng) -> Action:
    """The heuristic agent's choice, from the seat's view and its legal actions only."""
    view = decision.view
    table = Table.from_view(view, decision.seat)
    table.ships = [[st[:] for st in ship] for ship in table.ships]
    if view["phase"] == "load":
        return choose_load(table, decision.legal)
    return choose_battle_card(table, decision.legal, rng)


def model(state: State, seat: int, legal: Sequence[Action], rng: Rng) -> Action:
    """The heuristic's choice read straight off a (determinized) state: how search expects others to play."""
    table = Table.from_state(state, seat)
    table.ships = [[st[:] for st in ship] for ship in table.ships]
    if state.phase == 1:  # type: ignore[attr-defined]
        return choose_load(table, legal)
    return choose_battle_card(table, legal, rng)


def rollout(state: State, seat: int, legal: Sequence[Action], rng: Rng) -> Action:
    """A cheap policy for search rollouts: high cards on valuable battles, low ones otherwise."""
    if state.phase == 1:  # type: ignore[attr-defined]  (the load decision)
        for action in legal:
            if isinstance(action, Load):
                return action
        return legal[-1]
    hand = state.hands[seat]  # type: ignore[attr-defined]
    if not hand or (len(hand) <= 2 and rng.randrange(2)):
        return RTakeBack()
    revealed = state.revealed  # type: ignore[attr-defined]
    worth = (revealed[0] & 3) + (revealed[1] & 3) + (state.activated >= 0)  # type: ignore[attr-defined]
    if rng.randrange(4) == 0:
        return PlayCard(hand[rng.randrange(len(hand))])
    if worth >= 4:
        return PlayCard(hand[-1])
    return PlayCard(hand[0] if worth <= 2 else hand[len(hand) // 2])


def evaluate(state: State) -> list[float]:
    """Expected rewards from projected totals: a soft pairwise comparison (3 points ~ a clear edge)."""
    totals = projected(Table.from_state(state, 0))
    n = len(totals)
    return [
        sum(1.0 / (1.0 + math.exp((totals[o] - totals[s]) / 3.0)) for o in range(n) if o != s) / (n - 1)
        for s in range(n)
    ]
