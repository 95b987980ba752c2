"""Agents: one interface for every player that is not a person.

>>> from robotable.ai import make_agent
>>> make_agent("random", seed=1).name
'random'
"""

from __future__ import annotations

from collections.abc import Callable

from robotable.core import BadInput

from .base import Agent, Decision, RandomAgent

#: Agent kinds by the name used in seat specs (``--seats human,random``); extended as agents land.
AGENTS: dict[str, Callable[[int | None], Agent]] = {"random": RandomAgent}


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from its spec (``"random"``); unknown specs raise :class:`BadInput`."""
    kind, _, level = spec.partition(":")
    if kind not in AGENTS:
        raise BadInput(f"unknown agent {spec!r} (known: {', '.join(sorted(AGENTS))})")
    if level:
        raise BadInput(f"agent {kind!r} takes no level, got {spec!r}")
    return AGENTS[kind](seed)


__all__ = ["AGENTS", "Agent", "Decision", "RandomAgent", "make_agent"]
