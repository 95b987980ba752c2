"""Movement: Forward steps and pushing, Dash, Back Up, Jump, Teleporters and Mud.

The rules that are functions of the position (:func:`next_hex`, :func:`push_line`,
:func:`jump_landing`, :func:`stuck_at_turn_start`) take the fixed :class:`~.board.Board` and a
``thing_at(hex)`` lookup, so the engine and the AI's quick simulation share them; :func:`step`,
:func:`push` and :func:`jump` carry them out on a state and report events.

>>> board = Board(4, [(0, -4)], teleporters=[((1, 0), (-2, 2))])
>>> next_hex(board, (0, 0), 0)              # into the Teleporter on (1, 0): out beyond (-2, 2)
(-1, 2)
>>> next_hex(board, (0, -3), 2) is None     # a Base cannot be entered
True
>>> push_line(board, {(0, 1): (GROUND, (0, 1))}.get, (0, 0), 5, dash=False)
([(1, (0, 1))], [(0, 1), (0, 2)])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from robotable.core import Event

from .board import GROUND, ROBOT, Board, Thing
from .components import CRYSTAL_NAMES, Tile
from .events import blocked_event, move_event, mud_event
from .hexgrid import FACING_NAMES, OFFSETS, Hex, neighbour

if TYPE_CHECKING:
    from .state import TtbState

ThingAt = Callable[[Hex], Thing | None]
_DASH = int(Tile["DASH"])


# -- the rules of movement, as functions of the position --------------------------------------------


def arrive(board: Board, n: Hex, d: int) -> Hex | None:
    """Where something arriving on hex ``n`` while moving in direction ``d`` ends: ``n`` itself, or if
    ``n`` is a Teleporter, the hex beyond its pair (Teleporters: "it is immediately placed on the
    opposite side of the matching colour Teleporter"); ``None`` if that is off the board, a Base, a Rock
    or another Teleporter."""
    if n not in board.hexes or n in board.base_at or n in board.rocks:  # Board.solid, inlined: every step
        return None
    pair = board.tele.get(n)
    if pair is None:
        return n
    beyond = neighbour(pair, d)
    return None if board.solid(beyond) or beyond in board.tele else beyond


def next_hex(board: Board, h: Hex, d: int) -> Hex | None:
    """Where something leaving ``h`` in direction ``d`` lands: the next hex (see :func:`arrive`)."""
    dq, dr = OFFSETS[d]
    return arrive(board, (h[0] + dq, h[1] + dr), d)


def push_line(board: Board, thing_at: ThingAt, h: Hex, d: int, dash: bool) -> tuple[list[Thing], list[Hex]] | None:
    """What moving from ``h`` in direction ``d`` pushes, and the hex each moves to (the mover's first);
    ``None`` if the move is blocked. A robot, crystal or Blob is pushed if the hex behind it is empty;
    with ``dash`` a whole line is, if it ends in an empty hex before any Base, Rock or the board edge."""
    things: list[Thing] = []
    hexes: list[Hex] = []
    cur = h
    for _ in range(len(board.hexes)):
        nxt = next_hex(board, cur, d)
        if nxt is None or nxt == h:
            return None
        hexes.append(nxt)
        thing = thing_at(nxt)
        if thing is None:
            return things, hexes
        things.append(thing)
        if not dash and len(things) > 1:
            return None
        cur = nxt
    return None


def jump_landing(board: Board, h: Hex, d: int) -> Hex | None:
    """Where a Jump from ``h`` facing ``d`` lands, two hexes ahead over anything in between (see
    :func:`arrive`). The landing hex must still be empty."""
    return arrive(board, neighbour(h, d, 2), d)


def stuck_at_turn_start(board: Board, rhex: Sequence[Hex], stuck: Sequence[bool], own: Iterable[int]) -> list[bool]:
    """Mud has no memory: "should a robot start his turn in the Mud, it will need two Forward moves to get
    out". At the start of a colour's turn each of its robots (``own``) standing in Mud will ignore its
    next Forward step again; every other robot keeps its ``stuck`` flag (another colour's turn starting
    does not slow it).

    >>> stuck_at_turn_start(Board(4, [], mud=[(0, 0), (1, 0)]), [(0, 0), (1, 0), (2, 0)], [False] * 3, [0, 2])
    [True, False, False]
    """
    out = list(stuck)
    for rid in own:
        out[rid] = rhex[rid] in board.mud
    return out


# -- carrying them out on a state ------------------------------------------------------------------


def put(st: TtbState, thing: Thing, to: Hex, events: list[Event], how: str) -> None:
    """Move a robot, crystal or Blob to ``to``. A robot entering Mud is stuck; leaving it frees it."""
    kind, ref = thing
    if kind == ROBOT:
        st.rhex[ref] = to
        st.stuck[ref] = to in st.board.mud
        events.append(move_event[st.names[ref], to, FACING_NAMES[st.rface[ref]], how])
    elif kind == GROUND:
        value = st.ground.pop(ref)
        st.ground[to] = value
        events.append(Event("crystal_pushed", {"from": list(ref), "hex": list(to), "crystal": CRYSTAL_NAMES[value]}))
    else:
        frm = st.blobs[ref]
        st.blobs[ref] = to
        events.append(Event("blob_moved", {"from": list(frm), "hex": list(to)}))


def push(st: TtbState, thing: Thing, h: Hex, d: int, dash: bool, events: list[Event], how: str) -> bool:
    """Move what stands on ``h`` one hex in direction ``d``, pushing per the Forward rules; False if
    blocked."""
    line = push_line(st.board, st.thing_at, h, d, dash)
    if line is None:
        return False
    things, hexes = line
    for i in range(len(things) - 1, -1, -1):
        put(st, things[i], hexes[i + 1], events, "pushed")
    put(st, thing, hexes[0], events, how)
    return True


def step(st: TtbState, rid: int, d: int, events: list[Event], how: str) -> bool:
    """A Forward step (or Back Up) of robot ``rid`` in direction ``d``: ignored once after entering
    Mud; with Dash in its program the robot pushes whole lines. False if it could not move."""
    if st.stuck[rid]:
        st.stuck[rid] = False
        events.append(mud_event[st.names[rid], st.rhex[rid]])
        return True
    h = st.rhex[rid]
    dq, dr = OFFSETS[d]
    n = (h[0] + dq, h[1] + dr)
    board = st.board
    if (
        n in board.hexes
        and n not in board.base_at
        and n not in board.rocks
        and n not in board.tele
        and n not in st.rhex
        and n not in st.ground
        and n not in st.blobs
    ):  # the usual step: onto an empty hex, pushing nothing (what push and put do then)
        st.rhex[rid] = n
        st.stuck[rid] = n in board.mud
        events.append(move_event[st.names[rid], n, FACING_NAMES[st.rface[rid]], how])
        return True
    moved = push(st, (ROBOT, rid), st.rhex[rid], d, st.in_program(rid, _DASH), events, how)
    if not moved:
        events.append(blocked_event[st.names[rid], st.rhex[rid], how])
    return moved


def jump(st: TtbState, rid: int, events: list[Event]) -> None:
    """Jump two hexes ahead over anything; the landing hex must be empty. The facing does not change."""
    h = st.rhex[rid]
    land = jump_landing(st.board, h, st.rface[rid])
    if land is None or st.thing_at(land) is not None:
        events.append(blocked_event[st.names[rid], h, "jump"])
        return
    put(st, (ROBOT, rid), land, events, "jump")
