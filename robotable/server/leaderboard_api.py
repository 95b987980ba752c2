"""Leaderboards: each game's rated people and bots, best first, and their pages. See docs/server.md,
"Profiles, my tables and ratings".
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse

from robotable import games

from . import ratings
from .errors import NotFound, quoted
from .schemas import ErrorOut
from .storage import Storage

router = APIRouter(tags=["people"])
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 422)}
WEB = Path(__file__).resolve().parent.parent / "web"


def check_game(game: str) -> str:
    """The game id, if the game exists (404 otherwise)."""
    if game not in games.available():
        raise NotFound(f"no game {quoted(game)} (one of: {', '.join(games.available())})")
    return game


# -- pages ------------------------------------------------------------------------------------------


def _page() -> FileResponse:
    return FileResponse(WEB / "leaderboard.html", headers={"Cache-Control": "no-cache"})


@router.get("/leaderboard", include_in_schema=False)
def leaderboards_page() -> FileResponse:
    return _page()


@router.get("/leaderboard/{game}", include_in_schema=False)
def leaderboard_page(game: str) -> FileResponse:
    return _page()


# -- the API ----------------------------------------------------------------------------------------


@router.get("/api/leaderboard/{game}", responses=ERRORS)
def get_leaderboard(
    request: Request, game: str, limit: Annotated[int, Query(ge=1, le=ratings.MAX_BOARD)] = 100
) -> dict[str, Any]:
    """A game's rated people and bots, best first by ``ordinal = mu - 3 sigma`` (OpenSkill)."""
    check_game(game)
    storage: Storage = request.app.state.manager.storage
    entries = ratings.leaderboard(storage, game, limit)
    return {"game": game, "game_name": games.load(game).name, "entries": entries}
