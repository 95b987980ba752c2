"""The invariants of a sound state (checked when a state is read from JSON, and by the tests)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from . import trade
from .components import (
    BANK,
    BONUS_TILES,
    BUYERS_IN_PLAY,
    JUNK_TRADES,
    LINES,
    MAGNETS,
    NEW_TILES_AFTER_SALE,
    PARTS,
    REQUIREMENTS,
    ROBOTS_TO_END,
    SECTIONS,
    SPACES,
    TORSOS,
)
from .line import EMPTY
from .phases import PICK
from .setup import impossible

if TYPE_CHECKING:
    from .state import RotlState


def problems(s: RotlState) -> Iterator[str]:
    """Every broken invariant in players' words."""
    yield from _conservation(s)
    yield from _hands(s)
    yield from _table(s)
    yield from _turn(s)
    yield from _offers(s)
    yield from _buyers(s)


def _every_part(s: RotlState) -> list[int]:
    """The parts in the draw piles, on the lines, in the junk piles and hands, out of the game and boxed."""
    return (
        [x for pile in s.draw for x in pile]
        + [x for line in s.lines for x in line if x != EMPTY]
        + [x for pile in s.junk for x in pile]
        + [x for hand in s.hands for x in hand]
        + s.gone
        + s.boxed
    )


def _conservation(s: RotlState) -> Iterator[str]:
    everywhere = _every_part(s)
    if sorted(everywhere) != list(range(len(PARTS))):
        yield f"the {len(PARTS)} parts are not all there exactly once ({len(everywhere)} found)"
    torsos = s.torso_pile + [t for t in s.torso if t >= 0] + s.gone_torsos
    if sorted(torsos) != list(range(len(TORSOS))):
        yield f"the {len(TORSOS)} torsos are not all there exactly once ({len(torsos)} found)"
    total = s.bank + sum(s.money) + sum(s.buyer_money)
    if total != BANK:
        yield f"money: bank, players and buyers add up to ${total}, not ${BANK}"
    if min(s.money, default=0) < 0 or min(s.buyer_money, default=0) < 0:
        yield "no player or buyer can hold negative money"


def _hands(s: RotlState) -> Iterator[str]:
    for seat in range(s.num_players):
        if s.hands[seat] != sorted(s.hands[seat]):
            yield f"seat {seat}'s hand is not sorted"
        if not set(s.secret[seat]) <= set(s.hands[seat]):
            yield f"seat {seat}'s unseen parts are not in their hand"
        if any(x in MAGNETS for x in s.secret[seat]):
            yield f"seat {seat}'s unseen parts include a magnet, but dealt parts never are magnets"
    for seat in range(s.num_players):
        if not 0 <= s.robots[seat] <= ROBOTS_TO_END:
            yield f"seat {seat} has sold {s.robots[seat]} robots; 0 to {ROBOTS_TO_END} can be"
        if sum(sale["seat"] == seat for sale in s.sales) > s.robots[seat]:
            # (fewer is fine: a written position may say robots were sold without drawing them)
            yield f"seat {seat} has more sales listed than robots sold"


def _table(s: RotlState) -> Iterator[str]:
    n = s.num_players
    if not s.options["on_off_variant"]:
        on = sum(on for line in s.switches for on in line)
        default = LINES * sum(on for _, on in SECTIONS)
        if on != (LINES * len(SECTIONS) if s.options["family"] else default):
            yield f"{on} switches are ON; without the ON/OFF house rule {default} are (all in family mode)"
    if any(len(line) != SPACES for line in s.lines):
        yield f"each line has {SPACES} spaces"
    if len(s.buyers) != BUYERS_IN_PLAY[n]:
        yield f"{n} players play with {BUYERS_IN_PLAY[n]} buyers, not {len(s.buyers)}"
    if s.options["family"]:
        tiles: dict[str, int] = {}
    else:
        tiles = {"line_reset": s.options["line_resets"], "switch_flip": s.options["switch_flips"]}
    for kind in set(tiles) | set(s.maint) | set(s.maint_discard):
        if s.maint.count(kind) + s.maint_discard.count(kind) != tiles.get(kind, 0):
            yield f"the game has {tiles.get(kind, 0)} {kind} maintenance tiles (stack and discard)"


def _turn(s: RotlState) -> Iterator[str]:
    if not 0 <= s.junk_trades <= JUNK_TRADES:
        yield f"0 to {JUNK_TRADES} junk trades per turn"
    if s.turn_number < 1:
        yield "turns are numbered from 1"
    if not 0 <= s.picks <= NEW_TILES_AFTER_SALE:
        yield f"0 to {NEW_TILES_AFTER_SALE} tiles are left to pick"
    if s.picks and not s.options["three_new_tiles"]:
        yield "tiles are picked after a sale only with the 'three new tiles' house rule"
    if not 0 <= s.turn < s.num_players:
        yield f"turn must be a seat from 0 to {s.num_players - 1}"
    if s.phase == PICK and s.picks <= 0:
        yield "picking tiles from the junk piles with none left to pick"


def _offers(s: RotlState) -> Iterator[str]:
    n = s.num_players
    for a, b in s.offered:
        if a not in range(n) or b not in range(n) or a == b:
            yield f"offers made this turn must name two different seats, got {(a, b)}"
    numbers = [o.number for o in s.offers]
    if len(set(numbers)) != len(numbers) or any(not 0 < k < s.next_offer for k in numbers):
        yield "offers need distinct numbers below next_offer"
    for o in s.offers:
        yield from _open_offer(s, o)


def _open_offer(s: RotlState, o: trade.OpenOffer) -> Iterator[str]:
    if not trade.feasible(s, o):
        yield f"offer {o.number} can no longer be carried out"
    if o.give_money < 0 or o.take_money < 0:
        yield f"offer {o.number} has negative money"
    if set(o.give) & set(s.secret[o.giver]) or set(o.take) & set(s.secret[o.taker]):
        yield f"offer {o.number} names a part nobody has seen"


def _buyers(s: RotlState) -> Iterator[str]:
    for slot, reqs in enumerate(s.buyer_reqs):
        for r in reqs:
            if impossible(REQUIREMENTS[r], s.options):
                yield f"requirement tile {REQUIREMENTS[r].id} cannot be met with these options (buyer slot {slot})"
    for r in range(len(REQUIREMENTS)):
        if sum(reqs.count(r) for reqs in s.buyer_reqs) > 1:
            yield f"requirement tile {REQUIREMENTS[r].id} is on two buyers"
    for t in range(len(BONUS_TILES)):
        if sum(b.count(t) for b in s.buyer_bonus) > 1:
            yield f"bonus tile {BONUS_TILES[t].id} is on two buyers"
