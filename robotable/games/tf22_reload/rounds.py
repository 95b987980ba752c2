"""Rounds and points: the stack is shuffled and battles follow until it is empty; the round is scored;
round 2 shuffles all 28 container cards again; after it, the bonus ends the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from robotable.core import Event

from . import battle, rules
from .components import DECK, ROUNDS
from .phases import CHOOSE, OVER

if TYPE_CHECKING:
    from .state import Tf22State


def setup(st: Tf22State) -> list[Event]:
    """Shuffle the container cards and reveal the first two (called once, by the game)."""
    st.deck = list(DECK)
    st.rng.shuffle(st.deck)
    events = [Event("round_start", {"round": 1})]
    battle.activate(st, events)
    return events


def next_battle(st: Tf22State, events: list[Event]) -> None:
    """The next battle, or the end of the round once the stack is empty."""
    st.revealed = []
    st.phase = CHOOSE
    if st.deck:
        battle.activate(st, events)
    else:
        end_round(st, events)


def end_round(st: Tf22State, events: list[Event]) -> None:
    """Score the round; after round 2, the bonus and the end of the game."""
    breakdown = rules.score_round(st.ships, st.cc_piles)
    for seat, part in enumerate(breakdown):
        st.scores[seat][st.round - 1] = part["total"]
    st.round_scores = [*st.round_scores, breakdown]  # a new list: clones share the old one
    events.append(Event("round_scored", {"round": st.round, "scores": breakdown}))
    if st.round < ROUNDS:
        start_round_2(st, events)
        return
    for seat, ship in enumerate(st.ships):
        st.scores[seat][2] = rules.bonus(ship)
    st.phase = OVER
    events.append(Event("game_over", {"result": st.result().to_json()}))


def start_round_2(st: Tf22State, events: list[Event]) -> None:
    """Ships and hands carry over; all 28 container cards are shuffled into a new stack."""
    st.round += 1
    st.battle = 0
    st.deck[:] = [c for pile in st.cc_piles for c in pile] + st.set_aside  # the same (empty) stack, refilled
    st.cc_piles = [[] for _ in range(st.num_players)]
    st.set_aside = []
    st.rng.shuffle(st.deck)
    events.append(Event("round_start", {"round": st.round}))
    battle.activate(st, events)
