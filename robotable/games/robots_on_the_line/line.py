"""The production line: taking parts, magnets, switches, going through a junk pile, line movement and
maintenance tiles (the rulebook's "Line Movement", "Line Switches", "Going Through a Junk Pile",
"Magnets" and "Maintenance Tiles").

A line is a list of ``SPACES`` entries, space 1 first (next to the draw pile); an entry is a part int
or ``EMPTY``. Piles are lists with their top last. The first half of this module is pure functions on
that data; the second half checks and applies the actions on a :class:`~.state.RotlState`.

>>> line = [EMPTY, part_index("head-01"), part_index("magnet-01"), part_index("hand-20"), EMPTY, EMPTY]
>>> magnet_unit(line, 3)        # the magnet on space 3 pulls the head on space 2 (space 1 is empty)
[2, 3]
>>> magnet_unit(line, 4)
[4]
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from robotable.core import Event, reason

from .actions import FlipSwitch, FlipSwitches, SearchJunk, TakePart
from .components import (
    COSTS,
    LINES,
    MAGNETS,
    PART_IDS,
    PARTS,
    SECTION_OF,
    SECTIONS,
    SPACES,
    part_index,  # noqa: F401  (used by the doctest)
    switch_name,
    tile_name,
)

if TYPE_CHECKING:
    from .state import RotlState

EMPTY = -1
ONE_PART = reason(
    "refusals.line.one_part",
    "one part per turn: this turn's part has already been taken (from the line or a junk pile)",
)

# Every action of these kinds, built once (actions are values: legal_actions hands out the same objects).
_TAKE = [[TakePart(line, space) for space in range(SPACES + 1)] for line in range(LINES)]
_SEARCH = [[SearchJunk(pile, part.id) for part in PARTS] for pile in range(LINES)]
_CELLS = [(line, sec) for line in range(LINES) for sec in range(len(SECTIONS))]
_FLIP: list[FlipSwitches | FlipSwitch] = [FlipSwitch(line, sec) for line, sec in _CELLS]
_FLIPS = {(a, b): FlipSwitches(a, b) for a in _CELLS for b in _CELLS}


def pid(part: int) -> str:
    """A part's catalogue id."""
    return PARTS[part].id


# -- magnets ------------------------------------------------------------------------------------------------


def magnet_unit(line: Sequence[int], space: int) -> list[int]:
    """The spaces (1-based, ascending) taken together with the part on ``space``.

    A magnet on space i pulls the parts on spaces i-1 and i-2 toward the draw pile, stopping at an empty
    space; a magnet in the unit extends it the same way; a part is joined to a magnet pulling it.
    """
    n = len(line)
    links: dict[int, set[int]] = {s: set() for s in range(1, n + 1)}
    for s in range(1, n + 1):
        if line[s - 1] in MAGNETS:
            prev = s
            for pulled in (s - 1, s - 2):
                if pulled < 1 or line[pulled - 1] == EMPTY:
                    break
                links[prev].add(pulled)
                links[pulled].add(prev)
                prev = pulled
    unit = {space}
    todo = [space]
    while todo:
        s = todo.pop()
        for t in links[s]:
            if t not in unit:
                unit.add(t)
                todo.append(t)
    return sorted(unit)


def magnet_units(line: Sequence[int]) -> list[list[int]]:
    """Every unit of occupied spaces on a line, in space order.

    >>> magnet_units([part_index("magnet-01"), part_index("head-01"), part_index("magnet-02"), EMPTY, 3, 4])
    [[1, 2, 3], [5], [6]]
    """
    if not any(x in MAGNETS for x in line):  # (the usual case: every part is a unit of its own)
        return [[s] for s in range(1, len(line) + 1) if line[s - 1] != EMPTY]
    units: list[list[int]] = []
    done: set[int] = set()
    for s in range(1, len(line) + 1):
        if line[s - 1] != EMPTY and s not in done:
            unit = magnet_unit(line, s)
            done.update(unit)
            units.append(unit)
    return units


def section(space: int) -> int:
    """The switch section (0 = spaces 1-3, 1 = spaces 4-6) that ``space`` belongs to."""
    return SECTION_OF[space]


# -- line movement and maintenance (pure) -------------------------------------------------------------------


def advance(line: list[int], junk_pile: list[int]) -> int:
    """Move every part one space toward the junk pile; the part leaving the last space goes on the pile.

    Returns the part that left the line (``EMPTY`` if none).

    >>> line, pile = [EMPTY, 1, 2, EMPTY, EMPTY, 3], [7]
    >>> advance(line, pile), line, pile
    (3, [-1, -1, 1, 2, -1, -1], [7, 3])
    """
    leaving = line[-1]
    if leaving != EMPTY:
        junk_pile.append(leaving)
    line[1:] = line[:-1]
    line[0] = EMPTY
    return leaving


def clear_line(line: list[int], junk_pile: list[int]) -> list[int]:
    """Line Reset: discard the line to its junk pile, the part nearest the pile first.

    >>> line, pile = [1, EMPTY, 2, 3, EMPTY, 4], []
    >>> clear_line(line, pile), line, pile
    ([4, 3, 2, 1], [-1, -1, -1, -1, -1, -1], [4, 3, 2, 1])
    """
    moved = [p for p in reversed(line) if p != EMPTY]
    junk_pile.extend(moved)
    line[:] = [EMPTY] * len(line)
    return moved


def refill_order(lines: int, spaces: int) -> list[tuple[int, int]]:
    """The order a Line Reset refills: both lines alternately, from the junk end back to space 1.

    >>> refill_order(2, 3)
    [(0, 3), (1, 3), (0, 2), (1, 2), (0, 1), (1, 1)]
    """
    return [(line, space) for space in range(spaces, 0, -1) for line in range(lines)]


# -- 1. take a tile from the production line ----------------------------------------------------------------


def take_actions(s: RotlState) -> list[TakePart]:
    """One ``take_part`` per magnet unit with a space on an ON section (its first such space)."""
    actions: list[TakePart] = []
    for line in range(LINES):
        actions += _takes(line, tuple(map(_SPACE_KIND.__getitem__, s.lines[line])), tuple(s.switches[line]))
    return actions


#: What the units of a line depend on, per space: 0 empty, 1 a part, 2 a magnet (see ``_takes``).
_SPACE_KIND: dict[int, int] = {EMPTY: 0, **{p.index: 2 if p.index in MAGNETS else 1 for p in PARTS}}
#: A line entry of each of those kinds: empty, a part that is not a magnet, a magnet.
_OF_KIND = (EMPTY, min(p.index for p in PARTS if p.index not in MAGNETS), min(MAGNETS))


@functools.lru_cache(maxsize=4096)
def _takes(line: int, kinds: tuple[int, ...], switches: tuple[bool, ...]) -> tuple[TakePart, ...]:
    """``take_actions`` of one line whose spaces hold these kinds (``_SPACE_KIND``: magnet units
    depend only on which spaces are empty and which hold magnets) with these switches."""
    parts = [_OF_KIND[k] for k in kinds]
    actions = []
    for unit in magnet_units(parts):
        space = next((sp for sp in unit if switches[section(sp)]), 0)
        if space:
            actions.append(_TAKE[line][space])
    return tuple(actions)


def check_take(s: RotlState, p: int, a: TakePart) -> str | None:
    if s.acquired:
        return ONE_PART
    if a.line not in range(LINES) or a.space not in range(1, SPACES + 1):
        return reason(
            "refusals.line.no_such_space",
            "there is no space {space} on line {line} (lines 0-1, spaces 1-{spaces})",
            space=a.space,
            line=a.line,
            spaces=SPACES,
        )
    if s.lines[a.line][a.space - 1] == EMPTY:
        return reason("refusals.line.space_empty", "space {space} of line {line} is empty", space=a.space, line=a.line)
    if not s.switches[a.line][section(a.space)]:
        spaces = SECTIONS[section(a.space)][0]
        return reason(
            "refusals.line.switch_off",
            "the switch of line {line}, spaces {first}-{last} is OFF",
            line=a.line,
            first=spaces[0],
            last=spaces[-1],
        )
    return None


def apply_take(s: RotlState, p: int, a: TakePart, events: list[Event]) -> None:
    line = s.lines[a.line]
    unit = magnet_unit(line, a.space)
    parts = [line[sp - 1] for sp in unit]
    for sp in unit:
        line[sp - 1] = EMPTY
    s.add_to_hand(p, parts)
    s.acquired = True
    events.append(Event("took", {"seat": p, "line": a.line, "spaces": unit, "parts": [pid(x) for x in parts]}))


# -- 3. pay to go through a junk pile -----------------------------------------------------------------------


def search_actions(s: RotlState, p: int) -> list[SearchJunk]:
    if s.money[p] < COSTS["search_junk"]:
        return []
    actions: list[SearchJunk] = []
    for pile in range(LINES):
        actions += map(_SEARCH[pile].__getitem__, s.junk[pile])
    return actions


def check_search(s: RotlState, p: int, a: SearchJunk) -> str | None:
    if s.acquired:
        return ONE_PART
    if a.pile not in range(LINES):
        return reason("refusals.junk.no_such_pile", "there is no junk pile {pile} (0 or 1)", pile=a.pile)
    if s.money[p] < COSTS["search_junk"]:
        return reason(
            "refusals.junk.search_cost",
            "going through a junk pile costs ${cost}; seat {seat} has ${money}",
            cost=COSTS["search_junk"],
            seat=p,
            money=s.money[p],
        )
    if PART_IDS.get(a.part, -1) not in s.junk[a.pile]:
        return reason(
            "refusals.junk.part_not_in_pile", "{tile} is not in junk pile {pile}", tile=tile_name(a.part), pile=a.pile
        )
    return None


def apply_search(s: RotlState, p: int, a: SearchJunk, events: list[Event]) -> None:
    s.pay_to_bank(p, COSTS["search_junk"])
    part = PART_IDS[a.part]
    s.junk[a.pile] = [x for x in s.junk[a.pile] if x != part]  # the rest keeps its order
    s.add_to_hand(p, [part])
    s.acquired = True
    events.append(Event("searched_junk", {"seat": p, "pile": a.pile, "part": a.part}))


# -- line switches ------------------------------------------------------------------------------------------


def switch_actions(s: RotlState, p: int) -> list[FlipSwitches | FlipSwitch]:
    if s.options["family"] or s.money[p] < COSTS["flip_switches"]:
        return []
    if s.options["on_off_variant"]:
        return _FLIP[:]
    return list(_FLIP_PAIRS[(*s.switches[0], *s.switches[1])])


def flip_pairs(switches: Sequence[Sequence[bool]]) -> list[FlipSwitches]:
    """Turning an OFF switch ON and an ON switch OFF: every (OFF switch, ON switch) pair, in cell order."""
    offs = [c for c in _CELLS if not switches[c[0]][c[1]]]
    ons = [c for c in _CELLS if switches[c[0]][c[1]]]
    return [_FLIPS[a, b] for a in offs for b in ons]


#: ``flip_pairs`` of each setting of the switches (both lines' sections in a row), computed once.
_FLIP_PAIRS: dict[tuple[bool, ...], tuple[FlipSwitches, ...]] = {
    cells: tuple(flip_pairs([cells[line * len(SECTIONS) : (line + 1) * len(SECTIONS)] for line in range(LINES)]))
    for cells in itertools.product((False, True), repeat=LINES * len(SECTIONS))
}


def _check_switch_cost(s: RotlState, p: int) -> str | None:
    if s.options["family"]:
        return reason("refusals.line.family_switches_on", "family mode: every switch stays ON")
    if s.money[p] < COSTS["flip_switches"]:
        return reason(
            "refusals.line.flip_cost",
            "flipping switches costs ${cost}; seat {seat} has ${money}",
            cost=COSTS["flip_switches"],
            seat=p,
            money=s.money[p],
        )
    return None


def check_flip_switches(s: RotlState, p: int, a: FlipSwitches) -> str | None:
    problem = _check_switch_cost(s, p)
    if problem:
        return problem
    if s.options["on_off_variant"]:
        return reason(
            "refusals.line.one_switch_at_a_time",
            "with the ON/OFF house rule, switches are turned over one at a time (flip_switch)",
        )
    for line, sec in (a.on, a.off):
        if line not in range(LINES) or sec not in range(len(SECTIONS)):
            return reason(
                "refusals.line.no_such_switch_pair",
                "there is no switch ({line}, {section}) (lines 0-1, sections 0-1)",
                line=line,
                section=sec,
            )
    if s.switches[a.on[0]][a.on[1]]:
        return reason("refusals.line.switch_already_on", "switch {switch} is already ON", switch=switch_name(*a.on))
    if not s.switches[a.off[0]][a.off[1]]:
        return reason("refusals.line.switch_already_off", "switch {switch} is already OFF", switch=switch_name(*a.off))
    return None


def apply_flip_switches(s: RotlState, p: int, a: FlipSwitches, events: list[Event]) -> None:
    s.pay_to_bank(p, COSTS["flip_switches"])
    for line, sec in (a.on, a.off):
        s.switches[line][sec] = not s.switches[line][sec]
    events.append(Event("switches", {"seat": p, "on": list(a.on), "off": list(a.off)}))


def check_flip_switch(s: RotlState, p: int, a: FlipSwitch) -> str | None:
    problem = _check_switch_cost(s, p)
    if problem:
        return problem
    if not s.options["on_off_variant"]:
        return reason(
            "refusals.line.on_off_rule_not_in_play",
            "turning one switch over alone is the ON/OFF house rule, which is not in play",
        )
    if a.line not in range(LINES) or a.section not in range(len(SECTIONS)):
        return reason(
            "refusals.line.no_such_switch", "there is no switch ({line}, {section})", line=a.line, section=a.section
        )
    return None


def apply_flip_switch(s: RotlState, p: int, a: FlipSwitch, events: list[Event]) -> None:
    s.pay_to_bank(p, COSTS["flip_switches"])
    s.switches[a.line][a.section] = not s.switches[a.line][a.section]
    events.append(Event("switch", {"seat": p, "line": a.line, "section": a.section}))


# -- line movement, the start of a turn and maintenance tiles -----------------------------------------------


def move_lines(s: RotlState, events: list[Event]) -> None:
    """At the end of a turn both lines move one space; a part leaving the line goes on its junk pile."""
    for line in range(LINES):
        left = advance(s.lines[line], s.junk[line])
        if left != EMPTY:
            events.append(Event("to_junk", {"line": line, "part": pid(left)}))


def parts_on_line(s: RotlState) -> bool:
    """Whether any part is left on the lines or in the draw piles."""
    return any(s.draw) or any(x != EMPTY for line in s.lines for x in line)


def fill_space_one(s: RotlState, events: list[Event]) -> None:
    """At the start of a turn, each line's space 1, if empty, receives the top of its draw pile."""
    for line in range(LINES):
        if s.lines[line][0] == EMPTY and s.draw[line]:
            place(s, line, 1, events)


def place(s: RotlState, line: int, space: int, events: list[Event]) -> str:
    """Draw onto a space; an extender with the maintenance icon then draws a maintenance tile."""
    part = s.draw[line].pop()
    s.lines[line][space - 1] = part
    events.append(Event("drawn", {"line": line, "space": space, "part": pid(part)}))
    if PARTS[part].maintenance and not s.options["family"]:
        return maintenance(s, events)
    return ""


def maintenance(s: RotlState, events: list[Event]) -> str:
    """Draw and resolve the top maintenance tile (nothing happens when the stack is empty)."""
    if not s.maint:
        events.append(Event("maintenance", {"tile": None}))
        return ""
    kind = s.maint.pop()
    s.maint_discard.append(kind)
    events.append(Event("maintenance", {"tile": kind}))
    if kind == "switch_flip":
        s.switches = [[not on for on in line] for line in s.switches]
    elif kind == "line_reset":
        line_reset(s, events)
    return kind


def line_reset(s: RotlState, events: list[Event]) -> None:
    """Both lines to their junk piles, nearest first; then refill alternately (resets may chain)."""
    for line in range(LINES):
        moved = clear_line(s.lines[line], s.junk[line])
        events.append(Event("line_cleared", {"line": line, "parts": [pid(x) for x in moved]}))
    for line, space in refill_order(LINES, SPACES):
        refill = s.draw[line] and s.lines[line][space - 1] == EMPTY
        if refill and place(s, line, space, events) == "line_reset":
            return  # the new reset refilled the lines
