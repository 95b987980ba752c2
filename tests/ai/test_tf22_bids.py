"""TF22: RELOAD! bids from a solved battle (issue 29): the regret-matching solver on games whose
equilibria are known, the battle's matrix game on hand-made positions, and the bots' bids."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotable import games
from robotable.ai import Decision, HeuristicAgent
from robotable.ai.heuristics import tf22_reload as h
from robotable.ai.regret import exploitability, solve
from robotable.core import Rng
from robotable.games.tf22_reload import PlayCard, RTakeBack
from tests.tf22_reload.positions import position


def zero_sum(matrix: list[list[float]]):
    return lambda p: (matrix[p[0]][p[1]], -matrix[p[0]][p[1]])


# -- the solver on games whose equilibria are known --------------------------------------------------


def test_matching_pennies_is_played_half_and_half():
    s = solve([2, 2], zero_sum([[1, -1], [-1, 1]]))
    for mix in s.strategies:
        assert mix == pytest.approx([0.5, 0.5], abs=0.02)
    assert s.values == pytest.approx([0.0, 0.0], abs=0.02)


def test_rock_paper_scissors_is_uniform():
    s = solve([3, 3], zero_sum([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]))
    for mix in s.strategies:
        assert mix == pytest.approx([1 / 3] * 3, abs=0.02)


def test_an_unbalanced_two_by_two_game_has_its_known_mixed_equilibrium():
    # row: 2p - (1 - p) = -p + (1 - p), so p = 2/5; likewise q = 2/5; value 3q - 1 = 1/5
    s = solve([2, 2], zero_sum([[2, -1], [-1, 1]]), iterations=400)
    assert s.strategies[0] == pytest.approx([0.4, 0.6], abs=0.02)
    assert s.strategies[1] == pytest.approx([0.4, 0.6], abs=0.02)
    assert s.values[0] == pytest.approx(0.2, abs=0.02)


def test_a_strictly_dominated_action_is_never_played():
    # action 2 is action 0 less one everywhere; without it the game is matching pennies
    s = solve([3, 2], zero_sum([[1, -1], [-1, 1], [0, -2]]))
    assert s.strategies[0][2] == 0.0
    assert s.strategies[0][:2] == pytest.approx([0.5, 0.5], abs=0.02)


def test_prisoners_dilemma_three_players_defect():
    # cooperating (action 0) costs the player 1 and gives each other player 2: defecting is dominant
    def payoff(p):
        cooperators = p.count(0)
        return [2 * (cooperators - (a == 0)) - (a == 0) for a in p]

    s = solve([2, 2, 2], payoff)
    assert all(mix == [0.0, 1.0] for mix in s.strategies)


def test_a_game_needs_actions():
    with pytest.raises(ValueError, match="at least one action"):
        solve([2, 0], lambda p: (0.0, 0.0))


payoff_values = st.floats(min_value=-10, max_value=10, allow_nan=False)


@st.composite
def matrices(draw, max_size: int = 6):
    rows = draw(st.integers(1, max_size))
    cols = draw(st.integers(1, max_size))
    return [[draw(payoff_values) for _ in range(cols)] for _ in range(rows)]


@settings(max_examples=60, deadline=None)
@given(matrices())
def test_zero_sum_solutions_are_distributions_close_to_equilibrium(matrix):
    sizes = [len(matrix), len(matrix[0])]
    s = solve(sizes, zero_sum(matrix), iterations=300, floor=0.0)
    for mix, k in zip(s.strategies, sizes):
        assert len(mix) == k and all(p >= 0 for p in mix) and math.isclose(sum(mix), 1.0)
    spread = max(max(r) for r in matrix) - min(min(r) for r in matrix)
    assert exploitability(sizes, zero_sum(matrix), s.strategies) <= 0.05 * spread + 1e-9


@settings(max_examples=40, deadline=None)
@given(matrices(), st.integers(0, 5), st.floats(min_value=0.5, max_value=5))
def test_a_strictly_dominated_row_gets_no_weight(matrix, row, margin):
    dominated = [x - margin for x in matrix[row % len(matrix)]]
    game = [*matrix, dominated]
    s = solve([len(game), len(game[0])], zero_sum(game))
    assert s.strategies[0][-1] == 0.0
    assert math.isclose(sum(s.strategies[0]), 1.0) and math.isclose(sum(s.strategies[1]), 1.0)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=2, max_size=4), st.randoms(use_true_random=False))
def test_general_sum_solutions_are_distributions(sizes, rnd):
    table = {}

    def payoff(p):
        return table.setdefault(p, [rnd.uniform(-3, 3) for _ in sizes])

    s = solve(sizes, payoff, iterations=50)
    assert [len(m) for m in s.strategies] == sizes
    for mix in s.strategies:
        assert all(p >= 0 for p in mix) and math.isclose(sum(mix), 1.0)


# -- the battle's matrix game on hand-made positions -------------------------------------------------


def table_of(state, seat: int = 0) -> h.Table:
    return h.Table.from_view(state.view(seat), seat)


def last_battle(hands: list[list[int]], revealed=(("green", 3), ("green", 2))):
    """The last battle of the game: cards left in hand are worth nothing after it."""
    return position(2, revealed, hands=hands, round=2, rest="set_aside")


def test_one_against_seven_is_matching_pennies():
    # 1 beats 7 (it neutralizes it) and loses to 5; 6 loses to 7 and beats 5
    solution = h.battle_solution(table_of(last_battle([[1, 6], [5, 7]])))
    assert solution.options == [[1, 6, h.R], [5, 7, h.R]]
    for mix in solution.mix:
        assert mix[:2] == pytest.approx([0.5, 0.5], abs=0.05)
        assert mix[2] == 0.0  # sitting the last battle out gives it away


def test_a_card_that_always_loses_is_not_bid():
    solution = h.battle_solution(table_of(last_battle([[2, 5], [3, 4]])))
    assert solution.options[0] == [2, 5, h.R]
    assert solution.mix[0][0] == 0.0 and solution.mix[0][1] > 0.99


def test_every_seat_of_a_four_player_battle_gets_a_mix_over_its_cards_and_r():
    state = position(4, hands=[[1, 2, 3, 4, 5, 6, 7], [2, 4, 6], [1, 7], [3]], chips=[0, 3, 0, 1])
    solution = h.battle_solution(table_of(state, 2))
    assert solution.options == [[1, 2, 3, 4, 5, 6, 7, h.R], [2, 4, 6, h.R], [1, 7, h.R], [3, h.R]]
    for mix, options in zip(solution.mix, solution.options):
        assert len(mix) == len(options) and math.isclose(sum(mix), 1.0) and min(mix) >= 0


def test_cards_cost_more_while_many_battles_remain():
    early = table_of(position(2, hands=[[1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5, 6, 7]]))
    last = table_of(last_battle([[4, 7], [4, 7]]))
    assert h.card_cost(early, 0, 7) == pytest.approx(h.CARD_COST * 7)
    assert h.card_cost(last, 0, 7) == 0.0


def test_the_heuristic_plays_its_cards_mix():
    state = last_battle([[2, 5], [3, 4]])
    agent = HeuristicAgent(3)
    assert {agent.act(state, 0) for _ in range(20)} == {PlayCard(5)}
    state = last_battle([[1, 6], [5, 7]])
    bids = [agent.act(state, 0) for _ in range(200)]
    assert 70 <= bids.count(PlayCard(1)) <= 130 and RTakeBack() not in bids


def test_model_reads_the_same_mix_off_a_state():
    state = last_battle([[2, 5], [3, 4]])
    legal = state.legal_actions(0)
    assert h.model(state, 0, legal, Rng(1)) == PlayCard(5)


@pytest.mark.parametrize("strict", [True, False])
def test_the_heuristic_loads_under_either_reading_of_moves(strict):
    state = games.load("tf22-reload").start(2, seed=5, options={"strict_moves": strict})
    agents = [HeuristicAgent(1), HeuristicAgent(2)]
    while not state.is_over():
        seat = state.to_act()[0]
        decision = Decision.of(state, seat)
        action = agents[seat].choose(decision)
        assert action in decision.legal
        state.apply(seat, action)
