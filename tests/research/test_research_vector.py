"""robotable.adapters.vector: batched self-play with numpy observations, masks, auto-reset and seeds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from robotable import games
from robotable.adapters._common import encodable_games, legal_by_index
from robotable.adapters.vector import VectorEnv
from robotable.core import BadInput, Rng

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game_id", encodable_games())
def test_research_vector_arrays_are_the_acting_seats(game_id: str) -> None:
    env = VectorEnv(game_id, num_envs=4, num_players=3 if game_id != "tf22-reload" else 2, seed=1)
    obs, mask, seats = env.reset()
    game = games.load(game_id)
    encoder = game.observation_encoder
    rng = np.random.default_rng(1)
    for _ in range(25):
        assert obs.shape == (4, encoder.size) and obs.dtype == np.float32
        assert mask.shape == (4, env.num_actions) and mask.dtype == np.bool_
        for i, state in enumerate(env.states):
            seat = state.to_act()[0]
            assert seats[i] == seat
            assert set(np.flatnonzero(mask[i])) == set(legal_by_index(game, state, seat))
            assert obs[i].tolist() == pytest.approx(encoder.encode(state.view(seat), seat))
        obs, mask, seats, rewards, _ = env.step(env.sample(rng))
        assert rewards.shape == (4, env.num_players)


@pytest.mark.parametrize("game_id", encodable_games())
def test_research_vector_no_leak(game_id: str) -> None:
    """Resampling everything each acting seat cannot know changes none of its observation and mask rows."""
    env = VectorEnv(game_id, num_envs=3, num_players=3, seed=4)
    env.reset()
    rng = np.random.default_rng(4)
    changed = 0
    for step in range(40):
        obs, mask = env.observations.copy(), env.masks.copy()
        real = env.states
        env.states = [s.determinize(int(seat), Rng(step * 3 + i)) for i, (s, seat) in enumerate(zip(real, env.seats))]
        changed += sum(a.to_json() != b.to_json() for a, b in zip(real, env.states))
        env._observe(range(env.num_envs))
        assert np.array_equal(env.observations, obs) and np.array_equal(env.masks, mask)
        env.states = real
        env._observe(range(env.num_envs))
        env.step(env.sample(rng))
    assert changed > 0


def test_research_vector_auto_reset_and_rewards() -> None:
    env = VectorEnv("tf22-reload", num_envs=3, num_players=2, seed=7)
    env.reset()
    rng = np.random.default_rng(7)
    finished = 0
    for _ in range(400):
        _, _, _, rewards, done = env.step(env.sample(rng))
        assert (rewards[~done] == 0).all()
        for i in np.flatnonzero(done):
            assert rewards[i].sum() == pytest.approx(1.0)
            assert env.steps[i] == 0 and not env.states[i].is_over()  # already the next game
            finished += 1
    assert finished >= 3 and env.episodes == finished


def test_research_vector_seeds_replay() -> None:
    def run(seed: int) -> list[np.ndarray]:
        env = VectorEnv("twin-tin-bots", num_envs=2, num_players=3, seed=seed)
        obs, _, _ = env.reset()
        rng = np.random.default_rng(0)
        out = [obs.copy()]
        for _ in range(30):
            obs, *_ = env.step(env.sample(rng))
            out.append(obs.copy())
        return out

    same = run(5)
    assert all((a == b).all() for a, b in zip(same, run(5), strict=True))
    assert any((a != b).any() for a, b in zip(same, run(6), strict=True))


def test_research_vector_truncation() -> None:
    env = VectorEnv("twin-tin-bots", num_envs=2, num_players=2, seed=3, max_steps=10)
    env.reset()
    rng = np.random.default_rng(3)
    for _ in range(9):
        _, _, _, rewards, done = env.step(env.sample(rng))
        assert not done.any()
    _, _, _, rewards, done = env.step(env.sample(rng))
    assert done.all() and env.info["truncated"].all()
    assert (rewards == 0.5).all()


def test_research_vector_bad_input_changes_nothing() -> None:
    env = VectorEnv("tf22-reload", num_envs=2, num_players=2, seed=1)
    _, mask, _ = env.reset()
    before = [s.to_json() for s in env.states]
    illegal = int(np.flatnonzero(~mask[1])[0])
    with pytest.raises(BadInput, match="game 1: action"):
        env.step([int(np.flatnonzero(mask[0])[0]), illegal])
    with pytest.raises(BadInput, match="one action per game"):
        env.step([0])
    assert [s.to_json() for s in env.states] == before
    for bad in (0, -1, "4", True):
        with pytest.raises(BadInput, match="num_envs"):
            VectorEnv("tf22-reload", num_envs=bad)
    with pytest.raises(RuntimeError, match="reset"):
        VectorEnv("tf22-reload").step([0] * 16)


def test_research_selfplay_benchmark_prints_its_table() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "selfplay.py"), "--seconds", "0.2", "--envs", "4",
         "--processes", "2", "--game", "tf22-reload"],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("machine: ")
    lines = done.stdout.splitlines()
    split = next(i for i, line in enumerate(lines) if line.startswith("1 process, as a ratio"))
    rows = {line[:42].strip(): line[42:].split() for line in lines[3:split]}
    assert lines[-1].startswith("load average after: ")
    ratios = {line[:42].strip(): float(line[42:]) for line in lines[split + 1 : -1]}
    assert ratios["python_kuhn_poker (OpenSpiel)"] == 1.0 and set(ratios) == set(rows)
    assert set(rows) == {
        "tf22-reload vector 2p",
        "tf22-reload pyspiel 2p",
        "python_kuhn_poker (OpenSpiel)",
        "kuhn_poker (OpenSpiel)",
    }
    assert all(len(row) == 3 and float(x.replace(",", "")) > 0 for row in rows.values() for x in row)
