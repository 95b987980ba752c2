"""The chat endpoints: a table's lines, writing one (pushed to the table's websockets like a move), mutes."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, cast

from fastapi import APIRouter, Request
from pydantic import Field

from . import chat
from .auth import CurrentAccount, OptionalAccount
from .messages import ChatLine as ChatLineOut
from .messages import ChatMessage
from .schemas import ErrorOut, Strict
from .table import TableManager

router = APIRouter(tags=["chat"])
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 422, 429)}


class ChatLine(Strict):
    """One chat message: plain text, one line."""

    text: Annotated[str, Field(max_length=2000)]


class Mute(Strict):
    """The account whose chat lines you no longer want to see."""

    account: Annotated[str, Field(min_length=1, max_length=24)]


def _manager(request: Request) -> TableManager:
    return request.app.state.manager


@router.get("/api/tables/{table_id}/chat", responses=ERRORS)
async def table_chat(request: Request, table_id: str, account: OptionalAccount) -> dict[str, Any]:
    """The table's last chat lines (players and spectators alike) and, signed in, the accounts you muted."""
    manager = _manager(request)
    live = await manager.get(table_id)
    lines = await asyncio.to_thread(chat.history, manager.storage, live.id)
    muted = await asyncio.to_thread(chat.muted, manager.storage, account) if account else []
    return {"lines": lines, "muted": muted, "max_chars": chat.MAX_CHARS}


@router.post("/api/tables/{table_id}/chat", responses=ERRORS)
async def say(request: Request, table_id: str, body: ChatLine, account: OptionalAccount) -> dict[str, Any]:
    """Write a line (the table's players only; at most 500 characters, 5 per 10 seconds). Everyone
    connected to the table gets it as a ``chat`` message."""
    manager = _manager(request)
    live = await manager.get(table_id)
    line = await asyncio.to_thread(
        chat.say,
        manager.storage,
        request.app.state.limits,
        live.id,
        manager.seats_of(live, account),
        account,
        body.text,
    )
    # every socket of the table, every process
    manager.publish(live, "chat", ChatMessage(type="chat", line=cast(ChatLineOut, line)))
    return {"line": line}


@router.get("/api/account/mutes", responses=ERRORS)
def mutes(request: Request, account: CurrentAccount) -> dict[str, Any]:
    """The accounts whose chat lines you hide."""
    return {"muted": chat.muted(_manager(request).storage, account)}


@router.post("/api/account/mutes", responses=ERRORS)
def mute(request: Request, body: Mute, account: CurrentAccount) -> dict[str, Any]:
    """Hide an account's chat lines from you (everywhere, on every device)."""
    storage = _manager(request).storage
    chat.mute(storage, account, body.account)
    return {"muted": chat.muted(storage, account)}


@router.delete("/api/account/mutes/{other_id}", responses=ERRORS)
def unmute(request: Request, other_id: str, account: CurrentAccount) -> dict[str, Any]:
    """Show an account's chat lines again."""
    storage = _manager(request).storage
    chat.unmute(storage, account, other_id)
    return {"muted": chat.muted(storage, account)}
