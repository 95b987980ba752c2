"""Moves (:class:`Moves`): checked by the rules, applied on a copy, stored with the clocks in one
transaction, then swapped in and published. The server never implements rules: a move is
``game.action_from_json`` + ``state.check`` + ``apply`` on a copy."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from robotable.core import Action, Event, RobotableError, visible_events

from .. import clocks, ratings, reputation
from ..accounts import Account
from ..errors import Conflict, Forbidden, from_game_error
from ..storage import Changes, MoveRow, StaleTable, Storage, now
from ..timings import Timings
from .live import RETRIES, LiveTable, Raced, is_stale, rng_state
from .seats import check_seat

log = logging.getLogger("robotable.server")


class Moves:
    """A person's or a bot's move at a live table."""

    def __init__(
        self,
        get: Callable[..., Awaitable[LiveTable]],
        storage: Storage,
        clock_keeper: clocks.Clocks,
        timings: Timings,
        refresh_locked: Callable[[LiveTable], Awaitable[bool]],
        catch_up_after_race: Callable[[LiveTable, Changes | None], Awaitable[bool]],
        publish: Callable[[LiveTable, str], None],
        kick_bots: Callable[[LiveTable], None],
    ) -> None:
        self.get = get
        self.storage = storage
        self.clocks = clock_keeper
        self.timings = timings
        self.refresh_locked = refresh_locked
        self.catch_up_after_race = catch_up_after_race
        self.publish = publish
        self.kick_bots = kick_bots

    async def submit(
        self, table_id: str, seat: int, account: Account | None, action_json: object, after: int | None = None
    ) -> dict[str, Any]:
        """A person's move: their seat, then form, then the rules; refused moves change nothing.

        The copy in memory is not checked against the database first (no query before the move): the
        write is a compare-and-set on the table's version, and a refusal here (stale, out of turn, not
        your seat) first catches the copy up and looks again.
        """
        live = await self.get(table_id, fresh=False)
        try:
            action = live.game.action_from_json(action_json)
        except RobotableError as exc:
            raise from_game_error(exc) from None
        waited = time.perf_counter()
        raced = False
        async with live.lock:
            self.timings.add("move_lock", time.perf_counter() - waited)
            for attempt in range(RETRIES + 1):
                try:
                    if check_seat(live, seat, account).handed_to_bot:
                        raise Conflict(
                            f"seat {seat + 1} is played by a bot now; take it back first",
                            code="app:errors.seat_with_bot",
                            params={"seat": seat + 1},
                        )
                    if after is not None and is_stale(live, seat, after):
                        behind = after > len(live.moves) and attempt < RETRIES
                        if behind and await self.refresh_locked(live):
                            continue  # this process was behind: look again
                        raise Conflict(
                            f"stale move: it was chosen at move {after}; the table is at move {len(live.moves)} "
                            "and your decision has changed since",
                            code="app:errors.stale_move",
                        )
                    events = await self.apply_locked(live, seat, action, "human")
                    break
                except Raced:
                    raced = True
                    if attempt == RETRIES:
                        raise
                except (Conflict, Forbidden):  # out of turn, illegal or not yours here: was this copy behind?
                    if attempt == RETRIES or not await self.refresh_locked(live):
                        raise
        if raced:
            self.timings.add("raced_move", time.perf_counter() - waited)
        self.kick_bots(live)
        return {"moves": len(live.moves), "events": [e.to_json() for e in visible_events(events, seat)]}

    async def apply_locked(self, live: LiveTable, seat: int, action: Action, actor: str) -> list[Event]:
        """Check, apply on a copy, store, then swap in; called with the table's lock held."""
        try:
            live.state.check(seat, action)
        except RobotableError as exc:
            raise from_game_error(exc) from None
        if live.row.status == "expired":
            raise Conflict(
                "this table has expired (see the expiry policy in docs/server.md)", code="app:errors.expired"
            )
        new_state = live.state.clone()
        before = rng_state(new_state)
        events = new_state.apply_legal(seat, action)
        status = "finished" if new_state.is_over() else ("open" if live.status() == "open" else "running")
        result = new_state.result().to_json() if new_state.is_over() else None
        move = MoveRow(len(live.moves), seat, action.to_json(), actor)
        to_act = new_state.to_act()

        if live.id not in self.clocks.cache:  # read (or first stored) in a worker thread
            await asyncio.to_thread(self.clocks.of, live)
        at = now()
        clock_writes = self.clocks.plan_sync(live, self.clocks.owing(live, new_state, status), at)
        also = self.clocks.updates(live.id, clock_writes)
        started = time.perf_counter()
        try:  # the move and its clocks (started and stopped for the new position) in one transaction
            stamp = await self.storage.append_move_async(
                live.id, move, status, result, live.row.version, to_act, at, also, live.row.history, clocks.CLOCK_TABLES
            )
        except StaleTable as raced:
            lost = time.perf_counter()
            self.timings.add("move_write", lost - started)
            # another process changed it: catch up (from what the write saw, if it saw that), then retry
            await self.catch_up_after_race(live, raced.changes)
            self.timings.add("race_catch_up", time.perf_counter() - lost)
            raise Raced("the table changed meanwhile; look again and retry") from None
        except BaseException:
            self.timings.add("move_write", time.perf_counter() - started)
            raise
        self.timings.add("move_write", time.perf_counter() - started)
        if result is not None:  # rated before anyone sees the result, so the result and ratings agree
            await self.rate(live, result)
        live.state = new_state
        live.row.moves.append(move)
        live.row.num_moves = len(live.moves)
        live.row.status, live.row.result, live.row.updated_at = status, result, stamp
        live.row.version += 1
        live.row.to_act = to_act
        live.events.append(events)
        live.random_moves.append(rng_state(new_state) != before)
        live.waiting.append(to_act)
        self.clocks.take(live, clock_writes)
        self.publish(live, "move")
        return events

    def sync_clocks(self, live: LiveTable) -> None:
        """``clocks.sync`` after a committed change (in a worker thread). A failure (a terminated database
        session) must not turn the committed move into an error nobody is told about: the clocks are read
        again and synced once more, and if that fails too it is logged and they are read on next use."""
        for attempt in (1, 2):
            try:
                self.clocks.sync(live)
                return
            except Exception:
                self.clocks.forget(live.id)  # memory may be ahead of what was stored: read them again
                if attempt == 2:
                    log.exception("table %s: clocks not synced after move %d", live.id, len(live.moves))

    async def rate(self, live: LiveTable, result: dict[str, Any]) -> None:
        """Update the ratings after a rated table's last move (once; see ratings.py), and the reputation of
        the people who finished it (reputation.py)."""
        if reputation.counted(live.row):
            try:
                await asyncio.to_thread(reputation.table_finished, self.storage, live.row)
            except Exception:  # the move stands; reputation is the server's own bookkeeping
                log.exception("table %s: reputation not updated", live.id)
        if ratings.entries_of(live.row) is None:  # unrated: no trip to a worker thread
            return
        try:
            await asyncio.to_thread(ratings.rate_table, self.storage, live.row, result)
        except Exception:  # the move stands; the ratings are the server's own bookkeeping
            log.exception("table %s could not be rated", live.id)
