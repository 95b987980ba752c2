"""Robotable next to OpenSpiel's pure-Python games, in one run on one machine.

    python benchmarks/compare_openspiel.py                        # about a minute
    python benchmarks/compare_openspiel.py --seconds 10 --search-seconds 30 --players 3

1. Random playouts, in steps (applied actions) per second: our games through their own contract
   ("native") and through the OpenSpiel adapter ("pyspiel"), and OpenSpiel's python_kuhn_poker,
   python_liars_poker and python_tic_tac_toe through pyspiel. Ratios: each of ours / each of theirs.
2. Search, in simulations per second on our games: OpenSpiel's Python ``MCTSBot`` (random rollouts; on
   ``convert_to_turn_based`` for TF22's simultaneous choices) against our ``ISMCTSAgent`` (random
   rollouts too, one determinization per simulation). Both roll out to the end of the game unless
   ``--rollout-depth`` caps both (a capped rollout scores 0 for everyone in both). MCTSBot searches the
   true state (it is a perfect-information search); ISMCTS samples what the seat does not know.

Needs the ``research`` extra. Figures are printed with the machine's details; nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python import games as _openspiel_python_games  # noqa: F401  (registers python_* games)
from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from robotable import games
from robotable.adapters import openspiel as ros
from robotable.adapters._common import encodable_games
from robotable.ai import ISMCTSAgent
from robotable.ai.ismcts import random_policy
from robotable.core import Rng, State

OPENSPIEL_GAMES = ("python_kuhn_poker", "python_liars_poker", "python_tic_tac_toe")


def machine() -> str:
    """CPU model, core count, OS, Python and OpenSpiel versions."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    from importlib.metadata import version

    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}, open-spiel {version('open-spiel')}"
    )


def timed(seconds: float, one: Callable[[], int]) -> float:
    """Call ``one`` (returns a count) until ``seconds`` have passed; count per second."""
    count, start = 0, time.perf_counter()
    while True:
        count += one()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed


def native_playout(game_id: str, players: int, rng: Rng) -> int:
    """One random game through the contract; its number of actions."""
    state = games.load(game_id).start(players, seed=rng.randrange(1 << 30))
    steps = 0
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply_legal(seat, legal[rng.randrange(len(legal))])
        steps += 1
    return steps


def spiel_playout(game: pyspiel.Game, rng: random.Random) -> int:
    """One random game through the pyspiel API (chance outcomes sampled); its number of decision steps
    (a simultaneous node counts as one step per acting player, like an applied action)."""
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.is_simultaneous_node():
            legal = [state.legal_actions(p) for p in range(game.num_players())]
            state.apply_actions([rng.choice(a) if a else 0 for a in legal])
            steps += sum(1 for a in legal if a)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps


def first_decision(game: pyspiel.Game, seed: int) -> pyspiel.State:
    """The state after the opening chance nodes (the seed's bytes, then the deal's draws, each drawn by
    a generator seeded with ``seed``)."""
    state = game.new_initial_state()
    for byte in seed.to_bytes(ros.SEED_BYTES, "big"):  # games here are loaded with the default seed bytes
        state.apply_action(byte)
    rng = random.Random(seed)
    while state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, weights)[0])
    return state


def search_rate(search: Callable[[int], None], seconds: float) -> float:
    """Simulations per second of ``search(n)`` (n simulations from the same position): two simulations
    first (MCTSBot needs two to have a child to choose), then batches of about a fifth of the budget."""
    start = time.perf_counter()
    search(2)
    done = 2
    while (elapsed := time.perf_counter() - start) < seconds:
        per_sim = elapsed / done
        batch = max(2, min(int(seconds / 5 / per_sim), 1000))
        search(batch)
        done += batch
    return done / (time.perf_counter() - start)


def mcts_rate(game: pyspiel.Game, seconds: float, depth: int | None) -> float:
    """MCTSBot simulations per second from the first decision."""
    search = pyspiel.convert_to_turn_based(game) if game.get_type().dynamics.name == "SIMULTANEOUS" else game
    state = first_decision(search, 3)  # the turn-based conversion keeps the chance nodes

    def run(n: int) -> None:
        evaluator = RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1), max_length=depth)
        MCTSBot(search, 1.4, n, evaluator, random_state=np.random.RandomState(1)).step(state)

    return search_rate(run, seconds)


def ismcts_rate(game_id: str, players: int, seconds: float, depth: int | None) -> float:
    """ISMCTSAgent simulations (determinized iterations) per second from the first decision."""
    evaluator = (lambda s: [0.0] * players) if depth is not None else None
    state: State = games.load(game_id).start(players, seed=3)
    seat = state.to_act()[0]

    def run(n: int) -> None:
        agent = ISMCTSAgent(seed=1, iterations=n, rollout=random_policy, evaluator=evaluator, rollout_depth=depth)
        agent.act(state, seat)

    return search_rate(run, seconds)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per random-playout measurement (default 3)")
    parser.add_argument("--search-seconds", type=float, default=4.0, help="per search measurement (default 4)")
    parser.add_argument("--players", type=int, default=None, help="players in our games (default: the minimum)")
    parser.add_argument("--game", action="append", help="our game id (repeatable; default: every encodable game)")
    parser.add_argument("--rollout-depth", type=int, default=None, help="cap both searches' rollouts")
    parser.add_argument("--skip-search", action="store_true", help="random playouts only")
    args = parser.parse_args(argv)
    ours = args.game or encodable_games()
    for game_id in ours:
        if game_id not in encodable_games():
            parser.error(f"{game_id!r} is not a game with an integer action encoding ({', '.join(encodable_games())})")

    print(f"machine: {machine()}")
    print(f"\n1. random playouts, steps per second ({args.seconds:g} s each)")
    rates: dict[str, float] = {}
    for game_id in ours:
        players = args.players or games.load(game_id).min_players
        rng = Rng(1)
        rates[f"{game_id} native {players}p"] = timed(
            args.seconds, lambda g=game_id, n=players, r=rng: native_playout(g, n, r)
        )
        game = ros.load_game(game_id, players=players)
        prng = random.Random(1)
        rates[f"{game_id} pyspiel {players}p"] = timed(args.seconds, lambda g=game, r=prng: spiel_playout(g, r))
    theirs: dict[str, float] = {}
    for name in OPENSPIEL_GAMES:
        game = pyspiel.load_game(name)
        prng = random.Random(1)
        theirs[name] = timed(args.seconds, lambda g=game, r=prng: spiel_playout(g, r))
    for name, rate in {**rates, **theirs}.items():
        print(f"  {name:<34} {rate:>12,.0f} steps/s")
    print("\n  ratios (ours / theirs):")
    print("  " + " " * 34 + "".join(f"{n:>20}" for n in theirs))
    for name, rate in rates.items():
        print(f"  {name:<34}" + "".join(f"{rate / t:>20.3f}" for t in theirs.values()))

    if args.skip_search:
        return
    depth = "to the end" if args.rollout_depth is None else f"capped at {args.rollout_depth}"
    print(f"\n2. search, simulations per second ({args.search_seconds:g} s each, random rollouts {depth})")
    print(f"  {'game':<24}{'MCTSBot (OpenSpiel)':>22}{'ISMCTS (ours)':>18}{'ours / theirs':>16}")
    for game_id in ours:
        players = args.players or games.load(game_id).min_players
        game = ros.load_game(game_id, players=players)
        theirs_rate = mcts_rate(game, args.search_seconds, args.rollout_depth)
        ours_rate = ismcts_rate(game_id, players, args.search_seconds, args.rollout_depth)
        label = f"{game_id} {players}p"
        print(f"  {label:<24}{theirs_rate:>22,.1f}{ours_rate:>18,.1f}{ours_rate / theirs_rate:>16.2f}")


if __name__ == "__main__":
    main()
