"""A round limit for research: stop a game after a number of rounds and score it as the rules rank an
ended game (score victory, points, then the tie-breaks of :mod:`.game_end`), never as a draw.

Random play can take thousands of rounds; self-play and search want bounded episodes with a real
outcome. This is not a rule of the game (nothing here changes how a game is played or recorded): the
research adapters call it when their ``max_rounds`` limit is reached.

>>> from robotable.games.twin_tin_bots import GAME
>>> state = GAME.start(num_players=2, seed=1)
>>> CUTOFF.rounds_played(state), CUTOFF.result(state, 10).reason
(0, 'round limit: stopped after 10 rounds')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robotable.core import Result

from . import game_end
from .phases import OVER

if TYPE_CHECKING:
    from .state import TtbState


class RoundLimit:
    """How a Twin Tin Bots game is stopped after ``max_rounds`` rounds (see the module docstring)."""

    def rounds_played(self, state: TtbState) -> int:
        """Rounds completed so far (every colour has had its turn in each)."""
        return state.round - 1

    def result(self, state: TtbState, max_rounds: int) -> Result:
        """The result if the game stopped now: ranked as an ended game, with the limit as its reason."""
        stopped = state.clone()
        stopped.phase = OVER
        stopped.end_reason = f"round limit: stopped after {max_rounds} rounds"
        return game_end.result(stopped)


CUTOFF = RoundLimit()
