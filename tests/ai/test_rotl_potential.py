"""Robots on the Line's hand estimate, counted once per hand (``tally``) and once per buyer and torso
(``asks``): the same numbers as the estimate written out part by part, and a cached potential that
equals the potential computed afresh."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from robotable.ai.heuristics import robots_on_the_line as rotl
from robotable.games.robots_on_the_line.components import BONUS_TILES, BUYERS, PARTS, REQUIREMENTS, TORSOS
from robotable.games.robots_on_the_line.helper import subset_sizes


def written_out_missing_parts(hand: Sequence[int], torso: int, reqs: Sequence[int]) -> int:  # noqa: C901 (the oracle, in one piece)
    """The estimate as it was first written, walking the hand and the requirement tiles for each buyer."""
    rq = [REQUIREMENTS[r] for r in reqs]
    kinds = {r.kind for r in rq}
    heads = [PARTS[p].eyes for p in hand if PARTS[p].kind == "head"]
    n = dict.fromkeys(("base", "hand1", "hand2", "antenna", "extender", "elbow", "splitter", "magnet"), 0)
    for p in hand:
        part = PARTS[p]
        if part.kind == "base":
            n["base"] += not (part.wheels and "no_wheels" in kinds)
        elif part.kind == "hand":
            n["hand2" if part.hands >= 2 else "hand1"] += 1
        elif part.kind in n:
            n[part.kind] += 1
    miss = 0
    for kind in ("extender", "splitter", "elbow"):
        if kind in kinds and not n[kind]:
            miss += 1
            n[kind] = 1
    cells = TORSOS[torso].cells
    height = max(y for _, y in cells) - min(y for _, y in cells) + 1
    width = max(x for x, _ in cells) - min(x for x, _ in cells) + 1
    sides = {side for _, side, _ in TORSOS[torso].ports}
    has_e, has_w = rotl.E in sides, rotl.W in sides
    need_v = max(0, max((r.min_tiles for r in rq if r.kind == "tall"), default=0) - height - 2)
    need_h, enders_needed = 0, 0
    if "wide" in kinds:
        need_h, enders_needed = max(0, 5 - width - 2) + (0 if has_e and has_w else 2), 2
    if "long_arm" in kinds:
        need_h, enders_needed = max(need_h, 2), max(enders_needed, 1)
    geo = need_v + need_h
    miss += max(0, geo - (n["extender"] + n["splitter"]))
    splitters = max(1 if "splitter" in kinds else 0, min(n["splitter"], max(0, geo - n["extender"])))
    ends_needed = TORSOS[torso].segments + splitters
    eye_target = next((r.eyes for r in rq if r.kind == "eyes"), -1)
    two_heads = "two_heads" in kinds
    if eye_target >= 0:
        sizes = subset_sizes(heads, eye_target) & ({2} if two_heads else set(range(99)))
        used = 2 if two_heads else 1
        head_miss, heads_used, flex = (
            (0, min(sizes), 0) if sizes else ((max(1, used - len(heads)) if two_heads else 1), used, 0)
        )
    elif two_heads:
        head_miss, heads_used, flex = max(0, 2 - len(heads)), 2, 0
    else:
        head_miss, heads_used, flex = (0 if heads else 1), 1, max(0, len(heads) - 1)
    miss += head_miss + (0 if n["base"] else 1)
    target = next((r.count for r in rq if r.kind == "hands"), -1)
    if target < 0:
        hand_miss, hand_ends = 0, n["hand1"] + n["hand2"]
    else:
        options = [
            (max(0, target - 2 * t - n["hand1"]), t + target - 2 * t) for t in range(n["hand2"] + 1) if target >= 2 * t
        ]
        if n["hand2"] == 0 and target >= 2:
            options.append((1 + max(0, target - 2 - n["hand1"]), target - 1))
        hand_miss, hand_ends = min(options) if options else (target, target)
        hand_ends = min(hand_ends, n["hand1"] + n["hand2"] + hand_miss)
    miss += hand_miss
    enders = hand_ends + n["antenna"]
    if enders < enders_needed:
        miss, enders = miss + enders_needed - enders, enders_needed
    have = heads_used + 1 + flex + max(0, n["base"] - 1) + enders
    miss += max(0, ends_needed - have)
    if "magnets" in kinds:
        miss += max(0, 2 - n["magnet"])
    if "symmetry" in kinds:
        if not (has_e and has_w):
            miss += 3
        elif n["hand1"] < 2 and n["antenna"] < 2 and n["hand2"] < 2:
            miss += 1
    return miss


hands = st.lists(st.integers(0, len(PARTS) - 1), max_size=12)
torsos = st.integers(0, len(TORSOS) - 1)
requirement_tiles = st.lists(st.integers(0, len(REQUIREMENTS) - 1), max_size=3, unique=True).map(tuple)


@settings(max_examples=400, deadline=None)
@given(hand=hands, torso=torsos, reqs=requirement_tiles)
def test_the_tallied_estimate_equals_the_estimate_written_out(hand, torso, reqs):
    assert rotl.missing_parts(hand, torso, reqs) == written_out_missing_parts(hand, torso, reqs)
    assert rotl.missing(rotl.tally(tuple(sorted(hand))), rotl.asks(torso, reqs)) == rotl.missing_parts(
        hand, torso, reqs
    )


buyer_entries = st.lists(
    st.tuples(
        st.integers(0, len(BUYERS) - 1),
        requirement_tiles,
        st.lists(st.integers(0, len(BONUS_TILES) - 1), max_size=2, unique=True).map(tuple),
    ),
    min_size=1,
    max_size=4,
).map(tuple)


@settings(max_examples=150, deadline=None)
@given(hand=hands, torso=torsos, buyers=buyer_entries, horizon=st.none() | st.integers(0, 4))
def test_the_remembered_potential_is_the_potential_worked_out_afresh(hand, torso, buyers, horizon):
    """Whatever the order of the hand, and whether or not the answer was remembered."""
    fresh = rotl._potential.__wrapped__(tuple(sorted(hand)), torso, buyers, horizon)
    assert rotl.potential(hand, torso, buyers, horizon) == fresh
    assert rotl.potential(list(reversed(hand)), torso, buyers, horizon) == fresh
    by_buyer = []
    for b, reqs, bonus in buyers:  # the best buyer within the horizon, one at a time
        miss = rotl.missing_parts(hand, torso, reqs)
        if miss == 0:
            worth, miss = rotl._confirmed_worth(tuple(sorted(hand)), torso, b, reqs, bonus)
        else:
            worth = rotl._sale_estimate(rotl.tally(tuple(hand)).icons, torso, b, reqs, bonus) * rotl.DECAY**miss
        if horizon is None or miss <= horizon:
            by_buyer.append(worth)
    assert fresh == max([0.0, *by_buyer])
