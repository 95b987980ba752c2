"""Twin Tin Bots: program two robots with Order tiles to harvest crystals on a hex board.

Rules: shared/rules/000_70837b9282058d8c.txt; decisions: docs/games/twin-tin-bots.md.

>>> from robotable.games.twin_tin_bots import GAME, Place, Tile
>>> state = GAME.start(num_players=2, seed=3)
>>> seat = state.to_act()[0]
>>> _ = state.apply(seat, Place(0, Tile.FORWARD_1)); _ = state.apply(seat, Place(3, Tile.TURN_LEFT))
>>> state.view(None)["round"], state.to_act() != [seat]
(1, True)
"""

from .actions import (
    DoubleModification,
    MoveBlob,
    Pass,
    Place,
    PlaceCrystal,
    Remove,
    Reset,
    Swap,
    ZapOrder,
    action_from_index,
    action_index,
)
from .components import Tile
from .game import GAME, TwinTinBots
from .hexgrid import Facing
from .preview import Preview, preview
from .state import TtbState

__all__ = [
    "GAME",
    "DoubleModification",
    "Facing",
    "MoveBlob",
    "Pass",
    "Place",
    "PlaceCrystal",
    "Preview",
    "Remove",
    "Reset",
    "Swap",
    "Tile",
    "TtbState",
    "TwinTinBots",
    "ZapOrder",
    "action_from_index",
    "action_index",
    "preview",
]
