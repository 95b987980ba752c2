"""Step 2 of a turn: run the programs. Robot A's slots left to right, then robot B's; each Order tile
is a sequence of elementary operations (:mod:`.orders`). The run stops at a decision the rules give a
player (a zap, a zapped Blob, where a new crystal enters) and goes on from the same point after it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from robotable.core import Event

from . import crystals, movement, zaps
from .components import SLOTS_PER_ROBOT, TILE_NAMES, ZAP_RANGE
from .events import order_event, run_event, turn_event
from .hexgrid import FACING_NAMES, opposite, turn
from .orders import (
    BACK_UP,
    CHAINED_STEPS,
    FORWARD,
    JUMP,
    LOAD,
    LONG_RANGE_ZAP,
    OPS_BY_TILE,
    TURNS,
    UNLOAD,
    ZAP,
)
from .phases import RUN, START, RunPoint
from .turn import end_turn

if TYPE_CHECKING:
    from .state import TtbState

#: Long Range Zap: to the board edge.
UNLIMITED = 10**6


def start_run(st: TtbState, events: list[Event]) -> None:
    """End the programming step: the active colour's programs start running with robot A."""
    st.changes_left = 0
    st.phase = RUN
    st.run_at = START
    events.append(run_event[st.names[st.order[st.turn] * st.robots_per]])  # (begin_robot(st, 0, events), inlined)


def begin_robot(st: TtbState, k: int, events: list[Event]) -> None:
    """Robot ``k`` of the active colour starts its program. (Mud is not checked again here: a robot is
    stuck at the start of the turn or on entering Mud, and one ignored Forward frees it for the turn.)"""
    events.append(run_event[st.names[st.order[st.turn] * st.robots_per + k]])  # (st.active)


def run(st: TtbState, events: list[Event]) -> None:
    """Run the active colour's programs from ``st.run_at`` until the turn ends or a decision is pending:
    each robot's slots left to right, each tile's operations in order. A Forward 2x or 3x whose step
    could not move ends there."""
    c = st.order[st.turn]  # (st.active)
    prog = st.programs[c]
    k, first_slot, op = st.run_at
    operations = OPERATIONS
    while True:
        rid = c * st.robots_per + k
        name = st.names[rid]
        base = k * SLOTS_PER_ROBOT
        for slot in range(first_slot, SLOTS_PER_ROBOT):
            tile = prog[base + slot]
            ops = OPS_BY_TILE[tile] if tile >= 0 else ()
            if op == 0 and ops:
                events.append(order_event[name, slot, TILE_NAMES[tile]])
            for done in range(op + 1, len(ops) + 1):  # operations done once this one is
                operation = ops[done - 1]
                moved = operations[operation](st, rid, operation, events)
                if st.phase != RUN:
                    st.run_at = RunPoint(k, slot, done)
                    return
                if not moved and tile in CHAINED_STEPS:
                    break
            op = 0
        if k + 1 >= st.robots_per:
            st.run_at = RunPoint(k, SLOTS_PER_ROBOT, 0)
            end_turn(st, events)
            return
        k, first_slot = k + 1, 0
        begin_robot(st, k, events)


def perform(st: TtbState, rid: int, op: int, events: list[Event]) -> bool:
    """One elementary operation by robot ``rid``; False if a Forward step could not move."""
    return _OPERATIONS[op](st, rid, op, events)


def _forward(st: TtbState, rid: int, op: int, events: list[Event]) -> bool:
    return movement.step(st, rid, st.rface[rid], events, "forward")


def _back_up(st: TtbState, rid: int, op: int, events: list[Event]) -> bool:
    return movement.step(st, rid, opposite(st.rface[rid]), events, "back_up")


def _turn(st: TtbState, rid: int, op: int, events: list[Event]) -> bool:
    facing = st.rface[rid] = _TURNED[op][st.rface[rid]]
    events.append(turn_event[st.names[rid], st.rhex[rid], FACING_NAMES[facing]])
    return True


def _load(st: TtbState, rid: int, op: int, events: list[Event]) -> bool:
    crystals.load(st, rid, events)
    return True


def _unload(st: TtbState, rid: int, op: int, events: list[Event]) -> bool:
    crystals.unload(st, rid, events)
    return True


def _zap(st: TtbState, rid: int, op: int, events: list[Event]) -> bool:
    zaps.zap(st, rid, ZAP_RANGE if op == ZAP else UNLIMITED, events)
    return True


def _jump(st: TtbState, rid: int, op: int, events: list[Event]) -> bool:
    movement.jump(st, rid, events)
    return True


_OPERATIONS: dict[int, Callable[[TtbState, int, int, list[Event]], bool]] = {
    FORWARD: _forward,
    BACK_UP: _back_up,
    **dict.fromkeys(TURNS, _turn),
    LOAD: _load,
    UNLOAD: _unload,
    ZAP: _zap,
    LONG_RANGE_ZAP: _zap,
    JUMP: _jump,
}
#: _TURNED[op][facing]: the facing after a turn operation (hexgrid.turn, tabulated)
_TURNED = {op: tuple(turn(facing, sides) for facing in range(6)) for op, sides in TURNS.items()}
#: The rule function of each operation, indexed by operation (the run loops read it).
OPERATIONS = tuple(_OPERATIONS[op] for op in range(max(_OPERATIONS) + 1))
