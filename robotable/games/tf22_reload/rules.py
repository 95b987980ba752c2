"""The rules of TF22: RELOAD! as pure functions on plain data.

Ships are lists of slots, each slot a stack of colour ints, bottom first.

>>> activated_colour(card(Colour.GREEN, 0), card(Colour.RED, 2)) == Colour.GREEN   # Activate, example 1
True
>>> battle({0: 7, 1: 1, 2: 4}).winner    # Battle, example a: the 1 neutralizes the 7, 4 beats 1
2
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from .components import (
    BEATS,
    FULL_STACK_BONUS,
    NEUTRALIZED,
    NEUTRALIZER,
    NUM_COLOURS,
    Colour,  # noqa: F401  (used by the doctest)
    card,  # noqa: F401  (used by the doctest)
    card_colour,
    card_value,
)

Ship = list[list[int]]


# -- Activate a container -------------------------------------------------------------------------


def activated_colour(card_a: int, card_b: int) -> int:
    """The battle-winning colour of two revealed container cards (same colour: that colour)."""
    a, b = card_colour(card_a), card_colour(card_b)
    return b if BEATS[b][a] else a


# -- Battle ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BattleOutcome:
    """Who won (``None`` for an absolute tie), who tied (one chipcard each) and who was neutralized."""

    winner: int | None
    tied: tuple[int, ...]
    neutralized: tuple[int, ...]


def battle(plays: Mapping[int, int]) -> BattleOutcome:
    """Resolve a battle from the numeric cards played (seat -> value); players of R take no part.

    The rulebook's order: (a) two or more 1s tie; otherwise (b) a single 1 neutralizes every 7;
    (c) every value played twice or more ties; the highest remaining value wins.
    """
    return _battle(tuple(plays.items()))


@functools.lru_cache(maxsize=8192)
def _battle(items: tuple[tuple[int, int], ...]) -> BattleOutcome:
    """:func:`battle` of ``plays.items()`` (outcomes are values: every battle with the same plays shares one)."""
    plays = dict(items)
    ones = [seat for seat, v in plays.items() if v == NEUTRALIZER]
    remaining = dict(plays)
    tied: list[int] = []
    neutralized: list[int] = []
    if len(ones) >= 2:
        tied += ones
        for seat in ones:
            del remaining[seat]
    elif len(ones) == 1:
        neutralized = [seat for seat, v in plays.items() if v == NEUTRALIZED]
        for seat in neutralized:
            del remaining[seat]
    counts: dict[int, int] = {}
    for v in remaining.values():
        counts[v] = counts.get(v, 0) + 1
    for seat, v in list(remaining.items()):
        if counts[v] >= 2:
            tied.append(seat)
            del remaining[seat]
    winner = max(remaining, key=remaining.__getitem__) if remaining else None
    return BattleOutcome(winner, tuple(sorted(tied)), tuple(sorted(neutralized)))


# -- Load -----------------------------------------------------------------------------------------


def can_stack(stack: Sequence[int], colour: int) -> bool:
    """A container goes on an empty slot or on a strictly lower colour (never two of one colour)."""
    return not stack or stack[-1] < colour


def load_slots(ship: Ship, colour: int) -> list[int]:
    """The slots a ``colour`` container may be loaded on."""
    return [i for i, stack in enumerate(ship) if can_stack(stack, colour)]


def reload_moves(ship: Ship, colour: int | None = None, strict: bool = True) -> list[tuple[int, int]]:
    """Moves of a top container (of ``colour``, or any) to another slot that the loading rule allows.

    ``strict`` (the ``strict_moves`` option, on by default) reads "only from the top of a stack to the top
    of another stack!" literally: a moved container never goes onto an empty slot. ``strict=False`` is the
    looser reading, which lets it go wherever the loading rule allows.

    >>> reload_moves([[0], [], [1]], strict=False), reload_moves([[0], [], [1]])
    ([(0, 1), (2, 0), (2, 1)], [(2, 0)])
    """
    moves = []
    for src, stack in enumerate(ship):
        if not stack or (colour is not None and stack[-1] != colour):
            continue
        top = stack[-1]
        for dst, other in enumerate(ship):
            if dst != src and can_stack(other, top) and not (strict and not other):
                moves.append((src, dst))
    return moves


def can_move(ship: Ship, src: int, dst: int, colour: int | None = None, strict: bool = True) -> bool:
    """Whether ``(src, dst)`` is one of :func:`reload_moves` (slots out of range are not).

    >>> can_move([[0], [], [1]], 2, 0), can_move([[0], [], [1]], 0, 1), can_move([[0]], 0, 5, strict=False)
    (True, False, False)
    """
    n = len(ship)
    if not (0 <= src < n and 0 <= dst < n) or src == dst or not ship[src]:
        return False
    top, other = ship[src][-1], ship[dst]
    return (colour is None or top == colour) and can_stack(other, top) and not (strict and not other)


# -- Points ---------------------------------------------------------------------------------------


def colour_counts(ship: Ship) -> list[int]:
    """How many containers of each colour a ship carries."""
    counts = [0] * NUM_COLOURS
    for stack in ship:
        for colour in stack:
            counts[colour] += 1
    return counts


def full_stacks(ship: Ship) -> int:
    """Complete stacks of four different colours (worth the bonus at the end of the game)."""
    return sum(1 for stack in ship if len(stack) == NUM_COLOURS)


class ColourScore(TypedDict):
    """One colour of a seat's round score: its standing, the face values in the CC pile, the points."""

    standing: str
    cards: int
    points: int


class SeatScore(TypedDict):
    """One seat's round score: the colours, the loaded containers and the total."""

    colours: list[ColourScore]
    containers: int
    total: int


def score_round(ships: Sequence[Ship], cc_piles: Sequence[Sequence[int]]) -> list[SeatScore]:
    """Each player's points for a round, with the breakdown per colour.

    Per colour: strictly the most containers scores the face values of that colour's cards in the CC
    pile; any other player with at least one container of the colour scores half, rounded down; none
    of the colour scores nothing. Plus 1 per loaded container.
    """
    counts = [colour_counts(ship) for ship in ships]
    out: list[SeatScore] = []
    for seat, pile in enumerate(cc_piles):
        faces = [0] * NUM_COLOURS
        for c in pile:
            faces[card_colour(c)] += card_value(c)
        per_colour: list[ColourScore] = []
        for colour in range(NUM_COLOURS):
            mine = counts[seat][colour]
            best_other = max((counts[o][colour] for o in range(len(ships)) if o != seat), default=0)
            if mine == 0:
                standing, points = "none", 0
            elif mine > best_other:
                standing, points = "majority", faces[colour]
            else:
                standing, points = ("tie" if mine == best_other else "minority"), faces[colour] // 2
            per_colour.append({"standing": standing, "cards": faces[colour], "points": points})
        containers = sum(counts[seat])
        total = sum(p["points"] for p in per_colour) + containers
        out.append({"colours": per_colour, "containers": containers, "total": total})
    return out


def bonus(ship: Ship) -> int:
    """End-of-game bonus: 3 points per complete four-colour stack."""
    return FULL_STACK_BONUS * full_stacks(ship)
