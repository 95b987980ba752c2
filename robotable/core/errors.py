"""Errors raised by Robotable.

Every entry point answers bad input with one of these, naming what was wrong, and changes nothing.

>>> from robotable.core.errors import IllegalAction, RobotableError
>>> issubclass(IllegalAction, RobotableError)
True
"""

from __future__ import annotations

from typing import Any


class Reason(str):
    """A refusal's English text that also says it for the catalogue: ``code`` is a key inside the game's
    namespace (docs/i18n.md) and ``params`` its values. It is a ``str`` (the engine's English, unchanged),
    so records, logs and the Python API read it as before; build one with :func:`reason`.

    Seats in ``params`` are 0-based indexes, as in the English. A param named ``seat`` or ending in
    ``_seat`` is one seat, one named ``seats`` or ending in ``_seats`` a list of seats: the server turns
    them to the numbers people read (from 1) before the catalogue shows them (:func:`seat_params`).

    >>> r = reason("refusals.no_torso", "seat {seat} has no torso", seat=0)
    >>> r, r.code, r.params
    ('seat 0 has no torso', 'refusals.no_torso', {'seat': 0})
    >>> isinstance(r, str) and r == "seat 0 has no torso"
    True
    >>> seat_params({"seat": 0, "waiting_seats": [0, 2], "count": 0})
    {'seat': 1, 'waiting_seats': '1, 3', 'count': 0}
    """

    code: str | None
    params: dict[str, Any]

    def __new__(cls, text: str, code: str | None = None, params: dict[str, Any] | None = None) -> Reason:
        self = super().__new__(cls, text)
        self.code = code
        self.params = dict(params or {})
        return self


def reason(code: str, template: str, **params: Any) -> Reason:
    """The refusal ``template.format(**params)`` (English, 0-based seats) with its catalogue ``code``."""
    return Reason(template.format(**params), code, params)


def is_seat(name: str) -> bool:
    """Whether a :class:`Reason` param names one seat (``seat``, ``*_seat``)."""
    return name == "seat" or name.endswith("_seat")


def is_seat_list(name: str) -> bool:
    """Whether a :class:`Reason` param names a list of seats (``seats``, ``*_seats``)."""
    return name == "seats" or name.endswith("_seats")


def seat_params(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` as people read them: seats numbered from 1 (a list joined "1, 3"), other values that are
    not JSON scalars written as the English writes them."""
    out: dict[str, Any] = {}
    for name, value in params.items():
        if is_seat(name) and type(value) is int:
            out[name] = value + 1
        elif is_seat_list(name) and isinstance(value, list | tuple):
            out[name] = ", ".join(str(s + 1) for s in value)
        elif value is None or isinstance(value, str | int | float | bool):
            out[name] = value
        else:
            out[name] = str(value)
    return out


class RobotableError(Exception):
    """Base class of every error Robotable raises on purpose."""


class BadInput(RobotableError, ValueError):
    """Input that is malformed: wrong shape, wrong type, unknown name (JSON, CLI, HTTP, websocket)."""


class BadOptions(BadInput):
    """Game options that are unknown or out of range, or a player count the game does not support."""


class IllegalAction(RobotableError):
    """A well-formed action that the rules do not allow in this state.

    Raised with a :class:`Reason`, it keeps the reason's ``code`` and ``params`` (else ``None``);
    ``game`` is the id of the game (the catalogue namespace of ``code``) when the state raising it says so.

    >>> e = IllegalAction(reason("refusals.no_torso", "seat {seat} has no torso", seat=1), game="robots-on-the-line")
    >>> str(e), e.code, e.params, e.game
    ('seat 1 has no torso', 'refusals.no_torso', {'seat': 1}, 'robots-on-the-line')
    >>> IllegalAction("plain").code is None
    True
    """

    def __init__(self, message: object = "", *args: object, game: str | None = None) -> None:
        super().__init__(message, *args)
        self.code: str | None = message.code if isinstance(message, Reason) else None
        self.params: dict[str, Any] | None = dict(message.params) if isinstance(message, Reason) else None
        self.game = game


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
