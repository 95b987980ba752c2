"""Selling robots: the rulebook's $34 sale to the Inventor, refusals with reasons, magnets, the helper."""

from __future__ import annotations

import re

import pytest

from robotable.core import BadInput, IllegalAction
from robotable.games.robots_on_the_line import GAME, EndTurn, SellPart, SellRobot
from robotable.games.robots_on_the_line.components import PART_IDS

from .rotl_positions import fresh, set_buyer, set_hand

# The Inventor wants exactly 3 hands, one eye ($5 requirement bonus) and no wheels; bonus tiles: medical
# ($5) and flight + medical ($10).
INVENTOR_REQS = ["req-20", "req-01", "req-19"]
INVENTOR_BONUS = ["bonus-01", "bonus-15"]
HAND = ["head-05", "base-10", "hand-16", "hand-01", "hand-02", "battery-01"]
# torso-11: ports N, E (pink), S, W. head-05: 1 eye, medical. base-10: biped (medical, repair).
# hand-16: one hand with a pink connector. hand-01: the "2 hands" tile.
ROBOT = (
    ("torso-11", 0, 0, 0),
    ("head-05", 0, -1, 0),
    ("base-10", 0, 1, 0),
    ("hand-16", 1, 0, 0),
    ("hand-01", -1, 0, 2),
)


def inventor_table():
    state = fresh(2, seed=4)
    slot = set_buyer(state, "buyer-2", INVENTOR_REQS, INVENTOR_BONUS)
    set_hand(state, 0, HAND, torso="torso-11", money=5)
    return state, slot


def test_the_rulebooks_34_dollar_sale_to_the_inventor():
    state, slot = inventor_table()
    bank, inventor = state.bank, state.buyer_money[slot]
    events = state.apply(0, SellRobot("buyer-2", ROBOT, (), ()))
    sale = next(e for e in events if e.type == "sold_robot").data
    # the Inventor's $20 + $5 requirement bonus + $5 bonus (medical) + $4 pink bonus
    assert sale["paid"] == {"buyer": 20, "requirements": 5, "bonus_tiles": 5, "pink_pairs": 4, "total": 34}
    assert state.money[0] == 5 + 34
    assert state.buyer_money[slot] == inventor - 20
    assert state.bank == bank - 14
    assert state.torso[0] == -1 and state.robots[0] == 1
    assert state.hands[0] == sorted([PART_IDS["battery-01"], PART_IDS["hand-02"]])
    assert not state.check_invariants()


def test_a_two_hands_tile_where_one_hand_was_needed_is_refused():
    state, _ = inventor_table()
    before = state.to_json()
    four_hands = tuple(t if t[0] != "hand-16" else ("hand-02", 1, 0, 0) for t in ROBOT)
    with pytest.raises(IllegalAction, match="needs exactly 3 hands, the robot has 4 hands"):
        state.apply(0, SellRobot("buyer-2", four_hands, (), ()))
    assert state.to_json() == before


@pytest.mark.parametrize(
    ("layout", "reason"),
    [
        (ROBOT[:-1], "open port: torso-11 at (0, 0) side W faces nothing"),
        (tuple(t for t in ROBOT if t[0] != "base-10"), "no base"),
        ((*ROBOT, ("hand-02", -1, 0, 2)), "hand-01 and hand-02 overlap at (-1, 0)"),
        ((*ROBOT, ("head-01", 0, -1, 0)), "head-01 is not in seat 0's hand"),
        ((*ROBOT[1:], ("torso-12", 0, 0, 0)), "torso-12 is not seat 0's torso"),
        (ROBOT[1:], "does not place seat 0's torso"),
    ],
)
def test_unfinished_or_foreign_robots_are_refused_and_change_nothing(layout, reason):
    state, _ = inventor_table()
    before = state.to_json()
    with pytest.raises(IllegalAction, match=re.escape(reason)):
        state.apply(0, SellRobot("buyer-2", layout, (), ()))
    assert state.to_json() == before


def test_a_battery_sold_alongside_earns_a_battery_bonus():
    state = fresh(2, seed=4)
    set_buyer(state, "buyer-2", ["req-20"], ["bonus-13", "bonus-01"])
    set_hand(state, 0, HAND, torso="torso-11")
    money = state.money[0]
    state.apply(0, SellRobot("buyer-2", ROBOT, ("battery-01",), ()))
    assert state.money[0] == money + 20 + 5 + 5 + 4
    state, _ = inventor_table()
    with pytest.raises(IllegalAction, match="hand-02 is not a battery"):
        state.apply(0, SellRobot("buyer-2", ROBOT, ("hand-02",), ()))


def test_the_magnet_requirement_takes_two_magnets_and_their_penalty():
    state = fresh(2, seed=4)
    set_buyer(state, "buyer-3", ["req-18"], [])
    set_hand(state, 0, [*HAND, "magnet-01", "magnet-02", "magnet-03"], torso="torso-11")
    assert state.scores()[0] == state.money[0] - 3
    with pytest.raises(IllegalAction, match="2 magnets handed over, the robot has 1 magnets handed over"):
        state.apply(0, SellRobot("buyer-3", ROBOT, (), ("magnet-01",)))
    state.apply(0, SellRobot("buyer-3", ROBOT, (), ("magnet-01", "magnet-02")))
    assert state.scores()[0] == state.money[0] - 1
    state, _ = inventor_table()
    set_hand(state, 0, [*HAND, "magnet-03"], torso="torso-11")
    with pytest.raises(IllegalAction, match="no magnet requirement"):
        state.apply(0, SellRobot("buyer-2", ROBOT, (), ("magnet-03",)))


def test_the_helper_offers_its_best_robot_for_each_buyer_it_can_satisfy():
    state, _ = inventor_table()
    sales = [a for a in state.legal_actions(0) if isinstance(a, SellRobot)]
    inventor = [a for a in sales if a.buyer == "buyer-2"]
    assert len(inventor) == 1
    assert state.is_legal(0, inventor[0])
    events = state.apply(0, inventor[0])
    assert next(e for e in events if e.type == "sold_robot").data["paid"]["total"] == 34


def test_a_buyer_out_of_money_buys_no_more():
    state = fresh(2, seed=4)
    slot = set_buyer(state, "buyer-1", ["req-20"], [])  # the Capitalist wants one robot
    set_hand(state, 0, HAND, torso="torso-11")
    state.apply(0, SellRobot("buyer-1", ROBOT, (), ()))
    assert state.buyer_money[slot] == 0
    set_hand(state, 0, ["head-06", "base-11", "hand-20", "hand-03"], torso="torso-07")
    robot = (
        ("torso-07", 0, 0, 0),
        ("head-06", 0, -1, 0),
        ("base-11", 0, 1, 0),
        ("hand-20", 1, 0, 0),
        ("hand-03", -1, 0, 2),
    )
    with pytest.raises(IllegalAction, match="The Capitalist has no money left"):
        state.apply(0, SellRobot("buyer-1", robot, (), ()))
    assert not [a for a in state.legal_actions(0) if isinstance(a, SellRobot) and a.buyer == "buyer-1"]


def test_the_bargain_hunter_pays_1_or_4_and_never_takes_magnets():
    state = fresh(2, seed=4)
    state.featured = "base"
    set_hand(state, 0, ["base-01", "head-01", "magnet-01"], money=0)
    state.apply(0, SellPart("base-01"))
    state.apply(0, SellPart("head-01"))
    assert state.money[0] == 5
    with pytest.raises(IllegalAction, match="never buys a magnet"):
        state.apply(0, SellPart("magnet-01"))
    assert SellPart("magnet-01") not in state.legal_actions(0)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"type": "sell_robot", "buyer": "buyer-2", "layout": [["torso-11", 0, 0]], "batteries": [], "magnets": []},
            "expected a list of 4 items",
        ),
        (
            {
                "type": "sell_robot",
                "buyer": "buyer-2",
                "layout": [["torso-11", 0, 0, 7]],
                "batteries": [],
                "magnets": [],
            },
            "rotation is 0 to 3",
        ),
        (
            {
                "type": "sell_robot",
                "buyer": "buyer-2",
                "layout": [["torso-99", 0, 0, 0]],
                "batteries": [],
                "magnets": [],
            },
            "unknown tile 'torso-99'",
        ),
        ({"type": "sell_robot", "buyer": "buyer-9", "layout": [], "batteries": [], "magnets": []}, "unknown buyer"),
        (
            {
                "type": "sell_robot",
                "buyer": "buyer-2",
                "layout": [["torso-11", "0", 0, 0]],
                "batteries": [],
                "magnets": [],
            },
            "expected an integer",
        ),
        (
            {"type": "sell_robot", "buyer": "buyer-2", "layout": "torso", "batteries": [], "magnets": []},
            "expected a list",
        ),
        (
            {"type": "sell_robot", "buyer": "buyer-2", "layout": [], "batteries": ["x"], "magnets": []},
            "unknown part 'x'",
        ),
    ],
)
def test_malformed_layouts_are_bad_input(data, message):
    with pytest.raises(BadInput, match=message):
        GAME.action_from_json(data)


def test_sale_json_round_trip():
    action = SellRobot("buyer-2", ROBOT, ("battery-01",), ())
    assert GAME.action_from_json(action.to_json()) == action
    assert action.to_json()["layout"][1] == ["head-05", 0, -1, 0]
    assert EndTurn().to_json() == {"type": "end_turn"}
