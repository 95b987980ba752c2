"""Profiles: an account's games played and won, ratings and recent finished tables, and its page.
See docs/server.md, "Profiles, my tables and ratings".
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse
from sqlalchemy import select

from robotable import games

from . import accounts, ratings, reputation
from .errors import ApiError, NotFound, quoted
from .schemas import ErrorOut
from .storage import Storage, seats_table, tables_table

router = APIRouter(tags=["people"])
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 422)}
WEB = Path(__file__).resolve().parent.parent / "web"
#: Recent tables shown on a profile.
RECENT = 20
#: Accounts one ``GET /api/standing`` may ask about.
MAX_STANDING = 100


@router.get("/profile/{account_id}", include_in_schema=False)
def profile_page(account_id: str) -> FileResponse:
    return FileResponse(WEB / "profile.html", headers={"Cache-Control": "no-cache"})


@router.get("/api/profiles/{account_id}", responses=ERRORS)
def get_profile(request: Request, account_id: str) -> dict[str, Any]:
    """An account's public profile: games played and won per game, ratings, recent finished tables."""
    storage: Storage = request.app.state.manager.storage
    account = accounts.get_account(storage, account_id) if len(account_id) <= 24 else None
    if account is None:
        raise NotFound(f"no account {quoted(account_id)}")
    return {
        "account": {"id": account.id, "display_name": account.display_name, "guest": account.is_guest},
        "reputation": reputation.of_account(storage, account.id).to_json(),
        **history(storage, account.id),
    }


@router.get("/api/standing", responses=ERRORS)
def get_standing(request: Request, accounts: Annotated[list[str], Query(max_length=MAX_STANDING)]) -> dict[str, Any]:
    """What the lobby and the table show beside people's names: each account's reputation and its ratings
    per game on the 1500-based scale (``accounts``: up to 100 ids, repeated; unknown ids get a new
    account's reputation and no rating)."""
    ids = list(dict.fromkeys(accounts))
    if not ids or any(not 0 < len(a) <= 24 for a in ids):
        raise ApiError("accounts: give 1 to 100 account ids (each at most 24 characters)")
    storage: Storage = request.app.state.manager.storage
    shares = reputation.of_accounts(storage, ids)
    rated = ratings.shown_of_accounts(storage, ids)
    return {"accounts": {a: {"reputation": shares[a].to_json(), "ratings": rated[a]} for a in ids}}


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
