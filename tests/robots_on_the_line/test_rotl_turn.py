"""Setup, the limits of a turn, torsos, trades between players, house rules and the end of the game."""

from __future__ import annotations

import pytest

from robotable.core import BadOptions, IllegalAction
from robotable.games.robots_on_the_line import (
    GAME,
    Accept,
    ChooseTorso,
    Decline,
    EndTurn,
    Offer,
    PickJunk,
    SearchJunk,
    SellPart,
    SellRobot,
    StopPicking,
    SwapTorso,
    TakePart,
    TakeTorso,
    TradeJunk,
)
from robotable.games.robots_on_the_line.components import (
    BUYERS,
    CATALOGUE,
    MAGNETS,
    PART_IDS,
    PARTS,
    REQUIREMENTS,
    TORSO_IDS,
    TORSOS,
)
from robotable.games.robots_on_the_line.line import EMPTY
from robotable.games.robots_on_the_line.setup import contradicts

from .rotl_positions import fresh, set_buyer, set_hand, set_junk, set_line


def ids(names):
    return sorted(PART_IDS[n] for n in names)


# -- components and setup -------------------------------------------------------------------------------


def test_the_catalogue_counts_agree_with_the_rulebook():
    kinds = {k: sum(p.kind == k for p in PARTS) for k in {p.kind for p in PARTS}}
    # rulebook, Game Components: 20 heads, 20 bases, 24 hands, 16 extenders, 8 elbows, 8 splitters,
    # 20 antennas, 12 batteries, 8 magnets (136 parts); 20 torsos; 8 buyers; 8 maintenance; 28 bonus tiles
    assert kinds == {
        "head": 20,
        "base": 20,
        "hand": 24,
        "extender": 16,
        "elbow": 8,
        "splitter": 8,
        "antenna": 20,
        "battery": 12,
        "magnet": 8,
    }
    assert len(PARTS) == 136 and len(TORSOS) == 20 and len(BUYERS) == 8
    assert len(CATALOGUE["maintenance_tiles"]) == 8 and len(CATALOGUE["bonus_tiles"]) == 28
    assert sorted(t.segments for t in TORSOS) == sorted(len(t.ports) for t in TORSOS)


@pytest.mark.parametrize(("players", "buyers"), [(2, 6), (3, 7), (4, 8)])
def test_setup(players, buyers):
    for seed in range(5):
        state = GAME.start(players, seed=seed)
        assert len(state.buyers) == buyers
        assert state.money == [5] * players
        for hand, secret in zip(state.hands, state.secret):
            assert len(hand) == 5 and hand == secret and not MAGNETS & set(hand)
        assert all(len(pile) == 2 for pile in state.junk)
        assert all(EMPTY not in line for line in state.lines)
        assert state.switches == [[False, True], [False, True]]
        assert sorted(state.maint) == ["line_reset"] * 4 + ["switch_flip"] * 4
        for slot, b in enumerate(state.buyers):
            reqs = [REQUIREMENTS[r] for r in state.buyer_reqs[slot]]
            assert not any(contradicts(r, reqs[:i]) for i, r in enumerate(reqs))
            assert len(reqs) == BUYERS[b].requirement_slots
            assert len(state.buyer_bonus[slot]) == BUYERS[b].bonus_slots
            assert state.buyer_money[slot] == BUYERS[b].robots * BUYERS[b].pay
        assert state.featured in ("head", "base", "battery", "hand", "antenna")
        assert not state.check_invariants()


def test_family_mode_and_maintenance_counts():
    state = fresh(3, family=True)
    assert state.boxed == sorted(MAGNETS)
    assert not any(p in MAGNETS for pile in state.draw + state.junk for p in pile)
    assert state.switches == [[True, True], [True, True]] and state.maint == []
    assert all(b == [] for b in state.buyer_bonus)
    assert not [a for a in state.legal_actions(0) if a.type.startswith("flip")]
    assert sorted(fresh(2, line_resets=0, switch_flips=2).maint) == ["switch_flip"] * 2
    with pytest.raises(BadOptions, match="above the maximum 4"):
        GAME.start(2, seed=1, options={"line_resets": 5})
    with pytest.raises(BadOptions, match="family mode keeps every switch ON"):
        GAME.start(2, seed=1, options={"family": True, "on_off_variant": True})
    with pytest.raises(BadOptions, match="unknown option"):
        GAME.start(2, seed=1, options={"famly": True})


# -- one acquisition, two junk trades, one torso ------------------------------------------------------------


def test_a_second_acquisition_in_one_turn_is_refused():
    state = fresh()
    set_line(state, 0, [None, None, None, "head-01", "head-02", None])
    set_junk(state, 0, ["base-01"])
    set_hand(state, 0, [], money=5)
    state.apply(0, TakePart(0, 4))
    before = state.to_json()
    for action in (TakePart(0, 5), SearchJunk(0, "base-01")):
        with pytest.raises(IllegalAction, match="one part per turn"):
            state.apply(0, action)
        assert state.to_json() == before
    assert not [a for a in state.legal_actions(0) if isinstance(a, TakePart | SearchJunk)]
    state.apply(0, EndTurn())
    state.apply(1, EndTurn())
    assert any(isinstance(a, TakePart) for a in state.legal_actions(0))  # a new turn, a new part


def test_junk_pile_trades_are_capped_at_two_and_never_move_magnets():
    state = fresh()
    set_junk(state, 0, ["base-01", "base-02", "base-03"])
    set_junk(state, 1, ["magnet-01"])
    set_hand(state, 0, ["head-01", "head-02", "head-03", "magnet-02"])
    state.apply(0, TradeJunk(0, "head-01"))
    assert state.junk[0][-1] == PART_IDS["head-01"] and PART_IDS["base-03"] in state.hands[0]
    with pytest.raises(IllegalAction, match="never traded"):
        state.apply(0, TradeJunk(1, "head-02"))  # the top of pile 1 is a magnet
    with pytest.raises(IllegalAction, match="never traded"):
        state.apply(0, TradeJunk(0, "magnet-02"))
    state.apply(0, TradeJunk(0, "head-02"))
    before = state.to_json()
    with pytest.raises(IllegalAction, match="at most 2 junk pile trades per turn"):
        state.apply(0, TradeJunk(0, "head-03"))
    assert state.to_json() == before
    assert not [a for a in state.legal_actions(0) if isinstance(a, TradeJunk)]


def test_one_torso_in_hand_and_the_torso_stack_once_a_turn():
    state = fresh()
    set_hand(state, 0, [], money=3)
    top = state.torso_pile[-1]
    state.apply(0, TakeTorso())
    assert state.torso[0] == top
    with pytest.raises(IllegalAction, match="already been used this turn"):
        state.apply(0, SwapTorso())
    state.apply(0, EndTurn())
    state.apply(1, EndTurn())
    before = state.to_json()
    with pytest.raises(IllegalAction, match="one torso in hand at a time"):
        state.apply(0, TakeTorso())
    with pytest.raises(IllegalAction, match="one torso in hand at a time"):
        state.apply(0, ChooseTorso(TORSOS[state.torso_pile[0]].id))
    assert state.to_json() == before
    new_top = state.torso_pile[-1]
    state.apply(0, SwapTorso())
    assert state.torso[0] == new_top and state.torso_pile[-1] == top


def test_choosing_a_torso_costs_1_and_shows_the_stack_to_the_chooser_only():
    state = fresh()
    set_hand(state, 0, [], money=1)
    wanted = state.torso_pile[3]
    order = list(state.torso_pile)
    events = state.apply(0, ChooseTorso(TORSOS[wanted].id))
    assert state.money[0] == 0 and state.torso[0] == wanted
    assert state.torso_pile == [t for t in order if t != wanted]
    seen = [e for e in events if e.type == "torso_stack_seen"]
    assert seen and seen[0].audience == (0,)
    assert state.view(1)["torso_stack"]["top"] == TORSOS[order[-1]].id


# -- trades between players --------------------------------------------------------------------------------


def test_an_offer_is_a_pending_decision_for_the_receiver():
    state = fresh(3)
    set_hand(state, 0, ["head-01", "base-01"])
    set_hand(state, 2, ["hand-20"], money=4)
    # the listed offers are one-for-one trades of parts; any other well-formed trade is accepted too
    assert Offer(2, ("head-01",), ("hand-20",), 0, 0) in state.legal_actions(0)
    offer = Offer(2, ("head-01",), ("hand-20",), 0, 1)
    assert offer not in state.legal_actions(0) and state.is_legal(0, offer)
    state.apply(0, offer)
    assert state.to_act() == [2, 0]
    assert Accept(1) in state.legal_actions(2) and Decline(1) in state.legal_actions(2)
    with pytest.raises(IllegalAction, match=r"seat 1 is not to act .*trade offers may be made any time"):
        state.apply(1, Accept(1))
    with pytest.raises(IllegalAction, match="already has an open offer to seat 2"):
        state.apply(0, Offer(2, ("base-01",), ("hand-20",), 0, 0))
    money = state.money[:]
    state.apply(2, Accept(1))
    assert state.hands[0] == ids(["base-01", "hand-20"]) and state.hands[2] == ids(["head-01"])
    assert state.money[0] == money[0] + 1 and state.money[2] == money[2] - 1
    assert state.to_act() == [0]


def test_offers_can_be_declined_and_lapse_at_the_end_of_the_turn():
    state = fresh(3)
    set_hand(state, 0, ["head-01", "base-01"])
    set_hand(state, 1, ["hand-20"])
    set_hand(state, 2, ["hand-21"])
    state.apply(0, Offer(1, ("head-01",), ("hand-20",), 0, 0))
    state.apply(0, Offer(2, ("base-01",), ("hand-21",), 0, 0))
    assert state.answering() == [1, 2]  # may answer at once (a server's bots do), the turn goes on
    state.apply(1, Decline(1))
    assert [o[0] for o in state.offers] == [2] and state.answering() == [2]
    events = state.apply(0, EndTurn())
    assert any(e.type == "offer_lapsed" and e.data["offer"] == 2 for e in events)
    assert state.offers == [] and state.to_act() == [1]


def test_a_receiver_may_counter_and_unseen_parts_cannot_be_asked_for():
    state = fresh(2)
    set_hand(state, 0, ["head-01"])
    hidden = state.secret[1][0]
    with pytest.raises(IllegalAction, match="not known to hold"):
        state.apply(0, Offer(1, ("head-01",), (PARTS[hidden].id,), 0, 0))
    state.apply(0, Offer(1, ("head-01",), (), 0, 2))
    # seat 1 answers with an offer of its own, showing one of its dealt parts
    state.apply(1, Offer(0, (PARTS[hidden].id,), ("head-01",), 0, 0))
    assert state.answering() == [1]  # seat 0's turn: its answer to seat 1 is part of the turn
    assert hidden not in state.secret[1]
    assert PARTS[hidden].id in state.view(0)["players"][1]["hand"]


def test_a_trade_never_leaves_two_torsos_in_one_hand_and_void_offers_are_withdrawn():
    state = fresh(2)
    set_hand(state, 0, ["head-01"], torso="torso-01")
    set_hand(state, 1, ["head-02"], torso="torso-02")
    with pytest.raises(IllegalAction, match="would hold two"):
        state.apply(0, Offer(1, ("head-01",), ("torso-02",), 0, 0))
    state.apply(0, Offer(1, ("torso-01",), ("torso-02",), 0, 0))
    state.apply(1, Accept(1))
    assert state.torso[:2] == [TORSO_IDS["torso-02"], TORSO_IDS["torso-01"]]
    state.apply(0, EndTurn())
    state.apply(1, EndTurn())
    state.apply(0, Offer(1, ("head-01",), ("head-02",), 0, 0))
    events = state.apply(0, SellPart("head-01"))  # head-01 is gone: the offer can no longer be carried out
    assert [e.data for e in events if e.type == "offer_void"] == [{"offer": 2}]
    assert state.offers == [] and state.to_act() == [0]


# -- house rules and the end -----------------------------------------------------------------------------


def _sell_setup(state):
    set_buyer(state, "buyer-3", ["req-20"], [])
    set_hand(state, 0, ["head-05", "base-10", "hand-16", "hand-01"], torso="torso-11")
    return (
        ("torso-11", 0, 0, 0),
        ("head-05", 0, -1, 0),
        ("base-10", 0, 1, 0),
        ("hand-16", 1, 0, 0),
        ("hand-01", -1, 0, 2),
    )


def test_three_new_tiles_after_a_sale_from_the_junk_pile_tops():
    state = fresh(2, three_new_tiles=True)
    robot = _sell_setup(state)
    set_junk(state, 0, ["head-01", "head-02"])
    set_junk(state, 1, ["base-01"])
    state.apply(0, SellRobot("buyer-3", robot, (), ()))
    assert state.phase == "pick" and state.legal_actions(0) == [PickJunk(0), PickJunk(1), StopPicking()]
    with pytest.raises(IllegalAction, match="picks up to 3 more"):
        state.apply(0, EndTurn())
    state.apply(0, PickJunk(0))
    state.apply(0, PickJunk(1))
    state.apply(0, PickJunk(0))
    assert state.phase == "turn" and state.hands[0] == ids(["head-01", "head-02", "base-01"])


def test_without_the_house_rule_a_sale_picks_nothing():
    state = fresh(2)
    robot = _sell_setup(state)
    state.apply(0, SellRobot("buyer-3", robot, (), ()))
    assert state.phase == "turn"
    with pytest.raises(IllegalAction, match="only after a sale, with the 3 new tiles house rule"):
        state.apply(0, PickJunk(0))


def test_the_game_ends_at_the_end_of_the_turn_of_a_fourth_robot():
    state = fresh(2)
    robot = _sell_setup(state)
    state.robots[0] = 3
    state.apply(0, SellRobot("buyer-3", robot, (), ()))
    assert not state.is_over()
    state.apply(0, EndTurn())
    assert state.is_over() and state.result().reason == "a player sold 4 robots"
    scores = state.result().scores
    assert scores == tuple(state.money[p] - sum(x in MAGNETS for x in state.hands[p]) for p in range(2))
