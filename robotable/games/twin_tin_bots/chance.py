"""The hidden draws of Twin Tin Bots, for research adapters that expose them as chance nodes.

A Special Order is drawn from the top of the face-down stack (the end of ``state.stack``) when a blue
crystal is delivered. An adapter may arrange that stack before a move so that the tile drawn is the one
its chance node chose (no seat sees the stack's order). Outcomes are the Special Orders, in
``components.SPECIALS`` order.

>>> from robotable.games.twin_tin_bots import GAME
>>> state = GAME.start(num_players=2, seed=1)
>>> list(DRAWS.piles(state)), len(DRAWS.outcomes)
(['specials'], 13)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .components import SPECIALS, TILE_NAMES

if TYPE_CHECKING:
    from .state import TtbState

_INDEX = {tile: i for i, tile in enumerate(SPECIALS)}


class SpecialOrders:
    """The Special Order stack as a hidden pile (see the module docstring)."""

    outcomes = tuple(TILE_NAMES[t] for t in SPECIALS)

    def piles(self, state: TtbState) -> dict[str, list[int]]:
        """The hidden piles, drawn from the end of each list."""
        return {"specials": state.stack}

    def replace(self, state: TtbState, piles: dict[str, list[int]]) -> None:
        """Put ``piles`` (lists with the same items, e.g. ones that watch their draws) in place of the
        state's hidden piles."""
        state.stack = piles["specials"]

    def outcome(self, pile: str, item: int) -> int:
        """The chance outcome of a tile: its place among the Special Orders."""
        return _INDEX[item]


DRAWS = SpecialOrders()
