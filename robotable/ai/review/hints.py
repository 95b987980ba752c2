"""Hints while playing (issue 30; docs/review.md): the review's search, from the deciding seat's view
alone, at a small budget, and its top three choices with their values.

A hint is the search of :class:`~robotable.ai.review.search.ReviewSearch` over the seat's
:class:`~robotable.ai.base.Decision` (its view, its legal actions and samples of what it cannot see: never
the true hidden state), its root actions ranked by visits; each choice's value is its mean reward at the
root (the seat's expected share of the other seats it finishes ahead of: at 2 players, its chance to win).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from robotable.ai.base import Decision
from robotable.core import State

from .search import Budget, ReviewSearch

#: A hint's iterations: small, so that it answers within a few seconds (docs/review.md).
HINT_ITERATIONS = 120
#: How many choices a hint shows.
HINT_CHOICES = 3


@dataclass(frozen=True)
class Choice:
    """One of the search's choices: the action (JSON), its value (0 to 1) and its share of the visits."""

    action: dict[str, Any]
    value: float
    visits: int

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "value": self.value, "visits": self.visits}


def hint(
    state: State, seat: int, index: int, budget: Budget | None = None, choices: int = HINT_CHOICES
) -> list[Choice]:
    """The search's best ``choices`` for ``seat`` in ``state``, the position before move ``index`` (its
    seed), searched from the seat's view only, best first; one choice when the seat has a single legal
    action. ``state`` is not changed."""
    budget = budget or Budget(iterations=HINT_ITERATIONS)
    decision = Decision.of(state, seat)
    if len(decision.legal) == 1:
        return [Choice(decision.legal[0].to_json(), 1.0, 0)]
    search = ReviewSearch.at(decision.game, budget, index)
    chosen = search.choose(decision)
    edges = search.roots[seat].actions if search.roots else {}
    ranked = sorted(edges.items(), key=lambda item: (item[0] != chosen, -item[1].visits))
    return [
        Choice(action.to_json(), edge.total / edge.visits if edge.visits else 0.0, edge.visits)
        for action, edge in ranked[:choices]
    ]
