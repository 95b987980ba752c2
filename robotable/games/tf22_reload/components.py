"""The components of TF22: RELOAD!, read from ``data/components.json``.

Colours are ints in stacking order, bottom to top: a container may only go on a lower colour.
A container card is the int ``colour * 4 + value``.

>>> Colour.GREEN > Colour.YELLOW, card(Colour.BLUE, 2), card_colour(10), card_value(10)
(True, 10, 2, 2)
"""

from __future__ import annotations

import enum
import json
from importlib import resources

DATA = json.loads(resources.files(__package__).joinpath("data/components.json").read_text())

COLOUR_NAMES: tuple[str, ...] = tuple(DATA["colours"])
# The members are read from the data file, which mypy cannot see (it types Colour as an IntEnum all the same).
# mypy accepts only literal member names in the functional Enum API
Colour = enum.IntEnum("Colour", {name.upper(): i for i, name in enumerate(COLOUR_NAMES)})  # type: ignore[misc]
Colour.__doc__ = "Container colours in stacking order (yellow at the bottom, green on top)."
NUM_COLOURS = len(COLOUR_NAMES)

#: BEATS[a][b]: colour a beats colour b when the two container cards are revealed.
BEATS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(COLOUR_NAMES[b] in DATA["colour_beats"][COLOUR_NAMES[a]] for b in range(NUM_COLOURS))
    for a in range(NUM_COLOURS)
)

CARD_VALUES: tuple[int, ...] = tuple(DATA["container_card_values"])
#: The whole container-card deck, one int per card.
DECK: tuple[int, ...] = tuple(c * 4 + v for c in range(NUM_COLOURS) for v in CARD_VALUES)
CARDS_PER_BATTLE: int = DATA["cards_per_battle"]
BATTLES_PER_ROUND = len(DECK) // CARDS_PER_BATTLE
ROUNDS: int = DATA["rounds"]

CONTAINERS_PER_COLOUR: int = DATA["containers_per_colour"]
CHIPCARDS: int = DATA["chipcards"]
RCU_VALUES: tuple[int, ...] = tuple(DATA["rcu_values"])
NEUTRALIZER: int = DATA["neutralizer"]
NEUTRALIZED: int = DATA["neutralized"]
SLOTS_BY_PLAYERS: dict[int, int] = {int(k): v for k, v in DATA["slots_by_players"].items()}
MAX_SLOTS = max(SLOTS_BY_PLAYERS.values())
FULL_STACK_BONUS: int = DATA["full_stack_bonus"]
RELOAD_COSTS: dict[str, int] = DATA["reload_costs"]


def card(colour: int, value: int) -> int:
    """The int for a container card."""
    return colour * 4 + value


def card_colour(c: int) -> int:
    """A container card's colour."""
    return c >> 2


def card_value(c: int) -> int:
    """A container card's face value."""
    return c & 3


def card_json(c: int) -> list[str | int]:
    """A card as ``[colour name, value]``."""
    return [COLOUR_NAMES[c >> 2], c & 3]
