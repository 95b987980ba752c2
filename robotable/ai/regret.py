"""Regret matching for small normal-form games: one battle of a simultaneous-choice game, solved.

A game is given by how many actions each player has and a payoff function from a *profile* (one action
index per player) to every player's payoff. :func:`solve` runs regret matching+ (Tammelin 2014) with
alternating updates and linearly weighted averages: in a two-player zero-sum game the average strategies
converge to a Nash equilibrium (the exploitability shrinks roughly as 1/iterations); with more players
they are the marginals of a coarse correlated equilibrium, which serve as each player's likely play.
Strictly dominated actions are removed first (iterated elimination: no rational player plays them, so
they get exactly 0), and actions left with less than ``floor`` probability are dropped at the end (the
others renormalized).

>>> pennies = solve([2, 2], lambda p: (1.0, -1.0) if p[0] == p[1] else (-1.0, 1.0))
>>> [[round(x, 2) for x in s] for s in pennies.strategies], [round(v, 2) for v in pennies.values]
([[0.5, 0.5], [0.5, 0.5]], [0.0, 0.0])
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import mul

#: A payoff function: every player's payoff for a profile of action indices.
Payoffs = Callable[[tuple[int, ...]], Sequence[float]]


@dataclass(frozen=True)
class Solution:
    """Each player's mixed strategy (probabilities over its actions) and expected payoff under them all."""

    strategies: list[list[float]]
    values: list[float]


def solve(sizes: Sequence[int], payoff: Payoffs, iterations: int = 200, floor: float = 1e-3) -> Solution:
    """Mixed strategies for a game where player ``i`` has ``sizes[i]`` actions (every size at least 1)."""
    if not sizes or min(sizes) < 1:
        raise ValueError(f"every player needs at least one action, got sizes {list(sizes)}")
    payoffs = {profile: tuple(payoff(profile)) for profile in itertools.product(*(range(k) for k in sizes))}
    n = len(sizes)
    alive = [sorted(a) for a in undominated(sizes, payoffs)]
    tables = [_Table(payoffs, alive, i) for i in range(n)]
    strategies = [[1.0 / len(alive[i]) if a in alive[i] else 0.0 for a in range(k)] for i, k in enumerate(sizes)]
    regrets = [[0.0] * k for k in sizes]
    sums = [[0.0] * k for k in sizes]
    for t in range(1, iterations + 1):
        for i in range(n):
            utility = tables[i].expected(strategies)
            mean = sum(strategies[i][a] * u for a, u in zip(alive[i], utility))
            r = regrets[i]
            for a, u in zip(alive[i], utility):
                r[a] = max(0.0, r[a] + u - mean)
            total = sum(r)
            strategies[i] = (
                [x / total for x in r]
                if total > 0
                else [1.0 / len(alive[i]) if a in alive[i] else 0.0 for a in range(sizes[i])]
            )
            s = sums[i]
            for a, p in enumerate(strategies[i]):
                s[a] += t * p
    average = [_normalize(s, floor) for s in sums]
    values = [sum(average[i][a] * u for a, u in zip(alive[i], tables[i].expected(average))) for i in range(n)]
    return Solution(average, values)


class _Table:
    """Player ``i``'s payoffs over the surviving actions, laid out for :meth:`expected`: one row per action
    of ``i``, over every profile of the others' surviving actions (the last other player's varying
    fastest)."""

    def __init__(self, payoffs: Mapping[tuple[int, ...], Sequence[float]], alive: list[list[int]], i: int) -> None:
        self.i = i
        self.alive = alive
        self.others = [j for j in range(len(alive)) if j != i]
        profiles = list(itertools.product(*(alive[j] for j in self.others)))
        self.rows: list[list[float]] = [[payoffs[(*rest[:i], a, *rest[i:])][i] for rest in profiles] for a in alive[i]]

    def expected(self, strategies: list[list[float]]) -> list[float]:
        """The expected payoff of each surviving action of player ``i`` (in the order of ``alive[i]``) when
        the others play ``strategies``: each row against the product of the others' probabilities (the same
        sums as :func:`expected`, in another order)."""
        weights = [1.0]
        for j in self.others:
            mix = [strategies[j][x] for x in self.alive[j]]
            weights = [w * p for w in weights for p in mix]
        return [sum(map(mul, row, weights)) for row in self.rows]


def undominated(sizes: Sequence[int], payoffs: Mapping[tuple[int, ...], Sequence[float]]) -> list[set[int]]:
    """Each player's actions that survive iterated elimination of strictly dominated actions: an action
    goes when another of the same player's actions pays strictly more against every profile of the
    others' surviving actions.

    >>> sorted(undominated([3, 1], {(0, 0): (1, 0), (1, 0): (3, 0), (2, 0): (2, 0)})[0])
    [1]
    """
    alive = [set(range(k)) for k in sizes]
    changed = True
    while changed:
        changed = False
        for i in range(len(sizes)):
            others = [sorted(alive[j]) if j != i else [0] for j in range(len(sizes))]
            contexts = list(itertools.product(*others))
            for a in sorted(alive[i]):
                row_a = [payoffs[(*c[:i], a, *c[i + 1 :])][i] for c in contexts]
                for b in alive[i]:
                    if b != a and all(payoffs[(*c[:i], b, *c[i + 1 :])][i] > x for c, x in zip(contexts, row_a)):
                        alive[i].discard(a)
                        changed = True
                        break
    return alive


def expected(
    table: Sequence[tuple[tuple[int, ...], Sequence[float]]], strategies: list[list[float]], i: int
) -> list[float]:
    """Player ``i``'s expected payoff for each of its actions when the others play ``strategies``."""
    utility = [0.0] * len(strategies[i])
    others = [j for j in range(len(strategies)) if j != i]
    for profile, pay in table:
        weight = 1.0
        for j in others:
            weight *= strategies[j][profile[j]]
            if weight == 0.0:
                break
        if weight:
            utility[profile[i]] += weight * pay[i]
    return utility


def exploitability(sizes: Sequence[int], payoff: Payoffs, strategies: list[list[float]]) -> float:
    """How much the players could gain in total by each switching alone to a best response (0 at a Nash
    equilibrium)."""
    table = [(profile, tuple(payoff(profile))) for profile in itertools.product(*(range(k) for k in sizes))]
    gain = 0.0
    for i in range(len(sizes)):
        utility = expected(table, strategies, i)
        gain += max(utility) - sum(p * u for p, u in zip(strategies[i], utility))
    return gain


def _normalize(weights: list[float], floor: float) -> list[float]:
    total = sum(weights)
    if total <= 0:
        return [1.0 / len(weights)] * len(weights)
    probs = [w / total for w in weights]
    kept = [p if p >= floor else 0.0 for p in probs]
    total = sum(kept)
    return [p / total for p in kept] if total > 0 else probs
