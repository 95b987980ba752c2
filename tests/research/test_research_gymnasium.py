"""Gymnasium adapter: Gymnasium's own env_checker on every game, and a leak test."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from robotable.adapters.gymnasium import RobotableEnv
from robotable.core import BadInput, Rng


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # Gymnasium warns about unbounded Box observations (the hashed view has no natural bound).
    warnings.filterwarnings("ignore", category=UserWarning, module="gymnasium")


@pytest.mark.parametrize(
    ("game_id", "players", "seat", "opponents", "options"),
    [
        ("tf22-reload", 2, 0, "random", None),
        ("tf22-reload", 3, 1, "heuristic", None),
        ("tf22-reload", 4, 3, ["random", "heuristic", "random"], None),
        ("tf22-reload", 2, 1, "ismcts:easy", None),
        ("twin-tin-bots", 2, 0, "random", None),
        ("twin-tin-bots", 3, 2, "heuristic", {"simplified": True}),
        ("twin-tin-bots", 6, 4, "random", None),
        ("robots-on-the-line", 2, 1, "random", None),
        ("robots-on-the-line", 3, 0, "ismcts:easy", {"three_new_tiles": True}),
        ("robots-on-the-line", 4, 2, "random", {"family": True}),
    ],
)
def test_research_gymnasium_check_env(game_id: str, players: int, seat: int, opponents, options) -> None:
    env = RobotableEnv(game_id, players, seat=seat, opponents=opponents, options=options)
    check_env(env, skip_render_check=True)


def _play(env: RobotableEnv, seed: int, pick: int = 0) -> tuple[float, bool, bool, int]:
    obs, _ = env.reset(seed=seed)
    steps = 0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, _ = env.step(int(legal[(pick + steps) % len(legal)]))
        steps += 1
        if terminated or truncated:
            return reward, terminated, truncated, steps


def test_research_gymnasium_plays_whole_games() -> None:
    env = RobotableEnv("tf22-reload", 3, seat=0, opponents="heuristic")
    reward, terminated, truncated, steps = _play(env, seed=1)
    assert terminated and not truncated and env.state.is_over()
    assert reward == env.state.result().payoff(0)
    assert _play(env, seed=1) == (reward, terminated, truncated, steps)  # seeded: the same game again
    env = RobotableEnv("twin-tin-bots", 2, seat=1, opponents="random", max_steps=50)
    assert _play(env, seed=2)[2]  # truncated
    env = RobotableEnv("robots-on-the-line", 3, seat=1, opponents="random")
    reward, terminated, truncated, steps = _play(env, seed=3)
    assert terminated and not truncated and env.state.is_over()
    assert reward == env.state.result().payoff(1)


def test_research_gymnasium_illegal_action_ends_the_episode() -> None:
    env = RobotableEnv("tf22-reload", 2)
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"num_players": 5}, "5 players"),
        ({"seat": 2}, "seat must be 0 to 1"),
        ({"opponents": "genius"}, "unknown agent"),
        ({"opponents": ["random", "random"]}, "one per other seat"),
        ({"max_steps": -1}, "max_steps"),
        ({"options": {"colour": "red"}}, "colour"),
    ],
)
def test_research_gymnasium_bad_parameters(kwargs: dict, match: str) -> None:
    with pytest.raises(BadInput, match=match):
        RobotableEnv("tf22-reload", **{"num_players": 2, **kwargs})


@pytest.mark.parametrize(("game_id", "players"), [("tf22-reload", 3), ("twin-tin-bots", 4), ("robots-on-the-line", 3)])
def test_research_gymnasium_no_leak(game_id: str, players: int) -> None:
    """Resampling what the trained seat cannot know changes neither its observation tensor nor its string."""
    env = RobotableEnv(game_id, players, seat=1, opponents="random")
    obs, info = env.reset(seed=5)
    changed = 0
    for step in range(40):
        real = env.state
        fake = real.determinize(1, Rng(step + 7))
        changed += fake.to_json() != real.to_json()
        env.state = fake
        fake_obs, fake_info = env._obs(), env._info()
        env.state = real
        assert np.array_equal(obs["observation"], fake_obs["observation"])
        assert np.array_equal(obs["action_mask"], fake_obs["action_mask"])
        assert info["observation_string"] == fake_info["observation_string"]
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, terminated, truncated, info = env.step(int(legal[step % len(legal)]))
        if terminated or truncated:
            break
    assert changed > 0
