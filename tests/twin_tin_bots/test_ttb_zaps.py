"""Zaps and the zapping player's choice, Long Range Zap, Double Zap, Forward Then Zap."""

from __future__ import annotations

import pytest
from ttb_helpers import position, robot, run, types

from robotable import IllegalAction
from robotable.games.twin_tin_bots import Tile, ZapOrder


def zap_position(yellow_hex: tuple[int, int], tile: str = "zap", **kw: object):  # type: ignore[no-untyped-def]
    robots = {"red": [((-1, -1), "E")], "yellow": [(yellow_hex, "SE")]}
    robots.update(kw.pop("robots", {}))  # type: ignore[arg-type]
    return position(robots=robots, programs={"red": [tile], **kw.pop("programs", {})}, **kw)  # type: ignore[arg-type]


def test_zap_at_range_1_gives_the_zapping_player_a_choice() -> None:
    state = zap_position((0, -1))
    run(state)
    view = state.view(None)
    assert view["phase"] == "zap" and view["pending"]["robot"] == "yellow-A"
    assert state.to_act() == [0]
    assert [a.to_json()["order"] for a in state.legal_actions(0)] == [
        "forward_1",
        "turn_left",
        "turn_right",
        "load",
        "unload",
    ]
    assert state.legal_actions(1) == []
    state.apply(0, ZapOrder(Tile.TURN_LEFT))
    assert robot(state, "yellow-A") == ((0, -1), "E", None)
    assert state.view(None)["active"] == "yellow"  # red's turn ended


def test_zap_at_range_2() -> None:
    state = zap_position((1, -1))
    run(state)
    state.apply(0, ZapOrder(Tile.FORWARD_1))
    assert robot(state, "yellow-A")[0] == (1, 0)


def test_zap_fizzles_beyond_range_2() -> None:
    state = zap_position((2, -1))
    events = run(state)
    assert state.view(None)["phase"] == "change"
    assert [e.data["hit"] for e in events if e.type == "zap"] == [None]


def test_zap_blocked_by_a_crystal() -> None:
    state = zap_position((1, -1), crystals=[((0, -1), "blue")])
    run(state)
    assert state.view(None)["phase"] == "change"


def test_zap_resisted_by_an_opponents_anti_zap() -> None:
    state = zap_position((0, -1), programs={"yellow": ["anti_zap"]})
    events = run(state)
    assert state.view(None)["phase"] == "change"
    assert [e.data.get("resisted") for e in events if e.type == "zap"] == [True]


def test_zap_hitting_a_friendly_robot_even_with_anti_zap() -> None:
    state = position(
        robots={"red": [((-1, -1), "E"), ((0, -1), "SE")]},
        programs={"red": ["zap", None, None, "anti_zap"]},
    )
    run(state)
    assert state.view(None)["pending"]["robot"] == "red-B"
    state.apply(0, ZapOrder(Tile.TURN_RIGHT))
    assert robot(state, "red-B")[1] == "SW"


def test_zap_forces_load_and_unload() -> None:
    state = zap_position((0, -1), crystals=[((0, 0), "pink")])
    run(state)
    state.apply(0, ZapOrder(Tile.LOAD))  # yellow-A faces SE: (0, 0)
    assert robot(state, "yellow-A")[2] == "pink"


def test_zap_cannot_force_other_orders() -> None:
    state = zap_position((0, -1))
    run(state)
    with pytest.raises(IllegalAction, match="zap can force only"):
        state.apply(0, ZapOrder(Tile.FORWARD_2))


def test_zapped_robot_unloading_in_a_base_delivers() -> None:
    state = zap_position((-2, 0), robots={"red": [((-2, -2), "SE")], "yellow": [((-2, 0), "W", "green")]})
    run(state)
    state.apply(0, ZapOrder(Tile.UNLOAD))
    assert [c["delivered"] for c in state.view(None)["colours"]] == [[], ["green"]]


def test_long_range_zap() -> None:
    state = zap_position((3, -1), tile="long_range_zap")
    run(state)
    assert state.view(None)["pending"]["robot"] == "yellow-A"
    state = zap_position((3, -1), tile="long_range_zap", crystals=[((2, -1), "blue")])
    run(state)
    assert state.view(None)["phase"] == "change"


def test_double_zap_scans_again_after_the_first_resolves() -> None:
    state = zap_position((0, -1), tile="double_zap", robots={"yellow": [((0, -1), "E")]})
    run(state)
    state.apply(0, ZapOrder(Tile.FORWARD_1))
    assert robot(state, "yellow-A")[0] == (1, -1)
    assert state.view(None)["pending"]["robot"] == "yellow-A"  # second zap, range 2
    state.apply(0, ZapOrder(Tile.TURN_LEFT))
    assert robot(state, "yellow-A") == ((1, -1), "NE", None)


def test_forward_then_zap() -> None:
    state = zap_position((1, -1), tile="forward_then_zap")
    events = run(state)
    assert robot(state, "red-A")[0] == (0, -1)
    assert types(events).index("move") < types(events).index("zap")
    assert state.view(None)["pending"]["robot"] == "yellow-A"


def test_zap_does_not_pass_a_base() -> None:
    # the Base at (3, 0) stands between red at (1, 0) and yellow at (4, 0), on the long range zap's line
    state = position(robots={"red": [((1, 0), "E")], "yellow": [((4, 0), "E")]}, programs={"red": ["long_range_zap"]})
    assert state.board.base_at.get((3, 0)) is not None
    run(state)
    assert state.view(None)["phase"] == "change"  # the pulse stopped at the Base: nobody to move
    # in front of the Base the same zap hits yellow
    state = position(robots={"red": [((1, 0), "E")], "yellow": [((2, 0), "E")]}, programs={"red": ["long_range_zap"]})
    run(state)
    assert state.view(None)["pending"]["robot"] == "yellow-A"
