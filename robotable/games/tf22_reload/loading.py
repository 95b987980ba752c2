"""The battle winner's decision: load the activated container onto the ship, reload one of the
battle's colour (the container goes back), or return the container to the stock."""

from __future__ import annotations

from typing import TYPE_CHECKING

from robotable.core import Action, Event

from . import rounds
from .actions import Load, Reload
from .components import COLOUR_NAMES

if TYPE_CHECKING:
    from .state import Tf22State


def decide_load(st: Tf22State, seat: int, action: Action, events: list[Event]) -> None:
    """Carry out the winner's load decision, then go on to the next battle."""
    ship = st.ships[seat]
    if isinstance(action, Load):
        ship[action.slot].append(st.activated)
        events.append(Event("load", {"seat": seat, "slot": action.slot, "colour": COLOUR_NAMES[st.activated]}))
        st.activated = -1
    else:
        if isinstance(action, Reload):
            move_container(st, seat, action.from_slot, action.to_slot, "reload", events)
        return_activated(st, events)
    st.winner = -1
    rounds.next_battle(st, events)


def return_activated(st: Tf22State, events: list[Event]) -> None:
    """The activated container, if any, goes back to the stock."""
    if st.activated >= 0:
        st.stock[st.activated] += 1
        events.append(Event("container_returned", {"colour": COLOUR_NAMES[st.activated]}))
        st.activated = -1


def move_container(st: Tf22State, seat: int, from_slot: int, to_slot: int, kind: str, events: list[Event]) -> None:
    """Move the top container of one stack of ``seat``'s ship onto another (a reload, or R's), told as
    a ``kind`` event."""
    ship = st.ships[seat]
    colour = ship[from_slot].pop()
    ship[to_slot].append(colour)
    moved = {"seat": seat, "from_slot": from_slot, "to_slot": to_slot, "colour": COLOUR_NAMES[colour]}
    events.append(Event(kind, moved))
