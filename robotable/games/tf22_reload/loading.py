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
            colour = ship[action.from_slot].pop()
            ship[action.to_slot].append(colour)
            events.append(
                Event(
                    "reload",
                    {
                        "seat": seat,
                        "from_slot": action.from_slot,
                        "to_slot": action.to_slot,
                        "colour": COLOUR_NAMES[colour],
                    },
                )
            )
        return_activated(st, events)
    st.winner = -1
    rounds.next_battle(st, events)


def return_activated(st: Tf22State, events: list[Event]) -> None:
    """The activated container, if any, goes back to the stock."""
    if st.activated >= 0:
        st.stock[st.activated] += 1
        events.append(Event("container_returned", {"colour": COLOUR_NAMES[st.activated]}))
        st.activated = -1
