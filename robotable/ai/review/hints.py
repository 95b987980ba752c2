"""Hints while playing (issue 30; docs/review.md): the review's search, from the deciding seat's view
alone, at the top level's budget bounded by a wall-clock cap, and its top three choices with their values.

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

#: A hint's wall-clock cap (seconds), as the bots' ``max_wall``: the search at the top level's iterations
#: stops there on a busy machine, so a hint answers within 3 s (issue 30; docs/review.md). Below the cap
#: the hint is the same for the same position, seat and move (its budget is iterations).
HINT_WALL = 2.0
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
    state: State,
    seat: int,
    index: int,
    budget: Budget | None = None,
    choices: int = HINT_CHOICES,
    max_wall: float | None = None,
    searched: dict[str, Any] | None = None,
) -> list[Choice]:
    """The search's best ``choices`` for ``seat`` in ``state``, the position before move ``index`` (its
    seed), searched from the seat's view only, best first; one choice when the seat has a single legal
    action. ``budget``: the top level's iterations unless given; ``max_wall``: a wall-clock cap in seconds
    (``None``: none, the search's iterations only). ``searched`` (a dict) receives the search's
    ``last_search`` (iterations run, what stopped it). ``state`` is not changed."""
    budget = budget or Budget()
    decision = Decision.of(state, seat)
    if len(decision.legal) == 1:
        return [Choice(decision.legal[0].to_json(), 1.0, 0)]
    search = ReviewSearch.at(decision.game, budget, index)
    search.wall_cap = max_wall
    chosen = search.choose(decision)
    if searched is not None:
        searched.update(search.last_search)
    edges = search.roots[seat].actions if search.roots else {}
    ranked = sorted(edges.items(), key=lambda item: (item[0] != chosen, -item[1].visits))
    if not ranked:  # the cap passed before the first iteration: the guide's choice, not valued
        return [Choice(chosen.to_json(), 0.0, 0)]
    return [
        Choice(action.to_json(), edge.total / edge.visits if edge.visits else 0.0, edge.visits)
        for action, edge in ranked[:choices]
    ]
