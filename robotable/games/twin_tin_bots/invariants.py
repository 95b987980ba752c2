"""What every position of Twin Tin Bots obeys: one thing per hex, the 18 crystals accounted for, tiles
owned, each Special Order once, a pending decision with what it needs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .components import (
    ALL_CRYSTALS,
    CRYSTAL_KINDS,
    CRYSTAL_NAMES,
    CRYSTALS_PER_KIND,
    ORDER_COUNTS,
    SLOTS_PER_ROBOT,
    SPECIALS,
    Tile,
)
from .hexgrid import Hex
from .phases import BLOB, CRYSTAL, ZAP

if TYPE_CHECKING:
    from .state import TtbState

_DM = int(Tile["DOUBLE_MODIFICATION"])
_SPECIAL_SET = frozenset(SPECIALS)


def crystal_census(st: TtbState) -> dict[str, int]:
    """Where the 18 crystals are: track, ground, carried, entering, in Bases, unused."""
    return {
        "track": len(st.track),
        "ground": len(st.ground),
        "carried": sum(1 for v in st.rcargo if v),
        "entering": int(bool(st.entering)),
        "bases": sum(len(d) for d in st.delivered),
        "unused": sum(st.unused),
    }


def problems(st: TtbState) -> Iterator[str]:
    """Every broken rule of the position, first found first."""
    yield from _one_thing_per_hex(st)
    yield from _crystals_add_up(st)
    for c in range(len(st.colours)):
        yield from _tiles_owned(st, c)
    yield from _specials_once(st)
    yield from _pending_complete(st)


def _one_thing_per_hex(st: TtbState) -> Iterator[str]:
    b = st.board
    seen: dict[Hex, str] = {}
    for what, hexes in (
        ("base", b.bases),
        ("rock", sorted(b.rocks)),
        ("teleporter", sorted(b.tele)),
        ("robot", st.rhex),
        ("crystal", sorted(st.ground)),
        ("blob", st.blobs),
    ):
        for h in hexes:
            if h not in b.hexes:
                yield f"{what} at {list(h)} is off the board (radius {b.radius})"
            if h in seen:
                yield f"{what} at {list(h)} shares its hex with a {seen[h]}"
            seen[h] = what


def _crystals_add_up(st: TtbState) -> Iterator[str]:
    per_kind = dict.fromkeys(CRYSTAL_KINDS, 0)
    for v in [
        *st.track,
        *st.ground.values(),
        *(v for v in st.rcargo if v),
        *(v for d in st.delivered for v in d),
    ]:
        per_kind[v] += 1
    if st.entering:
        per_kind[st.entering] += 1
    for i, v in enumerate(CRYSTAL_KINDS):
        if per_kind[v] + st.unused[i] != CRYSTALS_PER_KIND or st.unused[i] < 0:
            name, n, unused = CRYSTAL_NAMES[v], per_kind[v], st.unused[i]
            yield f"{name} crystals: {n} in play and {unused} unused, not {CRYSTALS_PER_KIND}"
    if sum(crystal_census(st).values()) != ALL_CRYSTALS:
        yield f"the crystals do not add up to {ALL_CRYSTALS}"


def _tiles_owned(st: TtbState, c: int) -> Iterator[str]:
    name = st.colours[c]
    owned = dict(ORDER_COUNTS)
    for s in st.specials[c]:
        owned[s] = owned.get(s, 0) + 1
    for t in st.programs[c]:
        if t == _DM:
            yield f"{name}: Double Modification is never placed on a programming board"
        if t >= 0:
            owned[t] = owned.get(t, 0) - 1
    if any(n < 0 for n in owned.values()):
        yield f"{name}'s programming board holds tiles it does not own"
    if st.robots_per == 1 and any(t >= 0 for t in st.programs[c][SLOTS_PER_ROBOT:]):
        yield f"{name} has one robot: slots 3-5 must stay empty"
    yield from _revealed(st, c)


def _revealed(st: TtbState, c: int) -> Iterator[str]:
    """Revealed Special Orders are owned, and every one on the board is revealed."""
    name = st.colours[c]
    if any(t not in st.specials[c] for t in st.revealed[c]):
        yield f"{name} has revealed a Special Order it does not own"
    if any(t in _SPECIAL_SET and t not in st.revealed[c] for t in st.programs[c]):
        yield f"{name} has a Special Order on its board that is not listed as revealed"


def _specials_once(st: TtbState) -> Iterator[str]:
    everything = [t for s in st.specials for t in s] + st.stack
    if any(t not in _SPECIAL_SET for t in everything) or len(set(everything)) != len(everything):
        yield "each Special Order exists once: specials and special_stack repeat one or hold an Order tile"
    if st.options.get("simplified") and everything:
        yield "simplified rules use no Special Orders"
    if not st.options.get("simplified") and len(everything) != len(SPECIALS):
        yield f"the {len(SPECIALS)} Special Orders are not all in specials and special_stack"


def _pending_complete(st: TtbState) -> Iterator[str]:
    if st.phase == ZAP and not 0 <= st.target < len(st.rhex):
        yield "a pending zap needs the zapped robot"
    if st.phase == BLOB and not 0 <= st.target < len(st.blobs):
        yield "a pending Blob move needs the Blob"
    if (st.phase == CRYSTAL) != bool(st.entering):
        yield "a crystal is entering exactly when the phase is 'crystal'"
    if st.phase == CRYSTAL and not st.entry_hexes():
        yield "no free hex for the entering crystal"
    if not 0 <= st.countdown <= 3:
        yield "countdown is 0 to 3"
