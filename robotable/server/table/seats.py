"""Who plays which seat: checks (:func:`check_seat`, :func:`seats_of`) and seat changes (:class:`Seats`):
invites, claiming an open seat, handing a gone player's seat to a bot and taking it back."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from robotable.core import BadInput

from .. import bots, clocks, invites, reputation
from ..accounts import Account
from ..errors import ApiError, Conflict, Forbidden, NotFound, Unauthorized
from ..storage import SeatRow, StaleTable, Storage
from .live import RETRIES, LiveTable, Raced, no_such_seat


def check_seat(live: LiveTable, seat: int, account: Account | None) -> SeatRow:
    """The seat, if ``account`` plays it: 401 when signed out, 403 for anyone else's seat."""
    if not isinstance(seat, int) or not 0 <= seat < live.row.num_players:
        raise NotFound(no_such_seat(live, seat))
    if account is None:
        raise Unauthorized("sign in to play a seat (or continue as a guest)", code="app:errors.sign_in")
    row = live.seat(seat)
    if row.account_id != account.id:
        raise Forbidden(
            f"seat {seat + 1} is not yours: only the account that took it can see and play it",
            code="app:errors.not_your_seat",
            params={"seat": seat + 1},
        )
    return row


def seats_of(live: LiveTable, account: Account | None) -> list[int]:
    """The seats ``account`` plays at this table."""
    if account is None:
        return []
    return [s.seat for s in live.row.seats if s.account_id == account.id]


class Seats:
    """Seat changes, each a compare-and-set on the stored seats with the clocks' bookkeeping after it."""

    def __init__(
        self,
        get: Callable[..., Awaitable[LiveTable]],
        storage: Storage,
        clock_keeper: clocks.Clocks,
        refresh_locked: Callable[[LiveTable], Awaitable[bool]],
        connected: Callable[[str], set[int]],
        publish: Callable[[LiveTable, str], None],
        kick_bots: Callable[[LiveTable], None],
    ) -> None:
        self.get = get
        self.storage = storage
        self.clocks = clock_keeper
        self.refresh_locked = refresh_locked
        self.connected = connected
        self.publish = publish
        self.kick_bots = kick_bots

    async def accept_invite(self, code: str, account: Account) -> LiveTable:
        """Bind the invited seat to ``account`` (one-time code); refused if it already plays at this table."""
        invite = invites.find_invite(self.storage, code)
        live = await self.get(invite.table_id)
        if live.state.is_over():
            raise Conflict("this table's game is over", code="app:errors.game_over")
        mine = seats_of(live, account)
        if mine:
            raise Conflict(
                f"you already play seat {mine[0] + 1} at this table: send this invite to the person it is for "
                "(one account plays one seat; hotseat tables are chosen when the table is made)",
                code="app:errors.already_playing",
                params={"seat": mine[0] + 1},
            )
        await asyncio.to_thread(reputation.check_may_sit, self.storage, account.id, live.row.min_reputation)
        async with live.lock:
            # one transaction: the code used up, the seat bound (only if still unbound), a new version
            await asyncio.to_thread(invites.accept_invite, self.storage, code, account.id, account.display_name)
            await self.refresh_locked(live)  # the stored seats, as every other process will read them
            await asyncio.to_thread(self.game_starts, live)
        self.publish(live, "seats")  # every page shows the new player's name at once (board and scores too)
        self.kick_bots(live)
        return live

    async def new_invite(self, table_id: str, seat: int, account: Account) -> str:
        """A new invite code for a person seat nobody has taken yet (the table's creator only)."""
        live = await self.get(table_id)
        if live.row.created_by != account.id:
            raise Forbidden("only the table's creator can invite players")
        if not 0 <= seat < live.row.num_players:
            raise NotFound(no_such_seat(live, seat))
        row = live.seat(seat)
        if row.kind != "human" or row.account_id is not None:
            raise Conflict(f"seat {seat + 1} is not waiting for an invited player")
        if live.state.is_over():
            raise Conflict("the game is over", code="app:errors.game_over")
        return await asyncio.to_thread(invites.create_invite, self.storage, live.id, seat, account.id)

    async def claim(self, table_id: str, seat: int, account: Account) -> None:
        """``account`` takes an open seat (one seat per account at a table that is not hotseat)."""
        live = await self.get(table_id, fresh=False)
        if not 0 <= seat < live.row.num_players:
            raise NotFound(no_such_seat(live, seat))
        if live.seat(seat).kind == "open" and not live.state.is_over():
            await asyncio.to_thread(reputation.check_may_sit, self.storage, account.id, live.row.min_reputation)

        def change(row: SeatRow) -> SeatRow:
            if row.kind != "open":
                raise Conflict(
                    f"seat {seat + 1} is not open", code="app:errors.seat_not_open", params={"seat": seat + 1}
                )
            if live.state.is_over():
                raise Conflict("the game is over", code="app:errors.game_over")
            mine = seats_of(live, account)
            if mine and not live.row.hotseat:
                raise Conflict(
                    f"you already play seat {mine[0] + 1} at this table",
                    code="app:errors.already_playing",
                    params={"seat": mine[0] + 1},
                )
            return SeatRow(seat, "human", account.display_name, account_id=account.id)

        def clocks_after() -> None:
            if self.game_starts(live):
                return
            self.clocks.presence(live, seat, self.connected(live.id))  # away until their page connects
            self.clocks.sync(live)

        await self.change_seat(live, seat, change, full=True, after=clocks_after)
        self.kick_bots(live)

    async def hand_to_bot(self, table_id: str, target: int, account: Account, difficulty: str | None) -> None:
        """Another player hands the seat of a player who has gone to a bot (zombie mode)."""
        live = await self.get(table_id)
        if not 0 <= target < live.row.num_players:
            raise NotFound(no_such_seat(live, target))
        playing = [s for s in seats_of(live, account) if not live.seat(s).handed_to_bot]
        if not playing:
            raise Forbidden("only people playing at this table can hand a seat over")
        if live.seat(target).account_id != account.id:  # the clock policy, on the stored clocks
            async with live.lock:  # clocks change in worker threads with the lock held (moves, seats)
                connected = self.connected(live.id)
                await asyncio.to_thread(self.clocks.check_hand_over, live, target, connected)
        try:
            spec = bots.check_difficulty(difficulty or bots.hand_over_level(self.clocks.of(live).control.to_json()))
        except BadInput as exc:
            raise ApiError(str(exc)) from None

        filled_open_seat = False  # the seat handed over was open: the table may be full now

        def change(row: SeatRow) -> SeatRow:
            nonlocal filled_open_seat
            if not any(live.seat(s).account_id == account.id and not live.seat(s).handed_to_bot for s in playing):
                raise Forbidden("only people playing at this table can hand a seat over")
            if row.account_id == account.id:
                raise Conflict("hand your own seat over by leaving; this is for a player who has gone")
            if row.kind == "bot" or row.handed_to_bot:
                raise Conflict(f"seat {target + 1} is already played by a bot")
            if row.kind == "open":  # nobody took it: it becomes a bot seat
                filled_open_seat = True
                return SeatRow(target, "bot", f"Bot {target + 1}", spec)
            filled_open_seat = False
            return SeatRow(target, row.kind, row.name, spec, True, row.account_id)

        def clocks_after() -> None:
            self.clocks.note(live, target, "handed_to_bot", f"handed to a bot ({spec}) by seat {playing[0] + 1}")
            reputation.seat_abandoned(self.storage, live.row, target)  # a person's seat: it was left
            if not (filled_open_seat and self.game_starts(live)):
                self.clocks.sync(live)

        await self.change_seat(live, target, change, full=True, after=clocks_after)
        self.kick_bots(live)

    async def reclaim(self, table_id: str, seat: int, account: Account) -> None:
        """A player who came back takes their seat back from the bot."""
        live = await self.get(table_id)

        def change(row: SeatRow) -> SeatRow:
            if row.account_id != account.id:
                raise Forbidden(
                    f"seat {seat + 1} is not yours: only the account that took it can see and play it",
                    code="app:errors.not_your_seat",
                    params={"seat": seat + 1},
                )
            if not row.handed_to_bot:
                raise Conflict(f"seat {seat + 1} is not played by a bot")
            return SeatRow(seat, row.kind, row.name, None, False, row.account_id)

        def clocks_after() -> None:
            self.clocks.reclaimed(live, seat)
            self.clocks.note(live, seat, "reclaimed", "taken back from the bot by its player")
            self.clocks.sync(live)

        await self.change_seat(live, seat, change, full=True, after=clocks_after)

    def game_starts(self, live: LiveTable) -> bool:
        """After a seat nobody had taken was taken: start the clocks if it was the last one the table
        waited for (in a worker thread, with the table's lock held); True if it was. A table that waits
        for players runs no clock; when the last seat is taken every clock starts fresh (docs/server.md,
        "Clocks")."""
        if clocks.waiting_for_players(live.row.seats) or self.clocks.is_over(live):
            return False
        self.clocks.table_full(live, self.connected(live.id))
        return True

    async def change_seat(
        self,
        live: LiveTable,
        seat: int,
        change: Callable[[SeatRow], SeatRow],
        full: bool = False,
        after: Callable[[], None] | None = None,
    ) -> None:
        """Compare-and-set one seat on the database row, deciding on the stored seats.

        ``after`` runs in a worker thread once the change is stored (the clocks' bookkeeping).

        ``change`` gets the seat as stored and answers the new seat (or raises a refusal). If another
        process changed the table meanwhile, the table catches up and ``change`` decides again, so a
        claim through one process and a hand-over through another never overwrite each other.
        """
        async with live.lock:
            await self.refresh_locked(live)
            for attempt in range(RETRIES + 1):
                before = live.seat(seat)
                changed = change(before)
                seats = [changed if s.seat == seat else s for s in live.row.seats]
                status = live.row.status
                if status == "open" and not any(s.kind == "open" for s in seats):
                    status = "running"
                try:
                    stamp = await asyncio.to_thread(
                        self.storage.change_seat, live.id, before, changed, live.row.version, status
                    )
                except StaleTable:
                    await self.refresh_locked(live)
                    if attempt == RETRIES:
                        raise Raced("the seats changed meanwhile; look again and retry") from None
                    continue
                live.row.seats[seat] = changed
                live.row.status, live.row.updated_at = status, stamp
                live.row.version += 1
                break
            if after is not None:
                await asyncio.to_thread(after)
        self.publish(live, "seats" if full else "table")
