"""The end of a turn (the rulebook's "Playing the Game" and "Line Movement") and of the game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from robotable.core import Event

from . import line, trade
from .actions import EndTurn
from .components import ROBOTS_TO_END
from .phases import OVER

if TYPE_CHECKING:
    from .state import RotlState


def check_end_turn(s: RotlState, p: int, a: EndTurn) -> str | None:
    return None


def apply_end_turn(s: RotlState, p: int, a: EndTurn, events: list[Event]) -> None:
    """Open offers lapse, both lines move one space, then the game ends or the next turn starts."""
    trade.lapse_offers(s, events)
    line.move_lines(s, events)
    events.append(Event("line_advanced", {"turn": s.turn_number, "seat": s.turn}))
    if max(s.robots) >= ROBOTS_TO_END:
        game_over(s, f"a player sold {ROBOTS_TO_END} robots", events)
        return
    if not line.parts_on_line(s):
        game_over(s, "no robot parts left on the line", events)
        return
    s.turn = (s.turn + 1) % s.num_players
    s.turn_number += 1
    s.acquired = False
    s.junk_trades = 0
    s.torso_done = False
    events.append(Event("turn", {"seat": s.turn, "turn": s.turn_number}))
    line.fill_space_one(s, events)


def game_over(s: RotlState, reason: str, events: list[Event]) -> None:
    s.phase = OVER
    s.end_reason = reason
    s.offers = []
    events.append(Event("game_over", {"reason": reason, "result": s.result().to_json()}))
