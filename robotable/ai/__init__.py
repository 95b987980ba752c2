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
from .ismcts import LEVELS, ISMCTSAgent

#: Agent kinds by the name used in seat specs (``--seats human,heuristic,ismcts:hard``).
AGENTS: dict[str, Callable[[int | None], Agent]] = {"random": RandomAgent, "heuristic": HeuristicAgent}


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from its spec: ``random``, ``heuristic``, ``ismcts:easy|medium|hard``.

    Unknown specs raise :class:`BadInput` naming the known ones.
    """
    kind, _, level = spec.partition(":")
    if kind == "ismcts":
        if level not in LEVELS:
            raise BadInput(f"ismcts needs a level: ismcts:{'|'.join(LEVELS)} (got {spec!r})")
        return ISMCTSAgent.level(level, seed)
    if kind not in AGENTS:
        known = ", ".join([*sorted(AGENTS), *(f"ismcts:{lv}" for lv in LEVELS)])
        raise BadInput(f"unknown agent {spec!r} (known: {known})")
    if level:
        raise BadInput(f"agent {kind!r} takes no level, got {spec!r}")
    return AGENTS[kind](seed)


__all__ = ["AGENTS", "Agent", "Decision", "HeuristicAgent", "ISMCTSAgent", "RandomAgent", "make_agent"]
