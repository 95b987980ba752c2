"""People's history and standing: profiles, leaderboards, "my tables" (your turn first), the rating
changes of a table, and their pages. See docs/server.md, "Profiles, my tables and ratings".
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse
from sqlalchemy import select

from robotable import games

from . import accounts, ratings
from .auth import CurrentAccount
from .errors import NotFound, quoted
from .schemas import ErrorOut
from .storage import Storage, seats_table, tables_table
from .tables import TableManager

router = APIRouter(tags=["people"])
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 422)}
WEB = Path(__file__).resolve().parent.parent / "web"
#: Recent tables shown on a profile.
RECENT = 20
#: Unfinished tables listed in "my tables".
MY_TABLES = 100


def manager_of(request: Request) -> TableManager:
    return request.app.state.manager


def check_game(game: str) -> str:
    """The game id, if the game exists (404 otherwise)."""
    if game not in games.available():
        raise NotFound(f"no game {quoted(game)} (one of: {', '.join(games.available())})")
    return game


# -- pages ------------------------------------------------------------------------------------------


def _page(name: str) -> FileResponse:
    return FileResponse(WEB / name, headers={"Cache-Control": "no-cache"})


@router.get("/profile/{account_id}", include_in_schema=False)
def profile_page(account_id: str) -> FileResponse:
    return _page("profile.html")


@router.get("/leaderboard", include_in_schema=False)
def leaderboards_page() -> FileResponse:
    return _page("leaderboard.html")


@router.get("/leaderboard/{game}", include_in_schema=False)
def leaderboard_page(game: str) -> FileResponse:
    return _page("leaderboard.html")


@router.get("/my", include_in_schema=False)
def my_tables_page() -> FileResponse:
    return _page("my.html")


# -- the API ----------------------------------------------------------------------------------------


@router.get("/api/leaderboard/{game}", responses=ERRORS)
def get_leaderboard(
    request: Request, game: str, limit: Annotated[int, Query(ge=1, le=ratings.MAX_BOARD)] = 100
) -> dict[str, Any]:
    """A game's rated people and bots, best first by ``ordinal = mu - 3 sigma`` (OpenSkill)."""
    check_game(game)
    entries = ratings.leaderboard(manager_of(request).storage, game, limit)
    return {"game": game, "game_name": games.load(game).name, "entries": entries}


@router.get("/api/profiles/{account_id}", responses=ERRORS)
def get_profile(request: Request, account_id: str) -> dict[str, Any]:
    """An account's public profile: games played and won per game, ratings, recent finished tables."""
    storage = manager_of(request).storage
    account = accounts.get_account(storage, account_id) if len(account_id) <= 24 else None
    if account is None:
        raise NotFound(f"no account {quoted(account_id)}")
    return {
        "account": {"id": account.id, "display_name": account.display_name, "guest": account.is_guest},
        **history(storage, account.id),
    }


@router.get("/api/my/tables", responses=ERRORS)
async def get_my_tables(request: Request, account: CurrentAccount) -> list[dict[str, Any]]:
    """The signed-in account's unfinished tables, those waiting for it first (``your_turn``)."""
    manager = manager_of(request)
    out = []
    for table_id in my_table_ids(manager.storage, account.id):
        live = await manager.get(table_id)
        summary = manager.summary(live)
        mine = [s["seat"] for s in summary["seats"] if s["account"] == account.id]
        summary["my_seats"] = mine
        summary["your_turn"] = any(s in summary["to_act"] and not summary["seats"][s]["handed_to_bot"] for s in mine)
        out.append(summary)
    out.sort(key=lambda t: (not t["your_turn"], _negated(t["updated_at"])))
    return out


@router.get("/api/tables/{table_id}/ratings", responses=ERRORS)
async def get_table_ratings(request: Request, table_id: str) -> dict[str, Any]:
    """Whether a table is rated and, once it is over, the rating changes it made."""
    manager = manager_of(request)
    live = await manager.get(table_id)
    changes = ratings.table_changes(manager.storage, live.id)
    return {"table": live.id, "rated": ratings.entries_of(live.row) is not None, "changes": changes}


def _negated(iso: str) -> tuple[int, ...]:
    """A sort key putting later ISO timestamps first."""
    return tuple(-ord(c) for c in iso)


# -- queries ----------------------------------------------------------------------------------------


def my_table_ids(storage: Storage, account_id: str) -> list[str]:
    """Ids of the account's open and running tables, most recently active first."""
    t, s = tables_table.c, seats_table.c
    query = (
        select(t.id, t.updated_at)
        .join(seats_table, s.table_id == t.id)
        .where(s.account_id == account_id, t.status.in_(("open", "running")))
        .distinct()
        .order_by(t.updated_at.desc())
        .limit(MY_TABLES)
    )
    with storage.read() as conn:
        return [r.id for r in conn.execute(query)]


def history(storage: Storage, account_id: str) -> dict[str, Any]:
    """Per game: tables finished, won, average place, rating; and the recent finished tables."""
    t, s = tables_table.c, seats_table.c
    query = (
        select(t.id, t.game, t.num_players, t.result, t.updated_at, t.hotseat, t.rated, s.seat)
        .join(seats_table, s.table_id == t.id)
        .where(s.account_id == account_id, t.status == "finished")
        .order_by(t.updated_at.desc(), s.seat)
    )
    tables: dict[str, dict[str, Any]] = {}
    with storage.read() as conn:
        for r in conn.execute(query):
            entry = tables.setdefault(
                r.id,
                {
                    "table": r.id,
                    "game": r.game,
                    "num_players": r.num_players,
                    "hotseat": bool(r.hotseat),
                    "rated": bool(r.rated),
                    "finished_at": r.updated_at.isoformat(),
                    "seats": [],
                    "result": r.result or {},
                },
            )
            entry["seats"].append(r.seat)
    per_game: dict[str, dict[str, Any]] = {}
    recent: list[dict[str, Any]] = []
    for entry in tables.values():
        result = entry.pop("result")
        ranks = result.get("ranks") or []
        winners = set(result.get("winners") or ())
        places = [ranks[seat] for seat in entry["seats"] if seat < len(ranks)]
        entry["place"] = min(places) if places else None
        entry["won"] = any(seat in winners for seat in entry["seats"])
        entry["replay"] = f"/replay/{entry['table']}"
        entry["game_name"] = games.load(entry["game"]).name if entry["game"] in games.available() else entry["game"]
        if len(recent) < RECENT:
            recent.append(entry)
        if entry["hotseat"]:
            continue  # one person playing several seats: no result of theirs to count
        stats = per_game.setdefault(entry["game"], {"played": 0, "won": 0, "places": []})
        stats["played"] += 1
        stats["won"] += entry["won"]
        if entry["place"] is not None:
            stats["places"].append(entry["place"])
    rated = ratings.ratings_of(storage, ratings.account_entry(account_id))
    out = {}
    for game in sorted(set(per_game) | set(rated)):
        stats = per_game.get(game, {"played": 0, "won": 0, "places": []})
        places = stats.pop("places")
        out[game] = {
            "game_name": games.load(game).name if game in games.available() else game,
            **stats,
            "average_place": round(sum(places) / len(places), 2) if places else None,
            "rating": rated.get(game),
        }
    return {"games": out, "recent": recent}
