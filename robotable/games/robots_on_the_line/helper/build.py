"""A robot the search found, built like any player's layout: checked by :mod:`..geometry`, with the
fewest batteries sold alongside that earn the most bonus tiles, and priced by :mod:`..sale`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..components import PARTS
from ..geometry import Measures, Robot, assemble, measure, meets
from ..sale import sale_breakdown
from .tiles import Cell, Sig, Slot

if TYPE_CHECKING:
    from .skeletons import Search


@dataclass(frozen=True, slots=True)
class Assembly:
    """A finished robot for a buyer: its layout, what is sold alongside, its measures and its price."""

    layout: tuple[tuple[str, int, int, int], ...]
    batteries: tuple[str, ...]
    magnets: tuple[str, ...]
    measures: Measures
    value: int
    breakdown: tuple[tuple[str, int], ...]


def build(
    search: Search, placed: list[tuple[Sig, Cell, int]], slots: list[Slot], chosen: tuple[Sig, ...]
) -> Assembly | None:
    """The robot of a skeleton and its ends, checked by the geometry module like any player's layout
    (None if it fails: the search's shortcuts are only estimates for robots with loops)."""
    used: dict[int, int] = {}

    def take(sig: Sig) -> str:
        k = used.get(id(sig), 0)
        used[id(sig)] = k + 1
        return PARTS[sig.parts[k]].id

    layout = [(search.torso.id, 0, 0, 0)]
    for sig, (x, y), rotation in placed:
        layout.append((take(sig), x, y, rotation))
    for ((x, y), facing, _, _), sig in zip(slots, chosen):
        layout.append((take(sig), x, y, (facing - sig.port[0]) % 4))
    robot = assemble(layout)
    if not robot.finished:
        return None
    batteries = _batteries(search, robot)
    m = measure(robot, batteries)
    magnets = tuple(PARTS[p].id for p in search.magnets[: search.magnets_needed])
    if not all(meets(r, m, len(magnets)) for r in search.reqs):
        return None
    breakdown = sale_breakdown(search.pay, search.reqs, search.bonuses, m)
    return Assembly(
        tuple(layout),
        tuple(PARTS[b].id for b in batteries),
        magnets,
        m,
        breakdown["total"],
        tuple(breakdown.items()),
    )


def _batteries(search: Search, robot: Robot) -> list[int]:
    """The fewest batteries sold alongside that earn the most bonus tiles (one each of a kind of icons)."""
    useful: dict[int, int] = {}
    for b in search.batteries:
        bits = search.buyer.bits(PARTS[b].icons)
        if bits and bits not in useful:
            useful[bits] = b
    best: tuple[int, int, list[int]] = (_value(search, measure(robot, [])), 0, [])
    choices = list(useful.values())
    if len(choices) > 8:  # (never with the shipped catalogue) all of them earn at least as much
        return choices
    for mask in range(1, 1 << len(choices)):
        picked = [b for k, b in enumerate(choices) if mask >> k & 1]
        value = _value(search, measure(robot, picked))
        if (value, -len(picked)) > (best[0], -best[1]):
            best = (value, len(picked), picked)
    return best[2]


def _value(search: Search, m: Measures) -> int:
    return sale_breakdown(search.pay, search.reqs, search.bonuses, m)["total"]
