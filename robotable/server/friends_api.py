"""The friends page and endpoints, and the friends socket (``/ws/friends``) that brings notices live.

The logic is in ``friends.py``; this module adds what needs the live tables (the rules of offering a seat,
taking it through the invite path, who is connected at a friend's tables) and the notices
(``notices.py``). See docs/server.md, "Friends".
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse
from pydantic import Field

from . import friends, invites, session_end
from .accounts import Account, get_account
from .auth import CurrentAccount, RateLimits, websocket_auth
from .errors import ApiError, Conflict, Forbidden, NotFound, Unauthorized
from .hub import Connection
from .limits import serve_counted
from .messages import ws_error
from .notices import FriendNotice, Notices, SeatOfferNotice, key
from .schemas import ErrorOut, Strict
from .table import TableManager

WEB = Path(__file__).resolve().parent.parent / "web"
router = APIRouter(tags=["friends"])
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 409, 422, 429)}


class FriendRequest(Strict):
    """Whom to ask: their exact username (case does not matter)."""

    username: Annotated[str, Field(min_length=1, max_length=40)]


class AccountRef(Strict):
    """An account, by its id (as tables, chat lines and the friends list give it)."""

    account: Annotated[str, Field(min_length=1, max_length=24)]


class SeatRef(Strict):
    """A seat offered to you: its table and number (from 0)."""

    table: Annotated[str, Field(min_length=1, max_length=24)]
    seat: Annotated[int, Field(ge=0, le=63)]


def _manager(conn: Request | WebSocket) -> TableManager:
    return conn.app.state.manager


def _limits(request: Request) -> RateLimits:
    return request.app.state.limits


def _notices(conn: Request | WebSocket) -> Notices:
    return _manager(conn).notices


# -- the page -------------------------------------------------------------------------------------------


@router.get("/friends", include_in_schema=False)
def friends_page() -> FileResponse:
    return FileResponse(WEB / "friends.html", headers={"Cache-Control": "no-cache"})


# -- friends, requests, blocks --------------------------------------------------------------------------


@router.get("/api/friends", responses=ERRORS)
async def get_friends(request: Request, account: CurrentAccount) -> dict[str, Any]:
    """Your friends (online or not, and their unfinished tables), requests to and from you, and whom you
    blocked. Nobody else can read this list."""
    manager = _manager(request)
    seen = await asyncio.to_thread(friends.overview, manager.storage, account)
    listed = []
    for other, seen_at in seen.friends:
        tables = await asyncio.to_thread(friends.tables_of, manager.storage, other.id)
        for table in tables:
            table["connected"] = table["seat"] in manager.presence.connected(table["id"])
        online = friends.recently(seen_at) or any(t["connected"] for t in tables)
        listed.append({**friends.card(other), "online": online, "tables": tables})
    listed.sort(key=lambda f: not f["online"])  # online first, then by name (the overview's order)
    return {
        "me": friends.card(account),
        "friends": listed,
        "incoming": [friends.card(a) for a in seen.incoming],
        "outgoing": [friends.card(a) for a in seen.outgoing],
        "blocked": [friends.card(a) for a in seen.blocked],
    }


@router.post("/api/friends/requests", responses=ERRORS)
def ask(request: Request, body: FriendRequest, account: CurrentAccount) -> dict[str, Any]:
    """Ask an account to be friends, by its username (20 per hour). ``status`` is ``requested``, or
    ``friends`` when they had asked you first. They get a ``friend_request`` notice."""
    friends.check_member(account)
    _limits(request).hit(friends.REQUEST_RATE, "friend-request", account.id, what="friend requests")
    status, other = friends.request(_manager(request).storage, account, body.username)
    notice: FriendNotice = {
        "type": "friend_accepted" if status == friends.FRIENDS else "friend_request",
        "from": friends.card(account),
    }
    _notices(request).send(other.id, notice)
    return {"status": status, "account": friends.card(other)}


@router.post("/api/friends/requests/{other_id}/accept", responses=ERRORS)
def accept(request: Request, other_id: str, account: CurrentAccount) -> dict[str, Any]:
    """Accept an account's request: you are friends (they get a ``friend_accepted`` notice)."""
    other = friends.accept(_manager(request).storage, account, other_id)
    _notices(request).send(other.id, {"type": "friend_accepted", "from": friends.card(account)})
    return {"status": friends.FRIENDS, "account": friends.card(other)}


@router.delete("/api/friends/{other_id}", responses=ERRORS)
def remove(request: Request, other_id: str, account: CurrentAccount) -> dict[str, Any]:
    """Unfriend, cancel your request or decline theirs; seats you offered each other are taken back."""
    friends.remove(_manager(request).storage, account, other_id)
    return {"status": "none"}


@router.post("/api/friends/blocks", responses=ERRORS)
def block(request: Request, body: AccountRef, account: CurrentAccount) -> dict[str, Any]:
    """Block an account: no friendship, no requests or seats from it, its chat lines hidden from you."""
    other = friends.block(_manager(request).storage, account, body.account)
    return {"blocked": friends.card(other)}


@router.delete("/api/friends/blocks/{other_id}", responses=ERRORS)
def unblock(request: Request, other_id: str, account: CurrentAccount) -> dict[str, Any]:
    """Lift a block (and the mute that came with it)."""
    friends.unblock(_manager(request).storage, account, other_id)
    return {"status": "none"}


# -- seats offered to a friend -----------------------------------------------------------------------------


@router.post("/api/tables/{table_id}/seats/{seat}/offer", tags=["seats"], responses=ERRORS)
async def offer_seat(
    request: Request, table_id: str, seat: int, body: AccountRef, account: CurrentAccount
) -> dict[str, Any]:
    """Offer a person seat nobody has taken to a friend (the table's creator; 60 per hour): it appears in
    their "My tables" and as a ``seat_offer`` notice. Offering the seat again replaces the offer."""
    manager = _manager(request)
    friends.check_member(account)
    live = await manager.get(table_id)
    if live.row.created_by != account.id:
        raise Forbidden("only the table's creator can invite players")
    if not 0 <= seat < live.row.num_players:
        raise NotFound(f"this table has no seat {seat + 1}")
    row = live.seat(seat)
    if row.kind != "human" or row.account_id is not None:
        raise Conflict(f"seat {seat + 1} is not waiting for an invited player")
    if live.state.is_over():
        raise Conflict("the game is over", code="app:errors.game_over")
    if any(s.account_id == body.account for s in live.row.seats):
        raise Conflict("this friend already plays at this table")
    _limits(request).hit(friends.OFFER_RATE, "seat-offer", account.id, what="seats offered")
    friend = await asyncio.to_thread(friends.offer_seat, manager.storage, live.id, seat, account, body.account)
    notice: SeatOfferNotice = {
        "type": "seat_offer",
        "from": friends.card(account),
        "table": {"id": live.id, "game": live.row.game},
        "seat": seat,
    }
    _notices(request).send(friend.id, notice)
    return {"seat": seat, "friend": friends.card(friend)}


@router.get("/api/friends/offers", responses=ERRORS)
async def offers(request: Request, account: CurrentAccount) -> list[dict[str, Any]]:
    """Seats your friends offered you, newest first, each with its table's summary (shown in "My tables").
    An offer whose seat was taken or whose game ended meanwhile is dropped."""
    manager = _manager(request)
    out = []
    for offer in await asyncio.to_thread(friends.offers_for, manager.storage, account.id):
        try:
            live = await manager.get(offer.table_id)
        except NotFound:
            continue
        row = live.seat(offer.seat)
        inviter = await asyncio.to_thread(get_account, manager.storage, offer.invited_by)
        if live.state.is_over() or row.account_id is not None or row.kind != "human" or inviter is None:
            await asyncio.to_thread(friends.drop_offer, manager.storage, offer.table_id, offer.seat)
            continue
        out.append({"table": manager.summary(live), "seat": offer.seat, "from": friends.card(inviter)})
    return out


@router.post("/api/friends/offers/accept", responses=ERRORS)
async def take_offer(request: Request, body: SeatRef, account: CurrentAccount) -> dict[str, Any]:
    """Take a seat a friend offered you: it becomes your account's, as an accepted invite."""
    manager = _manager(request)
    offer = await asyncio.to_thread(friends.find_offer, manager.storage, body.table, body.seat, account.id)
    live = await manager.get(offer.table_id)
    row = live.seat(offer.seat)
    if live.state.is_over() or row.kind != "human" or row.account_id is not None:
        await asyncio.to_thread(friends.drop_offer, manager.storage, live.id, offer.seat)
        raise Conflict(
            f"seat {offer.seat + 1} is no longer free", code="app:errors.seat_not_open", params={"seat": offer.seat + 1}
        )
    mine = manager.seats_of(live, account)
    if mine:
        raise Conflict(
            f"you already play seat {mine[0] + 1} at this table",
            code="app:errors.already_playing",
            params={"seat": mine[0] + 1},
        )
    # the invite path binds the seat (checks, the table's lock, news to every page, bots)
    code = await asyncio.to_thread(invites.create_invite, manager.storage, live.id, offer.seat, offer.invited_by)
    live = await manager.accept_invite(code, account)
    await asyncio.to_thread(friends.drop_offer, manager.storage, live.id, offer.seat)
    return {"table": manager.summary(live), "seat": offer.seat, "link": f"/table/{live.id}?seat={offer.seat}"}


@router.post("/api/friends/offers/decline", responses=ERRORS)
def decline_offer(request: Request, body: SeatRef, account: CurrentAccount) -> dict[str, Any]:
    """Decline a seat a friend offered you (the table's invite link, if any, still works)."""
    storage = _manager(request).storage
    offer = friends.find_offer(storage, body.table, body.seat, account.id)
    friends.drop_offer(storage, offer.table_id, offer.seat)
    return {"status": "declined"}


# -- the friends socket ------------------------------------------------------------------------------------


@router.websocket("/ws/friends")
async def friends_socket(websocket: WebSocket) -> None:
    """Notices for the signed-in account (``friend_request``, ``friend_accepted``, ``seat_offer``) while
    a page holds it open; an open socket also marks the account online for its friends."""
    await serve_counted(websocket, lambda: _serve(websocket))


async def _serve(websocket: WebSocket) -> None:
    manager = _manager(websocket)
    try:
        auth = await asyncio.to_thread(websocket_auth, websocket)
        if auth is None:
            raise Unauthorized("sign in first (or continue as a guest)", code="app:errors.sign_in")
    except ApiError as exc:
        await websocket.send_json(ws_error(exc))
        await websocket.close(code=4000 + exc.status)
        return
    account: Account = auth.account
    session = auth.session.id_hash if auth.session else None
    conn = Connection(websocket, key(account.id), None, account.id, session, auth.token_hash)
    hub = _notices(websocket).hub
    conn.start()
    hub.add(conn)
    checked = -float(friends.SEEN_EVERY)
    try:
        while not conn.closed:
            if time.monotonic() - checked >= friends.SEEN_EVERY:  # one read and one write per period at most
                # the session or token that opened it still holds (signed out elsewhere: closed, 4401)
                if not await session_end.still_valid(manager, conn):
                    break
                await asyncio.to_thread(friends.touch, manager.storage, account.id)
                checked = time.monotonic()
            try:
                message = await asyncio.wait_for(websocket.receive(), timeout=friends.SEEN_EVERY)
            except TimeoutError:
                continue
            if message["type"] == "websocket.disconnect":
                break  # anything a page sends is ignored: the socket only listens
    except WebSocketDisconnect:
        pass
    finally:
        hub.remove(conn)
        await conn.stop()
