"""What each Order tile does, as the elementary operations programs are made of.

>>> TILE_OPS[Tile.FORWARD_THEN_ZAP] == (FORWARD, ZAP)
True
"""

from __future__ import annotations

from .components import Tile

FORWARD, BACK_UP, TURN_LEFT, TURN_RIGHT, TURN_2_LEFT, TURN_2_RIGHT, U_TURN = range(7)
LOAD, UNLOAD, ZAP, LONG_RANGE_ZAP, JUMP = range(7, 12)
OP_NAMES = (
    "forward",
    "back_up",
    "turn_left",
    "turn_right",
    "turn_2_left",
    "turn_2_right",
    "u_turn",
    "load",
    "unload",
    "zap",
    "long_range_zap",
    "jump",
)
#: Hex-sides turned (counter-clockwise positive) by each turning operation.
TURNS = {TURN_LEFT: 1, TURN_RIGHT: -1, TURN_2_LEFT: 2, TURN_2_RIGHT: -2, U_TURN: 3}

TILE_OPS: dict[int, tuple[int, ...]] = {
    Tile["FORWARD_1"]: (FORWARD,),
    Tile["FORWARD_2"]: (FORWARD, FORWARD),
    Tile["FORWARD_3"]: (FORWARD, FORWARD, FORWARD),
    Tile["TURN_LEFT"]: (TURN_LEFT,),
    Tile["TURN_RIGHT"]: (TURN_RIGHT,),
    Tile["TURN_2_LEFT"]: (TURN_2_LEFT,),
    Tile["TURN_2_RIGHT"]: (TURN_2_RIGHT,),
    Tile["U_TURN"]: (U_TURN,),
    Tile["LOAD"]: (LOAD,),
    Tile["UNLOAD"]: (UNLOAD,),
    Tile["ZAP"]: (ZAP,),
    Tile["DOUBLE_ZAP"]: (ZAP, ZAP),
    Tile["LONG_RANGE_ZAP"]: (LONG_RANGE_ZAP,),
    Tile["FORWARD_THEN_LOAD"]: (FORWARD, LOAD),
    Tile["FORWARD_THEN_ZAP"]: (FORWARD, ZAP),
    Tile["DASH"]: (FORWARD,),
    Tile["JUMP"]: (JUMP,),
    Tile["BACK_UP"]: (BACK_UP,),
    Tile["ANTI_ZAP"]: (),
    Tile["ANTI_THEFT"]: (),
    Tile["DOUBLE_MODIFICATION"]: (),
}
#: The same, as a tuple indexed by tile (for the run loop).
OPS_BY_TILE: tuple[tuple[int, ...], ...] = tuple(TILE_OPS[t] for t in range(len(TILE_OPS)))
#: Orders made of several Forward steps: the first step that cannot move ends the order.
CHAINED_STEPS = frozenset({Tile["FORWARD_2"], Tile["FORWARD_3"]})
#: What a zapped robot may be made to do, as the operation it performs.
ZAP_ORDER_OPS = {
    Tile["FORWARD_1"]: FORWARD,
    Tile["TURN_LEFT"]: TURN_LEFT,
    Tile["TURN_RIGHT"]: TURN_RIGHT,
    Tile["LOAD"]: LOAD,
    Tile["UNLOAD"]: UNLOAD,
}
