"""The actions of Twin Tin Bots.

The programming changes of the active colour (slots 0-2 are robot A's program, 3-5 robot B's):
:class:`Place`, :class:`Swap`, :class:`Remove`, :class:`Reset`, :class:`Pass` and
:class:`DoubleModification`. Then the pending decisions that arise while programs run:
:class:`ZapOrder` (what a zapped robot does), :class:`MoveBlob` (where a zapped Blob goes) and
:class:`PlaceCrystal` (where a new crystal enters when several hexes are equally close to the centre).

>>> Place(1, Tile.DASH).to_json()
{'type': 'place', 'slot': 1, 'tile': 'dash'}
>>> MoveBlob(None).to_json(), PlaceCrystal((1, -1)).to_json()
({'type': 'move_blob', 'direction': None}, {'type': 'place_crystal', 'hex': [1, -1]})
"""

from __future__ import annotations

from dataclasses import dataclass

from robotable.core import Action, BadInput

from .components import ZAP_ORDERS, Tile
from .hexgrid import Facing, board_hexes


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Place a tile from hand on ``slot`` (0-5); a tile already there goes back to hand."""

    type = "place"
    slot: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Swap two slots of the same robot's program (tile and tile, or tile and empty slot)."""

    type = "swap"
    slot_a: int
    slot_b: int


@dataclass(frozen=True, slots=True)
class Remove(Action):
    """Take the tile on ``slot`` back to hand."""

    type = "remove"
    slot: int


@dataclass(frozen=True, slots=True)
class Reset(Action):
    """Take every tile of one robot's program back to hand (``robot`` 0 = A, 1 = B)."""

    type = "reset"
    robot: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Leave the programs as they are (or stop making changes after a Double Modification)."""

    type = "pass"


@dataclass(frozen=True, slots=True)
class DoubleModification(Action):
    """Turn the Double Modification tile face down (once per game): make two changes this turn."""

    type = "double_modification"


@dataclass(frozen=True, slots=True)
class ZapOrder(Action):
    """The zapping player's choice for the zapped robot: forward_1, turn_left, turn_right, load or unload."""

    type = "zap_order"
    order: Tile


@dataclass(frozen=True, slots=True)
class MoveBlob(Action):
    """The zapping player moves the zapped Blob one hex in ``direction`` (pushing), or leaves it (null)."""

    type = "move_blob"
    direction: Facing | None


@dataclass(frozen=True, slots=True)
class PlaceCrystal(Action):
    """The active player puts the entering crystal on ``hex``, one of the free hexes closest to the centre."""

    type = "place_crystal"
    hex: tuple[int, int]


CHANGES = (Place, Swap, Remove, Reset, Pass, DoubleModification)
DECISIONS = (ZapOrder, MoveBlob, PlaceCrystal)
ACTION_TYPES = CHANGES + DECISIONS


def _every_action() -> tuple[Action, ...]:
    out: list[Action] = [Pass(), DoubleModification()]
    out += [Place(s, t) for s in range(6) for t in Tile if t != Tile["DOUBLE_MODIFICATION"]]
    out += [Swap(a, b) for a in range(6) for b in range(a + 1, 6) if a // 3 == b // 3]
    out += [Remove(s) for s in range(6)] + [Reset(k) for k in range(2)]
    out += [ZapOrder(Tile(t)) for t in ZAP_ORDERS]
    out += [MoveBlob(None)] + [MoveBlob(f) for f in Facing]
    out += [PlaceCrystal(h) for h in board_hexes(5)]
    return tuple(out)


#: Every action a game can ever offer, in a fixed order: the stable integer encoding for RL adapters.
ACTIONS: tuple[Action, ...] = _every_action()
_INDEX = {a: i for i, a in enumerate(ACTIONS)}


def action_index(action: Action) -> int:
    """The action's stable integer (swaps are written lower slot first).

    >>> action_index(Pass()), action_from_index(action_index(Place(3, Tile.JUMP))) == Place(3, Tile.JUMP)
    (0, True)
    >>> len(ACTIONS)
    239
    """
    if isinstance(action, Swap) and action.slot_a > action.slot_b:
        action = Swap(action.slot_b, action.slot_a)
    try:
        return _INDEX[action]
    except (KeyError, TypeError):
        raise BadInput(f"twin-tin-bots: {action!r} has no integer encoding (not a possible action)") from None


def action_from_index(index: int) -> Action:
    """The action of a stable integer (see :func:`action_index`)."""
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(ACTIONS):
        raise BadInput(f"twin-tin-bots: action index must be 0 to {len(ACTIONS) - 1}, got {index!r}")
    return ACTIONS[index]
