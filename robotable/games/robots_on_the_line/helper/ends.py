"""The assembly helper's second level: ends (heads, bases, hands, antennas) assigned to a skeleton's slots,
the best sale value first found, branches cut when they can no longer meet a count or a size."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..components import PINK_PAIR
from .tiles import Sig

if TYPE_CHECKING:
    from .skeletons import Search

#: What the ends chosen so far reach: (top head y, bottom base y, leftmost and rightmost arm end x, a long arm).
Span = tuple[int, int, int, int, bool]


class Stop(Exception):
    """The best conceivable sale is found, or the node limit is reached."""


BIG = 1 << 30


def _suffixes(feats: list[tuple[bool, int, int, bool]]) -> list[tuple[int, int, int, int, bool]]:
    """For each slot, what the slots from it on could reach: (min y, max y, min x, max x, a long arm)."""
    out = [(BIG, -BIG, BIG, -BIG, False)]
    for _, y, x, ok in reversed(feats):
        lo_y, hi_y, lo_x, hi_x, arm = out[-1]
        out.append((min(lo_y, y), max(hi_y, y), min(lo_x, x), max(hi_x, x), arm or ok))
    return out[::-1]


class Ends:
    """Ends assigned to a skeleton's slots, best sale value first found, branches cut early."""

    def __init__(
        self, search: Search, feats: list[tuple[bool, int, int, bool]], partners: tuple[int, ...], skel_bits: int
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
        #: whether the ends chosen must reach a size (tall, wide, a long arm)
        self.sized = bool(search.tall or search.wide or search.long_arm)
        #: per slot, whether it is alike to the one before (its end is chosen from the same sig on)
        self.after_previous = [bool(i) and feats[i - 1] == feats[i] and partners[i] < 0 for i in range(self.n)]

    def run(self) -> tuple[int, tuple[int, ...]] | None:
        self.rec(0, 0, 0, 0, 0, self.skel_bits, 0, (BIG, -BIG, BIG, -BIG, False))
        return self.best

    def finish(self, eyes: int, heads: int, bases: int, hands: int, bits: int, pinks: int, span: Span) -> bool:
        """A full assignment: keep it if it meets the counts and sizes and pays more; True at the ceiling."""
        s = self.search
        if not heads or not bases or (self.two_heads and heads != 2):
            return False
        if (s.eye_target >= 0 and eyes != s.eye_target) or (s.hand_target >= 0 and hands != s.hand_target):
            return False
        if self.sized and not self._big_enough(span):
            return False
        value = s._bonus_value(bits) + PINK_PAIR * pinks
        if self.best is None or value > self.best[0]:
            self.best = (value, tuple(self.choice))
        return value >= self.ceiling

    def rec(self, i: int, eyes: int, heads: int, bases: int, hands: int, bits: int, pinks: int, span: Span) -> bool:
        """Choose the ends of slots ``i`` on, given the counts, icons, pink pairs and span so far; True when
        the best conceivable assignment is found (the search stops)."""
        s = self.search
        s.nodes += 1
        if s.nodes > s.limit:
            raise Stop
        if i == self.n:
            return self.finish(eyes, heads, bases, hands, bits, pinks, span)
        sigs, counts, choice = self.sigs, self.counts, self.choice
        pink = self.feats[i][0]
        mate = self.partners[i]
        start = choice[i - 1] if self.after_previous[i] else 0
        left = self.n - i - 1
        for si in range(start, len(sigs)):
            sig = sigs[si]
            if not counts[si] or (0 <= mate < i and sigs[choice[mate]].shape != sig.shape):
                continue
            h, b, e, hn = heads + sig.head, bases + sig.base, eyes + sig.eyes, hands + sig.hands
            if not self._counts_ok(h, b, e, hn, left):
                continue
            grown = self._grown(i, sig, span) if self.sized else span
            if grown is None:
                continue
            counts[si] -= 1
            choice[i] = si
            done = self.rec(i + 1, e, h, b, hn, bits | sig.bits, pinks + (pink and sig.pinks > 0), grown)
            counts[si] += 1
            if done:
                return True
        return False

    def _grown(self, i: int, sig: Sig, span: Span) -> Span | None:
        """The span once ``sig`` ends slot ``i`` (None: tall, wide or a long arm is now out of reach)."""
        s = self.search
        head_y, base_y, lo_x, hi_x, arm = span
        _, y, x, ok = self.feats[i]
        min_y, max_y, min_x, max_x, arm_later = self.suffix[i + 1]
        hy = min(head_y, y) if sig.head else head_y
        by = max(base_y, y) if sig.base else base_y
        if s.tall and max(by, max_y) - min(hy, min_y) + 1 < s.tall:
            return None
        lx, hx = (min(lo_x, x), max(hi_x, x)) if sig.ender else (lo_x, hi_x)
        if s.wide and max(hx, max_x) - min(lx, min_x) + 1 < s.wide:
            return None
        a = arm or (ok and sig.ender)
        if s.long_arm and not a and not arm_later:
            return None
        return hy, by, lx, hx, a

    def _big_enough(self, span: Span) -> bool:
        """Whether a full assignment's span is tall and wide enough and has a long arm, as asked."""
        s = self.search
        head_y, base_y, lo_x, hi_x, arm = span
        return not (
            (s.tall and base_y - head_y + 1 < s.tall)
            or (s.wide and hi_x - lo_x + 1 < s.wide)
            or (s.long_arm and not arm)
        )

    def _counts_ok(self, heads: int, bases: int, eyes: int, hands: int, left: int) -> bool:
        """Whether exact counts (heads, eyes, hands) and a head and a base are still reachable."""
        s = self.search
        if (not heads) + (not bases) > left or (self.two_heads and heads > 2):
            return False
        if s.eye_target >= 0 and (eyes > s.eye_target or eyes + left * self.max_eyes < s.eye_target):
            return False
        return not (s.hand_target >= 0 and hands > s.hand_target)
