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

    Params are as the English writes them: seats and places as 0-based indexes, components by their ids.
    Their names declare what people read instead (:func:`person_params`, used by the server):

    - a param named ``seat`` or ending in ``_seat`` is one seat, ``seats`` / ``*_seats`` a list of seats;
      a param named after a :data:`PLACES` kind (``slot``, ``pile``, ``line``, ``section``, or ending in
      ``_slot``, ...) is a place the engine counts from 0 (``*_slots`` ... a list): people read them from 1;
    - a value that is a :class:`Message` (a component's name: ``name(id, "names.parts")``, or any message
      of the catalogue), a :class:`Messages` list or a coded :class:`Reason` (a refusal inside a refusal)
      is sent as its catalogue key and params, and the client shows it in the reader's language.

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


class Message(str):
    """A value inside a refusal that people read from the catalogue: its ``str`` is the engine's English
    (an id such as ``hand-20``, so the refusal's English is unchanged), ``key`` the catalogue key of what
    people read (in the game's namespace unless it names one: ``names.parts.hand-20``) and ``params`` its
    values (converted like a :class:`Reason`'s).

    >>> m = name("hand-20", "names.parts")
    >>> m, m.key, m.params
    ('hand-20', 'names.parts.hand-20', {})
    >>> person_params({"tile": m, "slot": 0}, "robots-on-the-line")
    {'tile': {'key': 'robots-on-the-line:names.parts.hand-20', 'params': {}, 'text': 'hand-20'}, 'slot': 1}
    """

    key: str
    params: dict[str, Any]

    def __new__(cls, text: str, key: str, params: dict[str, Any] | None = None) -> Message:
        self = super().__new__(cls, text)
        self.key = key
        self.params = dict(params or {})
        return self


class Messages(str):
    """A list of :class:`Message` read as one value: its ``str`` is the engine's English, the items joined
    by ``separator``; people read the items in their language joined by the catalogue's
    ``app:list.separator``.

    >>> ms = Messages([name("red", "names.colour"), name("blue", "names.colour")], "; ")
    >>> str(ms), person_params({"colours": ms}, "tf22-reload")["colours"][1]["key"]
    ('red; blue', 'tf22-reload:names.colour.blue')
    """

    items: list[Message]

    def __new__(cls, items: list[Message], separator: str = ", ", text: str | None = None) -> Messages:
        """``text`` is the English when it is not the items joined (``str(a_list)``, say)."""
        self = super().__new__(cls, separator.join(items) if text is None else text)
        self.items = list(items)
        return self


def reason(code: str, template: str, **params: Any) -> Reason:
    """The refusal ``template.format(**params)`` (English, 0-based seats) with its catalogue ``code`` (a
    key in the game's namespace, or ``"app:..."`` for one the engine core gives in every game)."""
    return Reason(template.format(**params), code, params)


def name(component: object, group: str) -> Message:
    """A component named by the catalogue: ``component`` (its id, as the English writes it) read as the
    name under ``group`` (``names.parts`` gives ``names.parts.<id>``)."""
    return Message(str(component), f"{group}.{component}")


#: Places a game counts from 0 and people read from 1, by param name (``slot``, ``*_slot``; lists
#: ``*_slots``). A place the engine already counts from 1 (Robots on the Line's ``space``) is not one.
PLACES = ("slot", "pile", "line", "section")


def is_seat(name: str) -> bool:
    """Whether a :class:`Reason` param names one seat (``seat``, ``*_seat``)."""
    return name == "seat" or name.endswith("_seat")


def is_seat_list(name: str) -> bool:
    """Whether a :class:`Reason` param names a list of seats (``seats``, ``*_seats``)."""
    return name == "seats" or name.endswith("_seats")


def is_place(name: str) -> bool:
    """Whether a :class:`Reason` param names one place counted from 0 (``slot``, ``*_slot``: :data:`PLACES`)."""
    return any(name == kind or name.endswith(f"_{kind}") for kind in PLACES)


def is_place_list(name: str) -> bool:
    """Whether a :class:`Reason` param names a list of places counted from 0 (``slots``, ``*_slots``)."""
    return any(name == f"{kind}s" or name.endswith(f"_{kind}s") for kind in PLACES)


def is_from_zero(name: str) -> bool:
    """Whether a param is numbered from 0 by the engine and from 1 for people (a seat or a place)."""
    return is_seat(name) or is_place(name)


def person_params(params: dict[str, Any], namespace: str | None = None) -> dict[str, Any]:
    """``params`` as people read them: seats and places numbered from 1 (a list joined "1, 3"), a
    :class:`Message` as ``{"key", "params", "text"}`` (its key in ``namespace`` unless it names one), a
    :class:`Messages` as a list of those, other values that are not JSON scalars written as the English
    writes them.

    >>> person_params({"line": 0, "space": 3, "last_slot": 5, "piles": [0, 1]})
    {'line': 1, 'space': 3, 'last_slot': 6, 'piles': '1, 2'}
    """
    out: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, Messages):
            out[key] = [_message(m, namespace) for m in value.items]
        elif isinstance(value, Message):
            out[key] = _message(value, namespace)
        elif isinstance(value, Reason) and value.code:  # a refusal inside a refusal: its own message
            out[key] = _message(Message(str(value), value.code, value.params), namespace)
        elif is_from_zero(key) and type(value) is int:
            out[key] = value + 1
        elif (is_seat_list(key) or is_place_list(key)) and isinstance(value, list | tuple):
            out[key] = ", ".join(str(s + 1) for s in value)
        elif value is None or isinstance(value, str | int | float | bool):
            out[key] = value
        else:
            out[key] = str(value)
    return out


def _message(m: Message, namespace: str | None) -> dict[str, Any]:
    key = m.key if ":" in m.key or namespace is None else f"{namespace}:{m.key}"
    return {"key": key, "params": person_params(m.params, namespace), "text": str(m)}


def seat_params(params: dict[str, Any]) -> dict[str, Any]:
    """:func:`person_params` without a namespace (kept for its callers)."""
    return person_params(params)


class RobotableError(Exception):
    """Base class of every error Robotable raises on purpose.

    Raised with a :class:`Reason`, it keeps the reason's ``code`` and ``params`` (else ``None``): a code
    with a namespace (``app:errors.action.missing_field``) is absolute, one without is in the namespace of
    ``game``, the id of the game raising it when it says so.
    """

    def __init__(self, message: object = "", *args: object, game: str | None = None) -> None:
        super().__init__(message, *args)
        self.code: str | None = message.code if isinstance(message, Reason) else None
        self.params: dict[str, Any] | None = dict(message.params) if isinstance(message, Reason) else None
        self.game = game

    def catalogue_code(self) -> str | None:
        """The full catalogue key of this error (``<namespace>:<key>``), or ``None`` if it has none."""
        if not self.code:
            return None
        if ":" in self.code:
            return self.code
        return f"{self.game}:{self.code}" if self.game else None


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
