"""Decisions of the rules page that no other test holds: family mode's requirement tiles and options,
an antenna head counting as an antenna (3), set-aside requirement tiles going under the pile (5), and
an empty draw pile leaving line spaces empty (13)."""

from __future__ import annotations

import pytest

from robotable.core import BadInput, BadOptions, IllegalAction, Rng
from robotable.games.robots_on_the_line import (
    GAME,
    Accept,
    Decline,
    EndTurn,
    Offer,
    RotlState,
    SellPart,
    SwapTorso,
    TradeJunk,
)
from robotable.games.robots_on_the_line.actions import OFFER_WINDOW
from robotable.games.robots_on_the_line.components import (
    BUYERS,
    BUYERS_IN_PLAY,
    PART_IDS,
    PARTS,
    REQUIREMENT_IDS,
    REQUIREMENTS,
)
from robotable.games.robots_on_the_line.geometry import assemble, measure, meets
from robotable.games.robots_on_the_line.line import EMPTY, pid
from robotable.games.robots_on_the_line.setup import contradicts, deal_buyers

from .rotl_positions import check, fresh, set_draw_top, set_hand, set_line

MAGNET_REQUIREMENTS = {r.index for r in REQUIREMENTS if r.kind == "magnets"}

# -- family mode ----------------------------------------------------------------------------------------------


def test_family_mode_never_deals_the_magnet_requirement():
    """The issue's example: buyer-3 of a 4-player family game on seed 0 got req-18 while every magnet was
    boxed. A requirement no robot can meet in the game being played is replaced like a contradiction."""
    state = GAME.start(4, seed=0, options={"family": True})
    assert state.boxed and all(PART_IDS[pid(m)] == m for m in state.boxed)
    for seed in range(200):
        state = GAME.start(4, seed=seed, options={"family": True})
        dealt = {r for reqs in state.buyer_reqs for r in reqs}
        assert not dealt & MAGNET_REQUIREMENTS, f"seed {seed}: a magnet requirement with the magnets boxed"
        assert all(reqs for reqs in state.buyer_reqs)
        assert not state.check_invariants()
    standard = [GAME.start(4, seed=seed) for seed in range(40)]
    assert any({r for reqs in s.buyer_reqs for r in reqs} & MAGNET_REQUIREMENTS for s in standard)


@pytest.mark.parametrize("num_players", [2, 3])
def test_family_mode_never_deals_the_magnet_requirement_with_fewer_players(num_players):
    dealt = set()
    for seed in range(100):
        state = GAME.start(num_players, seed=seed, options={"family": True})
        assert len(state.boxed) == 8
        dealt |= {r for reqs in state.buyer_reqs for r in reqs}
        assert not state.check_invariants()
    assert not dealt & MAGNET_REQUIREMENTS
    assert len(dealt) == len(REQUIREMENTS) - len(MAGNET_REQUIREMENTS)  # every other tile does come up


def test_a_family_state_with_a_magnet_requirement_is_refused():
    data = GAME.start(2, seed=3, options={"family": True}).to_json()
    data["buyers"][0]["requirements"] = ["req-18"]
    with pytest.raises(BadInput, match="req-18 cannot be met with these options"):
        GAME.state_from_json(data)


@pytest.mark.parametrize("counts", [{"line_resets": 2}, {"switch_flips": 0}, {"line_resets": 0, "switch_flips": 4}])
def test_family_mode_refuses_maintenance_counts(counts):
    with pytest.raises(BadOptions, match="family mode has no maintenance tiles; do not set their counts"):
        GAME.start(3, seed=1, options={"family": True, **counts})
    assert GAME.start(3, seed=1, options=counts).maint  # the same counts are fine in a standard game


# -- decision 3: a head with the antenna icon counts as an antenna --------------------------------------------

# torso-07: one cell, ports N E S W; a long arm of two extenders to the E.
ARM = [
    ("torso-07", 0, 0, 0),
    ("head-05", 0, -1, 0),
    ("base-07", 0, 1, 0),
    ("hand-21", -1, 0, 2),
    ("extender-09", 1, 0, 0),
    ("extender-10", 2, 0, 0),
]
LONG_ARM = REQUIREMENTS[REQUIREMENT_IDS["req-12"]]
WIDE = next(r for r in REQUIREMENTS if r.kind == "wide")


@pytest.mark.parametrize(
    ("end", "counts"),
    [("head-04", True), ("head-10", True), ("head-01", False), ("head-02", False), ("antenna-05", True)],
)
def test_a_head_with_the_antenna_icon_ends_a_long_arm_like_an_antenna(end, counts):
    layout = [*ARM, (end, 3, 0, 1 if end.startswith("head") else 0)]
    robot = assemble(layout)
    assert robot.problems == []
    m = measure(robot)
    assert meets(LONG_ARM, m) is counts
    assert (m.wide >= 5) is counts and meets(WIDE, m) is counts  # hand-21 at x=-1 to the end at x=3


# -- decision 5: a set-aside requirement tile goes under the pile -------------------------------------------------


def _oracle(num_players: int, seed: int, aside_on_top: bool) -> list[list[int]]:
    """Requirement tiles per buyer from the same shuffles as :func:`deal_buyers`, set-aside tiles going
    under the pile (the rule) or back on top (the alternative a test must tell apart)."""
    rng = Rng(seed)
    chosen = list(range(len(BUYERS)))
    rng.shuffle(chosen)
    pile = list(range(len(REQUIREMENTS)))
    rng.shuffle(pile)
    dealt = []
    for b in sorted(chosen[: BUYERS_IN_PLAY[num_players]]):
        mine: list[int] = []
        aside: list[int] = []
        while len(mine) < BUYERS[b].requirement_slots and pile:
            tile = pile.pop()
            if contradicts(REQUIREMENTS[tile], [REQUIREMENTS[t] for t in mine]):
                aside.append(tile)
            else:
                mine.append(tile)
        pile = pile + aside[::-1] if aside_on_top else aside + pile
        dealt.append(mine)
    return dealt


def test_a_contradicting_requirement_tile_is_set_aside_and_goes_under_the_pile():
    differs = 0
    for seed in range(300):
        state = RotlState(4, seed, GAME.check_options({}, 4))
        deal_buyers(state)
        assert state.buyer_reqs == _oracle(4, seed, aside_on_top=False), f"seed {seed}"
        differs += _oracle(4, seed, aside_on_top=True) != state.buyer_reqs
    assert differs >= 5  # seeds where a set-aside tile would have gone to the next buyer from the top


# -- decision 13: an empty draw pile leaves its line's spaces empty ------------------------------------------------


def _empty_draw_pile(state, line: int, keep: int) -> None:
    """Leave only the top ``keep`` parts in draw pile ``line`` (the rest go under its junk pile)."""
    pile = state.draw[line]
    state.junk[line][:0] = pile[: len(pile) - keep]
    state.draw[line] = pile[len(pile) - keep :]
    check(state)


def test_an_empty_draw_pile_leaves_space_1_empty_at_the_start_of_a_turn():
    state = fresh()
    set_line(state, 0, [None, "head-10", "head-11", "head-12", "head-13", "head-14"])
    set_line(state, 1, [None, "base-10", "base-11", "base-12", "base-13", "base-14"])
    _empty_draw_pile(state, 0, 0)
    top1 = state.draw[1][-1]
    state.apply(0, EndTurn())
    assert state.lines[0][0] == EMPTY and state.lines[0][1] == EMPTY  # nothing was drawn for line 0
    assert state.lines[1][0] == top1 and not state.is_over()
    assert not state.check_invariants()


def test_a_line_reset_with_a_short_draw_pile_leaves_the_rest_of_its_line_empty():
    state = fresh(line_resets=1, switch_flips=0)
    set_line(state, 0, [None, "head-10", "head-11", "head-12", "head-13", "head-14"])
    set_line(state, 1, [None, "base-10", "base-11", "base-12", "base-13", "base-14"])
    set_draw_top(state, 1, ["extender-01", "hand-20", "hand-21", "hand-22", "hand-23", "hand-24", "hand-19"])
    set_draw_top(state, 0, ["head-01", "head-02", "head-03"])
    _empty_draw_pile(state, 0, 3)
    assert state.maint == ["line_reset"]
    state.apply(0, EndTurn())  # space 1 of line 0 gets head-01; line 1 draws the icon extender: a reset
    assert state.maint_discard == ["line_reset"]
    line0 = [pid(x) if x != EMPTY else None for x in state.lines[0]]
    assert line0 == [None, None, None, None, "head-03", "head-02"]
    assert EMPTY not in state.lines[1] and state.draw[0] == []
    assert not state.check_invariants()


# -- decision 15: trading at any time --------------------------------------------------------------------------


def test_any_player_may_offer_a_trade_at_any_time_but_the_game_does_not_wait_for_them():
    """ "Players can trade at any time with another player, and it does not have to be their turn to
    initiate the trade." Seat 1 offers during seat 0's turn with no offer to answer."""
    state = fresh(3)
    set_hand(state, 0, ["head-01", "base-01"])
    set_hand(state, 1, ["hand-20", "hand-21"])
    assert state.to_act() == [0] and 1 in state.optional_actors() and 2 in state.optional_actors()
    legal = state.legal_actions(1)
    assert legal and all(isinstance(a, Offer) for a in legal)
    assert Offer(0, ("hand-20",), ("head-01",), 0, 0) in legal
    state.apply(1, Offer(0, ("hand-21",), ("base-01",), 0, 1))
    assert state.to_act() == [0] and [o.giver for o in state.offers] == [1]
    state.apply(0, Accept(state.offers[0].number))
    assert PART_IDS["hand-21"] in state.hands[0] and PART_IDS["base-01"] in state.hands[1]


def test_junk_pile_and_torso_stack_trades_happen_on_ones_own_turn_only():
    state = fresh(2)
    set_hand(state, 1, ["hand-20"], torso="torso-01")
    for action in (TradeJunk(0, "hand-20"), SwapTorso(), EndTurn(), SellPart("hand-20")):
        with pytest.raises(IllegalAction, match="seat 1 is not to act"):
            state.apply(1, action)
    assert not state.check_invariants()


def test_the_offer_limits_one_open_offer_per_player_and_three_a_turn():
    state = fresh(2)
    set_hand(state, 0, ["head-01", "base-01", "hand-20", "hand-21"])
    set_hand(state, 1, ["head-02", "base-02"])
    state.apply(1, Offer(0, ("head-02",), ("head-01",), 0, 0))
    second = Offer(0, ("base-02",), ("head-01",), 0, 0)
    with pytest.raises(IllegalAction, match="seat 1 is not to act"):
        state.apply(1, second)
    assert state.why_illegal(1, second) == "seat 1 already has an open offer to seat 0: wait for the answer"
    assert not [a for a in state.legal_actions(1) if isinstance(a, Offer)]
    for k in range(2):  # declined twice, improved twice
        state.apply(0, Decline(state.offers[0].number))
        state.apply(1, Offer(0, ("base-02",), ("hand-2" + str(k),), k + 1, 0))
    state.apply(0, Decline(state.offers[0].number))
    assert state.why_illegal(1, second) == "seat 1 has made seat 0 3 offers this turn, the most a turn allows"
    assert 1 not in state.optional_actors()
    state.apply(0, EndTurn())  # a new turn: seat 1 may offer again
    assert state.is_legal(1, Offer(0, ("base-02",), ("head-01",), 0, 0))


def test_open_offers_never_share_a_number_modulo_the_encoding_window():
    state = fresh(4)
    for seat, names in enumerate((["head-01", "base-01"], ["head-02", "base-02"], ["head-03"], ["head-04"])):
        set_hand(state, seat, names)
    state.apply(1, Offer(0, ("head-02",), ("head-01",), 0, 0))  # number 1, stays open
    for _ in range(3):  # 2 -> 3 offers made and declined push the numbers on
        for giver, taker in ((2, 3), (3, 2)):
            offer = Offer(taker, (PARTS[state.hands[giver][0]].id,), (PARTS[state.hands[taker][0]].id,), 0, 0)
            state.apply(giver, offer)
            state.apply(taker, Decline(state.offers[-1].number))
    state.apply(2, Offer(0, ("head-03",), ("base-01",), 0, 0))
    numbers = [o.number for o in state.offers]
    assert numbers[0] == 1 and len({n % OFFER_WINDOW for n in numbers}) == len(numbers), numbers
    assert state.next_offer > numbers[-1] and not state.check_invariants()
