"""How long a post-game review takes (issue 30; docs/review.md), beside the bots' own thinking in the game.

For each game and table size: play one seeded game between heuristic seats, then review every seat with
the default budget (the hard level's iterations, ``robotable.ai.review.Budget``). The reference, measured in
the same run, is what the hard level itself spends on those decisions (one search per decision at its
iterations): the review's ratio to it is what the machine's speed does not change. With ``--moves N`` only
the first N moves are reviewed (``of`` is the game's length): CPU per decision times the decisions of the
whole game estimates the whole review.

    nice -n 10 .venv/bin/python benchmarks/review.py --game tf22-reload:2 --game twin-tin-bots:4

``--spread K`` measures instead how much the values move with the review's seed: the first ``--moves``
moves reviewed with K seeds, and per decision the standard deviation of its values before and after.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

from robotable.ai import ISMCTSAgent, make_agent
from robotable.ai.review import Budget, positions, review_record
from robotable.core import Match, Record

DEFAULT = ("tf22-reload:2", "twin-tin-bots:4", "robots-on-the-line:2")


def play(game_id: str, players: int, seed: int, moves: int | None, seats: str = "heuristic") -> Record:
    """A seeded game between ``seats`` (agent specs, comma-separated, the last repeated for the other
    seats; its first ``moves`` moves, if given)."""
    match = Match(game_id, players, seed=seed)
    specs = seats.split(",")
    agents = [make_agent(specs[min(s, len(specs) - 1)], seed=seed + s) for s in range(players)]
    while not match.state.is_over() and (moves is None or len(match.record.moves) < moves):
        seat = match.state.to_act()[0]
        match.apply(seat, agents[seat].act(match.state, seat))
    return match.record


def hard_thinking(record: Record) -> float:
    """CPU seconds the hard level spends on every decision of the record (iterations budget)."""
    spent = 0.0
    for pos in positions(record):
        if pos.seat in pos.state.to_act() and len(pos.state.legal_actions(pos.seat)) > 1:
            agent = ISMCTSAgent.level("hard", seed=pos.index)
            start = time.process_time()
            agent.act(pos.state, pos.seat)
            spent += time.process_time() - start
    return spent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="GAME:PLAYERS (repeatable; default: the issue's targets)")
    parser.add_argument("--seed", type=int, default=2026, help="the games' seed")
    parser.add_argument("--budget", type=int, default=None, help="iterations per decision (default: hard's)")
    parser.add_argument(
        "--moves", type=int, default=None, help="review only the first N moves of each game (its length is shown)"
    )
    parser.add_argument("--seats", default="heuristic", help="agent specs of the seats (the last repeats)")
    parser.add_argument("--spread", type=int, default=0, help="K seeds: the values' spread, not the time")
    args = parser.parse_args(argv)
    if args.spread:
        spread(args)
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine: {platform.machine()} {os.cpu_count()} cpus, python {platform.python_version()}, load {load:.1f}")
    print(
        f"{'game':<20} {'players':>7} {'moves':>5} {'of':>5} {'decisions':>9} {'iters':>5} "
        f"{'review cpu s':>12} {'wall s':>7} {'cpu/decision':>12} {'hard cpu s':>10} {'ratio':>5}  mean loss per seat"
    )
    for spec in args.game or DEFAULT:
        game_id, _, players = spec.partition(":")
        whole = play(game_id, int(players or 2), args.seed, None, args.seats)
        record = Record(whole.game, whole.num_players, whole.seed, whole.options, whole.moves[: args.moves])
        budget = Budget(iterations=args.budget)
        cpu, wall = time.process_time(), time.monotonic()
        review = review_record(record, budget=budget)
        cpu, wall = time.process_time() - cpu, time.monotonic() - wall
        reference = hard_thinking(record)
        decisions = sum(len(s.moments) for s in review.seats)
        print(
            f"{game_id:<20} {record.num_players:>7} {len(record.moves):>5} {len(whole.moves):>5} {decisions:>9} "
            f"{review.iterations:>5} {cpu:>12.1f} {wall:>7.1f} {cpu / max(decisions, 1):>12.2f} {reference:>10.1f} "
            f"{cpu / max(reference, 1e-9):>5.1f}  {' '.join(f'{s.mean_loss():.3f}' for s in review.seats)}"
        )


def spread(args: argparse.Namespace) -> None:
    """Per game: the standard deviation over ``args.spread`` seeds of each decision's values."""
    head = ("game", "players", "decisions", "seeds", "sd before mean/max", "sd after mean/max")
    print(f"{head[0]:<20} {head[1]:>7} {head[2]:>9} {head[3]:>5} {head[4]:>18} {head[5]:>17}")
    for spec in args.game or DEFAULT:
        game_id, _, players = spec.partition(":")
        record = play(game_id, int(players or 2), args.seed, args.moves or 12)
        runs = [review_record(record, budget=Budget(iterations=args.budget, seed=s)) for s in range(args.spread)]
        moments = [[m for seat in run.seats for m in seat.moments] for run in runs]
        sd = {
            key: [statistics.pstdev(getattr(run[i], key) for run in moments) for i in range(len(moments[0]))]
            for key in ("before", "after")
        }
        print(
            f"{game_id:<20} {record.num_players:>7} {len(moments[0]):>9} {args.spread:>5} "
            f"{statistics.mean(sd['before']):>11.3f}/{max(sd['before']):.3f} "
            f"{statistics.mean(sd['after']):>10.3f}/{max(sd['after']):.3f}"
        )


if __name__ == "__main__":
    main()
