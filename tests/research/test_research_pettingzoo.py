"""PettingZoo adapter: PettingZoo's own api_test, seed_test and parallel_api_test, and a leak test."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

from robotable.adapters.pettingzoo import aec_env, parallel_env
from robotable.core import BadInput, IllegalAction, Rng

CASES = [
    ("tf22-reload", 2, None),
    ("tf22-reload", 3, None),
    ("tf22-reload", 4, None),
    ("twin-tin-bots", 2, None),
    ("twin-tin-bots", 3, {"simplified": True}),
    ("twin-tin-bots", 4, {"team_play": True}),
    ("twin-tin-bots", 6, None),
    ("robots-on-the-line", 2, None),
    ("robots-on-the-line", 3, {"three_new_tiles": True}),
    ("robots-on-the-line", 4, {"on_off_variant": True}),
]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # PettingZoo warns that dict observations (observation + action_mask) are not plain boxes.
    warnings.filterwarnings("ignore", message=".*Observation.*", category=UserWarning)


@pytest.mark.parametrize(("game_id", "players", "options"), CASES)
def test_research_pettingzoo_api_and_seed(game_id: str, players: int, options: dict | None) -> None:
    api_test(aec_env(game_id, players, options=options), num_cycles=200)
    seed_test(lambda: aec_env(game_id, players, options=options), num_cycles=60)


def test_research_pettingzoo_truncation() -> None:
    env = aec_env("twin-tin-bots", 2, max_cycles=30)
    api_test(env, num_cycles=100)
    env.reset(seed=1)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0])
        env.step(action)
    assert env.agents == [] and env.table.steps == 30


@pytest.mark.parametrize("players", [2, 3, 4])
def test_research_pettingzoo_parallel_tf22(players: int) -> None:
    parallel_api_test(parallel_env("tf22-reload", players), num_cycles=200)


def test_research_pettingzoo_parallel_sequential_game() -> None:
    """A game without simultaneous choices: one seat acts per step, the first the game waits for (an
    offer's answer before the turn's player goes on); the others' only action is WAIT."""
    parallel_api_test(parallel_env("robots-on-the-line", 3), num_cycles=200)
    env = parallel_env("robots-on-the-line", 3)
    obs, _ = env.reset(seed=6)
    rng = np.random.default_rng(6)
    answered = 0
    while env.agents:
        waiting = env.table.state.to_act()
        acting = [a for a, o in obs.items() if o["action_mask"][env.WAIT] == 0]
        assert acting == [f"player_{waiting[0]}"]
        answered += len(waiting) > 1
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
        obs, *_ = env.step(actions)
    assert answered > 0


def test_research_pettingzoo_parallel_plays_to_the_end() -> None:
    env = parallel_env("tf22-reload", 3)
    obs, _ = env.reset(seed=4)
    rewards: dict = {}
    simultaneous = 0
    while env.agents:
        simultaneous += sum(o["action_mask"][env.WAIT] == 0 for o in obs.values()) > 1
        actions = {a: int(np.flatnonzero(o["action_mask"])[-1]) for a, o in obs.items()}
        obs, rewards, *_ = env.step(actions)
    assert sum(rewards.values()) == pytest.approx(1.0)
    assert simultaneous == 28  # every battle choice made together


def test_research_pettingzoo_seeded_reset_replays() -> None:
    a, b = aec_env("twin-tin-bots", 3), aec_env("twin-tin-bots", 3)
    a.reset(seed=9)
    b.reset(seed=9)
    assert a.table.state.to_json() == b.table.state.to_json()
    b.reset(seed=10)
    assert a.table.state.to_json() != b.table.state.to_json()


def test_research_pettingzoo_errors() -> None:
    with pytest.raises(BadInput, match="7 players"):
        aec_env("tf22-reload", 7)
    with pytest.raises(BadInput, match="max_cycles"):
        aec_env("twin-tin-bots", 2, max_cycles=0)
    with pytest.raises(BadInput, match="unknown game"):
        aec_env("chess", 2)
    env = aec_env("tf22-reload", 2)
    env.reset(seed=1)
    with pytest.raises(IllegalAction, match="not legal"):
        env.step(78)
    par = parallel_env("tf22-reload", 2)
    par.reset(seed=1)
    with pytest.raises(ValueError, match="needs an action"):
        par.step({})


@pytest.mark.parametrize(("game_id", "players"), [("tf22-reload", 3), ("twin-tin-bots", 4), ("robots-on-the-line", 3)])
def test_research_pettingzoo_no_leak(game_id: str, players: int) -> None:
    """Resampling what a seat cannot know changes neither its observation tensor nor its string."""
    env = aec_env(game_id, players)
    par = parallel_env(game_id, players)
    env.reset(seed=2)
    par.reset(seed=2)
    changed = 0
    for step in range(60):
        if not env.agents:
            break
        agent = env.agent_selection
        seat = int(agent.split("_")[1])
        real = env.table.state
        before = (env.observe(agent), env.observation_string(agent), par._observe(agent))
        fake = real.determinize(seat, Rng(step + 1))
        changed += fake.to_json() != real.to_json()
        env.table.state = par.table.state = fake
        after = (env.observe(agent), env.observation_string(agent), par._observe(agent))
        env.table.state = par.table.state = real
        for key in ("observation", "action_mask"):
            assert np.array_equal(before[0][key], after[0][key])
            assert np.array_equal(before[2][key], after[2][key])
        assert before[1] == after[1]
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[step % int(obs["action_mask"].sum())]))
    assert changed > 0


def test_research_pettingzoo_parallel_illegal_action_changes_nothing() -> None:
    """Every seat's action is checked before any is applied: one illegal choice leaves the game as it was."""
    env = parallel_env("tf22-reload", 2)
    obs, _ = env.reset(seed=3)
    before = env.table.state.to_json()
    legal0 = int(np.flatnonzero(obs["player_0"]["action_mask"])[0])
    illegal1 = int(np.flatnonzero(obs["player_1"]["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        env.step({"player_0": legal0, "player_1": illegal1})
    assert env.table.state.to_json() == before


@pytest.mark.parametrize("make", [aec_env, parallel_env])
def test_research_pettingzoo_max_steps_is_deprecated(make) -> None:
    """``max_steps`` (the old name of ``max_cycles``) still truncates, with a DeprecationWarning."""
    with pytest.warns(DeprecationWarning, match="max_cycles"):
        old = make("twin-tin-bots", 2, max_steps=7)
    assert old.table.max_cycles == 7
    assert make("twin-tin-bots", 2, max_cycles=7).table.max_cycles == 7
    with pytest.raises(BadInput, match="max_cycles only"):
        make("twin-tin-bots", 2, max_cycles=7, max_steps=7)
