"""Tables of facts about each part, computed once from the catalogue and indexed by part int.

The engine's hot paths (the assembly helper's quick tests, legal actions) read these instead of
recomputing a part's ports or kind each time. Each table is a tuple with one entry per part of
:data:`~.components.PARTS`.

>>> from .components import part_index
>>> ONE_PORT[part_index("head-01")], TURNS[part_index("elbow-01")], TURNS[part_index("extender-01")]
(1, 1, 0)
"""

from __future__ import annotations

from .components import PARTS, Part


def has_one_port(part: Part) -> bool:
    """A tile with a single port: it ends a segment (a head, base, hand or antenna)."""
    return len(part.ports) == 1


def turns(part: Part) -> bool:
    """A tile with ports on two adjacent sides, so a path of tiles may turn a corner on it (an elbow,
    a splitter; never an extender, whose ports face each other)."""
    sides = {side for side, _ in part.ports}
    return len(sides) >= 2 and any((side + 1) % 4 in sides for side in sides)


#: 1 for a part with a single port, else 0 (to be summed).
ONE_PORT: tuple[int, ...] = tuple(int(has_one_port(p)) for p in PARTS)
#: 1 for a part a path of tiles may turn on, else 0 (to be summed).
TURNS: tuple[int, ...] = tuple(int(turns(p)) for p in PARTS)
