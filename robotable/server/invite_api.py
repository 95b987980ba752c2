"""The invite page and endpoints: see who invites you where, accept (binding the seat), make a new invite.

``/invite/<code>`` is the only page whose URL holds a credential, and only until it is used: the page
sends the code back in request bodies (never in an API URL), is served with ``Referrer-Policy:
no-referrer`` and ``Cache-Control: no-store``, and moves to the table's own URL once the seat is taken.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from . import invites
from .accounts import get_account
from .auth import CurrentAccount, OptionalAccount
from .schemas import ErrorOut, InviteCode
from .table import TableManager

WEB = Path(__file__).resolve().parent.parent / "web"
router = APIRouter()
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 409, 410, 422)}


def _manager(request: Request) -> TableManager:
    return request.app.state.manager


@router.get("/invite/{code}", include_in_schema=False)
def invite_page(code: str) -> FileResponse:
    """The invite page (it reads the code from its own URL)."""
    return FileResponse(WEB / "invite.html", headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


@router.post("/api/invites/info", tags=["seats"], responses=ERRORS)
async def invite_info(request: Request, body: InviteCode, account: OptionalAccount) -> dict[str, Any]:
    """Where an invite leads: the table, the seat and who invited you (404 unknown, 410 used or expired)."""
    manager = _manager(request)
    invite = invites.find_invite(manager.storage, body.code)
    live = await manager.get(invite.table_id)
    inviter = get_account(manager.storage, invite.created_by) if invite.created_by else None
    return {
        "table": manager.summary(live),
        "seat": invite.seat,
        "invited_by": inviter.display_name if inviter else None,
        "expires_at": invite.expires_at.isoformat(),
        "your_seats": manager.seats_of(live, account),
    }


@router.post("/api/invites/accept", tags=["seats"], responses=ERRORS)
async def accept_invite(request: Request, body: InviteCode, account: CurrentAccount) -> dict[str, Any]:
    """Take the invited seat: it becomes your account's, and the code stops working."""
    manager = _manager(request)
    invite = invites.find_invite(manager.storage, body.code)
    live = await manager.accept_invite(body.code, account)
    return {"table": manager.summary(live), "seat": invite.seat, "link": f"/table/{live.id}?seat={invite.seat}"}


@router.post("/api/tables/{table_id}/seats/{seat}/invite", tags=["seats"], responses=ERRORS)
async def new_invite(request: Request, table_id: str, seat: int, account: CurrentAccount) -> dict[str, Any]:
    """A new invite link for a person seat nobody has taken yet (the table's creator; earlier links stop working)."""
    code = await _manager(request).new_invite(table_id, seat, account)
    return {"seat": seat, "invite": invites.invite_path(code)}
