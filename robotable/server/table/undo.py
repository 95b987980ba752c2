"""Undo: the policy (:func:`undo_plan`, :func:`can_undo`) and taking moves back (:class:`Undo`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from ..accounts import Account
from ..clocks import Clocks
from ..errors import ApiError, Conflict
from ..storage import StaleTable, Storage, TableRow
from .live import LiveTable, Raced, rebuild
from .seats import check_seat


def undo_plan(live: LiveTable, seat: int) -> int:
    """How many moves stay after ``seat`` undoes its last move; Conflict saying why not.

    The policy: never past a random event, never past revealed hidden information (the game's
    ``undo_barriers`` events), never past another person's move, and at a table with other people
    not once the turn has passed to one of them (simultaneous games: a secret choice stays undoable
    until the reveal, which is a barrier).
    """
    barriers = live.game.undo_barriers
    if barriers is None:
        raise Conflict(f"{live.game.name} does not support undo")
    if live.state.is_over():
        raise Conflict("the game is over", code="app:errors.game_over")
    people = {s.seat for s in live.row.seats if s.seat != seat and not live.is_bot(s.seat)}
    waiting = sorted(people & set(live.state.to_act()))
    if waiting and not live.game.simultaneous:  # the turn has passed on: another person is deciding
        raise Conflict(
            f"cannot undo: seat {waiting[0] + 1} is to play now",
            code="app:errors.undo_turn_passed",
            params={"seat": waiting[0] + 1},
        )
    i = len(live.moves) - 1
    while i >= 0 and not (live.moves[i].seat == seat and live.moves[i].actor == "human"):
        if live.moves[i].actor == "human":
            raise Conflict("cannot undo past another player's move", code="app:errors.undo_other_move")
        i -= 1
    if i < 0:
        raise Conflict(
            f"seat {seat + 1} has no move to undo", code="app:errors.undo_nothing", params={"seat": seat + 1}
        )
    for j in range(i, len(live.moves)):
        if live.random_moves[j]:
            raise Conflict("cannot undo past a random event", code="app:errors.undo_random")
        shown = sorted({e.type for e in live.events[j]} & barriers)
        if shown:
            raise Conflict(
                f"cannot undo past revealed information ({', '.join(shown)})",
                code="app:errors.undo_reveal",
                params={"detail": ", ".join(shown)},
            )
    return i


def can_undo(live: LiveTable, seat: int | None) -> bool:
    """Whether ``seat`` may undo now."""
    if seat is None or live.is_bot(seat):
        return False
    try:
        undo_plan(live, seat)
    except ApiError:
        return False
    return True


class Undo:
    """Takes a seat's last move back (and the bot moves after it), stored before anyone sees it."""

    def __init__(
        self,
        get: Callable[[str], Awaitable[LiveTable]],
        storage: Storage,
        clocks: Clocks,
        refresh_locked: Callable[[LiveTable], Awaitable[bool]],
        sync_clocks: Callable[[LiveTable], None],
        publish: Callable[[LiveTable, str], None],
        kick_bots: Callable[[LiveTable], None],
    ) -> None:
        self.get = get
        self.storage = storage
        self.clocks = clocks
        self.refresh_locked = refresh_locked
        self.sync_clocks = sync_clocks
        self.publish = publish
        self.kick_bots = kick_bots

    async def undo(self, table_id: str, seat: int, account: Account | None) -> dict[str, Any]:
        """Undo ``seat``'s last move and the bot moves after it: the record minus those moves."""
        live = await self.get(table_id)
        check_seat(live, seat, account)
        async with live.lock:
            keep = undo_plan(live, seat)
            undone = len(live.moves) - keep
            rebuilt_row = TableRow(**{**live.row.__dict__, "moves": live.moves[:keep], "seats": live.row.seats})
            rebuilt = rebuild(rebuilt_row)
            status = rebuilt.status()
            to_act = rebuilt.state.to_act()
            try:
                stamp = await asyncio.to_thread(
                    self.storage.truncate_moves, live.id, keep, len(live.moves), status, live.row.version, to_act
                )
            except StaleTable:
                await self.refresh_locked(live)
                raise Raced("the table changed meanwhile; look again and retry") from None
            live.state, live.events, live.random_moves = rebuilt.state, rebuilt.events, rebuilt.random_moves
            live.waiting = rebuilt.waiting
            del live.row.moves[keep:]
            live.row.num_moves, live.row.status, live.row.result, live.row.updated_at = keep, status, None, stamp
            live.row.version += 1
            live.row.history += 1
            live.row.to_act = to_act
            await asyncio.to_thread(self.sync_clocks, live)
            self.publish(live, "undo")
        self.kick_bots(live)
        return {"moves": keep, "undone": undone}
