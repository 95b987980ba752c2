"""Rendering (``ansi``, ``rgb_array``, ``human``) through PettingZoo's render_test and Gymnasium's checker,
and the parallel environment through ``parallel_to_aec``."""

from __future__ import annotations

import warnings

import matplotlib
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, render_test
from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec

from robotable.adapters._common import encodable_games
from robotable.adapters.gymnasium import RobotableEnv
from robotable.adapters.pettingzoo import aec_env, parallel_env

matplotlib.use("Agg")  # the human window draws off screen in tests
GAMES = encodable_games()


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", category=UserWarning)


def _image_ok(image: np.ndarray) -> bool:
    return image.shape[0] > 50 and image.shape[1] > 300 and len(np.unique(image.reshape(-1, 3), axis=0)) > 3


@pytest.mark.parametrize("game_id", GAMES)
def test_research_render_test(game_id: str) -> None:
    render_test(
        lambda render_mode=None: aec_env(game_id, 3, render_mode=render_mode),
        custom_tests={"ansi": lambda text: len(text.splitlines()) > 3, "rgb_array": _image_ok},
    )


def test_research_render_parallel_and_gymnasium() -> None:
    par = parallel_env("tf22-reload", 2, render_mode="rgb_array")
    par.reset(seed=1)
    assert _image_ok(par.render())
    env = RobotableEnv("twin-tin-bots", 2, render_mode="ansi")
    env.reset(seed=1)
    assert "Round 1" in env.render()
    check_env(RobotableEnv("tf22-reload", 2, render_mode="rgb_array"))


def test_research_render_shows_only_the_public_view() -> None:
    """The drawing is the spectator's: the same whatever a seat's secret choice."""
    env = aec_env("tf22-reload", 2, render_mode="ansi")
    env.reset(seed=3)
    before = env.render()
    obs = env.observe(env.agent_selection)
    env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    other = aec_env("tf22-reload", 2, render_mode="ansi")
    other.reset(seed=3)
    obs = other.observe(other.agent_selection)
    other.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.render() == other.render() != before


@pytest.mark.parametrize("mode", ["svg", 3])
def test_research_render_bad_mode(mode: object) -> None:
    with pytest.raises(ValueError, match="render_mode must be None or one of ansi, rgb_array, human"):
        aec_env("tf22-reload", 2, render_mode=mode)


@pytest.mark.parametrize("players", [2, 4])
def test_research_parallel_to_aec(players: int) -> None:
    """The parallel environment converts to AEC (PettingZoo's own wrapper) and passes the AEC API test."""
    env = parallel_to_aec(parallel_env("tf22-reload", players))
    api_test(env, num_cycles=60)


def test_research_aec_to_parallel_is_refused() -> None:
    """Seats do not act in a fixed cycle (a won battle's load decision, a trade answer), so the AEC
    environments say they are not parallelizable; the parallel environment is the way."""
    assert aec_env("tf22-reload", 2).metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError):
        aec_to_parallel(aec_env("tf22-reload", 2))
    parallel_api_test(parallel_env("twin-tin-bots", 3), num_cycles=40)


@pytest.mark.parametrize("game_id", GAMES)
def test_research_aec_to_parallel_where_valid(game_id: str) -> None:
    """``aec_to_parallel`` is valid on the AEC form of the parallel environment (PettingZoo returns the
    parallel environment itself), which passes the parallel API test for every game."""
    par = aec_to_parallel(parallel_to_aec(parallel_env(game_id, 3)))
    assert isinstance(par, type(parallel_env(game_id, 3)))
    parallel_api_test(par, num_cycles=40)


class _RandomLegal(dict):
    """Actions for PettingZoo's AEC-to-parallel wrapper, chosen when it asks for an agent's (a random
    legal action of the agent then)."""

    def __init__(self, env, rng: np.random.Generator) -> None:
        super().__init__()
        self.env, self.rng = env, rng

    def __missing__(self, agent: str) -> int:
        return int(self.rng.choice(np.flatnonzero(self.env.observe(agent)["action_mask"])))


@pytest.mark.parametrize("game_id", GAMES)
def test_research_aec_to_parallel_would_break_the_cycle(game_id: str) -> None:
    """Why the AEC environments say they are not parallelizable: with the flag forced on, PettingZoo's
    own wrapper soon finds a seat acting out of its cycle (a load decision, a second program change in a
    turn, a trade answer) in every game."""
    env = aec_env(game_id, 3)
    env.metadata = {**env.metadata, "is_parallelizable": True}
    par = aec_to_parallel(env)
    par.reset(seed=1)
    rng = np.random.default_rng(1)
    with pytest.raises(AssertionError, match="expects agents to step in a cycle"):
        for _ in range(200):
            par.step(_RandomLegal(env, rng))
