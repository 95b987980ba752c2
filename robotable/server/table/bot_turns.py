"""The bots' turns at live tables (:class:`BotTurns`): who moves, when, and where they think.

Bots think in this process (a worker thread) or, with bot workers configured (``bot_api.QueuedBots``),
in the workers through a queue; their moves are checked and played like a person's. In a simultaneous
game the bots wait a reveal window while a person may still take their choice back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from robotable.core import Action, Event, RobotableError

from .. import bots
from ..errors import Conflict, from_game_error
from .live import LiveTable, Raced
from .undo import can_undo

log = logging.getLogger("robotable.server")

#: The longest the bots wait before they reveal a simultaneous choice a person may still undo (seconds).
REVEAL_WINDOW = 2.5


class BotTurns:
    """Runs each table's bots; ``apply_locked`` plays a checked move with the table's lock held."""

    def __init__(
        self,
        get: Callable[[str], Awaitable[LiveTable]],
        refresh_locked: Callable[[LiveTable], Awaitable[bool]],
        apply_locked: Callable[[LiveTable, int, Action, str], Awaitable[list[Event]]],
        delay: float,
    ) -> None:
        self.get = get
        self.refresh_locked = refresh_locked
        self.apply_locked = apply_locked
        #: seconds a bot waits before it moves (0 in most tests)
        self.delay = delay
        #: the server is stopping: no bot starts or goes on
        self.closing = False
        #: Bot workers (``bot_api.QueuedBots``): bots' turns go to the queue. None: bots think here, in a thread.
        self.workers: Any = None

    def seats_to_move(self, live: LiveTable) -> list[tuple[int, str]]:
        """Bot seats that move now (see :func:`bots.seats_to_move`)."""
        return bots.seats_to_move(live.state, live.is_bot, lambda s: live.seat(s).difficulty)

    def optional_seats(self, live: LiveTable) -> list[tuple[int, str]]:
        """Bots the game does not wait for that may act anyway (``State.optional_actors``: a trade
        offer made at any time), asked once after each move while a person is to act. They choose in this
        process even when bot workers take the bots' turns: ``Agent.choose_optional`` is cheap (no search)."""
        if live.state.is_over() or live.optional_at == len(live.moves):
            return []
        if all(live.is_bot(s) for s in live.state.to_act()):
            return []
        movers = [s for s in live.state.optional_actors() if live.is_bot(s)]
        return [(s, live.seat(s).difficulty or bots.FALLBACK) for s in movers]

    def _movers(self, live: LiveTable) -> tuple[list[tuple[int, str]], bool]:
        """The bots to move now, and whether they only may (optional moves, see above)."""
        seats = self.seats_to_move(live)
        return (seats, False) if seats else (self.optional_seats(live), True)

    def reveal_window(self, live: LiveTable) -> float:
        """Seconds the bots wait before completing a simultaneous choice that a person may still take back.

        In a simultaneous game the bots choose after the people; their choice completes the step and
        reveals it. A person who chose may undo until then: this window (three bot delays, at most
        ``REVEAL_WINDOW`` seconds) makes that a real chance rather than a race against one bot delay.
        """
        if not live.game.simultaneous or not self.delay:
            return 0.0
        people = [s.seat for s in live.row.seats if not live.is_bot(s.seat)]
        if any(can_undo(live, s) for s in people):
            return min(REVEAL_WINDOW, 3 * self.delay)
        return 0.0

    async def _queue(self, live: LiveTable) -> None:
        """Queue the bots' turn for the workers, after the reveal window if there is one."""
        while not self.closing and (window := self.reveal_window(live)):
            at, state = len(live.moves), live.state
            await asyncio.sleep(window)
            if len(live.moves) == at and live.state is state:
                break
            if not self.seats_to_move(live):
                return  # undone meanwhile: the person's next move kicks the bots again
        await self.workers.enqueue(live)

    def kick(self, live: LiveTable) -> None:
        """Start the table's bot runner if bots are to move and none runs."""
        if self.closing or (live.bot_task is not None and not live.bot_task.done()):
            return
        if self.seats_to_move(live):
            if self.workers is not None:
                live.bot_task = asyncio.create_task(self._queue(live))
            else:
                live.bot_task = asyncio.create_task(self._run(live))
        elif self.optional_seats(live):
            live.bot_task = asyncio.create_task(self._run(live))

    async def apply_worker_moves(self, table_id: str, version: int, chosen: list[tuple[int, object]]) -> int:
        """Moves a bot worker chose at move ``version``: checked and played like a person's; the move count.

        Only seats whose bots are to move now are played; Conflict if the table moved on meanwhile.
        """
        live = await self.get(table_id)
        async with live.lock:
            if len(live.moves) < version:  # another process moved it on: catch up first
                await self.refresh_locked(live)
            if len(live.moves) != version:
                raise Conflict(f"stale bot move: chosen at move {version}, the table is at move {len(live.moves)}")
            for seat, action_json in chosen:
                if seat not in dict(self.seats_to_move(live)):
                    break
                try:
                    action = live.game.action_from_json(action_json)
                except RobotableError as exc:
                    raise from_game_error(exc) from None
                await self.apply_locked(live, seat, action, "bot")
        self.kick(live)
        return len(live.moves)

    async def _run(self, live: LiveTable) -> None:
        """Move bots until a person (or nobody) is to act; thinking runs in a worker thread.

        A failure (a database hiccup) is logged and tried again with backoff: it never stops the table.
        """
        failures = 0
        while not self.closing:
            try:
                await self._move(live)
                return
            except asyncio.CancelledError:
                raise
            except Exception:
                failures += 1
                log.exception("the bots of table %s failed (attempt %d); trying again", live.id, failures)
                await asyncio.sleep(min(30.0, 0.25 * 2 ** (failures - 1)))
                live = await self.get(live.id)

    async def _move(self, live: LiveTable) -> None:
        while not self.closing:
            seats, optional = self._movers(live)
            if not seats:
                return
            if not optional and self.workers is not None:
                await self._queue(live)  # an optional move asked a bot something: the workers' turn
                return
            delay = self.delay + (0.0 if optional else self.reveal_window(live))
            if delay:
                await asyncio.sleep(delay)
                seats, optional = self._movers(live)  # an undo or a hand-over may have changed it
                if not seats:
                    return
            at = len(live.moves)
            state = live.state
            if optional:
                live.optional_at = at
            choose = bots.choose_optional_moves if optional else bots.choose_moves
            chosen = await asyncio.to_thread(choose, state, seats, live.row.seed, at)
            async with live.lock:
                if len(live.moves) != at or live.state is not state:
                    continue  # undo or a hand-over happened meanwhile: look again
                for seat, action in chosen:
                    if not live.is_bot(seat):
                        break
                    try:
                        await self.apply_locked(live, seat, action, "bot")
                    except Raced:
                        break  # another process moved the table on: look again
