"""Hints while playing (issue 30; docs/review.md): ``POST /api/tables/{id}/hint``.

The bots' top three choices for the requesting player's seat whose turn it is, with their values, from the
review's search at the top level's iterations, stopped after
:data:`robotable.ai.review.hints.HINT_WALL` seconds of wall clock on a busy machine, over that seat's view
only. Where: never on rated tables (refused here, not only hidden by the page); on hotseat tables,
tables of one person against bots, and tables whose creator allowed hints (``hints``, never rated).
Each hint counts against the server's hint rate (``ROBOTABLE_HINT_RATE``, the ``limits`` limiter) and its
thinking time against the owner's bot quota (``ROBOTABLE_BOT_SECONDS``), when the server has one.
"""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from pydantic import BaseModel, Field

from robotable.ai.review.hints import HINT_WALL, hint
from robotable.ai.review.text import describe_move
from robotable.core.i18n import best_language, languages

from .auth import OptionalAccount
from .bot_api import check_thinking_time, owner_key
from .errors import Conflict, Forbidden, Unauthorized
from .schemas import ErrorOut, SeatRef
from .table import LiveTable, TableManager

router = APIRouter(tags=["hints"])
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 409, 422, 429)}


class HintChoice(BaseModel):
    """One of the search's choices: the action (as played with ``POST .../moves``), its words in the
    request's language, its value (the seat's expected share of the other seats it finishes ahead of; at 2
    players its chance to win, 0 to 1) and how many of the search's iterations went to it."""

    action: dict[str, Any]
    text: str
    value: float
    visits: int


class HintOut(BaseModel):
    """A hint: the seat, the move it is for (``moves`` so far), the iterations the search ran (the top
    level's, or fewer where its wall-clock cap stopped it) and its best choices, best first (at most three)."""

    table: str
    seat: int
    moves: int
    iterations: int
    choices: list[HintChoice] = Field(description="best first")


def refusal(live: LiveTable) -> Forbidden | None:
    """Why hints are refused at this table, or None: rated tables never; hotseat tables, one person
    against bots, and tables whose creator allowed hints, yes; other tables of several people, no."""
    row = live.row
    if row.rated:
        return Forbidden("this table is rated: no hints during a rated game", code="app:errors.hints_rated")
    if row.hotseat or row.hints or sum(s.kind == "human" for s in row.seats) <= 1:
        return None
    return Forbidden(
        "hints are not allowed at this table (its creator did not allow them)", code="app:errors.hints_not_allowed"
    )


def install(app: FastAPI) -> None:
    app.include_router(router)


@router.post("/api/tables/{table_id}/hint", response_model=HintOut, responses=ERRORS)
async def table_hint(
    request: Request,
    table_id: str,
    body: SeatRef,
    account: OptionalAccount,
    lang: Annotated[str | None, Query(description="Language of the moves' words (default: Accept-Language).")] = None,
) -> dict[str, Any]:
    """The bots' three best choices for your seat, whose turn it is, with their values (the review's
    search from your seat's view only, at a small budget). Refused (403) on rated tables and on tables
    of several people whose creator did not allow hints; rate-limited (429) and counted against your bot
    quota."""
    manager: TableManager = request.app.state.manager
    live = await manager.get(table_id)
    if account is None:
        raise Unauthorized("sign in: hints are for a table's players", code="app:errors.sign_in")
    refused = refusal(live)
    if refused is not None:
        raise refused
    seat = body.seat
    if seat not in manager.seats_of(live, account):
        raise Forbidden(
            f"seat {seat + 1} is not yours: a hint is for its seat's player only",
            code="app:errors.not_your_seat",
            params={"seat": seat + 1},
        )
    state = live.state
    if state.is_over():
        raise Conflict("this table's game is over", code="app:errors.game_over")
    if seat not in state.to_act() or len(state.legal_actions(seat)) == 0:
        raise Conflict(
            f"seat {seat + 1} is not to move: a hint is for the seat whose turn it is",
            code="app:errors.not_your_turn",
            params={"detail": f"seat {seat + 1} is not to move"},
        )
    owner = owner_key(request, account)
    await request.app.state.rates.hit_hint_async(owner)
    await check_thinking_time(request, owner, "your bots and hints")
    moves = len(live.moves)
    position = state.clone()  # the live state moves on meanwhile; the search samples from the seat's view

    searched: dict[str, Any] = {}

    def think() -> tuple[list[Any], float]:
        start = time.thread_time()
        return hint(position, seat, moves, max_wall=HINT_WALL, searched=searched), time.thread_time() - start

    choices, seconds = await asyncio.to_thread(think)
    queue = getattr(request.app.state, "bot_queue", None)
    if queue is not None:
        await asyncio.to_thread(queue.charge, owner, seconds)
    language = lang if lang in languages() else best_language(request.headers.get("accept-language"))
    return {
        "table": live.id,
        "seat": seat,
        "moves": moves,
        "iterations": int(searched.get("iterations", 0)),
        "choices": [{**c.to_json(), "text": describe_move(live.row.game, c.action, language)} for c in choices],
    }
