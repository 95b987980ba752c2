"""What clients see of a table (:class:`Views`): its public summary and each seat's snapshot or update."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from robotable.core import Game, visible_events

from .. import bots
from ..clocks import Clocks
from ..messages import SeatSummary, SnapshotMessage, TableSummary, UpdateMessage
from ..storage import TableRow
from .live import LiveTable, public_options
from .undo import can_undo


def log_entries(live: LiveTable, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
    """The events ``seat`` may see, from move ``since`` on, each tagged with its move number."""
    return [
        {"move": i + 1, **e.to_json()}
        for i in range(since, len(live.events))
        for e in visible_events(live.events[i], seat)
    ]


class Views:
    """Summaries and messages; ``connected`` says which seats have a socket in any process."""

    def __init__(self, clocks: Clocks, connected: Callable[[str], set[int]]) -> None:
        self.clocks = clocks
        self.connected = connected

    def summary(self, live: LiveTable) -> TableSummary:
        """The table's public summary (``TableOut``)."""
        return self.summary_of_row(live.row, live.game, live.state.to_act(), live)

    def summary_of_row(
        self, row: TableRow, game: Game, to_act: list[int], live: LiveTable | None = None
    ) -> TableSummary:
        """The public summary of a stored table (no replay needed: ``to_act`` is stored too)."""
        connected = self.connected(row.id)
        seats: list[SeatSummary] = []
        for s in row.seats:
            playing_bot = s.kind == "bot" or s.handed_to_bot
            seats.append(
                SeatSummary(
                    seat=s.seat,
                    kind=cast(Any, s.kind),
                    name=s.name,
                    difficulty=s.difficulty if playing_bot else None,
                    agent=bots.effective_agent(s.difficulty) if playing_bot else None,
                    level_rating=bots.level_rating(row.game, s.difficulty) if playing_bot else None,
                    handed_to_bot=s.handed_to_bot,
                    connected=s.seat in connected,
                    account=s.account_id,
                )
            )
        return TableSummary(
            id=row.id,
            game=row.game,
            game_name=game.name,
            num_players=row.num_players,
            options=public_options(row.options),
            status=cast(Any, row.status),
            moves=row.num_moves,
            to_act=to_act,
            seats=seats,
            result=row.result,
            next_table=row.next_table,
            undo_supported=game.undo_barriers is not None,
            created_by=row.created_by,
            hotseat=row.hotseat,
            rated=row.rated,
            hints=row.hints,
            min_reputation=row.min_reputation,
            clock=self.clocks.view(live, connected) if live is not None else None,
            created_at=row.created_at.isoformat(),
            updated_at=row.updated_at.isoformat(),
        )

    def message(
        self, live: LiveTable, seat: int | None, kind: str, since: int = 0, reason: str | None = None
    ) -> SnapshotMessage | UpdateMessage:
        """A ``snapshot`` (whole log) or ``update`` (events of moves from ``since``) for ``seat``."""
        state = live.state
        to_act = state.to_act()
        plays = seat is not None and not live.is_bot(seat) and (seat in to_act or seat in state.optional_actors())
        entries = log_entries(live, seat, 0 if kind == "snapshot" else since)
        table = self.summary(live)
        view = state.view(seat)
        answering = state.answering()  # seats of to_act only asked to answer (another seat's turn goes on)
        legal = [a.to_json() for a in state.legal_actions(seat)] if plays and seat is not None else []
        undo = can_undo(live, seat)
        result = state.result().to_json() if state.is_over() else None
        out: SnapshotMessage | UpdateMessage
        if kind == "snapshot":
            out = SnapshotMessage(
                type="snapshot",
                table=table,
                seat=seat,
                moves=len(live.moves),
                view=view,
                to_act=to_act,
                answering=answering,
                legal=legal,
                can_undo=undo,
                result=result,
                log=entries,
            )
        else:
            out = UpdateMessage(
                type="update",
                table=table,
                seat=seat,
                moves=len(live.moves),
                view=view,
                to_act=to_act,
                answering=answering,
                legal=legal,
                can_undo=undo,
                result=result,
                events=entries,
            )
        if reason:
            out["reason"] = reason
        return out
