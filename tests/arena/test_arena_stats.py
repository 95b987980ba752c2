"""Wilson intervals on published values; OpenSkill ratings move the right way."""

from __future__ import annotations

import pytest

from robotable.arena.ratings import openskill_ratings
from robotable.arena.runner import GameResult
from robotable.arena.stats import head_to_head, wilson


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [  # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (Wilson, no continuity correction)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (10, 10, 0.7225, 1.0),
        (5, 10, 0.2366, 0.7634),
    ],
)
def test_wilson_interval_matches_published_values(wins, n, low, high):
    lo, hi = wilson(wins, n)
    assert lo == pytest.approx(low, abs=6e-5) and hi == pytest.approx(high, abs=6e-5)


def test_wilson_edge_cases():
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(2.5, 5)  # shared wins are fractional
    assert lo < 0.5 < hi and lo == pytest.approx(1 - hi)
    with pytest.raises(ValueError):
        wilson(6, 5)


def game(index, agents, ranks):
    winners = tuple(s for s, r in enumerate(ranks) if r == 1)
    scores = tuple(10 - r for r in ranks)
    return GameResult(index, index, index, tuple(agents), (0,) * len(agents), scores, tuple(ranks), winners,
                      "end", 10, "x", 0.0, (0.0,) * len(agents))  # fmt: skip


def test_openskill_ranks_the_agent_that_keeps_winning_first():
    results = [
        game(i, ("a", "b", "c") if i % 2 else ("c", "b", "a"), (1, 2, 3) if i % 2 else (3, 2, 1)) for i in range(30)
    ]
    ratings = openskill_ratings(results, ["a", "b", "c"])
    assert ratings["a"]["mu"] > ratings["b"]["mu"] > ratings["c"]["mu"]
    assert all(r["sigma"] < 25 / 3 for r in ratings.values())  # more games, less uncertainty
    assert ratings["a"]["ordinal"] == pytest.approx(ratings["a"]["mu"] - 3 * ratings["a"]["sigma"])


def test_openskill_ties_and_order_independence():
    tied = openskill_ratings([game(i, ("a", "b"), (1, 1)) for i in range(10)], ["a", "b"])
    assert tied["a"]["mu"] == pytest.approx(tied["b"]["mu"])
    results = [game(i, ("a", "b"), (1, 2) if i % 3 else (2, 1)) for i in range(12)]
    assert openskill_ratings(results[::-1], ["a", "b"]) == openskill_ratings(results, ["a", "b"])
    # An agent holding two seats of one game is still rated as one agent.
    shared = openskill_ratings([game(i, ("a", "a", "b"), (1, 2, 3)) for i in range(5)], ["a", "b"])
    assert shared["a"]["mu"] > shared["b"]["mu"]


def test_head_to_head_counts_every_pair_of_seats_and_ties_as_half():
    rows = head_to_head([game(0, ("a", "a", "b"), (1, 3, 2)), game(1, ("a", "b"), (1, 1))], ["a", "b"])
    ab = next(r for r in rows if r["agent"] == "a")
    assert ab["games"] == 3 and ab["wins"] == pytest.approx(1.5)


def test_openskill_does_not_drift_when_an_agent_holds_several_seats():
    from robotable.arena import lineups

    # Every lineup of a and b at 3 seats, each with every finishing order: nobody is better.
    orders = [(1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2), (3, 2, 1)]
    pairs = [(lineup, ranks) for lineup in lineups(["a", "b"], 3) for ranks in orders]
    ratings = openskill_ratings([game(i, lineup, ranks) for i, (lineup, ranks) in enumerate(pairs)], ["a", "b"])
    assert abs(ratings["a"]["mu"] - 25) < 1.5 and abs(ratings["b"]["mu"] - 25) < 1.5
