"""Issue 18 item 2 through the game's own contract: on 2,000 seeded random hands (loop-only hands
included), whenever ``apply`` accepts a sale built from a hand, ``legal_actions`` lists a sale to that
buyer worth at least as much. Only ``legal_actions``, ``is_legal`` and ``apply`` are used, never the
helper's internals, so the test holds any version of the helper to the rule.

A hand is loop-only when it has fewer one-port tiles (heads, bases, hands, antennas) than its torso has
ports: a robot without a loop closes each torso port and each extra port of a splitter with its own
one-port tile, so only a connector closing a loop can finish such a hand.
"""

from __future__ import annotations

import pytest

from robotable.games.robots_on_the_line import GAME, SellRobot
from robotable.games.robots_on_the_line.components import PARTS, TORSOS, torso_index

from .rotl_positions import set_buyer, set_hand
from .rotl_random_robots import has_loop, random_sale

HANDS = 2000


def loop_only(hand, torso: str) -> bool:
    ones = sum(1 for p in hand if PARTS[p].kind not in ("battery", "magnet") and len(PARTS[p].ports) == 1)
    return ones < len(TORSOS[torso_index(torso)].ports)


def gain(state, action) -> int:
    after = state.clone()
    money = after.money[0]
    after.apply(0, action)
    return after.money[0] - money


def position(seed: int):
    """The state, the buyer and the sale the rules accept for random hand ``seed``."""
    layout, hand, reqs, bonus, buyer, batteries, _ = random_sale(seed)
    state = GAME.start(4, seed=seed % 50)
    bonus_ids = list(dict.fromkeys(b.id for b in bonus))[: buyer.bonus_slots]
    set_buyer(state, buyer.id, [r.id for r in reqs][: buyer.requirement_slots], bonus_ids)
    set_hand(state, 0, [PARTS[p].id for p in hand], torso=layout[0][0])
    sale = SellRobot(buyer.id, tuple(layout), tuple(PARTS[b].id for b in batteries), ())
    return state, hand, sale


def test_random_hands_include_loop_only_hands():
    counts = [0, 0]
    for seed in range(HANDS):
        layout, hand, *_ = random_sale(seed)
        counts[0] += has_loop(layout)
        counts[1] += loop_only(hand, layout[0][0])
    assert counts[0] >= 100 and counts[1] >= 40, counts


@pytest.mark.parametrize("chunk", range(4))
def test_legal_actions_list_a_sale_worth_at_least_any_sale_apply_accepts(chunk):
    missed, loop_only_sold = [], 0
    for seed in range(chunk, HANDS, 4):
        state, hand, sale = position(seed)
        assert state.is_legal(0, sale), f"seed {seed}: {state.why_illegal(0, sale)}"
        listed = [a for a in state.legal_actions(0) if isinstance(a, SellRobot) and a.buyer == sale.buyer]
        best = max((gain(state, a) for a in listed), default=None)
        if best is None or best < gain(state, sale):
            missed.append((seed, loop_only(hand, sale.layout[0][0]), best, gain(state, sale)))
        elif loop_only(hand, sale.layout[0][0]):
            loop_only_sold += 1
    assert not missed, f"(seed, loop-only, best listed, accepted sale): {missed}"
    assert loop_only_sold >= 5, loop_only_sold


def test_a_search_cut_short_says_it_stopped_early():
    """The helper may stop at its step limit; it then answers ``complete: False`` instead of claiming
    that no robot (or no better robot) exists."""
    # imported here: the tests above use only the game's contract, so they also run on older helpers
    from robotable.games.robots_on_the_line.components import part_index
    from robotable.games.robots_on_the_line.helper import search

    hand = [part_index(p) for p in ("base-15", "elbow-01", "elbow-05", "base-01", "head-11", "base-20")]
    full = search(hand, torso_index("torso-20"), [], [], 10)
    assert full.complete and full.assembly is not None and has_loop(full.assembly.layout)
    cut = search(hand, torso_index("torso-20"), [], [], 10, limit=2)
    assert not cut.complete
