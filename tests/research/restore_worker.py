"""One side of the cross-process restore test (tests/research/test_research_restore.py), run as a
subprocess: ``python -m tests.research.restore_worker produce|consume SEED`` with JSON on stdin/stdout.

``produce`` plays every served game in every adapter from ``SEED``, saving states (pyspiel
``serialize()`` and pickle; pickled PettingZoo and Gymnasium environments) at a few points with what each
seat observes there and after one more move. ``consume`` first plays the same number of steps from
another seed, observing everything (so its own memos and counters are in exactly the state the producer's
were), then restores the producer's states and reports what it observes. The test compares the two.
"""

from __future__ import annotations

import base64
import json
import pickle
import random
import sys
import warnings
from typing import Any

import numpy as np

from robotable import games
from robotable.adapters import openspiel as ros
from robotable.adapters._common import encodable_games
from robotable.adapters.gymnasium import RobotableEnv
from robotable.adapters.pettingzoo import aec_env

STEPS = (14, 18, 22)  # save points (adapter steps), late enough that the memos still hold them


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _players(game_id: str) -> int:
    return min(3, games.load(game_id).max_players)


def _spiel_obs(state: Any) -> list[Any]:
    if state.is_terminal() or state.is_chance_node():
        return []
    return [
        [
            state.observation_string(p),
            [round(float(x), 6) for x in state.observation_tensor(p)],
            [round(float(x), 6) for x in state.information_state_tensor(p)],
            state.legal_actions(p),
        ]
        for p in range(state.num_players())
    ]


def _spiel_move(state: Any, rng: random.Random) -> None:
    """A random move, then its hidden draws (chance nodes) decided, so saved states are decisions."""
    if state.is_simultaneous_node():
        state.apply_actions([rng.choice(state.legal_actions(p) or [0]) for p in range(state.num_players())])
    else:
        state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))


def _spiel_states(game_id: str, seed: int) -> tuple[Any, list[Any]]:
    game = ros.load_game(game_id, players=_players(game_id))
    state = ros.seeded_state(game, seed)
    rng = random.Random(seed)
    saved = []
    for step in range(max(STEPS) + 1):
        _spiel_obs(state)  # observe everything, as a training loop does (fills the memos)
        if step in STEPS:
            saved.append(state.clone())
        if state.is_terminal():
            break
        _spiel_move(state, rng)
    return game, saved


def _zoo_obs(env: Any) -> list[Any]:
    return [
        [env.observation_string(a), env.observe(a)["observation"].tolist(), env.observe(a)["action_mask"].tolist()]
        for a in env.possible_agents
    ]


def _zoo_envs(game_id: str, seed: int) -> list[Any]:
    env = aec_env(game_id, _players(game_id))
    env.reset(seed=seed)
    rng = random.Random(seed)
    saved = []
    for step in range(max(STEPS) + 1):
        _zoo_obs(env)
        if step in STEPS:
            saved.append(pickle.dumps(env))
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return saved


def _gym_envs(game_id: str, seed: int) -> list[Any]:
    env = RobotableEnv(game_id, _players(game_id), seat=0)
    obs, _ = env.reset(seed=seed)
    rng = random.Random(seed)
    saved = []
    for step in range(max(STEPS) + 1):
        if step in STEPS:
            saved.append(pickle.dumps(env))
        obs, _, terminated, truncated, _ = env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        if terminated or truncated:
            break
    return saved


def _gym_next(env: Any) -> list[Any]:
    """What the seat observes after its first legal action (the opponents' agents move too)."""
    if env.state.is_over():
        return []
    legal = env._obs()["action_mask"]
    obs, reward, _terminated, _truncated, info = env.step(int(np.flatnonzero(legal)[0]))
    return [obs["observation"].tolist(), obs["action_mask"].tolist(), reward, info["observation_string"]]


def produce(seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for game_id in encodable_games():
        _, states = _spiel_states(game_id, seed)
        out[f"openspiel {game_id}"] = [
            {"serialized": s.serialize(), "pickled": _b64(pickle.dumps(s)), "obs": _spiel_obs(s)} for s in states
        ]
        out[f"pettingzoo {game_id}"] = [
            {"pickled": _b64(p), "obs": _zoo_obs(pickle.loads(p))} for p in _zoo_envs(game_id, seed)
        ]
        out[f"gymnasium {game_id}"] = [
            {"pickled": _b64(p), "next": _gym_next(pickle.loads(p))} for p in _gym_envs(game_id, seed)
        ]
    return out


def consume(seed: int, produced: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for game_id in encodable_games():
        game, _ = _spiel_states(game_id, seed)  # the same work on other games first
        items = produced[f"openspiel {game_id}"]
        pickled = [_spiel_obs(pickle.loads(base64.b64decode(item["pickled"]))) for item in items]
        serialized = [_spiel_obs(game.deserialize_state(item["serialized"])) for item in items]
        out[f"openspiel {game_id}"] = [{"serialized": s, "pickled": p} for s, p in zip(serialized, pickled)]
        _zoo_envs(game_id, seed)
        out[f"pettingzoo {game_id}"] = [
            _zoo_obs(pickle.loads(base64.b64decode(item["pickled"]))) for item in produced[f"pettingzoo {game_id}"]
        ]
        _gym_envs(game_id, seed)
        out[f"gymnasium {game_id}"] = [
            _gym_next(pickle.loads(base64.b64decode(item["pickled"]))) for item in produced[f"gymnasium {game_id}"]
        ]
    return out


if __name__ == "__main__":
    warnings.filterwarnings("ignore")
    command, seed = sys.argv[1], int(sys.argv[2])
    result = produce(seed) if command == "produce" else consume(seed, json.load(sys.stdin))
    json.dump(result, sys.stdout)
