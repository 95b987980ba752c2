"""Move tables of a board, computed once per board: where a plain step goes and what a Zap's pulse
crosses, from every hex in every direction. They only tabulate :mod:`.board`'s fixed facts (the
arena, Bases, Rocks, Teleporters) for the compiled program run (:mod:`.compiled`); the rules that
read them stay in :mod:`.movement` and :mod:`.zaps`.

>>> tables = move_tables(2, ((0, -2),), frozenset({(1, 0)}), ((-1, 0), (1, -1)))
>>> tables.step_to[(0, 0)][0] is None, tables.step_to[(0, 0)][5]   # E is a Rock; SE is open floor
(True, (0, 1))
>>> tables.step_to[(0, -1)][2] is None                            # NW of (0, -1) is a Base
True
>>> tables.walled[(0, 0)][0], tables.walled[(-2, 1)][3], tables.walled[(0, 0)][3]  # a Rock, the edge; W: a Teleporter
(True, True, False)
>>> tables.line_of_fire[(0, 0)][2]                                 # NW: (0, -1), then the Base stops it
(((0, -1),), (0, -2))
>>> tables.line_of_fire[(0, 0)][5]                                 # SE: two hexes, then the board edge
(((0, 1), (0, 2)), None)
>>> tables.in_reach[(0, 0)][2], tables.in_reach[(-2, 2)][1]       # NW: the Base is in reach; NE: 2 hexes
((((0, -1),), (0, -2)), (((-1, 1), (0, 0)), None))
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from .components import ZAP_RANGE
from .hexgrid import OFFSETS, Hex, board_hexes


class MoveTables(NamedTuple):
    """``step_to[h][d]``: the hex a step from ``h`` in direction ``d`` enters when it is open floor
    (on the board, no Base, Rock or Teleporter; Mud counts as floor), else ``None`` (the full rule,
    :func:`.movement.arrive`, decides there). ``walled[h][d]``: whether nothing can ever leave ``h``
    in direction ``d`` (the board edge, a Base or a Rock is there). ``line_of_fire[h][d]``: the open
    hexes a pulse from ``h`` toward ``d`` crosses in order, and the Base, Rock or Teleporter hex that
    stops it (``None`` if the line runs off the board). ``in_reach[h][d]``: the same within a Zap's
    reach (``ZAP_RANGE`` hexes): the open hexes crossed, and the hex that stops the pulse within reach
    (``None``: it fizzles)."""

    step_to: dict[Hex, tuple[Hex | None, ...]]
    walled: dict[Hex, tuple[bool, ...]]
    line_of_fire: dict[Hex, tuple[tuple[tuple[Hex, ...], Hex | None], ...]]
    in_reach: dict[Hex, tuple[tuple[tuple[Hex, ...], Hex | None], ...]]


@lru_cache(maxsize=64)
def move_tables(radius: int, bases: tuple[Hex, ...], rocks: frozenset[Hex], teleporters: Iterable[Hex]) -> MoveTables:
    """The tables of a board (boards of the same layout share them)."""
    hexes = set(board_hexes(radius))
    walls = set(bases) | set(rocks)
    blocking = walls | set(teleporters)
    step_to: dict[Hex, tuple[Hex | None, ...]] = {}
    walled: dict[Hex, tuple[bool, ...]] = {}
    line_of_fire: dict[Hex, tuple[tuple[tuple[Hex, ...], Hex | None], ...]] = {}
    in_reach: dict[Hex, tuple[tuple[tuple[Hex, ...], Hex | None], ...]] = {}
    for h in hexes:
        steps: list[Hex | None] = []
        walls_around: list[bool] = []
        lines: list[tuple[tuple[Hex, ...], Hex | None]] = []
        for dq, dr in OFFSETS:
            n = (h[0] + dq, h[1] + dr)
            steps.append(n if n in hexes and n not in blocking else None)
            walls_around.append(n not in hexes or n in walls)
            crossed: list[Hex] = []
            while n in hexes and n not in blocking:
                crossed.append(n)
                n = (n[0] + dq, n[1] + dr)
            lines.append((tuple(crossed), n if n in hexes else None))
        step_to[h] = tuple(steps)
        walled[h] = tuple(walls_around)
        line_of_fire[h] = tuple(lines)
        in_reach[h] = tuple(
            (crossed[:ZAP_RANGE], stop if len(crossed) < ZAP_RANGE else None) for crossed, stop in lines
        )
    return MoveTables(step_to, walled, line_of_fire, in_reach)
