"""The components of Robots on the Line, read from ``data/catalogue.json`` and ``data/engine.json``.

The catalogue is the reconstruction of the printed tiles (shared/design/robots_on_the_line_catalogue.json,
shipped unchanged): every count, face and buyer comes from it, so a corrected catalogue is a data change.
Robot parts are the ints ``0..len(PARTS)-1`` and torsos the ints ``0..len(TORSOS)-1``; their JSON form is
the catalogue id (``"head-07"``, ``"torso-13"``).

>>> len(PARTS), len(TORSOS), PARTS[part_index("hand-01")].hands
(136, 20, 2)
>>> rotate_side(N, 1) == E, opposite(W) == E
(True, True)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from robotable.core.errors import Message, name

CATALOGUE: dict[str, Any] = json.loads(resources.files(__package__).joinpath("data/catalogue.json").read_text())
ENGINE: dict[str, Any] = json.loads(resources.files(__package__).joinpath("data/engine.json").read_text())

# -- sides of a grid cell: x grows to the right, y downward --------------------------------------------

N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = ("N", "E", "S", "W")
STEP: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))


def opposite(side: int) -> int:
    """The side facing ``side`` across a shared edge."""
    return (side + 2) % 4


def rotate_side(side: int, quarter_turns: int) -> int:
    """``side`` after turning a tile clockwise ``quarter_turns`` times (N -> E -> S -> W)."""
    return (side + quarter_turns) % 4


# -- tiles -------------------------------------------------------------------------------------------------

CONNECTORS = ("extender", "elbow", "splitter")
ENDS = ("head", "base", "hand", "antenna")  # tiles that end a segment


@dataclass(frozen=True, slots=True)
class Part:
    """A robot part tile: its kind, its ports (side, pink) in the default orientation, and its faces."""

    index: int
    id: str
    kind: str
    ports: tuple[tuple[int, bool], ...]
    icons: frozenset[str]
    eyes: int = 0
    hands: int = 0
    wheels: bool = False
    maintenance: bool = False
    style: str = ""

    @property
    def antenna(self) -> bool:
        """An antenna tile, or a head with the antenna icon (which counts as an antenna)."""
        return self.kind == "antenna" or (self.kind == "head" and "antenna" in self.icons)


@dataclass(frozen=True, slots=True)
class Torso:
    """A torso: one or two cells, a port per segment (cell, side, pink), and the bonus icons it carries."""

    index: int
    id: str
    segments: int
    cells: tuple[tuple[int, int], ...]
    ports: tuple[tuple[tuple[int, int], int, bool], ...]
    icons: frozenset[str]


def _part(i: int, d: dict[str, Any]) -> Part:
    return Part(
        index=i,
        id=d["id"],
        kind=d["kind"],
        ports=tuple((SIDE_NAMES.index(p["side"]), bool(p.get("pink", False))) for p in d["ports"]),
        icons=frozenset(d.get("icons", ())),
        eyes=d.get("eyes", 0),
        hands=d.get("hands", 0),
        wheels=bool(d.get("wheels", False)),
        maintenance=bool(d.get("maintenance", False)),
        style=d.get("style", ""),
    )


def _torso(i: int, d: dict[str, Any]) -> Torso:
    return Torso(
        index=i,
        id=d["id"],
        segments=d["segments"],
        cells=tuple((c[0], c[1]) for c in d["cells"]),
        ports=tuple(
            ((p["cell"][0], p["cell"][1]), SIDE_NAMES.index(p["side"]), bool(p.get("pink", False))) for p in d["ports"]
        ),
        icons=frozenset(d.get("icons", ())),
    )


PARTS: tuple[Part, ...] = tuple(_part(i, d) for i, d in enumerate(CATALOGUE["parts"]))
TORSOS: tuple[Torso, ...] = tuple(_torso(i, d) for i, d in enumerate(CATALOGUE["torsos"]))
PART_IDS: dict[str, int] = {p.id: p.index for p in PARTS}
TORSO_IDS: dict[str, int] = {t.id: t.index for t in TORSOS}
MAGNETS: frozenset[int] = frozenset(p.index for p in PARTS if p.kind == "magnet")
KINDS: tuple[str, ...] = tuple(dict.fromkeys(p.kind for p in PARTS))


def part_index(part_id: str) -> int:
    """The int of the part with catalogue id ``part_id`` (KeyError if there is none)."""
    return PART_IDS[part_id]


def torso_index(torso_id: str) -> int:
    """The int of the torso with catalogue id ``torso_id`` (KeyError if there is none)."""
    return TORSO_IDS[torso_id]


# -- buyers, requirement and bonus tiles ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Requirement:
    """A requirement tile: its kind (see the catalogue's requirement_kinds), $ bonus and parameter."""

    index: int
    id: str
    kind: str
    bonus: int
    eyes: int = 0
    min_tiles: int = 0
    count: int = 0

    def text(self) -> str:
        """The requirement in players' words.

        >>> REQUIREMENTS[0].text()
        'exactly 1 eye'
        """
        return {
            "eyes": f"exactly {self.eyes} eye{'s' * (self.eyes != 1)}",
            "tall": f"at least {self.min_tiles} tiles tall",
            "wide": f"at least {self.min_tiles} tiles wide",
            "long_arm": f"an arm at least {self.min_tiles} tiles long",
            "extender": "at least one extender",
            "splitter": "at least one splitter",
            "elbow": "at least one elbow",
            "two_heads": "exactly two heads",
            "magnets": f"{self.count} magnets handed over",
            "no_wheels": "no wheels",
            "hands": f"exactly {self.count} hands",
            "symmetry": "symmetric",
        }[self.kind]


@dataclass(frozen=True, slots=True)
class BonusTile:
    """A bonus tile: paid from the bank when the robot shows every one of its icons."""

    index: int
    id: str
    icons: frozenset[str]
    value: int


@dataclass(frozen=True, slots=True)
class Buyer:
    """A buyer board: pays ``pay`` per robot for ``robots`` robots; slots for requirement and bonus tiles."""

    index: int
    id: str
    name: str
    robots: int
    pay: int
    requirement_slots: int
    bonus_slots: int


REQUIREMENT_KINDS: tuple[str, ...] = tuple(CATALOGUE["requirement_kinds"])
REQUIREMENTS: tuple[Requirement, ...] = tuple(
    Requirement(i, d["id"], d["kind"], d.get("bonus", 0), d.get("eyes", 0), d.get("min_tiles", 0), d.get("count", 0))
    for i, d in enumerate(CATALOGUE["requirement_tiles"])
)
BONUS_TILES: tuple[BonusTile, ...] = tuple(
    BonusTile(i, d["id"], frozenset(d["icons"]), d["value"]) for i, d in enumerate(CATALOGUE["bonus_tiles"])
)
BUYERS: tuple[Buyer, ...] = tuple(
    Buyer(i, d["id"], d["name"], d["robots"], d["pay"], d["requirement_slots"], d["bonus_slots"])
    for i, d in enumerate(CATALOGUE["buyers"])
)
REQUIREMENT_IDS: dict[str, int] = {r.id: r.index for r in REQUIREMENTS}
BONUS_IDS: dict[str, int] = {b.id: b.index for b in BONUS_TILES}
BUYER_IDS: dict[str, int] = {b.id: b.index for b in BUYERS}
#: Buyers in play by player count: all eight with 4 players, seven with 3, six with 2.
BUYERS_IN_PLAY: dict[int, int] = {4: len(BUYERS), 3: len(BUYERS) - 1, 2: len(BUYERS) - 2}

MAINTENANCE: tuple[str, ...] = tuple(t["kind"] for t in CATALOGUE["maintenance_tiles"])
MAINTENANCE_KINDS: tuple[str, ...] = tuple(dict.fromkeys(MAINTENANCE))

# -- the bargain hunter, the start and the line ------------------------------------------------------------

HUNTER: dict[str, Any] = CATALOGUE["bargain_hunter"]
HUNTER_ANY: int = HUNTER["any_part"]
HUNTER_FEATURED: int = HUNTER["featured_part"]
HUNTER_KINDS: tuple[str, ...] = tuple(HUNTER["featured_kinds"])
HUNTER_NEVER: frozenset[str] = frozenset(HUNTER["never"])

START_MONEY: int = CATALOGUE["start"]["money"]
START_PARTS: int = CATALOGUE["start"]["parts"]
JUNK_START: int = CATALOGUE["start"]["junk_pile_tiles"]

LINES: int = CATALOGUE["line"]["lines"]
SPACES: int = CATALOGUE["line"]["spaces"]
#: For each section: its spaces (1-based, space 1 at the draw pile) and whether its switch starts ON.
SECTIONS: tuple[tuple[tuple[int, ...], bool], ...] = tuple(
    (tuple(s["spaces"]), s["switch_default"] == "on") for s in CATALOGUE["line"]["sections"]
)
SECTION_OF: dict[int, int] = {space: i for i, (spaces, _) in enumerate(SECTIONS) for space in spaces}

BANK: int = ENGINE["bank_dollars"]
ROBOTS_TO_END: int = ENGINE["robots_to_end"]
COSTS: dict[str, int] = ENGINE["costs"]
JUNK_TRADES: int = ENGINE["junk_trades_per_turn"]
OFFERS_PER_TURN: int = ENGINE["offers_per_turn_to_each_player"]
NEW_TILES_AFTER_SALE: int = ENGINE["new_tiles_after_sale"]
PINK_PAIR: int = ENGINE["pink_pair_bonus"]
MAGNET_PENALTY: int = ENGINE["magnet_penalty"]


def _check_catalogue() -> None:
    """Catch data errors at import rather than in the middle of a game."""
    for r in REQUIREMENTS:
        if r.kind not in REQUIREMENT_KINDS:
            raise ValueError(f"catalogue: requirement tile {r.id} has unknown kind {r.kind!r}")
    for p in PARTS:
        if p.kind in CONNECTORS + ENDS and not p.ports:
            raise ValueError(f"catalogue: part {p.id} has no port")
    for kind in HUNTER_KINDS:
        if kind not in KINDS:
            raise ValueError(f"catalogue: the bargain hunter features unknown kind {kind!r}")
    if SECTION_OF.keys() != set(range(1, SPACES + 1)):
        raise ValueError("catalogue: the line sections do not cover every space once")


_check_catalogue()


# -- names in refusals: what the table shows (docs/i18n.md, "Engine refusals") ------------------------------


def tile_name(tile: str) -> Message:
    """A part or torso id in a refusal, read as the table names it (``names.parts`` / ``names.torsos``)."""
    return name(tile, "names.torsos" if tile in TORSO_IDS else "names.parts")


def buyer_name(buyer: Buyer) -> Message:
    """A buyer in a refusal: the English writes its name, people read the catalogue's."""
    return Message(buyer.name, f"names.buyers.{buyer.id}")


def buyer_id_name(buyer_id: str) -> Message:
    """A buyer named by its id in a refusal (an id that is no buyer reads as itself)."""
    return name(buyer_id, "names.buyers")


def kind_name(kind: str) -> Message:
    """A kind of part in a refusal ("Head")."""
    return name(kind, "names.kinds")


def switch_name(line: int, section: int) -> Message:
    """A switch in a refusal (the English writes ``[line, section]``), read as the table names it."""
    spaces = "ui.spaces_4_6" if section else "ui.spaces_1_3"
    return Message(str([line, section]), "ui.switch_name", {"line": line, "spaces": Message("", spaces)})
