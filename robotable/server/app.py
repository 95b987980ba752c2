"""The FastAPI app: pages, the JSON API, the table websocket. See docs/server.md.

``create_app(database)`` builds an app on a database URL (SQLite file by default, PostgreSQL by URL);
``run`` serves it with uvicorn.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from sqlalchemy.exc import DataError
from starlette.exceptions import HTTPException as StarletteHTTPException

import robotable
from robotable import games
from robotable.core import BadInput, Record, RobotableError

from . import (
    account_api,
    bot_api,
    bots,
    chat_api,
    exercise_api,
    friends_api,
    gamedata,
    hint_api,
    i18n_api,
    invite_api,
    leaderboard_api,
    mail,
    play_api,
    profile_api,
    review_api,
    session_end,
    tournament_api,
    tutorial_api,
)
from .accounts import Account
from .auth import CurrentAccount, OptionalAccount, RateLimits, websocket_auth
from .errors import INTERNAL, ApiError, CatchAll, Forbidden, TooManyRequests, Unauthorized, from_game_error, quoted
from .fanout import make_fanout
from .headers import HeadMiddleware, SecurityHeadersMiddleware
from .hub import Connection
from .invites import invite_path
from .limits import EdgeMiddleware, RateLimiter, parse_json, serve_counted
from .messages import AckMessage, ErrorMessage, PongMessage, ws_error
from .schemas import (
    WS_INCOMING,
    CreatedTable,
    CreateTable,
    ErrorOut,
    EvaluateRequest,
    HandToBot,
    MoveRequest,
    PreviewRequest,
    SeatRef,
    TableOut,
    UploadedReplay,
    WsMove,
    WsPing,
)
from .serving import redacted, serve
from .storage import DB_THREADS, Storage, database_url
from .table import TableManager, replay_json

log = logging.getLogger("robotable.server")

WEB = Path(__file__).resolve().parent.parent / "web"
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (400, 401, 403, 404, 409, 413, 422, 429)
}


def create_app(
    database: str | None = None,
    schema: str | None = None,
    bot_delay: float | None = None,
    allow_positions: bool | None = None,
    rate_limit_storage: str | None = None,
    bots_mode: str | None = None,
    self_url: str | None = None,
    redis: str | None = None,
    redis_prefix: str | None = None,
    mail_config: mail.MailConfig | None = None,
) -> FastAPI:
    """The app on ``database`` (a SQLAlchemy URL, a file path, or None for ``robotable.db``).

    ``schema`` puts the tables in a PostgreSQL schema; ``bot_delay`` is the pause before each bot move
    in seconds (default 0.6, or ``ROBOTABLE_BOT_DELAY``). ``allow_positions`` lets ``POST /api/tables``
    take a written start ``position`` (tests and puzzles; default off, or ``ROBOTABLE_ALLOW_POSITIONS=1``).
    ``rate_limit_storage`` is a ``limits`` storage URI for every rate limit (sign-in, accounts, chat, new
    tables, websockets opened; or ``ROBOTABLE_RATE_LIMIT_STORAGE``; default: the ``redis`` URL when there is
    one, so every process of a cluster shares the counts, else process memory).
    ``bots_mode`` is where bots think (``inline``, ``spawn``, ``external``, or ``ROBOTABLE_BOTS``; see
    bot_api.py), and ``self_url`` the address a spawned worker submits its moves to.
    ``redis`` (or ``ROBOTABLE_REDIS``) is a Redis URL for fan-out between server processes, with its keys
    under ``redis_prefix`` (or ``ROBOTABLE_REDIS_PREFIX``, default ``robotable:``); see fanout.py.
    ``mail_config`` is the SMTP server of e-mail when away (default: ``ROBOTABLE_SMTP_HOST`` and the
    like, else none: no e-mail; mail.py).
    """
    if bot_delay is None:
        bot_delay = float(os.environ.get("ROBOTABLE_BOT_DELAY", "0.6"))
    if allow_positions is None:
        allow_positions = os.environ.get("ROBOTABLE_ALLOW_POSITIONS", "") in ("1", "true", "yes")
    url = database_url(database or os.environ.get("ROBOTABLE_DATABASE"))
    mode = bot_api.mode_of(bots_mode)
    mail_config = mail_config or mail.MailConfig.of()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()  # blocking database calls: DB_THREADS threads (asyncio: cores + 4)
        loop.set_default_executor(ThreadPoolExecutor(max_workers=DB_THREADS, thread_name_prefix="robotable-db"))
        storage = await asyncio.to_thread(Storage, url, schema or os.environ.get("ROBOTABLE_DB_SCHEMA") or None)
        fanout = make_fanout(redis, redis_prefix)
        manager = TableManager(storage, bot_delay=bot_delay, allow_positions=allow_positions, fanout=fanout)
        app.state.manager = manager
        worker = await bot_api.install(app, manager, mode, url, storage.schema, self_url)
        await manager.start()
        mailer = mail.Mailer(storage, mail_config) if mail_config is not None else None
        if mailer is not None:
            mailer.start()
        app.state.mailer = mailer
        try:
            yield
        finally:
            if mailer is not None:
                await mailer.stop()
            await manager.stop()
            if worker is not None:
                await worker.stop()
            await storage.aclose()
            storage.close()

    app = FastAPI(
        title="Robotable",
        summary="Robot board games in the browser: lobby, tables, bots, replays.",
        version=robotable.__version__,
        lifespan=lifespan,
    )
    limit_uri = (
        rate_limit_storage
        or os.environ.get("ROBOTABLE_RATE_LIMIT_STORAGE")
        or redis
        or os.environ.get("ROBOTABLE_REDIS")
        or None
    )  # with Redis for the fan-out, every process counts the same clients together
    app.state.mail = mail_config
    app.state.limits = limits = RateLimits(limit_uri, redis_prefix or os.environ.get("ROBOTABLE_REDIS_PREFIX"))
    install_error_handlers(app)
    app.include_router(account_api.router)
    app.include_router(leaderboard_api.router)
    app.include_router(profile_api.router)
    app.include_router(play_api.router)
    app.include_router(bot_api.router)
    app.state.rates = rates = RateLimiter(storage=limits.storage, shared=limits.shared)
    app.add_middleware(EdgeMiddleware, rates=rates)  # innermost of the three: bounded, checked bodies
    app.add_middleware(CatchAll)  # no plain-text 500: a JSON answer, the details in the log
    app.add_middleware(HeadMiddleware)  # HEAD wherever GET works
    app.add_middleware(SecurityHeadersMiddleware)  # outermost: on every answer, errors included
    app.include_router(invite_api.router)
    app.include_router(chat_api.router)
    app.include_router(friends_api.router)
    app.include_router(mail.router)
    app.include_router(i18n_api.router)
    review_api.install(app)  # GET /api/tables/{id}/review, computed in a background process
    hint_api.install(app)  # POST /api/tables/{id}/hint, on unrated tables
    exercise_api.install(app)  # /api/exercises: find the better move, played
    tutorial_api.install(app)  # /api/tutorials and /tutorial/{game}: each game's lessons, no account
    tournament_api.install(app)  # /api/tournaments and /tournaments: tournaments for people, their runner
    add_pages(app)
    add_api(app)
    add_websocket(app)
    return app


def manager_of(request: Request | WebSocket) -> TableManager:
    """The app's table manager."""
    return request.app.state.manager


# -- errors ---------------------------------------------------------------------------------------


def install_error_handlers(app: FastAPI) -> None:
    """Every refusal is ``{"detail": "what was wrong", "code": "app:errors.*", "params": {}}`` with a 4xx status."""

    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, TooManyRequests) else None
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(BadInput)
    async def bad_input(_: Request, exc: BadInput) -> JSONResponse:
        return JSONResponse(from_game_error(exc).body(), status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        detail = describe_validation(exc.errors())
        body = {"detail": detail, "code": "app:errors.invalid_request", "params": {"detail": detail}}
        return JSONResponse(body, status_code=422)

    @app.exception_handler(DataError)
    async def data_error(request: Request, exc: DataError) -> JSONResponse:
        # a value the database refuses (the edge check keeps NUL and lone surrogates out; this is the
        # backstop, so no such value is ever a 500): a 400 that names no value
        log.warning("database refused a value on %s %s: %s", request.method, request.url.path, type(exc.orig).__name__)
        detail = "a value in the request cannot be stored (a character or a number the database refuses)"
        return JSONResponse({"detail": detail, "code": "app:errors.bad_request", "params": {"detail": detail}}, 400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        params = {"detail": str(exc.detail), "status": exc.status_code}
        return JSONResponse({"detail": str(exc.detail), "code": "app:errors.http", "params": params}, exc.status_code)


def describe_validation(errors: Any) -> str:
    """Pydantic errors as one readable line: ``body.num_players: Input should be ...``."""
    parts = []
    for err in errors:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body",)) or "request"
        msg = err.get("msg", "invalid")
        if err.get("type") == "json_invalid":
            msg = f"the body is not valid JSON ({err.get('ctx', {}).get('error', 'syntax error')})"
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts) or "invalid request"


# -- pages ----------------------------------------------------------------------------------------


def add_pages(app: FastAPI) -> None:
    """The lobby, table and replay pages, and the static client."""
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(WEB / name, headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/account", include_in_schema=False)
    def account_page() -> FileResponse:
        return page("account.html")

    @app.get("/replay", include_in_schema=False)
    def replay_upload_page() -> FileResponse:
        return page("replay.html")

    @app.get("/replay/{table_id}", include_in_schema=False)
    def replay_page(table_id: str) -> FileResponse:
        return page("replay.html")


# -- the JSON API -----------------------------------------------------------------------------------


SeatQuery = Annotated[int | None, Query(ge=0, description="watch as this seat (it must be yours)")]


def add_api(app: FastAPI) -> None:
    """The HTTP API (described by /openapi.json and /docs)."""
    add_table_api(app)
    add_play_api(app)
    add_seat_api(app)


def add_table_api(app: FastAPI) -> None:
    """Games, difficulties, table listings, creation and state."""

    @app.get("/api/games", tags=["games"])
    def list_games() -> list[dict[str, Any]]:
        """Every game: id, name, player counts and options."""
        return [games.load(g).describe() for g in games.available()]

    @app.get("/api/server", tags=["server"])
    def server_figures(request: Request) -> dict[str, Any]:
        """This process's figures for operators: tables in memory, sockets, moves of other processes
        applied here (``catch_up_moves``), how many of those catch-ups read the database, compare-and-sets
        lost to another process, whether the fan-out is connected, recent timings of moves, of their
        database writes and of the event loop (``timings``, see robotable/server/timings.py), and on
        PostgreSQL the pool of the moves' connections (``move_connections``)."""
        return request.app.state.manager.cache.stats()

    @app.get("/api/difficulties", tags=["games"])
    def list_difficulties() -> list[dict[str, Any]]:
        """Bot difficulties and the agent that plays each now (random until the others exist)."""
        return bots.difficulties()

    @app.get("/api/tables", tags=["tables"], response_model=list[TableOut])
    async def list_tables(
        request: Request,
        status: Annotated[list[str] | None, Query(description="open, running, finished, expired (repeatable)")] = None,
        game: Annotated[str | None, Query(max_length=60, description="only this game's tables")] = None,
        open_seats: Annotated[bool, Query(description="only tables with a seat anyone may take")] = False,
        mine: Annotated[bool, Query(description="only tables where the signed-in account has a seat")] = False,
        account: OptionalAccount = None,
        limit: Annotated[int, Query(ge=1, le=200, description="tables per page")] = 200,
        before: Annotated[str | None, Query(max_length=24, description="last table id of the previous page")] = None,
    ) -> list[dict[str, Any]]:
        """Tables, most recently active first (default: open and running), filtered (docs/server.md), a page
        at a time (``before``: the last table id of the previous page)."""
        allowed = ("open", "running", "finished", "expired")
        wanted = status or ["open", "running"]
        bad = [s for s in wanted if s not in allowed]
        if bad:
            raise ApiError(f"unknown status {quoted(bad[0])} (one of: {', '.join(allowed)})")
        if game is not None and game not in games.available():
            raise ApiError(f"unknown game {quoted(game)} (one of: {', '.join(games.available())})")
        tables = await manager_of(request).list_tables(wanted, limit, before, game=game)
        if open_seats:
            tables = [t for t in tables if any(s["kind"] == "open" for s in t["seats"])]
        if mine:
            if account is None:
                raise Unauthorized("sign in to list your own tables (mine=true)")
            tables = [t for t in tables if any(s["account"] == account.id for s in t["seats"])]
        return tables

    @app.post("/api/tables", tags=["tables"], status_code=201, response_model=CreatedTable, responses=ERRORS)
    async def create_table(request: Request, body: CreateTable, account: CurrentAccount) -> dict[str, Any]:
        """Create a table. You play its first person seat (every person seat of a hotseat table); the
        answer holds a one-time invite link for each other person seat (shown once)."""
        manager = manager_of(request)
        await bot_api.check_quotas(request, body, account)
        live, codes = await manager.create(body, account)
        await bot_api.register(request, live.id, body, account)
        return {"table": manager.summary(live), "invites": {seat: invite_path(code) for seat, code in codes.items()}}

    @app.get("/api/tables/{table_id}", tags=["tables"], response_model=TableOut, responses=ERRORS)
    async def get_table(request: Request, table_id: str) -> dict[str, Any]:
        """A table's public summary."""
        manager = manager_of(request)
        return manager.summary(await manager.get(table_id))

    @app.get("/api/tables/{table_id}/state", tags=["tables"], responses=ERRORS)
    async def get_state(request: Request, table_id: str, account: OptionalAccount, seat: SeatQuery = None) -> dict:
        """What one of your seats (or a spectator, without ``seat``) sees now: view, legal actions, log."""
        manager = manager_of(request)
        live = await manager.get(table_id)
        if seat is not None:
            manager.check_seat(live, seat, account)
        return manager.message(live, seat, "snapshot")


def add_play_api(app: FastAPI) -> None:
    """Moves, previews, evaluations and game data."""

    @app.post("/api/tables/{table_id}/moves", tags=["play"], responses=ERRORS)
    async def post_move(request: Request, table_id: str, body: MoveRequest, account: OptionalAccount) -> dict[str, Any]:
        """Play a move for one of your seats."""
        return await manager_of(request).submit(table_id, body.seat, account, body.action, body.after)

    @app.post("/api/tables/{table_id}/preview", tags=["play"], responses=ERRORS)
    async def post_preview(
        request: Request, table_id: str, body: PreviewRequest, account: OptionalAccount
    ) -> dict[str, Any]:
        """What a candidate action of the seat to act would do, computed on a copy (games with previews).

        Nothing changes at the table. The answer is ``{moves, preview}``; for Twin Tin Bots ``preview``
        holds each robot's path, the public events of the run, the first pending decision and whether the
        turn ran to its end.
        """
        return await manager_of(request).preview(table_id, body.seat, account, body.action)

    @app.post("/api/tables/{table_id}/evaluate", tags=["play"], responses=ERRORS)
    async def post_evaluate(
        request: Request, table_id: str, body: EvaluateRequest, account: OptionalAccount
    ) -> dict[str, Any]:
        """Ask the game a question about your own position, computed on a copy (games with evaluations).

        Nothing changes at the table. The answer is ``{moves, evaluation}``; for Robots on the Line the
        query is a workbench robot ``{layout, batteries, magnets, suggest}`` and the evaluation holds its
        problems, open ports, measures, and per buyer the requirements met, the sale value and whether
        the sale would be accepted now (see docs/games/robots-on-the-line.md).
        """
        return await gamedata.evaluate(manager_of(request), table_id, body.seat, account, body.query)

    @app.get("/api/games/{game_id}/data/{name}", tags=["games"], responses=ERRORS)
    def get_game_data(game_id: str, name: str) -> Any:
        """A game's public data file (the JSON files of its package's data folder, e.g. ``catalogue``)."""
        return gamedata.game_data(game_id, name)

    @app.get("/api/games/{game_id}/setup", tags=["games"], responses=ERRORS)
    def game_setup(
        game_id: str,
        num_players: Annotated[int, Query(ge=1, le=16)],
        options: Annotated[str, Query(max_length=4000, description="the options as JSON")] = "{}",
    ) -> dict[str, Any]:
        """What everyone sees at the start of a game with these options (a spectator's view, seed 0).

        The lobby draws it to place variant tokens on the map; bad options answer 400 naming the problem.
        """
        parsed = parse_json(options, "options")
        if not isinstance(parsed, dict):
            raise ApiError("options must be a JSON object")
        try:
            game = games.load(game_id)
            state = game.start(num_players, seed=0, options=parsed)
        except RobotableError as exc:
            raise from_game_error(exc) from None
        return {"game": game.id, "num_players": num_players, "options": state.options, "view": state.view(None)}


def add_seat_api(app: FastAPI) -> None:
    """Undo, seats, playing again, replays and records."""

    @app.post("/api/tables/{table_id}/undo", tags=["play"], responses=ERRORS)
    async def post_undo(request: Request, table_id: str, body: SeatRef, account: OptionalAccount) -> dict[str, Any]:
        """Undo your last move (see the undo policy in docs/server.md)."""
        return await manager_of(request).undo(table_id, body.seat, account)

    @app.post("/api/tables/{table_id}/seats/{seat}/claim", tags=["seats"], responses=ERRORS)
    async def claim_seat(request: Request, table_id: str, seat: int, account: CurrentAccount) -> dict[str, Any]:
        """Take an open seat: it becomes yours (one seat per account, except at hotseat tables)."""
        manager = manager_of(request)
        await manager.claim(table_id, seat, account)
        return {
            "seat": seat,
            "table": manager.summary(await manager.get(table_id)),
            "link": f"/table/{table_id}?seat={seat}",
        }

    @app.post("/api/tables/{table_id}/seats/{seat}/bot", tags=["seats"], responses=ERRORS)
    async def hand_to_bot(
        request: Request, table_id: str, seat: int, body: HandToBot, account: CurrentAccount
    ) -> dict[str, Any]:
        """Hand the seat of a player who has gone to a bot (you must play at the table)."""
        manager = manager_of(request)
        await manager.hand_to_bot(table_id, seat, account, body.difficulty)
        return manager.summary(await manager.get(table_id))

    @app.post("/api/tables/{table_id}/seats/{seat}/reclaim", tags=["seats"], responses=ERRORS)
    async def reclaim_seat(request: Request, table_id: str, seat: int, account: CurrentAccount) -> dict[str, Any]:
        """Take your seat back from the bot that played it while you were gone."""
        manager = manager_of(request)
        await manager.reclaim(table_id, seat, account)
        return manager.summary(await manager.get(table_id))

    @app.post("/api/tables/{table_id}/again", tags=["tables"], responses=ERRORS)
    async def play_again(request: Request, table_id: str, account: CurrentAccount) -> dict[str, Any]:
        """A new table with the same seats and the same people (for the table's players)."""
        manager = manager_of(request)
        new = await manager.again(table_id, account)
        return manager.summary(new)

    @app.get("/api/tables/{table_id}/replay", tags=["replays"], responses=ERRORS)
    async def table_replay(request: Request, table_id: str, account: OptionalAccount, seat: SeatQuery = None) -> dict:
        """Every step of a finished table, as a spectator or as one of your seats."""
        return await manager_of(request).replay_table(table_id, seat, account)

    @app.get("/api/tables/{table_id}/record", tags=["replays"], responses=ERRORS)
    async def table_record(request: Request, table_id: str, account: OptionalAccount) -> dict:
        """The full record (seed and moves) of a finished table, for its players."""
        return await manager_of(request).record(table_id, account)

    @app.post("/api/replays", tags=["replays"], responses=ERRORS)
    def upload_replay(body: UploadedReplay) -> dict[str, Any]:
        """Replay an uploaded record, as a spectator or as one of its seats."""
        return replay_json(Record.from_json(body.record), body.seat)


# -- the websocket ----------------------------------------------------------------------------------


def add_websocket(app: FastAPI) -> None:
    """``/ws/tables/{id}?seat=N``: snapshots and updates out, moves and undo in (the seat must be yours)."""

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        manager = manager_of(websocket)
        await serve_counted(websocket, lambda: serve_socket(manager, websocket, table_id))

    async def serve_socket(manager: TableManager, websocket: WebSocket, table_id: str) -> None:
        try:
            auth = await asyncio.to_thread(websocket_auth, websocket)
            account = auth.account if auth else None
            live = await manager.get(table_id)
            seat = parse_seat(websocket.query_params.get("seat"))
            if seat is not None:
                manager.check_seat(live, seat, account)
        except ApiError as exc:
            await websocket.send_json(ws_error(exc))
            await websocket.close(code=4000 + exc.status)
            return
        conn = Connection(
            websocket,
            table_id,
            seat,
            account=account.id if account else None,
            session=auth.session.id_hash if auth and auth.session else None,
            token=auth.token_hash if auth else None,
        )
        conn.start()
        manager.hub.add(conn)
        try:  # from here on the socket leaves the hub and its seat's presence whatever happens (a cancel)
            conn.send(manager.message(live, seat, "snapshot"))
            await manager.cache.seat_presence(live, seat)  # its clock's grace countdown, off the event loop
            if seat is not None:
                manager.cache.presence_changed(table_id)
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    conn.send(ws_error(ApiError("send JSON text, not binary"), None))
                    continue
                reply = await handle_ws_message(manager, table_id, seat, account, text, conn)
                if conn.closed:
                    break  # its session ended: nothing more goes out, nothing more comes in
                if reply is not None:
                    conn.send(reply)
        except WebSocketDisconnect:
            pass
        finally:
            manager.hub.remove(conn)
            await asyncio.shield(manager.cache.socket_left(table_id, seat, conn.stop()))  # grace starts


def parse_seat(value: str | None) -> int | None:
    """The ``seat`` query parameter."""
    if value in (None, ""):
        return None
    try:
        return int(value)
    except ValueError:
        raise ApiError(f"seat must be a number, got {quoted(value)}") from None


async def handle_ws_message(
    manager: TableManager,
    table_id: str,
    seat: int | None,
    account: Account | None,
    text: str,
    conn: Connection | None = None,
) -> AckMessage | PongMessage | ErrorMessage | None:
    """Answer one client message: an ``ack``, a ``pong`` or an ``error`` naming the problem.

    Before a move or an undo, the session (or API token) that opened ``conn`` is read again: if it has
    ended, the socket is closed (session_end.py) and nothing is played."""
    ref = None
    try:
        data = parse_json(text, "the message")
        if isinstance(data, dict):
            ref = data.get("ref") if isinstance(data.get("ref"), str | int) else None
        try:
            msg = WS_INCOMING.validate_python(data)
        except ValidationError as exc:
            raise ApiError("bad message: " + describe_validation(exc.errors())) from None
        if isinstance(msg, WsPing):
            return PongMessage(type="pong", ref=ref)
        if seat is None:
            raise Forbidden(
                "spectators cannot play: connect with one of your seats (?seat=N)",
                code="app:errors.spectators_cannot_play",
            )
        if conn is not None and not await session_end.still_valid(manager, conn):
            return None  # closed with the signed-out error
        if isinstance(msg, WsMove):
            started = time.perf_counter()
            done = await manager.submit(table_id, seat, account, msg.action, msg.after)
            manager.timings.add("move", time.perf_counter() - started)
            return AckMessage(type="ack", ref=ref, moves=done["moves"])
        done = await manager.undo(table_id, seat, account)
        return AckMessage(type="ack", ref=ref, moves=done["moves"], undone=done["undone"])
    except ApiError as exc:
        return ws_error(exc, ref)
    except Exception:
        log.exception("internal error on a message to table %s", table_id)
        return ErrorMessage(type="error", ref=ref, status=500, message=INTERNAL, code="app:errors.internal", params={})


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str | None = None,
    bots: str | None = None,
    rate_limit_storage: str | None = None,
    forwarded_allow_ips: str | None = None,
    mail_config: mail.MailConfig | None = None,
) -> None:
    """Serve the app with uvicorn; bots think in a worker process of its own unless ``bots`` says otherwise.

    ``rate_limit_storage``, ``forwarded_allow_ips`` and ``mail_config`` are as in
    ``python -m robotable.server --help``."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    url = database_url(database or os.environ.get("ROBOTABLE_DATABASE"))
    print(f"Robotable on http://{host}:{port}  (database: {redacted(url)})", flush=True)
    mode = bots or os.environ.get("ROBOTABLE_BOTS") or "spawn"
    app = create_app(
        database,
        bots_mode=mode,
        self_url=local_url(host, port),
        rate_limit_storage=rate_limit_storage,
        mail_config=mail_config,
    )
    serve(app, host, port, forwarded_allow_ips=forwarded_allow_ips)


def local_url(host: str, port: int) -> str:
    """Where a process on this machine reaches a server listening on ``host:port``."""
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
