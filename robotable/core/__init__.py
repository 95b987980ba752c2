"""The game contract every Robotable game implements, and what is common to all games.

Nothing here knows any particular game.
"""

from .actions import Action, ActionCodec, ActionEncoding, Event, visible_events
from .errors import (
    BadInput,
    BadOptions,
    GameOver,
    IllegalAction,
    NotYourTurn,
    Reason,
    RobotableError,
    UnknownGame,
    reason,
)
from .game import Game, State, play_random
from .options import Option, check_options
from .record import Match, Record, Step, replay, replay_steps, replay_views
from .registry import available, load, register
from .result import Result
from .rng import Rng

__all__ = [
    "Action",
    "ActionCodec",
    "ActionEncoding",
    "BadInput",
    "BadOptions",
    "Event",
    "Game",
    "GameOver",
    "IllegalAction",
    "Match",
    "NotYourTurn",
    "Option",
    "Reason",
    "Record",
    "Result",
    "Rng",
    "RobotableError",
    "State",
    "Step",
    "UnknownGame",
    "available",
    "check_options",
    "load",
    "play_random",
    "reason",
    "register",
    "replay",
    "replay_steps",
    "replay_views",
    "visible_events",
]
