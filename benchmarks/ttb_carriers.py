"""Twin Tin Bots carriers: how the old and the new evaluator play crystals home (issue 29).

    python benchmarks/ttb_carriers.py mirror --agent heuristic --games 40 --seed 500
    python benchmarks/ttb_carriers.py mirror --agent ismcts:medium --games 8 --seed 500
    python benchmarks/ttb_carriers.py arena -- --agents heuristic,heuristic-old --games 40 --seed 7001
    python benchmarks/ttb_carriers.py watch --agent ismcts:hard --opponent heuristic --games 12 --seed 500

``mirror`` plays the same seeded 2-player games twice, both seats with the old evaluator and then
both with the new one, and prints side by side, per game:

- **stalls**: a robot carrying a crystal ended its colour's turn on the same hex 3 or more turns
  running (each such run counted once; ``stalled turns`` counts the turns beyond the second);
- **steals** (a Load, own or zapped, that takes another robot's crystal) and **ping-pong** steals: a
  robot steals back the crystal that was just stolen from it, by the same robot (and the longest such
  run of one crystal changing hands between the same two robots);
- **deliveries** and the game's length in rounds, how it ended, and the agents' think time.

``watch`` plays seeded 2-player games of ``--agent`` against ``--opponent`` (current evaluator,
seats alternating, each seed played from both sides) and prints the same counts for each agent's own
colours (stalls of its carriers, steals and ping-pong steals by its robots, its deliveries) and its
wins: the carriers of the top level in its games against the heuristic.

``arena`` runs ``robotable arena`` in this process (so ``--workers 1``) with temporary agent specs for
the old evaluator: ``heuristic-old`` and ``ismcts-old:easy|medium|hard`` (the same search, with the
old module's rollout policy, evaluator, opponent model and guide). They exist only here, never in the
product. Everything after ``--`` goes to ``robotable arena`` (``--game twin-tin-bots`` is implied).

The old evaluator is ``robotable/ai/heuristics/twin_tin_bots.py`` as of ``--old-rev`` (default: the
commit before issue 29's evaluator work), read with ``git show`` and imported beside the new one.
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
from robotable.ai import make_agent
from robotable.core import BadInput
from robotable.games.twin_tin_bots.state import TtbState

GAME = "twin-tin-bots"
MODULE_PATH = "robotable/ai/heuristics/twin_tin_bots.py"
#: The commit before issue 29's Twin Tin Bots evaluator work.
OLD_REV = "f48233a"
ROOT = Path(__file__).resolve().parent.parent


def load_old(rev: str) -> ModuleType:
    """The Twin Tin Bots heuristics module as of ``rev``, imported as a sibling of the current one."""
    return old_heuristics.load_old(MODULE_PATH, rev)


# -- what happened in a game ------------------------------------------------------------------------


@dataclass
class Tally:
    """What one game showed."""

    stalls: int = 0
    stalled_turns: int = 0
    steals: int = 0
    ping_pong: int = 0
    longest: int = 0
    deliveries: int = 0
    rounds: int = 0
    score_victory: bool = False
    think: list[float] = field(default_factory=list)


class Watcher:
    """Follows a game's events and turn ends for :class:`Tally` (the game's, and each colour's)."""

    def __init__(self, st: TtbState) -> None:
        self.tally = Tally()
        self.colours = [Tally() for _ in st.colours]
        n = len(st.rhex)
        self.streak = [0] * n
        self.last_hex: list[tuple[int, int] | None] = [None] * n
        self.stolen_from: list[int | None] = [None] * n  # whose robot a robot's crystal was stolen from
        self.hands = [0] * n  # how many times running that crystal changed hands between the two robots
        self.index = {name: r for r, name in enumerate(st.names)}
        self.turn = (st.round, st.turn)
        self.active = st.active

    def after(self, st: TtbState, events: list) -> None:
        t = self.tally
        for e in events:
            if e.type == "steal":
                thief, victim = self.index[e.data["robot"]], self.index[e.data["victim"]]
                mine = self.colours[st.robot_colour(thief)]
                t.steals += 1
                mine.steals += 1
                if self.stolen_from[victim] == thief:
                    t.ping_pong += 1
                    mine.ping_pong += 1
                    self.hands[thief] = self.hands[victim] + 1
                else:
                    self.hands[thief] = 1
                t.longest = max(t.longest, self.hands[thief])
                mine.longest = max(mine.longest, self.hands[thief])
                self.stolen_from[thief], self.stolen_from[victim] = victim, None
            elif e.type == "deliver":
                t.deliveries += 1
                self.colours[st.robot_colour(self.index[e.data["robot"]])].deliveries += 1
        for r, cargo in enumerate(st.rcargo):
            if not cargo:
                self.stolen_from[r] = None
        if (st.round, st.turn) != self.turn or st.is_over():
            self._turn_ended(st, self.active)
            self.turn, self.active = (st.round, st.turn), st.active

    def _turn_ended(self, st: TtbState, colour: int) -> None:
        rp = st.robots_per
        for r in range(colour * rp, colour * rp + rp):
            if st.rcargo[r] and st.rhex[r] == self.last_hex[r]:
                self.streak[r] += 1
            else:
                self.streak[r] = 1 if st.rcargo[r] else 0
            self.last_hex[r] = st.rhex[r] if st.rcargo[r] else None
            if self.streak[r] == 3:
                self.tally.stalls += 1
                self.colours[colour].stalls += 1
            if self.streak[r] >= 3:
                self.tally.stalled_turns += 1
                self.colours[colour].stalled_turns += 1


def play(spec: str, old: ModuleType | None, seed: int) -> Tally:
    """One 2-player game of ``spec`` against itself (old or new evaluator), seeded."""
    st: TtbState = games.load(GAME).start(2, seed=seed)  # type: ignore[assignment]
    agents = [make(spec, old, seed * 10 + s) for s in range(2)]
    w = Watcher(st)
    while not st.is_over():
        seat = st.to_act()[0]
        several = len(st.legal_actions(seat)) > 1
        tick = time.process_time()
        action = agents[seat].act(st, seat)
        if several:
            w.tally.think.append(time.process_time() - tick)
        w.after(st, st.apply(seat, action))
    w.tally.rounds = st.round
    w.tally.score_victory = st.result().reason.startswith("score victory")
    return w.tally


def play_pair(specs: tuple[str, str], seed: int) -> tuple[list[Tally], list[int]]:
    """One 2-player game of ``specs[0]`` (seat 0) against ``specs[1]`` (current evaluator), seeded: each
    seat's tally (its colours together) and rank."""
    st: TtbState = games.load(GAME).start(2, seed=seed)  # type: ignore[assignment]
    agents = [make_agent(spec, seed=seed * 10 + s) for s, spec in enumerate(specs)]
    w = Watcher(st)
    think: list[list[float]] = [[], []]
    while not st.is_over():
        seat = st.to_act()[0]
        several = len(st.legal_actions(seat)) > 1
        tick = time.process_time()
        action = agents[seat].act(st, seat)
        if several:
            think[seat].append(time.process_time() - tick)
        w.after(st, st.apply(seat, action))
    tallies = []
    for seat in range(2):
        t = Tally(rounds=st.round, think=think[seat])
        for c in st.seat_colours(seat):
            ct = w.colours[c]
            t.stalls += ct.stalls
            t.stalled_turns += ct.stalled_turns
            t.steals += ct.steals
            t.ping_pong += ct.ping_pong
            t.longest = max(t.longest, ct.longest)
            t.deliveries += ct.deliveries
        tallies.append(t)
    return tallies, list(st.result().ranks)


def watch(agent: str, opponent: str, games_: int, seed: int) -> None:
    """``agent`` against ``opponent``: each agent's carriers, steals and wins (seats alternating)."""
    rows: list[list[Tally]] = [[], []]  # the agent's, the opponent's
    wins = [0.0, 0.0]
    started = time.perf_counter()
    for i in range(games_):
        side = i % 2  # the agent's seat
        specs = (agent, opponent) if side == 0 else (opponent, agent)
        tallies, ranks = play_pair(specs, seed + i // 2)
        for role in range(2):
            seat = side if role == 0 else 1 - side
            rows[role].append(tallies[seat])
            mine, other = ranks[seat], ranks[1 - seat]
            wins[role] += 1.0 if mine < other else 0.5 if mine == other else 0.0
    print(f"# {games_} games in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    print(f"{agent} vs {opponent}, 2 players, {games_} games, seeds {seed}..{seed + (games_ - 1) // 2} from both seats")
    print("per game, each agent's own colours (mean ± 95% half-width); totals in brackets")
    print(f"{'':<34} {agent:>22} {opponent:>22}")
    for key, title in (
        ("stalls", "carrier on the same hex 3+ turns"),
        ("stalled_turns", "  turns stalled beyond the 2nd"),
        ("steals", "steals"),
        ("ping_pong", "ping-pong steals"),
        ("longest", "longest ping-pong (steals)"),
        ("deliveries", "deliveries"),
    ):
        cells = []
        for role in range(2):
            xs = [float(getattr(t, key)) for t in rows[role]]
            cells.append(f"{_mean_ci(xs)} [{int(sum(xs)):4d}]")
        print(f"{title:<34} {cells[0]:>22} {cells[1]:>22}")
    cells = [f"{wins[role]:g}/{games_}" for role in range(2)]
    print(f"{'wins':<34} {cells[0]:>22} {cells[1]:>22}")
    cells = []
    for role in range(2):
        ms = sorted(x * 1000 for t in rows[role] for x in t.think)
        cells.append(f"{statistics.median(ms):.1f} / {ms[int(0.95 * (len(ms) - 1))]:.1f}")
    print(f"{'think ms per decision, median/p95':<34} {cells[0]:>22} {cells[1]:>22}")


def _mean_ci(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return f"{m:6.2f}"
    half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5
    return f"{m:6.2f} ± {half:4.2f}"


def mirror(spec: str, games_: int, seed: int, old: ModuleType) -> None:
    rows: dict[str, list[Tally]] = {}
    for label, module in (("old", old), ("new", None)):
        started = time.perf_counter()
        rows[label] = [play(spec, module, seed + i) for i in range(games_)]
        print(f"# {label}: {games_} games in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    print(f"{spec} vs itself, 2 players, {games_} games, seeds {seed}..{seed + games_ - 1}")
    print("per game (mean ± 95% half-width); totals in brackets")
    print(f"{'':<34} {'old':>22} {'new':>22}")
    for key, title in (
        ("stalls", "carrier on the same hex 3+ turns"),
        ("stalled_turns", "  turns stalled beyond the 2nd"),
        ("steals", "steals"),
        ("ping_pong", "ping-pong steals"),
        ("longest", "longest ping-pong (steals)"),
        ("deliveries", "deliveries"),
        ("rounds", "rounds"),
    ):
        cells = []
        for label in ("old", "new"):
            xs = [float(getattr(t, key)) for t in rows[label]]
            cells.append(f"{_mean_ci(xs)} [{int(sum(xs)):4d}]")
        print(f"{title:<34} {cells[0]:>22} {cells[1]:>22}")
    cells = [f"{sum(t.score_victory for t in rows[lb])}/{games_}" for lb in ("old", "new")]
    print(f"{'ended by score victory':<34} {cells[0]:>22} {cells[1]:>22}")
    cells = []
    for label in ("old", "new"):
        ms = sorted(x * 1000 for t in rows[label] for x in t.think)
        cells.append(f"{statistics.median(ms):.1f} / {ms[int(0.95 * (len(ms) - 1))]:.1f}")
    print(f"{'think ms per decision, median/p95':<34} {cells[0]:>22} {cells[1]:>22}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("mirror", "watch", "arena"))
    parser.add_argument("--agent", default="heuristic", help="mirror, watch: heuristic or ismcts:LEVEL")
    parser.add_argument("--opponent", default="heuristic", help="watch: the other seat's agent")
    parser.add_argument("--games", type=int, default=20, help="mirror: games per evaluator; watch: games")
    parser.add_argument("--seed", type=int, default=500, help="mirror, watch: the first game's seed")
    parser.add_argument("--old-rev", default=OLD_REV, help="git revision of the old evaluator")
    parser.add_argument("rest", nargs="*", help="arena: arguments for robotable arena (after --)")
    args = parser.parse_args()
    for spec in (args.agent, args.opponent):
        if spec != "heuristic" and not spec.startswith("ismcts:"):
            raise BadInput(f"agents must be heuristic or ismcts:LEVEL, got {spec!r}")
    if args.mode == "watch":
        watch(args.agent, args.opponent, args.games, args.seed)
        return
    old = load_old(args.old_rev)
    if args.mode == "mirror":
        mirror(args.agent, args.games, args.seed, old)
        return
    register_old(old)
    from robotable.cli import app

    sys.argv = ["robotable", "arena", "--game", GAME, "--workers", "1", *args.rest]
    app()


if __name__ == "__main__":
    main()
