"""What a level's think time buys: iterations per decision when it plays by time, beside its ``iterations``.

    python benchmarks/level_iterations.py --game robots-on-the-line --level hard --players 2 --decisions 60

A level plays seat 0 against the heuristic, by time (its CPU ``seconds``, no wall cap), for
``--decisions`` decisions with more than one legal action; printed per level: the median iterations
those seconds bought and the CPU per decision (median, p95), beside the level's own ``iterations`` and
what a decision costs at that count (``--budget iterations`` runs, the arena's default). A level's
``iterations`` should be about what its seconds buy, so that the ladder measured by iterations is the
ladder people meet.
"""

from __future__ import annotations

import argparse
import statistics

from robotable import games
from robotable.ai import make_agent
from robotable.ai.ismcts import LEVELS, level_params


def run(
    game_id: str, level: str, players: int, budget: str, decisions: int, seed: int
) -> tuple[list[int], list[float]]:
    """Iterations and CPU seconds of the level's decisions in games from ``seed`` on."""
    game = games.load(game_id)
    iterations: list[int] = []
    cpu: list[float] = []
    while len(cpu) < decisions:
        state = game.start(players, seed=seed)
        agents = [make_agent(f"ismcts:{level}", seed, budget, float("inf"))]
        agents += [make_agent("heuristic", seed + seat) for seat in range(1, players)]
        while not state.is_over() and len(cpu) < decisions:
            seat = state.to_act()[0]
            action = agents[seat].act(state, seat)
            search = getattr(agents[seat], "last_search", None)
            if seat == 0 and search and search["stopped_by"] != "single":
                iterations.append(search["iterations"])
                cpu.append(search["cpu"])
            state.apply(seat, action)
        seed += 1
    return iterations, cpu


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--level", action="append", choices=list(LEVELS), help="repeatable; default every level")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"{args.game}, {args.players} players, {args.decisions} decisions a row, seed {args.seed}")
    header = ("level", "seconds", "bought", "cpu p50", "cpu p95", "iterations", "cpu p50", "cpu p95")
    print(f"{header[0]:8} " + " ".join(f"{h:>10}" for h in header[1:]))
    for level in args.level or list(LEVELS):
        params = level_params(args.game, level)
        bought, timed = run(args.game, level, args.players, "time", args.decisions, args.seed)
        _, counted = run(args.game, level, args.players, "iterations", args.decisions, args.seed)
        p95 = lambda xs: sorted(xs)[int(0.95 * (len(xs) - 1))]  # noqa: E731
        row = (params["seconds"], statistics.median(bought), statistics.median(timed), p95(timed))
        row += (params["iterations"], statistics.median(counted), p95(counted))
        print(f"{level:8} " + " ".join(f"{x:10.4f}" if x % 1 else f"{x:10.0f}" for x in row), flush=True)


if __name__ == "__main__":
    main()
