"""Tutorials (issue 33; docs/server.md, "Tutorials"): each game's short lessons, played from written
positions, with no account.

A game that has a tutorial declares it (the ``"tutorial"`` hook; :mod:`robotable.core.tutorial` reads
its lessons). Nothing is stored: the client keeps the moves it made in a lesson and sends them with each
request, and the server plays them again from the lesson's position, checking each one (a lesson has at
most :data:`~robotable.core.tutorial.MAX_STEPS` steps). ``GET /api/tutorials`` lists the games and their
lessons; ``GET /api/tutorials/{game}/{lesson}`` gives a lesson's start; ``POST .../try`` plays a move:
the step's goal is played (then the other seats' written answers) and the lesson moves on, another legal
move is not played and answers the step's hint, an illegal or malformed one is refused (409 / 400) with
the game's reason. Every answer carries the lesson seat's view and legal moves only, never more (the
position is written, but what leaves the server is that seat's view, as at a table). ``POST .../preview``
and ``.../evaluate`` answer as the table's do, for games with previews or evaluations. The page is
``/tutorial`` (the games) and ``/tutorial/{game}`` (a game's lessons, one after another).
"""

from __future__ import annotations

import asyncio
from pathlib import Path as FilePath
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Path
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from robotable import games
from robotable.core import Action, Game, RobotableError
from robotable.core.tutorial import MAX_STEPS, Lesson, Tutorial, Walk, has_tutorial, replay, tutorial_of

from .errors import ApiError, NotFound, from_game_error, quoted
from .previews import game_hook, preview_hook, preview_json
from .schemas import ErrorOut, Strict

router = APIRouter(tags=["tutorials"])
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 404, 409, 422)}
WEB = FilePath(__file__).resolve().parent.parent / "web"


def install(app: FastAPI) -> None:
    """Add the endpoints and the tutorial pages."""
    app.include_router(router)

    @app.get("/tutorial", include_in_schema=False)
    def tutorials_page() -> FileResponse:
        return FileResponse(WEB / "tutorial.html", headers={"Cache-Control": "no-cache"})

    @app.get("/tutorial/{game}", include_in_schema=False)
    def tutorial_page(game: str) -> FileResponse:
        return FileResponse(WEB / "tutorial.html", headers={"Cache-Control": "no-cache"})


# -- finding a lesson -----------------------------------------------------------------------------------


def _game(game_id: str) -> tuple[Game, Tutorial]:
    """The game and its tutorial (404 naming the games that have one)."""
    having = [g for g in games.available() if has_tutorial(games.load(g))]
    if game_id not in having:
        raise NotFound(
            f"no tutorial for game {quoted(game_id)} (tutorials: {', '.join(having)})",
            code="app:errors.tutorial_game",
            params={"games": ", ".join(having)},
        )
    game = games.load(game_id)
    return game, tutorial_of(game)


def _lesson(tutorial: Tutorial, lesson_id: str) -> Lesson:
    for lesson in tutorial.lessons:
        if lesson.id == lesson_id:
            return lesson
    names = ", ".join(x.id for x in tutorial.lessons)
    raise NotFound(
        f"{tutorial.game} has no lesson {quoted(lesson_id)} (its lessons: {names})",
        code="app:errors.tutorial_lesson",
        params={"lessons": names},
    )


def _walk(game: Game, lesson: Lesson, moves: list[dict[str, Any]]) -> Walk:
    """The lesson after ``moves`` (400 naming the first move that is not what its step waits for)."""
    try:
        return replay(game, lesson, moves)
    except RobotableError as exc:
        detail = str(exc)[:400]
        raise ApiError(f"moves: {detail}", code="app:errors.tutorial_moves", params={"detail": detail}) from None


def _action(game: Game, data: dict[str, Any]) -> Action:
    try:
        return game.action_from_json(data)
    except RobotableError as exc:
        raise from_game_error(exc) from None


# -- answers ------------------------------------------------------------------------------------------


class LessonListed(BaseModel):
    """A lesson as the lists show it: its id, its steps' ids and the action types its steps wait for.
    Its texts are the game's catalogue keys ``tutorial.<lesson>.title`` and ``.intro``."""

    id: str
    steps: list[str]
    kinds: list[str]


class TutorialListed(BaseModel):
    """A game's tutorial: its lessons in order, and every action type they make the player play."""

    game: str
    lessons: list[LessonListed]
    kinds: list[str]


class TutorialsOut(BaseModel):
    """The games that have a tutorial."""

    tutorials: list[TutorialListed]


class StepOut(BaseModel):
    """A step: its id and its texts (catalogue keys): ``text`` what to do, ``hint`` after another move,
    ``done`` what the move did."""

    id: str
    text: str
    hint: str
    done: str


class LessonOut(BaseModel):
    """A lesson where it stands: the seat's ``view`` and ``legal`` moves (as a table sends them), the step
    waiting for a move (``step``, ``len(steps)`` once ``finished``), the ``events`` of the last move and
    the other seats' answers (what the seat may see), how many ``moves`` the player made, and the moves
    that complete the step (``expected``: what "show me" points at). ``next`` is the following lesson."""

    game: str
    lesson: str
    title: str
    intro: str
    index: int
    count: int
    next: str | None
    seat: int
    num_players: int
    step: int
    steps: list[StepOut]
    finished: bool
    moves: int
    view: dict[str, Any]
    legal: list[dict[str, Any]]
    expected: list[dict[str, Any]]
    events: list[dict[str, Any]]
    result: dict[str, Any] | None
    previews: bool = Field(description="whether POST .../preview works for this game")


class TryOut(LessonOut):
    """The answer to a move: ``accepted`` (it was the step's goal: played, and the lesson moved on) or not
    (another legal move: not played; ``hint`` is the step's hint key, and the lesson is unchanged)."""

    accepted: bool
    hint: str | None


class MovesIn(Strict):
    """The moves the player made in the lesson so far (action JSON, in order), as the answers count them."""

    moves: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_STEPS)


class TryIn(MovesIn):
    """A move for the current step, after ``moves``."""

    action: dict[str, Any]


class QueryIn(MovesIn):
    """A question about the seat's own position (games with evaluations), as the table's ``query``."""

    query: dict[str, Any]


def _listed(tutorial: Tutorial) -> dict[str, Any]:
    return {
        "game": tutorial.game,
        "lessons": [
            {"id": x.id, "steps": [s.id for s in x.steps], "kinds": sorted({k for s in x.steps for k in s.kinds})}
            for x in tutorial.lessons
        ],
        "kinds": sorted(tutorial.kinds()),
    }


def _out(game: Game, tutorial: Tutorial, walk: Walk) -> dict[str, Any]:
    lesson = walk.lesson
    index = tutorial.lessons.index(lesson)
    base = f"{game.id}:tutorial.{lesson.id}"
    state = walk.state
    return {
        "game": game.id,
        "lesson": lesson.id,
        "title": f"{base}.title",
        "intro": f"{base}.intro",
        "index": index,
        "count": len(tutorial.lessons),
        "next": tutorial.lessons[index + 1].id if index + 1 < len(tutorial.lessons) else None,
        "seat": lesson.seat,
        "num_players": state.num_players,
        "step": walk.step,
        "steps": [
            {"id": s.id, **{part: f"{base}.{s.id}.{part}" for part in ("text", "hint", "done")}} for s in lesson.steps
        ],
        "finished": walk.finished,
        "moves": len(walk.moves),
        "view": state.view(lesson.seat),
        "legal": [a.to_json() for a in walk.legal()],
        "expected": [a.to_json() for a in walk.expected()],
        "events": [e.to_json() for e in walk.seen_events()],
        "result": state.result().to_json() if state.is_over() else None,
        "previews": preview_hook(game) is not None,
    }


GamePath = Annotated[str, Path(description="the game's id", max_length=40)]
LessonPath = Annotated[str, Path(description="the lesson's id", max_length=40)]


@router.get("/api/tutorials", response_model=TutorialsOut, responses=ERRORS)
def list_tutorials() -> Any:
    """Every game that has a tutorial, with its lessons in order."""
    out = []
    for game_id in games.available():
        game = games.load(game_id)
        if has_tutorial(game):
            out.append(_listed(tutorial_of(game)))
    return {"tutorials": out}


@router.get("/api/tutorials/{game}", response_model=TutorialListed, responses=ERRORS)
def game_tutorial(game: GamePath) -> Any:
    """A game's lessons, in order."""
    return _listed(_game(game)[1])


@router.get("/api/tutorials/{game}/{lesson}", response_model=LessonOut, responses=ERRORS)
async def lesson_start(game: GamePath, lesson: LessonPath) -> Any:
    """A lesson at its first step: the seat's view of the written position and its legal moves."""
    found, tutorial = _game(game)
    chosen = _lesson(tutorial, lesson)

    def run() -> dict[str, Any]:
        return _out(found, tutorial, _walk(found, chosen, []))

    return await asyncio.to_thread(run)


@router.post("/api/tutorials/{game}/{lesson}/state", response_model=LessonOut, responses=ERRORS)
async def lesson_state(game: GamePath, lesson: LessonPath, body: MovesIn) -> Any:
    """The lesson after the player's ``moves`` (each checked again): to resume it."""
    found, tutorial = _game(game)
    chosen = _lesson(tutorial, lesson)

    def run() -> dict[str, Any]:
        return _out(found, tutorial, _walk(found, chosen, body.moves))

    return await asyncio.to_thread(run)


@router.post("/api/tutorials/{game}/{lesson}/try", response_model=TryOut, responses=ERRORS)
async def lesson_try(game: GamePath, lesson: LessonPath, body: TryIn) -> Any:
    """Play ``action`` at the current step, after ``moves``: the step's goal is played and the lesson moves
    on; another legal move is not played (the answer names the step's hint); an illegal move is refused
    (409, the game's reason), a malformed one too (400), and so is a move once the lesson is finished."""
    found, tutorial = _game(game)
    chosen = _lesson(tutorial, lesson)

    def run() -> dict[str, Any]:
        walk = _walk(found, chosen, body.moves)
        if walk.finished:
            raise ApiError(
                f"lesson {chosen.id!r} is finished: start it again to play it again",
                code="app:errors.tutorial_finished",
            )
        step = walk.current
        assert step is not None
        action = _action(found, body.action)
        try:
            accepted = walk.attempt(action)
        except RobotableError as exc:
            raise from_game_error(exc) from None
        hint = None if accepted else f"{found.id}:tutorial.{chosen.id}.{step.id}.hint"
        return {**_out(found, tutorial, walk), "accepted": accepted, "hint": hint}

    return await asyncio.to_thread(run)


@router.post("/api/tutorials/{game}/{lesson}/preview", responses=ERRORS)
async def lesson_preview(game: GamePath, lesson: LessonPath, body: TryIn) -> Any:
    """What a legal move of the lesson's seat would do now (games with previews), as the table's ``POST
    /api/tables/{id}/preview`` answers it (``{moves, preview}``), events filtered for the seat."""
    found, tutorial = _game(game)
    chosen = _lesson(tutorial, lesson)
    hook = preview_hook(found)
    if hook is None:
        raise ApiError(f"{found.name} has no previews", code="app:errors.no_previews")

    def run() -> dict[str, Any]:
        walk = _walk(found, chosen, body.moves)
        action = _action(found, body.action)
        try:
            walk.state.check(chosen.seat, action)
            data = preview_json(hook, walk.state, chosen.seat, action)
        except RobotableError as exc:
            raise from_game_error(exc) from None
        return {"moves": len(walk.moves), "preview": data}

    return await asyncio.to_thread(run)


@router.post("/api/tutorials/{game}/{lesson}/evaluate", responses=ERRORS)
async def lesson_evaluate(game: GamePath, lesson: LessonPath, body: QueryIn) -> Any:
    """The game's answer to a question about the seat's own position (games with evaluations), as the
    table's ``POST /api/tables/{id}/evaluate`` answers it (``{moves, evaluation}``), on a copy."""
    found, tutorial = _game(game)
    chosen = _lesson(tutorial, lesson)
    hook = game_hook(found, "evaluate")
    if hook is None:
        raise ApiError(f"{found.name} has no evaluations")

    def run() -> dict[str, Any]:
        walk = _walk(found, chosen, body.moves)
        try:
            data = hook(walk.state.clone(), chosen.seat, body.query)
        except RobotableError as exc:
            raise from_game_error(exc) from None
        return {"moves": len(walk.moves), "evaluation": data}

    return await asyncio.to_thread(run)
