"""The seeded random number generator every game state owns.

A small 64-bit generator (SplitMix64) whose whole state is one int: cloning it is free, it round-trips
through JSON exactly, and its sequence never depends on the Python version.

>>> rng = Rng(7)
>>> first = [rng.randrange(6) for _ in range(5)]
>>> again = Rng(7)
>>> first == [again.randrange(6) for _ in range(5)]
True
>>> a, b = Rng(1), Rng(1)
>>> a.shuffle(x := list(range(10))); b.shuffle(y := list(range(10))); x == y
True
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from .errors import BadInput

T = TypeVar("T")

_MASK = (1 << 64) - 1


class Rng:
    """SplitMix64: fast, reproducible, with a state of one integer."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """The next 64-bit unsigned integer."""
        self.state = s = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randrange(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("randrange needs n > 0")
        limit = _MASK - (_MASK + 1) % n
        while True:  # next64, inlined (games and random play call this all the time)
            self.state = s = (self.state + 0x9E3779B97F4A7C15) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x <= limit:
                return x % n

    def random(self) -> float:
        """A uniform float in [0, 1)."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        """A uniformly chosen element of a non-empty sequence."""
        return seq[self.randrange(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.randrange(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def clone(self) -> Rng:
        """An independent copy at the same point of the sequence."""
        return Rng(self.state)

    def fork(self) -> Rng:
        """A new generator seeded from this one (advances this one by one step)."""
        return Rng(self.next64())

    def to_json(self) -> int:
        """The generator's state as a JSON number."""
        return self.state

    @classmethod
    def from_json(cls, data: object) -> Rng:
        """Rebuild a generator from :meth:`to_json`; raises :class:`BadInput` otherwise."""
        if not isinstance(data, int) or isinstance(data, bool) or not 0 <= data <= _MASK:
            raise BadInput(f"rng: expected an unsigned 64-bit integer, got {data!r}")
        return cls(data)
