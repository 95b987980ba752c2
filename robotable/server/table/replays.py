"""Replays and records of finished tables (:class:`Replays`), and :func:`replay_json` for any record."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from robotable import games
from robotable.core import RobotableError
from robotable.core.record import Record, replay, replay_views

from ..accounts import Account
from ..clocks import Clocks
from ..errors import ApiError, Conflict, Forbidden, Unauthorized
from ..messages import TableSummary
from .live import POSITION_KEY, LiveTable
from .seats import check_seat, seats_of

#: Replays of uploaded records are refused beyond this many moves.
MAX_REPLAY_MOVES = 20_000


class Replays:
    """What a finished table's players and spectators may read of it afterwards."""

    def __init__(
        self,
        get: Callable[[str], Awaitable[LiveTable]],
        clocks: Clocks,
        summary: Callable[[LiveTable], TableSummary],
    ) -> None:
        self.get = get
        self.clocks = clocks
        self.summary = summary

    async def replay_table(self, table_id: str, seat: int | None, account: Account | None) -> dict[str, Any]:
        """Every step of a finished table as ``seat`` saw it (a spectator without a seat)."""
        live = await self.get(table_id)
        if seat is not None:
            check_seat(live, seat, account)
        if not live.state.is_over():
            raise Conflict("replays are for finished tables; watch a running table live instead")
        check_replayable(live)
        return {"table": self.summary(live), **replay_json(live.record(), seat)}

    async def record(self, table_id: str, account: Account | None) -> dict[str, Any]:
        """The full record of a finished table, for one of its players."""
        live = await self.get(table_id)
        if account is None:
            raise Unauthorized("sign in: the record is for the table's players")
        if not seats_of(live, account):
            raise Forbidden("the record holds every secret: it is for the table's players only")
        if not live.state.is_over():
            raise Conflict("the record holds every secret: it is available when the game is over")
        check_replayable(live)
        record = live.record()
        record.meta["seat_notes"] = self.clocks.of(live).notes  # time-outs and hand-overs
        return record.to_json()


def check_replayable(live: LiveTable) -> None:
    """Tables started from a written position have no (game, seed, moves) record to replay."""
    if POSITION_KEY in live.row.options:
        raise Conflict("this table started from a written position (a test server feature): it has no record")


def replay_json(record: Record, seat: int | None) -> dict[str, Any]:
    """A record's steps as ``seat`` saw them: views and visible events, with the result."""
    if len(record.moves) > MAX_REPLAY_MOVES:
        raise ApiError(f"record: {len(record.moves)} moves is more than the {MAX_REPLAY_MOVES} a replay takes")
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < record.num_players):
        raise ApiError(
            f"seat must be an index 0 to {record.num_players - 1} (seats 1 to {record.num_players}) for this record"
        )
    try:
        game = games.load(record.game)
        steps = list(replay_views(record, seat))
        final = replay(record)
    except RobotableError as exc:
        raise ApiError(str(exc)) from None
    return {
        "game": record.game,
        "game_name": game.name,
        "num_players": record.num_players,
        "seat": seat,
        "steps": steps,
        "result": final.result().to_json() if final.is_over() else None,
    }
