"""Crystals: Load (and stealing, Anti Theft), Unload, delivering to a Base, new crystals entering
play, and what harvested crystals score.

The rules that are functions of the position (:func:`crystal_in_front`, :func:`theft_prevented`,
:func:`unload_spot`, :func:`may_unload_in`, :func:`entry_hexes`) are shared with the AI;
:func:`load`, :func:`unload`, :func:`deliver` and :func:`place_entering` carry them out on a state and
report events. What crystals score: :mod:`.game_end`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from robotable.core import Event

from .board import GROUND, ROBOT, Board, Thing
from .components import CRYSTAL_NAMES, CRYSTAL_VALUES, TILE_NAMES, Tile
from .events import ignored_event
from .game_end import score_victory
from .hexgrid import CENTRE, Hex, distance
from .phases import CRYSTAL, RUN

if TYPE_CHECKING:
    from .state import TtbState

BLUE = CRYSTAL_VALUES["blue"]
#: Where an Unload puts the crystal: :func:`unload_spot`.
ONTO_GROUND, ONTO_ROBOT, INTO_BASE = range(3)
_ANTI_THEFT = int(Tile["ANTI_THEFT"])


# -- the rules, as functions of the position -------------------------------------------------------


def crystal_in_front(
    ground: dict[Hex, int], thing_at: Callable[[Hex], Thing | None], rcargo: Sequence[int], f: Hex
) -> Thing | None:
    """What a Load on hex ``f`` takes: the crystal on the ground (``(GROUND, f)``), the crystal a robot
    there carries (``(ROBOT, id)``), or ``None``. Crystals in Bases are never loaded."""
    if f in ground:
        return (GROUND, f)
    thing = thing_at(f)
    if thing is not None and thing[0] == ROBOT and rcargo[thing[1]]:
        return thing
    return None


def theft_prevented(opponents: bool, anti_theft: bool) -> bool:
    """Anti Theft: a carried crystal cannot be loaded by an opponent's robot while Anti Theft is in the
    carrier's program (a teammate may always take it)."""
    return opponents and anti_theft


def unload_spot(
    board: Board, thing_at: Callable[[Hex], Thing | None], rcargo: Sequence[int], f: Hex
) -> tuple[int, int] | None:
    """Where an Unload onto hex ``f`` puts the crystal: ``(INTO_BASE, colour)``, ``(ONTO_GROUND, 0)`` on
    an empty hex, ``(ONTO_ROBOT, id)`` onto a robot carrying nothing; ``None``: off the board, a Rock, a
    Teleporter, a crystal, a Blob or a loaded robot."""
    base = board.base_at.get(f)
    if base is not None:
        return (INTO_BASE, base)
    if f not in board.hexes or f in board.rocks or f in board.tele:
        return None
    thing = thing_at(f)
    if thing is None:
        return (ONTO_GROUND, 0)
    if thing[0] == ROBOT and not rcargo[thing[1]]:
        return (ONTO_ROBOT, thing[1])
    return None


def may_unload_in(advanced_2p: bool, controller: Sequence[int], colour: int, base_colour: int) -> bool:
    """Advanced 2 players: a robot unloads only into its own colour's Base or the other player's Bases.
    Every other game: into any Base."""
    return not advanced_2p or base_colour == colour or controller[base_colour] != controller[colour]


def entry_hexes(hexes: Iterable[Hex], free: Callable[[Hex], bool]) -> list[Hex]:
    """Where a new crystal may enter: the centre if free, else every free hex closest to it (sorted).

    >>> entry_hexes([(0, 0), (1, 0), (0, 1), (2, 0)], lambda h: h != (0, 0))
    [(0, 1), (1, 0)]
    """
    best: list[Hex] = []
    best_d = None
    for h in hexes:
        if not free(h):
            continue
        d = distance(h, CENTRE)
        if best_d is None or d < best_d:
            best, best_d = [h], d
        elif d == best_d:
            best.append(h)
    return sorted(best)


# -- carrying them out on a state ------------------------------------------------------------------


def load(st: TtbState, rid: int, events: list[Event]) -> None:
    """Load the crystal in front, from the ground or from a robot (stealing it)."""
    name = st.names[rid]
    if st.rcargo[rid]:
        events.append(ignored_event[name, "load", "already loaded"])
        return
    f = st.front(rid)
    source = crystal_in_front(st.ground, st.thing_at, st.rcargo, f)
    if source is None:
        events.append(ignored_event[name, "load", "no crystal in front"])
    elif source[0] == GROUND:
        st.rcargo[rid] = st.ground.pop(f)
        events.append(Event("load", {"robot": name, "crystal": CRYSTAL_NAMES[st.rcargo[rid]], "hex": list(f)}))
    else:
        steal(st, rid, source[1], events)


def steal(st: TtbState, rid: int, victim: int, events: list[Event]) -> None:
    """Load the crystal another robot carries, unless Anti Theft prevents it."""
    name = st.names[rid]
    opponents = st.opponents(st.robot_colour(rid), st.robot_colour(victim))
    if theft_prevented(opponents, st.in_program(victim, _ANTI_THEFT)):
        events.append(Event("anti_theft", {"robot": name, "victim": st.names[victim]}))
        return
    st.rcargo[rid], st.rcargo[victim] = st.rcargo[victim], 0
    crystal = CRYSTAL_NAMES[st.rcargo[rid]]
    events.append(Event("steal", {"robot": name, "victim": st.names[victim], "crystal": crystal}))


def unload(st: TtbState, rid: int, events: list[Event]) -> None:
    """Unload the carried crystal in front: on an empty hex, into a Base, or onto an empty robot."""
    name = st.names[rid]
    value = st.rcargo[rid]
    if not value:
        events.append(ignored_event[name, "unload", "carries nothing"])
        return
    f = st.front(rid)
    spot = unload_spot(st.board, st.thing_at, st.rcargo, f)
    if spot is None:
        events.append(ignored_event[name, "unload", "no room in front"])
        return
    kind, ref = spot
    if kind == INTO_BASE:
        if not may_unload_in(bool(st.options.get("advanced_2p")), st.controller, st.robot_colour(rid), ref):
            events.append(ignored_event[name, "unload", "not into that Base"])
            return
        st.rcargo[rid] = 0
        deliver(st, ref, value, name, events)
        return
    st.rcargo[rid] = 0
    data = {"robot": name, "crystal": CRYSTAL_NAMES[value], "hex": list(f)}
    if kind == ONTO_GROUND:
        st.ground[f] = value
    else:
        st.rcargo[ref] = value
        data["onto"] = st.names[ref]
    events.append(Event("unload", data))


def deliver(st: TtbState, base: int, value: int, by: str, events: list[Event]) -> None:
    """A crystal unloaded in a Base scores for the Base's owner (who may win at once by score victory);
    a blue one draws a Special Order; then the next crystal of the track enters play."""
    st.delivered[base].append(value)
    events.append(Event("deliver", {"robot": by, "base": st.colours[base], "crystal": CRYSTAL_NAMES[value]}))
    if score_victory(st, base, events):
        return
    if value == BLUE and st.stack and not st.options.get("simplified"):
        draw_special(st, base, events)
    if st.track:
        enter_next_crystal(st, events)


def draw_special(st: TtbState, colour: int, events: list[Event]) -> None:
    """The Base's owner draws the top Special Order (secretly: only its player sees which)."""
    tile = st.stack.pop()
    st.specials[colour].append(tile)
    events.append(Event("draw_special", {"colour": st.colours[colour]}))
    events.append(
        Event("special_drawn", {"colour": st.colours[colour], "tile": TILE_NAMES[tile]}, (st.controller[colour],))
    )


def enter_next_crystal(st: TtbState, events: list[Event]) -> None:
    """The next crystal of the track enters on the centre, or where the active player chooses among
    the free hexes closest to it (a pending decision when there are several)."""
    st.entering = st.track.pop(0)
    hexes = free_entry_hexes(st)
    if len(hexes) == 1:
        place_entering(st, hexes[0], events)
        return
    st.phase = CRYSTAL
    events.append(Event("crystal_choice", {"crystal": CRYSTAL_NAMES[st.entering], "hexes": [list(h) for h in hexes]}))


def free_entry_hexes(st: TtbState) -> list[Hex]:
    """Where a new crystal may enter now: the centre, or the free hexes closest to it."""
    if st.is_free(CENTRE):
        return [CENTRE]
    return entry_hexes(st.board.hexes, st.is_free)


def place_entering(st: TtbState, h: Hex, events: list[Event]) -> None:
    """The entering crystal goes on ``h``; the last crystal of the track starts the end phase."""
    st.ground[h] = st.entering
    events.append(Event("crystal_enters", {"crystal": CRYSTAL_NAMES[st.entering], "hex": list(h)}))
    st.entering = 0
    if st.phase == CRYSTAL:
        st.phase = RUN
    if not st.track and not st.end_phase:
        st.end_phase = True
        events.append(Event("end_phase", {"round": st.round}))
