"""Self-play data generation: steps per second with observations and masks, next to OpenSpiel's Kuhn poker.

    python benchmarks/selfplay.py                      # every served game, 2 players, about a minute
    python benchmarks/selfplay.py --seconds 10 --envs 64 --processes 2 --game tf22-reload

One loop for everything: ``num_envs`` games stepped together; each step fills a float32 observation
array and a bool legal-action mask for every game's acting seat, picks a uniformly random legal action
per game and applies it, restarting finished games at once. It runs over

- ``robotable.adapters.vector.VectorEnv`` (our games, contract and feature planes directly: "vector");
- pyspiel states (``observation_tensor`` and ``legal_actions_mask`` of the acting player, chance nodes
  sampled and not counted) for our games through the OpenSpiel adapter ("pyspiel"; TF22 through
  ``convert_to_turn_based``, one seat at a time like the vector loop) and for OpenSpiel's
  ``python_kuhn_poker`` (pure Python) and C++ ``kuhn_poker``.

Each is measured in one process, then in ``--processes`` processes at once (total steps / wall time).
A step is one applied decision. The one-process loop is also given per second of its own CPU time
(``time.process_time``), which other programs on a shared machine do not slow the way they slow wall
time; the load average is printed before and after. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import games as _openspiel_python_games  # noqa: F401  (registers python_* games)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.compare_openspiel import machine
from robotable.adapters import openspiel as ros
from robotable.adapters._common import encodable_games
from robotable.adapters.vector import VectorEnv

REFERENCES = ("python_kuhn_poker", "kuhn_poker")


class SpielVector:
    """The same batched loop over pyspiel states (auto-reset; chance outcomes sampled, not counted)."""

    def __init__(self, game: pyspiel.Game, num_envs: int, seed: int) -> None:
        self.game = game
        self.num_envs = num_envs
        self.rng = np.random.default_rng(seed)
        self.observations = np.zeros((num_envs, game.observation_tensor_size()), np.float32)
        self.masks = np.zeros((num_envs, game.num_distinct_actions()), np.bool_)
        self.states: list[Any] = []
        self.episodes = 0

    def _ready(self, state: Any) -> Any:
        """Play chance nodes (and restart a finished game) until a decision node."""
        while True:
            if state.is_terminal():
                self.episodes += 1
                state = self.game.new_initial_state()
            elif state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[self.rng.integers(len(outcomes))][0])
            elif state.is_simultaneous_node():  # one seat at a time is not possible here: all choose
                state.apply_actions(
                    [self.rng.choice(state.legal_actions(p) or [0]) for p in range(state.num_players())]
                )
            else:
                return state

    def reset(self) -> None:
        self.states = [self._ready(self.game.new_initial_state()) for _ in range(self.num_envs)]
        self._observe()

    def _observe(self) -> None:
        for i, state in enumerate(self.states):
            player = state.current_player()
            self.observations[i] = state.observation_tensor(player)
            self.masks[i] = state.legal_actions_mask(player)

    def sample(self, rng: np.random.Generator) -> np.ndarray:
        return np.fromiter((rng.choice(np.flatnonzero(mask)) for mask in self.masks), np.int64, self.num_envs)

    def step(self, actions: np.ndarray) -> None:
        for i, state in enumerate(self.states):
            state.apply_action(int(actions[i]))
            self.states[i] = self._ready(state)
        self._observe()


def _make(kind: str, name: str, players: int, envs: int, seed: int) -> Any:
    if kind == "vector":
        return VectorEnv(name, num_envs=envs, num_players=players, seed=seed)
    if kind == "pyspiel":  # simultaneous choices one seat at a time, as in VectorEnv
        game = ros.load_game(name, players=players)
        if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
            game = pyspiel.convert_to_turn_based(game)
        return SpielVector(game, envs, seed)
    return SpielVector(pyspiel.load_game(name), envs, seed)


def run(kind: str, name: str, players: int, envs: int, seconds: float, seed: int = 0) -> tuple[int, float, float]:
    """Steps, elapsed wall seconds and CPU seconds of the loop for about ``seconds``."""
    env = _make(kind, name, players, envs, seed)
    env.reset()
    rng = np.random.default_rng(seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        env.step(env.sample(rng))
        steps += env.num_envs
    return steps, time.perf_counter() - start, time.process_time() - cpu


def _worker(args: tuple[str, str, int, int, float, int]) -> tuple[int, float, float]:
    return run(*args)


def measure(
    kind: str, name: str, players: int, envs: int, seconds: float, processes: int
) -> tuple[float, float, float]:
    """Steps per second in one process (per wall and per CPU second), and in ``processes`` processes at once."""
    steps, elapsed, cpu = run(kind, name, players, envs, seconds)
    context = multiprocessing.get_context("fork")
    jobs = [(kind, name, players, envs, seconds, seed) for seed in range(processes)]
    with context.Pool(processes) as pool:
        results = pool.map(_worker, jobs)  # concurrent: total steps over the longest run
    total = sum(r[0] for r in results)
    return steps / elapsed, steps / cpu, total / max(r[1] for r in results)


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--envs", type=int, default=32, help="games stepped together")
    parser.add_argument("--processes", type=int, default=2, help="processes for the parallel figure")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--game", action="append", help="our game id (repeatable; default: every served game)")
    parser.add_argument("--no-pyspiel", action="store_true", help="skip our games through the pyspiel loop")
    args = parser.parse_args(argv)
    print(f"machine: {machine()}")
    print(
        f"steps/s with observations and masks: {args.envs} games per loop, {args.seconds:g} s each, "
        f"1 process (per wall and per CPU second) and {args.processes} processes; load average {_load()}"
    )
    print(f"{'loop':<42} {'1 process':>12} {'per CPU s':>12} {f'{args.processes} processes':>14}")
    rows = []
    for game_id in args.game or encodable_games():
        rows.append((f"{game_id} vector {args.players}p", "vector", game_id))
        if not args.no_pyspiel:
            rows.append((f"{game_id} pyspiel {args.players}p", "pyspiel", game_id))
    rows += [(f"{name} (OpenSpiel)", "openspiel", name) for name in REFERENCES]
    figures = {}
    for label, kind, name in rows:
        single, per_cpu, parallel = measure(kind, name, args.players, args.envs, args.seconds, args.processes)
        figures[label] = single
        print(f"{label:<42} {single:>12,.0f} {per_cpu:>12,.0f} {parallel:>14,.0f}", flush=True)
    reference = figures[f"{REFERENCES[0]} (OpenSpiel)"]
    print(f"1 process, as a ratio to {REFERENCES[0]} in this run (a loaded machine slows all alike):")
    for label, single in figures.items():
        print(f"{label:<42} {single / reference:>12.2f}")
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()
