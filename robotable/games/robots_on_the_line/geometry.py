"""Robot geometry: tiles on a square grid, finished robots, and what a robot measures.

A layout is a sequence of ``(tile id, x, y, rotation)``: x grows to the right, y downward, rotation in
clockwise quarter turns (0 to 3; torsos never rotate). A torso's cells are offset by its ``(x, y)``.
Two tiles connect where ports face each other across a shared side; any port may meet any port. A port
that faces nothing, or faces a tile without a port there, is open.

>>> inventor = [("torso-07", 0, 0, 0), ("head-01", 0, -1, 0), ("base-07", 0, 1, 0),
...             ("hand-16", 1, 0, 0), ("hand-20", -1, 0, 2)]
>>> robot = assemble(inventor)
>>> robot.problems
[]
>>> m = measure(robot)
>>> m.eyes, m.hands, m.tall, m.wide, m.symmetric
(1, 2, 3, 3, True)
>>> assemble([("torso-07", 0, 0, 0), ("head-01", 0, -1, 0)]).problems[0]
'open port: torso-07 at (0, 0) side E faces nothing'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .components import (
    CONNECTORS,
    ENDS,
    PART_IDS,
    PARTS,
    SIDE_NAMES,
    STEP,
    TORSO_IDS,
    TORSOS,
    E,
    Part,
    Requirement,
    W,
    opposite,
    rotate_side,
)

Cell = tuple[int, int]
LayoutItem = tuple[str, int, int, int]


@dataclass(slots=True)
class TileAt:
    """One placed tile: its id, kind, the cells it fills and its ports as ``(cell, side, pink)``."""

    id: str
    kind: str
    cells: list[Cell]
    ports: list[tuple[Cell, int, bool]]
    part: int = -1  # index in PARTS, or -1 for the torso
    torso: int = -1  # index in TORSOS, or -1 for a part


@dataclass(slots=True)
class Robot:
    """A layout put on the grid: its tiles, which cell holds which tile, the links, and its problems.

    ``problems`` is empty exactly when the robot is finished (one torso, a head, a base, connected, no
    overlaps, no open port).
    """

    tiles: list[TileAt]
    owner: dict[Cell, int]
    links: list[tuple[int, int, bool]]  # (tile a, tile b, both ports pink)
    problems: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """Whether the robot can be sold (to a buyer whose requirements it meets)."""
        return not self.problems


def place(tile_id: str, x: int, y: int, rotation: int = 0) -> TileAt:
    """Put one tile on the grid; ``ValueError`` for an unknown tile, a bad rotation or a turned torso.

    >>> place("elbow-01", 2, 3, 1).ports     # W,S turned a quarter clockwise: N,W
    [((2, 3), 0, False), ((2, 3), 3, False)]
    """
    if not isinstance(rotation, int) or isinstance(rotation, bool) or not 0 <= rotation <= 3:
        raise ValueError(f"{tile_id}: rotation must be 0 to 3 quarter turns, got {rotation!r}")
    if tile_id in TORSO_IDS:
        if rotation:
            raise ValueError(f"{tile_id}: torsos do not rotate (rotation must be 0)")
        t = TORSOS[TORSO_IDS[tile_id]]
        return TileAt(
            t.id,
            "torso",
            [(x + cx, y + cy) for cx, cy in t.cells],
            [((x + c[0], y + c[1]), side, pink) for c, side, pink in t.ports],
            torso=t.index,
        )
    if tile_id in PART_IDS:
        p = PARTS[PART_IDS[tile_id]]
        if p.kind not in CONNECTORS + ENDS:
            raise ValueError(f"{tile_id}: a {p.kind} is not placed on a robot")
        ports = sorted(((x, y), rotate_side(side, rotation), pink) for side, pink in p.ports)
        return TileAt(p.id, p.kind, [(x, y)], ports, part=p.index)
    raise ValueError(f"unknown tile {tile_id!r}")


def assemble(layout: Iterable[Sequence[object]]) -> Robot:
    """Place every tile of ``layout`` and list what keeps the robot from being finished."""
    problems: list[str] = []
    tiles = _place_all(layout, problems)
    owner: dict[Cell, int] = {}
    for i, tile in enumerate(tiles):
        for cell in tile.cells:
            if cell in owner:
                problems.append(f"{tiles[owner[cell]].id} and {tile.id} overlap at {cell}")
            else:
                owner[cell] = i
    links = _connect(tiles, owner, problems)
    _check_kinds(tiles, problems)
    if tiles:
        _check_connected(tiles, links, problems)
    return Robot(tiles, owner, links, problems)


def _check_kinds(tiles: list[TileAt], problems: list[str]) -> None:
    """Exactly one torso, a head and a base."""
    torsos = [t for t in tiles if t.kind == "torso"]
    if not torsos:
        problems.append("no torso (a robot has exactly one)")
    elif len(torsos) > 1:
        problems.append(f"{len(torsos)} torsos ({', '.join(t.id for t in torsos)}): a robot has exactly one")
    if not any(t.kind == "head" for t in tiles):
        problems.append("no head")
    if not any(t.kind == "base" for t in tiles):
        problems.append("no base")


def _check_connected(tiles: list[TileAt], links: list[tuple[int, int, bool]], problems: list[str]) -> None:
    """Every tile reached from the torso (or the first tile, without one)."""
    start = next((i for i, t in enumerate(tiles) if t.kind == "torso"), 0)
    reached = _reach(len(tiles), links, start, -1)
    for i, tile in enumerate(tiles):
        if i not in reached:
            problems.append(f"{tile.id} at {tile.cells[0]} is not connected to the {tiles[start].id}")


def _place_all(layout: Iterable[Sequence[object]], problems: list[str]) -> list[TileAt]:
    """The layout's tiles placed (each entry that cannot be is a problem)."""
    tiles: list[TileAt] = []
    seen: set[str] = set()
    for item in layout:
        if len(item) != 4:
            problems.append(f"a layout entry is [tile, x, y, rotation], got {list(item)!r}")
            continue
        tile_id, x, y, rotation = item
        if not isinstance(tile_id, str) or not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y)):
            problems.append(f"a layout entry is [tile id, x, y, rotation], got {list(item)!r}")
            continue
        if tile_id in seen:
            problems.append(f"{tile_id} is placed twice")
            continue
        seen.add(tile_id)
        try:
            # x and y are ints (checked above, but mypy cannot narrow through all()); place() checks rotation
            tiles.append(place(tile_id, x, y, rotation))  # type: ignore[arg-type]
        except ValueError as exc:
            problems.append(str(exc))
    return tiles


def _connect(tiles: list[TileAt], owner: dict[Cell, int], problems: list[str]) -> list[tuple[int, int, bool]]:
    """The links between tiles (i < j, pink when both ports are); a port not met by a port is a problem."""
    links: list[tuple[int, int, bool]] = []
    port_at = {(cell, side): (i, pink) for i, tile in enumerate(tiles) for cell, side, pink in tile.ports}
    for i, tile in enumerate(tiles):
        for cell, side, pink in tile.ports:
            nb = (cell[0] + STEP[side][0], cell[1] + STEP[side][1])
            j = owner.get(nb)
            where = f"{tile.id} at {cell} side {SIDE_NAMES[side]}"
            if j is None:
                problems.append(f"open port: {where} faces nothing")
            elif j == i:
                problems.append(f"open port: {where} faces its own tile")
            elif (nb, opposite(side)) not in port_at:
                problems.append(f"open port: {where} faces {tiles[j].id}, which has no port there")
            elif i < j:
                links.append((i, j, pink and port_at[nb, opposite(side)][1]))
    return links


def _reach(n: int, links: list[tuple[int, int, bool]], start: int, avoid: int) -> set[int]:
    adjacent: list[list[int]] = [[] for _ in range(n)]
    for a, b, _ in links:
        adjacent[a].append(b)
        adjacent[b].append(a)
    seen = {start}
    todo = [start]
    while todo:
        i = todo.pop()
        for j in adjacent[i]:
            if j not in seen and j != avoid:
                seen.add(j)
                todo.append(j)
    return seen


@dataclass(frozen=True, slots=True)
class Measures:
    """What a robot shows, from which every requirement and bonus is decided."""

    eyes: int
    heads: int
    bases: int
    hands: int
    tall: int
    wide: int
    long_arm: int
    symmetric: bool
    extenders: int
    splitters: int
    elbows: int
    wheels: bool
    icons: frozenset[str]
    pink_pairs: int


def measure(robot: Robot, sold_with: Iterable[int] = ()) -> Measures:
    """Measure a placed robot; ``sold_with`` are parts sold alongside it (batteries) for their icons."""
    tiles = robot.tiles
    parts = [PARTS[t.part] for t in tiles if t.part >= 0]
    heads = [(t, PARTS[t.part]) for t in tiles if t.kind == "head"]
    bases = [(t, PARTS[t.part]) for t in tiles if t.kind == "base"]
    kinds = Counter(p.kind for p in parts)
    return Measures(
        eyes=sum(p.eyes for _, p in heads),
        heads=len(heads),
        bases=len(bases),
        hands=sum(p.hands for p in parts if p.kind == "hand"),
        tall=_tall(heads, bases),
        wide=_wide(tiles),
        long_arm=_long_arm(robot),
        symmetric=_symmetric(robot),
        extenders=kinds["extender"],
        splitters=kinds["splitter"],
        elbows=kinds["elbow"],
        wheels=any(p.wheels for _, p in bases),
        icons=_icons(tiles, parts, sold_with),
        pink_pairs=sum(pink for _, _, pink in robot.links),
    )


def _icons(tiles: list[TileAt], parts: list[Part], sold_with: Iterable[int]) -> frozenset[str]:
    """The icons of the robot's parts and torso and of the parts sold alongside."""
    icons: set[str] = set()
    for p in parts:
        icons |= p.icons
    for t in tiles:
        if t.torso >= 0:
            icons |= TORSOS[t.torso].icons
    for i in sold_with:
        icons |= PARTS[i].icons
    return frozenset(icons)


def _tall(heads: list[tuple[TileAt, Part]], bases: list[tuple[TileAt, Part]]) -> int:
    """Rows from the highest head to the lowest base (0 without both)."""
    if not heads or not bases:
        return 0
    return max(0, max(t.cells[0][1] for t, _ in bases) - min(t.cells[0][1] for t, _ in heads) + 1)


def _wide(tiles: list[TileAt]) -> int:
    """Columns from the leftmost to the rightmost hand or antenna (0 without any)."""
    reach_x = [t.cells[0][0] for t in tiles if t.part >= 0 and _ends_arm(PARTS[t.part])]
    return max(reach_x) - min(reach_x) + 1 if reach_x else 0


def _ends_arm(part: Part) -> bool:
    return part.kind == "hand" or part.antenna


def _long_arm(robot: Robot) -> int:
    """The widest arm (tiles reached from one torso side port) that ends in a hand or antenna."""
    tiles = robot.tiles
    torso = next((i for i, t in enumerate(tiles) if t.kind == "torso"), -1)
    if torso < 0:
        return 0
    best = 0
    for cell, side, _ in tiles[torso].ports:
        if side not in (E, W):
            continue
        nb = robot.owner.get((cell[0] + STEP[side][0], cell[1] + STEP[side][1]))
        if nb is None or not any({a, b} == {torso, nb} for a, b, _ in robot.links):
            continue
        arm = _reach(len(tiles), robot.links, nb, torso)
        if any(tiles[i].part >= 0 and _ends_arm(PARTS[tiles[i].part]) for i in arm):
            xs = [tiles[i].cells[0][0] for i in arm]
            best = max(best, max(xs) - min(xs) + 1)
    return best


def _symmetric(robot: Robot) -> bool:
    """The tiles left of the torso mirror those on its right, kind by kind (and hand count) cell by cell."""
    torso = next((t for t in robot.tiles if t.kind == "torso"), None)
    if torso is None:
        return False
    xs = [x for x, _ in torso.cells]
    axis2 = min(xs) + max(xs)  # twice the x of the torso's middle
    look: dict[Cell, tuple[str, int]] = {}
    for t in robot.tiles:
        if t.part >= 0:
            look[t.cells[0]] = (t.kind, PARTS[t.part].hands)
    return all(2 * x == axis2 or look.get((axis2 - x, y)) == key for (x, y), key in look.items())


# -- requirements ---------------------------------------------------------------------------------------


def meets(req: Requirement, m: Measures, magnets: int = 0) -> bool:
    """Whether a robot with measures ``m`` (handed over with ``magnets`` magnets) meets ``req``.

    >>> from robotable.games.robots_on_the_line.components import REQUIREMENTS
    >>> robot = measure(assemble([("torso-04", 0, 0, 0), ("head-14", 0, -1, 0), ("base-01", 0, 1, 0),
    ...                           ("hand-20", -1, 0, 2)]))
    >>> [r.id for r in REQUIREMENTS if meets(r, robot)]    # 3 eyes; wheels, one hand, asymmetric
    ['req-03', 'req-04']
    """
    kind = req.kind
    if kind == "eyes":
        return m.eyes == req.eyes
    if kind == "tall":
        return m.tall >= req.min_tiles
    if kind == "wide":
        return m.wide >= req.min_tiles
    if kind == "long_arm":
        return m.long_arm >= req.min_tiles
    if kind == "extender":
        return m.extenders >= 1
    if kind == "splitter":
        return m.splitters >= 1
    if kind == "elbow":
        return m.elbows >= 1
    if kind == "two_heads":
        return m.heads == 2
    if kind == "magnets":
        return magnets == req.count
    if kind == "no_wheels":
        return not m.wheels
    if kind == "hands":
        return m.hands == req.count
    if kind == "symmetry":
        return m.symmetric
    raise ValueError(f"unknown requirement kind {kind!r}")


def shortfall(req: Requirement, m: Measures, magnets: int = 0) -> str:
    """Why ``req`` is not met, in players' words ('' when it is)."""
    if meets(req, m, magnets):
        return ""
    have = {
        "eyes": f"{m.eyes} eyes",
        "tall": f"{m.tall} tiles tall",
        "wide": f"{m.wide} tiles wide",
        "long_arm": f"longest arm {m.long_arm} tiles",
        "extender": "no extender",
        "splitter": "no splitter",
        "elbow": "no elbow",
        "two_heads": f"{m.heads} heads",
        "magnets": f"{magnets} magnets handed over",
        "no_wheels": "a base with wheels",
        "hands": f"{m.hands} hands",
        "symmetry": "not symmetric",
    }[req.kind]
    return f"{req.id} needs {req.text()}, the robot has {have}"
