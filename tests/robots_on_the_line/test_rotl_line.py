"""The production line: magnet units, switches, maintenance tiles, advancing into the junk piles."""

from __future__ import annotations

import pytest

from robotable.core import IllegalAction
from robotable.games.robots_on_the_line import EndTurn, FlipSwitch, FlipSwitches, SearchJunk, TakePart
from robotable.games.robots_on_the_line.components import PART_IDS
from robotable.games.robots_on_the_line.line import EMPTY

from .rotl_positions import fresh, set_draw_top, set_hand, set_junk, set_line


def ids(parts):
    return [PART_IDS[p] if p is not None else EMPTY for p in parts]


def names(state, parts):
    from robotable.games.robots_on_the_line.line import pid

    return [pid(p) if p != EMPTY else None for p in parts]


def test_a_magnet_unit_is_taken_whole():
    state = fresh()
    set_line(state, 0, [None, None, None, "head-01", "hand-20", "magnet-01"])
    set_hand(state, 0, [])
    state.apply(0, TakePart(0, 4))
    assert state.hands[0] == sorted(ids(["head-01", "hand-20", "magnet-01"]))
    assert state.lines[0][3:] == [EMPTY] * 3


def test_a_magnet_chain_is_collected_together():
    state = fresh()
    state.switches = [[True, False], [False, True]]
    set_line(state, 0, ["base-01", "head-01", "magnet-01", "hand-20", "magnet-02", "hand-21"])
    set_hand(state, 0, [])
    # magnet-02 (space 5) pulls spaces 4 and 3; magnet-01 (space 3) pulls 2 and 1; nothing pulls space 6
    assert TakePart(0, 1) in state.legal_actions(0)
    assert TakePart(0, 6) not in state.legal_actions(0)  # space 6 is in the OFF section here
    state.apply(0, TakePart(0, 2))
    assert state.hands[0] == sorted(ids(["base-01", "head-01", "magnet-01", "hand-20", "magnet-02"]))
    assert names(state, state.lines[0]) == [None] * 5 + ["hand-21"]


def test_a_magnet_stops_at_an_empty_space_and_is_ordinary_in_a_junk_pile():
    state = fresh()
    set_line(state, 0, [None, None, "head-01", None, "magnet-01", "hand-20"])
    set_junk(state, 0, ["head-02", "magnet-02"])
    set_hand(state, 0, [], money=3)
    state.apply(0, TakePart(0, 5))
    assert state.hands[0] == ids(["magnet-01"])
    state2 = fresh()
    set_junk(state2, 0, ["head-02", "magnet-02", "base-01"])
    set_hand(state2, 0, [], money=3)
    state2.apply(0, SearchJunk(0, "magnet-02"))  # in a junk pile a magnet pulls nothing
    assert state2.hands[0] == ids(["magnet-02"])


def test_taking_from_an_off_section_is_refused_and_changes_nothing():
    state = fresh()
    set_line(state, 0, ["head-01", "hand-20", "base-01", "head-02", None, None])
    assert state.switches[0] == [False, True]
    before = state.to_json()
    with pytest.raises(IllegalAction, match="switch of line 0, spaces 1-3 is OFF"):
        state.apply(0, TakePart(0, 2))
    assert state.to_json() == before
    assert [a for a in state.legal_actions(0) if isinstance(a, TakePart) and a.line == 0] == [TakePart(0, 4)]


def test_parts_leaving_space_6_land_on_the_junk_pile_in_order():
    state = fresh()
    set_line(state, 0, [None, None, None, "head-03", "head-02", "head-01"])
    set_junk(state, 0, ["base-01"])
    set_draw_top(state, 0, ["hand-20", "hand-21"])
    state.apply(0, EndTurn())
    state.apply(1, EndTurn())
    assert names(state, state.junk[0]) == ["base-01", "head-01", "head-02"]
    assert names(state, state.lines[0])[:3] == ["hand-21", "hand-20", None]


def test_a_paid_search_keeps_the_piles_order():
    state = fresh()
    set_junk(state, 1, ["head-01", "head-02", "base-01", "hand-20"])
    set_hand(state, 0, [], money=2)
    bank = state.bank
    state.apply(0, SearchJunk(1, "head-02"))
    assert names(state, state.junk[1]) == ["head-01", "base-01", "hand-20"]
    assert state.money[0] == 1 and state.bank == bank + 1
    with pytest.raises(IllegalAction, match="one part per turn"):
        state.apply(0, SearchJunk(1, "base-01"))


def test_flipping_switches_costs_1_and_keeps_two_on():
    state = fresh()
    set_hand(state, 0, [], money=1)
    state.apply(0, FlipSwitches((0, 0), (1, 1)))
    assert state.switches == [[True, True], [False, False]] and state.money[0] == 0
    with pytest.raises(IllegalAction, match="costs \\$1"):
        state.apply(0, FlipSwitches((0, 1), (0, 0)))
    set_hand(state, 0, [], money=1)
    with pytest.raises(IllegalAction, match="already ON"):
        state.apply(0, FlipSwitches((0, 0), (0, 1)))
    with pytest.raises(IllegalAction, match="ON/OFF house rule"):
        state.apply(0, FlipSwitch(0, 0))


def test_flips_are_not_limited_per_turn():
    """Decision 8: any number of flips in one turn, $1 each."""
    state = fresh()
    set_hand(state, 0, [], money=3)
    for on, off in [((0, 0), (0, 1)), ((0, 1), (1, 1)), ((1, 1), (0, 0))]:
        state.apply(0, FlipSwitches(on, off))
    assert state.switches == [[False, True], [False, True]] and state.money[0] == 0  # back where it began
    assert state.turn == 0


def test_the_on_off_variant_turns_one_switch_over():
    state = fresh(on_off_variant=True)
    set_hand(state, 0, [], money=2)
    state.apply(0, FlipSwitch(0, 0))
    assert state.switches == [[True, True], [False, True]]
    with pytest.raises(IllegalAction, match="one at a time"):
        state.apply(0, FlipSwitches((1, 0), (0, 0)))


def _ready_for_maintenance(state, line0, line1, stack):
    set_line(state, 0, [None, "head-10", "head-11", "head-12", "head-13", "head-14"])
    set_line(state, 1, [None, "base-10", "base-11", "base-12", "base-13", "base-14"])
    set_draw_top(state, 0, line0)
    set_draw_top(state, 1, line1)
    state.maint = list(stack)


def test_a_line_reset_refills_alternately_and_a_second_reset_drawn_during_the_refill_resolves():
    state = fresh()
    final0 = ["head-02", "hand-20", "hand-21", "hand-22", "hand-23", "hand-24"]
    final1 = ["base-02", "base-03", "base-04", "base-05", "base-06", "base-07"]
    _ready_for_maintenance(
        state,
        ["extender-01", "head-01", "extender-02", *final0],
        ["base-01", *final1],
        ["switch_flip", "line_reset", "line_reset"],
    )
    junk0, junk1 = names(state, state.junk[0]), names(state, state.junk[1])
    events = state.apply(0, EndTurn())
    # advance: head-14 and base-14 go to the junk piles; extender-01 is drawn to line 0 space 1: Line Reset
    first0 = ["head-13", "head-12", "head-11", "head-10", "extender-01"]
    first1 = ["base-13", "base-12", "base-11", "base-10"]
    # the refill (space 6, then 5, ... alternately) draws extender-02: the second Line Reset
    second0, second1 = ["head-01", "extender-02"], ["base-01"]
    assert names(state, state.junk[0]) == [*junk0, "head-14", *first0, *second0]
    assert names(state, state.junk[1]) == [*junk1, "base-14", *first1, *second1]
    assert names(state, state.lines[0]) == final0[::-1]
    assert names(state, state.lines[1]) == final1[::-1]
    assert state.maint == ["switch_flip"] and state.maint_discard == ["line_reset", "line_reset"]
    drawn = [(e.data["line"], e.data["space"]) for e in events if e.type == "drawn"]
    assert drawn[:4] == [(0, 1), (0, 6), (1, 6), (0, 5)]
    assert drawn[4:] == [(line, space) for space in range(6, 0, -1) for line in (0, 1)]
    assert state.switches == [[False, True], [False, True]]


def test_a_switch_flip_during_a_refill_turns_every_switch_and_the_refill_goes_on():
    state = fresh()
    final0 = ["hand-20", "hand-21", "hand-22", "hand-23"]
    _ready_for_maintenance(
        state,
        ["extender-01", "head-01", "extender-02", *final0],
        ["base-01", "base-02", "base-03", "base-04", "base-05", "base-06"],
        ["switch_flip", "line_reset"],
    )
    state.apply(0, EndTurn())
    assert state.switches == [[True, False], [True, False]]
    assert names(state, state.lines[0]) == [*final0[::-1], "extender-02", "head-01"]
    assert all(x != EMPTY for x in state.lines[1])


def test_a_switch_flip_at_the_start_of_a_turn():
    state = fresh()
    _ready_for_maintenance(state, ["extender-01"], ["base-01"], ["switch_flip"])
    state.apply(0, EndTurn())
    assert state.switches == [[True, False], [True, False]]
    assert names(state, [state.lines[0][0], state.lines[1][0]]) == ["extender-01", "base-01"]
    assert state.maint == [] and state.maint_discard == ["switch_flip"]


def test_an_empty_maintenance_stack_does_nothing_and_plain_extenders_do_not_trigger():
    state = fresh()
    _ready_for_maintenance(state, ["extender-01"], ["extender-09"], [])
    switches = [s[:] for s in state.switches]
    state.apply(0, EndTurn())
    assert state.switches == switches
    assert names(state, state.lines[0])[:3] == ["extender-01", None, "head-10"]


def test_the_game_ends_when_no_part_is_left_on_the_line():
    state = fresh()
    set_line(state, 0, [None] * 5 + ["head-01"])
    set_line(state, 1, [None] * 6)
    for line in (0, 1):
        state.junk[line].extend(state.draw[line])
        state.draw[line] = []
    state.apply(0, EndTurn())
    assert state.is_over() and state.result().reason == "no robot parts left on the line"
    assert state.to_act() == [] and state.legal_actions(0) == []
