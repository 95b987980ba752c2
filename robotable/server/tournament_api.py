"""Tournaments for people: the pages, the endpoints, and the runner that plays the rounds.

The rules and the storage are in ``tournaments.py``; this module adds what needs the live tables: making
a round's game tables (rated, every seat bound to its entrant's account or a bot, the tournament's time
control, clocks started as at any table), counting a table when it is over, and the forfeits of seats
whose clock ran out (``timers.py`` fires the time-out; a forfeited seat is handed to a bot through the
table's seat changes, or the table ends when one seat is left). The runner looks at every running
tournament each clock tick (``ROBOTABLE_CLOCK_TICK``) in every server process; the database decides
which process does each step (tournaments.py), and a restarted server simply goes on from what is
stored. See docs/server.md, "Tournaments".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import FileResponse
from pydantic import Field
from sqlalchemy.exc import IntegrityError

from robotable import games

from . import bots, clocks, ratings, tournaments
from .accounts import Account
from .auth import CurrentAccount, OptionalAccount, RateLimits
from .errors import ApiError, Conflict
from .schemas import ErrorOut, Strict, TimeControlSpec
from .storage import SeatRow, TableRow, now
from .table import TableManager
from .table.live import LiveTable
from .table.live import new_id as new_table_id

log = logging.getLogger("robotable.server")

WEB = Path(__file__).resolve().parent.parent / "web"
router = APIRouter(tags=["tournaments"])
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 409, 422, 429)}
#: Seconds after its pairing a claimed table that does not exist is made by any process.
REMAKE_AFTER = 30.0
#: Tournaments one account may create, as a ``limits`` rate.
CREATE_RATE = "10 per hour"


class CreateTournament(Strict):
    """A new tournament (see docs/server.md, "Tournaments")."""

    name: Annotated[str, Field(min_length=1, max_length=60)]
    game: Annotated[str, Field(min_length=1, max_length=60)]
    table_size: int = Field(default=2, description="players per table, 2 (Swiss) to 6 (groups by standing)")
    rounds: int = Field(default=3, description="rounds to play, 1 to 20")
    time_control: TimeControlSpec | None = Field(default=None, description="default: the game's live clock")
    bots_allowed: bool = Field(default=False, description="the organiser may enter bots")
    max_entrants: int = Field(default=64, description="at most this many entrants (one table's worth to 256)")


class BotEntry(Strict):
    """A bot the organiser enters: its level (one of ``GET /api/difficulties``)."""

    difficulty: Annotated[str, Field(min_length=1, max_length=40)]


def _manager(request: Request) -> TableManager:
    return request.app.state.manager


def _runner(request: Request) -> Runner:
    return request.app.state.tournaments


def _limits(request: Request) -> RateLimits:
    return request.app.state.limits


# -- the runner ---------------------------------------------------------------------------------------


class Runner:
    """Plays the rounds of every running tournament: tables made, results counted, forfeits, next round."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.storage = manager.storage
        self.lock = asyncio.Lock()  # one pass at a time in this process (the database orders processes)

    async def run(self) -> None:
        """Every clock tick, until the server stops."""
        while not self.manager.closing:
            await asyncio.sleep(self.manager.clocks.settings.tick)
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the tournament runner failed; trying again at the next tick")

    async def tick(self) -> None:
        """One look at every running tournament."""
        async with self.lock:
            for t in await asyncio.to_thread(tournaments.running, self.storage):
                await self.advance(t)

    async def start(self, t: tournaments.Tournament) -> None:
        """The organiser's start: round 1 paired and its tables made."""
        async with self.lock:
            begun = await asyncio.to_thread(tournaments.begin_round, self.storage, t, True)
            if begun is None:
                raise Conflict("the tournament changed meanwhile: look again")
            await self.make_tables(begun[0])

    async def advance(self, t: tournaments.Tournament) -> None:
        """Make what tables are missing, count the tables that are over, and pair the next round when the
        whole round is."""
        await self.make_tables(t)
        tables = await asyncio.to_thread(tournaments.round_tables, self.storage, t)
        ids = [p.table_id for p in tables if p.table_id and p.outcome == tournaments.PLAYING]
        for table_id, seats in (await asyncio.to_thread(tournaments.timeouts, self.storage, ids)).items():
            for seat in sorted(seats):  # stored once over every process
                if await asyncio.to_thread(tournaments.add_forfeit, self.storage, t.id, table_id, seat):
                    log.info("tournament %s: seat %d of table %s forfeits", t.id, seat, table_id)
        lost = await asyncio.to_thread(tournaments.forfeits_of, self.storage, ids)
        states = await asyncio.to_thread(tournaments.table_states, self.storage, ids)
        for table_id, lost_seats in lost.items():  # what a forfeit does, until done (a retry changes nothing)
            if states.get(table_id, (None, None))[0] in ("open", "running"):
                await self.settle(table_id, set(lost_seats), t.control)
        states = await asyncio.to_thread(tournaments.table_states, self.storage, ids)
        playing = 0
        for p in tables:
            if p.outcome != tournaments.PLAYING:
                continue
            if p.table_id and p.table_id not in states:
                await self.remake(t, p)
            status, result = states.get(p.table_id or "", (None, None))
            forfeited = lost.get(p.table_id or "", [])
            if status == "finished" and result is not None:
                points = tournaments.table_points(result["ranks"], forfeited)
            elif status == "expired":  # ended by forfeits (or, turn-based, abandoned by everyone)
                points = tournaments.table_points([0] * len(p.entries), forfeited)
            else:
                playing += 1
                continue
            outcome = tournaments.FORFEIT if forfeited else tournaments.DONE
            await asyncio.to_thread(tournaments.record_result, self.storage, t.id, p.round, p.board, points, outcome)
        if playing or any(p.outcome == tournaments.PLAYING and not p.table_id for p in tables):
            return
        if t.round >= t.rounds:
            if await asyncio.to_thread(tournaments.finish, self.storage, t):
                log.info("tournament %s finished", t.id)
            return
        begun = await asyncio.to_thread(tournaments.begin_round, self.storage, t)
        if begun is not None:
            log.info("tournament %s: round %d paired", t.id, begun[1].round)
            await self.make_tables(begun[0])

    async def make_tables(self, t: tournaments.Tournament) -> None:
        """Make the game table of every paired table of the round that has none (claimed once)."""
        for board, entries in await asyncio.to_thread(tournaments.unmade_tables, self.storage, t.id, t.round):
            table_id = new_table_id()
            if await asyncio.to_thread(tournaments.claim_table, self.storage, t.id, t.round, board, table_id):
                await self.make_table(t, table_id, entries)

    async def remake(self, t: tournaments.Tournament, p: tournaments.Played) -> None:
        """A claimed table that was never made (its process stopped in between): made here, once the
        process that claimed it has clearly had the time to make it."""
        if p.table_id is None or p.created_at is None:
            return
        paired = p.created_at if p.created_at.tzinfo else p.created_at.replace(tzinfo=UTC)
        if (now() - paired).total_seconds() >= REMAKE_AFTER:
            log.warning("tournament %s: table %s was claimed but never made; making it", t.id, p.table_id)
            await self.make_table(t, p.table_id, p.entries)

    async def make_table(self, t: tournaments.Tournament, table_id: str, entries: tuple[str, ...]) -> None:
        """A rated table of the tournament's game: each seat its entrant's account, or a bot."""
        people = {p["entry"]: p for p in await asyncio.to_thread(tournaments.entrants_of, self.storage, t.id)}
        seats = []
        for i, entry in enumerate(entries):
            p = people[entry]
            if p["kind"] == "bot":
                seats.append(SeatRow(i, "bot", p["name"], p["difficulty"]))
            else:
                seats.append(SeatRow(i, "human", p["name"], account_id=p["account_id"]))
        game = games.load(t.game)
        state = game.start(len(entries), seed=None, options={})
        stamp = now()
        row = TableRow(
            table_id,
            game.id,
            len(entries),
            state.seed,
            dict(state.options),
            "running",
            0,
            None,
            None,
            None,
            stamp,
            stamp,
            seats,
            created_by=t.created_by,
            rated=True,
        )
        live = LiveTable(row, game, state, waiting=[state.to_act()])
        row.status, row.to_act = live.status(), state.to_act()
        try:
            live = await self.manager.creator.store(live, clocks.TimeControl.from_json(t.control))
        except IntegrityError:
            return  # made already (a process that claimed it, going on after a restart)
        self.manager.kick_bots(live)

    async def settle(self, table_id: str, lost: set[int], control: dict[str, Any]) -> None:
        """Forfeited seats at a table still being played: the table ends if at most one seat is left, else
        each forfeited seat is handed to a bot (compare-and-set on the seat: done once)."""
        try:
            live = await self.manager.get(table_id)
        except ApiError:
            return
        left = [s for s in range(live.row.num_players) if s not in lost]
        if len(left) <= 1:
            await self.end(live, lost, left)
            return
        level = bots.hand_over_level(control)
        for seat in sorted(lost):
            if live.is_bot(seat) or live.state.is_over():
                continue

            def change(row: SeatRow, seat: int = seat) -> SeatRow:
                if row.kind == "bot" or row.handed_to_bot:
                    raise Conflict(f"seat {seat + 1} is already played by a bot")  # another process did it
                return SeatRow(seat, row.kind, row.name, level, True, row.account_id)

            def note(seat: int = seat) -> None:
                self.manager.clocks.note(
                    live, seat, "handed_to_bot", f"forfeited the tournament table; a bot ({level})"
                )
                self.manager.clocks.sync(live)

            try:
                await self.manager.seats.change_seat(live, seat, change, full=True, after=note)
            except Conflict:
                continue
            self.manager.kick_bots(live)

    async def end(self, live: LiveTable, lost: set[int], left: list[int]) -> None:
        """Every seat forfeited but ``left``: the table ends, rated as ``left`` winning."""
        if not await asyncio.to_thread(tournaments.end_table, self.storage, live.id):
            return
        self.manager.live.pop(live.id, None)
        if live.bot_task is not None:
            live.bot_task.cancel()
        live.row.status = "expired"
        live.row.version += 1
        self.manager.clocks.forget(live.id)
        self.manager.push_table(live)
        ranks = [1 if s in lost else 0 for s in range(live.row.num_players)]
        try:
            await asyncio.to_thread(ratings.rate_table, self.storage, live.row, {"ranks": ranks, "winners": left})
        except Exception:  # the forfeit stands; the ratings are the server's own bookkeeping
            log.exception("table %s could not be rated", live.id)


def install(app: FastAPI) -> None:
    """Add the pages and endpoints, and run the tournaments' runner while the app runs."""
    app.include_router(router)
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[Any]:
        async with inner(app) as state:
            runner = app.state.tournaments = Runner(app.state.manager)
            task = asyncio.create_task(runner.run(), name="tournaments")
            try:
                yield state
            finally:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task

    app.router.lifespan_context = lifespan


# -- pages ----------------------------------------------------------------------------------------------


@router.get("/tournaments", include_in_schema=False)
def tournaments_page() -> FileResponse:
    return FileResponse(WEB / "tournament.html", headers={"Cache-Control": "no-cache"})


@router.get("/tournaments/{tournament_id}", include_in_schema=False)
def tournament_page(tournament_id: str) -> FileResponse:
    return FileResponse(WEB / "tournament.html", headers={"Cache-Control": "no-cache"})


# -- endpoints -----------------------------------------------------------------------------------------


def _page(request: Request, tournament_id: str, account: Account | None) -> dict[str, Any]:
    storage = _manager(request).storage
    return tournaments.page(storage, tournaments.get(storage, tournament_id), account)


@router.get("/api/tournaments", responses=ERRORS)
def list_tournaments(
    request: Request,
    status: Annotated[list[str] | None, Query(description="signup, running, finished (repeatable)")] = None,
) -> dict[str, Any]:
    """Tournaments, newest first (default: every status)."""
    statuses = status or [tournaments.SIGNUP, tournaments.RUNNING, tournaments.FINISHED]
    unknown = sorted(set(statuses) - {tournaments.SIGNUP, tournaments.RUNNING, tournaments.FINISHED})
    if unknown:
        raise ApiError(f"status must be signup, running or finished, not {', '.join(unknown)}")
    return {"tournaments": tournaments.listing(_manager(request).storage, statuses)}


@router.post("/api/tournaments", status_code=201, responses=ERRORS)
def create_tournament(request: Request, body: CreateTournament, account: CurrentAccount) -> dict[str, Any]:
    """A new tournament open for sign-up; you organise it (enter it yourself with ``.../entries``)."""
    name = body.name.strip()
    if not name or not name.isprintable():
        raise ApiError("name must be 1 to 60 printable characters", code="app:errors.tournament_name")
    tournaments.check_settings(body.game, body.table_size, body.rounds, body.max_entrants)
    control = clocks.choose(games.load(body.game).id, body.time_control)
    _limits(request).hit(CREATE_RATE, "tournament-create", account.id, what="new tournaments")
    t = tournaments.create(
        _manager(request).storage,
        account,
        name,
        body.game,
        body.table_size,
        body.rounds,
        control.to_json(),
        body.bots_allowed,
        body.max_entrants,
    )
    return _page(request, t.id, account)


@router.get("/api/tournaments/{tournament_id}", responses=ERRORS)
def get_tournament(request: Request, tournament_id: str, account: OptionalAccount) -> dict[str, Any]:
    """A tournament: settings, entrants, rounds with their tables and results, standings."""
    return _page(request, tournament_id, account)


@router.post("/api/tournaments/{tournament_id}/entries", responses=ERRORS)
def sign_up(request: Request, tournament_id: str, account: CurrentAccount) -> dict[str, Any]:
    """Enter the tournament (before it starts)."""
    tournaments.sign_up(_manager(request).storage, tournament_id, account)
    return _page(request, tournament_id, account)


@router.post("/api/tournaments/{tournament_id}/bots", responses=ERRORS)
def add_bot(request: Request, tournament_id: str, body: BotEntry, account: CurrentAccount) -> dict[str, Any]:
    """The organiser enters a bot (tournaments that allow bots, before the start)."""
    tournaments.add_bot(_manager(request).storage, tournament_id, account, body.difficulty)
    return _page(request, tournament_id, account)


@router.delete("/api/tournaments/{tournament_id}/entries/{entry}", responses=ERRORS)
def withdraw(request: Request, tournament_id: str, entry: str, account: CurrentAccount) -> dict[str, Any]:
    """Withdraw your entry (or, the organiser, a bot) before the start."""
    tournaments.withdraw(_manager(request).storage, tournament_id, account, entry)
    return _page(request, tournament_id, account)


@router.post("/api/tournaments/{tournament_id}/start", responses=ERRORS)
async def start(request: Request, tournament_id: str, account: CurrentAccount) -> dict[str, Any]:
    """Start the tournament (its organiser): round 1 is paired and its tables made."""
    storage = _manager(request).storage
    t = await asyncio.to_thread(tournaments.get, storage, tournament_id)
    await asyncio.to_thread(tournaments.check_start, storage, t, account)
    await _runner(request).start(t)
    return await asyncio.to_thread(_page, request, tournament_id, account)
