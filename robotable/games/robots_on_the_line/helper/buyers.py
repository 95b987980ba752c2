"""What one buyer asks of a robot, and how it tells parts apart: computed once per buyer and cached."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..components import BONUS_TILES, CONNECTORS, ENDS, MAGNETS, PARTS, REQUIREMENTS, Requirement
from ..part_tables import ONE_PORT, TURNS

#: Fields of :func:`part_facts` (8 bits each: a hand holds far fewer than 256 parts).
F_PORTS, F_HEADS, F_BASES, F_ONES, F_TURNS = 0, 8, 16, 24, 32
FIELD = 255


def part_facts(keys: Sequence[tuple[Any, ...] | None]) -> tuple[int, ...]:
    """Per part int, what :func:`may_end` adds up, packed in one int (fields of 8 bits): its ports, 1 if
    it is a head, 1 if a base, 1 if it has one port, 1 if a path may turn on it; 0 for a part the buyer
    cannot use (``keys[p]`` None).

    >>> from robotable.games.robots_on_the_line.components import part_index
    >>> facts = part_facts(ANY_BUYER.keys)
    >>> head, elbow = facts[part_index("head-01")], facts[part_index("elbow-01")]
    >>> [head >> f & FIELD for f in (F_PORTS, F_HEADS, F_BASES, F_ONES, F_TURNS)]
    [1, 1, 0, 1, 0]
    >>> [elbow >> f & FIELD for f in (F_PORTS, F_HEADS, F_BASES, F_ONES, F_TURNS)]
    [2, 0, 0, 0, 1]
    """
    return tuple(
        0
        if key is None
        else len(key[5])
        | (key[0] == "head") << F_HEADS
        | (key[0] == "base") << F_BASES
        | ONE_PORT[p] << F_ONES
        | TURNS[p] << F_TURNS
        for p, key in enumerate(keys)
    )


#: More fields of :func:`part_tally` (after those of :func:`part_facts`): what :func:`.refusals.hopeless`
#: and :func:`.refusals.too_small` count.
T_MAGNETS, T_HEADS, T_BASES, T_HANDS, T_ENDERS, T_EXTENDERS, T_SPLITTERS, T_ELBOWS, T_TILES, T_MULTI = range(40, 120, 8)
#: The field of :func:`part_tally` counting the connectors of each kind a buyer may ask for.
T_KIND = {"extender": T_EXTENDERS, "splitter": T_SPLITTERS, "elbow": T_ELBOWS}


def part_tally(keys: Sequence[tuple[Any, ...] | None], facts: Sequence[int]) -> tuple[int, ...]:
    """Per part int, :func:`part_facts` and what the other quick refusals count, packed in one int (fields
    of 8 bits): 1 if a magnet; for a usable part (``keys[p]`` not None) 1 if a head, a base, a hand, an arm end
    (a hand, or an antenna when ``keys`` tells antennas) with one port, 1 for a connector of each kind
    (a part that is not an end with one port), 1 for a usable tile, 1 if it has two ports or more.
    So the sum over a hand gives every count :func:`.refusals.refused` needs in one pass.

    >>> from robotable.games.robots_on_the_line.components import part_index
    >>> tally = part_tally(ANY_BUYER.keys, ANY_BUYER.facts)
    >>> hand = [part_index(p) for p in ("head-01", "elbow-01", "elbow-02", "magnet-01", "battery-01")]
    >>> total = sum(tally[p] for p in hand)
    >>> [total >> f & FIELD for f in (T_MAGNETS, T_HEADS, T_ELBOWS, T_TILES, T_MULTI)]
    [1, 1, 2, 3, 2]
    """
    out = []
    for p, key in enumerate(keys):
        packed = facts[p] | (p in MAGNETS) << T_MAGNETS
        if key is not None:
            kind, ports = key[0], key[5]
            packed |= 1 << T_TILES
            if kind in ENDS and len(ports) == 1:
                packed |= (kind == "head") << T_HEADS | (kind == "base") << T_BASES | (kind == "hand") << T_HANDS
                packed |= (kind == "hand" or bool(key[4])) << T_ENDERS
            else:
                packed |= 1 << T_MULTI
                if kind in T_KIND:
                    packed |= 1 << T_KIND[kind]
        out.append(packed)
    return tuple(out)


def extra_ports(kinds: frozenset[str]) -> int:
    """What the connectors a buyer asks for (an extender, a splitter, an elbow) bring at least to the
    sum of (ports - 2) over a robot's connectors: each kind asked for is on the robot at least once."""
    return sum(_FEWEST_PORTS[kind] - 2 for kind in CONNECTORS if kind in kinds)


class AnyBuyer:
    """The parts some buyer may use (every placed part): for a test that holds for every buyer at once."""

    keys = tuple((p.kind, 0, 0, 0, False, p.ports) if p.kind in CONNECTORS + ENDS else None for p in PARTS)
    facts = part_facts(keys)
    tally = part_tally(keys, facts)
    extra_ports = 0


ANY_BUYER = AnyBuyer()


@dataclass(frozen=True)
class Buyer:
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
    #: per part int: its signature key with no bonus icons (their bits 0; see :attr:`keys`)
    plain_keys: tuple[tuple[Any, ...] | None, ...]
    #: what the part table depends on besides the icons: (no wheels, eye target, hand target, hands counted,
    #: antennas end arms) (see :func:`_table`)
    table_args: tuple[bool, int, int, bool, bool]
    #: the bonus tiles' icons, sorted (their bits in that order)
    icons: tuple[str, ...]
    #: per part int: what :func:`may_end` adds up (:func:`part_facts`)
    facts: tuple[int, ...]
    #: per part int: what :func:`.refusals.refused` adds up (:func:`part_tally`)
    tally: tuple[int, ...]
    #: "exactly two heads" is asked
    two_heads: bool
    #: the fields of :func:`part_tally` counting the connectors of the kinds asked for
    asked: tuple[int, ...]

    def bits(self, icons: frozenset[str]) -> int:
        return sum(self.bit.get(i, 0) for i in icons)

    @functools.cached_property
    def keys(self) -> tuple[tuple[Any, ...] | None, ...]:
        """Per part int: its signature key (kind, eyes, hands, bits, antenna, ports), or None if it cannot be
        used. Built on first use: most buyers of a game are only asked the quick refusals, which read
        :attr:`plain_keys` and the packed tables."""
        return _table(*self.table_args, self.icons)


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
def buyer_of(reqs: tuple[int, ...], bonuses: tuple[int, ...]) -> Buyer:
    """What the requirement tiles ``reqs`` and bonus tiles ``bonuses`` (ints) ask, and the parts' keys."""
    icons = sorted({i for b in bonuses for i in BONUS_TILES[b].icons})
    bit = {icon: 1 << k for k, icon in enumerate(icons)}
    return Buyer(
        **_asks(reqs),
        bit=bit,
        bonus_bits=[(sum(bit[i] for i in BONUS_TILES[b].icons), BONUS_TILES[b].value) for b in bonuses],
        icons=tuple(icons),
    )


@functools.lru_cache(maxsize=1024)
def _asks(reqs: tuple[int, ...]) -> dict[str, Any]:
    """The fields of :class:`Buyer` that the requirement tiles ``reqs`` decide (many games' buyers share them)."""
    rq = [REQUIREMENTS[r] for r in reqs]
    kinds = frozenset(r.kind for r in rq)
    eye_target, hand_target = _exact(rq, "eyes", "eyes", -1), _exact(rq, "hands", "count", -1)
    wide, long_arm = _least(rq, "wide"), _least(rq, "long_arm")
    table_args = (
        "no_wheels" in kinds,
        eye_target,
        hand_target,
        bool(kinds & {"hands", "symmetry"}),
        bool(wide or long_arm),
    )
    plain_keys, facts, tally = _plain_table(*table_args)
    return {
        "kinds": kinds,
        "eye_target": eye_target,
        "hand_target": hand_target,
        "magnets_needed": _exact(rq, "magnets", "count", 0),
        "tall": _least(rq, "tall"),
        "wide": wide,
        "long_arm": long_arm,
        "symmetry": "symmetry" in kinds,
        "requirement_bonus": sum(r.bonus for r in rq),
        "extra_ports": extra_ports(kinds),
        "contradictory": any(
            len({getattr(r, field) for r in rq if r.kind == kind}) > 1
            for kind, field in (("eyes", "eyes"), ("hands", "count"), ("magnets", "count"))
        ),
        "plain_keys": plain_keys,
        "table_args": table_args,
        "facts": facts,
        "tally": tally,
        "two_heads": "two_heads" in kinds,
        "asked": tuple(T_KIND[kind] for kind in ("extender", "splitter", "elbow") if kind in kinds),
    }


def _exact(rq: list[Requirement], kind: str, field: str, absent: int) -> int:
    """The exact count (``field``) the first requirement of ``kind`` asks, or ``absent``."""
    return next((int(getattr(r, field)) for r in rq if r.kind == kind), absent)


def _least(rq: list[Requirement], kind: str) -> int:
    """The most tiles the requirements of a size ``kind`` (tall, wide, long arm) ask for at least, or 0."""
    return max((r.min_tiles for r in rq if r.kind == kind), default=0)


@functools.lru_cache(maxsize=4096)
def _table(
    no_wheels: bool, eye_target: int, hand_target: int, count_hands: bool, arms: bool, icons: tuple[str, ...]
) -> tuple[tuple[Any, ...] | None, ...]:
    """The buyer's part table (:func:`_plain_table` with the bonus ``icons``, sorted, as bits in that order):
    computed once per kind of buyer and set of bonus icons, which many buyers share."""
    plain = _plain_table(no_wheels, eye_target, hand_target, count_hands, arms)[0]
    return _with_icons(plain, {icon: 1 << k for k, icon in enumerate(icons)})


def _with_icons(plain: tuple[tuple[Any, ...] | None, ...], bit: dict[str, int]) -> tuple[tuple[Any, ...] | None, ...]:
    """The part table ``plain`` with each usable part's bonus icons as bits (key field 3)."""
    keys = list(plain)
    bits_of: dict[int, int] = {}  # the bonus icons each part shows, as bits
    for icon, b in bit.items():
        for index in _WITH_ICON.get(icon, ()):
            bits_of[index] = bits_of.get(index, 0) + b
    for index, bits in bits_of.items():
        key = keys[index]
        if key is not None:
            keys[index] = (*key[:3], bits, *key[4:])
    return tuple(keys)


@functools.cache
def _plain_table(
    no_wheels: bool, eye_target: int, hand_target: int, count_hands: bool, arms: bool
) -> tuple[tuple[tuple[Any, ...] | None, ...], tuple[int, ...], tuple[int, ...]]:
    """The buyer's part table before bonus icons (their bits 0), and its :func:`part_facts` and
    :func:`part_tally` (which no icon changes): computed once per kind of buyer."""
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
    facts = part_facts(keys)
    return tuple(keys), facts, part_tally(keys, facts)
