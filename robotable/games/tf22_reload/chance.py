"""The hidden draws of TF22: RELOAD!, for research adapters that expose them as chance nodes.

The container cards are revealed two per battle from the top of the face-down stack (the end of
``state.deck``). An adapter may arrange that stack before a move so that the cards drawn are the ones its
chance nodes chose (nothing else changes: no seat sees the stack's order). Outcomes are card types
(colour, face value), numbered as the cards are (``colour * 4 + value``).

>>> from robotable.games.tf22_reload import GAME
>>> state = GAME.start(num_players=2, seed=1)
>>> list(DRAWS.piles(state)), len(DRAWS.outcomes), DRAWS.outcome("deck", state.deck[-1]) == state.deck[-1]
(['deck'], 16, True)

The deal (``DEAL``) is the first battle's two cards, drawn from the full stack: ``undeal`` puts them back
(and the container they activated), ``deal`` reveals two again.

>>> before = state.revealed
>>> DEAL.undeal(state)
>>> len(state.deck), state.revealed, state.battle
(28, [], 0)
>>> DEAL.deal(state)
>>> state.revealed == before, state.battle
(True, 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import battle
from .components import COLOUR_NAMES, NUM_COLOURS

if TYPE_CHECKING:
    from .state import Tf22State


class ContainerCards:
    """The face-down container-card stack as a hidden pile (see the module docstring)."""

    outcomes = tuple(f"{COLOUR_NAMES[c]} {v}" for c in range(NUM_COLOURS) for v in range(4))

    def piles(self, state: Tf22State) -> dict[str, list[int]]:
        """The hidden piles, drawn from the end of each list."""
        return {"deck": state.deck}

    def replace(self, state: Tf22State, piles: dict[str, list[int]]) -> None:
        """Put ``piles`` (lists with the same items, e.g. ones that watch their draws) in place of the
        state's hidden piles."""
        state.deck = piles["deck"]

    def outcome(self, pile: str, item: int) -> int:
        """The chance outcome of a card: its type."""
        return item


DRAWS = ContainerCards()


class OpeningReveal:
    """The deal as draws: the first battle's two container cards (see the module docstring)."""

    def undeal(self, state: Tf22State) -> None:
        """Put the revealed cards back on the stack (the top last) and the container they activated back
        in stock: the state before the first battle's reveal."""
        if state.activated >= 0:
            state.stock[state.activated] += 1
        state.deck.extend(reversed(state.revealed))
        state.revealed, state.activated, state.battle = [], -1, state.battle - 1

    def deal(self, state: Tf22State) -> None:
        """Reveal the first battle's two cards from the top of the stack."""
        battle.activate(state, [])


DEAL = OpeningReveal()
