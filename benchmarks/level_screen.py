"""Screen a change to a search level before it is kept: the level, with some parameters set, plays an arena.

    nice -n 5 python benchmarks/level_screen.py --game twin-tin-bots --set rollout_depth=2 --games 16 --seed 741208

The level (``--level``, default ``hard``) plays ``--opponent`` (default ``heuristic``) as ``robotable arena``
would with ``--budget iterations --workers 1``, but with the game's ``LEVELS[level]`` updated by each
``--set key=value`` in this process (``--seats 1,3`` at 4 players: the level against three of the
opponent; by default each holds half the seats). Each game's line, then the level's wins (a tie counts a half) with
the Wilson 95% interval. ``--opponent-set key=value`` (with an ``ismcts:LEVEL`` opponent) plays against that
level with its parameters so changed, as the agent ``LEVEL-variant`` (this process only): e.g. today's hard
against hard without a key the code now sets (``--opponent ismcts:hard --opponent-set battle_solve=0``).
A screen of 12-16 games only tells a clear gain from none; a change kept goes through a 40-game
``robotable arena`` run once it is in the code (docs/ai.md).
"""

from __future__ import annotations

import argparse
import time

from robotable.ai import AGENTS, heuristics
from robotable.ai.ismcts import LEVELS, ISMCTSAgent
from robotable.arena.runner import GameResult
from robotable.arena.stats import wilson
from robotable.arena.tournament import Tournament, parse_seats, run_tournament


def setting(text: str) -> tuple[str, float]:
    """``key=value`` with a number for its value."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    try:
        return key, float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{key}'s value must be a number, got {value!r}") from None


def variant_spec(opponent: str, changes: dict[str, float]) -> str:
    """Register ``LEVEL-variant``: the search level of ``opponent`` (``ismcts:LEVEL``) with ``changes`` over
    the game's parameters for it (this process only); its spec."""
    kind, _, level = opponent.partition(":")
    if kind != "ismcts" or level not in LEVELS:
        raise SystemExit(f"--opponent-set needs an ismcts:LEVEL opponent, got {opponent!r}")

    class Variant(ISMCTSAgent):
        def _apply_level(self, params: dict[str, float]) -> None:
            super()._apply_level({**params, **changes})

    name = f"{level}-variant"

    def build(seed: int | None) -> ISMCTSAgent:
        agent = Variant.level(level, seed)
        agent.name = name
        return agent

    AGENTS[name] = build
    return name


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--level", default="hard", choices=list(LEVELS))
    parser.add_argument("--set", type=setting, action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--opponent-set", type=setting, action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--seats", type=parse_seats, default=None, help="seats of the level and of the opponent, e.g. 1,3"
    )
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    module = heuristics.for_game(args.game)
    levels = getattr(module, "LEVELS", None)
    if levels is None:  # a game without its own levels: the default ones are changed
        levels = LEVELS
    changes = {key: int(value) if value.is_integer() else value for key, value in args.set}
    levels.setdefault(args.level, {}).update(changes)
    spec = f"ismcts:{args.level}"
    opponent = args.opponent
    if args.opponent_set:
        opponent = variant_spec(args.opponent, {k: int(v) if v.is_integer() else v for k, v in args.opponent_set})
    print(f"{args.game} {spec} with {changes or 'no change'} against {opponent}", flush=True)
    tournament = Tournament(
        game=args.game,
        agents=(spec, opponent),
        players=args.players,
        games=args.games,
        seed=args.seed,
        budget="iterations",
        seats=args.seats,
    )
    started = time.perf_counter()
    seats_won: list[float] = []  # the level's payoff at each seat it held (at 2 players: one a game)

    def show(result: GameResult) -> None:
        mine = [result.payoff(seat) for seat, agent in enumerate(result.agents) if agent == spec]
        seats_won.extend(mine)
        elapsed = time.perf_counter() - started
        print(f"scores {result.scores}  {spec}'s seats won {sum(mine):g} of {len(mine)}  ({elapsed:.0f} s)", flush=True)

    run_tournament(tournament, on_result=show)
    wins, n = sum(seats_won), len(seats_won)
    low, high = wilson(wins, n)
    print(f"{spec} won {wins:g} of {n} seats: {wins / n:.1%} (95% CI {low:.1%}-{high:.1%})")


if __name__ == "__main__":
    main()
