"""The table manager: live tables in memory, rebuilt from their stored records; moves, undo, seats, bots.

The server never implements rules. It relays ``view(seat)`` and ``legal_actions(seat)``, and turns a
move into ``game.action_from_json`` + ``state.check`` + ``apply`` on a copy, stored in the database
before the copy replaces the table's state. Events reach each seat through ``visible_events``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from robotable import games
from robotable.core import Action, BadInput, Event, Game, RobotableError, State, visible_events
from robotable.core.record import Record, replay, replay_views

from . import bots, clocks, invites, ratings, session_end, timers
from .accounts import Account
from .cache import TableCache
from .errors import ApiError, Conflict, Forbidden, NotFound, Unauthorized, from_game_error, quoted
from .fanout import MESSAGE_KINDS, LocalFanout, News, RedisFanout
from .hub import Hub
from .previews import preview_hook, preview_json
from .schemas import CreateTable, SeatSpec
from .storage import MoveRow, SeatRow, StaleTable, Storage, TableRow, now
from .timings import Timings

log = logging.getLogger("robotable.server")

#: Tables nobody watches are dropped from memory beyond this many live tables (idle ones go anyway).
MAX_LIVE_TABLES = 2000
#: Times a move or a seat change is tried again after another process changed the table meanwhile.
RETRIES = 3
#: Replays of uploaded records are refused beyond this many moves.
MAX_REPLAY_MOVES = 20_000
#: Where a table started from a written position keeps it, in its stored options (test servers only).
POSITION_KEY = "__position__"
#: The longest the bots wait before they reveal a simultaneous choice a person may still undo (seconds).
REVEAL_WINDOW = 2.5


class Raced(Conflict):
    """Another process changed the table between our read and our write (the write was refused)."""


def start_state(game: Game, num_players: int, seed: int, options: dict[str, Any]) -> State:
    """A table's first state: its written position if it has one, else a new game."""
    if POSITION_KEY in options:
        return game.state_from_json(options[POSITION_KEY])
    return game.start(num_players, seed=seed, options=options)


def public_options(options: dict[str, Any]) -> dict[str, Any]:
    """The game's options, without a written start position (which holds every secret)."""
    return {k: v for k, v in options.items() if k != POSITION_KEY}


@dataclass
class LiveTable:
    """A table in memory: its stored row, the game, the current state and the events of every move."""

    row: TableRow
    game: Game
    state: State
    events: list[list[Event]] = field(default_factory=list)
    random_moves: list[bool] = field(default_factory=list)  # the move drew from the state's RNG
    waiting: list[list[int]] = field(default_factory=list)  # to_act before any move, then after each
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    last_used: float = field(default_factory=time.monotonic)
    optional_at: int = -1  # the move at which bots last chose whether to act out of turn

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def moves(self) -> list[MoveRow]:
        return self.row.moves

    def seat(self, seat: int) -> SeatRow:
        return self.row.seats[seat]

    def is_bot(self, seat: int) -> bool:
        """Whether a bot plays ``seat`` now (a bot seat, or a human seat handed to a bot)."""
        s = self.row.seats[seat]
        return s.kind == "bot" or s.handed_to_bot

    def status(self) -> str:
        if self.state.is_over():
            return "finished"
        return "open" if any(s.kind == "open" for s in self.row.seats) else "running"

    def record(self) -> Record:
        return Record(
            self.row.game,
            self.row.num_players,
            self.row.seed,
            dict(self.row.options),
            [(m.seat, m.action) for m in self.moves],
            {"table": self.id, "seats": [s.name for s in self.row.seats]},
        )


def _rng_state(state: State) -> Any:
    rng = getattr(state, "rng", None)
    return getattr(rng, "state", None)


class TableManager:
    """Every live table, the storage behind them, the websocket hub and the bot runners."""

    def __init__(
        self,
        storage: Storage,
        bot_delay: float = 0.6,
        allow_positions: bool = False,
        fanout: LocalFanout | RedisFanout | None = None,
    ) -> None:
        self.storage = storage
        self.bot_delay = bot_delay
        self.allow_positions = allow_positions
        self.hub = Hub()
        self.clocks = clocks.Clocks(storage)
        self.timings: Timings = storage.timings
        self._probe: asyncio.Task[None] | None = None
        self.live: dict[str, LiveTable] = {}
        self.timers: asyncio.Task[None] | None = None
        self._sessions: asyncio.Task[None] | None = None  # closes sockets whose session ended (session_end.py)
        self._loading = asyncio.Lock()
        self.closing = False
        #: Bot workers (``bot_api.QueuedBots``): bots' turns go to the queue. None: bots think here, in a thread.
        self.bot_workers: Any = None
        self.fanout = fanout or LocalFanout()
        if isinstance(self.fanout, RedisFanout):
            self.fanout.timings = self.timings  # ``news_publish``
        self.cache = TableCache(self)
        self._resuming: asyncio.Task[None] | None = None

    # -- life cycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the fan-out and the cache's sweep; bot tables resume in the background.

        Nothing is replayed at start-up but the tables whose bots are to move (found from the stored
        ``to_act``); every other table is loaded when it is first used.
        """
        await self.fanout.start(self.cache.receive, self.cache.resync_all)
        self.cache.start()
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
        await self.cache.stop()
        await self.fanout.stop()

    async def get(self, table_id: str, fresh: bool = True) -> LiveTable:
        """The live table, loaded and replayed from storage on first use.

        With ``fresh`` (the default) a table already in memory is first checked against its stored
        version, and caught up if another process changed it. Moves skip that check: their write is a
        compare-and-set on the version, and a refused one catches up and tries again.
        """
        live = self.live.get(table_id)
        if live is not None:
            if fresh:
                if live.lock.locked():  # a change is being made here: answer once it is whole
                    async with live.lock:
                        pass
                await self.cache.ensure_fresh(live)
            live.last_used = time.monotonic()
            return live
        if not _plausible_id(table_id):  # not quoted back: only a plausible id is (below)
            raise NotFound(f"no table {quoted(table_id)}", code="app:errors.no_table", params={"table": "?"})
        async with self._loading:
            live = self.live.get(table_id)
            if live is None:
                live, clock = await asyncio.to_thread(self._load, table_id)
                if live is None:
                    raise NotFound(f"no table {table_id!r}", code="app:errors.no_table", params={"table": table_id})
                self.clocks.forget(table_id)  # the clocks as read with the table
                if clock is not None:
                    self.clocks.cache[table_id] = clock
                self._evict()
                self.live[table_id] = live
        live.last_used = time.monotonic()
        return live

    def _load(self, table_id: str) -> tuple[LiveTable | None, clocks.TableClock | None]:
        """Read and replay a table, and read its clocks (in a worker thread: never on the event loop)."""
        row = self.storage.load_table(table_id)
        return (None, None) if row is None else (self._rebuild(row), self.clocks.load(table_id))

    def _evict(self) -> None:
        """Keep memory bounded: beyond MAX_LIVE_TABLES, forget the tables nobody uses here."""
        if len(self.live) < MAX_LIVE_TABLES:
            return
        self.cache.evict_idle(idle=0)

    def rebuild(self, row: TableRow) -> LiveTable:
        """A table replayed from its stored row (the cache rebuilds with it after an undo elsewhere)."""
        return self._rebuild(row)

    def apply_stored(self, live: LiveTable, move: MoveRow) -> None:
        """Apply a move another process stored (catching up by move number)."""
        before = _rng_state(live.state)
        state = live.state.clone()
        events = state.apply(move.seat, live.game.action_from_json(move.action))
        live.state = state
        live.row.moves.append(move)
        live.events.append(events)
        live.random_moves.append(_rng_state(state) != before)
        live.waiting.append(state.to_act())

    def _rebuild(self, row: TableRow) -> LiveTable:
        game = games.load(row.game)
        state = start_state(game, row.num_players, row.seed, row.options)
        live = LiveTable(row, game, state, waiting=[state.to_act()])
        for move in row.moves:
            before = _rng_state(state)
            events = state.apply(move.seat, game.action_from_json(move.action))
            live.events.append(events)
            live.random_moves.append(_rng_state(state) != before)
            live.waiting.append(state.to_act())
        return live

    @staticmethod
    def is_stale(live: LiveTable, seat: int, after: int) -> bool:
        """Whether a move ``seat`` chose when the table was at move ``after`` no longer fits.

        It does not fit if the seat has moved since, or stopped being waited for at any point since
        (its decision was settled and a new one came up). Other seats' moves in a simultaneous choice
        leave it valid: they change nothing this seat was deciding on.
        """
        if after > len(live.moves):
            return True
        if any(m.seat == seat for m in live.moves[after:]):
            return True
        if seat not in live.state.to_act() and seat in live.state.optional_actors():
            return False  # a move made at any time (a trade offer): the rules check it as it stands
        return any(seat not in live.waiting[k] for k in range(after, len(live.moves) + 1))

    # -- creating tables --------------------------------------------------------------------------

    async def create(self, req: CreateTable, account: Account) -> tuple[LiveTable, dict[int, str]]:
        """A new table made by ``account``; returns it and an invite code for each person seat it does not play.

        The creator plays the first person seat; on a hotseat table (chosen here, never rated) it plays
        every person seat from one device, and there are no invites.
        """
        try:
            game = games.load(req.game)
            if req.position is not None:
                state = self._position_state(game, req)
            else:
                state = game.start(req.num_players, seed=req.seed, options=req.options)
        except RobotableError as exc:
            raise from_game_error(exc) from None
        specs = req.seats or [SeatSpec(kind="human")] + [
            SeatSpec(kind="bot", difficulty="random") for _ in range(req.num_players - 1)
        ]
        if len(specs) != req.num_players:
            raise ApiError(f"seats lists {len(specs)} seats but num_players is {req.num_players}")
        people = sum(spec.kind != "bot" for spec in specs)
        control = clocks.choose(game.id, req.time_control)
        if req.seed is not None and people > 1 and not self.allow_positions:
            # the seed fixes every shuffle: whoever chose it could work out the others' hidden cards
            raise Forbidden(
                "a chosen seed is only for a game of one person against bots (it fixes every shuffle, "
                "so the others' hidden cards could be worked out); test servers allow it"
            )
        seats = [self._new_seat(i, spec) for i, spec in enumerate(specs)]
        people_seats = [seat for seat in seats if seat.kind == "human"]
        for seat in people_seats if req.hotseat else people_seats[:1]:
            seat.account_id = account.id
        if people_seats and specs[people_seats[0].seat].name is None:
            people_seats[0].name = account.display_name
        stamp = now()
        row = TableRow(
            id=_new_id(),
            game=game.id,
            num_players=req.num_players,
            seed=state.seed,
            options=dict(state.options) if req.position is None else {**state.options, POSITION_KEY: state.to_json()},
            status="running",
            num_moves=0,
            result=None,
            next_table=None,
            parent=None,
            created_at=stamp,
            updated_at=stamp,
            seats=seats,
            created_by=account.id,
            hotseat=req.hotseat,
            # hotseat tables, chosen seeds, written positions and tables with hints are never rated
            rated=not req.hotseat and not req.hints and req.seed is None and req.position is None,
            hints=req.hints,
        )
        live = LiveTable(row, game, state, waiting=[state.to_act()])
        row.status, row.to_act = live.status(), state.to_act()
        await asyncio.to_thread(self.storage.create_table, row)
        await asyncio.to_thread(self._start_clocks, live, control, seats)
        codes = {
            seat.seat: await asyncio.to_thread(invites.create_invite, self.storage, row.id, seat.seat, account.id)
            for seat in people_seats
            if seat.account_id is None
        }
        self.live[row.id] = live
        self.kick_bots(live)
        return live, codes

    def _start_clocks(self, live: LiveTable, control: clocks.TimeControl, seats: list[SeatRow]) -> None:
        """Store a new table's clocks and start those of the seats it waits for (in a worker thread)."""
        self.clocks.create(live.id, control, seats)
        self.clocks.sync(live)

    def _position_state(self, game: Game, req: CreateTable) -> State:
        """The state of a table started from a written position (servers with ``allow_positions`` only)."""
        if not self.allow_positions:
            raise Forbidden("this server does not start tables from written positions (test servers only)")
        if req.options:
            raise ApiError("give either options or a position (the position holds its options)")
        if req.seed is not None:
            raise ApiError("give either a seed or a position (the position holds its random generator)")
        data = dict(req.position or {})
        if data.setdefault("num_players", req.num_players) != req.num_players:
            raise ApiError(f"the position is for {data['num_players']} players, not {req.num_players}")
        state = game.state_from_json(data)
        if state.is_over():
            raise ApiError("the position is a finished game")
        return state

    def _new_seat(self, i: int, spec: SeatSpec) -> SeatRow:
        if spec.kind == "bot":
            try:
                difficulty = bots.check_difficulty(spec.difficulty)
            except BadInput as exc:
                raise ApiError(f"seat {i + 1}: {exc}") from None
            return SeatRow(i, "bot", spec.name or f"Bot {i + 1}", difficulty)
        if spec.difficulty is not None:
            raise ApiError(f"seat {i + 1}: only bot seats take a difficulty")
        if spec.kind == "open":
            return SeatRow(i, "open", spec.name or f"Open seat {i + 1}")
        return SeatRow(i, "human", spec.name or f"Player {i + 1}")

    # -- who plays which seat ---------------------------------------------------------------------

    def check_seat(self, live: LiveTable, seat: int, account: Account | None) -> SeatRow:
        """The seat, if ``account`` plays it: 401 when signed out, 403 for anyone else's seat."""
        if not isinstance(seat, int) or not 0 <= seat < live.row.num_players:
            raise NotFound(no_such_seat(live, seat))
        if account is None:
            raise Unauthorized("sign in to play a seat (or continue as a guest)", code="app:errors.sign_in")
        row = live.seat(seat)
        if row.account_id != account.id:
            raise Forbidden(
                f"seat {seat + 1} is not yours: only the account that took it can see and play it",
                code="app:errors.not_your_seat",
                params={"seat": seat + 1},
            )
        return row

    @staticmethod
    def seats_of(live: LiveTable, account: Account | None) -> list[int]:
        """The seats ``account`` plays at this table."""
        if account is None:
            return []
        return [s.seat for s in live.row.seats if s.account_id == account.id]

    async def accept_invite(self, code: str, account: Account) -> LiveTable:
        """Bind the invited seat to ``account`` (one-time code); refused if it already plays at this table."""
        invite = invites.find_invite(self.storage, code)
        live = await self.get(invite.table_id)
        if live.state.is_over():
            raise Conflict("this table's game is over", code="app:errors.game_over")
        mine = self.seats_of(live, account)
        if mine:
            raise Conflict(
                f"you already play seat {mine[0] + 1} at this table: send this invite to the person it is for "
                "(one account plays one seat; hotseat tables are chosen when the table is made)",
                code="app:errors.already_playing",
                params={"seat": mine[0] + 1},
            )
        async with live.lock:
            # one transaction: the code used up, the seat bound (only if still unbound), a new version
            await asyncio.to_thread(invites.accept_invite, self.storage, code, account.id, account.display_name)
            await self.cache.refresh_locked(live)  # the stored seats, as every other process will read them
            await asyncio.to_thread(self._game_starts, live)
        self.publish(live, "seats")  # every page shows the new player's name at once (board and scores too)
        self.kick_bots(live)
        return live

    async def new_invite(self, table_id: str, seat: int, account: Account) -> str:
        """A new invite code for a person seat nobody has taken yet (the table's creator only)."""
        live = await self.get(table_id)
        if live.row.created_by != account.id:
            raise Forbidden("only the table's creator can invite players")
        if not 0 <= seat < live.row.num_players:
            raise NotFound(no_such_seat(live, seat))
        row = live.seat(seat)
        if row.kind != "human" or row.account_id is not None:
            raise Conflict(f"seat {seat + 1} is not waiting for an invited player")
        if live.state.is_over():
            raise Conflict("the game is over", code="app:errors.game_over")
        return await asyncio.to_thread(invites.create_invite, self.storage, live.id, seat, account.id)

    # -- moves ------------------------------------------------------------------------------------

    async def submit(
        self, table_id: str, seat: int, account: Account | None, action_json: object, after: int | None = None
    ) -> dict[str, Any]:
        """A person's move: their seat, then form, then the rules; refused moves change nothing.

        The copy in memory is not checked against the database first (no query before the move): the
        write is a compare-and-set on the table's version, and a refusal here (stale, out of turn, not
        your seat) first catches the copy up and looks again.
        """
        live = await self.get(table_id, fresh=False)
        try:
            action = live.game.action_from_json(action_json)
        except RobotableError as exc:
            raise from_game_error(exc) from None
        waited = time.perf_counter()
        raced = False
        async with live.lock:
            self.timings.add("move_lock", time.perf_counter() - waited)
            for attempt in range(RETRIES + 1):
                try:
                    if self.check_seat(live, seat, account).handed_to_bot:
                        raise Conflict(
                            f"seat {seat + 1} is played by a bot now; take it back first",
                            code="app:errors.seat_with_bot",
                            params={"seat": seat + 1},
                        )
                    if after is not None and self.is_stale(live, seat, after):
                        behind = after > len(live.moves) and attempt < RETRIES
                        if behind and await self.cache.refresh_locked(live):
                            continue  # this process was behind: look again
                        raise Conflict(
                            f"stale move: it was chosen at move {after}; the table is at move {len(live.moves)} "
                            "and your decision has changed since",
                            code="app:errors.stale_move",
                        )
                    events = await self._apply_locked(live, seat, action, "human")
                    break
                except Raced:
                    raced = True
                    if attempt == RETRIES:
                        raise
                except (Conflict, Forbidden):  # out of turn, illegal or not yours here: was this copy behind?
                    if attempt == RETRIES or not await self.cache.refresh_locked(live):
                        raise
        if raced:
            self.timings.add("raced_move", time.perf_counter() - waited)
        self.kick_bots(live)
        return {"moves": len(live.moves), "events": [e.to_json() for e in visible_events(events, seat)]}

    async def _apply_locked(self, live: LiveTable, seat: int, action: Action, actor: str) -> list[Event]:
        """Check, apply on a copy, store, then swap in; called with the table's lock held."""
        try:
            live.state.check(seat, action)
        except RobotableError as exc:
            raise from_game_error(exc) from None
        if live.row.status == "expired":
            raise Conflict(
                "this table has expired (see the expiry policy in docs/server.md)", code="app:errors.expired"
            )
        new_state = live.state.clone()
        before = _rng_state(new_state)
        events = new_state.apply_legal(seat, action)
        status = "finished" if new_state.is_over() else ("open" if live.status() == "open" else "running")
        result = new_state.result().to_json() if new_state.is_over() else None
        move = MoveRow(len(live.moves), seat, action.to_json(), actor)
        to_act = new_state.to_act()

        if live.id not in self.clocks.cache:  # read (or first stored) in a worker thread
            await asyncio.to_thread(self.clocks.of, live)
        at = now()
        clock_writes = self.clocks.plan_sync(live, self.clocks.owing(live, new_state, status), at)
        also = self.clocks.updates(live.id, clock_writes)
        started = time.perf_counter()
        try:  # the move and its clocks (started and stopped for the new position) in one transaction
            stamp = await self.storage.append_move_async(
                live.id, move, status, result, live.row.version, to_act, at, also, live.row.history, clocks.CLOCK_TABLES
            )
        except StaleTable as raced:
            lost = time.perf_counter()
            self.timings.add("move_write", lost - started)
            # another process changed it: catch up (from what the write saw, if it saw that), then retry
            await self.cache.catch_up_after_race(live, raced.changes)
            self.timings.add("race_catch_up", time.perf_counter() - lost)
            raise Raced("the table changed meanwhile; look again and retry") from None
        except BaseException:
            self.timings.add("move_write", time.perf_counter() - started)
            raise
        self.timings.add("move_write", time.perf_counter() - started)
        if result is not None:  # rated before anyone sees the result, so the result and ratings agree
            await self._rate(live, result)
        live.state = new_state
        live.row.moves.append(move)
        live.row.num_moves = len(live.moves)
        live.row.status, live.row.result, live.row.updated_at = status, result, stamp
        live.row.version += 1
        live.row.to_act = to_act
        live.events.append(events)
        live.random_moves.append(_rng_state(new_state) != before)
        live.waiting.append(to_act)
        self.clocks.take(live, clock_writes)
        self.publish(live, "move")
        return events

    def _sync_clocks(self, live: LiveTable) -> None:
        """``clocks.sync`` after a committed change (in a worker thread). A failure (a terminated database
        session) must not turn the committed move into an error nobody is told about: the clocks are read
        again and synced once more, and if that fails too it is logged and they are read on next use."""
        for attempt in (1, 2):
            try:
                self.clocks.sync(live)
                return
            except Exception:
                self.clocks.forget(live.id)  # memory may be ahead of what was stored: read them again
                if attempt == 2:
                    log.exception("table %s: clocks not synced after move %d", live.id, len(live.moves))

    async def _rate(self, live: LiveTable, result: dict[str, Any]) -> None:
        """Update the ratings after a rated table's last move (once; see ratings.py)."""
        if ratings.entries_of(live.row) is None:  # unrated: no trip to a worker thread
            return
        try:
            await asyncio.to_thread(ratings.rate_table, self.storage, live.row, result)
        except Exception:  # the move stands; the ratings are the server's own bookkeeping
            log.exception("table %s could not be rated", live.id)

    # -- bots -------------------------------------------------------------------------------------

    def bot_seats_to_move(self, live: LiveTable) -> list[tuple[int, str]]:
        """Bot seats that move now (see :func:`bots.seats_to_move`)."""
        return bots.seats_to_move(live.state, live.is_bot, lambda s: live.seat(s).difficulty)

    def bot_optional_seats(self, live: LiveTable) -> list[tuple[int, str]]:
        """Bots the game does not wait for that may act anyway (``State.optional_actors``: a trade
        offer made at any time), asked once after each move while a person is to act. They choose in this
        process even when bot workers take the bots' turns: ``Agent.choose_optional`` is cheap (no search)."""
        if live.state.is_over() or live.optional_at == len(live.moves):
            return []
        if all(live.is_bot(s) for s in live.state.to_act()):
            return []
        movers = [s for s in live.state.optional_actors() if live.is_bot(s)]
        return [(s, live.seat(s).difficulty or bots.FALLBACK) for s in movers]

    def _bot_movers(self, live: LiveTable) -> tuple[list[tuple[int, str]], bool]:
        """The bots to move now, and whether they only may (optional moves, see above)."""
        seats = self.bot_seats_to_move(live)
        return (seats, False) if seats else (self.bot_optional_seats(live), True)

    def reveal_window(self, live: LiveTable) -> float:
        """Seconds the bots wait before completing a simultaneous choice that a person may still take back.

        In a simultaneous game the bots choose after the people; their choice completes the step and
        reveals it. A person who chose may undo until then: this window (three bot delays, at most
        ``REVEAL_WINDOW`` seconds) makes that a real chance rather than a race against one bot delay.
        """
        if not live.game.simultaneous or not self.bot_delay:
            return 0.0
        people = [s.seat for s in live.row.seats if not live.is_bot(s.seat)]
        if any(self.can_undo(live, s) for s in people):
            return min(REVEAL_WINDOW, 3 * self.bot_delay)
        return 0.0

    async def _queue_bots(self, live: LiveTable) -> None:
        """Queue the bots' turn for the workers, after the reveal window if there is one."""
        while not self.closing and (window := self.reveal_window(live)):
            at, state = len(live.moves), live.state
            await asyncio.sleep(window)
            if len(live.moves) == at and live.state is state:
                break
            if not self.bot_seats_to_move(live):
                return  # undone meanwhile: the person's next move kicks the bots again
        await self.bot_workers.enqueue(live)

    def kick_bots(self, live: LiveTable) -> None:
        """Start the table's bot runner if bots are to move and none runs."""
        if self.closing or (live.bot_task is not None and not live.bot_task.done()):
            return
        if self.bot_seats_to_move(live):
            if self.bot_workers is not None:
                live.bot_task = asyncio.create_task(self._queue_bots(live))
            else:
                live.bot_task = asyncio.create_task(self._run_bots(live))
        elif self.bot_optional_seats(live):
            live.bot_task = asyncio.create_task(self._run_bots(live))

    async def apply_bot_moves(self, table_id: str, version: int, chosen: list[tuple[int, object]]) -> int:
        """Moves a bot worker chose at move ``version``: checked and played like a person's; the move count.

        Only seats whose bots are to move now are played; Conflict if the table moved on meanwhile.
        """
        live = await self.get(table_id)
        async with live.lock:
            if len(live.moves) < version:  # another process moved it on: catch up first
                await self.cache.refresh_locked(live)
            if len(live.moves) != version:
                raise Conflict(f"stale bot move: chosen at move {version}, the table is at move {len(live.moves)}")
            for seat, action_json in chosen:
                if seat not in dict(self.bot_seats_to_move(live)):
                    break
                try:
                    action = live.game.action_from_json(action_json)
                except RobotableError as exc:
                    raise from_game_error(exc) from None
                await self._apply_locked(live, seat, action, "bot")
        self.kick_bots(live)
        return len(live.moves)

    async def _run_bots(self, live: LiveTable) -> None:
        """Move bots until a person (or nobody) is to act; thinking runs in a worker thread.

        A failure (a database hiccup) is logged and tried again with backoff: it never stops the table.
        """
        failures = 0
        while not self.closing:
            try:
                await self._move_bots(live)
                return
            except asyncio.CancelledError:
                raise
            except Exception:
                failures += 1
                log.exception("the bots of table %s failed (attempt %d); trying again", live.id, failures)
                await asyncio.sleep(min(30.0, 0.25 * 2 ** (failures - 1)))
                live = await self.get(live.id)

    async def _move_bots(self, live: LiveTable) -> None:
        while not self.closing:
            seats, optional = self._bot_movers(live)
            if not seats:
                return
            if not optional and self.bot_workers is not None:
                await self._queue_bots(live)  # an optional move asked a bot something: the workers' turn
                return
            delay = self.bot_delay + (0.0 if optional else self.reveal_window(live))
            if delay:
                await asyncio.sleep(delay)
                seats, optional = self._bot_movers(live)  # an undo or a hand-over may have changed it
                if not seats:
                    return
            at = len(live.moves)
            state = live.state
            if optional:
                live.optional_at = at
            choose = bots.choose_optional_moves if optional else bots.choose_moves
            chosen = await asyncio.to_thread(choose, state, seats, live.row.seed, at)
            async with live.lock:
                if len(live.moves) != at or live.state is not state:
                    continue  # undo or a hand-over happened meanwhile: look again
                for seat, action in chosen:
                    if not live.is_bot(seat):
                        break
                    try:
                        await self._apply_locked(live, seat, action, "bot")
                    except Raced:
                        break  # another process moved the table on: look again

    # -- undo -------------------------------------------------------------------------------------

    def undo_plan(self, live: LiveTable, seat: int) -> int:
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

    def can_undo(self, live: LiveTable, seat: int | None) -> bool:
        """Whether ``seat`` may undo now."""
        if seat is None or live.is_bot(seat):
            return False
        try:
            self.undo_plan(live, seat)
        except ApiError:
            return False
        return True

    async def undo(self, table_id: str, seat: int, account: Account | None) -> dict[str, Any]:
        """Undo ``seat``'s last move and the bot moves after it: the record minus those moves."""
        live = await self.get(table_id)
        self.check_seat(live, seat, account)
        async with live.lock:
            keep = self.undo_plan(live, seat)
            undone = len(live.moves) - keep
            rebuilt_row = TableRow(**{**live.row.__dict__, "moves": live.moves[:keep], "seats": live.row.seats})
            rebuilt = self._rebuild(rebuilt_row)
            status = rebuilt.status()
            to_act = rebuilt.state.to_act()
            try:
                stamp = await asyncio.to_thread(
                    self.storage.truncate_moves, live.id, keep, len(live.moves), status, live.row.version, to_act
                )
            except StaleTable:
                await self.cache.refresh_locked(live)
                raise Raced("the table changed meanwhile; look again and retry") from None
            live.state, live.events, live.random_moves = rebuilt.state, rebuilt.events, rebuilt.random_moves
            live.waiting = rebuilt.waiting
            del live.row.moves[keep:]
            live.row.num_moves, live.row.status, live.row.result, live.row.updated_at = keep, status, None, stamp
            live.row.version += 1
            live.row.history += 1
            live.row.to_act = to_act
            await asyncio.to_thread(self._sync_clocks, live)
            self.publish(live, "undo")
        self.kick_bots(live)
        return {"moves": keep, "undone": undone}

    # -- seats ------------------------------------------------------------------------------------

    async def claim(self, table_id: str, seat: int, account: Account) -> None:
        """``account`` takes an open seat (one seat per account at a table that is not hotseat)."""
        live = await self.get(table_id, fresh=False)
        if not 0 <= seat < live.row.num_players:
            raise NotFound(no_such_seat(live, seat))

        def change(row: SeatRow) -> SeatRow:
            if row.kind != "open":
                raise Conflict(
                    f"seat {seat + 1} is not open", code="app:errors.seat_not_open", params={"seat": seat + 1}
                )
            if live.state.is_over():
                raise Conflict("the game is over", code="app:errors.game_over")
            mine = self.seats_of(live, account)
            if mine and not live.row.hotseat:
                raise Conflict(
                    f"you already play seat {mine[0] + 1} at this table",
                    code="app:errors.already_playing",
                    params={"seat": mine[0] + 1},
                )
            return SeatRow(seat, "human", account.display_name, account_id=account.id)

        def clocks_after() -> None:
            if self._game_starts(live):
                return
            self.clocks.presence(live, seat, self.cache.connected(live.id))  # away until their page connects
            self.clocks.sync(live)

        await self._change_seat(live, seat, change, full=True, after=clocks_after)
        self.kick_bots(live)

    async def hand_to_bot(self, table_id: str, target: int, account: Account, difficulty: str | None) -> None:
        """Another player hands the seat of a player who has gone to a bot (zombie mode)."""
        live = await self.get(table_id)
        if not 0 <= target < live.row.num_players:
            raise NotFound(no_such_seat(live, target))
        playing = [s for s in self.seats_of(live, account) if not live.seat(s).handed_to_bot]
        if not playing:
            raise Forbidden("only people playing at this table can hand a seat over")
        if live.seat(target).account_id != account.id:  # the clock policy, on the stored clocks
            async with live.lock:  # clocks change in worker threads with the lock held (moves, seats)
                connected = self.cache.connected(live.id)
                await asyncio.to_thread(self.clocks.check_hand_over, live, target, connected)
        try:
            spec = bots.check_difficulty(difficulty or bots.hand_over_level(self.clocks.of(live).control.to_json()))
        except BadInput as exc:
            raise ApiError(str(exc)) from None

        filled_open_seat = False  # the seat handed over was open: the table may be full now

        def change(row: SeatRow) -> SeatRow:
            nonlocal filled_open_seat
            if not any(live.seat(s).account_id == account.id and not live.seat(s).handed_to_bot for s in playing):
                raise Forbidden("only people playing at this table can hand a seat over")
            if row.account_id == account.id:
                raise Conflict("hand your own seat over by leaving; this is for a player who has gone")
            if row.kind == "bot" or row.handed_to_bot:
                raise Conflict(f"seat {target + 1} is already played by a bot")
            if row.kind == "open":  # nobody took it: it becomes a bot seat
                filled_open_seat = True
                return SeatRow(target, "bot", f"Bot {target + 1}", spec)
            filled_open_seat = False
            return SeatRow(target, row.kind, row.name, spec, True, row.account_id)

        def clocks_after() -> None:
            self.clocks.note(live, target, "handed_to_bot", f"handed to a bot ({spec}) by seat {playing[0] + 1}")
            if not (filled_open_seat and self._game_starts(live)):
                self.clocks.sync(live)

        await self._change_seat(live, target, change, full=True, after=clocks_after)
        self.kick_bots(live)

    async def reclaim(self, table_id: str, seat: int, account: Account) -> None:
        """A player who came back takes their seat back from the bot."""
        live = await self.get(table_id)

        def change(row: SeatRow) -> SeatRow:
            if row.account_id != account.id:
                raise Forbidden(
                    f"seat {seat + 1} is not yours: only the account that took it can see and play it",
                    code="app:errors.not_your_seat",
                    params={"seat": seat + 1},
                )
            if not row.handed_to_bot:
                raise Conflict(f"seat {seat + 1} is not played by a bot")
            return SeatRow(seat, row.kind, row.name, None, False, row.account_id)

        def clocks_after() -> None:
            self.clocks.reclaimed(live, seat)
            self.clocks.note(live, seat, "reclaimed", "taken back from the bot by its player")
            self.clocks.sync(live)

        await self._change_seat(live, seat, change, full=True, after=clocks_after)

    def _game_starts(self, live: LiveTable) -> bool:
        """After a seat nobody had taken was taken: start the clocks if it was the last one the table
        waited for (in a worker thread, with the table's lock held); True if it was. A table that waits
        for players runs no clock; when the last seat is taken every clock starts fresh (docs/server.md,
        "Clocks")."""
        if clocks.waiting_for_players(live.row.seats) or self.clocks.is_over(live):
            return False
        self.clocks.table_full(live, self.cache.connected(live.id))
        return True

    async def _change_seat(
        self,
        live: LiveTable,
        seat: int,
        change: Callable[[SeatRow], SeatRow],
        full: bool = False,
        after: Callable[[], None] | None = None,
    ) -> None:
        """Compare-and-set one seat on the database row, deciding on the stored seats.

        ``after`` runs in a worker thread once the change is stored (the clocks' bookkeeping).

        ``change`` gets the seat as stored and answers the new seat (or raises a refusal). If another
        process changed the table meanwhile, the table catches up and ``change`` decides again, so a
        claim through one process and a hand-over through another never overwrite each other.
        """
        async with live.lock:
            await self.cache.refresh_locked(live)
            for attempt in range(RETRIES + 1):
                before = live.seat(seat)
                changed = change(before)
                seats = [changed if s.seat == seat else s for s in live.row.seats]
                status = live.row.status
                if status == "open" and not any(s.kind == "open" for s in seats):
                    status = "running"
                try:
                    stamp = await asyncio.to_thread(
                        self.storage.change_seat, live.id, before, changed, live.row.version, status
                    )
                except StaleTable:
                    await self.cache.refresh_locked(live)
                    if attempt == RETRIES:
                        raise Raced("the seats changed meanwhile; look again and retry") from None
                    continue
                live.row.seats[seat] = changed
                live.row.status, live.row.updated_at = status, stamp
                live.row.version += 1
                break
            if after is not None:
                await asyncio.to_thread(after)
        self.publish(live, "seats" if full else "table")

    async def again(self, table_id: str, account: Account) -> LiveTable:
        """Play again: a new table with the same seats and the same people, linked from this one."""
        live = await self.get(table_id)
        if not self.seats_of(live, account):
            raise Forbidden("only the table's players can start the next game")
        if not live.state.is_over():
            raise Conflict("the game is not over yet")
        if live.row.next_table:
            return await self.get(live.row.next_table)
        options = public_options(live.row.options)
        req = CreateTable(game=live.row.game, num_players=live.row.num_players, options=options, seats=[])
        seats = []
        for s in live.row.seats:
            if s.kind == "bot":
                seats.append(SeatRow(s.seat, "bot", s.name, s.difficulty))
            elif s.kind == "human":
                seats.append(SeatRow(s.seat, "human", s.name, account_id=s.account_id))
            else:
                seats.append(SeatRow(s.seat, "open", s.name))
        new = await self._create_with_seats(
            req, seats, parent=live.id, like=live.row, control=self.clocks.of(live).control
        )
        await asyncio.to_thread(self.storage.link_next, live.id, new.id)
        await self.cache.ensure_fresh(live)  # ours, or whoever pressed first
        self.publish(live, "table")
        return await self.get(live.row.next_table or new.id)

    async def _create_with_seats(
        self, req: CreateTable, seats: list[SeatRow], parent: str, like: TableRow, control: clocks.TimeControl
    ) -> LiveTable:
        game = games.load(req.game)
        state = game.start(req.num_players, seed=None, options=req.options)
        stamp = now()
        row = TableRow(
            _new_id(),
            game.id,
            req.num_players,
            state.seed,
            dict(state.options),
            "running",
            0,
            None,
            None,
            parent,
            stamp,
            stamp,
            seats,
            created_by=like.created_by,
            hotseat=like.hotseat,
            rated=like.rated,
            hints=like.hints,
        )
        live = LiveTable(row, game, state, waiting=[state.to_act()])
        row.status, row.to_act = live.status(), state.to_act()
        await asyncio.to_thread(self.storage.create_table, row)
        await asyncio.to_thread(self._start_clocks, live, control, seats)
        self.live[row.id] = live
        self.kick_bots(live)
        return live

    # -- what clients see -------------------------------------------------------------------------

    def summary(self, live: LiveTable) -> dict[str, Any]:
        """The table's public summary (``TableOut``)."""
        return self.summary_of_row(live.row, live.game, live.state.to_act(), live)

    def summary_of_row(
        self, row: TableRow, game: Game, to_act: list[int], live: LiveTable | None = None
    ) -> dict[str, Any]:
        """The public summary of a stored table (no replay needed: ``to_act`` is stored too)."""
        connected = self.cache.connected(row.id)
        seats = []
        for s in row.seats:
            playing_bot = s.kind == "bot" or s.handed_to_bot
            seats.append(
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "difficulty": s.difficulty if playing_bot else None,
                    "agent": bots.effective_agent(s.difficulty) if playing_bot else None,
                    "level_rating": bots.level_rating(row.game, s.difficulty) if playing_bot else None,
                    "handed_to_bot": s.handed_to_bot,
                    "connected": s.seat in connected,
                    "account": s.account_id,
                }
            )
        return {
            "id": row.id,
            "game": row.game,
            "game_name": game.name,
            "num_players": row.num_players,
            "options": public_options(row.options),
            "status": row.status,
            "moves": row.num_moves,
            "to_act": to_act,
            "seats": seats,
            "result": row.result,
            "next_table": row.next_table,
            "undo_supported": game.undo_barriers is not None,
            "created_by": row.created_by,
            "hotseat": row.hotseat,
            "rated": row.rated,
            "hints": row.hints,
            "clock": self.clocks.view(live, connected) if live is not None else None,
            "created_at": row.created_at.isoformat(),
            "updated_at": row.updated_at.isoformat(),
        }

    def message(
        self, live: LiveTable, seat: int | None, kind: str, since: int = 0, reason: str | None = None
    ) -> dict[str, Any]:
        """A ``snapshot`` (whole log) or ``update`` (events of moves from ``since``) for ``seat``."""
        state = live.state
        to_act = state.to_act()
        plays = seat is not None and not live.is_bot(seat) and (seat in to_act or seat in state.optional_actors())
        entries = self.log_entries(live, seat, 0 if kind == "snapshot" else since)
        out: dict[str, Any] = {
            "type": kind,
            "table": self.summary(live),
            "seat": seat,
            "moves": len(live.moves),
            "view": state.view(seat),
            "to_act": to_act,
            "answering": state.answering(),  # seats of to_act only asked to answer (another seat's turn goes on)
            "legal": [a.to_json() for a in state.legal_actions(seat)] if plays and seat is not None else [],
            "can_undo": self.can_undo(live, seat),
            "result": state.result().to_json() if state.is_over() else None,
        }
        out["log" if kind == "snapshot" else "events"] = entries
        if reason:
            out["reason"] = reason
        return out

    @staticmethod
    def log_entries(live: LiveTable, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The events ``seat`` may see, from move ``since`` on, each tagged with its move number."""
        return [
            {"move": i + 1, **e.to_json()}
            for i in range(since, len(live.events))
            for e in visible_events(live.events[i], seat)
        ]

    def push_table(self, live: LiveTable, full: bool = False) -> None:
        """Tell every connection that the seats or links changed (a whole snapshot if legal moves did)."""
        self.publish(live, "seats" if full else "table")

    # -- news to every process ----------------------------------------------------------------------

    def publish(
        self,
        live: LiveTable,
        kind: str,
        message: dict[str, Any] | None = None,
        seats: Iterable[int] | None = None,
    ) -> None:
        """Tell the sockets of every server process what just changed at ``live``: THE publishing call.

        Call it after the transaction that made the change committed (and after ``live`` holds it):

        - ``"move"``: a move was appended (each socket gets an ``update`` with its seat's events);
        - ``"undo"``: moves were taken back (a ``snapshot`` with ``reason: "undo"``);
        - ``"seats"``: who plays a seat changed so that legal moves may differ (a ``snapshot``);
        - ``"table"``: the summary changed (a ``table`` message);
        - ``"chat"``, ``"clock"`` (or any kind with a ``message``): ``message`` goes to every socket of
          the table as it is, or only to those playing ``seats``; it must be JSON-safe and hold nothing
          a spectator may not see unless ``seats`` limits it.

        This process delivers at once; the others get it through Redis (when configured) and read
        stored changes from the database by version, so nothing is trusted across processes. Stored
        changes must bump the table's version (every ``Storage`` write does). Never blocks, never fails.
        """
        chosen = tuple(seats) if seats is not None else None
        self.deliver(live, kind, message, chosen)
        move = self.cache.move_news(live) if kind == "move" and isinstance(self.fanout, RedisFanout) else None
        self.fanout.publish(News(live.id, kind, live.row.version, message, chosen, self.fanout.origin, move))

    def deliver(
        self, live: LiveTable, kind: str, message: dict[str, Any] | None = None, seats: tuple[int, ...] | None = None
    ) -> None:
        """Deliver news to this process's sockets at ``live`` (see :meth:`publish`)."""
        if not self.hub.tables.get(live.id):
            return
        if message is not None or kind in MESSAGE_KINDS:
            if message is not None:
                self.hub.broadcast_to(live.id, message, seats)
        elif kind == "move":
            since = len(live.events) - 1
            self.hub.broadcast(live.id, lambda s: self.message(live, s, "update", since=since))
        elif kind in ("undo", "seats"):
            self.hub.broadcast(live.id, lambda s: self.message(live, s, "snapshot", reason=kind))
        else:
            summary = self.summary(live)
            self.hub.broadcast(live.id, lambda s: {"type": "table", "table": summary})

    async def list_tables(
        self, statuses: Sequence[str] | None, limit: int = 200, before: str | None = None, game: str | None = None
    ) -> list[dict[str, Any]]:
        """Summaries for the lobby (only ``game``'s tables if given), a page at a time, read from the
        database without replaying (tables in memory here show their clocks too).

        ``before`` is the id of the last table of the previous page.
        """
        cursor = None
        if before is not None:
            if not _plausible_id(before):
                raise ApiError(f"before: no table {quoted(before)}")
            head = await asyncio.to_thread(self.storage.list_page_key, before)
            if head is None:
                raise ApiError(f"before: no table {quoted(before)}")
            cursor = head
        wanted = tuple(statuses) if statuses else None
        rows = await asyncio.to_thread(self.storage.list_rows, wanted, limit, cursor, game)
        out = []
        for row in rows:
            try:
                live = self.live.get(row.id)
                if live is not None and live.row.version == row.version:
                    out.append(self.summary(live))
                    continue
                over = row.status in ("finished", "expired")
                if row.to_act is None and not over:  # stored before to_act was
                    out.append(self.summary(await self.get(row.id)))
                    continue
                to_act = [] if over else list(row.to_act or [])
                out.append(self.summary_of_row(row, games.load(row.game), to_act))
            except Exception:
                log.exception("table %s cannot be listed", row.id)
        return out

    # -- replays ----------------------------------------------------------------------------------

    async def replay_table(self, table_id: str, seat: int | None, account: Account | None) -> dict[str, Any]:
        """Every step of a finished table as ``seat`` saw it (a spectator without a seat)."""
        live = await self.get(table_id)
        if seat is not None:
            self.check_seat(live, seat, account)
        if not live.state.is_over():
            raise Conflict("replays are for finished tables; watch a running table live instead")
        self._check_replayable(live)
        return {"table": self.summary(live), **replay_json(live.record(), seat)}

    async def record(self, table_id: str, account: Account | None) -> dict[str, Any]:
        """The full record of a finished table, for one of its players."""
        live = await self.get(table_id)
        if account is None:
            raise Unauthorized("sign in: the record is for the table's players")
        if not self.seats_of(live, account):
            raise Forbidden("the record holds every secret: it is for the table's players only")
        if not live.state.is_over():
            raise Conflict("the record holds every secret: it is available when the game is over")
        self._check_replayable(live)
        record = live.record()
        record.meta["seat_notes"] = self.clocks.of(live).notes  # time-outs and hand-overs
        return record.to_json()

    @staticmethod
    def _check_replayable(live: LiveTable) -> None:
        """Tables started from a written position have no (game, seed, moves) record to replay."""
        if POSITION_KEY in live.row.options:
            raise Conflict("this table started from a written position (a test server feature): it has no record")

    # -- previews ---------------------------------------------------------------------------------

    async def preview(self, table_id: str, seat: int, account: Account | None, action_json: object) -> dict[str, Any]:
        """What a candidate action of ``seat`` would do, run by the game's preview hook on a copy.

        Only the seat to act may ask (its own account); the table does not change. Games without a
        preview hook are refused (400); an illegal or malformed action is refused like a move.
        """
        live = await self.get(table_id)
        row = self.check_seat(live, seat, account)
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


def no_such_seat(live: LiveTable, seat: object) -> str:
    """The message for a seat index the table does not have (seats are named from 1, indexes from 0)."""
    n = live.row.num_players
    if isinstance(seat, int) and not isinstance(seat, bool):
        return f"table {live.id} has seats 1 to {n} (indexes 0 to {n - 1}), not index {seat} (seat {seat + 1})"
    return f"table {live.id} has seats 1 to {n} (indexes 0 to {n - 1})"


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


def _new_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def _plausible_id(table_id: str) -> bool:
    return 0 < len(table_id) <= 24 and table_id.isascii() and table_id.replace("-", "").replace("_", "").isalnum()
