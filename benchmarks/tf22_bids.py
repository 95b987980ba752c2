"""TF22: RELOAD! bids: how the old and the new bots bid, side by side in one run (issue 29).

    python benchmarks/tf22_bids.py bids --agents heuristic,ismcts:medium,ismcts:hard --games 6 --seed 900
    python benchmarks/tf22_bids.py arena -- --agents ismcts:hard,ismcts-old:hard --games 20 --seed 7101

``bids`` plays seeded 2-player games of each agent against the heuristic, once with the old heuristics
module and once with the new one (the measured agent and its opponent both from that module), and
prints per agent and module, over the measured agent's battle choices:

- the share of each bid (RCU 1-7, R);
- **6-7**: the share of high bids;
- **value gap**: the mean bid (numbers only) on the battles worth more than the median battle minus the
  mean bid on the others, a battle's worth read as the old heuristic read it (my projected rise if I win
  plus half the best opponent's); near 0 for bids that ignore what is at stake;
- **corr**: the correlation of bid and worth;
- **ref 6-7**: in the same spots, the share of 6 or 7 the *old* heuristic would have bid (one fixed
  reference for every row), and **same**: how often the agent bid what that reference did;
- think time per battle choice (CPU ms, median).

``arena`` runs ``robotable arena`` in this process (so ``--workers 1``) with temporary agent specs for
the old module: ``heuristic-old`` and ``ismcts-old:easy|medium|hard`` (the same search with the old
module's rollout, evaluator, opponent model and guide). They exist only here, never in the product.
Everything after ``--`` goes to ``robotable arena`` (``--game tf22-reload`` is implied).

The old module is ``robotable/ai/heuristics/tf22_reload.py`` as of ``--old-rev`` (default: the commit
before issue 29's battle solver), read with ``git show`` and imported beside the new one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import old_heuristics
from old_heuristics import make, register_old

from robotable import games
from robotable.ai import Decision
from robotable.core import BadInput, Rng
from robotable.games.tf22_reload import PlayCard

GAME = "tf22-reload"
MODULE_PATH = "robotable/ai/heuristics/tf22_reload.py"
#: The commit before issue 29's battle solver.
OLD_REV = "63737d0"
ROOT = Path(__file__).resolve().parent.parent
COLUMNS = ("1", "2", "3", "4", "5", "6", "7", "R")


def load_old(rev: str) -> ModuleType:
    """The TF22 heuristics module as of ``rev``, imported as a sibling of the current one."""
    return old_heuristics.load_old(MODULE_PATH, rev)


@dataclass
class Bids:
    """The measured agent's battle choices: what it bid, what the battle was worth, the reference's bid."""

    bids: list[str] = field(default_factory=list)
    worth: list[float] = field(default_factory=list)
    reference: list[str] = field(default_factory=list)
    think: list[float] = field(default_factory=list)


def _label(action: object) -> str:
    return str(action.value) if isinstance(action, PlayCard) else "R"


def play(spec: str, module: ModuleType | None, old: ModuleType, seed: int, into: Bids) -> None:
    """One 2-player game of ``spec`` against the heuristic of the same module; the bids of ``spec``."""
    state = games.load(GAME).start(2, seed=seed)
    me = seed % 2
    agents = {me: make(spec, module, seed * 10 + me), 1 - me: make("heuristic", module, seed * 10 + 1 - me)}
    while not state.is_over():
        seat = state.to_act()[0]
        decision = Decision.of(state, seat)
        bidding = seat == me and state.phase == 0 and len(decision.legal) > 1  # type: ignore[attr-defined]
        tick = time.process_time()
        action = agents[seat].choose(decision)
        if bidding:
            into.think.append(time.process_time() - tick)
            table = old.Table.from_view(decision.view, seat)
            table.ships = [[st[:] for st in ship] for ship in table.ships]
            into.bids.append(_label(action))
            into.worth.append(old.battle_value(table))
            into.reference.append(_label(old.choose(decision, Rng(seed * 1000 + len(into.bids)))))
        state.apply(seat, action)


def _row(spec: str, label: str, b: Bids) -> str:
    n = len(b.bids)
    shares = " ".join(f"{100 * b.bids.count(c) / n:4.0f}" for c in COLUMNS)
    high = sum(x in ("6", "7") for x in b.bids) / n
    numbers = [(float(x), w) for x, w in zip(b.bids, b.worth) if x != "R"]
    median = statistics.median(w for _, w in numbers)
    above = [x for x, w in numbers if w > median]
    below = [x for x, w in numbers if w <= median]
    gap = statistics.fmean(above) - statistics.fmean(below) if above and below else float("nan")
    corr = statistics.correlation([x for x, _ in numbers], [w for _, w in numbers])
    ref_high = sum(x in ("6", "7") for x in b.reference) / n
    same = sum(x == y for x, y in zip(b.bids, b.reference)) / n
    think = statistics.median(b.think) * 1000
    return (
        f"{spec:<14} {label:<4} {n:>5} {shares}  {100 * high:4.0f} {gap:6.2f} {corr:5.2f}"
        f"  {100 * ref_high:6.0f} {100 * same:5.0f} {think:8.1f}"
    )


def bids(specs: list[str], games_: int, seed: int, old: ModuleType) -> None:
    print(f"2 players, each agent against the heuristic of its module, {games_} games, seeds {seed}..")
    print(f"{seed + games_ - 1} (the agent takes seat seed % 2); shares in % of its battle choices")
    head = " ".join(f"{c:>4}" for c in COLUMNS)
    print(f"{'agent':<14} {'mod':<4} {'bids':>5} {head}   6-7    gap  corr  ref 6-7  same  ms/bid")
    for spec in specs:
        for label, module in (("old", old), ("new", None)):
            started = time.perf_counter()
            got = Bids()
            for i in range(games_):
                play(spec, module, old, seed + i, got)
            print(_row(spec, label, got), flush=True)
            print(f"# {spec} {label}: {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("bids", "arena"))
    parser.add_argument("--agents", default="heuristic,ismcts:medium,ismcts:hard", help="bids: agent specs")
    parser.add_argument("--games", type=int, default=6, help="bids: games per agent and module")
    parser.add_argument("--seed", type=int, default=900, help="bids: the first game's seed")
    parser.add_argument("--old-rev", default=OLD_REV, help="git revision of the old module")
    parser.add_argument("rest", nargs="*", help="arena: arguments for robotable arena (after --)")
    args = parser.parse_args()
    old = load_old(args.old_rev)
    if args.mode == "bids":
        specs = args.agents.split(",")
        for spec in specs:
            if spec != "heuristic" and not spec.startswith("ismcts:"):
                raise BadInput(f"--agents takes heuristic or ismcts:LEVEL, got {spec!r}")
        bids(specs, args.games, args.seed, old)
        return
    register_old(old)
    from robotable.cli import app

    sys.argv = ["robotable", "arena", "--game", GAME, "--workers", "1", *args.rest]
    app()


if __name__ == "__main__":
    main()
