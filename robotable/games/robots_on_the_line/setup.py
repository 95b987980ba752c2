"""Setting up the game (the rulebook's "Setting Up the Game", steps 1 to 7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .components import (
    BONUS_TILES,
    BUYERS,
    BUYERS_IN_PLAY,
    CATALOGUE,
    HUNTER_KINDS,
    JUNK_START,
    LINES,
    MAGNETS,
    PARTS,
    REQUIREMENTS,
    SECTIONS,
    SPACES,
    START_MONEY,
    START_PARTS,
    TORSOS,
    Requirement,
)

if TYPE_CHECKING:
    from .state import RotlState

CONTRADICTIONS = "a second eye limit, a second two-heads, or one eye with two heads"


def contradicts(tile: Requirement, others: Sequence[Requirement]) -> bool:
    """Whether ``tile`` contradicts requirement tiles already on a buyer (it is then redrawn).

    >>> from robotable.games.robots_on_the_line.components import REQUIREMENTS as R
    >>> by_id = {r.id: r for r in R}
    >>> contradicts(by_id["req-17"], [by_id["req-01"]]), contradicts(by_id["req-05"], [by_id["req-03"]])
    (True, True)
    >>> contradicts(by_id["req-17"], [by_id["req-05"]])
    False
    """
    kinds = [o.kind for o in others]
    if tile.kind == "eyes":
        return "eyes" in kinds or (tile.eyes == 1 and "two_heads" in kinds)
    if tile.kind == "two_heads":
        return "two_heads" in kinds or any(o.kind == "eyes" and o.eyes == 1 for o in others)
    return False


def impossible(tile: Requirement, options: Mapping[str, Any]) -> bool:
    """Whether the options make a requirement tile impossible to meet ("if tiles contradict each other,
    simply replace them with another"): in family mode the magnets stay in the box, so nobody can hand
    a buyer two magnets. Such tiles stay in the box too.

    >>> from robotable.games.robots_on_the_line.components import REQUIREMENTS as R
    >>> [r.id for r in R if impossible(r, {"family": True})], [r.id for r in R if impossible(r, {"family": False})]
    (['req-18'], [])
    """
    return tile.kind == "magnets" and bool(options["family"])


def setup(s: RotlState) -> None:
    """Set up the table: lines, piles, maintenance tiles, torsos, buyers, the Bargain Hunter, players."""
    opts = s.options
    parts = list(range(len(PARTS)))
    if opts["family"]:
        s.boxed = sorted(MAGNETS)
        parts = [p for p in parts if p not in MAGNETS]
    s.rng.shuffle(parts)
    half = len(parts) // 2
    s.draw = [parts[:half], parts[half:]]
    for line in range(LINES):
        for _ in range(JUNK_START):
            s.junk[line].append(s.draw[line].pop())
    deal_players(s)
    for line in range(LINES):
        for space in range(SPACES, 0, -1):
            if s.draw[line]:
                s.lines[line][space - 1] = s.draw[line].pop()
    if opts["family"]:
        s.switches = [[True] * len(SECTIONS) for _ in range(LINES)]
    else:
        counts = {"line_reset": opts["line_resets"], "switch_flip": opts["switch_flips"]}
        for tile in CATALOGUE["maintenance_tiles"]:
            if counts.get(tile["kind"], 0) > 0:
                counts[tile["kind"]] -= 1
                s.maint.append(tile["kind"])
        s.rng.shuffle(s.maint)
    s.torso_pile = list(range(len(TORSOS)))
    s.rng.shuffle(s.torso_pile)
    deal_buyers(s)
    s.featured = s.rng.choice(HUNTER_KINDS)


def deal_players(s: RotlState) -> None:
    """$5 and five parts each, never a magnet (a dealt magnet goes back into the pile at random)."""
    dealt = 0
    for seat in range(s.num_players):
        s.pay_from_bank(seat, START_MONEY)
        for _ in range(START_PARTS):
            pile = s.draw[dealt % LINES]
            if all(p in MAGNETS for p in pile):
                pile = s.draw[(dealt + 1) % LINES]
            dealt += 1
            part = pile.pop()
            while part in MAGNETS:
                pile.insert(s.rng.randrange(len(pile) + 1), part)
                part = pile.pop()
            s.hands[seat].append(part)
        s.hands[seat].sort()
        s.secret[seat] = list(s.hands[seat])


def deal_buyers(s: RotlState) -> None:
    """Buyers at random; requirement tiles (contradictions redrawn, impossible ones left in the box) and
    bonus tiles at random."""
    rng = s.rng
    chosen = list(range(len(BUYERS)))
    rng.shuffle(chosen)
    s.buyers = sorted(chosen[: BUYERS_IN_PLAY[s.num_players]])
    reqs = [r for r in range(len(REQUIREMENTS)) if not impossible(REQUIREMENTS[r], s.options)]
    rng.shuffle(reqs)
    bonus = list(range(len(BONUS_TILES)))
    rng.shuffle(bonus)
    for b in s.buyers:
        buyer = BUYERS[b]
        mine: list[int] = []
        aside: list[int] = []
        while len(mine) < buyer.requirement_slots and reqs:
            tile = reqs.pop()
            if contradicts(REQUIREMENTS[tile], [REQUIREMENTS[t] for t in mine]):
                aside.append(tile)
            else:
                mine.append(tile)
        reqs[:0] = aside  # redrawn tiles go back under the pile
        s.buyer_reqs.append(mine)
        if s.options["family"]:
            s.buyer_bonus.append([])
        else:
            s.buyer_bonus.append([bonus.pop() for _ in range(min(buyer.bonus_slots, len(bonus)))])
        money = buyer.robots * buyer.pay
        s.bank -= money
        s.buyer_money.append(money)
