"""Reviews over HTTP (issue 30; docs/review.md): ``GET /api/tables/{id}/review`` for a finished table,
``POST /api/reviews`` and ``GET /api/reviews/{id}`` for an uploaded record.

A review (every seat, :func:`robotable.ai.review.review_record` with the server's budget) is stored in
the ``reviews`` table (``review_jobs.py``), with its progress while it runs, so every web process answers
from it and a review is computed once. With bot workers (``--bots spawn`` or ``external``) the workers
compute it: a finished table's as soon as it ends, an upload's when it is sent; without (``inline``) the
first request starts it in a background process of the web process, one review at a time, never in the
process that serves people. Until it is ready the answer is ``202`` with the progress.

Who sees what: a review at a decision is made from that seat's view alone (its hand, its secret choices),
so each player gets the reviews of the seats they played. A spectator of the finished table (its replay is
public) gets every seat's review as it is where at every decision the deciding seat knew no more than a
spectator (:func:`robotable.ai.review.spectator.spectator_refusal`: TF22, whose hidden parts are hidden
from every seat alike), and elsewhere every seat's review made from a spectator's view alone
(:func:`robotable.ai.review.spectator.spectator_review`, stored under ``spectator-<id>``). A player asking
about another seat gets it only in the first case (else 403). An uploaded record holds every hand: its
uploader gets every seat's review.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import create_engine, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from robotable.ai.processes import local_pool
from robotable.ai.review import Budget, Review, positions
from robotable.ai.review.spectator import spectator_refusal
from robotable.ai.review.text import describe, describe_move, where
from robotable.core import Record, RobotableError
from robotable.core.i18n import best_language, languages

from . import review_jobs
from .auth import CurrentAccount, OptionalAccount
from .bot_api import check_thinking_time, owner_key
from .errors import ApiError, Conflict, Forbidden, NotFound, Unauthorized, from_game_error, quoted
from .review_jobs import SPECTATOR, UPLOAD, budget_spec, ensure_table, reviews, server_budget
from .review_jobs import aware as _aware
from .review_jobs import now as _now
from .schemas import ErrorOut, Strict
from .storage import seats_table
from .table import POSITION_KEY, TableManager

log = logging.getLogger("robotable.server.review")

router = APIRouter(tags=["reviews"])
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 409, 422)}
UPLOAD_ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 413, 422, 429)}

#: A running review that has recorded no progress for this long is taken as lost (its process died) and
#: started again by the next request.
STALE = timedelta(minutes=10)
#: The most moves an uploaded record may have (its size is bounded by the server's body limit, 64 KB).
MAX_UPLOAD_MOVES = 1000
#: Why a spectator gets no review (and what would be needed for one).
SPECTATOR_REFUSAL = "a review is for its seat's player only here: a seat's values move with what only that seat knew"
#: "Find the better move": a decision whose move played lost at least this much becomes an exercise.
EXERCISE_LOSS = 0.10
#: How many exercises the profile shows (the largest losses first).
EXERCISES = 3


class ReviewProgress(BaseModel):
    """A review waiting for a bot worker (``status``: ``queued``), being computed (``running``: ``done`` of
    ``total`` moves so far), or one that failed (``failed``, with the ``error``; asking again after a while
    starts it again). ``id``: an uploaded record's review id."""

    status: str
    done: int
    total: int
    error: str | None = None
    id: str | None = None


class SeatReviewOut(BaseModel):
    """One seat's review (``robotable.ai.review.SeatReview``): its ``moments`` (each decision's values
    before and after the move played, the search's choice, the loss), ``turning_points`` and
    ``largest_losses`` (indexes into ``moments``), ``final`` (its outcome), and ``text``: the turning
    points and largest losses as sentences in the request's language."""

    seat: int
    final: float | None
    forced: int
    optional: int
    total_loss: float
    mean_loss: float
    turning_points: list[int]
    largest_losses: list[int]
    moments: list[dict[str, Any]]
    text: dict[str, list[str]]


class ReviewOut(BaseModel):
    """A finished table's review, for the seats the requesting account played: values are each seat's
    expected share of the other seats it finishes ahead of (2 players: its chance to win), from 0 to 1."""

    status: str
    table: str | None = Field(description="the table reviewed (none for an uploaded record)")
    id: str | None = Field(default=None, description="an uploaded record's review id")
    spectator: bool = Field(default=False, description="shown to a spectator (an account that played no seat)")
    spectator_view: bool = Field(
        default=False,
        description="made from a spectator's view alone (a game where seats hold cards of their own): a move the "
        "spectator did not see is null and has no loss",
    )
    game: str
    num_players: int
    moves: int
    budget: dict[str, Any]
    seats: list[SeatReviewOut]


def install(app: FastAPI) -> None:
    """Add the endpoints, and stop the review process with the app."""
    app.include_router(router)
    app.state.review_budget = server_budget()
    app.state.review_pool = None
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[Any]:
        async with inner(app) as state:
            try:
                yield state
            finally:
                pool = app.state.review_pool
                app.state.review_pool = None
                if pool is not None:
                    pool.shutdown(wait=False, cancel_futures=True)

    app.router.lifespan_context = lifespan


def _pool(app: FastAPI) -> Executor:
    """The process that computes reviews (spawned on first use: never the serving process)."""
    if app.state.review_pool is None:
        app.state.review_pool = local_pool(1)
    return app.state.review_pool


def _engine(url: str, schema: str | None) -> Engine:
    kwargs: dict[str, Any] = {"connect_args": {"timeout": 30}} if url.startswith("sqlite") else {}
    engine = create_engine(url, **kwargs)
    return engine.execution_options(schema_translate_map={None: schema}) if schema else engine


def compute(url: str, schema: str | None, table_id: str, record: dict[str, Any], budget: dict[str, Any]) -> float:
    """Review a record in this (background) process, recording the progress and then the review; the
    search's CPU seconds."""
    engine = _engine(url, schema)
    try:
        return review_jobs.compute(engine, table_id, record, Budget(**budget))
    finally:
        engine.dispose()


def _claim(
    engine: Engine,
    table_id: str,
    total: int,
    budget: Budget,
    owner: str | None = None,
    record: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], bool]:
    """The review's row, and whether this call claimed it (a new review, or a lost or failed one started
    again): only the claimer starts the computation, so two processes never both do."""
    spec = budget_spec(budget)
    fresh = {
        "table_id": table_id,
        "status": "running",
        "done": 0,
        "total": total,
        "budget": spec,
        "error": None,
        "owner": owner,
        "record": record,
    }
    with engine.begin() as conn:
        row = conn.execute(select(reviews).where(reviews.c.table_id == table_id)).mappings().first()
    if row is None:
        try:
            with engine.begin() as conn:
                conn.execute(insert(reviews).values(updated_at=_now(), **fresh))
            return fresh, True
        except IntegrityError:  # another process claimed it first
            with engine.begin() as conn:
                row = conn.execute(select(reviews).where(reviews.c.table_id == table_id)).mappings().one()
    quiet = _now() - _aware(row["updated_at"])
    if row["status"] == "done" or quiet < STALE:
        return dict(row), False
    with engine.begin() as conn:  # lost or failed a while ago: start again, unless another process just did
        again = conn.execute(
            update(reviews)
            .where(reviews.c.table_id == table_id, reviews.c.updated_at == row["updated_at"])
            .values(status="running", done=0, total=total, budget=spec, error=None, updated_at=_now())
        )
    return fresh, again.rowcount == 1


def _workers(request: Request) -> bool:
    """Whether bot workers compute this server's reviews (``--bots spawn`` or ``external``)."""
    return getattr(request.app.state.manager, "bot_workers", None) is not None


async def _start(
    request: Request,
    key: str,
    record: dict[str, Any],
    total: int,
    owner: str | None = None,
    stored: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The review's row: queued for the bot workers, or started in this web process's review process.
    ``stored``: the record to keep with the row (an upload's)."""
    storage = request.app.state.manager.storage
    budget: Budget = request.app.state.review_budget
    await asyncio.to_thread(ensure_table, storage.engine, storage.url, storage.schema)
    if _workers(request):
        row, _ = await asyncio.to_thread(
            review_jobs.queue_review, storage.engine, key, total, budget, STALE, owner, stored
        )
        return row
    row, claimed = await asyncio.to_thread(_claim, storage.engine, key, total, budget, owner, stored)
    if claimed:
        future = _pool(request.app).submit(compute, storage.url, storage.schema, key, record, budget_spec(budget))
        queue = getattr(request.app.state, "bot_queue", None)
        if owner is not None and queue is not None:  # an upload's search time counts against its owner's quota
            charged = f"account:{owner}"
            future.add_done_callback(lambda done: _charge(queue, charged, done))
    return row


def _charge(queue: Any, owner: str, done: Any) -> None:
    if done.cancelled() or done.exception() is not None:
        return
    try:
        queue.charge(owner, float(done.result()))
    except Exception:  # the quota is a guard, not a ledger: a lost charge is logged, not raised
        log.exception("charging a review's time to %s failed", owner)


def _progress(row: dict[str, Any], key: str | None = None) -> JSONResponse:
    progress = ReviewProgress(
        status=row["status"], done=row["done"], total=row["total"], error=row.get("error"), id=key
    )
    return JSONResponse(progress.model_dump(), status_code=202)


def _language(request: Request, lang: str | None) -> str:
    return lang if lang in languages() else best_language(request.headers.get("accept-language"))


def _answer(row: dict[str, Any], wanted: list[int] | None, language: str, **names: Any) -> dict[str, Any]:
    """A stored review as answered: the ``wanted`` seats (None: every seat), with their sentences."""
    review = Review.from_json(row["review"])
    seats = [
        {**s.to_json(), "text": describe(review.game, s, language)}
        for s in review.seats
        if wanted is None or s.seat in wanted
    ]
    body = review.to_json()
    return {
        "status": "done",
        **names,
        **{k: body[k] for k in ("game", "num_players", "moves", "budget")},
        "seats": seats,
    }


PROGRESS_RESPONSE: dict[int | str, dict[str, Any]] = {
    202: {"model": ReviewProgress, "description": "Queued or being computed: the progress so far."}
}


@router.get("/api/tables/{table_id}/review", response_model=ReviewOut, responses={**ERRORS, **PROGRESS_RESPONSE})
async def table_review(
    request: Request,
    table_id: str,
    account: OptionalAccount,
    seat: Annotated[int | None, Query(description="One of your seats (index from 0); default: all of yours.")] = None,
    lang: Annotated[str | None, Query(description="Language of the sentences (default: Accept-Language).")] = None,
) -> Any:
    """The review of a finished table by the bots' own search, for the seats you played: each decision's
    value before and after your move, the search's better move and the loss, turning points and largest
    losses. With bot workers it is computed as soon as the table ends; without, the first request starts
    it in the background (``202`` with the progress until it is ready). Spectators, and players asking
    about another seat, get every seat's review where no deciding seat knew more than a spectator (TF22);
    elsewhere a spectator gets every seat's review made from a spectator's view alone
    (``spectator_view``), and a player asking about another seat 403."""
    manager: TableManager = request.app.state.manager
    live = await manager.get(table_id)
    if account is None:
        raise Unauthorized("sign in: a table's review is for its players", code="app:errors.sign_in")
    mine = manager.seats_of(live, account)
    if seat is not None and not 0 <= seat < live.row.num_players:
        raise ApiError(f"seat must be 0 to {live.row.num_players - 1}, got {seat}")
    if not live.state.is_over():
        raise Conflict("reviews are for finished tables: this game is still being played")
    if POSITION_KEY in live.row.options:
        raise Conflict("this table started from a written position (a test server feature): it has no record")
    record = live.record()
    others = not mine or (seat is not None and seat not in mine)
    if others:  # a spectator, or a player asking about another seat: only where a spectator may see it
        reason = await asyncio.to_thread(spectator_refusal, record)
        if reason is not None and not mine:  # every seat's review from a spectator's view alone
            row = await _start(request, SPECTATOR + live.id, record.to_json(), len(record.moves))
            if row["status"] != "done":
                return _progress(row)
            wanted = [seat] if seat is not None else None
            return _answer(row, wanted, _language(request, lang), table=live.id, spectator=True, spectator_view=True)
        if reason is not None:
            assert seat is not None
            raise Forbidden(
                f"seat {seat + 1} is not yours: a review is for its seat's player only ({reason})",
                code="app:errors.not_your_seat",
                params={"seat": seat + 1},
            )
    row = await _start(request, live.id, record.to_json(), len(record.moves))
    if row["status"] != "done":
        return _progress(row)
    wanted = [seat] if seat is not None else (mine or None)
    return _answer(row, wanted, _language(request, lang), table=live.id, spectator=not mine)


# -- uploaded records ------------------------------------------------------------------------------------


class UploadedRecord(Strict):
    """A record to review, as ``robotable review RECORD.json`` takes it (saved by ``robotable play``, or
    downloaded from a finished table with ``GET /api/tables/{id}/record``)."""

    record: dict[str, Any] = Field(description="the record: game, num_players, seed, options, moves")


def _check_record(data: dict[str, Any]) -> Record:
    """The uploaded record, replayed to its end; ApiError (400) naming what is wrong with it."""
    try:
        record = Record.from_json(data)
        if len(record.moves) > MAX_UPLOAD_MOVES:
            raise ApiError(
                f"record: {len(record.moves)} moves, more than the {MAX_UPLOAD_MOVES} a review takes",
                code="app:errors.review_too_long",
                params={"moves": len(record.moves), "most": MAX_UPLOAD_MOVES},
            )
        for _ in positions(record):  # every move replays (else BadInput naming the move)
            pass
    except RobotableError as exc:
        raise from_game_error(exc) from None
    except (KeyError, ValueError, TypeError) as exc:  # an engine's own check of the options or moves
        raise ApiError(f"record: cannot be replayed: {type(exc).__name__}: {exc}"[:300]) from None
    if not record.moves:
        raise ApiError("record: it has no moves to review", code="app:errors.review_no_moves")
    return record


@router.post(
    "/api/reviews",
    response_model=ReviewProgress,
    status_code=202,
    responses=UPLOAD_ERRORS,
)
async def upload_review(request: Request, body: UploadedRecord, account: CurrentAccount) -> Any:
    """Review an uploaded record (every seat: a record holds every hand). The answer has the review's
    ``id``; ``GET /api/reviews/{id}`` gives its progress, then the review. For signed-in accounts;
    rate-limited like hints (``ROBOTABLE_HINT_RATE``) and counted against your bot quota. A record of at
    most 1000 moves (and 64 KB, the server's body limit) whose moves replay."""
    record = await asyncio.to_thread(_check_record, body.record)
    owner = owner_key(request, account)
    await request.app.state.rates.hit_hint_async(owner)
    await check_thinking_time(request, owner, "your bots, hints and reviews")
    review_id = secrets.token_hex(8)
    data = record.to_json()
    row = await _start(request, UPLOAD + review_id, data, len(record.moves), account.id, data)
    return _progress(row, review_id)


@router.get(
    "/api/reviews/{review_id}",
    response_model=ReviewOut,
    responses={**ERRORS, **PROGRESS_RESPONSE},
)
async def uploaded_review(
    request: Request,
    review_id: Annotated[str, Path(description="the id POST /api/reviews answered", max_length=40)],
    account: CurrentAccount,
    lang: Annotated[str | None, Query(description="Language of the sentences (default: Accept-Language).")] = None,
) -> Any:
    """An uploaded record's review: ``202`` with the progress while it is queued or computed, then every
    seat's review. Only for the account that uploaded it."""
    storage = request.app.state.manager.storage
    await asyncio.to_thread(ensure_table, storage.engine, storage.url, storage.schema)

    def read() -> dict[str, Any] | None:
        with storage.engine.begin() as conn:
            return review_jobs.row_of(conn, UPLOAD + review_id)

    row = await asyncio.to_thread(read)
    if row is None:
        raise NotFound(
            f"no uploaded review {quoted(review_id)}: its id is the one POST /api/reviews answered",
            code="app:errors.review_not_found",
        )
    if row["owner"] != account.id:
        raise Forbidden(
            "an uploaded record's review is for the account that uploaded it", code="app:errors.review_not_yours"
        )
    if row["status"] == "failed" and row.get("record") is not None:
        row = await _start(request, UPLOAD + review_id, row["record"], row["total"], row["owner"], row["record"])
    if row["status"] != "done":
        return _progress(row, review_id)
    return _answer(row, None, _language(request, lang), table=None, id=review_id)


class ExerciseOut(BaseModel):
    """A position from one of your reviewed games where the search's move was much better than the one
    played: find the better move. ``move`` is the record's move index (the replay's step before it)."""

    table: str
    game: str
    seat: int
    move: int
    where: str
    played: dict[str, Any]
    played_text: str
    better: dict[str, Any]
    better_text: str
    loss: float


def exercises_of(engine: Engine, account_id: str, min_loss: float, limit: int, language: str) -> list[dict[str, Any]]:
    """The account's largest losses of at least ``min_loss`` in its stored reviews, largest first."""
    with engine.begin() as conn:
        played = conn.execute(
            select(seats_table.c.table_id, seats_table.c.seat).where(seats_table.c.account_id == account_id)
        ).all()
        mine: dict[str, set[int]] = {}
        for table_id, seat in played:
            mine.setdefault(table_id, set()).add(seat)
        rows = conn.execute(
            select(reviews.c.table_id, reviews.c.review).where(
                reviews.c.table_id.in_(list(mine)), reviews.c.status == "done"
            )
        ).all()
    found = []
    for table_id, data in rows:
        review = Review.from_json(data)
        for seat in review.seats:
            if seat.seat in mine[table_id]:
                # (a decision where the seat played the search's own move is no exercise, whatever min_loss)
                found += [
                    (m.loss, table_id, review.game, m) for m in seat.moments if not m.agreed and m.loss >= min_loss
                ]
    found.sort(key=lambda item: (-item[0], item[1], item[3].index))
    return [
        {
            "table": table_id,
            "game": game,
            "seat": m.seat,
            "move": m.index,
            "where": where(game, m, language),
            "played": m.played,
            "played_text": describe_move(game, m.played, language),
            "better": m.best,
            "better_text": describe_move(game, m.best, language),
            "loss": loss,
        }
        for loss, table_id, game, m in found[:limit]
    ]


@router.get("/api/account/exercises", response_model=list[ExerciseOut], responses=ERRORS)
async def my_exercises(
    request: Request,
    account: CurrentAccount,
    min_loss: Annotated[float, Query(ge=0.0, le=1.0, description="Smallest loss (default 0.10).")] = EXERCISE_LOSS,
    limit: Annotated[int, Query(ge=1, le=50, description="How many (default 3).")] = EXERCISES,
    lang: Annotated[str | None, Query(description="Language of the words (default: Accept-Language).")] = None,
) -> Any:
    """ "Find the better move": positions from your reviewed games (reviews already computed) where the
    search's move was much better than the one you played, the largest losses first."""
    storage = request.app.state.manager.storage
    await asyncio.to_thread(ensure_table, storage.engine, storage.url, storage.schema)
    language = _language(request, lang)
    return await asyncio.to_thread(exercises_of, storage.engine, account.id, min_loss, limit, language)
