"""Engine speed: random full games per second, applied actions per second and clone time, per game.

    python benchmarks/engine.py                      # every game, every player count, ~2 s each
    python benchmarks/engine.py --game tf22-reload --players 3 --seconds 10

Figures are printed with the machine's details; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

from robotable import games
from robotable.core import Rng, State


def machine() -> str:
    """CPU model, core count, OS and Python version."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    system = f"{platform.system()} {platform.release()}"
    return f"{cpu}, {os.cpu_count()} cores, {system}, Python {platform.python_version()}"


def random_games(game_id: str, players: int, seconds: float, seed: int) -> tuple[int, int, float, list[State]]:
    """Play random games (checked legal actions, unchecked apply) for ``seconds``."""
    game = games.load(game_id)
    rng = Rng(seed)
    n_games = n_actions = 0
    samples: list[State] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or n_games == 0:
        state = game.start(players, seed=seed + n_games)
        step = 0
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            state.apply_legal(seat, legal[rng.randrange(len(legal))])
            step += 1
            if step == 40 and len(samples) < 50:
                samples.append(state.clone())
        n_actions += step
        n_games += 1
    return n_games, n_actions, time.perf_counter() - start, samples


def clone_time(samples: list[State], repeat: int = 2000) -> float:
    """Mean seconds per clone of mid-game states."""
    if not samples:
        return float("nan")
    start = time.perf_counter()
    for i in range(repeat):
        samples[i % len(samples)].clone()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game id (repeatable; default: every game)")
    parser.add_argument("--players", type=int, action="append", help="player count (default: every count)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game and player count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"{'game':<20} {'players':>7} {'games/s':>9} {'actions/s':>10} {'actions/game':>13} {'clone µs':>9}")
    for game_id in args.game or games.available():
        game = games.load(game_id)
        for players in args.players or range(game.min_players, game.max_players + 1):
            n_games, n_actions, elapsed, samples = random_games(game_id, players, args.seconds, args.seed)
            print(
                f"{game_id:<20} {players:>7} {n_games / elapsed:>9.1f} {n_actions / elapsed:>10.0f}"
                f" {n_actions / n_games:>13.1f} {clone_time(samples) * 1e6:>9.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
