"""TF22: RELOAD! battles solved on continuation values (``battle_solve``, docs/ai.md "TF22: battles solved on
continuation values"): the bids on positions whose answer is known, no peeking, 3 players, and search's
``battle_solve`` level key."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotable import games
from robotable.ai import Decision
from robotable.ai.heuristics import tf22_reload as h
from robotable.ai.ismcts import ISMCTSAgent
from robotable.core import Rng
from robotable.games.tf22_reload import PlayCard, RTakeBack
from tests.tf22_reload.positions import position

DEPTHS = [-1, 0, 3]  # to the end of the game, the two-battle horizon, three actions then projected scores


def last_battle(hands: list[list[int]]):
    """The last battle of the game: cards left in hand are worth nothing after it."""
    return position(2, (("green", 3), ("green", 2)), hands=hands, round=2, rest="set_aside")


@pytest.mark.parametrize("respond", [False, True])
@pytest.mark.parametrize("depth", DEPTHS)
@pytest.mark.parametrize("seat", [0, 1])
def test_the_card_that_always_wins_is_bid(depth, seat, respond):
    # 5 beats 3 and 4, 2 loses to both: whatever the other seat bids, 5 is worth more
    hands = [[2, 5], [3, 4]] if seat == 0 else [[3, 4], [2, 5]]
    state = last_battle(hands)
    rng = Rng(7)
    bids = {h.battle_solve(Decision.of(state, seat), rng, 2, depth, respond) for _ in range(10)}
    assert bids == {PlayCard(5)}


@pytest.mark.parametrize("depth", DEPTHS)
def test_one_against_seven_is_matching_pennies_on_continuation_values(depth):
    # 1 neutralizes 7 and loses to 5; 6 loses to 7 and beats 5; sitting the last battle out gives it away
    state = last_battle([[1, 6], [5, 7]])
    rng = Rng(3)
    bids = [h.battle_solve(Decision.of(state, 0), rng, 1, depth) for _ in range(200)]
    assert 70 <= bids.count(PlayCard(1)) <= 130 and RTakeBack() not in bids


def test_the_best_reply_to_the_heuristic_is_a_best_reply():
    # 5 beats both of the heuristic's cards, so it is the best reply to any mix of them
    state = last_battle([[2, 5], [3, 4]])
    assert h.battle_solve(Decision.of(state, 0), Rng(1), 1, -1, respond=True) == PlayCard(5)


def test_a_load_is_left_to_search():
    state = position(2, hands=[[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 7]], phase="load", winner=0)
    assert h.battle_solve(Decision.of(state, 0), Rng(1), 2) is None


@pytest.mark.parametrize("depth", DEPTHS)
def test_the_stack_order_is_never_read(depth):
    state = games.load("tf22-reload").start(2, seed=11)
    other = state.clone()
    other.deck.reverse()
    assert other.deck != state.deck
    assert h.battle_solve(Decision.of(state, 0), Rng(5), 2, depth) == h.battle_solve(
        Decision.of(other, 0), Rng(5), 2, depth
    )


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 4), steps=st.integers(0, 60), seed=st.integers(0, 10_000), depth=st.sampled_from(DEPTHS))
def test_a_bid_is_legal_and_only_a_load_gets_none(players, steps, seed, depth):
    state = games.load("tf22-reload").start(players, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over():
            return
        seat = state.to_act()[0]
        state.apply(seat, h.rollout(state, seat, state.legal_actions(seat), rng))
    if state.is_over():
        return
    decision = Decision.of(state, state.to_act()[0])
    bid = h.battle_solve(decision, rng, 1, depth)
    if decision.view["phase"] == "load" or (players > 2 and depth == 0):
        assert bid is None
    else:
        assert bid in decision.legal


def test_a_level_with_battle_solve_bids_by_it_and_loads_by_search(monkeypatch):
    monkeypatch.setitem(h.LEVELS["hard"], "battle_solve", 1)
    monkeypatch.setitem(h.LEVELS["hard"], "iterations", 8)
    agent = ISMCTSAgent.level("hard", seed=2)
    state = games.load("tf22-reload").start(2, seed=3)
    agent.act(state, 0)
    assert agent.last_search["stopped_by"] == "solved"
    load = position(2, hands=[[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 7]], phase="load", winner=0)
    agent.act(load, 0)
    assert agent.last_search["stopped_by"] == "iterations"


@pytest.mark.parametrize(("players", "stopped_by"), [(2, "solved"), (3, "iterations"), (4, "iterations")])
def test_hard_solves_its_battles_at_two_players_and_searches_them_at_more(monkeypatch, players, stopped_by):
    monkeypatch.setitem(h.LEVELS["hard"], "iterations", 8)
    agent = ISMCTSAgent.level("hard", seed=2)
    agent.act(games.load("tf22-reload").start(players, seed=3), 0)
    assert agent.last_search["stopped_by"] == stopped_by


def test_a_level_without_battle_solve_searches_its_battles(monkeypatch):
    monkeypatch.setitem(h.LEVELS["hard"], "iterations", 8)
    monkeypatch.setitem(h.LEVELS["hard"], "battle_solve", 0)
    agent = ISMCTSAgent.level("hard", seed=2)
    agent.act(games.load("tf22-reload").start(2, seed=3), 0)
    assert agent.last_search["stopped_by"] == "iterations"


def test_the_two_battle_horizon_weighs_this_prize_against_the_next():
    # 5 wins the rich green battle now and leaves 2 to lose the poor red one; when the poor one comes first,
    # 5 is kept for the rich one
    state = position(
        2,
        (("green", 3), ("green", 2)),
        hands=[[2, 5], [3, 4]],
        round=2,
        rest="set_aside",
        next_cards=[("red", 0), ("red", 1)],
    )
    rng = Rng(4)
    assert {h.battle_solve(Decision.of(state, 0), rng, 2, 0) for _ in range(5)} == {PlayCard(5)}
    poor_now = position(
        2,
        (("red", 0), ("red", 1)),
        hands=[[2, 5], [3, 4]],
        round=2,
        rest="set_aside",
        next_cards=[("green", 3), ("green", 2)],
    )
    bids = {h.battle_solve(Decision.of(poor_now, 0), rng, 2, 0) for _ in range(5)}
    assert PlayCard(5) not in bids  # 2, or R: sit it out and take the discards (7 among them) back


def test_a_stop_that_fires_gives_the_decision_back_to_search():
    state = games.load("tf22-reload").start(2, seed=3)
    calls: list[int] = []

    def stop_after(n: int):
        def stop() -> bool:
            calls.append(1)
            return len(calls) > n

        return stop

    assert h.battle_solve(Decision.of(state, 0), Rng(1), 2, 0, stop=stop_after(0)) is None
    calls.clear()
    assert h.battle_solve(Decision.of(state, 0), Rng(1), 2, 0, stop=stop_after(5)) is None  # mid-solve
    calls.clear()
    assert h.battle_solve(Decision.of(state, 0), Rng(1), 2, 0, stop=stop_after(10**6)) in state.legal_actions(0)
