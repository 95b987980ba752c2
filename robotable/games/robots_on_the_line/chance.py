"""The hidden draws of Robots on the Line, for research adapters that expose them as chance nodes.

Parts are drawn onto the lines from the top of each line's draw pile (the end of ``state.draw[line]``),
and a part with the maintenance icon draws the top maintenance tile (the end of ``state.maint``). An
adapter may arrange those piles before a move so that the tiles drawn are the ones its chance nodes
chose (no seat sees their order). Outcomes are the parts in catalogue order, then the maintenance tile
kinds. The torso stack is not a hidden pile here: its top is face up, and a player may look through it.

>>> from robotable.games.robots_on_the_line import GAME
>>> state = GAME.start(num_players=2, seed=1)
>>> sorted(DRAWS.piles(state)), len(DRAWS.outcomes)
(['line 0', 'line 1', 'maintenance'], 138)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .components import MAINTENANCE_KINDS, PARTS

if TYPE_CHECKING:
    from .state import RotlState


class LineDraws:
    """The lines' draw piles and the maintenance stack as hidden piles (see the module docstring)."""

    outcomes = tuple(p.id for p in PARTS) + MAINTENANCE_KINDS

    def piles(self, state: RotlState) -> dict[str, list[Any]]:
        """The hidden piles, drawn from the end of each list."""
        piles: dict[str, list[Any]] = {f"line {line}": pile for line, pile in enumerate(state.draw)}
        piles["maintenance"] = state.maint
        return piles

    def replace(self, state: RotlState, piles: dict[str, list[Any]]) -> None:
        """Put ``piles`` (lists with the same items, e.g. ones that watch their draws) in place of the
        state's hidden piles."""
        for line in range(len(state.draw)):
            state.draw[line] = piles[f"line {line}"]
        state.maint = piles["maintenance"]

    def outcome(self, pile: str, item: int | str) -> int:
        """The chance outcome of a tile: a part's catalogue index, or after the parts a maintenance kind."""
        if isinstance(item, str):  # the maintenance stack holds kinds, the lines' piles part indices
            return len(PARTS) + MAINTENANCE_KINDS.index(item)
        return item


DRAWS = LineDraws()
