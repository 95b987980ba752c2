"""A person's play across tables: "my tables" (your turn first) and its page, and the rating changes of a
table. Profiles are in profile_api.py, leaderboards in leaderboard_api.py. See docs/server.md, "Profiles,
my tables and ratings".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from sqlalchemy import select

from . import ratings
from .auth import CurrentAccount
from .schemas import ErrorOut
from .storage import Storage, seats_table, tables_table
from .table import TableManager

router = APIRouter(tags=["people"])
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 422)}
WEB = Path(__file__).resolve().parent.parent / "web"
#: Unfinished tables listed in "my tables".
MY_TABLES = 100


def manager_of(request: Request) -> TableManager:
    return request.app.state.manager


# -- pages ------------------------------------------------------------------------------------------


@router.get("/my", include_in_schema=False)
def my_tables_page() -> FileResponse:
    return FileResponse(WEB / "my.html", headers={"Cache-Control": "no-cache"})


# -- the API ----------------------------------------------------------------------------------------


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
