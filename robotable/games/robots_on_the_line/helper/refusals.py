"""Quick refusals: hands that can end no robot for a buyer, told before any layout is searched."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..components import ENDS, MAGNETS, STEP, TORSOS, Torso
from .buyers import (
    F_BASES,
    F_HEADS,
    F_ONES,
    F_TURNS,
    FIELD,
    T_BASES,
    T_ENDERS,
    T_HANDS,
    T_HEADS,
    T_MAGNETS,
    T_MULTI,
    T_TILES,
    AnyBuyer,
    Buyer,
)


def may_end(hand: tuple[int, ...], torso: int, buyer: Buyer | AnyBuyer) -> bool:
    """A quick necessary condition: a usable head and base, enough tiles to close every torso port
    (each end closes one; a connector closing a loop at most as many as it has ports), and the turns a
    loop needs when there are fewer one-port tiles than torso ports (:func:`loop_turns_missing`).
    The hand's counts are added up at once from the buyer's ``facts`` (see :func:`part_facts`)."""
    total = sum(map(buyer.facts.__getitem__, hand))
    t = TORSOS[torso]
    return (
        total >> F_HEADS & FIELD > 0
        and total >> F_BASES & FIELD > 0
        and total & FIELD >= len(t.ports)
        and not loop_turns_missing(t, total >> F_ONES & FIELD, total >> F_TURNS & FIELD, buyer.extra_ports)
    )


def loop_turns_missing(torso: Torso, one_port_tiles: int, turning_tiles: int, extra_ports: int = 0) -> bool:
    """Whether a finished robot would need a loop of tiles that the hand cannot turn.

    In a finished robot every port meets a port, so with the torso's P ports, e one-port tiles and
    connectors of n ports, twice the links count P + e + sum(n), and a connected robot with L loops has
    e = P + sum(n - 2) - 2L. The connectors the buyer asks for bring at least ``extra_ports`` to sum(n - 2)
    (a splitter one), so with fewer one-port tiles than P plus those some loop is needed. A loop on the
    grid is a closed path of cells that turns at least 4 times, each turn on a torso cell or on a tile
    with ports on two adjacent sides (an elbow, a splitter; never an extender).

    >>> from robotable.games.robots_on_the_line.components import TORSOS
    >>> four = next(t for t in TORSOS if len(t.ports) == 4 and len(t.cells) == 1)
    >>> loop_turns_missing(four, 2, 2), loop_turns_missing(four, 2, 3), loop_turns_missing(four, 4, 0)
    (True, False, False)
    >>> loop_turns_missing(four, 4, 2), loop_turns_missing(four, 4, 2, extra_ports=1)
    (False, True)
    """
    return one_port_tiles < len(torso.ports) + extra_ports and turning_tiles + len(torso.cells) < 4


def subset_sizes(values: Sequence[int], target: int) -> set[int]:
    """The sizes of the non-empty choices of ``values`` that add up to ``target`` (eyes, hands).

    >>> subset_sizes([1, 3, 5], 4), subset_sizes([2, 2], 3), subset_sizes([1, 1, 2], 2)
    ({2}, set(), {1, 2})
    """
    sums = {(0, 0)}
    for v in values:
        sums |= {(t + v, k + 1) for t, k in sums if t + v <= target}
    return {k for t, k in sums if t == target and k > 0}


def subset_sum(values: list[int], target: int, size: int) -> bool:
    """Whether some non-empty choice of ``values`` (exactly ``size`` of them if size > 0) adds up to ``target``.

    >>> subset_sum([1, 3, 5], 4, 0), subset_sum([1, 3, 5], 4, 1), subset_sum([2, 2], 3, 0)
    (True, False, False)
    """
    sizes = subset_sizes(values, target)
    return bool(sizes) and (not size or size in sizes)


def hopeless(hand: Sequence[int], buyer: Buyer) -> bool:
    """Whether the parts of ``hand`` cannot meet the buyer's requirements, whatever their layout: two
    contradictory exact counts; too few magnets to hand over; no usable head or base; fewer than two heads
    for "exactly two heads"; no connector of a kind asked for; no choice of heads with the eyes asked for
    (two of them for two heads), nor of hands with the hands asked for; fewer than two arm ends (hands,
    antennas) for a width, none for a long arm."""
    if buyer.contradictory:
        return True
    tally = _Tally(hand, buyer)
    two_heads = "two_heads" in buyer.kinds
    return (
        tally.lacks_parts(buyer, two_heads)
        or (buyer.eye_target >= 0 and not subset_sum(tally.head_eyes, buyer.eye_target, 2 if two_heads else 0))
        or (buyer.hand_target > 0 and not subset_sum(tally.hand_counts, buyer.hand_target, 0))
        or (buyer.wide > 1 and tally.enders < 2)
        or (bool(buyer.long_arm) and not tally.enders)
    )


def refused(hand: Sequence[int], torso: int, buyer: Buyer) -> bool:
    """``not may_end(hand, torso, buyer) or hopeless(hand, buyer) or too_small(hand, torso, buyer)`` (the
    refusals written out here), told from one sum over the hand of the buyer's :func:`.buyers.part_tally`
    (every count they compare at once) and, for an exact count of eyes or hands, the list it needs.
    :func:`.sales.robot_sales` asks this for every buyer of every new hand."""
    if buyer.contradictory:
        return True
    tally = buyer.tally
    total = sum(map(tally.__getitem__, hand))
    t = TORSOS[torso]
    if (
        not total >> F_HEADS & FIELD
        or not total >> F_BASES & FIELD
        or total & FIELD < len(t.ports)
        or loop_turns_missing(t, total >> F_ONES & FIELD, total >> F_TURNS & FIELD, buyer.extra_ports)
    ):
        return True  # (may_end)
    heads, enders = total >> T_HEADS & FIELD, total >> T_ENDERS & FIELD
    if (
        total >> T_MAGNETS & FIELD < buyer.magnets_needed
        or not heads
        or not total >> T_BASES & FIELD
        or (buyer.two_heads and heads < 2)
        or (buyer.asked and not all(total >> field & FIELD for field in buyer.asked))
        or (buyer.wide > 1 and enders < 2)
        or (buyer.long_arm and not enders)
    ):
        return True  # (hopeless: Tally.lacks_parts, the arm ends)
    keys = buyer.plain_keys  # (the eyes and hands are in them; the bonus icons are not needed)
    if buyer.eye_target >= 0:
        eyes = [keys[p][1] for p in hand if tally[p] >> T_HEADS & 1]  # type: ignore[index]
        if not subset_sum(eyes, buyer.eye_target, 2 if buyer.two_heads else 0):
            return True  # (hopeless: the eyes)
    if buyer.hand_target > 0:
        hands = [keys[p][2] for p in hand if tally[p] >> T_HANDS & 1]  # type: ignore[index]
        if not subset_sum(hands, buyer.hand_target, 0):
            return True  # (hopeless: the hands)
    if buyer.tall or buyer.wide or buyer.long_arm:  # (too_small)
        tiles, connectors = total >> T_TILES & FIELD, total >> T_MULTI & FIELD
        rows, columns, beside, above_below = _TORSO_SPANS[torso]
        return (
            (buyer.tall > 0 and (tiles - beside < buyer.tall - rows or connectors < buyer.tall - rows - 2))
            or (
                buyer.wide > 0 and (tiles - above_below < buyer.wide - columns or connectors < buyer.wide - columns - 2)
            )
            or (buyer.long_arm > 1 and connectors < buyer.long_arm - 1)
        )
    return False


def too_small(hand: Sequence[int], torso: int, buyer: Buyer) -> bool:
    """Whether the hand has too few tiles for the height or width the buyer asks for, whatever their layout.

    A robot is connected, so the rows from its highest head to its lowest base all hold a tile, and so do
    the columns from its leftmost to its rightmost arm end. Each row beyond the torso's own needs a tile of
    the hand, and so does each column beyond the torso's; but each torso port facing a cell in the torso's
    rows (its left and right sides) holds a tile of its own there, one that adds no row (likewise ports
    facing a cell in the torso's columns add no column). So ``tall`` needs at least ``tall - rows`` tiles
    besides those, and ``wide`` at least ``wide - columns``. The same rows also ask for connectors (tiles
    with two ports or more): the path of linked tiles from the highest head to the torso holds a tile on
    each row between them, inside the path, and so does the path from the lowest base; so ``tall`` needs
    at least ``tall - rows - 2`` connectors, and likewise ``wide`` (from the outermost arm ends) at least
    ``wide - columns - 2``.

    A long arm of ``long_arm`` columns (the tiles reached from a left or right torso port, see
    :func:`..geometry.measure`) needs ``long_arm - 1`` tiles with two ports or more (connectors), when it is
    more than one column. The arm's tiles are connected, so a shortest path of linked tiles from one in its
    leftmost column to one in its rightmost holds a tile in each column; the tiles inside that path have
    two links. So does the arm's first tile (linked to the torso and on to the rest of the arm): if it ends
    the path, or is not on it, that is one more; if it is inside the path, the path goes both ways from
    it, and since the torso's cell beside it blocks one of them, the path takes a step up or down and so
    holds a tile more than it has columns.

    >>> from robotable.games.robots_on_the_line.components import REQUIREMENTS, part_index, torso_index
    >>> from .buyers import buyer_of
    >>> tall_5 = buyer_of(tuple(r.index for r in REQUIREMENTS if r.kind == "tall" and r.min_tiles == 5)[:1], ())
    >>> hand = tuple(part_index(p) for p in ("head-20", "base-04", "hand-14", "hand-18", "antenna-08"))
    >>> too_small(hand, torso_index("torso-12"), tall_5)  # 4 ports: 2 tiles beside it, 3 for 4 more rows
    True
    >>> too_small((*hand, part_index("extender-01")), torso_index("torso-12"), tall_5)  # 2 rows between: 2 connectors
    True
    >>> too_small((*hand, part_index("extender-01"), part_index("extender-02")), torso_index("torso-12"), tall_5)
    False
    >>> long_3 = buyer_of(tuple(r.index for r in REQUIREMENTS if r.kind == "long_arm")[:1], ())
    >>> too_small((*hand, part_index("extender-01")), torso_index("torso-12"), long_3)  # 3 columns: 2 connectors
    True
    >>> too_small((*hand, part_index("extender-01"), part_index("elbow-01")), torso_index("torso-12"), long_3)
    False
    """
    if not (buyer.tall or buyer.wide or buyer.long_arm):
        return False
    keys = buyer.keys
    tiles = sum(1 for p in hand if keys[p] is not None)
    rows, columns, beside, above_below = _TORSO_SPANS[torso]
    connectors = sum(1 for p in hand if keys[p] is not None and not _is_end(keys[p]))
    return (
        (buyer.tall > 0 and (tiles - beside < buyer.tall - rows or connectors < buyer.tall - rows - 2))
        or (buyer.wide > 0 and (tiles - above_below < buyer.wide - columns or connectors < buyer.wide - columns - 2))
        or (buyer.long_arm > 1 and connectors < buyer.long_arm - 1)
    )


def _is_end(key: tuple[Any, ...] | None) -> bool:
    """Whether a part's key (see :class:`.buyers.Buyer`) is an end: a head, base, hand or antenna with one port."""
    return key is not None and key[0] in ENDS and len(key[5]) == 1


def _spans(torso: Torso) -> tuple[int, int, int, int]:
    """A torso's rows and columns, and how many of its ports face a cell in its rows, and in its columns."""
    rows = {y for _, y in torso.cells}
    columns = {x for x, _ in torso.cells}
    faced = [(cell[0] + STEP[side][0], cell[1] + STEP[side][1]) for cell, side, _ in torso.ports]
    return len(rows), len(columns), sum(y in rows for _, y in faced), sum(x in columns for x, _ in faced)


#: Per torso int: :func:`_spans`.
_TORSO_SPANS = tuple(_spans(t) for t in TORSOS)


class _Tally:
    """What a hand holds for one buyer: magnets, bases, arm ends (hands, antennas), the heads' eyes, the
    hands' hands, and the kinds of connectors."""

    def __init__(self, hand: Sequence[int], buyer: Buyer) -> None:
        self.magnets = self.bases = self.enders = 0
        self.head_eyes: list[int] = []
        self.hand_counts: list[int] = []
        self.connectors: set[str] = set()
        for p in hand:
            self.magnets += p in MAGNETS
            key = buyer.keys[p]
            if key is not None:
                self._add(*key)

    def _add(self, kind: str, eyes: int, hands: int, bits: int, antenna: bool, ports: tuple[object, ...]) -> None:
        if kind not in ENDS or len(ports) != 1:
            self.connectors.add(kind)
            return
        if kind == "head":
            self.head_eyes.append(eyes)
        elif kind == "base":
            self.bases += 1
        elif kind == "hand":
            self.hand_counts.append(hands)
        self.enders += kind == "hand" or antenna

    def lacks_parts(self, buyer: Buyer, two_heads: bool) -> bool:
        """Too few magnets, no head or base, one head for two, or no connector of a kind asked for."""
        return (
            self.magnets < buyer.magnets_needed
            or not self.head_eyes
            or not self.bases
            or (two_heads and len(self.head_eyes) < 2)
            or any(kind in buyer.kinds and kind not in self.connectors for kind in ("extender", "splitter", "elbow"))
        )
