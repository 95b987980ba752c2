"""The most frequent events of a program run, built once and shared.

Events are immutable, and most of those a run reports repeat exactly (robot A starts its program,
red-B turns to face E on [1, 0]...): these constructors hand out one shared :class:`~robotable.core.Event`
per distinct content instead of building a new one each time, which is most of the cost of a run.
Hexes are given as tuples and stored as ``[q, r]`` lists (their JSON form).

>>> turn_event["red-A", (1, 0), "E"] is turn_event["red-A", (1, 0), "E"]
True
>>> turn_event["red-A", (1, 0), "E"].to_json()
{'type': 'turn', 'robot': 'red-A', 'hex': [1, 0], 'facing': 'E'}
"""

from __future__ import annotations

from robotable.core import Event


class _Shared(dict[object, Event]):
    """``table[values]``: the shared event of this kind with these values (built on first use; a dict
    lookup, so a repeated event costs no function call)."""

    def __init__(self, kind: str, *keys: str) -> None:
        super().__init__()
        self.kind = kind
        self.fields = keys

    def __missing__(self, values: object) -> Event:
        given: tuple[object, ...] = values if isinstance(values, tuple) and len(self.fields) > 1 else (values,)
        data = {k: list(v) if isinstance(v, tuple) else v for k, v in zip(self.fields, given, strict=True)}
        event = self[values] = Event(self.kind, data)
        return event


run_event = _Shared("run", "robot")
order_event = _Shared("order", "robot", "slot", "tile")
turn_event = _Shared("turn", "robot", "hex", "facing")
move_event = _Shared("move", "robot", "hex", "facing", "how")
mud_event = _Shared("mud", "robot", "hex")
blocked_event = _Shared("blocked", "robot", "hex", "how")
zap_event = _Shared("zap", "robot", "hex", "hit")
ignored_event = _Shared("ignored", "robot", "order", "why")
place_event = _Shared("place", "colour", "slot", "tile", "replaced")
turn_start_event = _Shared("turn_start", "colour", "round")
