"""The rating scale people see: OpenSkill's conservative ordinal shown on a familiar 1500-based scale.

The server stores and updates OpenSkill ratings (``mu``, ``sigma``; ratings.py); the pages and the API
also show each as ``display_rating = round(1500 + SCALE * ordinal)``, with ``ordinal = mu - 3 sigma``.
A new entry (OpenSkill's default ``mu = 25``, ``sigma = 25/3``: ordinal 0) is shown at 1500, like a new
player on lichess or in Glicko. :data:`SCALE` makes a point mean what it means in Elo between two settled
players of a two-player game: Plackett-Luce gives the stronger one ``1 / (1 + exp(-d / c))`` with
``c = sqrt(2) * beta`` (``beta = 25/6``) for a gap ``d`` in ``mu``, Elo ``1 / (1 + 10 ** (-D / 400))``,
so ``D = d * 400 / (ln 10 * c)``, about 29.5 points per unit: a 200-point gap is a 76% favourite, as in
Elo. A rating from fewer than :data:`PROVISIONAL_GAMES` games is provisional, shown with a "?" ("1446?").
See docs/server.md, "The rating scale".

>>> display_rating(0.0)
1500
>>> display_rating(-1.8)
1446
>>> shown(25.0, 25 / 3, 1)
{'display_rating': 1500, 'provisional': True}
>>> shown(30.0, 1.0, 10)
{'display_rating': 2310, 'provisional': False}
"""

from __future__ import annotations

from typing import Any

#: The rating a new entry is shown at (ordinal 0: OpenSkill's default mu and sigma).
BASE = 1500
#: Display points per unit of ordinal: 400 / (ln 10 * sqrt(2) * 25/6) = 29.5, rounded (see above).
SCALE = 30
#: A rating from fewer games than this is provisional (shown with a "?").
PROVISIONAL_GAMES = 10


def display_rating(ordinal: float) -> int:
    """``ordinal`` (``mu - 3 sigma``) on the 1500-based scale."""
    return round(BASE + SCALE * ordinal)


def shown(mu: float, sigma: float, games: int | None) -> dict[str, Any]:
    """The fields the API adds to a rating: ``display_rating`` and ``provisional`` (fewer than
    :data:`PROVISIONAL_GAMES` games; also when the number of games is unknown)."""
    return {
        "display_rating": display_rating(mu - 3 * sigma),
        "provisional": games is None or games < PROVISIONAL_GAMES,
    }
