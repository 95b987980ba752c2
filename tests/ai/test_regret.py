"""Regret matching's fast expected payoffs (``regret._Table``) are the sums written out (``regret.expected``)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from robotable.ai import regret


@st.composite
def games_with_strategies(draw: st.DrawFn) -> tuple:
    """A game of 1-4 players with 1-4 actions each, random payoffs, some actions dead, any strategies."""
    sizes = draw(st.lists(st.integers(1, 4), min_size=1, max_size=4))
    payoff = st.floats(-10, 10, allow_nan=False)
    payoffs = {profile: tuple(draw(payoff) for _ in sizes) for profile in itertools.product(*(range(k) for k in sizes))}
    alive = [sorted(draw(st.sets(st.integers(0, k - 1), min_size=1))) for k in sizes]
    strategies = []
    for i, k in enumerate(sizes):
        weights = [draw(st.floats(0, 1)) if a in alive[i] else 0.0 for a in range(k)]
        total = sum(weights)
        strategies.append([w / total for w in weights] if total > 0 else [float(a in alive[i]) for a in range(k)])
    return sizes, payoffs, alive, strategies


@settings(max_examples=200, deadline=None)
@given(games_with_strategies())
def test_the_table_gives_each_surviving_action_its_expected_payoff(game: tuple) -> None:
    sizes, payoffs, alive, strategies = game
    table = [(p, pay) for p, pay in payoffs.items() if all(a in alive[i] for i, a in enumerate(p))]
    for i in range(len(sizes)):
        written_out = regret.expected(table, strategies, i)
        assert regret._Table(payoffs, alive, i).expected(strategies) == [written_out[a] for a in alive[i]]


def test_solve_values_are_the_expected_payoffs_of_its_strategies() -> None:
    """Three players: the values solve reports are each player's payoff under the strategies it reports."""
    payoff = lambda p: (p[0] - p[1], p[1] * p[2] - p[0], float(p[2] == p[0]))  # noqa: E731
    sizes = [3, 2, 3]
    solution = regret.solve(sizes, payoff)
    table = [(p, tuple(payoff(p))) for p in itertools.product(*(range(k) for k in sizes))]
    for i, value in enumerate(solution.values):
        utility = regret.expected(table, solution.strategies, i)
        assert abs(value - sum(p * u for p, u in zip(solution.strategies[i], utility))) < 1e-9
