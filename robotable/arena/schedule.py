"""Which agents sit where in each game of a tournament, and with which seeds.

A *lineup* gives one agent per seat. The lineups of a tournament are every ordered assignment of the
pool's agents to the seats in which each agent sits as often as the others, give or take one: with at
least as many agents as seats that is every ordered choice of distinct agents; with fewer, agents take
several seats each. That set is closed under swapping seats and under swapping agents, so over one
*round* (every lineup once) every agent plays every seat equally often, and every pairing is played
both ways. A tournament may instead say how many seats each agent holds (``seats``: one agent against
three heuristics is ``(1, 3)``); its lineups are every ordering of those seats, so each agent still
plays every seat in proportion to its count over a round.

Games are played round after round. All games of a round share one game seed (a *duplicate* format,
as in duplicate bridge): the same deal is played from every side, so luck of the deal cancels out
between agents. Every game is reproducible from ``(game, players, options, seed, agents)`` alone.

>>> lineups(["a", "b"], 2)
[('a', 'b'), ('b', 'a')]
>>> lineups(["a", "b"], 3)
[('a', 'a', 'b'), ('a', 'b', 'a'), ('b', 'a', 'a'), ('a', 'b', 'b'), ('b', 'a', 'b'), ('b', 'b', 'a')]
>>> len(lineups(["a", "b", "c"], 2)), len(lineups(["a", "b", "c", "d"], 4))
(6, 24)
>>> [job.agents for job in schedule(["x", "y"], 2, games=3, seed=1)]
[('x', 'y'), ('y', 'x'), ('x', 'y')]
>>> lineups(["hard", "h"], 4, seats=(1, 3))
[('hard', 'h', 'h', 'h'), ('h', 'hard', 'h', 'h'), ('h', 'h', 'hard', 'h'), ('h', 'h', 'h', 'hard')]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from robotable.core import Rng

#: Seeds stay below 2**53 so that every JSON reader (JavaScript included) keeps them exact.
SEED_BITS = 53


@dataclass(frozen=True)
class Job:
    """One game to play: its index in the tournament, its round, its seed and its agent per seat."""

    index: int
    round: int
    seed: int
    agents: tuple[str, ...]


def lineups(pool: Sequence[str], players: int, seats: Sequence[int] | None = None) -> list[tuple[str, ...]]:
    """Every balanced ordered assignment of ``pool`` agents to ``players`` seats, in a stable order.

    Lineups with the same agents (a *matchup*) come together, so a tournament cut short part way
    through a round still has each finished matchup played from every side. With ``seats`` (one count
    per agent of ``pool``, adding up to ``players``), every ordering of exactly those seats.
    """
    if not pool or players < 1:
        return []
    if seats is not None:
        if len(seats) != len(pool) or sum(seats) != players or min(seats) < 0:
            raise ValueError(f"seats {tuple(seats)}: one count per agent of {len(pool)}, adding up to {players}")
        held = [i for i, count in enumerate(seats) for _ in range(count)]
        return [tuple(pool[i] for i in order) for order in sorted(set(itertools.permutations(held)))]
    low, extra = divmod(players, len(pool))
    out: list[tuple[str, ...]] = []
    # Which agents take one seat more than the others (none when the seats divide evenly).
    for favoured in itertools.combinations(range(len(pool)), extra):
        counts = [low + (1 if i in favoured else 0) for i in range(len(pool))]
        seats = [i for i, count in enumerate(counts) for _ in range(count)]
        for order in sorted(set(itertools.permutations(seats))):
            out.append(tuple(pool[i] for i in order))
    return out


def round_seed(seed: int, round_index: int) -> int:
    """The game seed of a round: well mixed, so neighbouring tournament seeds share no games."""
    rng = Rng(seed)
    rng.state = (rng.state + round_index * 0xD1B54A32D192ED03) & ((1 << 64) - 1)
    return rng.next64() >> (64 - SEED_BITS)


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` of the game with ``game_seed`` (distinct per seat)."""
    return Rng(game_seed * 1_000_003 + seat + 1).next64() >> (64 - SEED_BITS)


def schedule(pool: Sequence[str], players: int, games: int, seed: int, seats: Sequence[int] | None = None) -> list[Job]:
    """The tournament's games: round after round of every lineup, ``games`` in all.

    Seat rotation is exactly fair when ``games`` is a multiple of ``len(lineups(pool, players, seats))``.
    """
    order = lineups(pool, players, seats)
    jobs = []
    for index in range(games):
        round_index, position = divmod(index, len(order))
        jobs.append(Job(index, round_index, round_seed(seed, round_index), order[position]))
    return jobs
