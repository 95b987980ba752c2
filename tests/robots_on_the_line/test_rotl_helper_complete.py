"""The assembly helper is complete: whenever a hand can make a sale that ``apply`` accepts, the helper
finds one worth at least as much (or says it stopped early), robots that need a loop of tiles included.

Hands are built from random finished robots (:mod:`rotl_random_robots`).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from robotable.games.robots_on_the_line import GAME, SellRobot
from robotable.games.robots_on_the_line.components import BUYER_IDS, BUYERS, torso_index
from robotable.games.robots_on_the_line.geometry import assemble, meets
from robotable.games.robots_on_the_line.helper import search

from .rotl_positions import set_buyer, set_hand
from .rotl_random_robots import has_loop, random_sale


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
