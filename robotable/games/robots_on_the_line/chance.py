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

The two lines' draw piles are one hidden pool (``shared``): the setup splits one shuffled pile in two,
so a part unseen is as likely in either, and a draw from either pile is a draw from both.

The deal (``DEAL``) is the parts the setup draws from the lines' piles: the junk, each seat's five
parts (a magnet drawn goes back into the pile at random) and the parts on the lines. ``undeal`` puts
them back, ``deal`` draws them again (the $5 each stays paid).

>>> hands = [list(hand) for hand in state.hands]
>>> DEAL.undeal(state)
>>> state.hands, sum(map(len, state.draw)) == len(PARTS)
([[], []], True)
>>> DEAL.deal(state)
>>> [len(hand) for hand in state.hands], sum(map(len, state.draw)) < len(PARTS)
([5, 5], True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .components import JUNK_START, LINES, MAGNETS, MAINTENANCE_KINDS, PARTS, SPACES, START_PARTS
from .line import EMPTY

if TYPE_CHECKING:
    from .state import RotlState


class LineDraws:
    """The lines' draw piles and the maintenance stack as hidden piles (see the module docstring)."""

    outcomes = tuple(p.id for p in PARTS) + MAINTENANCE_KINDS
    #: Piles that hold one hidden pool between them (a draw from one may take a part from another).
    shared = (tuple(f"line {line}" for line in range(LINES)),)

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


class SetupDraws:
    """The deal as draws from the lines' piles (see the module docstring); the same draws, in the same
    order, as ``setup.setup`` and ``setup.deal_players`` make."""

    def undeal(self, state: RotlState) -> None:
        """Put the junk, the seats' dealt parts and the lines' parts back into the lines' piles."""
        for line in range(LINES):
            state.draw[line] += state.junk[line]
            state.junk[line] = []
            state.draw[line] += [part for part in state.lines[line] if part != EMPTY]
            state.lines[line] = [EMPTY] * SPACES
        dealt = 0
        for seat in range(state.num_players):
            for part in state.hands[seat]:
                state.draw[dealt % LINES].append(part)
                dealt += 1
            state.hands[seat], state.secret[seat] = [], []

    def deal(self, state: RotlState) -> None:
        """Draw the junk, each seat's five parts and the lines' parts from the tops of the piles."""
        for line in range(LINES):
            for _ in range(JUNK_START):
                state.junk[line].append(state.draw[line].pop())
        dealt = 0
        for seat in range(state.num_players):
            for _ in range(START_PARTS):
                pile = state.draw[dealt % LINES]
                if all(p in MAGNETS for p in pile):
                    pile = state.draw[(dealt + 1) % LINES]
                dealt += 1
                part = pile.pop()
                while part in MAGNETS:
                    pile.insert(state.rng.randrange(len(pile) + 1), part)
                    part = pile.pop()
                state.hands[seat].append(part)
            state.hands[seat].sort()
            state.secret[seat] = list(state.hands[seat])
        for line in range(LINES):
            for space in range(SPACES, 0, -1):
                if state.draw[line]:
                    state.lines[line][space - 1] = state.draw[line].pop()


DEAL = SetupDraws()
