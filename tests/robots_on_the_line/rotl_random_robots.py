"""Random finished robots and the hands that can sell them, for the assembly helper's property tests.

Grow a robot from a random torso, filling open ports with random parts of the catalogue and preferring
connectors that close a loop, then add batteries, spare parts and requirement and bonus tiles it meets.
Only the rules' own checks (:mod:`geometry`, :mod:`sale`) are used, never the helper, so the same hands
can be put to any version of the helper.
"""

from __future__ import annotations

from robotable.core import Rng
from robotable.games.robots_on_the_line.components import (
    BONUS_TILES,
    BUYERS,
    CONNECTORS,
    ENDS,
    PARTS,
    REQUIREMENTS,
    STEP,
    TORSOS,
    opposite,
    part_index,
    rotate_side,
)
from robotable.games.robots_on_the_line.geometry import assemble, measure, meets
from robotable.games.robots_on_the_line.sale import sale_breakdown
from robotable.games.robots_on_the_line.setup import contradicts

PLACED = [p for p in PARTS if p.kind in CONNECTORS + ENDS]
BATTERIES = [p for p in PARTS if p.kind == "battery"]


def _ports_at(part, rotation):
    return {rotate_side(side, rotation) for side, _ in part.ports}


def _fits(cell, sides, occupied, open_ports):
    """Whether a tile with ports ``sides`` on ``cell`` meets every neighbour port for port."""
    for q in range(4):
        nb = (cell[0] + STEP[q][0], cell[1] + STEP[q][1])
        if nb in occupied and (q in sides) != (opposite(q) in occupied[nb]):
            return False
        if nb not in occupied and q not in sides and (nb, opposite(q)) in open_ports:
            return False  # (cannot happen: open ports face empty cells; kept for clarity)
    return True


def random_robot(rng: Rng, max_tiles: int = 11):
    """A random finished robot as a layout, or None when the growth ran into a dead end."""
    torso = TORSOS[rng.randrange(len(TORSOS))]
    occupied = {cell: set() for cell in torso.cells}
    for cell, side, _ in torso.ports:
        occupied[cell].add(side)
    open_ports = [(cell, side) for cell, side, _ in torso.ports]
    layout = [(torso.id, 0, 0, 0)]
    used: set[int] = set()
    while open_ports:
        if len(layout) > max_tiles:
            return None
        cell, side = open_ports.pop(rng.randrange(len(open_ports)))
        target = (cell[0] + STEP[side][0], cell[1] + STEP[side][1])
        if target in occupied:
            return None
        facing = {
            q
            for q in range(4)
            if ((target[0] + STEP[q][0], target[1] + STEP[q][1]), opposite(q)) in open_ports or (q == opposite(side))
        }
        choices = []
        for _ in range(60):
            part = PLACED[rng.randrange(len(PLACED))]
            if part.index in used:
                continue
            wants_end = len(layout) > 6 or rng.random() < 0.55
            if (part.kind in ENDS and len(part.ports) == 1) != wants_end and len(facing) == 1:
                continue
            for rotation in range(4):
                sides = _ports_at(part, rotation)
                if facing <= sides and _fits(target, sides, occupied, open_ports):
                    choices.append((part, rotation, sides))
            if choices and (len(facing) == 1 or rng.random() < 0.9):
                break
        if not choices:
            return None
        closing = [c for c in choices if len(c[2] & facing) > 1]
        part, rotation, sides = closing[0] if closing else choices[rng.randrange(len(choices))]
        used.add(part.index)
        occupied[target] = sides
        layout.append((part.id, target[0], target[1], rotation))
        for q in sides:
            nb = (target[0] + STEP[q][0], target[1] + STEP[q][1])
            if nb in occupied:
                if (nb, opposite(q)) in open_ports:
                    open_ports.remove((nb, opposite(q)))
            else:
                open_ports.append((target, q))
    robot = assemble(layout)
    return layout if robot.finished else None


def has_loop(layout) -> bool:
    robot = assemble(layout)
    return len(robot.links) >= len(robot.tiles)


def random_sale(seed: int):
    """A hand, a buyer's tiles and a sale of that hand the rules accept, from a random robot."""
    rng = Rng(seed)
    layout = None
    while layout is None:
        layout = random_robot(rng)
    parts = [part_index(name) for name, *_ in layout[1:]]
    batteries = [BATTERIES[rng.randrange(len(BATTERIES))].index for _ in range(rng.randrange(3))]
    batteries = sorted(set(batteries))
    spare = [] if rng.random() < 0.5 else [PLACED[rng.randrange(len(PLACED))].index for _ in range(rng.randrange(4))]
    hand = sorted(set(parts + batteries + spare))
    m = measure(assemble(layout), batteries)
    reqs: list = []
    for r in [REQUIREMENTS[rng.randrange(len(REQUIREMENTS))] for _ in range(rng.randrange(3))]:
        if r.kind != "magnets" and meets(r, m) and r not in reqs and not contradicts(r, reqs):
            reqs.append(r)
    bonus = [BONUS_TILES[rng.randrange(len(BONUS_TILES))] for _ in range(rng.randrange(3))]
    buyer = BUYERS[rng.randrange(len(BUYERS))]
    value = sale_breakdown(buyer.pay, reqs, bonus, m)["total"]
    return layout, hand, reqs, bonus, buyer, batteries, value
