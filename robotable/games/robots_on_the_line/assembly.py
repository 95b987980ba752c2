"""The assembly helper: the best finished robot a hand can sell to a buyer, or ``None``.

The search has two levels. A skeleton is the torso with connectors (extenders, elbows, splitters) on
its ports, in every rotation that fits, leaving slots: open ports that an end (head, base, hand,
antenna) will fill. Skeletons with fewer connectors come first. For each skeleton, ends are assigned to
the slots. Parts that no requirement or bonus of this buyer tells apart are one choice (all plain
one-eyed heads are alike to a buyer without an eye limit; slots alike to it are filled in one order),
and branches are cut when they cannot be ended, overshoot or can no longer reach an exact count
(eyes, heads, hands) or a size (tall, wide, long arm), or when the best conceivable sale is found.
A connector whose ports face other open ports closes them: robots with loops of tiles are found too
(two elbows may end two torso ports at once). Every robot kept is checked with :mod:`geometry` like any
player's layout, with the fewest batteries that earn the most bonus tiles. A search stops after
``NODE_LIMIT`` steps with the best robot found so far and says so (:func:`search`,
``Answer.complete``); see benchmarks/assembly.py for how often that happens.

>>> from robotable.games.robots_on_the_line.components import REQUIREMENTS, part_index, torso_index
>>> hand = [part_index(p) for p in ("head-05", "base-10", "hand-16", "hand-20", "hand-01")]
>>> hands_3 = [r for r in REQUIREMENTS if r.id == "req-20"]
>>> best = best_robot(hand, torso_index("torso-11"), hands_3, (), pay=20)
>>> best.measures.hands, best.value      # 2-hands tile + one hand; the pink hand on the pink port: +$4
(3, 24)
>>> best_robot(hand[:3], torso_index("torso-11"), hands_3, (), pay=20) is None
True
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import SellRobot
from .components import (
    BONUS_TILES,
    BUYERS,
    CONNECTORS,
    ENDS,
    MAGNETS,
    PARTS,
    PINK_PAIR,
    REQUIREMENTS,
    STEP,
    TORSOS,
    BonusTile,
    Requirement,
    Torso,
    opposite,
    rotate_side,
)
from .geometry import Measures, Robot, assemble, measure, meets
from .part_tables import ONE_PORT, TURNS
from .sale import sale_breakdown

if TYPE_CHECKING:
    from .state import RotlState

#: The search stops after this many placements and answers with the best robot found so far.
NODE_LIMIT = 100_000

Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Assembly:
    """A finished robot for a buyer: its layout, what is sold alongside, its measures and its price."""

    layout: tuple[tuple[str, int, int, int], ...]
    batteries: tuple[str, ...]
    magnets: tuple[str, ...]
    measures: Measures
    value: int
    breakdown: tuple[tuple[str, int], ...]


def best_robot(
    hand: Sequence[int],
    torso: int,
    requirements: Sequence[Requirement],
    bonus_tiles: Sequence[BonusTile],
    pay: int,
    limit: int = NODE_LIMIT,
) -> Assembly | None:
    """The finished robot with the highest sale value that ``hand`` and ``torso`` can sell, or ``None``.

    ``hand`` holds part ints (magnets and batteries included: they may be handed over or sold
    alongside); ``torso`` is a torso int or -1. See :func:`search` for whether the search was complete.
    """
    return search(hand, torso, requirements, bonus_tiles, pay, limit).assembly


@dataclass(frozen=True, slots=True)
class Answer:
    """The helper's answer: the best robot found (or None) and whether the search was complete.

    ``complete`` is False when the search stopped at its step limit: a better robot (or, when
    ``assembly`` is None, a robot at all) may then exist."""

    assembly: Assembly | None
    complete: bool


def search(
    hand: Sequence[int],
    torso: int,
    requirements: Sequence[Requirement],
    bonus_tiles: Sequence[BonusTile],
    pay: int,
    limit: int = NODE_LIMIT,
) -> Answer:
    """The best robot and whether the search was complete (see :class:`Answer`)."""
    return _cached(
        tuple(sorted(hand)),
        torso,
        tuple(r.index for r in requirements),
        tuple(b.index for b in bonus_tiles),
        pay,
        limit,
    )


# -- the helper's sales in a game -------------------------------------------------------------------------


def robot_sales(s: RotlState, p: int) -> list[SellRobot]:
    """The assembly helper's best sale to each buyer still buying that ``p``'s hand and torso can satisfy.

    The answer depends only on the hand's contents, the torso and the buyers still buying, so it is
    cached on those: ``legal_actions`` asks again after every action, and most actions change no hand.
    The state keeps a table from (hand, torso) to the sales for the buyers still buying (``sales_memo``:
    the buyer boards never change after setup, so the table is replaced exactly when a buyer's money
    changes); hands not in it are looked up in the shared cache.
    """
    torso = s.torso[p]
    if torso < 0:
        return []
    memo = s.sales_memo
    if memo is None or memo[0] != s.buyer_money:
        memo = s.sales_memo = (s.buyer_money[:], _buying(s), {})
    hand = tuple(s.hands[p])
    sales = memo[2].get((hand, torso))
    if sales is None:
        # (most hands cannot end a robot for any buyer: that is told before the buyers are looked up)
        sales = _robot_sales(hand, torso, memo[1]) if _may_end(hand, torso, _ANY_BUYER) else ()
        memo[2][hand, torso] = sales
    return list(sales)


def _buying(s: RotlState) -> tuple[tuple[str, tuple[int, ...], tuple[int, ...], int], ...]:
    """The buyers still buying: (buyer id, requirements, bonus tiles, pay), in slot order."""
    return tuple(
        (BUYERS[b].id, tuple(s.buyer_reqs[slot]), tuple(s.buyer_bonus[slot]), BUYERS[b].pay)
        for slot, b in enumerate(s.buyers)
        if s.buyer_money[slot] >= BUYERS[b].pay
    )


@functools.lru_cache(maxsize=4096)
def _robot_sales(
    hand: tuple[int, ...], torso: int, buyers: tuple[tuple[str, tuple[int, ...], tuple[int, ...], int], ...]
) -> tuple[SellRobot, ...]:
    if not _may_end(hand, torso, _ANY_BUYER):
        return ()
    sales = []
    for buyer_id, reqs, bonus, pay in buyers:
        found = _cached(tuple(sorted(hand)), torso, reqs, bonus, pay, NODE_LIMIT).assembly
        if found is not None:
            sales.append(SellRobot(buyer_id, found.layout, found.batteries, found.magnets))
    return tuple(sales)


@functools.lru_cache(maxsize=4096)
def _cached(
    hand: tuple[int, ...], torso: int, reqs: tuple[int, ...], bonuses: tuple[int, ...], pay: int, limit: int
) -> Answer:
    buyer = _buyer(reqs, bonuses)
    if torso < 0 or not _may_end(hand, torso, buyer) or hopeless(hand, buyer):
        return Answer(None, True)
    run = _Search(hand, torso, [REQUIREMENTS[r] for r in reqs], [BONUS_TILES[b] for b in bonuses], pay, limit)
    found = run.run()
    return Answer(found, run.nodes <= limit)


def _may_end(hand: tuple[int, ...], torso: int, buyer: _Buyer | _AnyBuyer) -> bool:
    """A quick necessary condition: a usable head and base, enough tiles to close every torso port
    (each end closes one; a connector closing a loop at most as many as it has ports), and the turns a
    loop needs when there are fewer one-port tiles than torso ports (:func:`loop_turns_missing`).
    The hand's counts are added up at once from the buyer's ``facts`` (see :func:`part_facts`)."""
    total = sum(map(buyer.facts.__getitem__, hand))
    t = TORSOS[torso]
    return (
        total >> _HEADS & _FIELD > 0
        and total >> _BASES & _FIELD > 0
        and total & _FIELD >= len(t.ports)
        and not loop_turns_missing(t, total >> _ONES & _FIELD, total >> _TURNS & _FIELD, buyer.extra_ports)
    )


#: Fields of :func:`part_facts` (8 bits each: a hand holds far fewer than 256 parts).
_PORTS, _HEADS, _BASES, _ONES, _TURNS = 0, 8, 16, 24, 32
_FIELD = 255


def part_facts(keys: Sequence[tuple[Any, ...] | None]) -> tuple[int, ...]:
    """Per part int, what :func:`_may_end` adds up, packed in one int (fields of 8 bits): its ports, 1 if
    it is a head, 1 if a base, 1 if it has one port, 1 if a path may turn on it; 0 for a part the buyer
    cannot use (``keys[p]`` None).

    >>> from robotable.games.robots_on_the_line.components import part_index
    >>> facts = part_facts(_ANY_BUYER.keys)
    >>> head, elbow = facts[part_index("head-01")], facts[part_index("elbow-01")]
    >>> [head >> f & _FIELD for f in (_PORTS, _HEADS, _BASES, _ONES, _TURNS)]
    [1, 1, 0, 1, 0]
    >>> [elbow >> f & _FIELD for f in (_PORTS, _HEADS, _BASES, _ONES, _TURNS)]
    [2, 0, 0, 0, 1]
    """
    return tuple(
        0
        if key is None
        else len(key[5])
        | (key[0] == "head") << _HEADS
        | (key[0] == "base") << _BASES
        | ONE_PORT[p] << _ONES
        | TURNS[p] << _TURNS
        for p, key in enumerate(keys)
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


def extra_ports(kinds: frozenset[str]) -> int:
    """What the connectors a buyer asks for (an extender, a splitter, an elbow) bring at least to the
    sum of (ports - 2) over a robot's connectors: each kind asked for is on the robot at least once."""
    return sum(_FEWEST_PORTS[kind] - 2 for kind in CONNECTORS if kind in kinds)


class _AnyBuyer:
    """The parts some buyer may use (every placed part): for a test that holds for every buyer at once."""

    keys = tuple((p.kind, 0, 0, 0, False, p.ports) if p.kind in CONNECTORS + ENDS else None for p in PARTS)
    facts = part_facts(keys)
    extra_ports = 0


_ANY_BUYER = _AnyBuyer()


class _Sig:
    """Parts a buyer cannot tell apart: one kind, one set of ports, the same relevant faces."""

    __slots__ = (
        "antenna",
        "base",
        "bits",
        "count",
        "end",
        "ender",
        "eyes",
        "hands",
        "head",
        "kind",
        "nports",
        "parts",
        "pinks",
        "port",
        "rotations",
        "shape",
    )

    def __init__(self, kind: str, eyes: int, hands: int, bits: int, antenna: bool, ports: tuple[tuple[int, bool], ...]):
        self.kind = kind
        self.eyes = eyes
        self.hands = hands
        self.bits = bits
        self.antenna = antenna
        self.end = kind in ENDS and len(ports) == 1
        self.ender = kind == "hand" or antenna  # ends an arm for wide and long-arm
        self.head = kind == "head"
        self.base = kind == "base"
        self.pinks = sum(p for _, p in ports)
        self.port = ports[0]
        self.nports = len(ports)
        self.parts: list[int] = []
        self.count = 0
        self.rotations = _rotations(ports)
        self.shape = (kind, hands)  # what a mirrored slot must match


@functools.cache
def _rotations(ports: tuple[tuple[int, bool], ...]) -> list[tuple[int, dict[int, bool]]]:
    """The distinct rotations of a tile with ``ports``: (quarter turns, {side: pink})."""
    seen: set[frozenset[tuple[int, bool]]] = set()
    out: list[tuple[int, dict[int, bool]]] = []
    for r in range(4):
        turned = frozenset((rotate_side(s, r), pink) for s, pink in ports)
        if turned not in seen:
            seen.add(turned)
            out.append((r, dict(turned)))
    return out


@dataclass(frozen=True)
class _Buyer:
    """What one buyer's requirement and bonus tiles ask, and how it tells each part apart (computed once)."""

    kinds: frozenset[str]
    eye_target: int
    hand_target: int
    magnets_needed: int
    tall: int
    wide: int
    long_arm: int
    symmetry: bool
    bit: dict[str, int]
    bonus_bits: list[tuple[int, int]]
    requirement_bonus: int
    #: two requirement tiles asking different exact counts (eyes, hands, magnets): no robot meets both
    contradictory: bool
    #: what the connectors asked for bring at least to the sum of (ports - 2) (see :func:`extra_ports`)
    extra_ports: int
    #: per part int: its signature key (kind, eyes, hands, bits, antenna, ports), or None if it cannot be used
    keys: tuple[tuple[Any, ...] | None, ...]
    #: per part int: what :func:`_may_end` adds up (:func:`part_facts`)
    facts: tuple[int, ...]

    def bits(self, icons: frozenset[str]) -> int:
        return sum(self.bit.get(i, 0) for i in icons)


#: The parts placed in a robot (connectors and ends; not batteries nor magnets), and whether each part
#: counts as an antenna.
_PLACED = tuple(p for p in PARTS if p.kind in CONNECTORS + ENDS)
_ANTENNA = tuple(p.antenna for p in PARTS)
#: The fewest ports a connector of each kind has.
_FEWEST_PORTS = {kind: min(len(p.ports) for p in PARTS if p.kind == kind) for kind in CONNECTORS}
#: The parts showing each icon.
_WITH_ICON: dict[str, tuple[int, ...]] = {
    icon: tuple(p.index for p in PARTS if icon in p.icons) for icon in sorted({i for p in PARTS for i in p.icons})
}


@functools.lru_cache(maxsize=1024)
def _buyer(reqs: tuple[int, ...], bonuses: tuple[int, ...]) -> _Buyer:
    rq = [REQUIREMENTS[r] for r in reqs]
    kinds = frozenset(r.kind for r in rq)
    eye_target = next((r.eyes for r in rq if r.kind == "eyes"), -1)
    hand_target = next((r.count for r in rq if r.kind == "hands"), -1)
    wide = max((r.min_tiles for r in rq if r.kind == "wide"), default=0)
    long_arm = max((r.min_tiles for r in rq if r.kind == "long_arm"), default=0)
    icons = sorted({i for b in bonuses for i in BONUS_TILES[b].icons})
    bit = {icon: 1 << k for k, icon in enumerate(icons)}
    plain, facts = _plain_table(
        "no_wheels" in kinds, eye_target, hand_target, bool(kinds & {"hands", "symmetry"}), bool(wide or long_arm)
    )
    keys = list(plain)
    bits_of: dict[int, int] = {}  # the bonus icons each part shows, as bits
    for icon, b in bit.items():
        for index in _WITH_ICON.get(icon, ()):
            bits_of[index] = bits_of.get(index, 0) + b
    for index, bits in bits_of.items():
        key = keys[index]
        if key is not None:
            keys[index] = (*key[:3], bits, *key[4:])
    return _Buyer(
        kinds=kinds,
        eye_target=eye_target,
        hand_target=hand_target,
        magnets_needed=next((r.count for r in rq if r.kind == "magnets"), 0),
        tall=max((r.min_tiles for r in rq if r.kind == "tall"), default=0),
        wide=wide,
        long_arm=long_arm,
        symmetry="symmetry" in kinds,
        bit=bit,
        bonus_bits=[(sum(bit[i] for i in BONUS_TILES[b].icons), BONUS_TILES[b].value) for b in bonuses],
        requirement_bonus=sum(r.bonus for r in rq),
        extra_ports=extra_ports(kinds),
        contradictory=any(
            len({getattr(r, field) for r in rq if r.kind == kind}) > 1
            for kind, field in (("eyes", "eyes"), ("hands", "count"), ("magnets", "count"))
        ),
        keys=tuple(keys),
        facts=facts,
    )


@functools.cache
def _plain_table(
    no_wheels: bool, eye_target: int, hand_target: int, count_hands: bool, arms: bool
) -> tuple[tuple[tuple[Any, ...] | None, ...], tuple[int, ...]]:
    """The buyer's part table before bonus icons (their bits 0), and its :func:`part_facts` (which no
    icon changes): computed once per kind of buyer."""
    keys: list[tuple[Any, ...] | None] = [None] * len(PARTS)  # None: a part that cannot be used
    for part in _PLACED:
        if (
            (no_wheels and part.wheels)
            or (eye_target >= 0 and part.eyes > eye_target)
            or (hand_target >= 0 and part.hands > hand_target)
        ):
            continue
        eyes = part.eyes if eye_target >= 0 else 0
        hands = part.hands if count_hands else 0
        antenna = _ANTENNA[part.index] if arms else False
        keys[part.index] = (part.kind, eyes, hands, 0, antenna, part.ports)
    return tuple(keys), part_facts(keys)


def subset_sizes(values: Sequence[int], target: int) -> set[int]:
    """The sizes of the non-empty choices of ``values`` that add up to ``target`` (eyes, hands).

    >>> subset_sizes([1, 3, 5], 4), subset_sizes([2, 2], 3), subset_sizes([1, 1, 2], 2)
    ({2}, set(), {1, 2})
    """
    sums = {(0, 0)}
    for v in values:
        sums |= {(t + v, k + 1) for t, k in sums if t + v <= target}
    return {k for t, k in sums if t == target and k > 0}


def _subset_sum(values: list[int], target: int, size: int) -> bool:
    """Whether some non-empty choice of ``values`` (exactly ``size`` of them if size > 0) adds up to ``target``.

    >>> _subset_sum([1, 3, 5], 4, 0), _subset_sum([1, 3, 5], 4, 1), _subset_sum([2, 2], 3, 0)
    (True, False, False)
    """
    sizes = subset_sizes(values, target)
    return bool(sizes) and (not size or size in sizes)


@functools.cache
def _around(cell: Cell) -> tuple[Cell, Cell, Cell, Cell]:
    """The cells beyond each side of ``cell`` (N, E, S, W)."""
    return tuple((cell[0] + dx, cell[1] + dy) for dx, dy in STEP)  # type: ignore[return-value]


@functools.cache
def _facing(port: tuple[Cell, int]) -> Cell:
    """The cell a port ``(cell, side)`` faces."""
    return _around(port[0])[port[1]]


def hopeless(hand: Sequence[int], buyer: _Buyer) -> bool:
    """Whether the parts of ``hand`` cannot meet the buyer's requirements, whatever their layout: two
    contradictory exact counts; too few magnets to hand over; no usable head or base; fewer than two heads
    for "exactly two heads"; no connector of a kind asked for; no choice of heads with the eyes asked for
    (two of them for two heads), nor of hands with the hands asked for; fewer than two arm ends (hands,
    antennas) for a width, none for a long arm."""
    if buyer.contradictory:
        return True
    magnets = bases = enders = 0
    head_eyes: list[int] = []
    hand_counts: list[int] = []
    connectors: set[str] = set()
    for p in hand:
        magnets += p in MAGNETS
        key = buyer.keys[p]
        if key is None:
            continue
        kind, eyes, hands, _, antenna, ports = key
        if kind not in ENDS or len(ports) != 1:
            connectors.add(kind)
            continue
        if kind == "head":
            head_eyes.append(eyes)
        elif kind == "base":
            bases += 1
        elif kind == "hand":
            hand_counts.append(hands)
        enders += kind == "hand" or antenna
    kinds = buyer.kinds
    two_heads = "two_heads" in kinds
    if magnets < buyer.magnets_needed or not head_eyes or not bases or (two_heads and len(head_eyes) < 2):
        return True
    if any(kind in kinds and kind not in connectors for kind in ("extender", "splitter", "elbow")):
        return True
    if buyer.eye_target >= 0 and not _subset_sum(head_eyes, buyer.eye_target, 2 if two_heads else 0):
        return True
    if buyer.hand_target > 0 and not _subset_sum(hand_counts, buyer.hand_target, 0):
        return True
    return (buyer.wide > 1 and enders < 2) or (bool(buyer.long_arm) and not enders)


class _Stop(Exception):
    """The best conceivable sale is found, or the node limit is reached."""


# A slot is an open port of the skeleton that an end (head, base, hand, antenna) will fill:
# (cell the end goes on, side its port must face, pink source port, arm id).
Slot = tuple[Cell, int, bool, int]


class _Search:
    """Two levels: skeletons (the torso and connectors, leaving slots), then ends assigned to the slots."""

    def __init__(
        self,
        hand: tuple[int, ...],
        torso: int,
        reqs: list[Requirement],
        bonuses: list[BonusTile],
        pay: int,
        limit: int,
    ) -> None:
        self.hand = hand
        self.torso = TORSOS[torso]
        self.reqs = reqs
        self.bonuses = bonuses
        self.pay = pay
        self.limit = limit
        buyer = _buyer(tuple(r.index for r in reqs), tuple(b.index for b in bonuses))
        self.buyer = buyer
        self.kinds = buyer.kinds
        self.eye_target = buyer.eye_target
        self.hand_target = buyer.hand_target
        self.magnets_needed = buyer.magnets_needed
        self.tall, self.wide, self.long_arm = buyer.tall, buyer.wide, buyer.long_arm
        self.symmetry = buyer.symmetry
        self.geometric = bool(self.tall or self.wide or self.long_arm or self.symmetry)
        self.bit = buyer.bit
        self.bonus_bits = buyer.bonus_bits
        self.fixed = pay + buyer.requirement_bonus
        self.magnets = [p for p in hand if PARTS[p].kind == "magnet"]
        self.batteries = [p for p in hand if PARTS[p].kind == "battery"]
        sigs: dict[tuple[object, ...], _Sig] = {}
        keys = buyer.keys
        for p in hand:
            key = keys[p]
            if key is None:
                continue
            sig = sigs.get(key)
            if sig is None:
                sig = sigs[key] = _Sig(*key)
            sig.parts.append(p)
            sig.count += 1
        order = sorted(sigs.values(), key=lambda s: (-bin(s.bits).count("1"), -s.pinks, s.kind, s.parts[0]))
        self.ends = [s for s in order if s.end]
        self.connectors = [s for s in order if not s.end]
        # a connector closing a loop may end two or three ports at once
        self.max_close = max((s.nports for s in self.connectors), default=0)
        self.battery_bits = 0
        for b in self.batteries:
            self.battery_bits |= self._bits(PARTS[b].icons)
        self.torso_bits = self._bits(self.torso.icons)
        self.best: Assembly | None = None
        self.nodes = 0
        self.memo: dict[tuple[object, ...], tuple[int, tuple[int, ...]] | None] = {}
        self.occ: dict[Cell, dict[int, bool]] = {}
        self.placed: list[tuple[_Sig, Cell, int, int]] = []
        self.slots: list[Slot] = []
        self.reserved: set[Cell] = set()
        self.kind_at: dict[Cell, str] = {}
        xs = [x for x, _ in self.torso.cells]
        self.axis2 = min(xs) + max(xs)  # twice the x of the torso's middle column

    def _bits(self, icons: frozenset[str]) -> int:
        return sum(self.bit.get(i, 0) for i in icons)

    def _bonus_value(self, bits: int) -> int:
        return sum(v for b, v in self.bonus_bits if b & bits == b)

    # -- the search ------------------------------------------------------------------------------------

    def _hopeless(self) -> bool:
        """Whether the hand's parts cannot meet the buyer's requirements, whatever their layout."""
        return hopeless(self.hand, self.buyer)

    def run(self) -> Assembly | None:
        if self._hopeless():
            return None
        t = self.torso
        for cell in t.cells:
            self.occ[cell] = {}
        for cell, side, pink in t.ports:
            self.occ[cell][side] = pink
        open_ports: dict[tuple[Cell, int], tuple[bool, int]] = {}
        for arm, (cell, side, pink) in enumerate(t.ports):
            if (cell[0] + STEP[side][0], cell[1] + STEP[side][1]) in self.occ:
                return None  # a port facing the torso itself can never be ended
            open_ports[(cell, side)] = (pink, arm if side in (1, 3) else -1)
        if len(open_ports) > sum(s.count for s in self.ends) + sum(s.nports * s.count for s in self.connectors):
            return None
        all_bits = self.torso_bits | self.battery_bits
        for s in self.ends + self.connectors:
            all_bits |= s.bits
        pinks = sum(p for _, _, p in t.ports) + sum(s.pinks * s.count for s in self.ends + self.connectors)
        self.ceiling = self.fixed + self._bonus_value(all_bits) + PINK_PAIR * (pinks // 2)
        self.ends_total = sum(s.count for s in self.ends)
        try:
            for k in range(sum(s.count for s in self.connectors) + 1):  # fewest connectors first
                self.k = k
                self._skeleton(open_ports, 0)
        except _Stop:
            pass
        return self.best

    def _skeleton(self, open_ports: dict[tuple[Cell, int], tuple[bool, int]], used: int) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise _Stop
        if not open_ports:
            if used == self.k:
                self._skeleton_done()
            return
        if (self.tall or self.wide) and self._too_small(open_ports, self.k - used):
            return
        if self.symmetry and self._unmirrorable(open_ports, self.k - used):
            return
        (cell, side), (pink, arm) = next(reversed(open_ports.items()))
        target = (cell[0] + STEP[side][0], cell[1] + STEP[side][1])
        rest = dict(open_ports)
        del rest[(cell, side)]
        # an end goes here: the cell must be free and no other open port may face it
        if (
            target not in self.reserved
            and not self._too_many(len(open_ports), self.k - used)
            and target not in map(_facing, rest)
            and (not self.symmetry or self._mirror_ok(target, ""))
        ):
            self.slots.append((target, opposite(side), pink, arm))
            self.reserved.add(target)
            self._skeleton(rest, used)
            self.reserved.discard(target)
            self.slots.pop()
        if used == self.k or target in self.reserved:
            return
        back = opposite(side)
        for sig in self.connectors:
            if not sig.count or (self.symmetry and not self._mirror_ok(target, sig.kind)):
                continue
            for rotation, ports in sig.rotations:
                if back not in ports:
                    continue
                new_open = self._fit(target, ports, rest, arm)
                if new_open is None or self._too_many(len(new_open), self.k - used - 1):
                    continue
                sig.count -= 1
                self.occ[target] = ports
                self.kind_at[target] = sig.kind
                self.placed.append((sig, target, rotation, arm))
                self._skeleton(new_open, used + 1)
                self.placed.pop()
                del self.kind_at[target]
                del self.occ[target]
                sig.count += 1

    def _too_many(self, open_count: int, spare: int) -> bool:
        """Whether ``open_count`` open ports (one of them to be ended now) can no longer all be closed:
        by the ends not yet given a slot, and by ``spare`` more connectors closing loops."""
        return len(self.slots) + open_count > self.ends_total + spare * self.max_close

    def _mirror_ok(self, cell: Cell, kind: str) -> bool:
        """Whether a connector of ``kind`` (or an end, kind '') on ``cell`` can still be mirrored."""
        mirror = (self.axis2 - cell[0], cell[1])
        if mirror == cell:
            return True
        if mirror in self.reserved:
            return not kind
        if mirror in self.occ:
            return self.kind_at.get(mirror) == kind if kind else False
        return True

    def _unmirrorable(self, open_ports: dict[tuple[Cell, int], tuple[bool, int]], spare: int) -> bool:
        """Whether some tile's mirror cell can no longer be filled (too far, or no such connector left)."""
        reach = [(c[0] + STEP[s][0], c[1] + STEP[s][1]) for c, s in open_ports]
        need: dict[str, int] = {}
        for cells, steps in ((self.kind_at, spare - 1), (dict.fromkeys(self.reserved, ""), spare)):
            for cell, kind in cells.items():
                mirror = (self.axis2 - cell[0], cell[1])
                if mirror == cell or mirror in self.occ or mirror in self.reserved:
                    continue
                if not any(abs(t[0] - mirror[0]) + abs(t[1] - mirror[1]) <= steps for t in reach):
                    return True
                if kind:
                    need[kind] = need.get(kind, 0) + 1
        return any(sum(s.count for s in self.connectors if s.kind == kind) < n for kind, n in need.items())

    def _too_small(self, open_ports: dict[tuple[Cell, int], tuple[bool, int]], spare: int) -> bool:
        """Whether no way of ending the open ports with ``spare`` more connectors is tall or wide enough."""
        cells = [c for c, _, _, _ in self.slots]
        reach = [(c[0] + STEP[s][0], c[1] + STEP[s][1]) for c, s in open_ports]
        for axis, need in ((1, self.tall), (0, self.wide)):
            if need:
                lo = min([c[axis] for c in cells] + [c[axis] - spare for c in reach])
                hi = max([c[axis] for c in cells] + [c[axis] + spare for c in reach])
                if hi - lo + 1 < need:
                    return True
        return False

    def _fit(
        self, target: Cell, ports: dict[int, bool], rest: dict[tuple[Cell, int], tuple[bool, int]], arm: int
    ) -> dict[tuple[Cell, int], tuple[bool, int]] | None:
        """Open ports after a connector goes on ``target``, or None if a port would face a portless side.

        A port facing another tile's open port closes it: the robot gets a loop."""
        occ, reserved = self.occ, self.reserved
        new_open = dict(rest)
        for q, nb in enumerate(_around(target)):
            if nb in occ:
                if (q in ports) != ((q + 2) % 4 in occ[nb]):
                    return None  # a port facing a portless side
                new_open.pop((nb, (q + 2) % 4), None)  # the source port, or another one closed by a loop
            elif q in ports:
                if nb in reserved:
                    return None
                new_open[(target, q)] = (ports[q], arm)
        return new_open

    def _shape_ok(self) -> bool:
        """Whether a finished skeleton has the connector kinds asked for and is tall and wide enough."""
        for kind in ("extender", "splitter", "elbow"):
            if kind in self.kinds and not any(s.kind == kind for s, _, _, _ in self.placed):
                return False
        for axis, need in ((1, self.tall), (0, self.wide)):
            if need:
                values = [c[axis] for c, _, _, _ in self.slots]
                if max(values) - min(values) + 1 < need:
                    return False
        return True

    def _long_arms(self) -> set[int] | None:
        """The arms long enough for a long-arm requirement (None: none is; empty: not asked)."""
        if not self.long_arm:
            return set()
        spans: dict[int, list[int]] = {}
        for _, cell, _, arm in self.placed:
            spans.setdefault(arm, []).append(cell[0])
        for cell, _, _, arm in self.slots:
            spans.setdefault(arm, []).append(cell[0])
        arm_ok = {a for a, xs in spans.items() if a >= 0 and max(xs) - min(xs) + 1 >= self.long_arm}
        return arm_ok or None

    def _mirror_partners(self) -> dict[Cell, Cell] | None:
        """For symmetry, each slot's mirrored slot (None: the skeleton cannot be symmetric)."""
        partner: dict[Cell, Cell] = {}
        if not self.symmetry:
            return partner
        axis2 = self.axis2
        tiles = {cell: sig.kind for sig, cell, _, _ in self.placed}
        for (x, y), kind in tiles.items():
            if 2 * x != axis2 and tiles.get((axis2 - x, y)) != kind:
                return None
        cells = {c for c, _, _, _ in self.slots}
        for x, y in cells:
            if 2 * x != axis2:
                if (axis2 - x, y) not in cells:
                    return None
                partner[(x, y)] = (axis2 - x, y)
        return partner

    def _skeleton_bonus(self) -> tuple[int, int]:
        """The icons the torso, batteries and connectors show, and their pink pairs."""
        skel_bits = self.torso_bits | self.battery_bits
        skel_pinks = 0
        for sig, _, _, _ in self.placed:
            skel_bits |= sig.bits
        for _, cell, _, _ in self.placed:  # connector-to-connector and connector-to-torso pink links
            for side, pink in self.occ[cell].items():
                nb = (cell[0] + STEP[side][0], cell[1] + STEP[side][1])
                if (
                    pink
                    and nb in self.occ
                    and self.occ[nb].get(opposite(side))
                    and (nb < cell or nb in self.torso.cells)
                ):
                    skel_pinks += 1
        return skel_bits, skel_pinks

    def _skeleton_done(self) -> None:
        if not self._shape_ok():
            return
        arm_ok = self._long_arms()
        partner = self._mirror_partners()
        if arm_ok is None or partner is None:
            return
        slots = self.slots
        skel_bits, skel_pinks = self._skeleton_bonus()
        feats = []
        for cell, _, pink, arm in slots:
            feats.append(
                (
                    pink,
                    cell[1] if self.tall or self.symmetry else 0,
                    cell[0] if self.wide or self.symmetry else 0,
                    arm in arm_ok,
                    cell,
                )
            )
        order = sorted(range(len(slots)), key=lambda i: feats[i][:4] + ((feats[i][4],) if self.symmetry else ()))
        keyed = [feats[i][:4] for i in order]
        position = {feats[i][4]: n for n, i in enumerate(order)}
        partners = tuple(position[partner[feats[i][4]]] if feats[i][4] in partner else -1 for i in order)
        key = (tuple(keyed), partners, skel_bits)
        if key not in self.memo:
            self.memo[key] = self._assign(keyed, partners, skel_bits)
        found = self.memo[key]
        if found is None:
            return
        value = self.fixed + found[0] + PINK_PAIR * skel_pinks
        if self.best is None or value > self.best.value:
            chosen = tuple(self.ends[si] for si in found[1])
            placed = [(sig, cell, rotation) for sig, cell, rotation, _ in self.placed]
            built = self._build(placed, [slots[i] for i in order], chosen)
            if built is not None and (self.best is None or built.value > self.best.value):
                self.best = built
        if self.best is not None and self.best.value >= self.ceiling:
            raise _Stop  # nothing can pay more

    def _assign(
        self, feats: list[tuple[bool, int, int, bool]], partners: tuple[int, ...], skel_bits: int
    ) -> tuple[int, tuple[int, ...]] | None:
        """The most valuable ends for the slots (value without the fixed part), or None."""
        return _Ends(self, feats, partners, skel_bits).run()

    # -- the answer ------------------------------------------------------------------------------------

    def _build(
        self, placed: list[tuple[_Sig, Cell, int]], slots: list[Slot], chosen: tuple[_Sig, ...]
    ) -> Assembly | None:
        """The robot of a skeleton and its ends, checked by the geometry module like any player's layout
        (None if it fails: the search's shortcuts are only estimates for robots with loops)."""
        used: dict[int, int] = {}

        def take(sig: _Sig) -> str:
            k = used.get(id(sig), 0)
            used[id(sig)] = k + 1
            return PARTS[sig.parts[k]].id

        layout = [(self.torso.id, 0, 0, 0)]
        for sig, (x, y), rotation in placed:
            layout.append((take(sig), x, y, rotation))
        for ((x, y), facing, _, _), sig in zip(slots, chosen):
            layout.append((take(sig), x, y, (facing - sig.port[0]) % 4))
        robot = assemble(layout)
        if not robot.finished:
            return None
        batteries = self._batteries(robot)
        m = measure(robot, batteries)
        magnets = tuple(PARTS[p].id for p in self.magnets[: self.magnets_needed])
        if not all(meets(r, m, len(magnets)) for r in self.reqs):
            return None
        breakdown = sale_breakdown(self.pay, self.reqs, self.bonuses, m)
        return Assembly(
            tuple(layout),
            tuple(PARTS[b].id for b in batteries),
            magnets,
            m,
            breakdown["total"],
            tuple(breakdown.items()),
        )

    def _batteries(self, robot: Robot) -> list[int]:
        """The fewest batteries sold alongside that earn the most bonus tiles (one each of a kind of icons)."""
        useful: dict[int, int] = {}
        for b in self.batteries:
            bits = self._bits(PARTS[b].icons)
            if bits and bits not in useful:
                useful[bits] = b
        best: tuple[int, int, list[int]] = (self._value(measure(robot, [])), 0, [])
        choices = list(useful.values())
        if len(choices) > 8:  # (never with the shipped catalogue) all of them earn at least as much
            return choices
        for mask in range(1, 1 << len(choices)):
            picked = [b for k, b in enumerate(choices) if mask >> k & 1]
            value = self._value(measure(robot, picked))
            if (value, -len(picked)) > (best[0], -best[1]):
                best = (value, len(picked), picked)
        return best[2]

    def _value(self, m: Measures) -> int:
        return sale_breakdown(self.pay, self.reqs, self.bonuses, m)["total"]


_BIG = 1 << 30


def _suffixes(feats: list[tuple[bool, int, int, bool]]) -> list[tuple[int, int, int, int, bool]]:
    """For each slot, what the slots from it on could reach: (min y, max y, min x, max x, a long arm)."""
    out = [(_BIG, -_BIG, _BIG, -_BIG, False)]
    for _, y, x, ok in reversed(feats):
        lo_y, hi_y, lo_x, hi_x, arm = out[-1]
        out.append((min(lo_y, y), max(hi_y, y), min(lo_x, x), max(hi_x, x), arm or ok))
    return out[::-1]


class _Ends:
    """Ends assigned to a skeleton's slots, best sale value first found, branches cut early."""

    def __init__(
        self, search: _Search, feats: list[tuple[bool, int, int, bool]], partners: tuple[int, ...], skel_bits: int
    ) -> None:
        self.search = search
        self.sigs = sigs = search.ends
        self.feats = feats
        self.partners = partners
        self.skel_bits = skel_bits
        self.n = len(feats)
        self.counts = [s.count for s in sigs]
        self.choice = [0] * self.n
        self.best: tuple[int, tuple[int, ...]] | None = None
        pink_ends = sum(s.count for s in sigs if s.pinks)
        all_bits = skel_bits
        for s in sigs:
            all_bits |= s.bits
        self.ceiling = search._bonus_value(all_bits) + PINK_PAIR * min(pink_ends, sum(f[0] for f in feats))
        self.suffix = _suffixes(feats)
        self.max_eyes = max((s.eyes for s in sigs if s.head), default=0)
        self.two_heads = "two_heads" in search.kinds

    def run(self) -> tuple[int, tuple[int, ...]] | None:
        self.rec(0, 0, 0, 0, 0, self.skel_bits, 0, _BIG, -_BIG, _BIG, -_BIG, False)
        return self.best

    def finish(
        self, eyes: int, heads: int, bases: int, hands: int, bits: int, pinks: int, span: tuple[int, ...]
    ) -> bool:
        """A full assignment: keep it if it meets the counts and sizes and pays more; True at the ceiling."""
        s = self.search
        head_y, base_y, lo_x, hi_x, arm = span
        if not heads or not bases or (self.two_heads and heads != 2):
            return False
        if (s.eye_target >= 0 and eyes != s.eye_target) or (s.hand_target >= 0 and hands != s.hand_target):
            return False
        if (
            (s.tall and base_y - head_y + 1 < s.tall)
            or (s.wide and hi_x - lo_x + 1 < s.wide)
            or (s.long_arm and not arm)
        ):
            return False
        value = s._bonus_value(bits) + PINK_PAIR * pinks
        if self.best is None or value > self.best[0]:
            self.best = (value, tuple(self.choice))
        return value >= self.ceiling

    def rec(
        self,
        i: int,
        eyes: int,
        heads: int,
        bases: int,
        hands: int,
        bits: int,
        pinks: int,
        head_y: int,
        base_y: int,
        lo_x: int,
        hi_x: int,
        arm: bool,
    ) -> bool:
        s = self.search
        s.nodes += 1
        if s.nodes > s.limit:
            raise _Stop
        if i == self.n:
            return self.finish(eyes, heads, bases, hands, bits, pinks, (head_y, base_y, lo_x, hi_x, arm))
        feats, sigs, counts, choice = self.feats, self.sigs, self.counts, self.choice
        pink, y, x, ok = feats[i]
        mate = self.partners[i]
        start = choice[i - 1] if i and feats[i - 1] == feats[i] and mate < 0 else 0
        left = self.n - i - 1
        min_y, max_y, min_x, max_x, arm_later = self.suffix[i + 1]
        for si in range(start, len(sigs)):
            sig = sigs[si]
            if not counts[si] or (
                0 <= mate < i and (sigs[choice[mate]].kind, sigs[choice[mate]].hands) != (sig.kind, sig.hands)
            ):
                continue
            h, b, e, hn = heads + sig.head, bases + sig.base, eyes + sig.eyes, hands + sig.hands
            if not self._counts_ok(h, b, e, hn, left):
                continue
            hy = min(head_y, y) if sig.head else head_y
            by = max(base_y, y) if sig.base else base_y
            if s.tall and max(by, max_y) - min(hy, min_y) + 1 < s.tall:
                continue
            lx, hx = (min(lo_x, x), max(hi_x, x)) if sig.ender else (lo_x, hi_x)
            if s.wide and max(hx, max_x) - min(lx, min_x) + 1 < s.wide:
                continue
            a = arm or (ok and sig.ender)
            if s.long_arm and not a and not arm_later:
                continue
            counts[si] -= 1
            choice[i] = si
            done = self.rec(i + 1, e, h, b, hn, bits | sig.bits, pinks + (pink and sig.pinks > 0), hy, by, lx, hx, a)
            counts[si] += 1
            if done:
                return True
        return False

    def _counts_ok(self, heads: int, bases: int, eyes: int, hands: int, left: int) -> bool:
        """Whether exact counts (heads, eyes, hands) and a head and a base are still reachable."""
        s = self.search
        if (not heads) + (not bases) > left or (self.two_heads and heads > 2):
            return False
        if s.eye_target >= 0 and (eyes > s.eye_target or eyes + left * self.max_eyes < s.eye_target):
            return False
        return not (s.hand_target >= 0 and hands > s.hand_target)
