"""Every Order and Special Order, pushing, loading, stealing and unloading (2-player board).

On the 2-player board red's Base is at (3, 0), yellow's at (-3, 0); red plays first in these positions,
so red's robot A runs slots 0-2 and robot B slots 3-5. Facings: E (+1, 0), NE (+1, -1), NW (0, -1),
W (-1, 0), SW (-1, +1), SE (0, +1).
"""

from __future__ import annotations

from ttb_helpers import crystals, position, robot, run, types

from robotable.games.twin_tin_bots import Tile, ZapOrder


def test_play_example() -> None:
    """The rulebook's Play Example, slot by slot."""
    state = position(
        robots={"red": [((-2, -1), "E"), ((-2, 2), "E", "green")]},
        crystals=[((-1, -1), "blue"), ((-1, 1), "pink")],
        programs={"red": ["forward_1", "load", "turn_right", "turn_left", None, "load"]},
    )
    events = run(state)
    # Robot A moves Forward, pushing the Crystal as the hex behind is free; Loads it; Turns right.
    assert robot(state, "red-A") == ((-1, -1), "SE", "blue")
    # Robot B Turns left, has no second Order, and its Load is ignored as it is loaded already.
    assert robot(state, "red-B") == ((-2, 2), "NE", "green")
    assert crystals(state) == {(-1, 1): "pink"}
    ignored = [e.data for e in events if e.type == "ignored"]
    assert ignored == [{"robot": "red-B", "order": "load", "why": "already loaded"}]


def test_forward_pushes_a_crystal() -> None:
    state = position(robots={"red": [((-1, -1), "E")]}, crystals=[((0, -1), "green")], programs={"red": ["forward_1"]})
    run(state)
    assert robot(state, "red-A")[0] == (0, -1)
    assert crystals(state) == {(1, -1): "green"}


def test_forward_pushes_a_robot_keeping_its_facing_and_cargo() -> None:
    state = position(
        robots={"red": [((-1, -1), "E")], "yellow": [((0, -1), "SW", "pink")]},
        programs={"red": ["forward_1"]},
    )
    run(state)
    assert robot(state, "red-A")[0] == (0, -1)
    assert robot(state, "yellow-A") == ((1, -1), "SW", "pink")


def test_push_blocked_by_two_objects() -> None:
    state = position(
        robots={"red": [((-2, -1), "E")]},
        crystals=[((-1, -1), "blue"), ((0, -1), "green")],
        programs={"red": ["forward_1"]},
    )
    events = run(state)
    assert robot(state, "red-A")[0] == (-2, -1)
    assert crystals(state) == {(-1, -1): "blue", (0, -1): "green"}
    assert "blocked" in types(events)


def test_push_blocked_by_a_base() -> None:
    state = position(robots={"red": [((1, 0), "E")]}, crystals=[((2, 0), "blue")], programs={"red": ["forward_1"]})
    run(state)
    assert robot(state, "red-A")[0] == (1, 0)
    assert crystals(state) == {(2, 0): "blue"}


def test_a_base_cannot_be_entered_or_pushed() -> None:
    state = position(robots={"red": [((2, 0), "E")]}, programs={"red": ["forward_1"]})
    run(state)
    assert robot(state, "red-A")[0] == (2, 0)


def test_push_blocked_by_a_rock() -> None:
    state = position(
        robots={"red": [((-2, -2), "E")]},
        crystals=[((-1, -2), "blue")],
        programs={"red": ["forward_1"]},
        options={"rocks": [[0, -2]]},
    )
    run(state)
    assert robot(state, "red-A")[0] == (-2, -2)
    assert crystals(state) == {(-1, -2): "blue"}


def test_push_blocked_by_the_edge() -> None:
    state = position(robots={"red": [((-3, 1), "W")]}, crystals=[((-4, 1), "blue")], programs={"red": ["forward_1"]})
    run(state)
    assert robot(state, "red-A")[0] == (-3, 1)
    state = position(robots={"red": [((-4, 1), "W")]}, programs={"red": ["forward_1"]})
    run(state)
    assert robot(state, "red-A")[0] == (-4, 1)


def test_forward_2x_moves_as_far_as_it_can() -> None:
    state = position(robots={"red": [((-2, -1), "E")]}, crystals=[((0, -1), "blue")], programs={"red": ["forward_2"]})
    run(state)
    assert robot(state, "red-A")[0] == (0, -1)
    assert crystals(state) == {(1, -1): "blue"}
    state = position(
        robots={"red": [((-2, -1), "E")]},
        crystals=[((0, -1), "blue"), ((1, -1), "green")],
        programs={"red": ["forward_2"]},
    )
    run(state)
    assert robot(state, "red-A")[0] == (-1, -1)


def test_forward_3x() -> None:
    state = position(robots={"red": [((-3, -1), "E")]}, programs={"red": ["forward_3"]})
    run(state)
    assert robot(state, "red-A")[0] == (0, -1)


def test_forward_3x_first_failed_step_ends_the_order() -> None:
    state = position(
        robots={"red": [((-3, -1), "E")]},
        crystals=[((-1, -1), "blue"), ((0, -1), "green")],
        programs={"red": ["forward_3"]},
    )
    run(state)
    assert robot(state, "red-A")[0] == (-2, -1)


def test_turns() -> None:
    for tile, facing in [
        ("turn_left", "NE"),
        ("turn_right", "SE"),
        ("turn_2_left", "NW"),
        ("turn_2_right", "SW"),
        ("u_turn", "W"),
    ]:
        state = position(robots={"red": [((0, -1), "E")]}, programs={"red": [tile]})
        run(state)
        assert robot(state, "red-A") == ((0, -1), facing, None), tile


def test_dash_pushes_a_line_of_three() -> None:
    line = {
        "robots": {"red": [((-3, -1), "E")], "yellow": [((-1, -1), "NW")]},
        "crystals": [((-2, -1), "blue"), ((0, -1), "green")],
    }
    state = position(**line, programs={"red": ["dash"]})
    run(state)
    assert robot(state, "red-A")[0] == (-2, -1)
    assert robot(state, "yellow-A")[0] == (0, -1)
    assert crystals(state) == {(-1, -1): "blue", (1, -1): "green"}
    # Without Dash the same line does not move.
    state = position(**line, programs={"red": ["forward_1"]})
    run(state)
    assert robot(state, "red-A")[0] == (-3, -1)


def test_dash_in_the_program_strengthens_every_forward_step() -> None:
    state = position(
        robots={"red": [((-3, -1), "E")]},
        crystals=[((-2, -1), "blue"), ((-1, -1), "green")],
        programs={"red": ["forward_1", "anti_zap", "dash"]},
    )
    run(state)
    assert robot(state, "red-A")[0] == (-1, -1)  # forward_1 pushed two, then Dash pushed two again
    assert crystals(state) == {(0, -1): "blue", (1, -1): "green"}


def test_dash_cannot_push_into_a_base() -> None:
    state = position(
        robots={"red": [((0, 0), "E")]},
        crystals=[((1, 0), "blue"), ((2, 0), "green")],
        programs={"red": ["dash"]},
    )
    run(state)
    assert robot(state, "red-A")[0] == (0, 0)


def test_jump_over_an_occupied_hex_onto_an_empty_one() -> None:
    state = position(robots={"red": [((-2, -1), "E")]}, crystals=[((-1, -1), "blue")], programs={"red": ["jump"]})
    run(state)
    assert robot(state, "red-A") == ((0, -1), "E", None)
    assert crystals(state) == {(-1, -1): "blue"}


def test_jump_onto_an_occupied_hex_is_ignored() -> None:
    state = position(
        robots={"red": [((-2, -1), "E")]},
        crystals=[((-1, -1), "blue"), ((0, -1), "green")],
        programs={"red": ["jump"]},
    )
    run(state)
    assert robot(state, "red-A")[0] == (-2, -1)


def test_back_up_pushes() -> None:
    state = position(robots={"red": [((0, -1), "E")]}, crystals=[((-1, -1), "blue")], programs={"red": ["back_up"]})
    run(state)
    assert robot(state, "red-A") == ((-1, -1), "E", None)
    assert crystals(state) == {(-2, -1): "blue"}


def test_load_from_the_ground() -> None:
    state = position(robots={"red": [((-1, -1), "E")]}, crystals=[((0, -1), "pink")], programs={"red": ["load"]})
    run(state)
    assert robot(state, "red-A")[2] == "pink"
    assert crystals(state) == {}


def test_load_with_nothing_in_front_is_ignored() -> None:
    state = position(robots={"red": [((-1, -1), "E")]}, programs={"red": ["load"]})
    events = run(state)
    assert robot(state, "red-A")[2] is None
    assert "ignored" in types(events)


def test_steal_a_carried_crystal() -> None:
    state = position(
        robots={"red": [((-1, -1), "E")], "yellow": [((0, -1), "W", "green")]},
        programs={"red": ["load"]},
    )
    events = run(state)
    assert robot(state, "red-A")[2] == "green"
    assert robot(state, "yellow-A")[2] is None
    assert "steal" in types(events)


def test_anti_theft_stops_an_opponent() -> None:
    state = position(
        robots={"red": [((-1, -1), "E")], "yellow": [((0, -1), "W", "green")]},
        programs={"red": ["load"], "yellow": ["anti_theft"]},
    )
    events = run(state)
    assert robot(state, "yellow-A")[2] == "green"
    assert robot(state, "red-A")[2] is None
    assert "anti_theft" in types(events)


def test_anti_theft_does_not_stop_the_owners_own_robot() -> None:
    state = position(
        robots={"red": [((-1, -1), "E"), ((0, -1), "W", "green")]},
        programs={"red": ["load", None, None, "anti_theft"]},
    )
    run(state)
    assert robot(state, "red-A")[2] == "green"
    assert robot(state, "red-B")[2] is None


def test_anti_theft_does_not_stop_a_zap_unload() -> None:
    state = position(
        robots={"red": [((-1, -1), "E")], "yellow": [((0, -1), "SE", "green")]},
        programs={"red": ["zap"], "yellow": ["anti_theft"]},
    )
    run(state)
    state.apply(0, ZapOrder(Tile.UNLOAD))
    assert robot(state, "yellow-A")[2] is None
    assert crystals(state) == {(0, 0): "green"}


def test_unload_on_an_empty_hex() -> None:
    state = position(robots={"red": [((-1, -1), "E", "blue")]}, programs={"red": ["unload"]})
    run(state)
    assert robot(state, "red-A")[2] is None
    assert crystals(state) == {(0, -1): "blue"}


def test_unload_onto_a_base_of_another_colour() -> None:
    state = position(
        robots={"red": [((-2, 0), "W", "green")]}, crystals=[((1, 1), "blue")], programs={"red": ["unload"]}
    )
    events = run(state)
    view = state.view(None)
    delivered = {c["colour"]: c["delivered"] for c in view["colours"]}
    assert delivered == {"red": [], "yellow": ["green"]}
    assert "deliver" in types(events)
    assert crystals(state) == {(1, 1): "blue", (0, 0): "green"}  # the next crystal of the track entered


def test_unload_onto_an_empty_robot() -> None:
    state = position(
        robots={"red": [((-1, -1), "E", "pink")], "yellow": [((0, -1), "W")]},
        programs={"red": ["unload"]},
    )
    run(state)
    assert robot(state, "red-A")[2] is None
    assert robot(state, "yellow-A")[2] == "pink"


def test_unload_blocked_by_a_loaded_robot() -> None:
    state = position(
        robots={"red": [((-1, -1), "E", "pink")], "yellow": [((0, -1), "W", "blue")]},
        programs={"red": ["unload"]},
    )
    run(state)
    assert robot(state, "red-A")[2] == "pink"
    assert robot(state, "yellow-A")[2] == "blue"


def test_unload_blocked_by_a_crystal_and_the_edge() -> None:
    state = position(
        robots={"red": [((-1, -1), "E", "pink")]}, crystals=[((0, -1), "blue")], programs={"red": ["unload"]}
    )
    run(state)
    assert robot(state, "red-A")[2] == "pink"
    state = position(robots={"red": [((-4, 1), "W", "pink")]}, programs={"red": ["unload"]})
    run(state)
    assert robot(state, "red-A")[2] == "pink"


def test_forward_then_load_loads_even_if_the_step_fails() -> None:
    state = position(
        robots={"red": [((-2, -1), "E")]},
        crystals=[((-1, -1), "blue"), ((0, -1), "green")],
        programs={"red": ["forward_then_load"]},
    )
    run(state)
    assert robot(state, "red-A") == ((-2, -1), "E", "blue")
    state = position(
        robots={"red": [((-2, -1), "E")]}, crystals=[((0, -1), "green")], programs={"red": ["forward_then_load"]}
    )
    run(state)
    assert robot(state, "red-A") == ((-1, -1), "E", "green")


def test_empty_slots_are_skipped_and_robot_b_runs_after_a() -> None:
    state = position(
        robots={"red": [((-1, -1), "E"), ((-1, 1), "E")]},
        programs={"red": [None, "forward_1", None, "turn_left", None, None]},
    )
    events = run(state)
    runs = [e.data["robot"] for e in events if e.type == "run"]
    assert runs == ["red-A", "red-B"]
    assert robot(state, "red-A")[0] == (0, -1)
    assert robot(state, "red-B")[1] == "NE"


def test_forward_then_zap_zaps_even_if_the_step_fails() -> None:
    state = position(
        robots={"red": [((-2, -1), "E")], "yellow": [((-1, -1), "E")]},
        crystals=[((0, -1), "blue")],
        programs={"red": ["forward_then_zap"]},
    )
    run(state)
    assert robot(state, "red-A")[0] == (-2, -1)
    assert state.view(None)["pending"]["robot"] == "yellow-A"


def test_components_at_the_start() -> None:
    from robotable.games.twin_tin_bots import GAME

    for n in range(2, 7):
        state = GAME.start(n, seed=n)
        view = state.view(state.controller[0])
        hand = view["colours"][0]["hand"]
        orders = {"forward_1": 2, "forward_2": 1, "turn_left": 3, "turn_right": 3, "load": 2, "unload": 2, "zap": 2}
        assert {t: hand[t] for t in orders} == orders and hand["double_modification"] == 1
        assert sum(hand.values()) == 17  # 16 Order tiles and the Special Order dealt
        assert len(state.stack) == 13 - n and all(len(s) == 1 for s in state.specials)
        assert sorted(state.stack + [t for s in state.specials for t in s]) == sorted(range(8, 21))
        assert len(state.ground) == n + 3 and state.crystal_census()["unused"] + len(state.track) == 18 - n - 3


def test_every_starting_position_is_consistent() -> None:
    from robotable.games.twin_tin_bots import GAME

    for n in range(2, 7):
        for options in ({}, {"simplified": True}, {"team_play": True}, {"mud": 3, "blobs": 2, "rocks": 1}):
            state = GAME.start(n, seed=n, options=options)
            state.check_invariants()
            assert len(state.ground) == len(state.colours) + 3
            assert GAME.state_from_json(state.to_json()).to_json() == state.to_json()
