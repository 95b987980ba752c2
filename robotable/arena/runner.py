"""Play one arena game: build the agents from their specs, play to the end, return a :class:`GameResult`.

:func:`play_game` depends only on its arguments (the agents are built inside it from spec and seed), so
the same job gives the same game in this process, in a worker process or on a Ray node.

>>> from robotable.arena.schedule import Job
>>> r = play_game("tf22-reload", 2, {}, Job(index=0, round=0, seed=7, agents=("random", "random")))
>>> r.agents, len(r.scores), r.moves > 0, sorted(r.ranks)[0]
(('random', 'random'), 2, True, 1)
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from robotable import games
from robotable.ai import make_agent
from robotable.core import RobotableError

from .schedule import Job, agent_seed

#: A game still running after this many moves is reported as broken rather than looping forever.
MAX_MOVES = 1_000_000


class ArenaGameError(RobotableError):
    """A game of the tournament could not be played to its end (an agent or rules failure)."""


@dataclass(frozen=True)
class GameResult:
    """The outcome of one arena game.

    ``digest`` fingerprints the whole move sequence, so two runs can be compared move for move;
    ``seconds`` (wall time of the game), ``think_seconds`` (time each seat's agent spent choosing) and
    ``worker`` (the id of the process that played it) describe the run, not the game: they are the only
    fields that may differ between two runs of the same job.
    """

    index: int
    round: int
    seed: int
    agents: tuple[str, ...]
    agent_seeds: tuple[int, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str
    moves: int
    digest: str
    seconds: float
    think_seconds: tuple[float, ...]
    worker: int = 0

    def payoff(self, seat: int) -> float:
        """1 for a sole winner, 1/k for each of k sharing the win, 0 otherwise."""
        return 1.0 / len(self.winners) if seat in self.winners else 0.0

    def outcome(self) -> dict[str, Any]:
        """Everything but the timings: equal for two runs of the same job, whatever the execution mode."""
        data = self.to_json()
        del data["seconds"], data["think_seconds"], data["worker"]
        return data

    def to_json(self) -> dict[str, Any]:
        """JSON form, read back by :meth:`from_json`."""
        data = asdict(self)
        return {key: list(value) if isinstance(value, tuple) else value for key, value in data.items()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        """Rebuild from :meth:`to_json` (for reading reports back)."""
        fields = dict(data)
        for key in ("agents", "agent_seeds", "scores", "ranks", "winners", "think_seconds"):
            fields[key] = tuple(fields[key])
        return cls(**fields)


def play_game(
    game_id: str, players: int, options: Mapping[str, Any], job: Job, budget: str = "iterations"
) -> GameResult:
    """Play ``job`` to the end and return its result; any failure raises :class:`ArenaGameError`.

    ``budget`` is how search levels think (:func:`robotable.ai.make_agent`): by ``"iterations"`` the
    same job gives the same game anywhere; by ``"time"`` (as people play) each decision thinks the
    level's CPU seconds and the moves depend on the machine's speed. The arena lifts the levels'
    wall-clock caps (a live table's promptness, applied by the server): on a busy machine they would
    make a strength measurement depend on the load, which CPU time does not."""
    where = f"game {job.index} ({game_id}, {players} players, seed {job.seed}, agents {','.join(job.agents)})"
    started = time.perf_counter()
    try:
        game = games.load(game_id)
        state = game.start(players, seed=job.seed, options=dict(options))
        seeds = tuple(agent_seed(job.seed, seat) for seat in range(players))
        wall = math.inf if budget == "time" else None  # no wall-clock cap: see above
        agents = [make_agent(spec, seeds[seat], budget, wall) for seat, spec in enumerate(job.agents)]
        think = [0.0] * players
        digest = hashlib.sha256()
        moves = 0
        while not state.is_over():
            seat = state.to_act()[0]
            tick = time.perf_counter()
            action = agents[seat].act(state, seat)
            think[seat] += time.perf_counter() - tick
            state.apply(seat, action)
            digest.update(f"{seat}:{json.dumps(action.to_json(), sort_keys=True)};".encode())
            moves += 1
            if moves >= MAX_MOVES:
                raise ArenaGameError(f"{where}: no end after {MAX_MOVES} moves")
        result = state.result()
    except ArenaGameError:
        raise
    except Exception as exc:  # an agent or a game broke: say which game, so it can be replayed
        raise ArenaGameError(f"{where} failed: {type(exc).__name__}: {exc}") from exc
    return GameResult(
        index=job.index,
        round=job.round,
        seed=job.seed,
        agents=job.agents,
        agent_seeds=seeds,
        scores=tuple(result.scores),
        ranks=tuple(result.ranks),
        winners=tuple(result.winners),
        reason=result.reason,
        moves=moves,
        digest=digest.hexdigest()[:16],
        seconds=round(time.perf_counter() - started, 6),
        think_seconds=tuple(round(t, 6) for t in think),
        worker=os.getpid(),
    )
