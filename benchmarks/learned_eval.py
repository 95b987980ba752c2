"""The learned value model against the hand-written evaluator, as ISMCTS's evaluator at equal think time
(issue 29).

    nice -n 10 .venv/bin/python benchmarks/learned_eval.py --games 60 --seed 202629 --level medium --seconds 0.01

Two ISMCTS agents with the same level parameters (rollout depth, opponent model, guide) and the same
think budget per decision (``--seconds`` of the deciding thread's CPU time, ``time.thread_time()``;
default: the level's ``seconds``, if it has one) play 2-player games of
``--game``; one evaluates rollout cut-offs with the learned model (``robotable.ai.learned``), the other
with the game's hand-written ``evaluate``. Each deal is played twice with the seats swapped. Printed:
each game, then the learned agent's score (a win 1, a tie 1/2) with its Wilson 95% interval, the mean
final scores, and the iterations each agent bought per decision (its evaluator's cost shows there).

Where the search measures its budget with ``time.perf_counter`` (before its ``cpu_clock``), this script
points the search module's clock at ``time.thread_time`` (a shim, only here) so that a loaded machine
costs both agents the same.
"""

from __future__ import annotations

import argparse
import inspect
import json
import statistics
import sys
import time
import types
from pathlib import Path

from robotable import games
from robotable.ai import heuristics, ismcts
from robotable.ai.ismcts import LEVELS, ISMCTSAgent
from robotable.ai.learned import value_evaluator
from robotable.arena.stats import wilson
from robotable.core import Rng


def cpu_clock() -> None:
    """Make the search's deadline read the thread's CPU time (see the module's note), unless the search
    counts CPU time itself (its ``cpu_clock``)."""
    if "cpu_clock" in inspect.signature(ISMCTSAgent).parameters:
        return
    shim = types.SimpleNamespace(**{name: getattr(time, name) for name in dir(time) if not name.startswith("_")})
    shim.perf_counter = time.thread_time
    ismcts.time = shim  # type: ignore[attr-defined]


class Counting:
    """An evaluator wrapper that counts its calls (iterations cut off by the evaluator)."""

    def __init__(self, evaluate) -> None:  # type: ignore[no-untyped-def]
        self.evaluate = evaluate
        self.calls = 0

    def __call__(self, state):  # type: ignore[no-untyped-def]
        self.calls += 1
        return self.evaluate(state)


def level_params(game_id: str, level: str) -> dict[str, float]:
    """The level's parameters for the game (the search module's own reading where it has one)."""
    if hasattr(ismcts, "level_params"):
        return ismcts.level_params(game_id, level)
    module = heuristics.for_game(game_id)
    return {**LEVELS[level], **getattr(module, "LEVELS", {}).get(level, {})}


def make(params: dict[str, float], seconds: float, seed: int, evaluator) -> ISMCTSAgent:  # type: ignore[no-untyped-def]
    return ISMCTSAgent(
        seed=seed,
        iterations=None,
        seconds=seconds,
        evaluator=evaluator,
        rollout_depth=int(params["rollout_depth"]),
        model_opponents=params["model_opponents"],
        root_width=int(params.get("root_width", 0)),
        guide_bias=params.get("guide_bias", 0.0),
        model_rollouts=params.get("model_rollouts", 0.0),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tf22-reload")
    parser.add_argument("--games", type=int, default=40, help="games (an even number: each deal twice)")
    parser.add_argument("--seed", type=int, default=202629)
    parser.add_argument("--level", default="medium", help="the level whose parameters both agents use")
    parser.add_argument("--seconds", type=float, default=None, help="CPU seconds per decision (default: the level's)")
    parser.add_argument("--weights", default=None, help="a weights file (default: the packaged one)")
    parser.add_argument("--out", default=None, help="write the figures as JSON here")
    args = parser.parse_args()
    cpu_clock()
    params = level_params(args.game, args.level)
    if args.seconds is None and "seconds" not in params:
        parser.error(f"level {args.level} of {args.game} has no seconds: give --seconds")
    seconds = args.seconds if args.seconds is not None else float(params["seconds"])
    learned = value_evaluator(args.game, args.weights)
    handwritten = heuristics.for_game(args.game).evaluate  # type: ignore[union-attr]
    game = games.load(args.game)
    deals = Rng(args.seed)
    print(f"{args.game}: learned vs hand-written evaluator, level {args.level} {params}, {seconds} CPU s per decision")
    points, rows = 0.0, []
    calls = {"learned": 0, "handwritten": 0}
    decisions = {"learned": 0, "handwritten": 0}
    scores = {"learned": [], "handwritten": []}
    started = time.perf_counter()
    deal_seed = 0
    for index in range(args.games):
        if index % 2 == 0:
            deal_seed = deals.next64() & 0xFFFFFFFF
        learned_seat = index % 2
        evaluators = {"learned": Counting(learned), "handwritten": Counting(handwritten)}
        names = ["learned", "handwritten"] if learned_seat == 0 else ["handwritten", "learned"]
        agents = [make(params, seconds, deal_seed * 2 + seat, evaluators[names[seat]]) for seat in range(2)]
        state = game.start(2, seed=deal_seed)
        while not state.is_over():
            seat = state.to_act()[0]
            if len(state.legal_actions(seat)) > 1:
                decisions[names[seat]] += 1
            state.apply(seat, agents[seat].act(state, seat))
        result = state.result()
        ranks = result.ranks
        mine, theirs = ranks[learned_seat], ranks[1 - learned_seat]
        point = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
        points += point
        for name in names:
            calls[name] += evaluators[name].calls
        scores["learned"].append(result.scores[learned_seat])
        scores["handwritten"].append(result.scores[1 - learned_seat])
        rows.append({"deal": deal_seed, "learned_seat": learned_seat, "scores": list(result.scores), "point": point})
        low, high = wilson(points, index + 1)
        print(
            f"game {index + 1:3d} deal {deal_seed:10d} learned seat {learned_seat}: scores {list(result.scores)} "
            f"-> {point:.1f}  (so far {points:.1f}/{index + 1}, {points / (index + 1):.1%}, CI {low:.1%}-{high:.1%})",
            flush=True,
        )
    n = args.games
    low, high = wilson(points, n)
    per_decision = {k: calls[k] / max(1, decisions[k]) for k in calls}
    summary = {
        "game": args.game,
        "level": args.level,
        "params": params,
        "seconds": seconds,
        "games": n,
        "seed": args.seed,
        "learned_points": points,
        "learned_rate": points / n,
        "ci95": [low, high],
        "mean_score": {k: statistics.fmean(v) for k, v in scores.items()},
        "evaluations_per_decision": per_decision,
        "wall_seconds": round(time.perf_counter() - started, 1),
        "command": " ".join(sys.argv),
        "games_played": rows,
    }
    print(
        f"learned: {points:.1f} of {n} ({points / n:.1%}, Wilson 95% CI {low:.1%}-{high:.1%}); mean scores "
        f"learned {summary['mean_score']['learned']:.1f}, hand-written {summary['mean_score']['handwritten']:.1f}; "
        f"evaluations per decision learned {per_decision['learned']:.0f}, "
        f"hand-written {per_decision['handwritten']:.0f}"
    )
    if args.out:
        Path(args.out).write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
