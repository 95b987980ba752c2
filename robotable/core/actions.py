"""Actions and events: small frozen values with a stable JSON form.

A game's actions subclass :class:`Action` as frozen dataclasses with a ``type`` tag; the JSON codec is
generic, driven by the field annotations (``int``, ``bool``, ``str``, an ``IntEnum`` written by its
lower-case name, ``tuple[...]`` and ``X | None``).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Move(Action):
...     type = "move"
...     slot: int
>>> codec = ActionCodec("demo", [Move])
>>> codec.from_json({"type": "move", "slot": 2})
Move(slot=2)
>>> Move(2).to_json()
{'type': 'move', 'slot': 2}
>>> codec.from_json({"type": "move"})
Traceback (most recent call last):
...
robotable.core.errors.BadInput: demo action 'move': missing field 'slot'
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import BadInput, Message, Reason, reason


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every game's actions. Subclasses set the class attribute ``type``."""

    type: ClassVar[str] = "action"

    def to_json(self) -> dict[str, Any]:
        """The action's JSON form: ``{"type": ..., field: value, ...}``."""
        out: dict[str, Any] = {"type": self.type}
        for name in _field_names(type(self)):
            out[name] = _encode(getattr(self, name))
        return out


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _encode(value: Any) -> Any:
    if type(value) is int:
        return value
    if isinstance(value, enum.IntEnum):
        return value.name.lower()
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


class ActionCodec:
    """Decodes a game's actions from JSON, checking every field against its annotation."""

    def __init__(self, game_id: str, classes: Iterable[type[Action]]) -> None:
        self.game_id = game_id
        self.classes: dict[str, type[Action]] = {}
        self.fields: dict[str, list[tuple[str, Any]]] = {}
        for cls in classes:
            if cls.type in self.classes:
                raise ValueError(f"two action classes share the type {cls.type!r}")
            hints = typing.get_type_hints(cls)
            self.classes[cls.type] = cls
            self.fields[cls.type] = [(f.name, hints[f.name]) for f in dataclasses.fields(cls)]

    def from_json(self, data: object) -> Action:
        """Build an action from its JSON form; raise :class:`BadInput` naming what is wrong (with a
        ``app:errors.action.*`` code: docs/i18n.md)."""
        where = f"{self.game_id} action"
        game = Message(self.game_id, f"{self.game_id}:name")
        if not isinstance(data, Mapping):
            raise BadInput(
                reason(
                    "app:errors.action.not_object",
                    "{game} action: expected a JSON object, got {got}",
                    game=game,
                    got=type(data).__name__,
                )
            )
        kind = data.get("type")
        if not isinstance(kind, str):
            raise BadInput(
                reason(
                    "app:errors.action.type_not_string",
                    "{game} action: 'type' must be a string, got {got}",
                    game=game,
                    got=type(kind).__name__,
                )
            )
        if kind not in self.classes:
            known = ", ".join(sorted(self.classes))
            raise BadInput(
                reason(
                    "app:errors.action.unknown_type",
                    "{game} action: unknown type {type} (one of: {known})",
                    game=game,
                    type=repr(kind),
                    known=known,
                )
            )
        where = f"{where} {kind!r}"
        spec = self.fields[kind]
        extra = set(data) - {"type"} - {name for name, _ in spec}
        if extra:
            raise BadInput(
                reason(
                    "app:errors.action.unknown_fields",
                    "{game} action {type}: unknown field(s) {fields}",
                    game=game,
                    type=repr(kind),
                    fields=", ".join(sorted(map(str, extra))),
                )
            )
        values = {}
        for name, tp in spec:
            if name not in data:
                raise BadInput(
                    reason(
                        "app:errors.action.missing_field",
                        "{game} action {type}: missing field {field}",
                        game=game,
                        type=repr(kind),
                        field=repr(name),
                    )
                )
            try:
                values[name] = decode_value(data[name], tp, f"{where}: field {name!r}")
            except BadInput as exc:
                if isinstance(exc.args[0] if exc.args else None, Reason):
                    raise
                text = str(exc)  # the English as before, with the catalogue's shorter form beside it
                raise BadInput(
                    Reason(
                        text,
                        "app:errors.action.bad_field",
                        {"game": game, "type": repr(kind), "field": repr(name), "detail": text.rsplit(": ", 1)[-1]},
                    )
                ) from None
        return self.classes[kind](**values)


def decode_value(value: Any, tp: Any, where: str) -> Any:
    """Check and convert one JSON value against a type annotation (raise :class:`BadInput` naming it)."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return _decode_union(value, tp, where)
    if tp is Any:
        return value
    if origin is list:
        (item,) = typing.get_args(tp)
        return [decode_value(v, item, f"{where}[{i}]") for i, v in enumerate(_json_list(value, where))]
    if origin is dict:
        return _decode_dict(value, tp, where)
    if origin is tuple:
        return _decode_tuple(value, tp, where)
    if isinstance(tp, type) and issubclass(tp, enum.IntEnum):
        return _decode_enum(value, tp, where)
    if tp in _SCALARS:
        kind, expected = _SCALARS[tp]
        if isinstance(value, kind) and (tp is bool or not isinstance(value, bool)):
            return value
        raise BadInput(f"{where}: expected {expected}, got {value!r}")
    raise TypeError(f"unsupported annotation {tp!r}")


#: Scalar annotations: the JSON type that carries them and how an error names it.
_SCALARS: dict[Any, tuple[type, str]] = {
    bool: (bool, "true or false"),
    int: (int, "an integer"),
    str: (str, "a string"),
}


def _decode_union(value: Any, tp: Any, where: str) -> Any:
    errors = []
    for option in typing.get_args(tp):
        if option is type(None):
            if value is None:
                return None
            continue
        try:
            return decode_value(value, option, where)
        except BadInput as exc:
            errors.append(str(exc))
    raise BadInput(errors[0] if errors else f"{where}: expected null, got {value!r}")


def _json_list(value: Any, where: str) -> list[Any] | tuple[Any, ...]:
    if not isinstance(value, list | tuple):
        raise BadInput(f"{where}: expected a list, got {value!r}")
    return value


def _decode_dict(value: Any, tp: Any, where: str) -> dict[str, Any]:
    _, item = typing.get_args(tp)
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise BadInput(f"{where}: expected a JSON object, got {value!r}")
    return {k: decode_value(v, item, f"{where}.{k}") for k, v in value.items()}


def _decode_tuple(value: Any, tp: Any, where: str) -> tuple[Any, ...]:
    args = typing.get_args(tp)
    value = _json_list(value, where)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(decode_value(v, args[0], f"{where}[{i}]") for i, v in enumerate(value))
    if len(value) != len(args):
        raise BadInput(f"{where}: expected a list of {len(args)} items, got {len(value)}")
    return tuple(decode_value(v, a, f"{where}[{i}]") for i, (v, a) in enumerate(zip(value, args)))


def _decode_enum(value: Any, tp: type[enum.IntEnum], where: str) -> enum.IntEnum:
    names = {m.name.lower(): m for m in tp}
    if isinstance(value, str) and value.lower() in names:
        return names[value.lower()]
    raise BadInput(f"{where}: expected one of {', '.join(names)}, got {value!r}")


@dataclass(slots=True, unsafe_hash=True)
class Event:
    """Something that happened while an action resolved.

    ``audience`` is ``None`` for a public event, else the seats that may see it (a private draw, a
    secret choice confirmed to its chooser). Views, logs and replays pass events through
    :func:`visible_events`.

    Events are values: never change one (games may share one event between several results). The class
    is not ``frozen`` only because a frozen dataclass is built 2.5x slower, and engines build several
    events per action.
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    audience: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` = spectator) may see this event."""
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{"type": ..., **data}`` (the audience is server-side only)."""
        return {"type": self.type, **self.data}


def visible_events(events: Sequence[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see, in order."""
    return [e for e in events if e.visible_to(seat)]


@dataclass(frozen=True)
class ActionEncoding:
    """A game's stable integer action encoding, declared as data on its :class:`~robotable.core.Game`
    (``action_encoding``): its ``size`` (every index is below it), ``index`` (action to integer, never
    looking at a state) and ``from_index`` (its inverse where no state is needed). See
    :meth:`Game.num_distinct_actions` for the rule every encoding keeps."""

    size: int
    index: Callable[[Action], int]
    from_index: Callable[[int], Action]
