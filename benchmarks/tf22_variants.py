"""TF22: RELOAD! heuristic variants against the heuristic, fast: no search, hundreds of games a minute.

    nice -n 5 python benchmarks/tf22_variants.py --games 300 --seed 3120690000 --set CARD_COST=0.45
    nice -n 5 python benchmarks/tf22_variants.py --games 60 --seed 3120691000 --set SOLVE=4 --set DEPTH=0

One seat plays a *variant* of the heuristic, the others the heuristic itself; game ``i`` has seed
``seed + i`` and the variant takes seat ``i % players``. A variant is the heuristic with:

- module constants changed for its own battle solves only (``CARD_COST``, ``CHIP_VALUE``; the opponents'
  heuristic and the shared solve cache are untouched), ``RSCALE`` (R's takeback worth times this) and
  ``SSCALE`` (the stack-structure term of a battle's gain times this);
- or ``SOLVE=k``: its bids from ``battle_solve`` with ``k`` samples (``DEPTH`` as the level key
  ``battle_depth``: 0 the two-battle horizon, -1 rollouts to the end; ``RESPOND=1`` the best reply to the
  heuristic's mix); its loads stay the heuristic's.

Prints the variant's wins (a tie counts a half; at 3-4 players its share of the seats it beat) with the
Wilson 95% interval, and its mean and standard deviation of score margin over the best other seat.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time
from collections.abc import Iterator

from robotable import games
from robotable.ai import regret
from robotable.ai.base import Decision
from robotable.ai.heuristics import tf22_reload as h
from robotable.arena.stats import wilson
from robotable.core import Action, Rng
from robotable.games.tf22_reload import RTakeBack

_R_OPTION = h.r_option
_STRUCTURE = h._structure


def setting(text: str) -> tuple[str, float]:
    """``KEY=value`` with a number for its value."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=value, got {text!r}")
    return key, float(value)


@contextlib.contextmanager
def patched(changes: dict[str, float]) -> Iterator[None]:
    """The heuristics module with ``changes`` in force (restored after)."""
    values: dict[str, object] = {k: v for k, v in changes.items() if k in ("CARD_COST", "CHIP_VALUE")}
    if "RSCALE" in changes:
        scale = changes["RSCALE"]

        def r_option(table: h.Table, seat: int) -> tuple[float, Action]:
            worth, action = _R_OPTION(table, seat)
            return (worth * scale if isinstance(action, RTakeBack) else worth), action

        values["r_option"] = r_option
    if "SSCALE" in changes:
        values["_structure"] = lambda ship, s=changes["SSCALE"]: s * _STRUCTURE(ship)
    old = {k: getattr(h, k) for k in values}
    for k, v in values.items():
        setattr(h, k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(h, k, v)


def variant(decision: Decision, rng: Rng, changes: dict[str, float]) -> Action:
    """The variant's choice."""
    if "SOLVE" in changes:
        depth, respond = int(changes.get("DEPTH", 0)), bool(changes.get("RESPOND", 0))
        bid = h.battle_solve(decision, rng, int(changes["SOLVE"]), depth, respond)
        if bid is not None:
            return bid
    table = h.Table.from_view(decision.view, decision.seat)
    table.ships = [[st[:] for st in ship] for ship in table.ships]
    if decision.view["phase"] == "load":
        return h.choose_load(table, decision.legal)
    with patched(changes):
        options, r_actions, payoff = h.battle_game(table)
        mix = regret.solve([len(o) for o in options], payoff, h.SOLVE_ITERATIONS).strategies
    action = h.BattleSolution(options, mix, r_actions).sample(decision.seat, rng)
    return action if action in decision.legal else decision.legal[0]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--set", type=setting, action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    changes = dict(args.set)
    game, n = games.load("tf22-reload"), args.players
    wins, margins, started = 0.0, [], time.perf_counter()
    for i in range(args.games):
        state = game.start(n, seed=args.seed + i)
        me = i % n
        rngs = [Rng(args.seed * 100 + i * 7 + k) for k in range(n)]
        while not state.is_over():
            seat = state.to_act()[0]
            decision = Decision.of(state, seat)
            if len(decision.legal) == 1:
                action = decision.legal[0]
            elif seat == me:
                action = variant(decision, rngs[seat], changes)
            else:
                action = h.choose(decision, rngs[seat])
            state.apply_legal(seat, action)
        ranks = state.result().ranks
        others = [o for o in range(n) if o != me]
        wins += sum(1.0 if ranks[me] < ranks[o] else 0.5 if ranks[me] == ranks[o] else 0.0 for o in others) / (n - 1)
        totals = [sum(s) for s in h.as_tf22(state).scores]
        margins.append(totals[me] - max(totals[o] for o in others))
    low, high = wilson(wins, args.games)
    print(
        f"{changes or 'the heuristic itself'}, {args.games} games, seed {args.seed}, {n} players: variant won "
        f"{wins:g} ({wins / args.games:.1%}, 95% CI {low:.1%}-{high:.1%}), margin mean "
        f"{statistics.fmean(margins):.2f} sd {statistics.stdev(margins):.1f} ({time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
