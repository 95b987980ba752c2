"""Hex geometry for Twin Tin Bots: axial coordinates ``(q, r)``, pointy-top hexes, centre ``(0, 0)``.

``r`` grows downward on screen. Facings are ints 0-5 in counter-clockwise order, so Turn Left adds 1
and Turn Right subtracts 1 (modulo 6).

>>> neighbour((0, 0), E), neighbour((0, 0), NW)
((1, 0), (0, -1))
>>> turn(E, 1) == NE, turn(E, -1) == SE, turn(NE, 3) == SW
(True, True, True)
>>> distance((0, 0), (2, -3)), len(board_hexes(4)), len(board_hexes(5))
(3, 61, 91)
"""

from __future__ import annotations

import enum
import math

Hex = tuple[int, int]


class Facing(enum.IntEnum):
    """The six hex-sides a robot can face (and the six directions of travel)."""

    E = 0
    NE = 1
    NW = 2
    W = 3
    SW = 4
    SE = 5


E, NE, NW, W, SW, SE = (int(f) for f in Facing)
FACING_NAMES: tuple[str, ...] = tuple(f.name for f in Facing)
#: Axial offset of one step in each facing.
OFFSETS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
CENTRE: Hex = (0, 0)


def neighbour(h: Hex, facing: int, steps: int = 1) -> Hex:
    """The hex ``steps`` hexes from ``h`` in direction ``facing``."""
    dq, dr = OFFSETS[facing]
    return (h[0] + dq * steps, h[1] + dr * steps)


def neighbours(h: Hex) -> list[Hex]:
    """The six hexes around ``h`` (in facing order E, NE, NW, W, SW, SE)."""
    return [neighbour(h, f) for f in range(6)]


def turn(facing: int, sides: int) -> int:
    """``facing`` turned ``sides`` hex-sides counter-clockwise (negative: clockwise)."""
    return (facing + sides) % 6


def opposite(facing: int) -> int:
    """The reverse direction."""
    return (facing + 3) % 6


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def ring_of(h: Hex) -> int:
    """Distance from the centre."""
    return distance(h, CENTRE)


def board_hexes(radius: int) -> list[Hex]:
    """Every hex of a board of ``radius``, sorted by ``(r, q)`` (screen reading order)."""
    return [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if max(abs(q), abs(r), abs(q + r)) <= radius
    ]


def pixel(h: Hex) -> tuple[float, float]:
    """Screen centre of a hex of size 1 (x right, y down).

    >>> tuple(round(v, 2) for v in pixel((0, 1)))
    (0.87, 1.5)
    """
    return (math.sqrt(3) * (h[0] + h[1] / 2), 1.5 * h[1])


def clockwise_key(h: Hex) -> float:
    """Angle of ``h`` seen from the centre, clockwise on screen from straight up, in [0, 360)."""
    x, y = pixel(h)
    return (math.degrees(math.atan2(y, x)) + 90) % 360


def parse_facing(value: object) -> int | None:
    """A facing from its name (any case) or ``None`` if it is not one.

    >>> parse_facing("se"), parse_facing("SE"), parse_facing("up")
    (5, 5, None)
    """
    if isinstance(value, str) and value.upper() in FACING_NAMES:
        return FACING_NAMES.index(value.upper())
    return None


ROWS = "ABCDEFGHIJKLMNOP"


def place_label(hex_: Hex | tuple[int, int] | list[int], radius: int) -> str:
    """A hex as a person reads it on a board of ``radius``: the row's letter (A at the top), the place in the
    row from the left (the table's and the terminal's names).

    >>> place_label((0, 0), 4), place_label((-1, -1), 4), place_label((1, 0), 4)
    ('E5', 'D3', 'E6')
    """
    q, r = int(hex_[0]), int(hex_[1])
    return f"{ROWS[r + radius]}{q - max(-radius, -radius - r) + 1}"
