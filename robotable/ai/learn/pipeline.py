"""The pipeline end to end and its command line (``python -m robotable.ai.learn``).

>>> doc = run("tf22-reload", players=[2], games=[4], seed=1, hidden=2, steps=20)
>>> doc["format"], doc["game"], sorted(doc["models"]), doc["training"]["runs"][0]["games"]
('robotable-value/1', 'tf22-reload', ['2'], 4)
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from robotable.core import BadInput

from ..learned import FORMAT, feature_module, parse_weights
from . import selfplay, train

#: Defaults of a run (the shipped weights' command is in their ``training.command``).
EPSILON = 0.1
HIDDEN = 0
STEPS = 800
HOLD_OUT = 0.1


def _say_progress(say: Callable[[str], None], n: int, count: int, done: int) -> None:
    say(f"{n} players: {done}/{count} games")


def run(
    game_id: str,
    players: Sequence[int] = (2,),
    games: Sequence[int] = (1000,),
    seed: int = 0,
    epsilon: float = EPSILON,
    hidden: int = HIDDEN,
    steps: int = STEPS,
    workers: int = 1,
    ray_address: str | None = None,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Self-play and train one model per table size; the weights document (JSON-ready).

    The document depends only on the arguments but ``workers``/``ray_address``/``log`` (and on the
    code: the game, its heuristic, the features).
    """
    say = log or (lambda _msg: None)
    module = feature_module(game_id)
    if len(players) != len(games):
        raise BadInput(f"give one game count per table size: players {list(players)}, games {list(games)}")
    for n, count in zip(players, games):
        if n < 2 or count < 2:
            raise BadInput(f"each run needs 2+ players and 2+ games (got {n} players, {count} games)")
    models: dict[str, Any] = {}
    runs = []
    for n, count in zip(players, games):
        started = time.perf_counter()
        data = selfplay.generate(
            game_id,
            n,
            count,
            seed,
            epsilon,
            workers=workers,
            ray_address=ray_address,
            progress=functools.partial(_say_progress, say, n, count),
        )
        played = time.perf_counter() - started
        held = max(1, round(count * HOLD_OUT))
        fit_data = train.pairs(data[:-held], len(module.NAMES))
        test_data = train.pairs(data[-held:], len(module.NAMES))
        say(f"{n} players: {len(fit_data.y)} training pairs, {len(test_data.y)} held out; fitting")
        nonneg = [i for i, name in enumerate(module.NAMES) if name in getattr(module, "NONNEGATIVE", ())]
        params = train.fit(
            fit_data,
            hidden=hidden,
            steps=steps,
            seed=seed,
            nonneg=nonneg,
            progress=lambda k, loss: say(f"  step {k}: loss {loss:.4f}"),
        )
        weights = train.rounded(params)
        models[str(n)] = weights
        run_info: dict[str, Any] = {
            "players": n,
            "games": count,
            "positions": sum(len(g["positions"]) for g in data),
            "train_pairs": len(fit_data.y),
            "held_out_pairs": len(test_data.y),
            "held_out_log_loss": round(train.log_loss(train.predict(params, test_data), test_data.y), 4),
            "train_log_loss": round(train.log_loss(train.predict(params, fit_data), fit_data.y), 4),
        }
        reference = getattr(module, "handwritten_pair", None)
        if reference is not None:
            import numpy as np

            p = np.array([reference(list(a), list(b), n) for a, b in zip(test_data.a, test_data.b)])
            run_info["held_out_log_loss_handwritten"] = round(train.log_loss(p, test_data.y), 4)
        say(f"{n} players: {json.dumps(run_info)} (self-play {played:.0f} s)")
        runs.append(run_info)
    command = (
        f"python -m robotable.ai.learn {game_id} --players {','.join(map(str, players))} "
        f"--games {','.join(map(str, games))} --seed {seed} --epsilon {epsilon} --hidden {hidden} --steps {steps}"
    )
    doc = {
        "format": FORMAT,
        "game": game_id,
        "features": list(module.NAMES),
        "models": models,
        "training": {
            "command": command,
            "seed": seed,
            "epsilon": epsilon,
            "hidden": hidden,
            "steps": steps,
            "runs": runs,
        },
    }
    parse_weights(doc, game_id, "the trained weights")  # what play time will read back
    return doc


def write(doc: dict[str, Any], path: str | Path) -> Path:
    """Write a weights document as stable JSON (sorted keys, one model row per line)."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return out


def _ints(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m robotable.ai.learn",
        description="Self-play a game, train its learned value model (numpy) and write the weights as JSON.",
    )
    parser.add_argument("game", help="game id, e.g. tf22-reload")
    parser.add_argument("--players", type=_ints, default=[2], help="table sizes, e.g. 2,4 (one model each)")
    parser.add_argument("--games", type=_ints, default=[1000], help="self-play games per table size, e.g. 3000,300")
    parser.add_argument("--seed", type=int, default=0, help="seeds the games and the model's start")
    parser.add_argument("--epsilon", type=float, default=EPSILON, help="chance of a random move in self-play")
    parser.add_argument("--hidden", type=int, default=HIDDEN, help="hidden tanh units (default 0: logistic regression)")
    parser.add_argument("--steps", type=int, default=STEPS, help="full-batch Adam steps")
    parser.add_argument("--workers", type=int, default=1, help="local self-play processes")
    parser.add_argument(
        "--ray", dest="ray_address", default=None, help="play on a Ray cluster (auto, local, ray://...)"
    )
    parser.add_argument(
        "--out", required=True, help="where to write the weights (the packaged file: robotable/ai/data/)"
    )
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("training needs numpy: pip install 'robotable[ai]'", file=sys.stderr)
        return 2
    log = None if args.quiet else (lambda msg: print(msg, file=sys.stderr, flush=True))
    try:
        doc = run(
            args.game,
            args.players,
            args.games,
            args.seed,
            args.epsilon,
            args.hidden,
            args.steps,
            args.workers,
            args.ray_address,
            log,
        )
    except BadInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(write(doc, args.out))
    return 0
