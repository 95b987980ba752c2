"""Robots on the Line: take parts from the production line, build robots, sell them to buyers.

Rules: shared/rules/004_d37cde2befd162f2.txt; decisions: docs/games/robots-on-the-line.md.

>>> from robotable.games.robots_on_the_line import GAME, EndTurn
>>> state = GAME.start(num_players=2, seed=3)
>>> _ = state.apply(0, EndTurn())
>>> state.to_act()
[1]
"""

from .actions import (
    Accept,
    ChooseTorso,
    Decline,
    EndTurn,
    FlipSwitch,
    FlipSwitches,
    Offer,
    PickJunk,
    SearchJunk,
    SellPart,
    SellRobot,
    StopPicking,
    SwapTorso,
    TakePart,
    TakeTorso,
    TradeJunk,
)
from .game import GAME, RobotsOnTheLine
from .helper import Assembly, best_robot
from .state import RotlState
from .workbench import evaluate

__all__ = [
    "GAME",
    "Accept",
    "Assembly",
    "ChooseTorso",
    "Decline",
    "EndTurn",
    "FlipSwitch",
    "FlipSwitches",
    "Offer",
    "PickJunk",
    "RobotsOnTheLine",
    "RotlState",
    "SearchJunk",
    "SellPart",
    "SellRobot",
    "StopPicking",
    "SwapTorso",
    "TakePart",
    "TakeTorso",
    "TradeJunk",
    "best_robot",
    "evaluate",
]
