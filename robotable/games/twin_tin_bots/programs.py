"""Step 1 of a turn: change the programming of a single robot.

A colour's programming board has 6 slots: 0-2 are robot A's program, 3-5 robot B's; its hand is every
tile it owns that is not on its board. The changes are the rulebook's five (place, swap within one
robot, remove, reset one robot, pass), and Double Modification, which gives two changes this turn. A
colour's first turn is one placement on each robot. Each change has a check and an apply function
(see the dispatch table in :mod:`.state`); :func:`legal_changes` lists them all.
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING, overload

from robotable.core import Action, Event, reason

from .actions import DoubleModification, Pass, Place, Remove, Reset, Swap
from .components import (
    BOARD_SLOTS,
    ORDER_COUNTS,
    SLOTS_PER_ROBOT,
    SPECIALS,
    TILE_NAMES,
    Tile,
    colour_name,
    robot_name,
    slot_name,
    tile_name,
)
from .events import place_event
from .phases import CHANGE
from .running import start_run

if TYPE_CHECKING:
    from .state import TtbState


def robot_slots_of(k: int) -> range:
    """Robot ``k``'s slots on its colour's programming board (0-2 for A, 3-5 for B)."""
    return range(k * SLOTS_PER_ROBOT, (k + 1) * SLOTS_PER_ROBOT)


EMPTY = -1
_DM = int(Tile["DOUBLE_MODIFICATION"])
_SPECIAL_SET = frozenset(SPECIALS)
_KINDS = len(TILE_NAMES)
#: How many of each tile a colour owns before Special Orders, indexed by tile.
_OWNED = tuple(ORDER_COUNTS.get(t, 0) for t in range(_KINDS))
_OWNED_DM_USED = tuple(0 if t == _DM else n for t, n in enumerate(_OWNED))
_ALL_TILES = tuple(range(_KINDS))

# Every change built once: legal_changes hands out these shared values.
_PLACE = tuple(tuple(Place(s, Tile(t)) for t in range(_KINDS)) for s in range(BOARD_SLOTS))
_SWAPS = {
    robots: tuple(
        (a, b, Swap(a, b)) for k in range(robots) for a in robot_slots_of(k) for b in robot_slots_of(k) if a < b
    )
    for robots in (1, 2)
}
_REMOVE = tuple(Remove(s) for s in range(BOARD_SLOTS))
_RESET = tuple(Reset(k) for k in range(2))
_PASS = Pass()
_DOUBLE = DoubleModification()


def tile_or_none(t: int) -> str | None:
    """A slot's JSON form: the tile's name, or null for an empty slot."""
    return TILE_NAMES[t] if t >= 0 else None


def tile_counts(programs: list[int], specials: list[int], dm_used: bool) -> list[int]:
    """How many of each tile (by tile) a colour has in hand: owned (16 Order tiles, Double Modification
    until used, its Special Orders) and not on its board."""
    counts = list(_OWNED_DM_USED if dm_used else _OWNED)
    for t in specials:
        counts[t] = 1
    for t in programs:
        if t >= 0:
            counts[t] -= 1
    return counts


def _tiles_in_hand(programs: list[int], specials: list[int]) -> tuple[int, ...]:
    """The kinds of tile in hand that can be placed (:func:`tile_counts` > 0, Double Modification
    never), in tile order."""
    counts = [*_OWNED_DM_USED, 0]  # (an empty slot, -1, counts off the extra last entry)
    for t in specials:
        counts[t] = 1
    for t in programs:
        counts[t] -= 1
    return tuple(compress(_ALL_TILES, counts))


def hand(programs: list[int], specials: list[int], dm_used: bool) -> dict[int, int]:
    """The tiles in a colour's hand and how many of each (see :func:`tile_counts`)."""
    counts = tile_counts(programs, specials, dm_used)
    return {t: n for t, n in enumerate(counts) if n > 0}


def first_turn_placements(programs: list[int], robots: int, first_done: bool) -> int:
    """Placements still due in a colour's first turn: one on each robot whose program is empty."""
    if first_done:
        return 0
    n = SLOTS_PER_ROBOT
    return sum(1 for k in range(robots) if max(programs[k * n : k * n + n]) < 0)


# -- every legal change ----------------------------------------------------------------------------


def legal_changes(st: TtbState) -> list[Action]:
    """Each distinct change once: pass and Double Modification, placements, swaps, removals, resets
    (on the first turn: only placements on robots whose program is still empty).

    This is :func:`legal_changes_listed` for the common case, a colour past its first turn with two
    robots, from tables: the hand is a count per tile packed in one int (:data:`_WEIGHT`), and each
    hand's placements on a slot, leaving out the tile already there, are built once per hand, slot and
    tile (:class:`_HandRows`). ``tests/twin_tin_bots/test_ttb_compiled.py`` checks both give the same list."""
    c = st.order[st.turn]  # (st.active)
    if st.robots_per != 2 or not st.first_done[c]:
        return legal_changes_listed(st)
    prog = st.programs[c]
    p0, p1, p2, p3, p4, p5 = prog
    w = _WEIGHT
    key = _PACKED_OWNED - w[p0] - w[p1] - w[p2] - w[p3] - w[p4] - w[p5]
    for t in st.specials[c]:
        key += w[t]
    r0, r1, r2, r3, r4, r5 = _HAND_ROWS.get(key) or _hand_rows(key, prog, st.specials[c])
    a = _SHAPE.get((p0, p1, p2)) or _shape((p0, p1, p2))
    b = _SHAPE.get((p3, p4, p5)) or _shape((p3, p4, p5))
    return [
        *(_HEAD_DM_USED if st.dm_used[c] else _HEAD),
        *r0[p0],
        *r1[p1],
        *r2[p2],
        *r3[p3],
        *r4[p4],
        *r5[p5],
        *(_BOTH.get(a << 7 | b) or _both(a, b)),
    ]


def legal_changes_listed(st: TtbState) -> list[Action]:
    """:func:`legal_changes` for every case, as the rules list them."""
    c = st.order[st.turn]  # (st.active)
    prog = st.programs[c]
    in_hand = _tiles_in_hand(prog, st.specials[c])
    rows, position = _PLACEMENTS.get(in_hand) or _placements(in_hand)
    first = not st.first_done[c] and st.first_turn_placements(c) > 0
    if first:
        actions: list[Action] = []
    else:
        actions = [_PASS] if st.dm_used[c] else [_PASS, _DOUBLE]
    for k in range(st.robots_per):
        lo = k * SLOTS_PER_ROBOT
        if first and max(prog[lo : lo + SLOTS_PER_ROBOT]) >= 0:
            continue
        for s in range(lo, lo + SLOTS_PER_ROBOT):
            at = position.get(prog[s])
            if at is None:
                actions += rows[s]
            else:  # the tile already there is not placed again
                at += len(actions)
                actions += rows[s]
                del actions[at]
    if not first:
        actions += _rearrangements(prog, st.robots_per)
    return actions


_HEAD = (_PASS, _DOUBLE)
_HEAD_DM_USED = (_PASS,)
#: A colour's hand packed in one int: 4 bits per tile holding 8 + the tiles of that kind in hand (the
#: 8 keeps a field from borrowing when a board holds more than its colour owns: up to 6 slots).
#: ``_WEIGHT[-1]``, an empty slot, is 0.
_WEIGHT = (*(1 << (4 * t) for t in range(_KINDS)), 0)
_PACKED_OWNED = sum((8 + n) << (4 * t) for t, n in enumerate(_OWNED_DM_USED))


class _HandRows(dict[int, tuple[Action, ...]]):
    """``rows[tile]``: placing each tile of a hand on one slot, except ``tile``, the one already there
    (-1: none), in tile order; built on first use."""

    __slots__ = ("every", "in_hand")

    def __init__(self, slot: int, in_hand: tuple[int, ...]) -> None:
        super().__init__()
        self.in_hand = in_hand
        self.every = tuple(_PLACE[slot][t] for t in in_hand)

    def __missing__(self, there: int) -> tuple[Action, ...]:
        every = self.every
        if there in self.in_hand:
            at = self.in_hand.index(there)
            every = every[:at] + every[at + 1 :]
        self[there] = every
        return every


#: Each hand's rows, one per slot, by the kinds of tile in it (a few thousand over many games) and by
#: its packed counts (ten times as many: those only point to the rows of their kinds).
_ROWS_OF_KINDS: dict[tuple[int, ...], tuple[_HandRows, ...]] = {}
_HAND_ROWS: dict[int, tuple[_HandRows, ...]] = {}


def _hand_rows(key: int, prog: list[int], specials: list[int]) -> tuple[_HandRows, ...]:
    if len(_HAND_ROWS) >= 65536:  # (this only caps memory)
        _HAND_ROWS.clear()
    in_hand = _tiles_in_hand(prog, specials)
    rows = _ROWS_OF_KINDS.get(in_hand)
    if rows is None:
        if len(_ROWS_OF_KINDS) >= 8192:
            _ROWS_OF_KINDS.clear()
        rows = _ROWS_OF_KINDS[in_hand] = tuple(_HandRows(s, in_hand) for s in range(BOARD_SLOTS))
    _HAND_ROWS[key] = rows
    return rows


#: The placements of each hand (the tiles in it, in tile order), built on first use: per slot, placing
#: each tile in hand there, and where each tile's placement stands in those rows.
_PLACEMENTS: dict[tuple[int, ...], tuple[tuple[tuple[Action, ...], ...], dict[int, int]]] = {}


def _placements(in_hand: tuple[int, ...]) -> tuple[tuple[tuple[Action, ...], ...], dict[int, int]]:
    if len(_PLACEMENTS) >= 4096:  # (hands are few; this only caps memory)
        _PLACEMENTS.clear()
    rows = tuple(tuple(_PLACE[s][t] for t in in_hand) for s in range(BOARD_SLOTS))
    entry = _PLACEMENTS[in_hand] = (rows, {t: i for i, t in enumerate(in_hand)})
    return entry


def _rearrangements(prog: list[int], robots: int) -> list[Action]:
    """Swaps, removals and resets of a programming board: each robot's swaps, then removals, then resets."""
    a = _SHAPES[0][_SHAPE.get((prog[0], prog[1], prog[2])) or _shape((prog[0], prog[1], prog[2]))]
    if robots == 1:
        return [*a[0], *a[1], *a[2]]
    b = _SHAPES[1][_SHAPE.get((prog[3], prog[4], prog[5])) or _shape((prog[3], prog[4], prog[5]))]
    return [*a[0], *b[0], *a[1], *b[1], *a[2], *b[2]]


def _shape(tiles: tuple[int, int, int]) -> int:
    """What a robot's rearrangements depend on: which of its slots hold a tile (bits 0-2) and which
    pairs of slots differ (bits 3-5: slots 0-1, 0-2, 1-2), plus 64 (never 0: ``_SHAPE.get(...) or``)."""
    pairs = ((0, 1), (0, 2), (1, 2))
    shape = 64 + sum(1 << i for i in range(3) if tiles[i] >= 0)
    shape += sum(8 << n for n, (a, b) in enumerate(pairs) if tiles[a] != tiles[b])
    _SHAPE[tiles] = shape
    return shape


def _rearrangements_of_shape(k: int, shape: int) -> tuple[tuple[Action, ...], ...]:
    """Robot ``k``'s swaps, removals and reset for a shape (see :func:`_shape`)."""
    lo = k * SLOTS_PER_ROBOT
    pairs = ((0, 1), (0, 2), (1, 2))
    swaps = tuple(Swap(lo + a, lo + b) for n, (a, b) in enumerate(pairs) if shape & (8 << n))
    removals = tuple(_REMOVE[lo + i] for i in range(3) if shape & (1 << i))
    return swaps, removals, (_RESET[k],) if removals else ()


#: Each robot's program (three tiles) as its shape, filled on first use (ints only: no garbage to
#: collect), and each robot's rearrangements by shape.
_SHAPE: dict[tuple[int, int, int], int] = {}
_SHAPES = tuple(tuple(_rearrangements_of_shape(k, shape) for shape in range(128)) for k in range(2))
#: Both robots' rearrangements (:func:`_rearrangements`) by their shapes, ``a << 7 | b``.
_BOTH: dict[int, tuple[Action, ...]] = {}


def _both(a: int, b: int) -> tuple[Action, ...]:
    x, y = _SHAPES[0][a], _SHAPES[1][b]
    both = _BOTH[a << 7 | b] = (*x[0], *y[0], *x[1], *y[1], *x[2], *y[2])
    return both


# -- checks ----------------------------------------------------------------------------------------


def _programming(st: TtbState) -> bool:
    """Programming, past the first turn's placements."""
    return st.phase == CHANGE and st.first_turn_placements(st.active) == 0


def can_place(st: TtbState, action: Place) -> bool:
    """A tile from hand, not Double Modification, on a slot not holding the same tile (first turn: on a
    robot whose program is still empty)."""
    if st.phase != CHANGE:
        return False
    c = st.order[st.turn]  # (st.active)
    prog = st.programs[c]
    s, t = action.slot, int(action.tile)
    if not 0 <= s < st.robots_per * SLOTS_PER_ROBOT or t == _DM or prog[s] == t:
        return False
    if _OWNED[t] + (t in st.specials[c]) - prog.count(t) <= 0:  # not in hand
        return False
    if st.first_done[c]:
        return True
    lo = s - s % SLOTS_PER_ROBOT
    return st.first_turn_placements(c) == 0 or all(x < 0 for x in prog[lo : lo + SLOTS_PER_ROBOT])


def can_swap(st: TtbState, action: Swap) -> bool:
    """Two slots of the same robot, not both empty nor holding the same tile."""
    if not _programming(st):
        return False
    a, b = action.slot_a, action.slot_b
    slots = st.robots_per * SLOTS_PER_ROBOT
    prog = st.programs[st.active]
    return 0 <= a < slots and 0 <= b < slots and a // SLOTS_PER_ROBOT == b // SLOTS_PER_ROBOT and prog[a] != prog[b]


def can_remove(st: TtbState, action: Remove) -> bool:
    """A slot holding a tile."""
    return (
        _programming(st)
        and 0 <= action.slot < st.robots_per * SLOTS_PER_ROBOT
        and st.programs[st.active][action.slot] >= 0
    )


def can_reset(st: TtbState, action: Reset) -> bool:
    """A robot with at least one tile in its program."""
    if not _programming(st) or not 0 <= action.robot < st.robots_per:
        return False
    lo = action.robot * SLOTS_PER_ROBOT
    return any(t >= 0 for t in st.programs[st.active][lo : lo + SLOTS_PER_ROBOT])


def can_pass(st: TtbState, action: Pass) -> bool:
    """Always, past the first turn's placements."""
    return _programming(st)


def can_double(st: TtbState, action: DoubleModification) -> bool:
    """Once per game, past the first turn's placements."""
    return _programming(st) and not st.dm_used[st.active]


def why_refused(st: TtbState, action: Action) -> str | None:
    """Why a programming change is refused (``None`` if no reason applies)."""
    c = st.active
    name = colour_name(st.colours[c])
    slots = st.robots_per * SLOTS_PER_ROBOT
    first = st.first_turn_placements(c) > 0
    if isinstance(action, Place | Remove) and not 0 <= action.slot < slots:
        return reason("refusals.slot_out_of_range", "slots are numbered 0 to {last}", last=slot_name(slots - 1))
    if first and not isinstance(action, Place):
        return reason(
            "refusals.first_turn_place", "{name}'s first turn: place one tile on each robot's program", name=name
        )
    if isinstance(action, Place):
        return _why_not_placed(st, action, first)
    if isinstance(action, Swap):
        return reason(
            "refusals.bad_swap",
            "a swap takes two different slots of the same robot, not both empty or holding the same tile",
        )
    if isinstance(action, Remove):
        return reason("refusals.slot_empty", "slot {slot} is empty", slot=slot_name(action.slot))
    if isinstance(action, Reset):
        robot = "AB"[action.robot] if action.robot in (0, 1) else action.robot
        return reason(
            "refusals.nothing_to_reset",
            "robot {robot} has no tile to reset",
            robot=robot_name(f"{st.colours[c]}-{robot}") if robot in ("A", "B") else robot,
        )
    if isinstance(action, DoubleModification):
        return reason("refusals.double_modification_used", "{name} has already used its Double Modification", name=name)
    return None


def _why_not_placed(st: TtbState, action: Place, first: bool) -> str:
    name = colour_name(st.colours[st.active])
    if action.tile == _DM:
        return reason(
            "refusals.double_modification_not_placed",
            "Double Modification is never placed: use it with the double_modification change",
        )
    if action.tile not in st.hand(st.active):
        return reason(
            "refusals.tile_not_in_hand", "{name} has no {tile} tile in hand", name=name, tile=tile_name(action.tile)
        )
    if first:
        return reason(
            "refusals.first_turn_one_tile",
            "{name}'s first turn: exactly one tile on each robot (that robot already has one)",
            name=name,
        )
    return reason(
        "refusals.tile_already_there",
        "{tile} is already on slot {slot}",
        tile=tile_name(action.tile),
        slot=slot_name(action.slot),
    )


# -- applying a change -----------------------------------------------------------------------------


@overload
def program_after(prog: list[int], action: Place | Swap | Remove | Reset) -> list[int]: ...
@overload
def program_after(prog: list[int], action: Action) -> list[int] | None: ...
def program_after(prog: list[int], action: Action) -> list[int] | None:
    """A programming board's 6 slots after a change (a new list; ``None`` for Double Modification,
    which changes no slot)."""
    p = prog[:]
    if isinstance(action, Place):
        p[action.slot] = int(action.tile)
    elif isinstance(action, Swap):
        p[action.slot_a], p[action.slot_b] = p[action.slot_b], p[action.slot_a]
    elif isinstance(action, Remove):
        p[action.slot] = EMPTY
    elif isinstance(action, Reset):
        lo = action.robot * SLOTS_PER_ROBOT
        p[lo : lo + SLOTS_PER_ROBOT] = [EMPTY] * SLOTS_PER_ROBOT
    elif isinstance(action, DoubleModification):
        return None
    return p


def place(st: TtbState, action: Place, events: list[Event]) -> None:
    """The tile goes on the slot (a tile already there goes back to hand); a Special Order placed is
    revealed for good."""
    c = st.order[st.turn]  # (st.active)
    prog = st.programs[c]
    slot, tile = action.slot, int(action.tile)
    old = prog[slot]
    prog[slot] = tile  # (program_after, in place)
    if tile in _SPECIAL_SET and tile not in st.revealed[c]:
        st.revealed[c].append(tile)
    events.append(place_event[st.colours[c], slot, TILE_NAMES[tile], tile_or_none(old)])
    st.changes_left -= 1  # (_change_made, inlined: most changes are placements)
    if st.changes_left <= 0:
        st.first_done[c] = True
        start_run(st, events)


def swap(st: TtbState, action: Swap, events: list[Event]) -> None:
    """The two slots exchange their tiles."""
    prog = st.programs[st.active]
    prog[:] = program_after(prog, action)
    events.append(Event("swap", {"colour": st.colours[st.active], "slot_a": action.slot_a, "slot_b": action.slot_b}))
    _change_made(st, events)


def remove(st: TtbState, action: Remove, events: list[Event]) -> None:
    """The tile goes back to hand."""
    prog = st.programs[st.active]
    events.append(
        Event("remove", {"colour": st.colours[st.active], "slot": action.slot, "tile": TILE_NAMES[prog[action.slot]]})
    )
    prog[:] = program_after(prog, action)
    _change_made(st, events)


def reset(st: TtbState, action: Reset, events: list[Event]) -> None:
    """Every tile of the robot's program goes back to hand."""
    prog = st.programs[st.active]
    lo = action.robot * SLOTS_PER_ROBOT
    tiles = [TILE_NAMES[t] for t in prog[lo : lo + SLOTS_PER_ROBOT] if t >= 0]
    prog[:] = program_after(prog, action)
    events.append(Event("reset", {"colour": st.colours[st.active], "robot": "AB"[action.robot], "tiles": tiles}))
    _change_made(st, events)


def pass_(st: TtbState, action: Pass, events: list[Event]) -> None:
    """No (more) changes: the programs run."""
    events.append(Event("pass", {"colour": st.colours[st.active]}))
    st.changes_left = 0
    _programs_run_when_done(st, events)


def double_modification(st: TtbState, action: DoubleModification, events: list[Event]) -> None:
    """The Double Modification tile is turned face down for good: two changes this turn."""
    c = st.active
    st.dm_used[c] = True
    st.changes_left = 2
    events.append(Event("double_modification", {"colour": st.colours[c]}))


def _change_made(st: TtbState, events: list[Event]) -> None:
    st.changes_left -= 1
    _programs_run_when_done(st, events)


def _programs_run_when_done(st: TtbState, events: list[Event]) -> None:
    """Once no change is left to make, the first turn is done and the programs run."""
    if st.changes_left <= 0:
        st.first_done[st.order[st.turn]] = True  # (st.active)
        start_run(st, events)
