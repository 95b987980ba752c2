"""Post-game reviews from the bots' own search (issue 30; docs/review.md).

>>> from robotable.core import Match
>>> from robotable.ai.review import Budget, review_record
>>> match = Match("tf22-reload", num_players=2, seed=7)
>>> for _ in range(2):
...     seat = match.state.to_act()[0]
...     _ = match.apply(seat, match.state.legal_actions(seat)[0])
>>> review = review_record(match.record, budget=Budget(iterations=30))
>>> [len(s.moments) for s in review.seats]
[1, 1]
>>> 0 <= review.seat(0).moments[0].before <= 1
True
"""

from __future__ import annotations

from .search import (
    LARGEST_LOSSES,
    MIN_LOSS,
    REVIEW_LEVEL,
    TURNING_POINTS,
    Budget,
    Moment,
    Position,
    Review,
    ReviewSearch,
    SeatReview,
    positions,
    review_decision,
    review_positions,
    review_record,
)

__all__ = [
    "LARGEST_LOSSES",
    "MIN_LOSS",
    "REVIEW_LEVEL",
    "TURNING_POINTS",
    "Budget",
    "Moment",
    "Position",
    "Review",
    "ReviewSearch",
    "SeatReview",
    "positions",
    "review_decision",
    "review_positions",
    "review_record",
]
