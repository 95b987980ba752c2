"""Decisions of the rules page that the rulebook leaves open or that an audit found (issue 18): each test
here fails without its rule."""

from __future__ import annotations

import json

import pytest
from ttb_helpers import position, robot, run, types

from robotable import BadInput
from robotable.games.twin_tin_bots import GAME, Tile, ZapOrder
from robotable.games.twin_tin_bots.components import TILE_NAMES

# -- Mud ---------------------------------------------------------------------------------------------


def test_a_zapped_forward_ignored_in_mud_frees_the_robot_for_its_own_run() -> None:
    """Red to play, Mud on [0, 0]: A zaps B, which stands in the Mud, and red makes it go Forward 1x:
    ignored. B's own Forward 1x then moves it: one ignored Forward per turn, not one more when its
    program run starts."""
    state = position(
        robots={"red": [((-1, 0), "E"), ((0, 0), "E")]},
        programs={"red": ["zap", None, None, "forward_1"]},
        mud=[[0, 0]],
    )
    # the position exactly: yellow's robots far away on [4, -3] SW and [0, 4] NW
    assert [robot(state, r)[:2] for r in ("red-A", "red-B", "yellow-A", "yellow-B")] == [
        ((-1, 0), "E"),
        ((0, 0), "E"),
        ((4, -3), "SW"),
        ((0, 4), "NW"),
    ]
    run(state)
    assert state.view(None)["pending"]["robot"] == "red-B"
    events = state.apply(0, ZapOrder(Tile.FORWARD_1))
    assert [(e.type, e.data.get("robot"), e.data.get("hex")) for e in events][:5] == [
        ("zap_order", "red-B", None),
        ("mud", "red-B", [0, 0]),  # the zap-forced Forward is ignored: B entered this turn stuck
        ("run", "red-B", None),
        ("order", "red-B", None),
        ("move", "red-B", [1, 0]),  # B's own Forward 1x moves it: one ignored Forward a turn
    ]
    assert types(events).count("mud") == 1
    assert robot(state, "red-B")[0] == (1, 0)


def test_an_ignored_step_does_not_end_a_forward_2x() -> None:
    state = position(robots={"red": [((-1, -1), "E")]}, programs={"red": ["forward_2"]}, mud=[[-1, -1]])
    events = run(state)
    assert types(events).count("mud") == 1
    assert robot(state, "red-A")[0] == (0, -1)


def test_back_up_is_a_forward_step_in_the_mud() -> None:
    """Starting the turn in the Mud, Back Up is the ignored step; Forward 1x then leaves the Mud."""
    state = position(robots={"red": [((-1, -1), "E")]}, programs={"red": ["back_up", "forward_1"]}, mud=[[-1, -1]])
    events = run(state)
    assert types(events).count("mud") == 1
    assert robot(state, "red-A")[:2] == ((0, -1), "E")


def test_a_robot_in_mud_is_stuck_again_at_the_start_of_its_own_turn() -> None:
    """Yellow-A sits in the Mud. In each of red's turns red zaps it and makes it go Forward 1x: ignored
    each time, because yellow-A started yellow's turn in between in the Mud ("Mud has no memory: should
    a robot start his turn in the Mud...")."""
    state = position(
        robots={"red": [((-2, -1), "E")], "yellow": [((-1, -1), "NW")]},
        programs={"red": ["zap"], "yellow": [None, None, None, "turn_left"]},
        mud=[[-1, -1]],
    )
    for _ in range(2):
        run(state)  # red: the zap hits yellow-A
        events = state.apply(0, ZapOrder(Tile.FORWARD_1))
        assert types(events)[:2] == ["zap_order", "mud"]
        assert robot(state, "yellow-A")[0] == (-1, -1)
        run(state)  # yellow: robot B turns


def test_a_robot_in_mud_is_not_stuck_again_at_the_start_of_another_colours_turn() -> None:
    """Rulebook: "should a robot start **his** turn in the Mud" (issue 27). Red-B's own Forward 1x is
    ignored in red's turn, so red-B is free; yellow's turn starting does not make it stuck again, and
    yellow's zap making it go Forward 1x moves it out of the Mud."""
    state = position(
        robots={"red": [((0, -4), "SE"), ((0, 0), "E")], "yellow": [((-1, 0), "E")]},
        programs={"red": [None, None, None, "forward_1"], "yellow": ["zap"]},
        mud=[[0, 0]],
    )
    events = run(state)  # red: B's Forward 1x is the ignored step
    assert types(events).count("mud") == 1 and robot(state, "red-B")[0] == (0, 0)
    assert state.stuck == [False] * 4
    run(state)  # yellow: the zap hits red-B
    assert state.view(None)["pending"]["robot"] == "red-B"
    events = state.apply(1, ZapOrder(Tile.FORWARD_1))
    assert "mud" not in types(events)
    assert robot(state, "red-B")[0] == (1, 0)


# -- Anti Theft and zaps ------------------------------------------------------------------------------


def test_anti_theft_is_judged_between_the_robot_a_zap_makes_load_and_the_carrier() -> None:
    """Red zaps yellow-A and makes it Load from red-B, which carries a pink with Anti Theft: yellow is
    red's opponent, so nothing is stolen (the zapping colour being red's own does not matter)."""
    state = position(
        robots={"red": [((-2, -1), "E"), ((1, -1), "W", "pink")], "yellow": [((0, -1), "E")]},
        programs={"red": ["zap", None, None, "anti_theft"]},
    )
    run(state)
    events = state.apply(0, ZapOrder(Tile.LOAD))
    assert "anti_theft" in types(events)
    assert robot(state, "red-B")[2] == "pink" and robot(state, "yellow-A")[2] is None


def test_a_zap_can_make_a_robot_load_from_its_own_teammate_despite_anti_theft() -> None:
    state = position(
        robots={"red": [((-2, -1), "E")], "yellow": [((0, -1), "E"), ((1, -1), "W", "pink")]},
        programs={"red": ["zap"], "yellow": ["turn_left", None, None, "anti_theft"]},
    )
    run(state)
    events = state.apply(0, ZapOrder(Tile.LOAD))
    assert "steal" in types(events)
    assert robot(state, "yellow-A")[2] == "pink" and robot(state, "yellow-B")[2] is None


# -- Score victory ------------------------------------------------------------------------------------


def test_score_victory_comes_before_the_special_draw_and_ranks_first_whatever_the_points() -> None:
    """Red's A unloads a blue into yellow's Base: yellow reaches 11 points in Bases and wins at once.
    No Special Order is drawn and no crystal enters. Red has more points (10 in its Base and a green
    carried for 2) but yellow ranks first, and the result says why."""
    state = position(
        robots={"red": [((-2, 0), "W", "blue"), ((-4, 3), "NE", "green")]},
        programs={"red": ["unload"]},
        delivered={"red": ["pink", "pink", "blue"], "yellow": ["pink", "green", "blue"]},
        specials={"yellow": ["jump"]},
        track=["green"],
    )
    stack = len(state.stack)
    events = run(state)
    assert state.is_over()
    assert "draw_special" not in types(events) and "crystal_enters" not in types(events)
    assert len(state.stack) == stack and state.specials[1] == [int(Tile.JUMP)]
    result = state.result()
    assert result.scores == (12, 11)
    assert result.ranks == (2, 1) and result.winners == (1,)
    assert result.reason.startswith("score victory")
    assert state.view(0)["result"]["reason"] == result.reason


# -- Hidden information in team play -----------------------------------------------------------------


def test_teammates_do_not_see_each_others_special_orders() -> None:
    state = GAME.start(4, seed=2, options={"team_play": True})
    assert state.team[0] == state.team[2] and state.controller[0] != state.controller[2]
    seat, mate = state.controller[0], 2
    secret = TILE_NAMES[state.specials[mate][0]]
    view = state.view(seat)
    assert view["colours"][mate]["hidden_specials"] == 1
    assert secret not in view["colours"][mate]["hand"]
    assert f'"{secret}"' not in json.dumps(view)
    assert secret in state.view(state.controller[mate])["colours"][mate]["hand"]


# -- Impossible states are refused, naming the field ------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"victor": 99}, "field 'victor': a seat 0-1 or null"),
        ({"victor": 0}, "field 'victor': a score victory ends the game"),
        ({"changes_left": 99}, "field 'changes_left'"),
        ({"changes_left": 0}, "field 'changes_left'"),
        ({"teams": [0, 0]}, "field 'teams'"),
        ({"controllers": [1, 0]}, "field 'controllers'"),
        ({"mud": [[3, 0]]}, "field 'mud': \\[3, 0\\] is on a Base"),
    ],
)
def test_impossible_values_are_refused_with_the_field_named(change: dict[str, object], message: str) -> None:
    data = GAME.start(2, seed=1).to_json()
    data.update(change)
    with pytest.raises(BadInput, match=message):
        GAME.state_from_json(data)


def test_a_victor_needs_the_points_and_no_team_play() -> None:
    data = GAME.start(2, seed=1).to_json()
    data.update(phase="over", changes_left=0, victor=0, end_reason="score victory")
    with pytest.raises(BadInput, match="field 'victor': seat 0 has 0 points in Bases"):
        GAME.state_from_json(data)
    data = GAME.start(4, seed=1, options={"team_play": True}).to_json()
    data.update(phase="over", changes_left=0, victor=0, end_reason="score victory")
    with pytest.raises(BadInput, match="field 'victor': Team play has no score victory"):
        GAME.state_from_json(data)
