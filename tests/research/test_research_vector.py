"""robotable.adapters.vector: batched self-play with numpy observations, masks, auto-reset, seeds and workers."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotable.adapters import vector
from robotable.adapters._common import encodable_games, legal_by_index
from robotable.adapters.vector import VectorEnv
from robotable.core import BadInput, Rng, State

ROOT = Path(__file__).resolve().parents[2]


def _check_rows(env: VectorEnv) -> None:
    """Every row of the arrays is its game's acting seat's planes, legal mask and legal list."""
    game = env.game
    encoder = game.observation_encoder
    for i, state in enumerate(env.states):
        seat = state.to_act()[0]
        assert env.seats[i] == seat
        legal = legal_by_index(game, state, seat)
        assert set(np.flatnonzero(env.masks[i])) == set(legal)
        assert env._arrays["legal"][i, : env._arrays["counts"][i]].tolist() == list(legal)
        assert env.observations[i].tolist() == pytest.approx(encoder.encode(state.view(seat), seat))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game_id=st.sampled_from(encodable_games()),
    num_envs=st.integers(1, 5),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 30),
)
def test_research_vector_arrays_are_the_acting_seats(game_id: str, num_envs: int, seed: int, steps: int) -> None:
    env = VectorEnv(game_id, num_envs=num_envs, num_players=2, seed=seed, workers=0)
    obs, mask, seats = env.reset()
    assert obs.shape == (num_envs, env.observation_size) and obs.dtype == np.float32
    assert mask.shape == (num_envs, env.num_actions) and mask.dtype == np.bool_
    assert seats.shape == (num_envs,)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        _, _, _, rewards, _ = env.step(env.sample(rng))
        assert rewards.shape == (num_envs, env.num_players)
    _check_rows(env)


@pytest.mark.parametrize("game_id", encodable_games())
def test_research_vector_no_leak(game_id: str) -> None:
    """Resampling everything each acting seat cannot know changes none of its observation and mask rows."""
    env = VectorEnv(game_id, num_envs=3, num_players=3, seed=4, workers=0)
    env.reset()
    games_here = env._local
    rng = np.random.default_rng(4)
    changed = 0
    for step in range(40):
        obs, mask = env.observations.copy(), env.masks.copy()
        real = games_here.states
        games_here.states = [
            s.determinize(int(seat), Rng(step * 3 + i)) for i, (s, seat) in enumerate(zip(real, env.seats))
        ]
        changed += sum(a.to_json() != b.to_json() for a, b in zip(real, games_here.states))
        games_here.observe()
        assert np.array_equal(env.observations, obs) and np.array_equal(env.masks, mask)
        games_here.states = real
        games_here.observe()
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


def _trace(env: VectorEnv, steps: int) -> list[np.ndarray]:
    """Everything the env returns over ``steps`` random steps (copies), then closed."""
    with env:
        out = [a.copy() for a in env.reset()]
        rng = np.random.default_rng(1)
        for _ in range(steps):
            out += [a.copy() for a in env.step(env.sample(rng))]
            out.append(env.info["truncated"].copy())
        out.append(np.array(env.episodes))
    return out


@pytest.mark.parametrize(
    ("game_id", "kwargs"),
    [
        ("tf22-reload", {"num_players": 3}),
        ("twin-tin-bots", {"max_rounds": 1}),
        ("robots-on-the-line", {"structured_actions": True, "max_steps": 40}),
    ],
)
def test_research_vector_workers_play_the_same_games(game_id: str, kwargs: dict) -> None:
    """Spread over worker processes (shared memory), the same seed gives exactly the same arrays, step by
    step, as in one process: each game has its own stream of seeds, whatever process steps it."""
    alone = _trace(VectorEnv(game_id, num_envs=5, seed=9, workers=0, **kwargs), 120)
    spread = _trace(VectorEnv(game_id, num_envs=5, seed=9, workers=2, **kwargs), 120)
    assert len(alone) == len(spread)
    for a, b in zip(alone, spread):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    assert alone[-1] > 0  # games ended (or were cut off) and restarted on the way


@pytest.mark.parametrize(
    ("game_id", "players", "workers"), [("tf22-reload", 2, 2), ("tf22-reload", 3, 0), ("robots-on-the-line", 2, 2)]
)
def test_research_vector_is_unbatched_stepping(game_id: str, players: int, workers: int) -> None:
    """Batched (in one process or over workers in shared memory), every game's observations, masks, seats,
    rewards and done flags are those of the same game played alone through the engine: started from its
    own stream's seeds, each action applied, the planes encoded from the acting seat's view."""
    num_envs, seed = 4, 11
    env = VectorEnv(game_id, num_envs=num_envs, num_players=players, seed=seed, workers=workers)
    game, encoder = env.game, env.game.observation_encoder
    streams = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(num_envs)]

    def start(j: int) -> State:
        return game.start(players, seed=int(streams[j].integers(0, 2**62)))

    alone = [start(j) for j in range(num_envs)]
    rng = np.random.default_rng(3)
    finished = 0
    with env:
        obs, mask, seats = env.reset()
        for step in range(160):
            for j, state in enumerate(alone):
                seat = state.to_act()[0]
                assert seats[j] == seat, (step, j)
                assert np.array_equal(obs[j], np.asarray(encoder.encode(state.view(seat), seat), np.float32))
                assert np.flatnonzero(mask[j]).tolist() == sorted(legal_by_index(game, state, seat))
            actions = env.sample(rng)
            obs, mask, seats, rewards, done = env.step(actions)
            for j, state in enumerate(alone):
                seat = state.to_act()[0]
                state.apply(seat, legal_by_index(game, state, seat)[int(actions[j])])
                assert bool(done[j]) == state.is_over(), (step, j)
                if state.is_over():
                    payoffs = [state.result().payoff(s) for s in range(players)]
                    assert rewards[j].tolist() == pytest.approx(payoffs, abs=1e-7)
                    alone[j] = start(j)
                    finished += 1
                else:
                    assert not rewards[j].any()
    assert finished > 0 or game_id == "robots-on-the-line"  # TF22 games ended and restarted on the way


def test_research_vector_sample_is_uniform_over_the_legal_actions() -> None:
    env = VectorEnv("tf22-reload", num_envs=4, num_players=2, seed=2, workers=0)
    _, mask, _ = env.reset()
    rng = np.random.default_rng(2)
    draws = np.stack([env.sample(rng) for _ in range(4000)])
    for i in range(4):
        legal = np.flatnonzero(mask[i])
        values, counts = np.unique(draws[:, i], return_counts=True)
        assert values.tolist() == legal.tolist()
        expected = 4000 / len(legal)
        assert (np.abs(counts - expected) < 5 * np.sqrt(expected)).all()


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
    first = int(np.flatnonzero(mask[0])[0])
    illegal = int(np.flatnonzero(~mask[1])[0])
    with pytest.raises(BadInput, match="game 1: action"):
        env.step([first, illegal])
    for outside in (-1, env.num_actions, 10**12):
        with pytest.raises(BadInput, match=f"game 1: action {outside} is not legal"):
            env.step([first, outside])
    with pytest.raises(BadInput, match="integer action indices"):
        env.step([first + 0.5, first])
    with pytest.raises(BadInput, match="integer action indices"):
        env.step(["a", "b"])
    with pytest.raises(BadInput, match="one action per game"):
        env.step([0])
    assert [s.to_json() for s in env.states] == before
    env.step(np.array([first, int(np.flatnonzero(mask[1])[0])], np.float64))  # integral floats are indices
    for bad in (0, -1, "4", True):
        with pytest.raises(BadInput, match="num_envs"):
            VectorEnv("tf22-reload", num_envs=bad)
    for bad in (-1, 3, 1.0, True):
        with pytest.raises(BadInput, match="workers must be None or an integer from 0 to num_envs"):
            VectorEnv("tf22-reload", num_envs=2, workers=bad)
    with pytest.raises(RuntimeError, match="reset"):
        VectorEnv("tf22-reload").step([0] * 16)


def test_research_vector_worker_states_stay_in_the_workers() -> None:
    with VectorEnv("tf22-reload", num_envs=2, seed=1, workers=1) as env:
        env.reset()
        with pytest.raises(RuntimeError, match="live in the 1 worker processes"):
            env.states  # noqa: B018
        assert env.cpu_seconds() > 0


def test_research_vector_a_stopped_worker_is_reported() -> None:
    env = VectorEnv("tf22-reload", num_envs=4, seed=1, workers=2)
    env.reset()
    env._processes[1].kill()
    env._processes[1].join()
    with pytest.raises(RuntimeError, match="worker 1 stopped"):
        env.step(env.sample(np.random.default_rng(0)))
    assert not env._processes  # the others were stopped too
    with pytest.raises(RuntimeError, match="reset"):
        env.step(env.sample(np.random.default_rng(0)))


def test_research_vector_close_stops_the_workers() -> None:
    env = VectorEnv("tf22-reload", num_envs=4, seed=1, workers=2)
    processes = list(env._processes)
    env.reset()
    env.close()
    assert all(not p.is_alive() and p.exitcode == 0 for p in processes)


def test_research_vector_workers_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """By default a batch of AUTO_WORKERS_FROM games or more uses a worker per core, if there are two or more."""
    big = vector.AUTO_WORKERS_FROM
    monkeypatch.setattr(vector, "_available_cores", lambda: 2)
    assert vector._check_workers(None, big) == 2 and vector._check_workers(None, big - 1) == 0
    monkeypatch.setattr(vector, "_available_cores", lambda: 1)
    assert vector._check_workers(None, 10 * big) == 0
    assert vector._check_workers(3, 10) == 3


#: The wrapper table's loops per game (benchmarks/selfplay.py's WRAPPER).
WRAPPER = (
    "engine apply",
    "engine apply_legal",
    "openspiel apply_action",
    "openspiel apply_action, seed",
    "pyspiel API floor",
)


def test_research_selfplay_benchmark_prints_its_tables() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "selfplay.py"), "--seconds", "0.2", "--rounds", "2", "--envs", "4",
         "--large", "8", "--workers", "2", "--game", "tf22-reload"],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("machine: ") and "interleaved: 2 rounds" in lines[1]
    assert lines[-1].startswith("load average after: ")
    ratio = next(i for i, line in enumerate(lines) if line.startswith("as a ratio to python_kuhn_poker per CPU"))
    scaling = next(i for i, line in enumerate(lines) if line.startswith("scaling: 8 games against 4"))
    table = {line[:44].strip(): line[44:].split() for line in lines[4:ratio]}
    ratios = {line[:44].strip(): float(line[44:]) for line in lines[ratio + 1 : scaling]}
    wall = next(i for i, line in enumerate(lines) if line.startswith("wall clock: 8 games against 4, ratio in each"))
    wrapper = next(i for i, line in enumerate(lines) if line.startswith("OpenSpiel wrapper against the engine"))
    medians = next(i for i, line in enumerate(lines) if line.startswith("wrapper / engine apply per CPU second"))
    ceiling = next(i for i, line in enumerate(lines) if line.startswith("ceiling of the wrapper / engine apply"))
    scale = {line[:44].strip(): line[44:].split() for line in lines[scaling + 2 : wall]}
    rounds = {line[:44].strip(): line[44:].split() for line in lines[wall + 2 : wrapper]}
    assert list(rounds) == [
        "tf22-reload 8 games, 1 process",
        "tf22-reload 8 games, 2 workers",
        "tf22-reload playouts, 2 processes / 1",
        "tf22-reload workers / that ceiling",
    ]
    assert all(float(row[0]) > 0 and row[1].startswith("(") for row in rounds.values())
    assert [len(row) for row in rounds.values()] == [4, 4, 4, 2]
    playouts = {line[:44].strip(): line[44:].split() for line in lines[wrapper + 2 : medians]}
    assert list(playouts) == [f"tf22-reload {how}" for how in WRAPPER]
    assert playouts["tf22-reload engine apply"][3] == "1.00" and playouts["tf22-reload engine apply_legal"][4] == "1.00"
    assert [line[:44].strip() for line in lines[medians + 1 : ceiling]] == [
        f"tf22-reload {how}" for how in WRAPPER[2:-1]
    ]
    assert [line[:44].strip() for line in lines[ceiling + 1 : -1]] == ["tf22-reload"]
    engine, floor = (float(playouts[f"tf22-reload {how}"][1].replace(",", "")) for how in (WRAPPER[0], WRAPPER[-1]))
    assert floor > engine  # the do-nothing game costs less per decision than the engine's own moves
    assert 0 < float(lines[ceiling + 1][44:].split()[0]) < 1
    assert (
        set(table)
        == set(ratios)
        == {
            "tf22-reload vector 2p",
            "tf22-reload pyspiel 2p",
            "python_kuhn_poker (OpenSpiel)",
            "kuhn_poker (OpenSpiel)",
        }
    )
    assert all(len(row) == 3 and float(x.replace(",", "")) > 0 for row in table.values() for x in row)
    assert ratios["python_kuhn_poker (OpenSpiel)"] == 1.0
    per_cpu = {label: float(row[1].replace(",", "")) for label, row in table.items()}
    assert ratios["kuhn_poker (OpenSpiel)"] == pytest.approx(
        per_cpu["kuhn_poker (OpenSpiel)"] / per_cpu["python_kuhn_poker (OpenSpiel)"], abs=0.01
    )
    assert list(scale) == [
        "tf22-reload 4 games, 1 process",
        "tf22-reload 8 games, 1 process",
        "tf22-reload 8 games, 2 workers",
        "tf22-reload playouts, 1 process",
        "tf22-reload playouts, 2 processes",
    ]
    assert all(len(row) == 5 for row in scale.values())
    assert (
        scale["tf22-reload 4 games, 1 process"][3:] == scale["tf22-reload playouts, 1 process"][3:] == ["1.00", "1.00"]
    )


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie not yet reaped counts as ended)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    return "\nState:\tZ" in status


@pytest.mark.parametrize("ending", ["exit", "kill"])
def test_research_vector_no_orphan_workers(ending: str) -> None:
    """Worker processes end with the process that started them, whether it exits without ``close()`` or
    is killed (SIGKILL): nothing is left running."""
    script = (
        "import sys\n"
        "from robotable.adapters.vector import VectorEnv\n"
        "if __name__ == '__main__':\n"
        "    env = VectorEnv('tf22-reload', num_envs=4, seed=1, workers=2)\n"
        "    env.reset()\n"
        "    print(' '.join(str(p.pid) for p in env._processes), flush=True)\n"
        "    sys.stdin.readline()\n"  # then exits without close()
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert process.stdout is not None and process.stdin is not None
    workers = [int(pid) for pid in process.stdout.readline().split()]
    assert len(workers) == 2 and not any(_gone(pid) for pid in workers)
    if ending == "kill":
        process.kill()
    else:
        process.stdin.write("\n")
        process.stdin.flush()
    process.wait(timeout=60)
    process.stdin.close()
    process.stdout.close()
    deadline = time.monotonic() + 30
    while not all(_gone(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)  # polling for a condition, bounded by the deadline
    assert all(_gone(pid) for pid in workers)
