"""The assembly helper's refusal of hands too small for a height, a width or a long arm (``too_small``, issue 29 item 6)
never refuses a robot that exists: a finished robot's own parts are never too small for the height and
width it measures, and a hand it refuses is one the full search sells nothing from."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotable.core import Rng
from robotable.games.robots_on_the_line import helper
from robotable.games.robots_on_the_line.components import PARTS, REQUIREMENTS, TORSOS, part_index, torso_index
from robotable.games.robots_on_the_line.geometry import assemble, measure

from .rotl_random_robots import random_robot

SIZES = [r.index for r in REQUIREMENTS if r.kind in ("tall", "wide", "long_arm")]


def test_a_finished_robots_parts_are_never_too_small_for_its_own_size():
    rng = Rng(29)
    sized = long_arms = 0
    for _ in range(400):
        layout = random_robot(rng)
        if layout is None:
            continue
        m = measure(assemble(layout), [])
        hand = tuple(part_index(name) for name, *_ in layout[1:])
        buyer = dataclasses.replace(helper.buyer_of((), ()), tall=m.tall, wide=m.wide, long_arm=m.long_arm)
        assert not helper.too_small(hand, torso_index(layout[0][0]), buyer), (layout, m.tall, m.wide, m.long_arm)
        sized += m.tall > 1 or m.wide > 1
        long_arms += m.long_arm > 2
    assert sized > 100
    assert long_arms > 10


def test_a_short_hand_is_refused():
    hand = tuple(part_index(p) for p in ("head-20", "base-04", "hand-14", "hand-18", "antenna-08"))
    four_ports = torso_index("torso-12")
    for index in SIZES:
        buyer = helper.buyer_of((index,), ())
        assert helper.too_small(hand, four_ports, buyer)
        assert helper.search(hand, four_ports, [REQUIREMENTS[index]], [], 20).assembly is None


class _SearchEverything(helper.Search):
    """The helper's search without its refusal of hopeless hands."""

    def _hopeless(self) -> bool:
        return False


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.integers(0, len(PARTS) - 1), min_size=3, max_size=8, unique=True),
    st.integers(0, len(TORSOS) - 1),
    st.sampled_from(SIZES),
)
def test_a_hand_too_small_is_one_the_full_search_sells_nothing_from(hand, torso, size):
    hand = tuple(sorted(hand))
    if not helper.too_small(hand, torso, helper.buyer_of((size,), ())):
        return
    assert _SearchEverything(hand, torso, [REQUIREMENTS[size]], [], 20, 20_000).run() is None
