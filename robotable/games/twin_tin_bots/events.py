"""The most frequent events of a program run, built once and shared.

Events are immutable, and most of those a run reports repeat exactly (robot A starts its program,
red-B turns to face E on [1, 0]...): these constructors hand out one shared :class:`~robotable.core.Event`
per distinct content instead of building a new one each time, which is most of the cost of a run.
Hexes are given as tuples and stored as ``[q, r]`` lists (their JSON form).

>>> turn_event("red-A", (1, 0), "E") is turn_event("red-A", (1, 0), "E")
True
>>> turn_event("red-A", (1, 0), "E").to_json()
{'type': 'turn', 'robot': 'red-A', 'hex': [1, 0], 'facing': 'E'}
"""

from __future__ import annotations

from collections.abc import Callable

from robotable.core import Event


def _shared(kind: str, *keys: str) -> Callable[..., Event]:
    cache: dict[tuple[object, ...], Event] = {}

    def make(*values: object) -> Event:
        event = cache.get(values)
        if event is None:
            data = {k: list(v) if isinstance(v, tuple) else v for k, v in zip(keys, values, strict=True)}
            event = cache[values] = Event(kind, data)
        return event

    make.__doc__ = f"The ``{kind}`` event with {', '.join(keys)}."
    return make


run_event = _shared("run", "robot")
order_event = _shared("order", "robot", "slot", "tile")
turn_event = _shared("turn", "robot", "hex", "facing")
move_event = _shared("move", "robot", "hex", "facing", "how")
mud_event = _shared("mud", "robot", "hex")
blocked_event = _shared("blocked", "robot", "hex", "how")
turn_start_event = _shared("turn_start", "colour", "round")
zap_event = _shared("zap", "robot", "hex", "hit")
ignored_event = _shared("ignored", "robot", "order", "why")
