"""Variants: Teleporters, Rocks, Blobs, Mud, Simplified rules, Advanced 2 players, Team play."""

from __future__ import annotations

import itertools

import pytest
from ttb_helpers import crystals, position, robot, run, types

from robotable import BadOptions
from robotable.games.twin_tin_bots import GAME, Facing, MoveBlob, Pass, Place, Tile, ZapOrder
from robotable.games.twin_tin_bots.hexgrid import distance, neighbours
from robotable.games.twin_tin_bots.positions import complete

TELE = {"teleporters": [[[-1, -1], [1, 1]]]}


def test_teleporting_a_robot() -> None:
    state = position(robots={"red": [((-2, -1), "E")]}, programs={"red": ["forward_1"]}, options=TELE)
    events = run(state)
    assert robot(state, "red-A") == ((2, 1), "E", None)  # out beyond the paired Teleporter
    assert "move" in types(events)


def test_teleporting_a_pushed_crystal() -> None:
    state = position(
        robots={"red": [((-3, -1), "E")]}, crystals=[((-2, -1), "blue")], programs={"red": ["forward_1"]}, options=TELE
    )
    run(state)
    assert robot(state, "red-A")[0] == (-2, -1)
    assert crystals(state) == {(2, 1): "blue"}


def test_teleport_pushing_at_the_exit() -> None:
    state = position(
        robots={"red": [((-2, -1), "E")]}, crystals=[((2, 1), "blue")], programs={"red": ["forward_1"]}, options=TELE
    )
    run(state)
    assert robot(state, "red-A")[0] == (2, 1)
    assert crystals(state) == {(3, 1): "blue"}


def test_teleport_blocked_at_the_exit() -> None:
    state = position(
        robots={"red": [((-2, -1), "E")]},
        crystals=[((2, 1), "blue"), ((3, 1), "green")],
        programs={"red": ["forward_1"]},
        options=TELE,
    )
    run(state)
    assert robot(state, "red-A")[0] == (-2, -1)
    assert crystals(state) == {(2, 1): "blue", (3, 1): "green"}


def test_no_zap_load_or_unload_through_a_teleporter() -> None:
    for tile, cargo in [("zap", None), ("load", None), ("unload", "pink")]:
        state = position(
            robots={"red": [((-2, -1), "E", cargo)], "yellow": [((2, 1), "W")]},
            crystals=[((3, 1), "blue")],
            programs={"red": [tile]},
            options=TELE,
        )
        run(state)
        assert state.view(None)["phase"] == "change", tile
        assert robot(state, "red-A")[2] == cargo, tile


def test_rocks_block_movement_and_zaps() -> None:
    state = position(robots={"red": [((-1, -2), "E")]}, programs={"red": ["forward_1"]}, options={"rocks": [[0, -2]]})
    run(state)
    assert robot(state, "red-A")[0] == (-1, -2)
    state = position(
        robots={"red": [((-1, -2), "E")], "yellow": [((1, -2), "W")]},
        programs={"red": ["zap"]},
        options={"rocks": [[0, -2]]},
    )
    run(state)
    assert state.view(None)["phase"] == "change"


def test_zapping_a_blob() -> None:
    state = position(
        robots={"red": [((-2, -1), "E")]},
        crystals=[((1, -1), "blue")],
        programs={"red": ["zap"]},
        options={"blobs": [[0, -1]]},
    )
    run(state)
    view = state.view(None)
    assert view["phase"] == "blob" and view["pending"]["hex"] == [0, -1]
    legal = [a.to_json()["direction"] for a in state.legal_actions(0)]
    assert legal[0] is None and "e" in legal  # push the crystal at (1, -1) to (2, -1)
    state.apply(0, MoveBlob(Facing.E))
    assert state.view(None)["blobs"] == [[1, -1]]
    assert crystals(state) == {(2, -1): "blue"}


def test_leaving_a_zapped_blob() -> None:
    state = position(robots={"red": [((-2, -1), "E")]}, programs={"red": ["zap"]}, options={"blobs": [[0, -1]]})
    run(state)
    state.apply(0, MoveBlob(None))
    assert state.view(None)["blobs"] == [[0, -1]]


def test_blobs_are_pushed_and_cannot_be_loaded() -> None:
    state = position(
        robots={"red": [((-1, -1), "E")]}, programs={"red": ["forward_1", "load"]}, options={"blobs": [[0, -1]]}
    )
    run(state)
    assert robot(state, "red-A") == ((0, -1), "E", None)
    assert state.view(None)["blobs"] == [[1, -1]]


MUD = {"mud": [[-1, -1]]}


def test_mud_example_1() -> None:
    """A robot in front of Mud with Forward 2x and Forward 1x: in, ignored, out."""
    state = position(robots={"red": [((-2, -1), "E")]}, programs={"red": ["forward_2", "forward_1"]}, options=MUD)
    events = run(state)
    assert types(events).count("mud") == 1
    moves = [tuple(e.data["hex"]) for e in events if e.type == "move"]
    assert moves == [(-1, -1), (0, -1)]


def test_mud_example_2() -> None:
    """A robot starting its turn in Mud: Forward 1x ignored, Turn Left, Forward 1x out."""
    state = position(
        robots={"red": [((-1, -1), "E")]}, programs={"red": ["forward_1", "turn_left", "forward_1"]}, options=MUD
    )
    events = run(state)
    assert types(events).count("mud") == 1
    assert robot(state, "red-A") == ((0, -2), "NE", None)


def test_mud_has_no_memory() -> None:
    state = position(
        robots={"red": [((-2, -1), "E")]},
        programs={"red": ["forward_1", "forward_1"], "yellow": ["turn_left"]},
        options=MUD,
    )
    run(state)
    assert robot(state, "red-A")[0] == (-1, -1)
    run(state)  # yellow's turn
    events = run(state)  # red again: in the Mud at the start, the first Forward is ignored again
    assert types(events).count("mud") == 1
    assert robot(state, "red-A")[0] == (0, -1)


def test_jump_out_of_mud_and_zap_through_mud() -> None:
    state = position(robots={"red": [((-1, -1), "E")]}, programs={"red": ["jump"]}, options=MUD)
    run(state)
    assert robot(state, "red-A")[0] == (1, -1)
    state = position(
        robots={"red": [((-2, -1), "E")], "yellow": [((0, -1), "W")]}, programs={"red": ["zap"]}, options=MUD
    )
    run(state)
    assert state.view(None)["pending"]["robot"] == "yellow-A"


def test_random_tokens_respect_the_setup_restrictions() -> None:
    for n in (2, 3, 5, 6):
        state = GAME.start(n, seed=n, options={"teleporters": 2, "rocks": 1, "blobs": 1, "mud": 3})
        b = state.board
        spread = [h for pair in b.teleporters for h in pair] + sorted(b.rocks) + list(state.blobs)
        assert len(spread) == 6 and len(b.mud) == 3
        for h in spread:
            assert distance(h, (0, 0)) < b.radius
            assert not any(x in b.bases or x in spread for x in neighbours(h))
        occupied = set(b.bases) | set(state.rhex) | set(state.ground)
        assert not (set(spread) | b.mud) & occupied
        assert (
            GAME.start(n, seed=n, options={"teleporters": 2, "rocks": 1, "blobs": 1, "mud": 3}).to_json()
            == state.to_json()
        )


def test_bad_token_options() -> None:
    with pytest.raises(BadOptions, match="0 to 3"):
        GAME.start(2, options={"rocks": 4})
    with pytest.raises(BadOptions, match="outer ring"):
        GAME.start(2, options={"rocks": [[1, -4]]})
    with pytest.raises(BadOptions, match="next to a Base"):
        GAME.start(2, options={"blobs": [[2, 0]]})
    with pytest.raises(BadOptions, match="not an empty hex"):
        GAME.start(2, options={"mud": [[0, 0]]})
    with pytest.raises(BadOptions, match="pair of hexes"):
        GAME.start(2, options={"teleporters": [[[0, -1]]]})
    with pytest.raises(BadOptions, match="use fewer"):
        GAME.start(4, options={"teleporters": 3, "rocks": 3, "blobs": 3})
    with pytest.raises(BadOptions, match="for 2 players"):
        GAME.start(3, options={"advanced_2p": True})
    with pytest.raises(BadOptions, match="expected true or false"):
        GAME.start(2, options={"team_play": 1})


def test_simplified_rules() -> None:
    state = GAME.start(3, seed=2, options={"simplified": True})
    assert len(state.rhex) == 3 and state.stack == [] and all(s == [] for s in state.specials)
    seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    assert {a.slot for a in legal} == {0, 1, 2}  # type: ignore[attr-defined]
    state.apply(seat, Place(0, Tile.FORWARD_1))  # one placement is the whole first turn
    assert state.to_act() != [seat]


def adv_position(**kw: object):  # type: ignore[no-untyped-def]
    return position(n=2, options={"advanced_2p": True}, **kw)  # type: ignore[arg-type]


def test_advanced_2p_colours_and_turns() -> None:
    state = GAME.start(2, seed=4, options={"advanced_2p": True})
    view = state.view(0)
    seats = {c["colour"]: c["seat"] for c in view["colours"]}
    assert seats == {"blue": 1, "yellow": 0, "green": 0, "red": 1}
    order = view["turn_order"]
    assert [seats[c] for c in order] in ([0, 1, 0, 1], [1, 0, 1, 0])
    assert view["your_colours"] == ["yellow", "green"]
    assert view["score_victory"] == 11


def test_advanced_2p_unloading_restriction() -> None:
    # 4-player board: blue Base (2, -3), yellow (2, 1), red (-2, 3), green (-2, -1). Yellow is seat 0's.
    cases = {"green": False, "yellow": True, "blue": True, "red": True}
    bases = {"blue": (2, -3), "yellow": (2, 1), "red": (-2, 3), "green": (-2, -1)}
    for colour, allowed in cases.items():
        bq, br = bases[colour]
        state = adv_position(
            robots={"yellow": [((bq - 1, br), "E", "pink")], "blue": [((0, -2), "E")]},
            programs={"yellow": ["unload"], "blue": ["turn_left"], "red": ["turn_left"], "green": ["turn_left"]},
            turn_order=["yellow", "red", "green", "blue"],
        )
        run(state)
        delivered = {c["colour"]: c["delivered"] for c in state.view(None)["colours"]}
        assert (delivered[colour] == ["pink"]) is allowed, colour


def test_advanced_2p_scoring_adds_both_colours() -> None:
    state = adv_position(
        delivered={"yellow": ["pink"], "green": ["pink", "blue"], "blue": ["pink", "pink"], "red": []},
        track=[],
        phase="over",
        end_reason="test",
    )
    assert state.result().scores == (10, 8)


def test_team_play_even() -> None:
    state = GAME.start(4, seed=1, options={"team_play": True})
    view = state.view(0)
    teams = {c["colour"]: c["team"] for c in view["colours"]}
    assert teams == {"blue": 0, "yellow": 1, "red": 0, "green": 1}  # teammates face each other
    assert view["score_victory"] is None
    order = [teams[c] for c in view["turn_order"]]
    assert all(a != b for a, b in itertools.pairwise(order))


def test_team_play_odd_one_player_plays_two_colours() -> None:
    state = GAME.start(3, seed=1, options={"team_play": True})
    assert len(state.colours) == 4
    assert state.seat_colours(0) == [0, 2] and state.team[0] == state.team[2]
    state = GAME.start(5, seed=1, options={"team_play": True})
    assert len(state.colours) == 6 and len(state.seat_colours(0)) == 2


def test_team_play_scoring_and_no_score_victory() -> None:
    state = position(
        n=4,
        options={"team_play": True},
        delivered={"blue": ["pink", "pink"], "red": ["pink", "pink"], "yellow": ["blue"], "green": []},
        track=[],
        robots={"blue": [((3, -3), "SW", None)]},
    )
    # Team 0 has 16 points in Bases and no score victory happened; finish the game by hand.
    data = state.to_json()
    data.update(phase="over", end_reason="test", changes_left=0)
    del data["unused"]
    result = GAME.state_from_json(complete(data)).result()
    seats = {c: s for c, s in zip(state.colours, state.controller, strict=True)}
    assert result.scores[seats["blue"]] == result.scores[seats["red"]] == 16
    assert result.scores[seats["yellow"]] == result.scores[seats["green"]] == 2
    assert set(result.winners) == {seats["blue"], seats["red"]}


def test_team_play_delivery_beyond_the_target_does_not_end_the_game() -> None:
    state = position(
        n=4,
        options={"team_play": True},
        delivered={"blue": ["pink", "pink"], "red": [], "yellow": [], "green": []},
        track=["green"],
        robots={"blue": [((1, -3), "E", "pink")]},
        programs={"blue": ["unload"]},
        turn_order=["blue", "yellow", "red", "green"],
    )
    run(state)
    assert not state.is_over()
    assert state.view(None)["colours"][0]["delivered"] == ["pink", "pink", "pink"]


def test_team_play_anti_zap_protects_from_the_other_team_only() -> None:
    # 4 players in teams: blue and red are teammates. Blue zaps red (friendly, hit) and yellow (opponent).
    for target, hit in [("red", True), ("yellow", False)]:
        state = position(
            n=4,
            options={"team_play": True},
            robots={"blue": [((0, -1), "E")], target: [((1, -1), "E")]},
            programs={"blue": ["zap"], target: ["anti_zap"]},
            turn_order=["blue", "yellow", "red", "green"],
        )
        run(state)
        assert (state.view(None)["phase"] == "zap") is hit, target
        if hit:
            state.apply(state.to_act()[0], ZapOrder(Tile.TURN_LEFT))
    state.apply(state.to_act()[0], Pass())


def test_jump_onto_a_teleporter_comes_out_beyond_its_pair() -> None:
    state = position(robots={"red": [((-3, -1), "E")]}, programs={"red": ["jump"]}, options=TELE)
    run(state)
    assert robot(state, "red-A")[0] == (2, 1)


def test_unload_onto_a_rock_or_a_blob_is_ignored() -> None:
    for options in ({"rocks": [[0, -1]]}, {"blobs": [[0, -1]]}):
        state = position(robots={"red": [((-1, -1), "E", "pink")]}, programs={"red": ["unload"]}, options=options)
        run(state)
        assert robot(state, "red-A")[2] == "pink", options


def test_a_robot_pushed_into_mud_is_stuck() -> None:
    state = position(
        robots={"red": [((-3, -1), "E")], "yellow": [((-2, -1), "E")]},
        programs={"red": ["forward_1", "zap"]},
        options=MUD,
    )
    run(state)
    assert robot(state, "yellow-A")[0] == (-1, -1)
    state.apply(0, ZapOrder(Tile.FORWARD_1))  # the zapped robot's Forward is ignored in the Mud
    assert robot(state, "yellow-A")[0] == (-1, -1)
