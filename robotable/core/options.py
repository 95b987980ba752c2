"""Game options: declared once per game, validated generically.

>>> opts = (Option("rounds", 2, "how many rounds", minimum=1, maximum=2),)
>>> check_options("demo", opts, {"rounds": 1})
{'rounds': 1}
>>> check_options("demo", opts, {"round": 1})
Traceback (most recent call last):
...
robotable.core.errors.BadOptions: demo: unknown option 'round' (known: rounds)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import BadInput, BadOptions, Message, reason


@dataclass(frozen=True)
class Option:
    """One option of a game: its name, default, meaning and allowed values.

    ``choices`` limits a value to a list; ``minimum``/``maximum`` bound an int; ``check`` validates and
    normalises anything richer (positions, lists), raising :class:`BadOptions` with a clear message.
    """

    name: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    check: Callable[[Any], Any] | None = None

    def validate(self, game_id: str, value: Any) -> Any:
        """The normalised value, or :class:`BadOptions` naming the option and the problem."""
        if self.check is not None:
            return self.check(value)
        game, option = Message(game_id, f"{game_id}:name"), self.label(game_id)
        if self.choices is not None:
            if value not in self.choices:
                raise BadOptions(
                    reason(
                        "app:errors.options.not_a_choice",
                        "{game}: option {option}: {value} is not one of {choices}",
                        game=game,
                        option=option,
                        value=repr(value),
                        choices=list(self.choices),
                    )
                )
            return value
        kind = type(self.default)
        if kind is bool and not isinstance(value, bool):
            raise BadOptions(
                reason(
                    "app:errors.options.not_a_bool",
                    "{game}: option {option}: expected true or false, got {value}",
                    game=game,
                    option=option,
                    value=repr(value),
                )
            )
        if kind is int:
            if not isinstance(value, int) or isinstance(value, bool):
                raise BadOptions(
                    reason(
                        "app:errors.options.not_an_int",
                        "{game}: option {option}: expected an integer, got {value}",
                        game=game,
                        option=option,
                        value=repr(value),
                    )
                )
            if self.minimum is not None and value < self.minimum:
                raise BadOptions(
                    reason(
                        "app:errors.options.below_minimum",
                        "{game}: option {option}: {value} is below the minimum {minimum}",
                        game=game,
                        option=option,
                        value=value,
                        minimum=self.minimum,
                    )
                )
            if self.maximum is not None and value > self.maximum:
                raise BadOptions(
                    reason(
                        "app:errors.options.above_maximum",
                        "{game}: option {option}: {value} is above the maximum {maximum}",
                        game=game,
                        option=option,
                        value=value,
                        maximum=self.maximum,
                    )
                )
        if kind is str and not isinstance(value, str):
            raise BadOptions(
                reason(
                    "app:errors.options.not_a_string",
                    "{game}: option {option}: expected a string, got {value}",
                    game=game,
                    option=option,
                    value=repr(value),
                )
            )
        return value

    def label(self, game_id: str) -> Message:
        """This option in a refusal: the English writes ``'name'``, people read its lobby label."""
        return Message(repr(self.name), f"{game_id}:options.{self.name}.label")

    def to_json(self) -> dict[str, Any]:
        """Description for lobbies and docs."""
        out: dict[str, Any] = {"name": self.name, "default": self.default, "description": self.description}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


def check_options(game_id: str, spec: Sequence[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option with its default filled in; unknown names and bad values raise BadOptions."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise BadOptions(
            reason(
                "app:errors.options.not_object",
                "{game}: options must be a JSON object, got {got}",
                game=Message(game_id, f"{game_id}:name"),
                got=type(given).__name__,
            )
        )
    known = {o.name: o for o in spec}
    for name in given:
        if name not in known:
            names = ", ".join(known) or "none"
            raise BadOptions(
                reason(
                    "app:errors.options.unknown",
                    "{game}: unknown option {option} (known: {known})",
                    game=Message(game_id, f"{game_id}:name"),
                    option=repr(name),
                    known=names,
                )
            )
    return {o.name: o.validate(game_id, given[o.name]) if o.name in given else o.default for o in spec}


def parse_options(text: str | None, flag: str = "--options") -> dict[str, Any]:
    """A command line's options JSON object (``{}`` when absent); anything else raises :class:`BadInput`.

    >>> parse_options('{"simplified": true}'), parse_options(None)
    ({'simplified': True}, {})
    """
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{flag} is not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise BadInput(f"{flag} must be a JSON object")
    return value
