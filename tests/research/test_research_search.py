"""OpenSpiel's own search bots play every game to the end: ``open_spiel.python.algorithms.ismcts`` through
``resample_from_infostate`` (built on ``determinize``) and MCTS, on the sequential form of each game."""

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


def _play(game: pyspiel.Game, bot: pyspiel.Bot, seed: int) -> tuple[pyspiel.State, int]:
    state = ros.seeded_state(game, seed)
    rng = random.Random(seed)
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choices(*zip(*state.chance_outcomes()))[0])
        elif state.current_player() == 0:
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
def test_research_resample_from_infostate_keeps_what_the_seat_knows(game_id: str) -> None:
    game = _load(game_id)
    state = ros.seeded_state(game, 4)
    rng = random.Random(4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    for _ in range(40):
        if state.is_terminal():
            break
        player = state.current_player()
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        differed += sample.robotable_state.to_json() != state.robotable_state.to_json()
        state.apply_action(rng.choice(state.legal_actions()))
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
