"""A tournament: what to play (checked up front), playing it, and its summary.

>>> Tournament("tf22-reload", ("random",), players=9, games=1, seed=0).check()
Traceback (most recent call last):
...
robotable.core.errors.BadOptions: tf22-reload: 9 players is not supported (this game takes 2 to 4)
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from robotable import games
from robotable.ai import BUDGETS, make_agent
from robotable.core import BadInput

from .execute import OnResult, import_ray, run_jobs
from .ratings import openskill_ratings
from .runner import GameResult
from .schedule import Job, lineups, schedule
from .stats import summarize


@dataclass(frozen=True)
class Tournament:
    """The agents of the pool play ``games`` games of ``game`` with ``players`` seats each.

    ``workers`` local processes (1: this process) or a Ray cluster at ``ray`` run the games; neither
    changes any result. ``budget`` is how search levels think: by ``"time"`` (the default, as people
    play: each level's CPU seconds per decision within its wall-clock cap) or by ``"iterations"`` (the
    same seed plays the same games on any machine). ``seats`` says how many seats each agent holds
    (``(1, 3)``: the first agent against three of the second); by default the seats are shared out as
    evenly as the pool allows.
    """

    game: str
    agents: tuple[str, ...]
    players: int = 2
    games: int = 100
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    workers: int = 1
    ray: str | None = None
    budget: str = "time"
    seats: tuple[int, ...] | None = None

    def check(self) -> None:
        """Raise :class:`BadInput` (or its subclasses) naming the first problem; play nothing."""
        game = games.load(self.game)  # UnknownGame names the known games
        if not self.agents:
            raise BadInput("--agents needs at least one agent spec, like random,heuristic")
        if self.budget not in BUDGETS:
            raise BadInput(f"--budget must be one of {', '.join(BUDGETS)}, got {self.budget!r}")
        for spec in self.agents:
            if not spec:
                raise BadInput("--agents has an empty entry (specs are separated by single commas)")
            make_agent(spec, seed=0)  # unknown specs raise BadInput naming the known agents
        doubles = sorted({spec for spec in self.agents if self.agents.count(spec) > 1})
        if doubles:
            raise BadInput(f"--agents lists {', '.join(doubles)} more than once (each agent once in the pool)")
        self._check_seats()
        for name, value, lowest in (
            ("--games", self.games, 1),
            ("--workers", self.workers, 1),
            ("--seed", self.seed, 0),
        ):
            if not isinstance(value, int) or isinstance(value, bool) or value < lowest:
                raise BadInput(f"{name} must be an integer of at least {lowest}, got {value!r}")
        game.start(self.players, seed=self.seed, options=dict(self.options))  # player count and options
        if self.ray is not None:
            if self.workers > 1:
                raise BadInput("--workers and --ray are alternatives: Ray decides how many games run at once")
            if not self.ray.strip():
                raise BadInput("--ray needs an address: auto, local, or ray://host:port")
            import_ray()

    def _check_seats(self) -> None:
        if self.seats is None:
            return
        if len(self.seats) != len(self.agents):
            raise BadInput(
                f"--seats gives {len(self.seats)} counts for {len(self.agents)} agents (one count per agent, in order)"
            )
        if any(not isinstance(n, int) or isinstance(n, bool) or n < 1 for n in self.seats):
            raise BadInput(f"--seats counts must be integers of at least 1, got {','.join(map(str, self.seats))}")
        if sum(self.seats) != self.players:
            raise BadInput(f"--seats counts add up to {sum(self.seats)}, but the table has {self.players} seats")

    def lineups(self) -> list[tuple[str, ...]]:
        """Every seat assignment of one round (see :mod:`robotable.arena.schedule`)."""
        return lineups(self.agents, self.players, self.seats)

    def jobs(self) -> list[Job]:
        """The games to play, in order."""
        return schedule(self.agents, self.players, self.games, self.seed, self.seats)

    def mode(self) -> str:
        """How the games run, for reports: ``in-process``, ``processes:N`` or ``ray:ADDRESS``."""
        if self.ray is not None:
            return f"ray:{self.ray}"
        return f"processes:{self.workers}" if self.workers > 1 else "in-process"


def parse_seats(text: str | None) -> tuple[int, ...] | None:
    """A command line's ``--seats`` (``"1,3"``) as counts; ``None`` when absent. Counts that are not
    whole numbers raise :class:`BadInput`; the tournament's check judges the counts themselves.

    >>> parse_seats("1,3"), parse_seats(None)
    ((1, 3), None)
    """
    if text is None:
        return None
    parts = [part.strip() for part in text.split(",")]
    if len(parts) > 64 or not all(part.isdigit() and len(part) <= 3 for part in parts):
        raise BadInput(f"--seats must be whole numbers separated by commas, like 1,3; got {text[:40]!r}")
    return tuple(int(part) for part in parts)


@dataclass
class Outcome:
    """The played tournament: one result per game (in order), the summary and the wall time."""

    tournament: Tournament
    results: list[GameResult]
    summary: dict[str, Any]
    seconds: float


def summary_of(tournament: Tournament, results: Sequence[GameResult]) -> dict[str, Any]:
    """Statistics, ratings and how fair the seating was."""
    summary = summarize(results, tournament.agents, tournament.players)
    ratings = openskill_ratings(results, tournament.agents)
    for row in summary["agents"]:
        row["rating"] = ratings[row["agent"]]
    per_round = len(tournament.lineups())
    summary["lineups_per_round"] = per_round
    summary["rounds"] = -(-len(results) // per_round)
    summary["balanced"] = len(results) % per_round == 0
    summary["seat_counts"] = {
        agent: [sum(1 for r in results if r.agents[seat] == agent) for seat in range(tournament.players)]
        for agent in tournament.agents
    }
    return summary


def run_tournament(tournament: Tournament, on_result: OnResult | None = None) -> Outcome:
    """Check the tournament, play every game and summarise; ``on_result`` sees each game as it ends."""
    tournament.check()
    started = time.perf_counter()
    results = run_jobs(
        tournament.game,
        tournament.players,
        tournament.options,
        tournament.jobs(),
        workers=tournament.workers,
        ray_address=tournament.ray,
        on_result=on_result,
        budget=tournament.budget,
    )
    seconds = time.perf_counter() - started
    return Outcome(tournament, results, summary_of(tournament, results), seconds)
