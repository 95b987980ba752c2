"""Seat rotation: every agent plays every seat equally often; pairings both ways; seeds per round."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotable.arena import lineups, schedule


@pytest.mark.parametrize("pool_size", [1, 2, 3, 4])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_agent_plays_every_seat_equally_often_over_a_round(pool_size, players):
    pool = [f"agent{i}" for i in range(pool_size)]
    round_ = lineups(pool, players)
    assert round_ and len(set(round_)) == len(round_)
    per_seat = Counter((seat, agent) for lineup in round_ for seat, agent in enumerate(lineup))
    assert len(set(per_seat.values())) == 1
    assert set(per_seat) == {(seat, agent) for seat in range(players) for agent in pool}
    for lineup in round_:  # balanced: each agent's seat count differs from the others' by at most one
        counts = Counter(lineup)
        assert max(counts.values()) - min(counts.get(a, 0) for a in pool) <= 1


def test_two_agents_two_seats_play_each_pairing_both_ways_on_the_same_deal():
    jobs = schedule(["a", "b"], 2, games=6, seed=9)
    assert [j.agents for j in jobs] == [("a", "b"), ("b", "a")] * 3
    assert [j.round for j in jobs] == [0, 0, 1, 1, 2, 2]
    assert jobs[0].seed == jobs[1].seed != jobs[2].seed == jobs[3].seed
    assert len({j.seed for j in jobs}) == 3


def test_three_agents_two_seats_meet_every_opponent_from_both_sides():
    round_ = lineups(["a", "b", "c"], 2)
    assert sorted(round_) == sorted([("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b")])
    assert round_[:2] == [("a", "b"), ("b", "a")]  # a matchup's both sides come together


def test_schedule_depends_only_on_its_arguments():
    assert schedule(["a", "b"], 3, 20, seed=4) == schedule(["a", "b"], 3, 20, seed=4)
    assert {j.seed for j in schedule(["a"], 2, 10, seed=4)}.isdisjoint(j.seed for j in schedule(["a"], 2, 10, seed=5))
    assert all(0 <= j.seed < 2**53 for j in schedule(["a"], 2, 50, seed=2**62))


@settings(deadline=None)  # the test's own speed is not what it checks
@given(st.lists(st.integers(1, 3), min_size=1, max_size=3).filter(lambda counts: sum(counts) <= 6))
def test_seat_counts_give_every_ordering_of_those_seats_and_each_agent_every_seat(counts):
    pool = [f"agent{i}" for i in range(len(counts))]
    players = sum(counts)
    round_ = lineups(pool, players, seats=counts)
    assert len(set(round_)) == len(round_)
    for lineup in round_:
        assert [lineup.count(agent) for agent in pool] == counts
    for seat in range(players):  # over a round each agent holds each seat in proportion to its count
        held = Counter(lineup[seat] for lineup in round_)
        assert [held[agent] * players for agent in pool] == [n * len(round_) for n in counts]
    jobs = schedule(pool, players, games=2 * len(round_), seed=1, seats=counts)
    assert [job.agents for job in jobs] == round_ * 2


def test_seat_counts_that_do_not_fit_the_table_are_refused():
    with pytest.raises(ValueError, match="adding up to 4"):
        lineups(["a", "b"], 4, seats=(1, 2))
