"""What never moves in a game of Twin Tin Bots: the arena, the Bases, Rocks, Teleporters and Mud.

And how the things that do move are named when they stand on a hex: ``(ROBOT, robot id)``,
``(GROUND, hex)`` for a crystal on the ground, ``(BLOB_THING, blob index)``.

>>> board = Board(4, [(0, -4)], rocks=[(1, 1)], teleporters=[((0, 2), (2, -2))], mud=[(-1, 0)])
>>> board.solid((1, 1)), board.solid((0, -4)), board.solid((5, 0)), board.solid((-1, 0))
(True, True, True, False)
>>> board.tele[(2, -2)]
(0, 2)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .hexgrid import Hex, board_hexes
from .move_tables import MoveTables, move_tables

#: What stands on a hex, as ``(kind, reference)``.
ROBOT, GROUND, BLOB_THING = 0, 1, 2
Thing = tuple[int, Any]


class Board:
    """The arena, the Bases, Rocks, Teleporters and Mud (shared by every copy of a state)."""

    __slots__ = ("base_at", "bases", "hexes", "mud", "radius", "rocks", "tables", "tele", "teleporters")

    def __init__(
        self,
        radius: int,
        bases: Iterable[Hex],
        rocks: Iterable[Hex] = (),
        teleporters: Iterable[tuple[Hex, Hex]] = (),
        mud: Iterable[Hex] = (),
    ) -> None:
        self.radius = radius
        self.hexes: frozenset[Hex] = frozenset(board_hexes(radius))
        self.bases: tuple[Hex, ...] = tuple(bases)
        self.base_at: dict[Hex, int] = {h: c for c, h in enumerate(self.bases)}
        self.rocks: frozenset[Hex] = frozenset(rocks)
        self.teleporters: tuple[tuple[Hex, Hex], ...] = tuple((a, b) for a, b in teleporters)
        self.tele: dict[Hex, Hex] = {}
        for a, b in self.teleporters:
            self.tele[a] = b
            self.tele[b] = a
        self.mud: frozenset[Hex] = frozenset(mud)
        #: Where steps and pulses go from each hex (for the compiled program run).
        self.tables: MoveTables = move_tables(radius, self.bases, self.rocks, tuple(sorted(self.tele)))

    def solid(self, h: Hex) -> bool:
        """Off the board, a Base or a Rock: nothing can enter or be pushed there."""
        return h not in self.hexes or h in self.base_at or h in self.rocks
