"""Engine speed: random full games per second, actions per second through ``apply`` (every action
checked) and clone time, per game and player count, beside OpenSpiel's pure-Python ``python_kuhn_poker``
and ``python_tic_tac_toe`` measured in the same run (when open-spiel is installed: the ``research`` extra).

    python benchmarks/engine.py                      # every game, every player count, ~2 s each
    python benchmarks/engine.py --game tf22-reload --players 3 --seconds 10

Times are this process's CPU time (``time.process_time``), so other programs on a busy machine change
the figures little, and each row's game and the two OpenSpiel games run in alternating slices
(``--slices``), so what remains of a change in load affects both sides of a ratio alike. OpenSpiel's steps are decision
steps (chance outcomes are applied but not counted); ``x kuhn`` and ``x ttt`` are our actions per second
divided by theirs. The last line is the clone time of a 6-player Twin Tin Bots state 40 actions into a
game. Figures are printed with the machine's details; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable
from pathlib import Path

from robotable import games
from robotable.core import Rng, State

OPENSPIEL = ("python_kuhn_poker", "python_tic_tac_toe")


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


class Meter:
    """Plays whole random games in time slices and counts games, actions and time."""

    def __init__(self, play_one: Callable[[], int]) -> None:
        self.play_one = play_one
        self.games = self.actions = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        start = time.process_time()
        while True:
            self.actions += self.play_one()
            self.games += 1
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                self.seconds += elapsed
                return

    @property
    def rate(self) -> float:
        return self.actions / self.seconds


def robotable_meter(game_id: str, players: int, seed: int, samples: list[State]) -> Meter:
    """Random games through ``apply`` (each action checked); keeps mid-game states for clone timing."""
    game = games.load(game_id)
    rng = Rng(seed)
    seeds = iter(range(seed, seed + 10**9))

    def play_one() -> int:
        state = game.start(players, seed=next(seeds))
        step = 0
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
            step += 1
            if step == 40 and len(samples) < 50:
                samples.append(state.clone())
        return step

    return Meter(play_one)


def openspiel_meter(name: str, seed: int) -> Meter | None:
    """Random play of an OpenSpiel game through ``apply_action``, counting decision steps (None when
    open-spiel is not installed)."""
    try:
        import pyspiel
        from open_spiel.python import games as _python_games  # noqa: F401  (registers the python_* games)
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    rng = random.Random(seed)

    def play_one() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return Meter(play_one)


def clone_time(samples: list[State], repeat: int = 2000) -> float:
    """Mean CPU seconds per clone of mid-game states."""
    if not samples:
        return float("nan")
    start = time.process_time()
    for i in range(repeat):
        samples[i % len(samples)].clone()
    return (time.process_time() - start) / repeat


def play_random_steps(state: State, rng: Rng, steps: int) -> None:
    """Up to ``steps`` random actions (fewer if the game ends)."""
    for _ in range(steps):
        if state.is_over():
            return
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game id (repeatable; default: every game)")
    parser.add_argument("--players", type=int, action="append", help="player count (default: every count)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game and player count")
    parser.add_argument("--slices", type=int, default=8, help="alternating time slices per row")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    references = [openspiel_meter(name, args.seed) for name in OPENSPIEL]
    if None in references:
        print("open-spiel is not installed: no reference figures (pip install -e '.[research]')")
    header = f"{'game':<20} {'players':>7} {'games/s':>9} {'actions/s':>10} {'actions/game':>13} {'clone µs':>9}"
    print(f"{header} {'x kuhn':>7} {'x ttt':>7}")
    for game_id in args.game or games.available():
        game = games.load(game_id)
        counts = range(game.min_players, game.max_players + 1)
        for players in [n for n in args.players or counts if n in counts]:
            samples: list[State] = []
            ours = robotable_meter(game_id, players, args.seed, samples)
            theirs = [m for m in references if m is not None]
            for _ in range(max(1, args.slices)):
                ours.run(args.seconds / args.slices)
                for meter in theirs:
                    meter.run(args.seconds / args.slices / 2)
            ratios = "".join(f" {ours.rate / m.rate:>7.2f}" for m in theirs)
            print(
                f"{game_id:<20} {players:>7} {ours.games / ours.seconds:>9.1f} {ours.rate:>10.0f}"
                f" {ours.actions / ours.games:>13.1f} {clone_time(samples) * 1e6:>9.2f}{ratios}",
                flush=True,
            )
    if None not in references:
        kuhn, ttt = references
        rates = f"python_kuhn_poker {kuhn.rate:.0f} steps/s, python_tic_tac_toe {ttt.rate:.0f} steps/s"  # type: ignore[union-attr]
        print(f"OpenSpiel over the whole run: {rates}")
    if "twin-tin-bots" in games.available() and (not args.game or "twin-tin-bots" in args.game):
        state = games.load("twin-tin-bots").start(6, seed=args.seed)
        play_random_steps(state, Rng(args.seed), 40)
        print(f"clone of a 6-player twin-tin-bots state: {clone_time([state], 20000) * 1e6:.2f} µs")


if __name__ == "__main__":
    main()
