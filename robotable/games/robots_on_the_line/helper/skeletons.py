"""The assembly helper's search: skeletons (the torso and connectors on its ports, leaving slots for ends),
fewest connectors first, each handed to :mod:`.ends` to choose its ends."""

from __future__ import annotations

import functools
import operator

from ..components import PARTS, PINK_PAIR, STEP, TORSOS, BonusTile, Requirement, opposite
from .build import Assembly, build
from .buyers import Buyer, buyer_of
from .ends import Ends, Stop
from .refusals import hopeless
from .tiles import Cell, Sig, Slot, around, facing, signatures

_OPPOSITE = tuple(opposite(side) for side in range(4))

#: The open ports of a skeleton: (cell, side) -> (pink, arm id).
OpenPorts = dict[tuple[Cell, int], tuple[bool, int]]


class Search:
    """Two levels: skeletons (the torso and connectors, leaving slots), then ends assigned to the slots."""

    def __init__(
        self,
        hand: tuple[int, ...],
        torso: int,
        reqs: list[Requirement],
        bonuses: list[BonusTile],
        pay: int,
        limit: int,
        buyer: Buyer | None = None,
    ) -> None:
        """``buyer``: :func:`.buyers.buyer_of` the requirements and bonus tiles, if the caller has it."""
        self.hand = hand
        self.torso = TORSOS[torso]
        self.reqs = reqs
        self.bonuses = bonuses
        self.pay = pay
        self.limit = limit
        if buyer is None:
            buyer = buyer_of(tuple(r.index for r in reqs), tuple(b.index for b in bonuses))
        self.buyer = buyer
        self.kinds = buyer.kinds
        self.eye_target = buyer.eye_target
        self.hand_target = buyer.hand_target
        self.magnets_needed = buyer.magnets_needed
        self.tall, self.wide, self.long_arm = buyer.tall, buyer.wide, buyer.long_arm
        self.symmetry = buyer.symmetry
        self.bonus_bits = buyer.bonus_bits
        self.fixed = pay + buyer.requirement_bonus
        self.magnets = [p for p in hand if PARTS[p].kind == "magnet"]
        self.batteries = [p for p in hand if PARTS[p].kind == "battery"]
        order = signatures(hand, buyer.keys)
        self.ends = [s for s in order if s.end]
        self.connectors = [s for s in order if not s.end]
        # a connector closing a loop may end two or three ports at once
        self.max_close = max((s.nports for s in self.connectors), default=0)
        self.battery_bits = functools.reduce(operator.or_, (buyer.bits(PARTS[b].icons) for b in self.batteries), 0)
        self.torso_bits = buyer.bits(self.torso.icons)
        self.best: Assembly | None = None
        self.nodes = 0
        self.memo: dict[tuple[object, ...], tuple[int, tuple[int, ...]] | None] = {}
        self.occ: dict[Cell, dict[int, bool]] = {}
        self.placed: list[tuple[Sig, Cell, int, int]] = []
        self.slots: list[Slot] = []
        self.reserved: set[Cell] = set()
        self.kind_at: dict[Cell, str] = {}
        xs = [x for x, _ in self.torso.cells]
        self.axis2 = min(xs) + max(xs)  # twice the x of the torso's middle column

    def _bonus_value(self, bits: int) -> int:
        return sum(v for b, v in self.bonus_bits if b & bits == b)

    # -- the search ------------------------------------------------------------------------------------

    def _hopeless(self) -> bool:
        """Whether the hand's parts cannot meet the buyer's requirements, whatever their layout."""
        return hopeless(self.hand, self.buyer)

    def run(self) -> Assembly | None:
        """The best robot (None: none found), the hand first refused if hopeless (:func:`.refusals.hopeless`)."""
        if self._hopeless():
            return None
        return self.explore()

    def explore(self) -> Assembly | None:
        """:meth:`run` for a hand the caller has already found not hopeless (so it is not told twice)."""
        open_ports = self._torso_ports()
        if open_ports is None:
            return None
        if len(open_ports) > sum(s.count for s in self.ends) + sum(s.nports * s.count for s in self.connectors):
            return None
        self.ceiling = self._ceiling()
        self.ends_total = sum(s.count for s in self.ends)
        try:
            for k in range(sum(s.count for s in self.connectors) + 1):  # fewest connectors first
                self.k = k
                self._skeleton(open_ports, 0)
        except Stop:
            pass
        return self.best

    def _torso_ports(self) -> OpenPorts | None:
        """The torso on the grid and its ports, all open (None if a port faces the torso itself: it can
        never be ended). A port on the left or right side starts an arm (its number), others -1."""
        t = self.torso
        for cell in t.cells:
            self.occ[cell] = {}
        for cell, side, pink in t.ports:
            self.occ[cell][side] = pink
        open_ports: OpenPorts = {}
        for arm, (cell, side, pink) in enumerate(t.ports):
            if (cell[0] + STEP[side][0], cell[1] + STEP[side][1]) in self.occ:
                return None
            open_ports[(cell, side)] = (pink, arm if side in (1, 3) else -1)
        return open_ports

    def _ceiling(self) -> int:
        """The best conceivable sale: every bonus tile the hand's icons could earn, every pink pair."""
        sigs = self.ends + self.connectors
        all_bits = functools.reduce(operator.or_, (s.bits for s in sigs), self.torso_bits | self.battery_bits)
        pinks = sum(p for _, _, p in self.torso.ports) + sum(s.pinks * s.count for s in sigs)
        return self.fixed + self._bonus_value(all_bits) + PINK_PAIR * (pinks // 2)

    def _skeleton(self, open_ports: OpenPorts, used: int) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise Stop
        if not open_ports:
            if used == self.k:
                self._skeleton_done()
            return
        if (self.tall or self.wide) and self._too_small(open_ports, self.k - used):
            return
        if self.symmetry and self._unmirrorable(open_ports, self.k - used):
            return
        port, (pink, arm) = next(reversed(open_ports.items()))
        target = facing(port)
        back = _OPPOSITE[port[1]]
        rest = dict(open_ports)
        del rest[port]
        self._end_on(target, back, pink, arm, len(open_ports), rest, used)
        if used < self.k and target not in self.reserved:
            self._connect_on(target, back, arm, rest, used)

    def _end_on(
        self, target: Cell, back: int, pink: bool, arm: int, open_count: int, rest: OpenPorts, used: int
    ) -> None:
        """Leave a slot on ``target`` for an end, if the cell is free and no other open port faces it."""
        if (
            target not in self.reserved
            # (not self._too_many(open_count, self.k - used), written out)
            and len(self.slots) + open_count <= self.ends_total + (self.k - used) * self.max_close
            and target not in map(facing, rest)
            and (not self.symmetry or self._mirror_ok(target, ""))
        ):
            self.slots.append((target, back, pink, arm))
            self.reserved.add(target)
            self._skeleton(rest, used)
            self.reserved.discard(target)
            self.slots.pop()

    def _connect_on(self, target: Cell, back: int, arm: int, rest: OpenPorts, used: int) -> None:
        """Put each connector left that fits on ``target``, its port ``back`` facing the open port."""
        # (the most open ports that can still be closed with one more connector: see _too_many)
        most = self.ends_total + (self.k - used - 1) * self.max_close - len(self.slots)
        for sig in self.connectors:
            if not sig.count or (self.symmetry and not self._mirror_ok(target, sig.kind)):
                continue
            for rotation, ports in sig.rotations:
                if back not in ports:
                    continue
                new_open = self._fit(target, ports, rest, arm)
                if new_open is None or len(new_open) > most:
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

    def _unmirrorable(self, open_ports: OpenPorts, spare: int) -> bool:
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

    def _too_small(self, open_ports: OpenPorts, spare: int) -> bool:
        """Whether no way of ending the open ports with ``spare`` more connectors is tall or wide enough."""
        reach = [*map(facing, open_ports)]
        slots = self.slots
        for axis, need in ((1, self.tall), (0, self.wide)):
            if need:
                ends = [c[axis] for c in reach]
                lo, hi = min(ends) - spare, max(ends) + spare
                if slots:
                    at = [slot[0][axis] for slot in slots]
                    lo, hi = min(lo, *at), max(hi, *at)
                if hi - lo + 1 < need:
                    return True
        return False

    def _fit(self, target: Cell, ports: dict[int, bool], rest: OpenPorts, arm: int) -> OpenPorts | None:
        """Open ports after a connector goes on ``target``, or None if a port would face a portless side.

        A port facing another tile's open port closes it: the robot gets a loop."""
        occ, reserved = self.occ, self.reserved
        new_open = dict(rest)
        for q, nb in enumerate(around(target)):
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
        skel_bits, skel_pinks = self._skeleton_bonus()
        order, keyed, partners = self._slot_order(arm_ok, partner)
        key = (tuple(keyed), partners, skel_bits)
        if key not in self.memo:
            self.memo[key] = Ends(self, keyed, partners, skel_bits).run()
        found = self.memo[key]
        if found is not None:
            self._keep(found, skel_pinks, order)
        if self.best is not None and self.best.value >= self.ceiling:
            raise Stop  # nothing can pay more

    def _slot_order(
        self, arm_ok: set[int], partner: dict[Cell, Cell]
    ) -> tuple[list[int], list[tuple[bool, int, int, bool]], tuple[int, ...]]:
        """The slots in the order their ends are chosen (slots alike to the buyer next to each other), what
        the buyer tells apart of each (pink, y, x, on a long arm), and each one's mirrored slot (or -1)."""
        sym = self.symmetry
        feats = [
            (pink, cell[1] if self.tall or sym else 0, cell[0] if self.wide or sym else 0, arm in arm_ok, cell)
            for cell, _, pink, arm in self.slots
        ]
        order = sorted(range(len(feats)), key=lambda i: feats[i][:4] + ((feats[i][4],) if sym else ()))
        keyed = [feats[i][:4] for i in order]
        position = {feats[i][4]: n for n, i in enumerate(order)}
        partners = tuple(position[partner[feats[i][4]]] if feats[i][4] in partner else -1 for i in order)
        return order, keyed, partners

    def _keep(self, found: tuple[int, tuple[int, ...]], skel_pinks: int, order: list[int]) -> None:
        """Build the robot of this skeleton and its best ends, and keep it if it pays more than the best."""
        value = self.fixed + found[0] + PINK_PAIR * skel_pinks
        if self.best is not None and value <= self.best.value:
            return
        chosen = tuple(self.ends[si] for si in found[1])
        placed = [(sig, cell, rotation) for sig, cell, rotation, _ in self.placed]
        built = build(self, placed, [self.slots[i] for i in order], chosen)
        if built is not None and (self.best is None or built.value > self.best.value):
            self.best = built
