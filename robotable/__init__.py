"""Robotable: three robot board games, complete and exact, for people, AI and research.

>>> import robotable
>>> game = robotable.games.load("tf22-reload")
>>> state = game.start(num_players=3, seed=7)
>>> state.to_act()
[0, 1, 2]
"""

from . import games
from .core import (
    Action,
    BadInput,
    BadOptions,
    Event,
    Game,
    GameOver,
    IllegalAction,
    Match,
    NotYourTurn,
    Record,
    Result,
    RobotableError,
    State,
    replay,
)

__version__ = "0.2.0"

__all__ = [
    "Action",
    "BadInput",
    "BadOptions",
    "Event",
    "Game",
    "GameOver",
    "IllegalAction",
    "Match",
    "NotYourTurn",
    "Record",
    "Result",
    "RobotableError",
    "State",
    "games",
    "replay",
]
