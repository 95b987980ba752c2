"""Observation tensors: what a game declares so research code gets structured feature planes.

A game's ``observation.py`` builds an :class:`ObservationEncoder` from named planes and fills them from
``view(seat)`` alone (so hidden information cannot reach a tensor). The layout is one per game: the same
for every seat (planes of seats are relative: ``0`` is the seat observing, then the next seats in turn
order), every player count and every option (absent parts stay zero). Every value is in ``[0, 1]``.

The encoder returns plain lists (standard library only); the research adapters turn them into arrays::

    encoder = game.observation_encoder          # None for a game that declares none
    flat = encoder.encode(state.view(seat), seat)   # len(flat) == encoder.size
    encoder.planes                               # (name, shape, description) in order
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from math import prod
from typing import Any


class Plane:
    """A named block of the flat observation: ``shape`` values from ``offset``, row-major."""

    __slots__ = ("description", "name", "offset", "shape", "size")

    def __init__(self, name: str, shape: tuple[int, ...], description: str, offset: int) -> None:
        self.name = name
        self.shape = shape
        self.description = description
        self.offset = offset
        self.size = prod(shape)

    def at(self, *index: int) -> int:
        """The flat position of ``index`` in this plane."""
        flat = 0
        for i, n in zip(index, self.shape, strict=True):
            if not 0 <= i < n:
                raise IndexError(f"plane {self.name}: index {index} outside shape {self.shape}")
            flat = flat * n + i
        return self.offset + flat


class ObservationEncoder(ABC):
    """Structured observation of one game: a fixed list of planes filled from a seat's view."""

    def __init__(self) -> None:
        self._planes: list[Plane] = []
        self.size = 0
        self.declare()

    def plane(self, name: str, shape: Sequence[int], description: str) -> Plane:
        """Declare the next plane (in :meth:`declare`)."""
        plane = Plane(name, tuple(shape), description, self.size)
        self._planes.append(plane)
        self.size += plane.size
        return plane

    @property
    def planes(self) -> list[Plane]:
        """The planes in order."""
        return list(self._planes)

    @abstractmethod
    def declare(self) -> None:
        """Declare every plane with :meth:`plane` (called once, by the constructor)."""

    @abstractmethod
    def features(self, view: Mapping[str, Any], seat: int | None) -> dict[int, float]:
        """The non-zero values of the observation: flat position -> value in ``(0, 1]``. ``view`` is
        ``state.view(seat)`` (or the spectator's view, still laid out relative to ``seat``)."""

    def encode(self, view: Mapping[str, Any], seat: int | None) -> list[float]:
        """The whole observation as a flat list of ``size`` floats."""
        out = [0.0] * self.size
        for i, v in self.features(view, seat).items():
            out[i] = v
        return out

    def describe(self) -> list[dict[str, Any]]:
        """The planes as JSON-safe data (name, shape, offset, description), for docs and tools."""
        return [
            {"name": p.name, "shape": list(p.shape), "offset": p.offset, "description": p.description}
            for p in self._planes
        ]


def binary(value: int, bits: int) -> list[float]:
    """An unbounded count as ``bits`` binary digits (lowest first), each 0 or 1: exact and in [0, 1]
    up to ``2**bits - 1``; larger values keep their low bits."""
    return [float((value >> b) & 1) for b in range(bits)]


def scaled(value: float, top: float) -> float:
    """``value / top`` clipped to [0, 1]."""
    return 0.0 if value <= 0 else 1.0 if value >= top else value / top
