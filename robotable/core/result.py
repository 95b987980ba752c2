"""The outcome of a finished game.

>>> r = Result.from_keys(scores=(14, 16, 12), keys=((14, 0), (16, 0), (12, 0)), reason="end of round 2")
>>> r.winners, r.ranks
((1,), (2, 1, 3))
>>> Result.from_json(r.to_json()) == r
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import BadInput


@dataclass(frozen=True)
class Result:
    """Scores, ranks (1 = first, equal ranks are shared places), winners and why the game ended.

    ``keys`` are the per-seat comparison keys that produced the ranking (score first, then the
    rulebook's tie-breaks, each arranged so that higher is better); ``details`` holds a per-game
    breakdown for display.
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str
    keys: tuple[tuple[int, ...], ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def from_keys(
        cls,
        scores: Sequence[int],
        keys: Sequence[Sequence[int]],
        reason: str,
        details: Mapping[str, Any] | None = None,
    ) -> Result:
        """Rank seats by their keys (higher is better); seats with equal keys share a place."""
        keys_t = tuple(tuple(k) for k in keys)
        ranks = tuple(1 + sum(1 for other in keys_t if other > mine) for mine in keys_t)
        winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
        return cls(tuple(scores), ranks, winners, reason, keys_t, dict(details or {}))

    @property
    def ranking(self) -> list[list[int]]:
        """Seats grouped by place, best first: ``[[1], [0, 2]]`` means seat 1 won, 0 and 2 share 2nd."""
        return [[s for s, r in enumerate(self.ranks) if r == place] for place in sorted(set(self.ranks))]

    def payoff(self, seat: int) -> float:
        """1 for a sole winner, 1/k for each of k sharing the win, 0 otherwise (for agents and arenas)."""
        return 1.0 / len(self.winners) if seat in self.winners else 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON form, read back by :meth:`from_json`."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "reason": self.reason,
            "keys": [list(k) for k in self.keys],
            "details": dict(self.details),
        }

    @classmethod
    def from_json(cls, data: object) -> Result:
        """Rebuild from :meth:`to_json`."""
        if not isinstance(data, Mapping):
            raise BadInput("result: expected a JSON object")
        try:
            return cls(
                tuple(int(s) for s in data["scores"]),
                tuple(int(r) for r in data["ranks"]),
                tuple(int(w) for w in data["winners"]),
                str(data["reason"]),
                tuple(tuple(int(x) for x in k) for k in data.get("keys", ())),
                dict(data.get("details", {})),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise BadInput(f"result: malformed ({exc})") from None
