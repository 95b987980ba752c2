"""Twin Tin Bots' round limit (``max_rounds``): bounded episodes with a scored outcome in every adapter."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test

from robotable import games
from robotable.adapters import openspiel as ros
from robotable.adapters.gymnasium import RobotableEnv
from robotable.adapters.pettingzoo import aec_env
from robotable.adapters.vector import VectorEnv
from robotable.core import BadInput

TTB = "twin-tin-bots"
LIMIT = games.load(TTB).round_limit


def test_research_round_limit_openspiel_scores_the_stop() -> None:
    game = ros.load_game(TTB, players=3, max_rounds=25)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False, mask_test=True)
    decided = 0
    for seed in range(6):
        state = ros.seeded_state(game, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        engine = state.robotable_state
        returns = state.returns()
        assert sum(returns) == pytest.approx(1.0)
        if engine.is_over():
            continue  # the game really ended first
        assert LIMIT.rounds_played(engine) == 25
        result = LIMIT.result(engine, 25)
        assert returns == [result.payoff(s) for s in range(3)]
        assert "(stopped at max_rounds)" in str(state)
        decided += returns != [1 / 3] * 3
    assert decided > 0  # a scored outcome, not a draw


def test_research_round_limit_pettingzoo_gymnasium_vector() -> None:
    warnings.filterwarnings("ignore", category=UserWarning)
    api_test(aec_env(TTB, 2, max_rounds=2), num_cycles=300)
    env = aec_env(TTB, 2, max_rounds=3)
    env.reset(seed=2)
    for _ in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert LIMIT.rounds_played(env.table.state) == 3 or env.table.state.is_over()
    gym = RobotableEnv(TTB, 2, max_rounds=3)
    obs, _ = gym.reset(seed=3)
    steps, terminated = 0, False
    while not terminated:
        obs, reward, terminated, truncated, _ = gym.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert not truncated
        steps += 1
    assert 0 <= reward <= 1 and steps < 200
    vec = VectorEnv(TTB, num_envs=3, num_players=2, seed=1, max_rounds=2)
    vec.reset()
    rng = np.random.default_rng(1)
    for _ in range(300):
        _, _, _, rewards, done = vec.step(vec.sample(rng))
        assert not vec.info["truncated"].any()
        assert np.allclose(rewards[done].sum(axis=1), 1.0)
    assert vec.episodes >= 3


@pytest.mark.parametrize("bad", [-1, 2.5, "3", True])
def test_research_round_limit_bad_values(bad: object) -> None:
    with pytest.raises(BadInput, match="max_rounds"):
        aec_env(TTB, 2, max_rounds=bad)


def test_research_round_limit_only_where_declared() -> None:
    with pytest.raises(BadInput, match="tf22-reload has no round limit"):
        VectorEnv("tf22-reload", max_rounds=3)
    with pytest.raises(BadInput, match="no round limit"):
        ros.load_game("robots-on-the-line", players=2, max_rounds=3)
