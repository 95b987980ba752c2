"""The hidden draws of Twin Tin Bots, for research adapters that expose them as chance nodes.

A Special Order is drawn from the top of the face-down stack (the end of ``state.stack``) when a blue
crystal is delivered. An adapter may arrange that stack before a move so that the tile drawn is the one
its chance node chose (no seat sees the stack's order). Outcomes are the Special Orders, in
``components.SPECIALS`` order.

>>> from robotable.games.twin_tin_bots import GAME
>>> state = GAME.start(num_players=2, seed=1)
>>> list(DRAWS.piles(state)), len(DRAWS.outcomes)
(['specials'], 13)

The deal (``DEAL``) is each colour's first Special Order, drawn from the full stack in turn order (none in
the simplified game): ``undeal`` puts them back, ``deal`` draws them again.

>>> first = [list(tiles) for tiles in state.specials]
>>> DEAL.undeal(state)
>>> len(state.stack), state.specials
(13, [[], []])
>>> DEAL.deal(state)
>>> state.specials == first
True
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


class FirstSpecialOrders:
    """The deal as draws: each colour's first Special Order (see the module docstring)."""

    def undeal(self, state: TtbState) -> None:
        """Put each colour's dealt Special Order back on the stack (the first dealt on top)."""
        for colour in reversed(state.order):
            if state.specials[colour]:
                state.stack.append(state.specials[colour].pop())

    def deal(self, state: TtbState) -> None:
        """Each colour in turn order draws a Special Order from the top of the stack (as the setup does)."""
        if not state.stack:  # the simplified game has no Special Orders
            return
        for colour in state.order:
            state.specials[colour].append(state.stack.pop())


DEAL = FirstSpecialOrders()
