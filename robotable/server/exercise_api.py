"""Find the better move, played (issue 30; docs/review.md): the positions of a player's reviewed games
where the search's move was better than the one played, each opened as at the table and answered by
playing a move.

An exercise is one reviewed decision of one of your seats: its id is ``{table}.{seat}.{move}`` (the
record's move index, the position before it). ``GET /api/exercises`` lists yours (the largest losses
first, each marked solved or not); ``GET /api/exercises/{id}`` gives the position as the seat saw it (its
view and its legal moves then: never more than that seat's own view); ``POST /api/exercises/{id}/answer``
takes a move and tells whether it is the search's better move, or as good within :data:`MARGIN` (a move
that is neither is valued by the review's own search, from the seat's view, with the review's budget and
the seed of that move); ``GET /api/exercises/{id}/solution`` names the move played and the better move
with their values and, where the game has previews (Twin Tin Bots), what each would do; ``POST
/api/exercises/{id}/preview`` previews any legal move of the position, and ``POST
/api/exercises/{id}/evaluate`` answers the game's questions about the seat's position (games with
evaluations: Robots on the Line's workbench), on a sample drawn from the seat's view. All for the signed-in player of
that seat only, once the table's review is computed. The page is ``/exercise/{id}``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path as FilePath
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Path, Query, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field
from sqlalchemy import insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from robotable.ai.base import Decision
from robotable.ai.review import Review, positions
from robotable.ai.review.search import Moment, evaluate_move
from robotable.ai.review.text import describe_move, where
from robotable.core import Action, Game, Record, Rng, RobotableError, State

from . import review_jobs
from .auth import Account, CurrentAccount
from .bot_api import owner_key
from .errors import ApiError, Conflict, Forbidden, NotFound, from_game_error
from .previews import game_hook, preview_hook, preview_json
from .review_api import EXERCISE_LOSS, EXERCISES, exercises_of
from .review_api import ExerciseOut as ReviewedExercise
from .review_api import _language as language_of
from .schemas import ErrorOut, Strict
from .storage import exercises_solved as solved_table
from .table import POSITION_KEY, LiveTable, TableManager

router = APIRouter(tags=["exercises"])
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 409, 422)}
WEB = FilePath(__file__).resolve().parent.parent / "web"

#: A move whose value is within this of the better move's (the review's values, 0 to 1) solves the
#: exercise too: two moves the search values alike are the same move for the player (about the noise of a
#: TF22 value between seeds, docs/review.md).
MARGIN = 0.03


def exercise_id(table_id: str, seat: int, move: int) -> str:
    """The id of the exercise at move ``move`` of ``seat`` at ``table_id``."""
    return f"{table_id}.{seat}.{move}"


def parse_id(text: str) -> tuple[str, int, int]:
    """``(table, seat, move)`` of an exercise id; ApiError (400) naming what is wrong."""
    parts = text.rsplit(".", 2)
    if len(parts) != 3 or not parts[0] or not parts[1].isdigit() or not parts[2].isdigit():
        raise ApiError(
            f"exercise id {text[:80]!r}: expected TABLE.SEAT.MOVE (as GET /api/exercises lists them)",
            code="app:errors.exercise_id",
        )
    return parts[0], int(parts[1]), int(parts[2])


def solved_of(engine: Engine, account_id: str) -> set[tuple[str, int, int]]:
    with engine.begin() as conn:
        rows = conn.execute(
            select(solved_table.c.table_id, solved_table.c.seat, solved_table.c.move).where(
                solved_table.c.account_id == account_id
            )
        ).all()
    return {(t, s, m) for t, s, m in rows}


def mark_solved(engine: Engine, account_id: str, table_id: str, seat: int, move: int) -> None:
    try:
        with engine.begin() as conn:
            conn.execute(
                insert(solved_table).values(
                    account_id=account_id, table_id=table_id, seat=seat, move=move, solved_at=datetime.now(UTC)
                )
            )
    except IntegrityError:  # solved before
        pass


@dataclass
class Found:
    """An exercise's position: the table, the stored review's decision, and the state before the move."""

    live: LiveTable
    game: Game
    review: Review
    moment: Moment
    state: State


async def _storage_ready(request: Request) -> Any:
    storage = request.app.state.manager.storage
    await asyncio.to_thread(review_jobs.ensure_table, storage.engine, storage.url, storage.schema)
    return storage


def _state_before(record: Record, move: int) -> State:
    for step in positions(record, move + 1):
        if step.index == move:
            return step.state
    raise NotFound(f"this table's record has no move {move + 1}")


async def _find(request: Request, text: str, account: Account) -> Found:
    """The exercise ``text`` of ``account``, or a clear refusal."""
    table_id, seat, move = parse_id(text)
    manager: TableManager = request.app.state.manager
    live = await manager.get(table_id)
    if seat not in manager.seats_of(live, account):
        raise Forbidden(
            "an exercise is for the player of its seat only: it shows that seat's view",
            code="app:errors.exercise_not_yours",
        )
    if not live.state.is_over() or POSITION_KEY in live.row.options:
        raise Conflict("exercises come from the reviews of finished tables", code="app:errors.exercise_none")
    storage = await _storage_ready(request)

    def read() -> dict[str, Any] | None:
        with storage.engine.begin() as conn:
            return review_jobs.row_of(conn, table_id)

    row = await asyncio.to_thread(read)
    if row is None or row["status"] != "done":
        raise Conflict(
            "this table's review is not computed yet: open its replay to start it", code="app:errors.exercise_review"
        )
    review = Review.from_json(row["review"])
    moment = next((m for s in review.seats if s.seat == seat for m in s.moments if m.index == move), None)
    if moment is None or moment.agreed:
        raise NotFound(
            f"no exercise at move {move + 1} of seat {seat + 1}: the review found no better move there",
            code="app:errors.exercise_missing",
        )
    state = await asyncio.to_thread(_state_before, live.record(), move)
    return Found(live, live.game, review, moment, state)


def _action(found: Found, data: Any) -> Action:
    """A move of the exercise's seat at its position (400 malformed, 409 not legal there)."""
    try:
        action = found.game.action_from_json(data)
        found.state.check(found.moment.seat, action)
    except RobotableError as exc:
        raise from_game_error(exc) from None
    except (KeyError, ValueError, TypeError, AttributeError) as exc:
        raise ApiError(f"action: {type(exc).__name__}: {exc}"[:300]) from None
    return action


def _preview(found: Found, action: Action) -> dict[str, Any] | None:
    hook = preview_hook(found.game)
    if hook is None:
        return None
    return preview_json(hook, found.state, found.moment.seat, action)


class ExerciseListed(ReviewedExercise):
    """One of your exercises (as ``GET /api/account/exercises`` lists it), with its ``id`` and whether
    you have ``solved`` it."""

    id: str
    solved: bool


class ExerciseOut(BaseModel):
    """An exercise's position, as its seat saw it: ``view`` and ``legal`` (the seat's own view and legal
    moves then, as the table sends them), the move that was played, never the better one."""

    id: str
    table: str
    game: str
    num_players: int
    seat: int
    move: int
    where: str
    names: list[str | None]
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    played: dict[str, Any]
    played_text: str
    loss: float
    solved: bool
    previews: bool = Field(description="whether POST /api/exercises/{id}/preview works for this game")


class Answer(Strict):
    """A move for the exercise's position, as ``POST /api/tables/{id}/moves`` takes it."""

    action: dict[str, Any]


class AnswerOut(BaseModel):
    """Whether the move solves the exercise: ``verdict`` ``better`` (the search's move), ``as_good``
    (valued within ``margin`` of it), ``played`` (the move of the game) or ``worse``; ``value`` the move's
    value where it was valued, ``before`` the better move's."""

    solved: bool
    verdict: str
    value: float | None
    before: float
    margin: float


class SolutionOut(BaseModel):
    """The move played and the search's better move, their values and words, and what each would do
    where the game has previews (else ``previews`` is null)."""

    id: str
    played: dict[str, Any]
    played_text: str
    better: dict[str, Any]
    better_text: str
    before: float
    after: float
    loss: float
    previews: dict[str, Any] | None


class PreviewIn(Strict):
    """A legal move of the exercise's position to preview."""

    action: dict[str, Any]


class EvaluateIn(Strict):
    """A question about the seat's own position (games with evaluations), as the table's ``POST
    /api/tables/{id}/evaluate`` takes its ``query`` (Robots on the Line: a workbench robot)."""

    query: dict[str, Any]


def install(app: FastAPI) -> None:
    """Add the endpoints and the exercise page."""
    app.include_router(router)

    @app.get("/exercise/{exercise}", include_in_schema=False)
    def exercise_page(exercise: str) -> FileResponse:
        return FileResponse(WEB / "exercise.html", headers={"Cache-Control": "no-cache"})


IdPath = Annotated[str, Path(description="the exercise: TABLE.SEAT.MOVE", max_length=100)]
LangQuery = Annotated[str | None, Query(description="Language of the words (default: Accept-Language).")]


@router.get("/api/exercises", response_model=list[ExerciseListed], responses=ERRORS)
async def list_exercises(
    request: Request,
    account: CurrentAccount,
    min_loss: Annotated[float, Query(ge=0.0, le=1.0, description="Smallest loss (default 0.10).")] = EXERCISE_LOSS,
    limit: Annotated[int, Query(ge=1, le=50, description="How many (default 3).")] = EXERCISES,
    lang: LangQuery = None,
) -> Any:
    """Your "find the better move" exercises (as ``GET /api/account/exercises``), each with its id and
    whether you solved it."""
    storage = await _storage_ready(request)
    language = language_of(request, lang)
    found = await asyncio.to_thread(exercises_of, storage.engine, account.id, min_loss, limit, language)
    solved = await asyncio.to_thread(solved_of, storage.engine, account.id)
    return [
        {
            **x,
            "id": exercise_id(x["table"], x["seat"], x["move"]),
            "solved": (x["table"], x["seat"], x["move"]) in solved,
        }
        for x in found
    ]


@router.get("/api/exercises/{exercise}", response_model=ExerciseOut, responses=ERRORS)
async def get_exercise(request: Request, exercise: IdPath, account: CurrentAccount, lang: LangQuery = None) -> Any:
    """The exercise's position as its seat saw it, with that seat's legal moves: play the better one."""
    found = await _find(request, exercise, account)
    language = language_of(request, lang)
    storage = request.app.state.manager.storage
    solved = await asyncio.to_thread(solved_of, storage.engine, account.id)
    m = found.moment
    summary = request.app.state.manager.summary(found.live)
    return {
        "id": exercise,
        "table": found.live.id,
        "game": found.review.game,
        "num_players": found.review.num_players,
        "seat": m.seat,
        "move": m.index,
        "where": where(found.review.game, m, language),
        "names": [s.get("name") for s in summary["seats"]],
        "view": found.state.view(m.seat),
        "legal": [a.to_json() for a in found.state.legal_actions(m.seat)],
        "played": m.played,
        "played_text": describe_move(found.review.game, m.played, language),
        "loss": m.loss,
        "solved": (found.live.id, m.seat, m.index) in solved,
        "previews": preview_hook(found.game) is not None,
    }


@router.post(
    "/api/exercises/{exercise}/answer", response_model=AnswerOut, responses={**ERRORS, 429: {"model": ErrorOut}}
)
async def answer_exercise(request: Request, exercise: IdPath, body: Answer, account: CurrentAccount) -> Any:
    """Play a move at the exercise's position: solved if it is the search's better move, or valued
    within ``margin`` of it by the review's own search (from the seat's view, the review's budget and
    seed; such a valuation counts against the hint rate)."""
    found = await _find(request, exercise, account)
    action = _action(found, body.action)
    m = found.moment
    if action == found.game.action_from_json(m.best):
        verdict, value = "better", m.before
    elif action == found.game.action_from_json(m.played):
        verdict, value = "played", m.after
    else:
        await request.app.state.rates.hit_hint_async(owner_key(request, account))
        decision = Decision.of(found.state, m.seat)
        value = await asyncio.to_thread(evaluate_move, decision, action, m.index, found.review.budget)
        verdict = "as_good" if value >= m.before - MARGIN else "worse"
    solved = verdict in ("better", "as_good")
    if solved:
        storage = request.app.state.manager.storage
        await asyncio.to_thread(mark_solved, storage.engine, account.id, found.live.id, m.seat, m.index)
    return {"solved": solved, "verdict": verdict, "value": value, "before": m.before, "margin": MARGIN}


@router.get("/api/exercises/{exercise}/solution", response_model=SolutionOut, responses=ERRORS)
async def exercise_solution(request: Request, exercise: IdPath, account: CurrentAccount, lang: LangQuery = None) -> Any:
    """The move played and the better move of the exercise (the review's largest loss there), with what
    each would do in games with previews: computed from the seat's view only."""
    found = await _find(request, exercise, account)
    language = language_of(request, lang)
    m = found.moment
    game = found.review.game
    previews = None
    if preview_hook(found.game) is not None:
        played = await asyncio.to_thread(_preview, found, found.game.action_from_json(m.played))
        better = await asyncio.to_thread(_preview, found, found.game.action_from_json(m.best))
        previews = {"played": played, "better": better}
    return {
        "id": exercise,
        "played": m.played,
        "played_text": describe_move(game, m.played, language),
        "better": m.best,
        "better_text": describe_move(game, m.best, language),
        "before": m.before,
        "after": m.after,
        "loss": m.loss,
        "previews": previews,
    }


@router.post("/api/exercises/{exercise}/preview", responses=ERRORS)
async def exercise_preview(request: Request, exercise: IdPath, body: PreviewIn, account: CurrentAccount) -> Any:
    """What a legal move of the exercise's position would do (games with previews), as the table's
    ``POST /api/tables/{id}/preview`` answers it (``{moves, preview}``), from the seat's view."""
    found = await _find(request, exercise, account)
    if preview_hook(found.game) is None:
        raise ApiError(f"{found.game.name} has no previews", code="app:errors.no_previews")
    action = _action(found, body.action)
    try:
        data = await asyncio.to_thread(_preview, found, action)
    except RobotableError as exc:
        raise from_game_error(exc) from None
    return {"moves": found.moment.index, "preview": data}


@router.post("/api/exercises/{exercise}/evaluate", responses=ERRORS)
async def exercise_evaluate(request: Request, exercise: IdPath, body: EvaluateIn, account: CurrentAccount) -> Any:
    """The game's answer to a question about the seat's position (games with evaluations), as the table's
    ``POST /api/tables/{id}/evaluate`` answers it (``{moves, evaluation}``): asked on a sample drawn from
    the seat's view at that decision, never the hidden state. 400 for a game without evaluations or a
    malformed query."""
    found = await _find(request, exercise, account)
    hook = game_hook(found.game, "evaluate")
    if hook is None:
        raise ApiError(f"{found.game.name} has no evaluations")
    seat = found.moment.seat
    sample = found.state.determinize(seat, Rng(found.moment.index))
    try:
        data = await asyncio.to_thread(hook, sample, seat, body.query)
    except RobotableError as exc:
        raise from_game_error(exc) from None
    return {"moves": found.moment.index, "evaluation": data}
