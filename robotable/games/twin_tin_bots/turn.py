"""Turns: each colour in turn order changes one program, then runs its programs; rounds, and the
Countdown counters of the end phase (crystal attrition)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from robotable.core import Event

from .events import turn_start_event
from .game_end import game_over
from .movement import stuck_at_turn_start
from .phases import CHANGE, START

if TYPE_CHECKING:
    from .state import TtbState

ATTRITION = "crystal attrition: three game turns after the last crystal entered play"


def start_turn(st: TtbState, events: list[Event]) -> None:
    """The active colour's turn begins with its programming step (two placements on its first turn).
    Mud has no memory: each of the colour's robots that starts its turn in Mud is stuck again."""
    c = st.order[st.turn]  # (st.active)
    st.phase = CHANGE
    st.changes_left = 1 if st.first_done[c] else st.first_turn_placements(c) or 1
    st.run_at = START
    if st.board.mud or True in st.stuck:  # (else no robot is stuck, nor will be)
        st.stuck = stuck_at_turn_start(st.board, st.rhex, st.stuck, st.robots_of(c))
    events.append(turn_start_event[st.colours[c], st.round])


def end_turn(st: TtbState, events: list[Event]) -> None:
    """The next colour plays. At the start of each round of the end phase the first player discards a
    Countdown counter; the game ends after the round in which the last one was discarded."""
    if st.turn + 1 < len(st.order):
        st.turn += 1
    else:
        if st.end_phase and st.countdown <= 0:
            game_over(st, ATTRITION, events)
            return
        st.round += 1
        st.turn = 0
        if st.end_phase:
            st.countdown -= 1
            events.append(Event("countdown", {"counters_left": st.countdown, "last_turn": st.countdown == 0}))
    start_turn(st, events)
