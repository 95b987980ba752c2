"""JSON: actions and states round-trip; malformed input raises BadInput naming what is wrong."""

from __future__ import annotations

import copy
import json

import pytest

import robotable
from robotable.core import BadInput, Rng
from robotable.games.robots_on_the_line import GAME

from .rotl_positions import fresh


def played(seed=3, steps=60):
    state = fresh(3, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    return state


def test_registered_and_described():
    assert robotable.games.load("robots-on-the-line") is GAME
    names = [o["name"] for o in GAME.describe()["options"]]
    assert names == ["on_off_variant", "three_new_tiles", "line_resets", "switch_flips", "family"]


def test_every_legal_action_round_trips_and_is_legal():
    state = played()
    for seat in state.to_act():
        for action in state.legal_actions(seat):
            assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action
            assert state.is_legal(seat, action)


def test_state_round_trip_and_clone_independence():
    state = played()
    data = json.loads(json.dumps(state.to_json()))
    assert GAME.state_from_json(data).to_json() == data
    clone = state.clone()
    seat = clone.to_act()[0]
    clone.apply(seat, clone.legal_actions(seat)[-1])
    assert state.to_json() == data


def broken(change):
    data = json.loads(json.dumps(played().to_json()))
    change(data)
    return data


def with_offer(data, next_offer=2, **fields):
    """An open offer from seat 0 to seat 2 (nothing for nothing unless ``fields`` say otherwise)."""
    offer = {"offer": 1, "from": 0, "to": 2, "give": [], "take": [], "give_money": 0, "take_money": 0}
    data["offers"] = [{**offer, **fields}]
    data["next_offer"] = next_offer


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("lines"), "missing field 'lines'"),
        (lambda d: d["hands"][0].append("head-99"), r"hands\[0\]\[\d+\]: unknown part 'head-99'"),
        (lambda d: d["hands"][1].append(d["draw_piles"][0][0]), "136 parts are not all there exactly once"),
        (lambda d: d["torso_stack"].pop(), "20 torsos are not all there exactly once"),
        (lambda d: d.__setitem__("bank", d["bank"] + 1), "add up to"),
        (lambda d: d["switches"][0].__setitem__(0, "maybe"), "switches\\[0\\] must be 2 of 'on' or 'off'"),
        (lambda d: d.__setitem__("switches", [["on", "on"], ["on", "on"]]), "4 switches are ON"),
        (lambda d: d.__setitem__("phase", "lunch"), "phase must be one of"),
        (lambda d: d["buyers"][0].__setitem__("id", "buyer-x"), "unknown buyer 'buyer-x'"),
        (lambda d: d.__setitem__("options", {"family": "yes"}), "field 'options'"),
        (lambda d: d.__setitem__("money", [1, 2]), "one entry per seat"),
        (lambda d: d.__setitem__("featured", "magnet"), "featured must be one of"),
        (lambda d: d["this_turn"].pop("junk_trades"), "this_turn: missing field 'junk_trades'"),
        (lambda d: d["lines"][0].__setitem__(0, ["x"]), r"lines\[0\]: unknown part \['x'\]"),
        (lambda d: d["torsos"].__setitem__(0, ["t"]), r"torsos\[0\]: unknown torso"),
        (lambda d: d["buyers"][0].__setitem__("id", ["b"]), "unknown buyer"),
        (lambda d: d.__setitem__("robots_sold", [9, 0, 0]), "seat 0 has sold 9 robots; 0 to 4 can be"),
        (lambda d: d["robots_sold"].__setitem__(1, 0), "seat 1 has more sales listed than robots sold"),
        (lambda d: d.__setitem__("sales", [{}]), r"sales\[0\]: missing field 'seat'"),
        (lambda d: d.__setitem__("turn_number", -3), "turns are numbered from 1"),
        (lambda d: d.__setitem__("offered", [[7, 9]]), "must name two different seats"),
        (lambda d: d["this_turn"].__setitem__("junk_trades", -5), "0 to 2 junk trades per turn"),
        (lambda d: d["this_turn"].__setitem__("picks_left", 2), "only with the 'three new tiles' house rule"),
        (lambda d: d["maintenance"].append("line_reset"), "4 line_reset maintenance tiles"),
        (lambda d: with_offer(d, give_money=-1), "offer 1 has negative money"),
        (lambda d: with_offer(d, next_offer=1), "distinct numbers below next_offer"),
        (lambda d: with_offer(d, take=d["secret"][2][:1]), "offer 1 names a part nobody has seen"),
    ],
)
def test_malformed_states_name_the_bad_field(change, message):
    with pytest.raises(BadInput, match=message):
        GAME.state_from_json(broken(change))


def test_malformed_actions_are_bad_input():
    for data, message in [
        ({"type": "take_part", "line": 2, "space": 1}, "line must be 0-1"),
        ({"type": "take_part", "line": 0}, "missing field 'space'"),
        ({"type": "search_junk", "pile": 0, "part": "head-00"}, "unknown part 'head-00'"),
        ({"type": "choose_torso", "torso": "head-01"}, "unknown torso"),
        ({"type": "flip_switches", "on": [0, 3], "off": [1, 1]}, "'on' must be"),
        ({"type": "offer", "to": 1, "give": [], "take": [], "give_money": -1, "take_money": 0}, "negative"),
        ({"type": "end_turn", "now": True}, "unknown field"),
        ({"type": "fly"}, "unknown type"),
    ]:
        with pytest.raises(BadInput, match=message):
            GAME.action_from_json(data)


def test_a_determinized_state_keeps_what_the_seat_knows():
    state = played()
    for seat in range(3):
        other = state.determinize(seat, Rng(seat))
        assert other.view(seat) == state.view(seat)
        assert not other.check_invariants()
        assert copy.deepcopy(other.to_json())["hands"][seat] == state.to_json()["hands"][seat]
