"""Tournament statistics: win rates with Wilson confidence intervals, mean scores, seat and pair tables.

Counting: each seat an agent took in a game is one *appearance*. An appearance scores 1 for a sole win,
1/k when k seats share the win, 0 otherwise; an agent's win rate is the mean over its appearances. With
``n`` players an agent no better than its opponents wins ``1/n`` of the time (the *par* of the table).

>>> lo, hi = wilson(8, 10)
>>> round(lo, 4), round(hi, 4)
(0.4902, 0.9433)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from .runner import GameResult

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion of ``wins`` in ``n`` trials (``wins`` may be fractional).

    Unlike the textbook ``p +- z*sqrt(p(1-p)/n)`` it stays inside [0, 1] and is sensible near 0 and 1
    and for small ``n``. With ``n == 0`` nothing is known: ``(0, 1)``.
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= wins <= n:
        raise ValueError(f"wins must be between 0 and n={n}, got {wins}")
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def _rate(wins: float, n: int) -> dict[str, Any]:
    low, high = wilson(wins, n)
    return {"wins": round(wins, 6), "games": n, "win_rate": wins / n if n else 0.0, "ci95": [low, high]}


def agent_stats(results: Sequence[GameResult], pool: Sequence[str]) -> list[dict[str, Any]]:
    """Per agent of ``pool``: appearances, wins, win rate with its 95% interval, mean score and rank."""
    out = []
    for agent in pool:
        payoffs, scores, ranks = [], [], []
        for result in results:
            for seat, name in enumerate(result.agents):
                if name == agent:
                    payoffs.append(result.payoff(seat))
                    scores.append(result.scores[seat])
                    ranks.append(result.ranks[seat])
        row = {"agent": agent, **_rate(sum(payoffs), len(payoffs))}
        row["mean_score"] = statistics.fmean(scores) if scores else 0.0
        row["score_sd"] = statistics.stdev(scores) if len(scores) > 1 else 0.0
        row["mean_rank"] = statistics.fmean(ranks) if ranks else 0.0
        out.append(row)
    return out


def seat_stats(results: Sequence[GameResult], players: int) -> list[dict[str, Any]]:
    """Per seat, whoever sat there: win rate with its interval and mean score (the seat advantage)."""
    out = []
    for seat in range(players):
        wins = sum(r.payoff(seat) for r in results)
        row = {"seat": seat, **_rate(wins, len(results))}
        row["mean_score"] = statistics.fmean(r.scores[seat] for r in results) if results else 0.0
        out.append(row)
    return out


def head_to_head(results: Sequence[GameResult], pool: Sequence[str]) -> list[dict[str, Any]]:
    """For each ordered pair of different agents A, B: how often A finished ahead of B.

    Every pair of seats (one A, one B) in a game is one encounter: A scores 1 if ranked ahead, 1/2 if
    level, 0 if behind. In 2-player games that is exactly A's win rate against B (a shared win is 1/2).
    """
    out = []
    for a in pool:
        for b in pool:
            if a == b:
                continue
            points, n = 0.0, 0
            for result in results:
                seats_a = [s for s, name in enumerate(result.agents) if name == a]
                seats_b = [s for s, name in enumerate(result.agents) if name == b]
                for sa in seats_a:
                    for sb in seats_b:
                        n += 1
                        ra, rb = result.ranks[sa], result.ranks[sb]
                        points += 1.0 if ra < rb else 0.5 if ra == rb else 0.0
            if n:
                out.append({"agent": a, "opponent": b, **_rate(points, n)})
    return out


def summarize(results: Sequence[GameResult], pool: Sequence[str], players: int) -> dict[str, Any]:
    """Agents, seats and head-to-head tables (ratings are added by :mod:`robotable.arena.ratings`)."""
    moves = [r.moves for r in results]
    return {
        "games": len(results),
        "par": 1 / players,
        "agents": agent_stats(results, pool),
        "seats": seat_stats(results, players),
        "head_to_head": head_to_head(results, pool),
        "moves": {"mean": statistics.fmean(moves), "min": min(moves), "max": max(moves)} if moves else {},
        "seconds_per_game": statistics.fmean(r.seconds for r in results) if results else 0.0,
    }
