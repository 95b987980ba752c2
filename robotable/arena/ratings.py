"""OpenSkill ratings (Plackett-Luce model) from the games' ranks.

Games are rated in tournament order (by index), so the ratings do not depend on which game finished
first. Every seat is a one-player team ranked by the game's ``Result.ranks`` (equal ranks are ties).
When an agent holds several seats of one game (a pool smaller than the table), each seat starts from
the agent's rating and counts as one performance of the agent: the agent takes the sum of its seats'
changes in mu, and each seat's shrinking of the variance (``sigma**2``). Summing keeps the total mu of
the table unchanged by a game, as the model does for distinct players; averaging would let ratings
drift.

``openskill`` is part of the ``ai`` extra and is imported only when ratings are computed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from robotable.core import BadInput

from .runner import GameResult


def openskill_ratings(results: Sequence[GameResult], pool: Sequence[str]) -> dict[str, dict[str, float]]:
    """``{agent: {"mu", "sigma", "ordinal"}}`` after rating every game; ``ordinal = mu - 3 sigma``."""
    model = _model()
    ratings = {agent: model.rating(name=agent) for agent in pool}
    for result in sorted(results, key=lambda r: r.index):
        if len(set(result.agents)) < 2:
            continue  # self-play: nothing to learn about agents
        ratings.update(rate_game(model, ratings, result.agents, result.ranks))
    return {
        agent: {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.mu - 3 * rating.sigma}
        for agent, rating in ratings.items()
    }


def rate_game(model: Any, ratings: dict[str, Any], players: Sequence[str], ranks: Sequence[int]) -> dict[str, Any]:
    """The new rating of every player of one game (``players[seat]`` is who held the seat).

    ``ratings`` holds each player's rating before the game (``model.rating()`` objects); a player holding
    several seats takes the sum of its seats' changes in mu and each seat's shrinking of the variance.
    Used by the arena and by the server's ratings of people and bots (robotable.server.ratings).
    """
    teams = [[model.rating(mu=ratings[p].mu, sigma=ratings[p].sigma, name=p)] for p in players]
    updated = model.rate(teams, ranks=list(ranks))
    out = {}
    for player in set(players):
        old = ratings[player]
        mine = [team[0] for team, name in zip(updated, players) if name == player]
        mu = old.mu + sum(r.mu - old.mu for r in mine)
        variance = old.sigma**2 * math.prod((r.sigma / old.sigma) ** 2 for r in mine)
        out[player] = model.rating(mu=mu, sigma=math.sqrt(variance), name=player)
    return out


def model() -> Any:
    """The OpenSkill model every rating uses (Plackett-Luce); BadInput if openskill is missing."""
    return _model()


def _model() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise BadInput("ratings need openskill: pip install 'robotable[ai]'") from None
    return PlackettLuce()
