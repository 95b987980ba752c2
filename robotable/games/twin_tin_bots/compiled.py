"""The program run, compiled: the same run as :func:`.running.run` (same state, same events), faster.

:func:`.running.run` is the rule as the rulebook states it, one operation at a time through the rule
functions. This module runs the same programs with these things done once instead of at every run:

- what each tile does on each slot of each robot is compiled once: the shared ``order`` event, the
  tile's operations, and whether a blocked step ends the tile (:func:`compiled_steps`);
- the board's move tables (:mod:`.move_tables`) say where a plain step goes and what a pulse crosses;
- each robot's turn, move, blocked and Zap events are found by hex, and its ignored Loads and Unloads
  are at hand (:class:`_RobotMoves`: the shared events of :mod:`.events`).

The operations that need no rule beyond those tables are carried out in the loop itself: turning, a
step onto an empty floor hex, a Load or Unload that is ignored (already loaded, nothing carried), a
Zap that meets no robot, crystal or Blob, a step against the board edge, a Base or a
Rock, a step of a robot without Dash against something with the board edge, a Base, a Rock or
something else behind it, a Load with no crystal in front. Every other case (Mud, pushing, Teleporters, Jump, loading,
unloading, a Zap that hits) calls the rule function of :mod:`.running`, as the plain
run does. ``tests/twin_tin_bots/test_ttb_compiled.py`` checks that both runs agree on random states.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robotable.core import Event

from .components import SLOTS_PER_ROBOT, TILE_NAMES, Tile
from .events import blocked_event, ignored_event, move_event, order_event, run_event, turn_event, zap_event
from .hexgrid import FACING_NAMES, OFFSETS, Hex
from .orders import BACK_UP, CHAINED_STEPS, FORWARD, LOAD, LONG_RANGE_ZAP, OP_NAMES, OPS_BY_TILE, TURNS, UNLOAD, ZAP
from .phases import RUN, RunPoint
from .running import OPERATIONS
from .turn import end_turn, start_turn

if TYPE_CHECKING:
    from .state import TtbState

#: One slot of a compiled program: its ``order`` event, the tile's operations, whether a step that
#: cannot move ends the tile (Forward 2x and 3x), and the slot; ``None`` for a slot that does nothing.
Step = tuple[Event, tuple[int, ...], bool, int] | None

#: Each robot's compiled slots, by robot name: ``[slot][tile]`` (tile -1, an empty slot, is the last).
_STEPS: dict[str, tuple[tuple[Step, ...], ...]] = {}
assert SLOTS_PER_ROBOT == 3, "the compiled run is written for three slots per robot (data/components.json)"
#: The run point once robot ``k``'s program has ended.
_ENDED = tuple(RunPoint(k, SLOTS_PER_ROBOT, 0) for k in range(2))
_TURNED = {op: tuple((facing + sides) % 6 for facing in range(6)) for op, sides in TURNS.items()}
_TURN_TABLE = tuple(_TURNED.get(op) for op in range(len(OP_NAMES)))  # None: not a turn
_REVERSE = (3, 4, 5, 0, 1, 2)
_ZAPS = frozenset({ZAP, LONG_RANGE_ZAP})
_DASH = int(Tile["DASH"])
assert (FORWARD, BACK_UP) == (0, 1)


def compiled_steps(name: str) -> tuple[tuple[Step, ...], ...]:
    """Robot ``name``'s program slots compiled: ``[slot][tile]`` is what the tile does on that slot."""
    steps = _STEPS.get(name)
    if steps is None:
        steps = _STEPS[name] = tuple(
            tuple(_compile(name, slot, tile) for tile in [*range(len(TILE_NAMES)), -1])
            for slot in range(SLOTS_PER_ROBOT)
        )
        _MOVES[name] = _RobotMoves(name)
    return steps


class _RobotMoves(dict[Hex, tuple[Event, ...]]):
    """One robot's events by hex (the shared ones of :mod:`.events`): ``[h][facing]`` turning to
    ``facing`` on ``h``, ``[h][6 + facing]`` and ``[h][12 + facing]`` a Forward step and a Back Up step
    onto ``h`` facing ``facing``, ``[h][18]`` and ``[h][19]`` a Forward step and a Back Up step blocked
    on ``h``, ``[h][20]`` a Zap stopped by ``h``; built for each hex on first use. ``ignored``: its
    Load ignored (already loaded, no crystal in front) and its Unload ignored (carries nothing)."""

    __slots__ = ("ignored", "name")

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.ignored = (
            ignored_event[name, "load", "already loaded"],
            ignored_event[name, "load", "no crystal in front"],
            ignored_event[name, "unload", "carries nothing"],
        )

    def __missing__(self, h: Hex) -> tuple[Event, ...]:
        name = self.name
        turns = tuple(turn_event[name, h, f] for f in FACING_NAMES)
        moves = tuple(move_event[name, h, f, how] for how in ("forward", "back_up") for f in FACING_NAMES)
        stopped = (blocked_event[name, h, "forward"], blocked_event[name, h, "back_up"], zap_event[name, h, None])
        events = self[h] = turns + moves + stopped
        return events


#: Each robot's turn and move events by hex, by robot name (filled with :data:`_STEPS`).
_MOVES: dict[str, _RobotMoves] = {}


def _compile(name: str, slot: int, tile: int) -> Step:
    ops = OPS_BY_TILE[tile] if tile >= 0 else ()
    return (order_event[name, slot, TILE_NAMES[tile]], ops, tile in CHAINED_STEPS, slot) if ops else None


def run(st: TtbState, events: list[Event]) -> None:  # noqa: C901 (one loop: the common operations inlined)
    """Run the active colour's programs from ``st.run_at`` until the turn ends or a decision is pending
    (:func:`.running.run`, compiled)."""
    c = st.order[st.turn]
    per = st.robots_per
    prog = st.programs[c]
    k, first_slot, op = st.run_at
    append = events.append
    names, rhex, rface, rcargo, stuck = st.names, st.rhex, st.rface, st.rcargo, st.stuck
    ground, blobs = st.ground, st.blobs
    board = st.board
    step_to, walled, line_of_fire, in_reach = board.tables
    mud = board.mud
    turned = _TURN_TABLE
    while True:
        rid = c * per + k
        name = names[rid]
        base = k * SLOTS_PER_ROBOT
        slot_0, slot_1, slot_2 = _STEPS.get(name) or compiled_steps(name)
        moves = _MOVES[name]
        program = (slot_0[prog[base]], slot_1[prog[base + 1]], slot_2[prog[base + 2]])
        for step in program[first_slot:] if first_slot else program:
            if step is None:
                continue
            event, ops, chained, slot = step
            if op:  # resuming inside this tile, after a decision
                todo, done, op = ops[op:], op, 0
            else:
                append(event)
                todo, done = ops, 0
            for o in todo:
                done += 1
                table = turned[o]
                if table is not None:  # a turn
                    facing = rface[rid] = table[rface[rid]]
                    append(moves[rhex[rid]][facing])
                    continue
                if o <= BACK_UP:  # Forward or Back Up: onto an empty floor hex, or against a wall
                    if not stuck[rid]:
                        h = rhex[rid]
                        d = rface[rid] if o == FORWARD else _REVERSE[rface[rid]]
                        n = step_to[h][d]
                        if n is not None and n not in ground and n not in rhex and n not in blobs:
                            rhex[rid] = n
                            stuck[rid] = n in mud
                            append(moves[n][6 + 6 * o + rface[rid]])  # (o: FORWARD 0, BACK_UP 1)
                            continue
                        if (
                            walled[h][d]
                            or (
                                n is not None  # a robot, crystal or Blob in front that cannot be pushed (no Dash):
                                and (
                                    walled[n][d]
                                    or ((m := step_to[n][d]) is not None and (m in rhex or m in ground or m in blobs))
                                )
                                and _DASH not in prog[base : base + SLOTS_PER_ROBOT]
                            )
                        ):
                            append(moves[h][18 + o])
                            if chained:
                                break
                            continue
                elif o in _ZAPS:  # a pulse that meets no robot, crystal or Blob
                    crossed, stop = (in_reach if o == ZAP else line_of_fire)[rhex[rid]][rface[rid]]
                    for n in crossed:
                        if n in rhex or n in ground or n in blobs:
                            break
                    else:
                        append(moves[stop][20] if stop is not None else zap_event[name, None, None])
                        continue
                elif o == LOAD:
                    if rcargo[rid]:
                        append(moves.ignored[0])
                        continue
                    h, (dq, dr) = rhex[rid], OFFSETS[rface[rid]]
                    f = (h[0] + dq, h[1] + dr)
                    if f not in ground and (f not in rhex or not rcargo[rhex.index(f)]):
                        append(moves.ignored[1])
                        continue
                elif o == UNLOAD and not rcargo[rid]:
                    append(moves.ignored[2])
                    continue
                moved = OPERATIONS[o](st, rid, o, events)
                if st.phase != RUN:
                    st.run_at = RunPoint(k, slot, done)
                    return
                if not moved and chained:
                    break
        if k + 1 >= per:
            st.run_at = _ENDED[k]
            if st.turn + 1 < len(st.order):  # (end_turn, inlined: the round goes on)
                st.turn += 1
                start_turn(st, events)
            else:
                end_turn(st, events)
            return
        k, first_slot = k + 1, 0
        append(run_event[names[rid + 1]])
