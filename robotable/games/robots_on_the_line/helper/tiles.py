"""Tiles as the assembly helper sees them: cells, slots, and signatures (parts one buyer cannot tell apart)."""

from __future__ import annotations

import functools
from typing import Any

from ..components import ENDS, STEP, rotate_side

Cell = tuple[int, int]
# A slot is an open port of the skeleton that an end (head, base, hand, antenna) will fill:
# (cell the end goes on, side its port must face, pink source port, arm id).
Slot = tuple[Cell, int, bool, int]


class Sig:
    """Parts a buyer cannot tell apart: one kind, one set of ports, the same relevant faces."""

    __slots__ = (
        "antenna",
        "base",
        "bits",
        "count",
        "end",
        "ender",
        "eyes",
        "hands",
        "head",
        "kind",
        "nports",
        "parts",
        "pinks",
        "port",
        "rotations",
        "shape",
    )

    def __init__(self, kind: str, eyes: int, hands: int, bits: int, antenna: bool, ports: tuple[tuple[int, bool], ...]):
        self.kind = kind
        self.eyes = eyes
        self.hands = hands
        self.bits = bits
        self.antenna = antenna
        self.end = kind in ENDS and len(ports) == 1
        self.ender = kind == "hand" or antenna  # ends an arm for wide and long-arm
        self.head = kind == "head"
        self.base = kind == "base"
        self.pinks = sum(p for _, p in ports)
        self.port = ports[0]
        self.nports = len(ports)
        self.parts: list[int] = []
        self.count = 0
        self.rotations = rotations(ports)
        self.shape = (kind, hands)  # what a mirrored slot must match


@functools.cache
def rotations(ports: tuple[tuple[int, bool], ...]) -> list[tuple[int, dict[int, bool]]]:
    """The distinct rotations of a tile with ``ports``: (quarter turns, {side: pink})."""
    seen: set[frozenset[tuple[int, bool]]] = set()
    out: list[tuple[int, dict[int, bool]]] = []
    for r in range(4):
        turned = frozenset((rotate_side(s, r), pink) for s, pink in ports)
        if turned not in seen:
            seen.add(turned)
            out.append((r, dict(turned)))
    return out


@functools.cache
def around(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The cells beyond each side of ``cell`` (N, E, S, W)."""
    (nx, ny), (ex, ey), (sx, sy), (wx, wy) = STEP
    x, y = cell
    return (x + nx, y + ny), (x + ex, y + ey), (x + sx, y + sy), (x + wx, y + wy)


@functools.cache
def facing(port: tuple[Cell, int]) -> Cell:
    """The cell a port ``(cell, side)`` faces."""
    return around(port[0])[port[1]]


def signatures(hand: tuple[int, ...], keys: tuple[tuple[Any, ...] | None, ...]) -> list[Sig]:
    """The hand's usable parts grouped by what the buyer tells apart (``keys``, see :class:`.buyers.Buyer`),
    most bonus icons first, then most pink ports."""
    sigs: dict[tuple[object, ...], Sig] = {}
    for p in hand:
        key = keys[p]
        if key is None:
            continue
        sig = sigs.get(key)
        if sig is None:
            sig = sigs[key] = Sig(*key)
        sig.parts.append(p)
        sig.count += 1
    return sorted(sigs.values(), key=lambda s: (-bin(s.bits).count("1"), -s.pinks, s.kind, s.parts[0]))
