"""Agent think time: milliseconds per decision for each agent, per game (2 players unless --players).

    python benchmarks/agents.py                                   # every game, every agent, 40 decisions
    python benchmarks/agents.py --game robots-on-the-line --agents heuristic,ismcts:hard --decisions 100
    python benchmarks/agents.py --players 4 --agents ismcts:hard --budget time   # as the server's bots think

Search levels think by ``--budget``: ``iterations`` (the default: each level's iteration count, what its
CPU seconds buy on the reference machine) or ``time`` (each level's CPU seconds within its wall-clock
cap, as at a live table). For think time under load, see benchmarks/think_load.py.

The measured agent holds seat 0 of seeded games against the heuristic; only its decisions with more
than one legal action are timed. Figures are printed with the machine's details; nothing here asserts
a speed.
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine import machine

from robotable import games
from robotable.ai import heuristics, make_agent

AGENTS = ("random", "heuristic", "ismcts:easy", "ismcts:medium", "ismcts:hard")


def think_times(
    game_id: str, spec: str, decisions: int, seed: int, players: int = 2, budget: str = "iterations"
) -> list[float]:
    """Seconds per timed decision of ``spec`` at seat 0 (the heuristic, or random, elsewhere)."""
    game = games.load(game_id)
    other = "heuristic" if heuristics.for_game(game_id) is not None else "random"
    times: list[float] = []
    game_no = 0
    while len(times) < decisions:
        state = game.start(players, seed=seed + game_no)
        agents = [make_agent(spec, seed=seed + game_no, budget=budget)]
        agents += [make_agent(other, seed=seed + game_no + s) for s in range(1, players)]
        while not state.is_over() and len(times) < decisions:
            seat = state.to_act()[0]
            several = len(state.legal_actions(seat)) > 1
            tick = time.perf_counter()
            action = agents[seat].act(state, seat)
            if seat == 0 and several:
                times.append(time.perf_counter() - tick)
            state.apply(seat, action)
        game_no += 1
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a game id (repeatable; default: every game)")
    parser.add_argument("--agents", default=",".join(AGENTS), help="comma-separated agent specs")
    parser.add_argument("--decisions", type=int, default=40, help="timed decisions per agent and game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--budget", choices=("iterations", "time"), default="iterations", help="how search thinks")
    args = parser.parse_args()
    print(f"machine: {machine()}; {args.players} players; search budget: {args.budget}")
    print(f"{'game':<20} {'agent':<14} {'decisions':>9} {'mean ms':>9} {'median ms':>10} {'p95 ms':>9} {'max ms':>9}")
    for game_id in args.game or games.available():
        for spec in args.agents.split(","):
            times = sorted(
                t * 1000 for t in think_times(game_id, spec, args.decisions, args.seed, args.players, args.budget)
            )
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(
                f"{game_id:<20} {spec:<14} {len(times):>9} {statistics.fmean(times):>9.1f} "
                f"{statistics.median(times):>10.1f} {p95:>9.1f} {times[-1]:>9.1f}"
            )


if __name__ == "__main__":
    main()
