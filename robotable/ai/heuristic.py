"""The heuristic agent: each game's hand-written strategy (see ``robotable.ai.heuristics``)."""

from __future__ import annotations

from robotable.core import Action

from . import heuristics
from .base import Agent, Decision


class HeuristicAgent(Agent):
    """Plays the game's heuristic strategy on the seat's view only (described in each game's module)."""

    name = "heuristic"

    def choose(self, decision: Decision) -> Action:
        return heuristics.require(decision.game).choose(decision, self.rng)

    def choose_optional(self, decision: Decision) -> Action | None:
        """The game's heuristic for moves made at any time (``choose_optional``), if it has one."""
        choose = getattr(heuristics.require(decision.game), "choose_optional", None)
        return choose(decision, self.rng) if choose is not None else None
