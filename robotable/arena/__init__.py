"""The arena: tournaments between agents, with win rates, confidence intervals, ratings and reports.

>>> from robotable.arena import Tournament, run_tournament
>>> outcome = run_tournament(Tournament("tf22-reload", ("random",), players=2, games=2, seed=1))
>>> len(outcome.results), outcome.summary["agents"][0]["games"]
(2, 4)
"""

from .runner import ArenaGameError, GameResult, play_game
from .schedule import Job, lineups, schedule
from .tournament import Outcome, Tournament, run_tournament

__all__ = [
    "ArenaGameError",
    "GameResult",
    "Job",
    "Outcome",
    "Tournament",
    "lineups",
    "play_game",
    "run_tournament",
    "schedule",
]
