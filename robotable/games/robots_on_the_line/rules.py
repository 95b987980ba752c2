"""The rules of Robots on the Line as pure functions on plain data.

A line is a list of ``SPACES`` entries, space 1 first (next to the draw pile); an entry is a part int
or ``EMPTY``. Piles are lists with their top last.

>>> line = [EMPTY, part_index("head-01"), part_index("magnet-01"), part_index("hand-20"), EMPTY, EMPTY]
>>> magnet_unit(line, 3)        # the magnet on space 3 pulls the head on space 2 (space 1 is empty)
[2, 3]
>>> magnet_unit(line, 4)
[4]
"""

from __future__ import annotations

from collections.abc import Sequence

from .components import (
    MAGNETS,
    PINK_PAIR,
    SECTION_OF,
    BonusTile,
    Requirement,
    part_index,  # noqa: F401  (used by the doctest)
)
from .geometry import Measures

EMPTY = -1

# -- the production line -----------------------------------------------------------------------------------


def magnet_unit(line: Sequence[int], space: int) -> list[int]:
    """The spaces (1-based, ascending) taken together with the part on ``space``.

    A magnet on space i pulls the parts on spaces i-1 and i-2 toward the draw pile, stopping at an empty
    space; a magnet in the unit extends it the same way; a part is joined to a magnet pulling it.
    """
    n = len(line)
    links: dict[int, set[int]] = {s: set() for s in range(1, n + 1)}
    for s in range(1, n + 1):
        if line[s - 1] in MAGNETS:
            prev = s
            for pulled in (s - 1, s - 2):
                if pulled < 1 or line[pulled - 1] == EMPTY:
                    break
                links[prev].add(pulled)
                links[pulled].add(prev)
                prev = pulled
    unit = {space}
    todo = [space]
    while todo:
        s = todo.pop()
        for t in links[s]:
            if t not in unit:
                unit.add(t)
                todo.append(t)
    return sorted(unit)


def magnet_units(line: Sequence[int]) -> list[list[int]]:
    """Every unit of occupied spaces on a line, in space order.

    >>> magnet_units([part_index("magnet-01"), part_index("head-01"), part_index("magnet-02"), EMPTY, 3, 4])
    [[1, 2, 3], [5], [6]]
    """
    units: list[list[int]] = []
    done: set[int] = set()
    for s in range(1, len(line) + 1):
        if line[s - 1] != EMPTY and s not in done:
            unit = magnet_unit(line, s)
            done.update(unit)
            units.append(unit)
    return units


def section(space: int) -> int:
    """The switch section (0 = spaces 1-3, 1 = spaces 4-6) that ``space`` belongs to."""
    return SECTION_OF[space]


def advance(line: list[int], junk_pile: list[int]) -> int:
    """Move every part one space toward the junk pile; the part leaving the last space goes on the pile.

    Returns the part that left the line (``EMPTY`` if none).

    >>> line, pile = [EMPTY, 1, 2, EMPTY, EMPTY, 3], [7]
    >>> advance(line, pile), line, pile
    (3, [-1, -1, 1, 2, -1, -1], [7, 3])
    """
    leaving = line[-1]
    if leaving != EMPTY:
        junk_pile.append(leaving)
    line[1:] = line[:-1]
    line[0] = EMPTY
    return leaving


def clear_line(line: list[int], junk_pile: list[int]) -> list[int]:
    """Line Reset: discard the line to its junk pile, the part nearest the pile first.

    >>> line, pile = [1, EMPTY, 2, 3, EMPTY, 4], []
    >>> clear_line(line, pile), line, pile
    ([4, 3, 2, 1], [-1, -1, -1, -1, -1, -1], [4, 3, 2, 1])
    """
    moved = [p for p in reversed(line) if p != EMPTY]
    junk_pile.extend(moved)
    line[:] = [EMPTY] * len(line)
    return moved


def refill_order(lines: int, spaces: int) -> list[tuple[int, int]]:
    """The order a Line Reset refills: both lines alternately, from the junk end back to space 1.

    >>> refill_order(2, 3)
    [(0, 3), (1, 3), (0, 2), (1, 2), (0, 1), (1, 1)]
    """
    return [(line, space) for space in range(spaces, 0, -1) for line in range(lines)]


# -- requirements and selling -------------------------------------------------------------------------------

CONTRADICTIONS = "a second eye limit, a second two-heads, or one eye with two heads"


def contradicts(tile: Requirement, others: Sequence[Requirement]) -> bool:
    """Whether ``tile`` contradicts requirement tiles already on a buyer (it is then redrawn).

    >>> from robotable.games.robots_on_the_line.components import REQUIREMENTS as R
    >>> by_id = {r.id: r for r in R}
    >>> contradicts(by_id["req-17"], [by_id["req-01"]]), contradicts(by_id["req-05"], [by_id["req-03"]])
    (True, True)
    >>> contradicts(by_id["req-17"], [by_id["req-05"]])
    False
    """
    kinds = [o.kind for o in others]
    if tile.kind == "eyes":
        return "eyes" in kinds or (tile.eyes == 1 and "two_heads" in kinds)
    if tile.kind == "two_heads":
        return "two_heads" in kinds or any(o.kind == "eyes" and o.eyes == 1 for o in others)
    return False


def bonus_paid(tile: BonusTile, icons: frozenset[str]) -> bool:
    """A bonus tile pays when the robot shows every one of its icons."""
    return tile.icons <= icons


def sale_breakdown(
    pay: int, requirements: Sequence[Requirement], bonus_tiles: Sequence[BonusTile], m: Measures
) -> dict[str, int]:
    """What a sale pays: the buyer's money, $5 requirement bonuses, bonus tiles and pink pairs.

    >>> from robotable.games.robots_on_the_line.geometry import assemble, measure
    >>> from robotable.games.robots_on_the_line.components import REQUIREMENTS, BONUS_TILES
    >>> m = measure(assemble([("torso-11", 0, 0, 0), ("head-05", 0, -1, 0), ("base-10", 0, 1, 0),
    ...                       ("hand-16", 1, 0, 0), ("hand-20", -1, 0, 2)]))
    >>> sale_breakdown(20, [REQUIREMENTS[0]], [BONUS_TILES[0], BONUS_TILES[3]], m)
    {'buyer': 20, 'requirements': 5, 'bonus_tiles': 5, 'pink_pairs': 4, 'total': 34}
    """
    out = {
        "buyer": pay,
        "requirements": sum(r.bonus for r in requirements),
        "bonus_tiles": sum(b.value for b in bonus_tiles if bonus_paid(b, m.icons)),
        "pink_pairs": PINK_PAIR * m.pink_pairs,
    }
    out["total"] = sum(out.values())
    return out
