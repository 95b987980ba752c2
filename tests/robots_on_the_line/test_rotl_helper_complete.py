"""The assembly helper is complete: whenever a hand can make a sale that ``apply`` accepts, the helper
finds one worth at least as much (or says it stopped early), robots that need a loop of tiles included.

Hands are built from random finished robots: grow a robot from a random torso, filling open ports with
random parts of the catalogue and preferring connectors that close a loop, then add spare parts.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from robotable.core import Rng
from robotable.games.robots_on_the_line import GAME, SellRobot
from robotable.games.robots_on_the_line.assembly import search
from robotable.games.robots_on_the_line.components import (
    BONUS_TILES,
    BUYER_IDS,
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
    torso_index,
)
from robotable.games.robots_on_the_line.geometry import assemble, measure, meets
from robotable.games.robots_on_the_line.sale import sale_breakdown
from robotable.games.robots_on_the_line.setup import contradicts

from .rotl_positions import set_buyer, set_hand

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


@settings(max_examples=2000, deadline=None)
@given(st.integers(min_value=0, max_value=2**40))
def test_the_helper_finds_a_sale_worth_at_least_any_sale_the_rules_accept(seed):
    layout, hand, reqs, bonus, buyer, _, value = random_sale(seed)
    torso = torso_index(layout[0][0])
    answer = search(hand, torso, reqs, bonus, buyer.pay)
    assert answer.assembly is not None or not answer.complete, f"seed {seed}: the helper found no robot"
    if answer.complete:
        assert answer.assembly.value >= value, f"seed {seed}: the helper's robot pays less"
    if answer.assembly is not None:  # what the helper offers, the rules accept
        robot = assemble(answer.assembly.layout)
        assert robot.finished and all(meets(r, answer.assembly.measures) for r in reqs)


def test_random_robots_include_many_that_need_a_loop_and_the_helper_builds_them():
    loops = found = 0
    for seed in range(300):
        layout, hand, reqs, bonus, buyer, _, value = random_sale(seed)
        if has_loop(layout):
            loops += 1
            answer = search(hand, torso_index(layout[0][0]), reqs, bonus, buyer.pay)
            found += answer.assembly is not None and answer.assembly.value >= value
    assert loops >= 15, loops
    assert found == loops


def test_the_issue_example_a_robot_closed_by_two_elbows_is_listed_and_sold():
    """base-15, elbow-01, elbow-05, base-01, head-11, base-20 with torso-20 for buyer-4 (no requirements):
    the two elbows close both of the torso's S ports; no tree-shaped robot uses this hand."""
    names = ["base-15", "elbow-01", "elbow-05", "base-01", "head-11", "base-20"]
    layout = (
        ("torso-20", 0, 0, 0),
        ("elbow-05", 0, 1, 2),
        ("elbow-01", 1, 1, 1),
        ("head-11", 1, -1, 0),
        ("base-01", 2, 0, 3),
        ("base-15", -1, 0, 1),
        ("base-20", 0, -1, 2),
    )
    assert assemble(layout).finished and has_loop(layout)
    state = GAME.start(4, seed=5)
    set_buyer(state, "buyer-4", [], [])
    set_hand(state, 0, names, torso="torso-20")
    sales = [a for a in state.legal_actions(0) if isinstance(a, SellRobot) and a.buyer == "buyer-4"]
    assert len(sales) == 1 and has_loop(sales[0].layout)
    mine = SellRobot("buyer-4", layout, (), ())
    assert state.is_legal(0, mine)
    slot = state.buyers.index(BUYER_IDS["buyer-4"])
    before = state.money[0]
    state.apply(0, sales[0])
    assert state.money[0] - before >= BUYERS[state.buyers[slot]].pay
