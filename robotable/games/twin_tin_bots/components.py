"""The components of Twin Tin Bots, read from ``data/components.json`` and ``data/layouts.json``.

Tiles are the ints of :class:`Tile`: the 8 kinds of Order tile of each colour, then the 13 Special
Orders. Crystals are their point values (blue 2, green 3, pink 4).

>>> Tile.FORWARD_2.name.lower(), Tile.LONG_RANGE_ZAP in SPECIALS, len(ORDER_SET), len(SPECIALS)
('forward_2', True, 16, 13)
>>> CRYSTAL_NAMES[2], CRYSTAL_VALUES["pink"], SCORE_VICTORY[4]
('blue', 4, 9)
>>> sorted(LAYOUTS)
[2, 3, 4, 5, 6]
"""

from __future__ import annotations

import enum
import json
from importlib import resources
from typing import Any

from robotable.core.errors import Message, name

DATA: dict[str, Any] = json.loads(resources.files(__package__).joinpath("data/components.json").read_text())
LAYOUT_DATA: dict[str, Any] = json.loads(resources.files(__package__).joinpath("data/layouts.json").read_text())

_TILE_NAMES: list[str] = list(DATA["order_tiles"]) + list(DATA["special_orders"])
# The members come from the data file, which mypy cannot see: code names them by lookup, Tile["DASH"].
# mypy accepts only literal member names in the functional Enum API
Tile = enum.IntEnum("Tile", {name.upper(): i for i, name in enumerate(_TILE_NAMES)})  # type: ignore[misc]
Tile.__doc__ = "Every kind of Order and Special Order tile."
TILE_NAMES: tuple[str, ...] = tuple(_TILE_NAMES)

#: How many of each Order tile every colour owns (Double Modification included).
ORDER_COUNTS: dict[int, int] = {int(Tile[name.upper()]): n for name, n in DATA["order_tiles"].items()}
#: A colour's 16 Order tiles as a sorted list of kinds.
ORDER_SET: tuple[int, ...] = tuple(sorted(k for k, n in ORDER_COUNTS.items() for _ in range(n)))
SPECIALS: tuple[int, ...] = tuple(int(Tile[name.upper()]) for name in DATA["special_orders"])
ZAP_ORDERS: tuple[int, ...] = tuple(int(Tile[name.upper()]) for name in DATA["zap_orders"])

CRYSTAL_VALUES: dict[str, int] = dict(DATA["crystal_values"])
CRYSTAL_NAMES: dict[int, str] = {v: k for k, v in CRYSTAL_VALUES.items()}
CRYSTAL_KINDS: tuple[int, ...] = tuple(sorted(CRYSTAL_NAMES))
CRYSTALS_PER_KIND: int = DATA["crystals_per_colour"]
ALL_CRYSTALS: int = CRYSTALS_PER_KIND * len(CRYSTAL_KINDS)

ROBOTS_PER_COLOUR: int = DATA["robots_per_colour"]
SLOTS_PER_ROBOT: int = DATA["slots_per_robot"]
BOARD_SLOTS: int = ROBOTS_PER_COLOUR * SLOTS_PER_ROBOT
ZAP_RANGE: int = DATA["zap_range"]
COUNTDOWN: int = DATA["countdown_counters"]
SCORE_VICTORY: dict[int, int] = {int(k): v for k, v in DATA["score_victory"].items()}
TOKEN_LIMITS: dict[str, int] = dict(DATA["variant_tokens"])

#: Starting layouts by number of colours in play.
LAYOUTS: dict[int, dict[str, Any]] = {int(k): v for k, v in LAYOUT_DATA["layouts"].items()}
#: Every colour name a layout uses.
COLOUR_NAMES: tuple[str, ...] = tuple(sorted({c for lay in LAYOUTS.values() for c in lay["bases"]}))


def parse_tile(value: object) -> int | None:
    """A tile from its JSON name (any case), or ``None``.

    >>> parse_tile("Dash") == Tile.DASH, parse_tile("fly")
    (True, None)
    """
    if isinstance(value, str) and value.lower() in TILE_NAMES:
        return TILE_NAMES.index(value.lower())
    return None


def parse_crystal(value: object) -> int | None:
    """A crystal value from its colour name (``"blue"``...) or ``None``."""
    return CRYSTAL_VALUES.get(value) if isinstance(value, str) else None


# -- names in refusals: what the table shows (docs/i18n.md, "Engine refusals") ------------------------------


def colour_name(colour: str) -> Message:
    """A player (a colour) in a refusal, named as the table names them ("Red")."""
    return name(colour, "names.Colour")


def tile_name(tile: int) -> Message:
    """An order tile in a refusal: the English writes its id, people read its name."""
    return name(TILE_NAMES[tile], "names.tile")


def robot_name(robot: str) -> Message:
    """A robot ("red-A") in a refusal, named as the table names it ("Red A")."""
    colour, _, letter = robot.partition("-")
    if not letter:
        return colour_name(colour)
    return Message(robot, "names.robot", {"Colour": colour_name(colour), "letter": letter})


def slot_name(slot: int) -> Message:
    """A program slot (counted from 0 on the board of both robots) as the table labels it: "A1" to "B3"."""
    robot, n = divmod(slot, SLOTS_PER_ROBOT)
    letter = "AB"[robot] if robot in (0, 1) else str(robot)
    return Message(str(slot), "names.slot", {"robot": letter, "n": n + 1})
