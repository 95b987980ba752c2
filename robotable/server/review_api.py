"""A finished table's review (issue 30; docs/review.md): ``GET /api/tables/{id}/review``.

The first request for a finished table starts its review (every seat, :func:`robotable.ai.review.review_record`
with the server's budget) in a background process, one review at a time per web process, never in the
process that serves people; the review's progress (decisions done of the record's moves) and then the
review itself are stored in the ``reviews`` table of the server's database, so every web process answers
from it and a review is computed once. Until it is ready the answer is ``202`` with the progress.

Who sees what: a review at a decision is made from that seat's view alone (its hand, its secret choices),
so each player gets the reviews of the seats they played, and nobody else's: spectators (and the players
of the other seats) are refused, since a seat's values move with what only that seat knew.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import AsyncIterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy import JSON, Column, DateTime, Integer, MetaData, String, Table, create_engine, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from robotable.ai.review import Budget, Review, review_record
from robotable.ai.review.text import describe, describe_move, where
from robotable.core import Record
from robotable.core.i18n import best_language, languages

from .auth import CurrentAccount, OptionalAccount
from .errors import Conflict, Forbidden, Unauthorized
from .schemas import ErrorOut
from .storage import seats_table
from .tables import POSITION_KEY, TableManager

log = logging.getLogger("robotable.server.review")

router = APIRouter(tags=["reviews"])
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 409, 422)}

#: A running review that has recorded no progress for this long is taken as lost (its process died) and
#: started again by the next request.
STALE = timedelta(minutes=10)
#: The running review records its progress at most this often (seconds).
PROGRESS_EVERY = 1.0
#: "Find the better move": a decision whose move played lost at least this much becomes an exercise.
EXERCISE_LOSS = 0.10
#: How many exercises the profile shows (the largest losses first).
EXERCISES = 3

metadata = MetaData()
reviews = Table(
    "reviews",
    metadata,
    Column("table_id", String(64), primary_key=True),
    Column("status", String(16), nullable=False),  # running, done, failed
    Column("done", Integer, nullable=False, default=0),
    Column("total", Integer, nullable=False, default=0),
    Column("budget", JSON, nullable=False),
    Column("review", JSON, nullable=True),
    Column("error", String(500), nullable=True),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)


class ReviewProgress(BaseModel):
    """A review being computed: ``done`` of ``total`` moves so far (``status``: ``running``), or one that
    failed (``failed``, with the ``error``; asking again after a while starts it again)."""

    status: str
    done: int
    total: int
    error: str | None = None


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
    table: str
    game: str
    num_players: int
    moves: int
    budget: dict[str, Any]
    seats: list[SeatReviewOut]


def server_budget() -> Budget:
    """The server's review budget: the hard level's iterations, or ``ROBOTABLE_REVIEW_ITERATIONS``."""
    iterations = os.environ.get("ROBOTABLE_REVIEW_ITERATIONS")
    return Budget(iterations=int(iterations)) if iterations else Budget()


def install(app: FastAPI) -> None:
    """Add the endpoint, and stop the review process with the app."""
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
        app.state.review_pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    return app.state.review_pool


_ready: set[tuple[str, str | None]] = set()


def ensure_table(engine: Engine, url: str, schema: str | None) -> None:
    """Create the ``reviews`` table if this database has none yet (once per database and process)."""
    if (url, schema) not in _ready:
        metadata.create_all(engine)
        _ready.add((url, schema))


def _engine(url: str, schema: str | None) -> Engine:
    kwargs: dict[str, Any] = {"connect_args": {"timeout": 30}} if url.startswith("sqlite") else {}
    engine = create_engine(url, **kwargs)
    return engine.execution_options(schema_translate_map={None: schema}) if schema else engine


def compute(url: str, schema: str | None, table_id: str, record: dict[str, Any], budget: dict[str, Any]) -> None:
    """Review a record in this (background) process, recording the progress and then the review."""
    engine = _engine(url, schema)
    last = 0.0

    def write(**values: Any) -> None:
        with engine.begin() as conn:
            conn.execute(update(reviews).where(reviews.c.table_id == table_id).values(updated_at=_now(), **values))

    def progress(done: int, total: int) -> None:
        nonlocal last
        if time.monotonic() - last >= PROGRESS_EVERY:
            last = time.monotonic()
            write(done=done, total=total)

    try:
        result = review_record(Record.from_json(record), budget=Budget(**budget), progress=progress)
        write(status="done", done=result.moves, review=result.to_json())
    except Exception as exc:  # recorded for the players; the log has the details
        log.exception("the review of table %s failed", table_id)
        write(status="failed", error=f"{type(exc).__name__}: {exc}"[:500])
    finally:
        engine.dispose()


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)  # SQLite keeps no zone


def _claim(engine: Engine, table_id: str, total: int, budget: Budget) -> tuple[dict[str, Any], bool]:
    """The table's review row, and whether this call claimed it (a new review, or a lost or failed one
    started again): only the claimer starts the computation, so two processes never both do."""
    spec = {"level": budget.level, "iterations": budget.iterations, "seed": budget.seed}
    fresh = {"table_id": table_id, "status": "running", "done": 0, "total": total, "budget": spec, "error": None}
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


@router.get(
    "/api/tables/{table_id}/review",
    response_model=ReviewOut,
    responses={**ERRORS, 202: {"model": ReviewProgress, "description": "Being computed: the progress so far."}},
)
async def table_review(
    request: Request,
    table_id: str,
    account: OptionalAccount,
    seat: Annotated[int | None, Query(description="One of your seats (index from 0); default: all of yours.")] = None,
    lang: Annotated[str | None, Query(description="Language of the sentences (default: Accept-Language).")] = None,
) -> Any:
    """The review of a finished table by the bots' own search, for the seats you played: each decision's
    value before and after your move, the search's better move and the loss, turning points and largest
    losses. The first request starts it in the background (``202`` with the progress until it is ready)."""
    manager: TableManager = request.app.state.manager
    live = await manager.get(table_id)
    if account is None:
        raise Unauthorized("sign in: a table's review is for its players", code="app:errors.sign_in")
    mine = manager.seats_of(live, account)
    if not mine:
        raise Forbidden("a review shows what its seat knew: it is for that seat's player only")
    if seat is not None and seat not in mine:
        raise Forbidden(
            f"seat {seat + 1} is not yours: a review is for its seat's player only",
            code="app:errors.not_your_seat",
            params={"seat": seat + 1},
        )
    if not live.state.is_over():
        raise Conflict("reviews are for finished tables: this game is still being played")
    if POSITION_KEY in live.row.options:
        raise Conflict("this table started from a written position (a test server feature): it has no record")
    storage = manager.storage
    budget: Budget = request.app.state.review_budget
    await asyncio.to_thread(ensure_table, storage.engine, storage.url, storage.schema)
    record = live.record()
    row, claimed = await asyncio.to_thread(_claim, storage.engine, live.id, len(record.moves), budget)
    if claimed:
        spec = {"level": budget.level, "iterations": budget.iterations, "seed": budget.seed}
        _pool(request.app).submit(compute, storage.url, storage.schema, live.id, record.to_json(), spec)
    if row["status"] != "done":
        progress = ReviewProgress(status=row["status"], done=row["done"], total=row["total"], error=row.get("error"))
        return JSONResponse(progress.model_dump(), status_code=202)
    language = lang if lang in languages() else best_language(request.headers.get("accept-language"))
    review = Review.from_json(row["review"])
    wanted = [seat] if seat is not None else mine
    seats = [{**s.to_json(), "text": describe(review.game, s, language)} for s in review.seats if s.seat in wanted]
    body = review.to_json()
    return {
        "status": "done",
        "table": live.id,
        **{k: body[k] for k in ("game", "num_players", "moves", "budget")},
        "seats": seats,
    }


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
                found += [(m.loss, table_id, review.game, m) for m in seat.moments if m.loss >= min_loss]
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
    language = lang if lang in languages() else best_language(request.headers.get("accept-language"))
    return await asyncio.to_thread(exercises_of, storage.engine, account.id, min_loss, limit, language)
