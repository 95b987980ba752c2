"""The five programming changes, the first turn, Double Modification, hidden Special Orders, previews,
JSON forms and errors."""

from __future__ import annotations

import json

import pytest
from ttb_helpers import position, robot, run

from robotable import BadInput, IllegalAction, NotYourTurn
from robotable.games.twin_tin_bots import (
    GAME,
    DoubleModification,
    Pass,
    Place,
    PlaceCrystal,
    Remove,
    Reset,
    Swap,
    Tile,
    ZapOrder,
    preview,
)


def programmed(**kw: object):  # type: ignore[no-untyped-def]
    return position(
        robots={"red": [((-1, -1), "E")]},
        programs={"red": ["forward_1", "turn_left", None, "load", None, "zap"]},
        **kw,  # type: ignore[arg-type]
    )


def program(state) -> list[str | None]:  # type: ignore[no-untyped-def]
    return state.view(None)["colours"][0]["program"]


def test_first_turn_is_one_placement_on_each_robot() -> None:
    state = GAME.start(2, seed=5)
    seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    assert all(isinstance(a, Place) for a in legal)
    assert {a.slot for a in legal} == set(range(6))
    state.apply(seat, Place(4, Tile.ZAP))
    assert {a.slot for a in state.legal_actions(seat)} == {0, 1, 2}  # now robot A
    with pytest.raises(IllegalAction, match="first turn"):
        state.apply(seat, Pass())
    state.apply(seat, Place(0, Tile.FORWARD_2))
    assert state.to_act() != [seat]


def test_place_replaces_and_returns_the_old_tile_to_hand() -> None:
    state = programmed()
    hand_before = state.view(0)["colours"][0]["hand"]
    state.apply(0, Place(0, Tile.FORWARD_2))
    assert program(state)[0] == "forward_2"
    hand = state.view(0)["colours"][0]["hand"]
    assert hand["forward_1"] == hand_before["forward_1"] + 1
    assert "forward_2" not in hand


def test_cannot_place_a_tile_not_in_hand() -> None:
    state = programmed()
    state.apply(0, DoubleModification())
    state.apply(0, Place(0, Tile.FORWARD_2))
    with pytest.raises(IllegalAction, match="no forward_2"):
        state.apply(0, Place(1, Tile.FORWARD_2))
    with pytest.raises(IllegalAction, match="no jump tile in hand"):
        state.apply(0, Place(0, Tile.JUMP))


def test_swap_within_one_robot() -> None:
    state = programmed()
    state.apply(0, Swap(0, 2))
    assert program(state)[:3] == [None, "turn_left", "forward_1"]


def test_no_swap_between_robots() -> None:
    state = programmed()
    with pytest.raises(IllegalAction, match="same robot"):
        state.apply(0, Swap(0, 3))


def test_remove_and_reset() -> None:
    state = programmed()
    state.apply(0, Remove(1))
    assert program(state) == ["forward_1", None, None, "load", None, "zap"]
    state = programmed()
    state.apply(0, Reset(1))
    assert program(state) == ["forward_1", "turn_left", None, None, None, None]


def test_pass_runs_the_programs_as_they_are() -> None:
    state = programmed()
    run(state)
    assert robot(state, "red-A") == ((0, -1), "NE", None)


def test_double_modification_two_changes_on_any_robots_once_per_game() -> None:
    state = programmed()
    state.apply(0, DoubleModification())
    assert state.view(None)["changes_left"] == 2
    assert DoubleModification() not in state.legal_actions(0)
    state.apply(0, Remove(0))
    assert state.to_act() == [0]
    state.apply(0, Place(4, Tile.TURN_RIGHT))
    assert state.to_act() == [1]
    assert program(state) == [None, "turn_left", None, "load", "turn_right", "zap"]
    assert state.view(None)["colours"][0]["double_modification_used"] is True


def test_double_modification_is_never_placed() -> None:
    state = programmed()
    with pytest.raises(IllegalAction, match="never placed"):
        state.apply(0, Place(2, Tile.DOUBLE_MODIFICATION))


def test_placing_a_special_reveals_it_for_good() -> None:
    state = position(
        robots={"red": [((-1, -1), "E")]},
        programs={"red": ["forward_1"], "yellow": ["turn_left"]},
        specials={"red": ["jump"]},
    )
    assert "jump" not in state.view(1)["colours"][0]["hand"]
    assert state.view(1)["colours"][0]["hidden_specials"] == 1
    state.apply(0, Place(2, Tile.JUMP))  # the programs run; yellow's turn
    state.apply(1, Pass())
    state.apply(0, Remove(2))  # back to hand, still known
    assert state.view(1)["colours"][0]["hand"]["jump"] == 1
    assert state.view(1)["colours"][0]["hidden_specials"] == 0


def test_legal_actions_are_stable_and_distinct() -> None:
    state = programmed()
    legal = state.legal_actions(0)
    assert legal == state.legal_actions(0) == state.clone().legal_actions(0)
    assert len({json.dumps(a.to_json()) for a in legal}) == len(legal)
    assert legal[:2] == [Pass(), DoubleModification()]
    assert state.legal_actions(1) == []


def test_errors_change_nothing() -> None:
    state = programmed()
    before = state.to_json()
    with pytest.raises(NotYourTurn):
        state.apply(1, Pass())
    with pytest.raises(IllegalAction, match="no zap"):
        state.apply(0, ZapOrder(Tile.LOAD))
    with pytest.raises(IllegalAction):
        state.apply(0, PlaceCrystal((0, 0)))
    with pytest.raises(IllegalAction, match="slots are numbered"):
        state.apply(0, Remove(9))
    with pytest.raises(BadInput):
        state.apply(0, "pass")  # type: ignore[arg-type]
    assert state.to_json() == before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "place", "slot": 1}, "missing field 'tile'"),
        ({"type": "place", "slot": 1, "tile": "fly"}, "field 'tile'"),
        ({"type": "move_blob", "direction": "up"}, "field 'direction'"),
        ({"type": "place_crystal", "hex": [1]}, "list of 2 items"),
        ({"type": "zap_order"}, "missing field 'order'"),
        ({"type": "teleport"}, "unknown type"),
        ([], "expected a JSON object"),
    ],
)
def test_malformed_actions(data: object, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        GAME.action_from_json(data)


def test_action_json_round_trip() -> None:
    for action in [
        Place(3, Tile.DASH),
        Swap(0, 2),
        Remove(1),
        Reset(0),
        Pass(),
        DoubleModification(),
        ZapOrder(Tile.UNLOAD),
        PlaceCrystal((0, 1)),
    ]:
        assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"num_players": 7}, "field 'num_players': must be 2 to 6"),
        ({"robots": {"red": []}}, "one entry per colour"),
        ({"crystals": [{"hex": [9, 9], "crystal": "blue"}]}, "off the board"),
        ({"crystals": [{"hex": [0, 0], "crystal": "gold"}]}, "crystal"),
        ({"programs": {"red": ["fly"] * 6, "yellow": [None] * 6}}, "unknown tile 'fly'"),
        ({"phase": "dance"}, "'phase'"),
        ({"phase": "zap", "pending": None}, "'pending'"),
        ({"turn": 5}, "'turn'"),
        ({"specials": {"red": ["dash"], "yellow": ["dash"]}}, "each Special Order exists once"),
        ({"rng": -1}, "field 'rng'"),
        ({"colours": [1, "red"]}, "field 'colours'"),
        ({"turn_order": [None, "red"]}, "field 'turn_order'"),
    ],
)
def test_bad_state_json_names_the_field(change: dict[str, object], message: str) -> None:
    data = GAME.start(2, seed=1).to_json()
    data.update(change)
    with pytest.raises(BadInput, match=message):
        GAME.state_from_json(data)


def test_state_json_round_trip_mid_decision() -> None:
    state = position(
        robots={"red": [((-1, -1), "E")], "yellow": [((0, -1), "SE")]}, programs={"red": ["double_zap", "turn_left"]}
    )
    run(state)
    data = json.loads(json.dumps(state.to_json()))
    again = GAME.state_from_json(data)
    assert again.to_json() == state.to_json()
    state.apply(0, ZapOrder(Tile.FORWARD_1))
    again.apply(0, ZapOrder(Tile.FORWARD_1))
    assert again.to_json() == state.to_json()


def test_preview_paths_and_state_untouched() -> None:
    state = programmed(crystals=[((1, -2), "pink")])
    before = state.to_json()
    p = preview(state, 0, Place(2, Tile.FORWARD_1))
    assert state.to_json() == before
    assert p.complete and p.pending is None
    assert p.paths["red-A"] == [((-1, -1), "E"), ((0, -1), "E"), ((0, -1), "NE"), ((1, -2), "NE")]
    assert [e.type for e in p.events][:2] == ["place", "run"]
    json.dumps(p.to_json())


def test_preview_stops_at_the_first_pending_decision() -> None:
    state = position(robots={"red": [((-1, -1), "E")], "yellow": [((1, -1), "SE")]}, programs={"red": ["turn_left"]})
    p = preview(state, 0, Place(0, Tile.ZAP))
    assert not p.complete
    assert p.pending is not None and p.pending["type"] == "zap" and p.pending["robot"] == "yellow-A"


def test_preview_of_an_illegal_change_raises() -> None:
    state = programmed()
    with pytest.raises(IllegalAction):
        preview(state, 0, Place(0, Tile.JUMP))
    with pytest.raises(NotYourTurn):
        preview(state, 1, Pass())


def test_preview_never_shows_a_hidden_special() -> None:
    state = position(robots={"red": [((-2, 0), "W", "blue")]}, programs={"red": ["turn_left"]})
    top = state.stack[-1]
    p = preview(state, 0, Place(0, Tile.UNLOAD))
    assert "special_drawn" not in [e.type for e in p.events]
    assert "draw_special" in [e.type for e in p.events]
    assert state.stack[-1] == top


def test_determinize_keeps_what_the_seat_knows() -> None:
    from robotable.core import Rng

    state = programmed(specials={"red": ["jump"], "yellow": ["dash"]})
    sample = state.determinize(0, Rng(3))
    assert sample.specials[0] == state.specials[0]
    assert len(sample.specials[1]) == 1 and sample.view(0) == state.view(0)
    assert sorted(sample.stack + sample.specials[1]) == sorted(state.stack + state.specials[1])


def test_determinize_depends_only_on_what_the_seat_knows() -> None:
    from robotable.core import Rng

    a = programmed(specials={"red": ["jump"], "yellow": ["dash"]})
    b = programmed(specials={"red": ["jump"], "yellow": ["back_up"]})
    assert a.view(0) == b.view(0)
    assert a.determinize(0, Rng(9)).to_json() == b.determinize(0, Rng(9)).to_json()


def test_swap_may_name_the_slots_in_either_order() -> None:
    state = programmed()
    state.apply(0, Swap(2, 0))
    assert program(state)[:3] == [None, "turn_left", "forward_1"]


def test_integer_encoding_covers_every_legal_action() -> None:
    from robotable.core import Rng
    from robotable.games.twin_tin_bots.actions import action_from_index, action_index

    state = GAME.start(5, seed=8, options={"blobs": 2})
    rng = Rng(8)
    for _ in range(400):
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        for a in legal:
            assert action_from_index(action_index(a)) == a
        state.apply(seat, legal[rng.randrange(len(legal))])
    with pytest.raises(BadInput):
        action_from_index(10_000)


def test_the_first_player_is_drawn_from_the_seed_and_turns_go_clockwise() -> None:
    """Rules page decision: the first colour is drawn at setup (the same seed, the same first player)."""
    firsts = set()
    for seed in range(24):
        state = GAME.start(3, seed=seed)
        assert state.order == tuple((state.order[0] + i) % 3 for i in range(3))
        assert GAME.start(3, seed=seed).order == state.order
        firsts.add(state.order[0])
    assert firsts == {0, 1, 2}


@pytest.mark.parametrize("field", ["stuck", "unused", "revealed", "special_stack", "run", "victor", "robots"])
def test_a_missing_field_is_refused_by_name(field: str) -> None:
    data = GAME.start(2, seed=1).to_json()
    del data[field]
    with pytest.raises(BadInput, match=f"missing field '{field}'"):
        GAME.state_from_json(data)
