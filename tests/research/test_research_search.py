"""OpenSpiel's own search bots play every game: ``open_spiel.python.algorithms.ismcts`` through
``resample_from_infostate`` and MCTS choose a seat's first decisions on the sequential form of each game,
which then plays on to its end and its returns; samples are real states."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from robotable import games
from robotable.adapters import openspiel as ros
from robotable.adapters._common import encodable_games, is_simultaneous

#: A game per id in its sequential form, short enough to search to the end in a test.
SETTINGS = {
    "tf22-reload": {"players": 2},
    "twin-tin-bots": {"players": 2, "max_rounds": 6},
    "robots-on-the-line": {"players": 2},
}


class _NoRollout(mcts.Evaluator):
    """Uniform prior, a value of 0: search cost without rollouts to the end of long games."""

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        return np.zeros(state.num_players())

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def _load(game_id: str, chance_draws: int = 0) -> pyspiel.Game:
    settings = dict(SETTINGS.get(game_id, {"players": 2}))
    sequential = is_simultaneous(games.load(game_id))
    return ros.load_game(game_id, sequential=sequential, chance_draws=chance_draws, **settings)


#: Seat 0 searches its first decisions, then plays at random: the search is exercised where it is slow
#: (the start, with the most hidden), and the game still reaches its end and its returns.
SEARCHED_DECISIONS = 8


def _play(game: pyspiel.Game, bot: pyspiel.Bot, seed: int) -> tuple[pyspiel.State, int]:
    state = ros.seeded_state(game, seed)
    rng = random.Random(seed)
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choices(*zip(*state.chance_outcomes()))[0])
        elif state.current_player() == 0 and searched < SEARCHED_DECISIONS:
            state.apply_action(bot.step(state))
            searched += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state, searched


@pytest.mark.parametrize("game_id", encodable_games())
def test_research_openspiel_ismcts_plays_to_the_end(game_id: str) -> None:
    game = _load(game_id)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    bot = ismcts.ISMCTSBot(game, _NoRollout(), 2.0, 3, random_state=np.random.RandomState(1))
    state, searched = _play(game, bot, 1)
    assert searched > 3 and sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("game_id", encodable_games())
def test_research_openspiel_ismcts_with_chance_nodes_plays_to_the_end(game_id: str) -> None:
    """The same with every hidden draw a chance node where it happens (``chance_draws=1``): the search
    samples them by their probabilities instead of knowing them from the seed."""
    game = _load(game_id, chance_draws=1)
    bot = ismcts.ISMCTSBot(game, _NoRollout(), 2.0, 3, random_state=np.random.RandomState(3))
    state, searched = _play(game, bot, 3)
    assert searched > 3 and sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("game_id", encodable_games())
def test_research_openspiel_mcts_plays_to_the_end(game_id: str) -> None:
    game = _load(game_id)
    bot = mcts.MCTSBot(game, 2.0, 3, _NoRollout(), random_state=np.random.RandomState(2))
    state, searched = _play(game, bot, 2)
    assert searched > 3 and sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("game_id", encodable_games())
@pytest.mark.parametrize("resampler", ["history", "determinize"])
def test_research_resample_from_infostate_keeps_what_the_seat_knows(game_id: str, resampler: str) -> None:
    """Both samplers keep what the seat knows; ``determinizing_resampler`` (the game's ``determinize``)
    also resamples what the deal hid, which the history sampler keeps (it comes from the seed)."""
    game = _load(game_id)
    state = ros.seeded_state(game, 4)
    rng = random.Random(4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    for _ in range(40):
        if state.is_terminal():
            break
        player = state.current_player()
        if resampler == "history":
            sample = state.resample_from_infostate(player, sampler)
        else:
            sample = ros.determinizing_resampler(state, player)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        differed += sample.robotable_state.to_json() != state.robotable_state.to_json()
        state.apply_action(rng.choice(state.legal_actions()))
    if resampler == "determinize" or game_id == "tf22-reload":
        assert differed > 0


def test_research_sequential_variant_of_tf22() -> None:
    game = ros.load_game("tf22-reload", players=3, sequential=True)
    assert game.get_type().short_name == "robotable_tf22_reload_sequential"
    assert game.max_game_length() == 56 * 4
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False, mask_test=True)
    state = ros.seeded_state(game, 9)
    first = state.current_player()
    state.apply_action(state.legal_actions()[0])
    second = state.current_player()
    assert second != first  # the other seat chooses next, seeing only that the first chose
    assert "has_chosen" in state.observation_string(second)
    with pytest.raises(ValueError, match="already sequential"):
        ros.load_game("twin-tin-bots", sequential=True)


@pytest.mark.parametrize(("game_id", "chance_draws"), [("tf22-reload", 1), ("tf22-reload", 0), ("twin-tin-bots", 1)])
def test_research_resample_is_a_real_state(game_id: str, chance_draws: int) -> None:
    """A sample's history replays to it, and every seat's information state in it is the one that
    history gives (other seats keep their own actions and recall); the seat's own is unchanged."""
    game = _load(game_id, chance_draws=chance_draws)
    state = ros.seeded_state(game, 6)
    rng = random.Random(6)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        player = state.current_player()
        for _ in range(3):
            sample = state.resample_from_infostate(player, sampler)
            again = ros.replay(game, sample.history())
            assert again.serialize() == sample.serialize()
            assert sample.information_state_string(player) == state.information_state_string(player)
            for seat in range(game.num_players()):
                assert sample.information_state_string(seat) == again.information_state_string(seat)
                assert sample.own_actions(seat) == again.own_actions(seat)
            differed += sample.history() != state.history()
        state.apply_action(rng.choice(state.legal_actions()))
    if game_id == "tf22-reload":
        assert differed > 0  # the other seat's committed choice, the cards still to come


def test_research_safe_clones_hide_the_committed_choice() -> None:
    """With ``safe_clones=1`` a clone at the second seat's battle choice does not hold the first seat's:
    it is a chance node, uniform over the first seat's legal choices, after the second seat chooses."""
    game = ros.load_game("tf22-reload", players=2, sequential=True, safe_clones=1)
    state = ros.seeded_state(game, 11)
    first = state.current_player()
    choices = state.legal_actions()
    state.apply_action(choices[-1])
    second = state.current_player()
    clone = state.clone()
    assert clone.current_player() == second and clone.legal_actions() == state.legal_actions()
    assert clone.robotable_state.choices[first] is None and state.robotable_state.choices[first] is not None
    assert clone.own_actions(first) == [] and state.own_actions(first) == [choices[-1]]
    clone.apply_action(clone.legal_actions()[0])
    assert clone.is_chance_node()
    assert clone.chance_outcomes() == [(a, 1.0 / len(choices)) for a in choices]
    plain = ros.load_game("tf22-reload", players=2, sequential=True)
    unsafe = ros.seeded_state(plain, 11)
    unsafe.apply_action(choices[-1])
    assert unsafe.clone().robotable_state.choices[first] is not None  # the default: an exact copy
    bot = mcts.MCTSBot(game, 2.0, 3, _NoRollout(), random_state=np.random.RandomState(5))
    state, searched = _play(game, bot, 5)
    assert searched > 3 and sum(state.returns()) == pytest.approx(1.0)


def _search(game: pyspiel.Game, state: pyspiel.State) -> list[tuple[int, int, float]]:
    """MCTSBot's root statistics after a search from ``state``, its random streams seeded the same."""
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(7))
    bot = mcts.MCTSBot(game, 2.0, 40, evaluator, random_state=np.random.RandomState(7), solve=False)
    root = bot.mcts_search(state)
    return [(child.action, child.explore_count, child.total_reward) for child in root.children]


def test_research_safe_clones_a_search_cannot_read_the_committed_choice() -> None:
    """The second seat's search over the state (MCTSBot, which clones it) is the same whatever the first
    seat committed: with ``safe_clones=1`` the choice is not in the clone, so the search cannot read it.
    Without safe clones the same searches differ (the check can fail)."""
    results = {}
    for safe in (1, 0):
        game = ros.load_game("tf22-reload", players=2, sequential=True, safe_clones=safe)
        searches = []
        for choice in (0, -1):  # the first seat's lowest and highest choice
            state = ros.seeded_state(game, 11)
            state.apply_action(state.legal_actions()[choice])
            clone = state.clone()
            assert (clone.robotable_state.choices[0] is None) == bool(safe)  # inspect: withdrawn, or held
            searches.append(_search(game, state))
        results[safe] = searches
    assert results[1][0] == results[1][1]
    assert results[0][0] != results[0][1]
