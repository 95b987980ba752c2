"""Agents: one interface for every player that is not a person.

>>> from robotable.ai import make_agent
>>> make_agent("random", seed=1).name
'random'
"""

from __future__ import annotations

from collections.abc import Callable

from robotable.core import BadInput

from .base import Agent, Decision, RandomAgent
from .heuristic import HeuristicAgent
from .ismcts import BUDGETS, LEVELS, ISMCTSAgent

#: Agent kinds by the name used in seat specs (``--seats human,heuristic,ismcts:hard``).
AGENTS: dict[str, Callable[[int | None], Agent]] = {"random": RandomAgent, "heuristic": HeuristicAgent}


def make_agent(spec: str, seed: int | None = None, budget: str = "iterations", max_wall: float | None = None) -> Agent:
    """Build an agent from its spec: ``random``, ``heuristic``, ``ismcts:easy|medium|hard``.

    ``budget`` says how a search level thinks: ``"iterations"`` (the default: the same seed gives the same
    moves anywhere) or ``"time"`` (the level's CPU seconds within its wall-clock cap, as people play:
    the server's bots, ``robotable arena``); ``max_wall`` replaces the level's wall-clock cap per decision.
    Agents that do not search ignore both. Unknown specs and budgets raise :class:`BadInput` naming the
    known ones.
    """
    if budget not in BUDGETS:
        raise BadInput(f"unknown budget {budget!r} (one of: {', '.join(BUDGETS)})")
    kind, _, level = spec.partition(":")
    if kind == "ismcts":
        if level not in LEVELS:
            raise BadInput(f"ismcts needs a level: ismcts:{'|'.join(LEVELS)} (got {spec!r})")
        return ISMCTSAgent.level(level, seed, budget=budget, max_wall=max_wall)
    if kind not in AGENTS:
        known = ", ".join([*sorted(AGENTS), *(f"ismcts:{lv}" for lv in LEVELS)])
        raise BadInput(f"unknown agent {spec!r} (known: {known})")
    if level:
        raise BadInput(f"agent {kind!r} takes no level, got {spec!r}")
    return AGENTS[kind](seed)


__all__ = ["AGENTS", "BUDGETS", "Agent", "Decision", "HeuristicAgent", "ISMCTSAgent", "RandomAgent", "make_agent"]
