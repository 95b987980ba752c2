"""Creating tables (:class:`Creator`): a new table from a request, or the next game of a finished one."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from robotable import games
from robotable.core import BadInput, Game, RobotableError, State

from .. import bots, clocks, invites, reputation
from ..accounts import Account
from ..errors import ApiError, Conflict, Forbidden, from_game_error
from ..schemas import CreateTable, SeatSpec
from ..storage import SeatRow, Storage, TableRow, now
from .live import POSITION_KEY, LiveTable, new_id, public_options
from .seats import seats_of


class Creator:
    """Makes tables and puts them in ``live``; ``allow_positions``: test servers start from written positions."""

    def __init__(
        self,
        live: dict[str, LiveTable],
        get: Callable[[str], Awaitable[LiveTable]],
        storage: Storage,
        clock_keeper: clocks.Clocks,
        ensure_fresh: Callable[[LiveTable], Awaitable[None]],
        publish: Callable[[LiveTable, str], None],
        kick_bots: Callable[[LiveTable], None],
        allow_positions: bool = False,
    ) -> None:
        self.live = live
        self.get = get
        self.storage = storage
        self.clocks = clock_keeper
        self.ensure_fresh = ensure_fresh
        self.publish = publish
        self.kick_bots = kick_bots
        self.allow_positions = allow_positions

    async def create(self, req: CreateTable, account: Account) -> tuple[LiveTable, dict[int, str]]:
        """A new table made by ``account``; returns it and an invite code for each person seat it does not play.

        The creator plays the first person seat; on a hotseat table (chosen here, never rated) it plays
        every person seat from one device, and there are no invites.
        """
        try:
            game = games.load(req.game)
            if req.position is not None:
                state = self.position_state(game, req)
            else:
                state = game.start(req.num_players, seed=req.seed, options=req.options)
        except RobotableError as exc:
            raise from_game_error(exc) from None
        specs = req.seats or [SeatSpec(kind="human")] + [
            SeatSpec(kind="bot", difficulty="random") for _ in range(req.num_players - 1)
        ]
        if len(specs) != req.num_players:
            raise ApiError(f"seats lists {len(specs)} seats but num_players is {req.num_players}")
        people = sum(spec.kind != "bot" for spec in specs)
        # the creator takes a seat too: a table cannot ask more than its creator has
        await asyncio.to_thread(reputation.check_may_sit, self.storage, account.id, req.min_reputation)
        control = clocks.choose(game.id, req.time_control)
        if req.seed is not None and people > 1 and not self.allow_positions:
            # the seed fixes every shuffle: whoever chose it could work out the others' hidden cards
            raise Forbidden(
                "a chosen seed is only for a game of one person against bots (it fixes every shuffle, "
                "so the others' hidden cards could be worked out); test servers allow it"
            )
        seats = [new_seat_row(i, spec) for i, spec in enumerate(specs)]
        people_seats = [seat for seat in seats if seat.kind == "human"]
        for seat in people_seats if req.hotseat else people_seats[:1]:
            seat.account_id = account.id
        if people_seats and specs[people_seats[0].seat].name is None:
            people_seats[0].name = account.display_name
        stamp = now()
        row = TableRow(
            id=new_id(),
            game=game.id,
            num_players=req.num_players,
            seed=state.seed,
            options=dict(state.options) if req.position is None else {**state.options, POSITION_KEY: state.to_json()},
            status="running",
            num_moves=0,
            result=None,
            next_table=None,
            parent=None,
            created_at=stamp,
            updated_at=stamp,
            seats=seats,
            created_by=account.id,
            hotseat=req.hotseat,
            # hotseat tables, chosen seeds, written positions and tables with hints are never rated
            rated=not req.hotseat and not req.hints and req.seed is None and req.position is None,
            hints=req.hints,
            min_reputation=req.min_reputation,
        )
        live = LiveTable(row, game, state, waiting=[state.to_act()])
        row.status, row.to_act = live.status(), state.to_act()
        live = await self.store(live, control)
        codes = {
            seat.seat: await asyncio.to_thread(invites.create_invite, self.storage, row.id, seat.seat, account.id)
            for seat in people_seats
            if seat.account_id is None
        }
        self.kick_bots(live)
        return live, codes

    async def store(self, live: LiveTable, control: clocks.TimeControl) -> LiveTable:
        """Store a new table with its clocks in one transaction (the clocks of the seats it waits for
        running), and keep it here: nobody, in this process or another, reads the table without its
        clocks (a table read without them gets the game's default control). Answers the table kept (the
        one a request here loaded meanwhile, if any: the same stored table). Raises what the insert
        raises (IntegrityError: a table of that id exists)."""
        clock = self.clocks.born(control, live.row.seats, self.clocks.owing(live))

        def write() -> None:
            self.storage.create_table(live.row, beside=lambda conn: self.clocks.insert(conn, live.id, clock))
            self.clocks.cache.setdefault(live.id, clock)

        await asyncio.to_thread(write)
        return self.live.setdefault(live.id, live)

    def position_state(self, game: Game, req: CreateTable) -> State:
        """The state of a table started from a written position (servers with ``allow_positions`` only)."""
        if not self.allow_positions:
            raise Forbidden("this server does not start tables from written positions (test servers only)")
        if req.options:
            raise ApiError("give either options or a position (the position holds its options)")
        if req.seed is not None:
            raise ApiError("give either a seed or a position (the position holds its random generator)")
        data = dict(req.position or {})
        if data.setdefault("num_players", req.num_players) != req.num_players:
            raise ApiError(f"the position is for {data['num_players']} players, not {req.num_players}")
        state = game.state_from_json(data)
        if state.is_over():
            raise ApiError("the position is a finished game")
        return state

    async def again(self, table_id: str, account: Account) -> LiveTable:
        """Play again: a new table with the same seats and the same people, linked from this one."""
        live = await self.get(table_id)
        if not seats_of(live, account):
            raise Forbidden("only the table's players can start the next game")
        if not live.state.is_over():
            raise Conflict("the game is not over yet")
        if live.row.next_table:
            return await self.get(live.row.next_table)
        options = public_options(live.row.options)
        req = CreateTable(game=live.row.game, num_players=live.row.num_players, options=options, seats=[])
        seats = []
        for s in live.row.seats:
            if s.kind == "bot":
                seats.append(SeatRow(s.seat, "bot", s.name, s.difficulty))
            elif s.kind == "human":
                seats.append(SeatRow(s.seat, "human", s.name, account_id=s.account_id))
            else:
                seats.append(SeatRow(s.seat, "open", s.name))
        new = await self.create_with_seats(
            req, seats, parent=live.id, like=live.row, control=self.clocks.of(live).control
        )
        await asyncio.to_thread(self.storage.link_next, live.id, new.id)
        await self.ensure_fresh(live)  # ours, or whoever pressed first
        self.publish(live, "table")
        return await self.get(live.row.next_table or new.id)

    async def create_with_seats(
        self, req: CreateTable, seats: list[SeatRow], parent: str, like: TableRow, control: clocks.TimeControl
    ) -> LiveTable:
        game = games.load(req.game)
        state = game.start(req.num_players, seed=None, options=req.options)
        stamp = now()
        row = TableRow(
            new_id(),
            game.id,
            req.num_players,
            state.seed,
            dict(state.options),
            "running",
            0,
            None,
            None,
            parent,
            stamp,
            stamp,
            seats,
            created_by=like.created_by,
            hotseat=like.hotseat,
            rated=like.rated,
            hints=like.hints,
            min_reputation=like.min_reputation,
        )
        live = LiveTable(row, game, state, waiting=[state.to_act()])
        row.status, row.to_act = live.status(), state.to_act()
        live = await self.store(live, control)
        self.kick_bots(live)
        return live


def new_seat_row(i: int, spec: SeatSpec) -> SeatRow:
    """Seat ``i`` of a new table as its request describes it."""
    if spec.kind == "bot":
        try:
            difficulty = bots.check_difficulty(spec.difficulty)
        except BadInput as exc:
            raise ApiError(f"seat {i + 1}: {exc}") from None
        return SeatRow(i, "bot", spec.name or f"Bot {i + 1}", difficulty)
    if spec.difficulty is not None:
        raise ApiError(f"seat {i + 1}: only bot seats take a difficulty")
    if spec.kind == "open":
        return SeatRow(i, "open", spec.name or f"Open seat {i + 1}")
    return SeatRow(i, "human", spec.name or f"Player {i + 1}")
