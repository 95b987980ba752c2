"""Previews of a candidate action (:func:`preview`), run by the game's preview hook on the current state."""

from __future__ import annotations

import asyncio
from typing import Any

from robotable.core import RobotableError

from ..accounts import Account
from ..errors import ApiError, Conflict, from_game_error
from ..previews import preview_hook, preview_json
from .live import LiveTable
from .seats import check_seat


async def preview(live: LiveTable, seat: int, account: Account | None, action_json: object) -> dict[str, Any]:
    """What a candidate action of ``seat`` would do, run by the game's preview hook on a copy.

    Only the seat to act may ask (its own account); the table does not change. Games without a
    preview hook are refused (400); an illegal or malformed action is refused like a move.
    """
    row = check_seat(live, seat, account)
    hook = preview_hook(live.game)
    if hook is None:
        raise ApiError(f"{live.game.name} has no previews")
    if row.handed_to_bot:
        raise Conflict(
            f"seat {seat + 1} is played by a bot now; take it back first",
            code="app:errors.seat_with_bot",
            params={"seat": seat + 1},
        )
    try:
        action = live.game.action_from_json(action_json)
    except RobotableError as exc:
        raise from_game_error(exc) from None
    state, moves = live.state, len(live.moves)  # states are replaced, never changed in place
    try:
        state.check(seat, action)
        data = await asyncio.to_thread(preview_json, hook, state, seat, action)
    except RobotableError as exc:
        raise from_game_error(exc) from None
    return {"moves": moves, "preview": data}
