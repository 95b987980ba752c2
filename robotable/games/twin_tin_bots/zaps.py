"""Zap!: the pulse, Anti-Zap, what a zapped robot is made to do, and zapped Blobs.

:func:`zap_scan` and :func:`zap_resisted` are functions of the position (shared with the AI);
:func:`zap` fires on a state and, on a hit, leaves the decision pending for the zapping player:
:func:`zap_order` (what the robot does) or :func:`move_blob` (where the Blob goes).

>>> from .board import ROBOT, Board
>>> board = Board(4, [(0, -4)])
>>> zap_scan(board, {(2, 0): (ROBOT, 3)}.get, (0, 0), 0, reach=2)
((2, 0), (0, 3))
>>> zap_scan(board, {(3, 0): (ROBOT, 3)}.get, (0, 0), 0, reach=2) is None     # out of range: fizzles
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from robotable.core import Event

from .actions import MoveBlob, ZapOrder
from .board import BLOB_THING, GROUND, Board, Thing
from .components import TILE_NAMES, ZAP_ORDERS, Tile
from .events import zap_event
from .hexgrid import OFFSETS, Hex
from .movement import push, push_line
from .orders import ZAP_ORDER_OPS
from .phases import BLOB, RUN, ZAP

if TYPE_CHECKING:
    from .state import TtbState

_ANTI_ZAP = int(Tile["ANTI_ZAP"])


def zap_scan(
    board: Board, thing_at: Callable[[Hex], Thing | None], h: Hex, d: int, reach: int
) -> tuple[Hex, Thing | None] | None:
    """The first non-empty hex the pulse from ``h`` toward ``d`` meets within ``reach`` hexes, with
    what stands there (``None`` for a Base, Rock or Teleporter, which stop it with no effect; a crystal
    stops it too); ``None`` if the pulse fizzles. Mud does not stop it."""
    dq, dr = OFFSETS[d]
    for i in range(1, reach + 1):
        n = (h[0] + dq * i, h[1] + dr * i)
        if n not in board.hexes:
            return None
        if n in board.base_at or n in board.rocks or n in board.tele:
            return (n, None)
        thing = thing_at(n)
        if thing is not None:
            return (n, thing)
    return None


def zap_resisted(opponents: bool, anti_zap: bool) -> bool:
    """Anti-Zap: a robot with Anti-Zap in its program is not affected by opponents' Zaps (friendly
    Zaps still hit it)."""
    return opponents and anti_zap


def zap(st: TtbState, rid: int, reach: int, events: list[Event]) -> None:
    """Robot ``rid`` zaps ahead up to ``reach`` hexes; a robot or Blob hit waits for the zapping
    player's decision."""
    name = st.names[rid]
    hit = zap_scan(st.board, st.thing_at, st.rhex[rid], st.rface[rid], reach)
    if hit is None:
        events.append(zap_event[name, None, None])
        return
    n, thing = hit
    if thing is None or thing[0] == GROUND:
        events.append(zap_event[name, n, None])
    elif thing[0] == BLOB_THING:
        st.phase, st.target = BLOB, thing[1]
        events.append(zap_event[name, n, "blob"])
    elif zap_resisted(
        st.opponents(st.robot_colour(rid), st.robot_colour(thing[1])), st.in_program(thing[1], _ANTI_ZAP)
    ):
        events.append(Event("zap", {"robot": name, "hex": list(n), "hit": st.names[thing[1]], "resisted": True}))
    else:
        st.phase, st.target = ZAP, thing[1]
        events.append(Event("zap", {"robot": name, "hex": list(n), "hit": st.names[thing[1]]}))


def blob_moves(st: TtbState) -> list[int]:
    """The directions the zapped Blob can be moved in (into an empty hex, or pushing one thing)."""
    h = st.blobs[st.target]
    return [d for d in range(6) if push_line(st.board, st.thing_at, h, d, False) is not None]


# -- the zapping player's decisions ----------------------------------------------------------------


def can_order(st: TtbState, action: ZapOrder) -> bool:
    """A zapped robot can be made to go Forward 1x, Turn Left or Right, Load or Unload."""
    return st.phase == ZAP and action.order in ZAP_ORDERS


def zap_order(st: TtbState, action: ZapOrder, events: list[Event]) -> None:
    """The zapped robot performs the chosen order with its own facing; then the run goes on."""
    victim, st.target = st.target, -1
    st.phase = RUN
    events.append(Event("zap_order", {"robot": st.names[victim], "order": TILE_NAMES[action.order]}))
    st.perform(victim, ZAP_ORDER_OPS[action.order], events)


def can_move_blob(st: TtbState, action: MoveBlob) -> bool:
    """A zapped Blob may be left, or moved where it can go."""
    if st.phase != BLOB:
        return False
    d = action.direction
    return d is None or push_line(st.board, st.thing_at, st.blobs[st.target], d, False) is not None


def move_blob(st: TtbState, action: MoveBlob, events: list[Event]) -> None:
    """The zapped Blob moves one hex (pushing per the Forward rules), or stays."""
    i, st.target = st.target, -1
    st.phase = RUN
    if action.direction is None:
        events.append(Event("blob_left", {"hex": list(st.blobs[i])}))
        return
    push(st, (BLOB_THING, i), st.blobs[i], action.direction, False, events, "zap")
