"""Reading a state's JSON: one policy and one error format for every game.

The policy: every field a state's ``to_json`` writes must be there; a missing field is refused, naming
it (nothing is filled in from a new game). Every value is checked for its type and, where the game knows
them, its bounds; every error is a :class:`BadInput` reading ``"<game> state: field '<path>': <problem>"``
(or ``"<game> state: missing field '<path>'"``), where ``path`` is the field's place in the JSON
(``hands[1]``, ``this_turn.picks_left``).

>>> reader = StateReader("demo", {"num_players": 3, "round": 1, "hands": [[1], [], [2, 3]], "turn": {}})
>>> reader.int("num_players", 2, 4)
3
>>> reader.per_seat("hands", 3, list[int])
[[1], [], [2, 3]]
>>> reader.choice("round", (1, 2))
1
>>> reader.int("round", 2, 2)
Traceback (most recent call last):
robotable.core.errors.BadInput: demo state: field 'round': must be 2 to 2, got 1
>>> reader.object("turn").field("picks_left", int)
Traceback (most recent call last):
robotable.core.errors.BadInput: demo state: missing field 'turn.picks_left'
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from .actions import decode_value
from .errors import BadInput

T = TypeVar("T")


class StateReader:
    """Reads one JSON object of a game's state field by field, naming the field in every error.

    ``path`` is where the object sits inside the whole state (``""`` for the state itself); nested
    objects are read with :meth:`object` so that errors name the full path.
    """

    __slots__ = ("data", "game_id", "path")

    def __init__(self, game_id: str, data: object, path: str = "") -> None:
        self.game_id = game_id
        self.path = path
        if not isinstance(data, Mapping):
            raise BadInput(f"{game_id} state{f': field {path!r}' if path else ''}: expected a JSON object")
        self.data = data

    # -- errors -------------------------------------------------------------------------------------

    def where(self, key: str | int) -> str:
        """The full path of ``key`` in this object (an int key is a list index)."""
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    def fail(self, key: str, problem: str) -> BadInput:
        """The error for field ``key`` (a path relative to this object) and ``problem`` (raise it)."""
        return BadInput(f"{self.game_id} state: field {self.where(key)!r}: {problem}")

    def fail_state(self, problem: str) -> BadInput:
        """The error for a problem of the whole state, across fields (raise it)."""
        return BadInput(f"{self.game_id} state: {problem}")

    # -- fields -------------------------------------------------------------------------------------

    def has(self, key: str) -> bool:
        """Whether ``key`` is present (for fields whose absence the game's format allows, like ``game``)."""
        return key in self.data

    def field(self, key: str, tp: Any = Any) -> Any:
        """The value of ``key`` checked against the annotation ``tp`` (``int``, ``list[str]``,
        ``int | None`` ...); missing or mistyped raises :class:`BadInput` naming the field."""
        if key not in self.data:
            raise BadInput(f"{self.game_id} state: missing field {self.where(key)!r}")
        return self.decode(self.data[key], tp, key)

    def decode(self, value: object, tp: Any, key: str) -> Any:
        """``value`` (found at ``key``, relative to this object) checked against ``tp``."""
        try:
            return decode_value(value, tp, "")
        except BadInput as exc:
            inner = str(exc)
            # decode_value reports ": problem" or "[i]: problem" / ".k: problem" relative to the value
            suffix, _, problem = inner.partition(": ")
            raise BadInput(f"{self.game_id} state: field {self.where(key) + suffix!r}: {problem}") from None

    def int(self, key: str, low: int | None = None, high: int | None = None) -> int:
        """An integer field, optionally within ``low..high`` (inclusive)."""
        value: int = self.field(key, int)
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = (
                f"{low} to {high}"
                if low is not None and high is not None
                else (f"at least {low}" if low is not None else f"at most {high}")
            )
            raise self.fail(key, f"must be {bounds}, got {value}")
        return value

    def choice(self, key: str, choices: Sequence[T]) -> T:
        """A field whose value must be one of ``choices``."""
        value: T = self.field(key)
        if value not in choices or isinstance(value, bool) != any(isinstance(c, bool) for c in choices):
            raise self.fail(key, f"must be one of {', '.join(map(str, choices))}, got {value!r}")
        return value

    def lookup(self, key: str, table: Mapping[str, T], what: str = "name") -> T:
        """A name field translated through ``table`` (unknown names are refused, naming the field)."""
        value = self.field(key)
        return self.name(value, table, key, what)

    def name(self, value: object, table: Mapping[str, T], key: str, what: str = "name") -> T:
        """``value`` (found at ``key``) translated through ``table``."""
        if not isinstance(value, str) or value not in table:
            known = ", ".join(table) if len(table) <= 12 else f"{len(table)} known {what}s"
            raise self.fail(key, f"unknown {what} {value!r} ({known})")
        return table[value]

    def list(self, key: str, tp: Any = Any, length: builtins.int | None = None) -> builtins.list[Any]:
        """A list field of items of type ``tp``, optionally of exactly ``length`` items."""
        value: builtins.list[Any] = self.field(key, builtins.list[tp])
        if length is not None and len(value) != length:
            raise self.fail(key, f"needs {length} entries, got {len(value)}")
        return value

    def per_seat(self, key: str, num_players: builtins.int, tp: Any = Any) -> builtins.list[Any]:
        """A list field with one entry per seat."""
        value: builtins.list[Any] = self.field(key, builtins.list[tp])
        if len(value) != num_players:
            raise self.fail(key, f"needs one entry per seat ({num_players}), got {len(value)}")
        return value

    def items(self, key: str, read: Callable[[StateReader], T]) -> builtins.list[T]:
        """A list of JSON objects, each read by ``read`` with its own nested reader."""
        return [read(self.at(key, i, item)) for i, item in enumerate(self.list(key))]

    def object(self, key: str) -> StateReader:
        """A nested reader for the JSON object at ``key`` (errors name ``key.field``)."""
        return StateReader(self.game_id, self.field(key), self.where(key))

    def at(self, key: str, index: builtins.int, value: builtins.object) -> StateReader:
        """A nested reader for the object ``value`` at ``key[index]``."""
        return StateReader(self.game_id, value, f"{self.where(key)}[{index}]")

    def game(self, expected: str) -> None:
        """Refuse a state of another game (``game`` may be left out of a hand-written state)."""
        if self.data.get("game", expected) != expected:
            raise self.fail("game", f"this is a state of {self.data.get('game')!r}, not {expected!r}")
