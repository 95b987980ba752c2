"""The live tables of the server, one concern per module; :class:`TableManager` is their front.

The server never implements rules. It relays ``view(seat)`` and ``legal_actions(seat)``, and turns a
move into ``game.action_from_json`` + ``state.check`` + ``apply`` on a copy, stored in the database
before the copy replaces the table's state. Events reach each seat through ``visible_events``.
See docs/architecture.md for the modules and the path of a move.
"""

from __future__ import annotations

from .live import POSITION_KEY, LiveTable, Raced, no_such_seat, public_options, start_state
from .manager import TableManager
from .replays import replay_json

__all__ = [
    "POSITION_KEY",
    "LiveTable",
    "Raced",
    "TableManager",
    "no_such_seat",
    "public_options",
    "replay_json",
    "start_state",
]
