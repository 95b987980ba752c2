"""The table manager (:class:`TableManager`): the one front of the table code for the rest of the server.

It owns nothing but the wiring: each concern is a module of this package given only what it uses
(``registry`` the tables in memory, ``sync`` versions and news from other processes, ``presence``,
``create``, ``seats``, ``moves``, ``bot_turns``, ``undo``, ``views``, ``news``, ``lobby``, ``replays``,
``previews``), and the manager's methods pass calls on to them, so the HTTP and websocket handlers and
the bot workers see one object. See docs/architecture.md for the path of a move.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Awaitable, Iterable, Mapping, Sequence
from typing import Any, cast

from robotable.core import Game

from .. import clocks, session_end, timers
from ..accounts import Account
from ..collector import COLLECTIONS
from ..fanout import PRESENCE, Fanout, LocalFanout, News
from ..hub import Hub
from ..notices import NOTICE, Notices
from ..schemas import CreateTable
from ..storage import MoveRow, SeatRow, Storage, TableRow
from ..timings import Timings
from . import live as live_tables
from .bot_turns import BotTurns
from .create import Creator
from .live import LiveTable
from .lobby import Lobby
from .moves import Moves
from .news import Newsroom
from .presence import Presence
from .previews import preview
from .registry import Registry
from .replays import Replays
from .seats import Seats, check_seat, seats_of
from .sync import SWEEP_SECONDS, Sync
from .undo import Undo, can_undo, undo_plan
from .views import Views, log_entries

log = logging.getLogger("robotable.server")


class TableManager:
    """Every live table, the storage behind them, the websocket hub and the bot runners."""

    def __init__(
        self,
        storage: Storage,
        bot_delay: float = 0.6,
        allow_positions: bool = False,
        fanout: Fanout | None = None,
    ) -> None:
        self.storage = storage
        self.hub = Hub()
        self.clocks = clocks.Clocks(storage)
        self.timings: Timings = storage.timings
        self.fanout: Fanout = fanout or LocalFanout()
        self.fanout.time_with(self.timings)  # ``news_publish``, if it publishes anywhere
        self.timers: asyncio.Task[None] | None = None
        self._sessions: asyncio.Task[None] | None = None  # closes sockets whose session ended (session_end.py)
        self._probe: asyncio.Task[None] | None = None
        self._resuming: asyncio.Task[None] | None = None
        self._janitor: asyncio.Task[None] | None = None

        # the parts, each given what it uses; ``self.deliver``/``self.publish``/``self.kick_bots`` are
        # passed as bound methods because the parts that carry them out are made after their users
        self.sync = Sync({}, storage, self.clocks, self.hub, self.deliver)
        self.registry = Registry(
            storage, self.clocks, self.hub, self.sync.ensure_fresh, self.sync.busy, self.sync.forget
        )
        self.sync.live = self.live = self.registry.live
        self.presence = Presence(self.live, self.hub, self.fanout, self.clocks, self.deliver)
        self.views = Views(self.clocks, self.presence.connected)
        self.news = Newsroom(self.hub, self.fanout, self.views, self.sync.move_news)
        get = self.registry.get
        self.moves = Moves(
            get,
            storage,
            self.clocks,
            self.timings,
            self.sync.refresh_locked,
            self.sync.catch_up_after_race,
            self.publish,
            self.kick_bots,
        )
        self.bot_turns = BotTurns(get, self.sync.refresh_locked, self.moves.apply_locked, bot_delay)
        self.seats = Seats(
            get, storage, self.clocks, self.sync.refresh_locked, self.presence.connected, self.publish, self.kick_bots
        )
        self.undoing = Undo(
            get, storage, self.clocks, self.sync.refresh_locked, self.moves.sync_clocks, self.publish, self.kick_bots
        )
        self.creator = Creator(
            self.live, get, storage, self.clocks, self.sync.ensure_fresh, self.publish, self.kick_bots, allow_positions
        )
        self.lobby = Lobby(storage, self.live, get, self.views)
        self.replays = Replays(get, self.clocks, self.views.summary)
        self.cache = TableCache(self)
        self.notices = Notices(self.fanout)  # an account's friends sockets (friends_api.py)

    # -- settings shared with the parts --------------------------------------------------------------

    @property
    def closing(self) -> bool:
        """The server is stopping: no bot starts or goes on, no timer fires."""
        return self.bot_turns.closing

    @closing.setter
    def closing(self, value: bool) -> None:
        self.bot_turns.closing = value

    @property
    def bot_delay(self) -> float:
        """Seconds a bot waits before it moves."""
        return self.bot_turns.delay

    @bot_delay.setter
    def bot_delay(self, value: float) -> None:
        self.bot_turns.delay = value

    @property
    def bot_workers(self) -> Any:
        """Bot workers (``bot_api.QueuedBots``): bots' turns go to the queue. None: bots think here, in a thread."""
        return self.bot_turns.workers

    @bot_workers.setter
    def bot_workers(self, value: Any) -> None:
        self.bot_turns.workers = value

    @property
    def allow_positions(self) -> bool:
        """Test servers start tables from written positions and chosen seeds for several people."""
        return self.creator.allow_positions

    @allow_positions.setter
    def allow_positions(self, value: bool) -> None:
        self.creator.allow_positions = value

    # -- life cycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the fan-out and the cache's sweep; bot tables resume in the background.

        Nothing is replayed at start-up but the tables whose bots are to move (found from the stored
        ``to_act``); every other table is loaded when it is first used.
        """
        await self.fanout.start(self._receive, self._resync_all)
        self._janitor = asyncio.create_task(self._janitor_loop(), name="table-cache-janitor")
        self._resuming = asyncio.create_task(self._resume_bots())
        self.timers = asyncio.create_task(timers.run(self))
        self._sessions = asyncio.create_task(session_end.watch(self), name="session-watch")
        self._probe = asyncio.create_task(self.timings.probe_loop(), name="loop-lag-probe")

    async def _resume_bots(self) -> None:
        """Load the unfinished tables whose bots are to move and let them play."""
        for table_id, to_act, bot_seats in await asyncio.to_thread(self.storage.tables_with_bots):
            if self.closing:
                return
            if to_act is not None and not set(to_act) & set(bot_seats):
                continue  # a person is to act: the table loads when they come back
            try:
                live = await self.get(table_id)
            except Exception:
                log.exception("table %s cannot be resumed", table_id)
                continue
            self.kick_bots(live)

    async def stop(self) -> None:
        """Cancel the bot runners, the timers, the cache's sweep and the fan-out."""
        self.closing = True
        for task in (self.timers, self._resuming, self._probe, self._sessions):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        for live in list(self.live.values()):
            if live.bot_task is not None:
                live.bot_task.cancel()
                with contextlib.suppress(BaseException):
                    await live.bot_task
        if self._janitor is not None:
            self._janitor.cancel()
            with contextlib.suppress(BaseException):
                await self._janitor
        await self.sync.stop()
        self.presence.stop()
        await self.fanout.stop()

    async def _janitor_loop(self) -> None:
        """Every few seconds: sweep the versions, forget idle tables, repeat who is connected here."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sync.sweep()
                self.registry.evict_idle()
                self.presence.repeat()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table cache sweep failed; trying again")

    async def _receive(self, news: News) -> None:
        """News published by another process: deliver it to the sockets here."""
        if news.sent:  # published to received (one clock for processes of one machine)
            self.timings.add("news_delay", max(0.0, time.time() - news.sent))
        if news.kind == session_end.SESSIONS:  # sessions another process ended: close their sockets here
            session_end.apply_news(self.hub, news)
            session_end.apply_news(self.notices.hub, news)  # the friends sockets too
        elif news.kind == PRESENCE:
            self.presence.receive(news)
        elif news.kind == NOTICE:
            self.notices.receive(news)
        else:
            self.sync.receive(news)

    async def _resync_all(self) -> None:
        """After the fan-out (re)connected: news may have been missed, check every table with sockets."""
        self.sync.resync_all()
        self.presence.resync_all()

    def stats(self) -> dict[str, Any]:
        """Figures for operators and benchmarks."""
        return {
            "live_tables": len(self.live),
            "sockets": self.hub.count(),
            "catch_up_moves": self.sync.catch_ups,
            "catch_up_reads": self.sync.reads,
            "races_lost": self.sync.race_catch_ups,
            "fanout_connected": self.fanout.connected,
            "timings": self.timings.figures(),
            "move_connections": self.storage.append_connections(),
            "gc": {
                "thresholds": list(gc.get_threshold()),
                "collections": [g["collections"] for g in gc.get_stats()],
                "pauses": COLLECTIONS.figures(),
            },
        }

    # -- tables in memory -------------------------------------------------------------------------

    async def get(self, table_id: str, fresh: bool = True) -> LiveTable:
        """The live table, loaded on first use and checked against its stored version (``registry.py``)."""
        return await self.registry.get(table_id, fresh)

    def rebuild(self, row: TableRow) -> LiveTable:
        """A table replayed from its stored row."""
        return live_tables.rebuild(row)

    def apply_stored(self, live: LiveTable, move: MoveRow) -> None:
        """Apply a move another process stored (catching up by move number)."""
        live_tables.apply_stored(live, move)

    is_stale = staticmethod(live_tables.is_stale)

    # -- creating tables --------------------------------------------------------------------------

    async def create(self, req: CreateTable, account: Account) -> tuple[LiveTable, dict[int, str]]:
        """A new table made by ``account`` and an invite code for each person seat it does not play."""
        return await self.creator.create(req, account)

    async def again(self, table_id: str, account: Account) -> LiveTable:
        """Play again: a new table with the same seats and the same people, linked from this one."""
        return await self.creator.again(table_id, account)

    # -- who plays which seat ---------------------------------------------------------------------

    check_seat = staticmethod(check_seat)
    seats_of = staticmethod(seats_of)

    async def accept_invite(self, code: str, account: Account) -> LiveTable:
        """Bind the invited seat to ``account`` (one-time code)."""
        return await self.seats.accept_invite(code, account)

    async def new_invite(self, table_id: str, seat: int, account: Account) -> str:
        """A new invite code for a person seat nobody has taken yet (the table's creator only)."""
        return await self.seats.new_invite(table_id, seat, account)

    async def claim(self, table_id: str, seat: int, account: Account) -> None:
        """``account`` takes an open seat."""
        await self.seats.claim(table_id, seat, account)

    async def hand_to_bot(self, table_id: str, target: int, account: Account, difficulty: str | None) -> None:
        """Another player hands the seat of a player who has gone to a bot (zombie mode)."""
        await self.seats.hand_to_bot(table_id, target, account, difficulty)

    async def reclaim(self, table_id: str, seat: int, account: Account) -> None:
        """A player who came back takes their seat back from the bot."""
        await self.seats.reclaim(table_id, seat, account)

    # -- moves, bots, undo ------------------------------------------------------------------------

    async def submit(
        self, table_id: str, seat: int, account: Account | None, action_json: object, after: int | None = None
    ) -> dict[str, Any]:
        """A person's move (``moves.py``)."""
        return await self.moves.submit(table_id, seat, account, action_json, after)

    def bot_seats_to_move(self, live: LiveTable) -> list[tuple[int, str]]:
        """Bot seats that move now."""
        return self.bot_turns.seats_to_move(live)

    def bot_optional_seats(self, live: LiveTable) -> list[tuple[int, str]]:
        """Bots the game does not wait for that may act anyway."""
        return self.bot_turns.optional_seats(live)

    def reveal_window(self, live: LiveTable) -> float:
        """Seconds the bots wait before completing a simultaneous choice a person may still take back."""
        return self.bot_turns.reveal_window(live)

    def kick_bots(self, live: LiveTable) -> None:
        """Start the table's bot runner if bots are to move and none runs."""
        self.bot_turns.kick(live)

    async def apply_bot_moves(self, table_id: str, version: int, chosen: list[tuple[int, object]]) -> int:
        """Moves a bot worker chose at move ``version``, played like a person's; the move count."""
        return await self.bot_turns.apply_worker_moves(table_id, version, chosen)

    undo_plan = staticmethod(undo_plan)
    can_undo = staticmethod(can_undo)

    async def undo(self, table_id: str, seat: int, account: Account | None) -> dict[str, Any]:
        """Undo ``seat``'s last move and the bot moves after it."""
        return await self.undoing.undo(table_id, seat, account)

    # -- what clients see -------------------------------------------------------------------------

    def summary(self, live: LiveTable) -> dict[str, Any]:
        """The table's public summary (``TableOut``; declared as ``messages.TableSummary``)."""
        return cast("dict[str, Any]", self.views.summary(live))

    def summary_of_row(
        self, row: TableRow, game: Game, to_act: list[int], live: LiveTable | None = None
    ) -> dict[str, Any]:
        """The public summary of a stored table."""
        return cast("dict[str, Any]", self.views.summary_of_row(row, game, to_act, live))

    def message(
        self, live: LiveTable, seat: int | None, kind: str, since: int = 0, reason: str | None = None
    ) -> dict[str, Any]:
        """A ``snapshot`` or ``update`` for ``seat`` (declared in ``messages.py``)."""
        return cast("dict[str, Any]", self.views.message(live, seat, kind, since, reason))

    log_entries = staticmethod(log_entries)

    async def list_tables(
        self, statuses: Sequence[str] | None, limit: int = 200, before: str | None = None, game: str | None = None
    ) -> list[dict[str, Any]]:
        """Summaries for the lobby, a page at a time (``lobby.py``)."""
        return cast("list[dict[str, Any]]", await self.lobby.list_tables(statuses, limit, before, game))

    async def replay_table(self, table_id: str, seat: int | None, account: Account | None) -> dict[str, Any]:
        """Every step of a finished table as ``seat`` saw it."""
        return await self.replays.replay_table(table_id, seat, account)

    async def record(self, table_id: str, account: Account | None) -> dict[str, Any]:
        """The full record of a finished table, for one of its players."""
        return await self.replays.record(table_id, account)

    async def preview(self, table_id: str, seat: int, account: Account | None, action_json: object) -> dict[str, Any]:
        """What a candidate action of ``seat`` would do (``previews.py``)."""
        return await preview(await self.get(table_id), seat, account, action_json)

    # -- news -------------------------------------------------------------------------------------

    def publish(
        self, live: LiveTable, kind: str, message: Mapping[str, Any] | None = None, seats: Iterable[int] | None = None
    ) -> None:
        """Tell the sockets of every server process what just changed at ``live`` (``news.py``)."""
        self.news.publish(live, kind, message, seats)

    def deliver(
        self, live: LiveTable, kind: str, message: Mapping[str, Any] | None = None, seats: tuple[int, ...] | None = None
    ) -> None:
        """Deliver news to this process's sockets at ``live``."""
        self.news.deliver(live, kind, message, seats)

    def push_table(self, live: LiveTable, full: bool = False) -> None:
        """Tell every connection that the seats or links changed (a whole snapshot if legal moves did)."""
        self.publish(live, "seats" if full else "table")


class TableCache:
    """The cache side of the manager as the websocket handlers and operators use it (``manager.cache``)."""

    def __init__(self, manager: TableManager) -> None:
        self._manager = manager

    def evict_idle(self, idle: float | None = None) -> list[str]:
        """Forget tables nobody uses here (``registry.py``)."""
        return self._manager.registry.evict_idle(idle)

    def stats(self) -> dict[str, Any]:
        """Figures for operators and benchmarks."""
        return self._manager.stats()

    async def seat_presence(self, live: LiveTable, seat: int | None) -> None:
        """A seat's socket connected or left here: its clock's grace countdown."""
        await self._manager.presence.seat_presence(live, seat)

    def presence_changed(self, table_id: str) -> None:
        """A socket joined or left here: one summary and one presence notice soon."""
        self._manager.presence.presence_changed(table_id)

    def socket_left(self, table_id: str, seat: int | None, stop: Awaitable[None]) -> asyncio.Task[None]:
        """A socket closed here (see ``Presence.socket_left``)."""
        return self._manager.presence.socket_left(table_id, seat, stop)

    def connected(self, table_id: str) -> set[int]:
        """Seats with an open socket in any process."""
        return self._manager.presence.connected(table_id)


__all__ = ["LiveTable", "SeatRow", "TableCache", "TableManager"]
