"""Errors raised by Robotable.

Every entry point answers bad input with one of these, naming what was wrong, and changes nothing.

>>> from robotable.core.errors import IllegalAction, RobotableError
>>> issubclass(IllegalAction, RobotableError)
True
"""

from __future__ import annotations


class RobotableError(Exception):
    """Base class of every error Robotable raises on purpose."""


class BadInput(RobotableError, ValueError):
    """Input that is malformed: wrong shape, wrong type, unknown name (JSON, CLI, HTTP, websocket)."""


class BadOptions(BadInput):
    """Game options that are unknown or out of range, or a player count the game does not support."""


class IllegalAction(RobotableError):
    """A well-formed action that the rules do not allow in this state."""


class NotYourTurn(IllegalAction):
    """The seat is not one the game is waiting for: ``player`` (an index) and the ``waiting`` indexes.

    >>> str(NotYourTurn("seat 1 is not to act (waiting for seats [0])", player=1, waiting=[0]))
    'seat 1 is not to act (waiting for seats [0])'
    """

    def __init__(self, message: str, player: int | None = None, waiting: list[int] | None = None) -> None:
        super().__init__(message)
        self.player = player
        self.waiting = list(waiting or [])


class GameOver(IllegalAction):
    """The game has ended; no more actions are taken."""


class UnknownGame(BadInput):
    """No game is registered under that id."""
