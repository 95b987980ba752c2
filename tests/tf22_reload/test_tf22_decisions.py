"""The numbered decisions of shared/design/tf22_reload.md, the R card's four uses, rounds and victory."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from robotable.core import BadInput, BadOptions, IllegalAction, Rng, play_random
from robotable.core.record import Record, replay, start_state
from robotable.games.tf22_reload import (
    GAME,
    Load,
    PlayCard,
    RBuy,
    RDiscard,
    Reload,
    ReturnContainer,
    RReload,
    RTakeBack,
)
from robotable.games.tf22_reload.components import DECK, Colour, card
from robotable.games.tf22_reload.rules import battle, score_round

from .positions import BUZZ, NEIL, play_all, position

Y, R, B, G = Colour.YELLOW, Colour.RED, Colour.BLUE, Colour.GREEN

# -- Decision 1: finite stock ------------------------------------------------------------------------


def test_decision_1_no_chipcard_when_the_stock_is_empty():
    state = position(3, chips=[12, 12, 0])
    assert state.chip_stock == 0
    events = play_all(state, PlayCard(5), PlayCard(5), PlayCard(3))
    assert state.chips == [12, 12, 0]
    assert [e.data["seat"] for e in events if e.type == "chipcard_stock_empty"] == [BUZZ, NEIL]


def test_decision_1_exhausted_colour_activates_nothing_but_cards_are_still_fought_for():
    blue_ships = [[["blue"]] * 5, [["blue"]] * 5]
    state = position(2, (("blue", 2), ("yellow", 1)), ships=blue_ships)
    assert state.view(0)["activated"] is None and state.view(0)["battle_colour"] == "blue"
    play_all(state, PlayCard(6), PlayCard(2))
    assert len(state.cc_piles[BUZZ]) == 2  # Buzz won the two cards; nothing to load, nothing to reload
    assert state.to_act() == [0, 1]


def test_decision_1_buy_the_stock_cannot_meet_is_cancelled_and_not_paid():
    # Nine green containers are on ships; one is left. Buzz and Neil both buy green: Buzz (first) gets it.
    ships = [[["green"]] * 3 + [[]], [["green"]] * 3 + [[]], [["green"]] * 3 + [[]]]
    state = position(3, (("red", 1), ("yellow", 0)), ships=ships, chips=[3, 3, 0])
    assert state.stock[G] == 1
    events = play_all(state, RBuy(G, 3), RBuy(G, 3), PlayCard(4))
    assert state.ships[BUZZ][3] == [G] and state.ships[NEIL][3] == []
    assert state.chips[:2] == [0, 3]  # Neil's buy was cancelled: he pays nothing
    assert [e.type for e in events if e.type.startswith("r_buy")] == ["r_buy", "r_buy_cancelled"]
    state.check_invariants()


# -- Decision 2: battle resolution order ---------------------------------------------------------------


def test_decision_2_two_ones_tie_before_neutralizing_so_sevens_survive():
    outcome = battle({0: 1, 1: 1, 2: 7, 3: 7})
    assert outcome.winner is None and outcome.tied == (0, 1, 2, 3) and outcome.neutralized == ()


def test_decision_2_a_single_one_neutralizes_every_seven():
    outcome = battle({0: 7, 1: 7, 2: 1})
    assert outcome.winner == 2 and outcome.neutralized == (0, 1) and outcome.tied == ()


def test_decision_2_r_players_take_no_part_in_the_battle():
    state = position(3)
    play_all(state, RTakeBack(), PlayCard(2), PlayCard(2))
    assert state.last_battle["winner"] is None
    assert state.chips == [0, 1, 1]


# -- Decision 3: absolute ties -------------------------------------------------------------------------


def test_decision_3_everyone_plays_r_is_an_absolute_tie_without_chipcards():
    state = position(2, (("green", 3), ("green", 0)))
    play_all(state, RTakeBack(), RTakeBack())
    assert state.last_battle["winner"] is None
    assert state.chips == [0, 0]
    assert sorted(state.set_aside) == [card(G, 0), card(G, 3)]
    assert state.stock[G] == 10 - (state.activated == G)


# -- Decision 4: a single numeric card wins ------------------------------------------------------------


def test_decision_4_a_battle_with_one_numeric_card_is_won_by_it():
    state = position(3)
    play_all(state, RTakeBack(), PlayCard(1), RTakeBack())
    assert state.last_battle["winner"] == NEIL


# -- Decision 5: loading and moving --------------------------------------------------------------------


def test_decision_5_stacking_order_and_no_two_of_a_colour():
    ships = [[["yellow"], ["red", "green"], ["blue"], [], []], [[], [], [], [], []]]
    state = position(2, (("red", 2), ("yellow", 3)), ships=ships)  # red activated
    play_all(state, PlayCard(7), PlayCard(2))
    loads = [a.slot for a in state.legal_actions(BUZZ) if isinstance(a, Load)]
    assert loads == [0, 3, 4]  # on yellow or an empty slot; never on red, green or blue
    with pytest.raises(IllegalAction, match="loading rules"):
        state.apply(BUZZ, Load(2))


LOOSE = {"strict_moves": False}


def test_decision_5_loose_moves_a_moved_container_may_go_to_an_empty_slot():
    ships = [[["yellow", "blue"], [], [], [], []], [[], [], [], [], []]]
    state = position(2, (("blue", 0), ("blue", 1)), ships=ships, options=LOOSE)
    play_all(state, PlayCard(7), PlayCard(2))
    assert Reload(0, 1) in state.legal_actions(BUZZ)
    assert state.legal_actions(BUZZ).count(ReturnContainer()) == 1


def test_decision_5_loose_moves_a_moved_container_may_go_to_an_empty_slot_with_r_c():
    ships = [[["yellow", "red"], ["yellow"], [], [], []], [[], [], [], [], []]]
    state = position(2, ships=ships, chips=[2, 0], options=LOOSE)
    legal = state.legal_actions(BUZZ)
    assert RReload(0, 2) in legal and RReload(0, 1) in legal
    play_all(state, RReload(0, 2), PlayCard(3))
    assert state.ships[BUZZ][:3] == [[Y], [Y], [R]]


@pytest.mark.parametrize("options", [{}, {"strict_moves": True}])
def test_decision_5_by_default_a_moved_container_goes_only_onto_another_stack_with_r_c(options):
    # "only from the top of a stack to the top of another stack!" (issue 27: the literal reading is the default)
    ships = [[["yellow", "red"], ["yellow"], [], [], []], [[], [], [], [], []]]
    state = position(2, ships=ships, chips=[2, 0], options=options)
    legal = state.legal_actions(BUZZ)
    assert [a for a in legal if isinstance(a, RReload)] == [RReload(0, 1)]  # red onto yellow only
    with pytest.raises(IllegalAction):
        state.apply(BUZZ, RReload(0, 2))
    play_all(state, RReload(0, 1), PlayCard(3))
    assert state.ships[BUZZ][:2] == [[Y], [Y, R]]


def test_decision_5_by_default_a_bluff_reload_goes_only_onto_another_stack():
    ships = [[["yellow", "blue"], ["red"], [], [], []], [[], [], [], [], []]]
    loose = position(2, (("blue", 0), ("blue", 1)), ships=ships, options=LOOSE)
    strict = position(2, (("blue", 0), ("blue", 1)), ships=ships)
    for state in (loose, strict):
        play_all(state, PlayCard(7), PlayCard(2))
    assert [a for a in loose.legal_actions(BUZZ) if isinstance(a, Reload)] == [
        Reload(0, 1),
        *(Reload(0, s) for s in (2, 3, 4)),
    ]
    assert [a for a in strict.legal_actions(BUZZ) if isinstance(a, Reload)] == [Reload(0, 1)]
    with pytest.raises(IllegalAction):
        strict.apply(BUZZ, Reload(0, 2))
    strict.apply(BUZZ, Reload(0, 1))
    assert strict.ships[BUZZ][:2] == [[Y], [R, B]]


def test_decision_5_by_default_a_won_container_is_still_loaded_onto_an_empty_slot():
    # Buzz's blue top could only move onto the empty slot, which the literal reading forbids; loading the
    # won blue container there is loading, not moving, and stays allowed.
    ships = [[["yellow", "blue"], ["green"], ["green"], ["green"], []], [[], [], [], [], []]]
    state = position(2, (("blue", 0), ("blue", 1)), ships=ships)
    play_all(state, PlayCard(7), PlayCard(2))
    assert BUZZ in state.to_act() and state.legal_actions(BUZZ) == [Load(4), ReturnContainer()]


def test_strict_moves_is_a_boolean_table_option_on_by_default():
    assert GAME.start(2, seed=1).options == {"strict_moves": True}
    assert GAME.start(2, seed=1, options=LOOSE).to_json()["options"] == LOOSE
    with pytest.raises(BadOptions, match="strict_moves"):
        GAME.start(2, seed=1, options={"strict_moves": 1})


def test_a_record_played_under_the_old_loose_default_replays_the_same():
    # Records store their options in full (Match, the server's tables), so a game recorded before the
    # default changed says "strict_moves": false and replays its moves onto empty slots unchanged.
    record = Record.load(Path(__file__).parent / "records" / "loose_default_before_issue_27.json")
    assert record.options == LOOSE
    game, state = start_state(record)
    onto_empty = 0
    for seat, data in record.moves:
        action = game.action_from_json(data)
        onto_empty += isinstance(action, Reload | RReload) and not state.ships[seat][action.to_slot]
        state.apply(seat, action)
    assert state.result().to_json() == record.meta["result"]
    final = json.dumps(state.to_json(), sort_keys=True, separators=(",", ":")).encode()
    assert hashlib.sha256(final).hexdigest() == record.meta["final_state_sha256"]
    assert onto_empty >= 1
    with pytest.raises(BadInput, match="cannot be replayed"):
        replay(Record(record.game, record.num_players, record.seed, {}, record.moves))


def test_decision_5_no_decision_is_asked_when_nothing_can_be_loaded_or_moved():
    # Buzz's ship is full of green tops: a red container cannot be loaded and there is no red to move.
    ships = [[["green"]] * 5, [[], [], [], [], []]]
    state = position(2, (("red", 2), ("yellow", 3)), ships=ships)
    events = play_all(state, PlayCard(7), PlayCard(2))
    assert "container_returned" in [e.type for e in events]
    assert state.to_act() == [0, 1]


# -- Decision 6: played cards --------------------------------------------------------------------------


def test_decision_6_numbers_go_to_the_discard_pile_and_r_returns_to_hand():
    state = position(2)
    play_all(state, PlayCard(4), RTakeBack())
    view = state.view(NEIL)
    assert view["players"][BUZZ]["discard"] == [4]
    assert 4 not in view["players"][BUZZ]["hand"]
    assert view["players"][NEIL]["hand"] == [1, 2, 3, 4, 5, 6, 7]


def test_decision_6_a_hand_of_only_r_must_play_r():
    state = position(2, hands=[[], [1, 2, 3, 4, 5, 6, 7]])
    legal = state.legal_actions(BUZZ)
    assert legal == [RTakeBack()]
    with pytest.raises(IllegalAction, match="not in seat 0's hand"):
        state.apply(BUZZ, PlayCard(3))


# -- The R card: its four uses -------------------------------------------------------------------------


def test_r_a_takes_back_the_whole_discard_pile_for_free():
    state = position(2, hands=[[2, 5], [1, 2, 3, 4, 5, 6, 7]], chips=[0, 0])
    play_all(state, RTakeBack(), PlayCard(3))
    assert state.hands[BUZZ] == [1, 2, 3, 4, 5, 6, 7] and state.discards[BUZZ] == []
    assert state.chips == [0, 0]


def test_r_b_pays_one_chipcard_to_discard_a_top_container():
    ships = [[["yellow", "red"], [], [], [], []], [[], [], [], [], []]]
    state = position(2, ships=ships, chips=[1, 0])
    assert RDiscard(0) in state.legal_actions(BUZZ) and RDiscard(1) not in state.legal_actions(BUZZ)
    play_all(state, RDiscard(0), PlayCard(3))
    assert state.ships[BUZZ][0] == [Y] and state.chips[BUZZ] == 0 and state.stock[R] == 10
    assert state.chip_stock == 24  # paid chipcards go back to the common stock


def test_r_c_pays_two_chipcards_to_move_a_top_container():
    ships = [[["yellow", "red"], ["yellow"], [], [], []], [[], [], [], [], []]]
    state = position(2, ships=ships, chips=[2, 0])
    legal = state.legal_actions(BUZZ)
    assert RReload(0, 1) in legal and RReload(1, 0) not in legal  # yellow never goes on red
    play_all(state, RReload(0, 1), PlayCard(3))
    assert state.ships[BUZZ][:2] == [[Y], [Y, R]] and state.chips[BUZZ] == 0


def test_r_d_pays_three_chipcards_to_buy_and_load_a_chosen_colour():
    state = position(2, chips=[3, 0])
    play_all(state, RBuy(B, 2), PlayCard(3))
    assert state.ships[BUZZ][2] == [B] and state.chips[BUZZ] == 0
    state.check_invariants()


def test_r_uses_need_their_chipcards():
    state = position(2, ships=[[["yellow"], ["red"], [], [], []], [[], [], [], [], []]], chips=[2, 0])
    kinds = {type(a) for a in state.legal_actions(BUZZ)}
    assert RDiscard in kinds and RReload in kinds and RBuy not in kinds
    with pytest.raises(IllegalAction, match="costs 3 chipcard"):
        state.apply(BUZZ, RBuy(G, 1))


def test_r_d_two_players_buying_at_once_both_load_when_the_stock_allows():
    state = position(3, chips=[3, 3, 0])
    play_all(state, RBuy(Y, 0), RBuy(Y, 1), PlayCard(2))
    assert state.ships[BUZZ][0] == [Y] and state.ships[NEIL][1] == [Y]
    assert state.chips == [0, 0, 0] and state.stock[Y] == 8


def test_r_d_colour_and_slot_are_secret_until_everyone_has_chosen():
    state = position(3, chips=[3, 0, 0])
    state.apply(BUZZ, RBuy(G, 0))
    other = state.view(NEIL)
    assert other["players"][BUZZ]["has_chosen"] is True
    assert "choice" not in other["players"][BUZZ]
    assert "green" not in str(other["players"][BUZZ]) and "r_buy" not in str(other)
    assert state.view(BUZZ)["players"][BUZZ]["choice"] == {"type": "r_buy", "colour": "green", "slot": 0}


# -- Decision 7: round 2 -------------------------------------------------------------------------------


def test_decision_7_round_2_keeps_ships_and_reshuffles_all_28_cards():
    ships = [[["yellow", "red"], ["blue"], [], [], []], [["green"], [], [], [], []]]
    state = position(
        2,
        (("red", 0), ("yellow", 1)),
        ships=ships,
        set_aside=[("green", 3), ("green", 0)],
        cc_piles=[[("red", 0), ("yellow", 1), ("blue", 2)], [("blue", 3)]],
        rest="set_aside",
        phase="load",
        winner=BUZZ,
    )
    state.apply(BUZZ, ReturnContainer())
    assert state.round == 2 and state.battle == 1
    assert state.ships == [[[Y, R], [B], [], [], []], [[G], [], [], [], []]]
    assert state.cc_piles == [[], []] and state.set_aside == []
    assert sorted(state.deck + state.revealed) == sorted(DECK)
    state.check_invariants()


def test_decision_7_hands_are_not_refilled_for_round_2():
    # The last battle of round 1: both players have only 6 and 7 left; Buzz wins and returns the container.
    state = position(
        2,
        (("red", 0), ("yellow", 1)),
        rest="set_aside",
        hands=[[6, 7], [6, 7]],
        cc_piles=[[("red", 0), ("yellow", 1)], []],
        phase="load",
        winner=BUZZ,
    )
    state.apply(BUZZ, ReturnContainer())
    assert state.round == 2
    assert state.hands == [[6, 7], [6, 7]]
    assert len(state.deck) == 26 and state.cc_piles == [[], []]


# -- Decision 8: scoring -------------------------------------------------------------------------------


def test_decision_8_majority_full_tie_or_minority_half_rounded_down_none_nothing():
    ships = [[[Y, R]], [[Y]], [[]]]
    piles = [[card(Y, 3), card(R, 3)], [card(Y, 3), card(R, 3)], [card(Y, 3), card(R, 2)]]
    totals = [s["total"] for s in score_round(ships, piles)]
    # Buzz: yellow tie 1 (half of 3) + red majority 3 + 2 containers; Neil: yellow tie 1 + 1 container;
    # Valentina: no containers, nothing.
    assert totals == [6, 2, 0]


@pytest.mark.parametrize(("round_", "bonus"), [(1, 0), (2, 3)])
def test_decision_8_bonus_for_complete_four_colour_stacks_only_after_round_2(round_, bonus):
    state = position(
        2,
        (("red", 0), ("yellow", 1)),
        ships=[[["yellow", "red", "blue", "green"], [], [], [], []], [[], [], [], [], []]],
        cc_piles=[[("red", 0), ("yellow", 1)], []],
        rest="set_aside",
        round=round_,
        phase="load",
        winner=BUZZ,
    )
    state.apply(BUZZ, ReturnContainer())
    assert state.scores[BUZZ][2] == bonus
    assert state.is_over() == (round_ == 2)


# -- Decision 9: winner and tie-breaks -----------------------------------------------------------------


def _ended(scores, chips, bonus):
    state = GAME.start(len(scores), seed=1)
    play_random(state, Rng(1))
    state.scores = [[s - b, 0, b] for s, b in zip(scores, bonus)]
    state.chip_stock += sum(state.chips) - sum(chips)
    state.chips = list(chips)
    return state.result()


def test_decision_9_highest_total_wins():
    assert _ended([20, 25, 10], [5, 0, 0], [0, 0, 0]).winners == (1,)


def test_decision_9_tie_broken_by_most_chipcards():
    result = _ended([20, 20, 10], [1, 2, 9], [0, 0, 0])
    assert result.winners == (1,) and result.ranks == (2, 1, 3)


def test_decision_9_then_by_fewest_bonus_points():
    result = _ended([20, 20], [2, 2], [3, 0])
    assert result.winners == (1,)


def test_decision_9_then_the_victory_is_shared():
    result = _ended([20, 20, 5], [2, 2, 0], [3, 3, 0])
    assert result.winners == (0, 1) and result.ranks == (1, 1, 3)


# -- Decisions 13, 14 and 16 (the rules page) ---------------------------------------------------------


def test_decision_13_r_d_offers_only_colours_the_stock_still_has():
    # all ten blue containers are on ships; Buzz still has empty slots where a blue could go
    ships = [[["blue"], ["blue"], [], []], [["blue"]] * 4, [["blue"]] * 4]
    state = position(3, (("red", 1), ("yellow", 0)), ships=ships, chips=[3, 0, 0])
    assert state.stock[B] == 0
    buys = {a.colour for a in state.legal_actions(BUZZ) if isinstance(a, RBuy)}
    assert B not in buys and {Y, R, G} <= buys


def test_decision_14_bluff_reload_without_an_activated_container():
    # every blue container is on a ship: nothing is activated, yet the winner may move a blue one
    ships = [[["yellow", "blue"], ["blue"], ["red"], []], [["blue"]] * 4, [["blue"]] * 4]
    state = position(3, (("blue", 2), ("yellow", 1)), ships=ships)
    assert state.activated == -1
    play_all(state, PlayCard(6), PlayCard(2), PlayCard(3))
    legal = state.legal_actions(BUZZ)
    assert not any(isinstance(a, Load) for a in legal)
    assert Reload(0, 2) in legal and legal[-1] == ReturnContainer()


def test_decision_16_r_uses_resolve_before_the_winner_loads():
    # Buzz discards the red container on his yellow (R b) while Neil wins the red battle:
    # the discard happens before Neil decides, and the red goes back to the stock first
    ships = [[["yellow", "red"], [], [], [], []], [["yellow"], [], [], [], []]]
    state = position(2, (("red", 2), ("yellow", 3)), ships=ships, chips=[1, 0])
    events = play_all(state, RDiscard(0), PlayCard(3))
    kinds = [e.type for e in events]
    assert kinds.index("r_discard") < kinds.index("battle")
    assert state.ships[BUZZ][0] == [Y]
    assert state.to_act() == [NEIL] and Load(0) in state.legal_actions(NEIL)
