"""The agent interface shared by the CLI, the arena and the server.

An agent is given a :class:`Decision`: the seat, that seat's view, its legal actions and, for search
agents, a way to sample full states consistent with what the seat knows. It returns one of the legal
actions. Agents are seeded and reproducible.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from robotable.core import Action, Rng, State


@dataclass
class Decision:
    """What an agent may use to choose: never the true state, only samples of it."""

    game: str
    seat: int
    view: dict[str, Any]
    legal: list[Action]
    sample: Callable[[Rng], State]

    @classmethod
    def of(cls, state: State, seat: int) -> Decision:
        """The decision ``seat`` faces in ``state`` (the state itself is only reachable by sampling)."""
        return cls(
            state.game.id,
            seat,
            state.view(seat),
            state.legal_actions(seat),
            lambda rng: state.determinize(seat, rng),
        )


class Agent(ABC):
    """Chooses actions for one seat at a time."""

    name = "agent"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(seed if seed is not None else 0)

    @abstractmethod
    def choose(self, decision: Decision) -> Action:
        """One of ``decision.legal``."""

    def act(self, state: State, seat: int) -> Action:
        """Convenience: choose for ``seat`` in ``state``."""
        return self.choose(Decision.of(state, seat))

    def choose_optional(self, decision: Decision) -> Action | None:
        """A move for a seat the game does not wait for (``State.optional_actors``: a trade offer made
        at any time), one of ``decision.legal``, or ``None`` to let the moment pass. Default: pass."""
        return None


class RandomAgent(Agent):
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, decision: Decision) -> Action:
        return decision.legal[self.rng.randrange(len(decision.legal))]

    def choose_optional(self, decision: Decision) -> Action | None:
        """Uniformly among the optional moves and passing."""
        k = self.rng.randrange(len(decision.legal) + 1)
        return decision.legal[k] if k < len(decision.legal) else None
