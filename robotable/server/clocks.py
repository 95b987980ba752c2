"""Table clocks: time controls, per-seat clocks kept as deadlines in the database, time-outs fired once,
and the hand-over policy (when the others may hand a seat to a bot). See docs/server.md, "Clocks".

A table's time control is chosen at creation:

- ``live``: each seat has a bank of time (``base`` seconds) that runs down while the game waits for it,
  and gains ``increment`` seconds each time the seat hands the move on. The defaults are the game's own
  (``data/time_control.json`` in its package). A live clock may go below zero: the player may still move
  until someone hands the seat to a bot.
- ``turn``: turn-based, 1, 2 or 3 days for each move.

A running clock is stored as its deadline (a timestamp), a stopped one as the time it has left, so a
restarted server (or another process) reads the same clocks. Every seat the game waits for has its
clock running, several at once in a simultaneous choice; bots, seats handed to bots and open seats have
no running clock.

A table with a seat nobody has taken (an open seat, or a person seat whose invite is not yet accepted) is
**waiting for players**: no clock runs, no grace counts down and no person's seat can be handed to a bot.
The clocks start, every one fresh, when the last seat is taken (:meth:`Clocks.table_full`): that is the
game's start for its players, as on Board Game Arena.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, Any, overload

from sqlalchemy import (
    and_,
    bindparam,
    delete,
    insert,
    select,
    update,
)

from robotable import games
from robotable.core import RobotableError

from . import bots
from .errors import ApiError, Conflict
from .storage import RowUpdate, SeatRow, Storage, now, rows_beside
from .storage.schema import clocks_table, seat_clocks_table, seat_notes_table

if TYPE_CHECKING:
    from collections.abc import Collection

    from sqlalchemy import Connection

    from .schemas import TimeControlSpec
    from .table.live import LiveTable

log = logging.getLogger("robotable.server")

LIVE, TURN = "live", "turn"
#: Days per move a turn-based table may take.
TURN_DAYS = (1, 2, 3)
#: The live time control of a game that declares none.
DEFAULT_LIVE = {"base": 600, "increment": 30}
DAY_MS = 86_400_000
#: A player who takes their seat back from a bot has at least this on a live clock (or the base time,
#: if that is shorter).
RECLAIM_MS = 60_000


def _seat_key(table_id: str, seat: int) -> tuple[Any, Any]:
    """Where-clauses of one seat's clock row."""
    return seat_clocks_table.c.table_id == table_id, seat_clocks_table.c.seat == seat


#: Some columns of one seat's clock (the columns written are the parameters not named at_*), built once.
_SET_SEAT_CLOCK = update(seat_clocks_table).where(
    seat_clocks_table.c.table_id == bindparam("at_table"), seat_clocks_table.c.seat == bindparam("at_seat")
)


#: The tables of a table's clocks (its time control, its seats' clocks, its notes), as read together.
CLOCK_TABLES = (clocks_table, seat_clocks_table, seat_notes_table)


@overload
def _when(value: datetime | str) -> datetime: ...
@overload
def _when(value: None) -> None: ...
def _when(value: datetime | str | None) -> datetime | None:
    """A stored time (a datetime, or ISO text from PostgreSQL's JSON) in UTC."""
    if value is None:
        return None
    return _utc(datetime.fromisoformat(value) if isinstance(value, str) else value)


@dataclass(frozen=True)
class TimeControl:
    """A table's time control (see the module docstring)."""

    kind: str
    base: int = 0
    increment: int = 0
    days: int = 0

    @property
    def allowance_ms(self) -> int:
        """A fresh clock: the base time (live) or one move's days (turn-based)."""
        return self.base * 1000 if self.kind == LIVE else self.days * DAY_MS

    def label(self) -> str:
        """``5 min + 20 s`` or ``2 days per move``."""
        if self.kind == TURN:
            return f"{self.days} day{'s' if self.days > 1 else ''} per move"
        base = f"{self.base // 60} min" if self.base % 60 == 0 and self.base >= 60 else f"{self.base} s"
        return f"{base} + {self.increment} s"

    def to_json(self) -> dict[str, Any]:
        if self.kind == TURN:
            return {"kind": TURN, "days": self.days, "label": self.label()}
        return {"kind": LIVE, "base": self.base, "increment": self.increment, "label": self.label()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TimeControl:
        """A stored time control."""
        if data.get("kind") == TURN:
            return cls(TURN, days=int(data["days"]))
        return cls(LIVE, base=int(data["base"]), increment=int(data["increment"]))


@lru_cache(maxsize=32)
def game_default(game_id: str) -> TimeControl:
    """The game's default live time control, from ``time_control.json`` in its package's data folder."""
    try:
        folder = games.load(game_id).data_folder()
        path = folder / "time_control.json" if folder is not None else None
        live = json.loads(path.read_text())["live"] if path is not None and path.is_file() else DEFAULT_LIVE
    except (OSError, ValueError, KeyError, TypeError, RobotableError):
        log.warning("game %s: unreadable time_control.json, using %s", game_id, DEFAULT_LIVE)
        live = DEFAULT_LIVE
    return TimeControl(LIVE, base=int(live["base"]), increment=int(live["increment"]))


def choose(game_id: str, spec: TimeControlSpec | None) -> TimeControl:
    """The time control of a new table: the request's, completed by the game's defaults."""
    default = game_default(game_id)
    if spec is None:
        return default
    if spec.kind == TURN:
        if spec.base is not None or spec.increment is not None:
            raise ApiError("time_control: a turn-based table takes days, not base or increment")
        return TimeControl(TURN, days=spec.days or 1)
    if spec.days is not None:
        raise ApiError("time_control: a live table takes base and increment, not days")
    base = default.base if spec.base is None else spec.base
    increment = default.increment if spec.increment is None else spec.increment
    return TimeControl(LIVE, base=base, increment=increment)


@dataclass(frozen=True)
class ClockSettings:
    """Server-wide clock settings (environment variables, for operators and tests)."""

    #: Seconds a disconnected player of a live table keeps their seat before the others may hand it to
    #: a bot (``ROBOTABLE_GRACE_SECONDS``).
    grace: float = 90.0
    #: Seconds between two looks for time-outs (``ROBOTABLE_CLOCK_TICK``).
    tick: float = 1.0

    @classmethod
    def from_env(cls) -> ClockSettings:
        return cls(
            grace=env_seconds("ROBOTABLE_GRACE_SECONDS", cls.grace),
            tick=env_seconds("ROBOTABLE_CLOCK_TICK", cls.tick, minimum=0.01),
        )


def env_seconds(name: str, default: float, minimum: float = 0.0) -> float:
    """A number of seconds from the environment; a clear error naming the variable if it is not one."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise RuntimeError(f"{name} must be a number of seconds, got {raw!r}") from None
    if not minimum <= value < 10**9:
        raise RuntimeError(f"{name} must be at least {minimum} seconds, got {raw!r}")
    return value


@dataclass
class SeatClock:
    """One seat's clock."""

    seat: int
    remaining_ms: int
    deadline: datetime | None = None
    timed_out: bool = False
    away_deadline: datetime | None = None

    @property
    def running(self) -> bool:
        return self.deadline is not None

    def left_ms(self, at: datetime) -> int:
        """Time left at ``at`` (negative once run out, on a live clock)."""
        if self.deadline is None:
            return self.remaining_ms
        return (self.deadline - at) // _MS  # exact integer arithmetic (floats lose a millisecond)


@dataclass
class TableClock:
    """A table's time control, its seats' clocks and the notes of time-outs and hand-overs."""

    control: TimeControl
    seats: list[SeatClock]
    notes: list[dict[str, Any]] = field(default_factory=list)


_MS = timedelta(milliseconds=1)


def seat_untaken(seat: SeatRow) -> bool:
    """Nobody has taken this seat yet: an open seat, or a person seat whose invite is not yet accepted."""
    return seat.kind == "open" or (seat.kind == "human" and seat.account_id is None)


def waiting_for_players(seats: list[SeatRow]) -> bool:
    """A table with a seat nobody has taken waits for its players: its clocks have not started."""
    return any(seat_untaken(s) for s in seats)


def _ms(ms: int) -> timedelta:
    return timedelta(milliseconds=ms)


class Clocks:
    """Every table's clock: stored in the database, cached per live table, changed only through here."""

    def __init__(self, storage: Storage, settings: ClockSettings | None = None) -> None:
        self.storage = storage
        self.settings = settings or ClockSettings.from_env()
        self.cache: dict[str, TableClock] = {}
        # a presence write and a hand-over check's fresh read are one step each for the other (both run
        # in worker threads), so the read never puts back what a presence write has just changed
        self._presence = threading.Lock()

    # -- storage ----------------------------------------------------------------------------------

    def born(
        self, control: TimeControl, seats: list[SeatRow], owing: Collection[int] = (), at: datetime | None = None
    ) -> TableClock:
        """A new table's clocks, not stored yet: every person starts away until their page connects (on
        a table waiting for players nobody is away yet: the countdowns start with the game,
        :meth:`table_full`), and the clocks of ``owing`` (:meth:`owing`) run from ``at``."""
        at = at or now()
        away = None if waiting_for_players(seats) else at + timedelta(seconds=self.settings.grace)
        return TableClock(
            control,
            [
                SeatClock(
                    s.seat,
                    control.allowance_ms,
                    at + _ms(control.allowance_ms) if s.seat in owing else None,
                    away_deadline=away if s.kind == "human" else None,
                )
                for s in seats
            ],
        )

    @staticmethod
    def insert(conn: Connection, table_id: str, clock: TableClock) -> None:
        """Store a new table's clocks in the caller's transaction: the table's own, so that nobody ever
        reads the table without them (and gives it the game's default, :meth:`of`)."""
        conn.execute(insert(clocks_table).values(table_id=table_id, control=clock.control.to_json()))
        conn.execute(
            insert(seat_clocks_table),
            [
                {
                    "table_id": table_id,
                    "seat": c.seat,
                    "remaining_ms": c.remaining_ms,
                    "deadline": c.deadline,
                    "timed_out": False,
                    "away_deadline": c.away_deadline,
                }
                for c in clock.seats
            ],
        )

    def create(
        self, table_id: str, control: TimeControl, seats: list[SeatRow], owing: Collection[int] = ()
    ) -> TableClock:
        """Store the clocks of a table stored without them (:meth:`born`, in a transaction of their own)."""
        clock = self.born(control, seats, owing)
        with self.storage.transaction() as conn:
            self.insert(conn, table_id, clock)
        self.cache[table_id] = clock
        return clock

    def load(self, table_id: str) -> TableClock | None:
        """A table's clocks as stored, or None for a table stored before clocks existed."""
        with self.storage.read() as conn:
            return self.from_rows(rows_beside(conn, table_id, CLOCK_TABLES))

    @staticmethod
    def from_rows(rows: list[list[dict[str, Any]]]) -> TableClock | None:
        """A table's clocks from its stored rows of :data:`CLOCK_TABLES` (each a list of column mappings,
        in key order; times as datetimes or as ISO text, the way PostgreSQL's JSON writes them), or None
        for a table stored before clocks existed."""
        controls, seats, notes = rows
        if not controls:
            return None
        return TableClock(
            TimeControl.from_json(dict(controls[0]["control"])),
            [
                SeatClock(
                    int(r["seat"]),
                    int(r["remaining_ms"]),
                    _when(r["deadline"]),
                    bool(r["timed_out"]),
                    _when(r["away_deadline"]),
                )
                for r in seats
            ],
            [
                {
                    "seat": r["seat"],
                    "kind": r["kind"],
                    "move": r["move"],
                    "detail": r["detail"],
                    "at": _when(r["at"]).isoformat(),
                }
                for r in notes
            ],
        )

    def forget(self, table_id: str) -> None:
        """Drop the cached clocks (the next use reads them again)."""
        self.cache.pop(table_id, None)

    def of(self, live: LiveTable) -> TableClock:
        """The table's clocks (a table stored before clocks existed gets the game's default now)."""
        clock = self.cache.get(live.id)
        if clock is None:
            clock = self.load(live.id)
            if clock is None:
                clock = self.create(live.id, game_default(live.row.game), live.row.seats, self.owing(live))
            self.cache[live.id] = clock
        return clock

    def _store(self, table_id: str, seat: int, **values: Any) -> None:
        """Write some fields of a seat's clock (only those: ``timed_out`` is the time-out firer's)."""
        with self.storage.transaction() as conn:
            conn.execute(_SET_SEAT_CLOCK, values | {"at_table": table_id, "at_seat": seat})

    def note(self, live: LiveTable, seat: int, kind: str, detail: str) -> None:
        """Write a time-out or hand-over into the table's notes (shown with the result and the record)."""
        clock = self.of(live)  # read before the insert, which it would otherwise hold already
        stamp = now()
        entry = {"seat": seat, "kind": kind, "move": len(live.moves), "detail": detail[:120], "at": stamp}
        with self.storage.transaction() as conn:
            conn.execute(insert(seat_notes_table).values(table_id=live.id, **entry))
        clock.notes.append({**entry, "at": stamp.isoformat()})

    def drop(self, table_id: str) -> None:
        """Remove a table's clocks and notes (an expired table)."""
        with self.storage.transaction() as conn:
            for t in (seat_clocks_table, clocks_table):
                conn.execute(delete(t).where(t.c.table_id == table_id))
        self.forget(table_id)

    # -- running and stopping -----------------------------------------------------------------------

    @staticmethod
    def owing(live: LiveTable, state: Any = None, status: str | None = None) -> set[int]:
        """Seats whose clock runs: people (not bots, not handed to bots, not open) the game waits for (in
        ``state`` with ``status``, a move's outcome not yet stored, when given; else the table's own)."""
        state = live.state if state is None else state
        status = live.row.status if status is None else status
        if state.is_over() or status in ("finished", "expired") or waiting_for_players(live.row.seats):
            return set()
        return {s for s in state.to_act() if live.seat(s).kind == "human" and not live.is_bot(s)}

    def plan_sync(self, live: LiveTable, owing: set[int], at: datetime) -> list[tuple[int, dict[str, Any]]]:
        """The writes that start the clocks of ``owing`` and stop the others at ``at``, changing nothing
        yet: each ``(seat, fields)``, stored by :meth:`write` (in the caller's transaction, such as the
        move's own) and then taken into memory by :meth:`take`.

        A stopping live clock keeps what it has left plus the increment; a turn-based one is reset for
        the next move. Starting a clock clears its fired time-out.
        """
        clock = self.of(live)
        writes: list[tuple[int, dict[str, Any]]] = []
        for c in clock.seats:
            if c.running and c.seat not in owing:
                if clock.control.kind == LIVE:
                    remaining = c.left_ms(at) + clock.control.increment * 1000
                else:
                    remaining = clock.control.allowance_ms
                writes.append((c.seat, {"remaining_ms": remaining, "deadline": None}))
            elif not c.running and c.seat in owing:
                writes.append((c.seat, {"deadline": at + _ms(c.remaining_ms), "timed_out": False}))
        return writes

    @staticmethod
    def updates(table_id: str, writes: list[tuple[int, dict[str, Any]]]) -> list[RowUpdate]:
        """:meth:`plan_sync`'s writes as rows to update (in the caller's transaction, such as the move's)."""
        return [RowUpdate(seat_clocks_table, {"table_id": table_id, "seat": seat}, values) for seat, values in writes]

    def take(self, live: LiveTable, writes: list[tuple[int, dict[str, Any]]]) -> None:
        """Take stored writes into the clocks in memory."""
        clock = self.cache.get(live.id)
        if clock is None:
            return  # read on next use
        for seat, values in writes:
            for name, value in values.items():
                setattr(clock.seats[seat], name, value)

    def sync(self, live: LiveTable, at: datetime | None = None) -> bool:
        """Start the clocks of the seats the game now waits for and stop the others, in one transaction;
        True if any changed (see :meth:`plan_sync`)."""
        writes = self.plan_sync(live, self.owing(live), at or now())
        if writes:
            self.storage.write_rows(self.updates(live.id, writes))
            self.take(live, writes)
        return bool(writes)

    def reclaimed(self, live: LiveTable, seat: int) -> None:
        """A player took their seat back from a bot: a live clock has at least a minute (or its base)."""
        clock = self.of(live)
        c = clock.seats[seat]
        if clock.control.kind == LIVE and not c.running:
            c.remaining_ms = max(c.remaining_ms, min(RECLAIM_MS, clock.control.allowance_ms))
        c.away_deadline = None
        self._store(live.id, seat, remaining_ms=c.remaining_ms, away_deadline=None)

    def table_full(self, live: LiveTable, connected: set[int], at: datetime | None = None) -> None:
        """The last seat was taken: the game starts for its players. Every clock starts fresh (what it
        had, or any time-out, while the table waited does not count), the people whose page is not
        connected start their grace countdown from now, and the seats the game waits for start running."""
        at = at or now()
        clock = self.of(live)
        away = at + timedelta(seconds=self.settings.grace)
        writes: list[tuple[int, dict[str, Any]]] = []
        for c in clock.seats:
            person = live.seat(c.seat).kind == "human" and not live.is_bot(c.seat)
            values = {
                "remaining_ms": clock.control.allowance_ms,
                "deadline": None,
                "timed_out": False,
                "away_deadline": away if person and c.seat not in connected else None,
            }
            writes.append((c.seat, values))
        self.storage.write_rows(self.updates(live.id, writes))
        self.take(live, writes)
        self.sync(live, at)

    # -- presence ---------------------------------------------------------------------------------

    @staticmethod
    def is_over(live: LiveTable) -> bool:
        """The game is over or the table expired: no grace counts down and no seat is handed over."""
        return live.row.status in ("finished", "expired") or live.state.is_over()

    def presence(self, live: LiveTable, seat: int | None, connected: set[int]) -> bool:
        """A seat's page connected or left: start or clear its grace countdown; True if it changed.

        A game that is over has no countdown (nothing is handed over, no clock runs): its players' pages
        closing, as they all do when it ends, write nothing; nor has a table waiting for players."""
        if seat is None or not 0 <= seat < live.row.num_players or self.is_over(live):
            return False
        if waiting_for_players(live.row.seats):
            return False  # nobody is away from a game that has not started
        away = seat_clocks_table.c.away_deadline
        deadline = None if seat in connected else now() + timedelta(seconds=self.settings.grace)
        # stored first, then shown: a hand-over checked meanwhile reads the database, and must not find
        # it behind what the table's summary already showed. Whether there is a change is the database's
        # to say (the clocks in memory may have been read again by another process's news meanwhile).
        with self._presence:
            with self.storage.transaction() as conn:
                changed = conn.execute(
                    update(seat_clocks_table)
                    .where(*_seat_key(live.id, seat), away.is_(None) if deadline is not None else away.is_not(None))
                    .values(away_deadline=deadline)
                ).rowcount
                if not changed:  # as stored
                    deadline = _when(conn.execute(select(away).where(*_seat_key(live.id, seat))).scalar())
            self.of(live).seats[seat].away_deadline = deadline
        return bool(changed)

    # -- the hand-over policy -----------------------------------------------------------------------

    def why_not_hand_over(self, live: LiveTable, target: int, connected: set[int], at: datetime) -> str | None:
        """None if the others may hand ``target`` to a bot now, else the reason they may not.

        A person's seat may be handed over once its clock has run out, or, on a live table, once its
        player has been disconnected for the whole grace period. An open seat (nobody took it) may be
        filled by a bot at any time. While the table waits for players, no person's seat is handed over.
        """
        row = live.seat(target)
        if row.kind == "open":
            return None
        if waiting_for_players(live.row.seats):
            return (
                f"seat {target + 1} cannot be handed to a bot: the table is waiting for players "
                "(no clock runs and no seat is handed over until every seat is taken)"
            )
        clock = self.of(live)
        c = clock.seats[target]
        if c.left_ms(at) <= 0:
            return None
        live_table = clock.control.kind == LIVE
        if live_table and target not in connected and c.away_deadline is not None and c.away_deadline <= at:
            return None
        parts = [f"its clock has {_duration(c.left_ms(at))} left"]
        if live_table and target in connected:
            parts.append("its player is connected")
        elif live_table and c.away_deadline is not None:
            parts.append(f"its player is away and has {(c.away_deadline - at).total_seconds():.0f} s more to come back")
        rule = "once its clock runs out"
        if live_table:
            rule += f", or once its player has been away for the whole grace period ({self.settings.grace:.0f} s)"
        reasons = " and ".join(parts)
        return f"seat {target + 1} cannot be handed to a bot yet: {reasons} (a seat can be handed over {rule})"

    def check_hand_over(self, live: LiveTable, target: int, connected: set[int]) -> None:
        """Conflict naming the reason unless ``target`` may be handed to a bot now."""
        # the database is the truth: another process may have moved the clocks on
        with self._presence:
            fresh = self.load(live.id)
            if fresh is not None:
                self.cache[live.id] = fresh
        reason = self.why_not_hand_over(live, target, connected, now())
        if reason is not None:
            raise Conflict(reason)

    # -- time-outs --------------------------------------------------------------------------------

    def fire_due(self, at: datetime | None = None) -> list[tuple[str, int]]:
        """Mark every run-out clock as timed out; returns the ``(table, seat)`` this process fired.

        Each time-out is fired once over every process sharing the database: the conditional update
        (``timed_out`` still false) is a compare-and-set on the row, and only the process whose update
        changed the row reports it.
        """
        at = at or now()
        c = seat_clocks_table.c
        due = and_(c.deadline.is_not(None), c.deadline <= at, c.timed_out.is_(False))
        fired = []
        with self.storage.read() as conn:
            candidates = [(r.table_id, r.seat) for r in conn.execute(select(c.table_id, c.seat).where(due).limit(500))]
        for table_id, seat in candidates:
            with self.storage.transaction() as conn:
                done = conn.execute(
                    update(seat_clocks_table).where(c.table_id == table_id, c.seat == seat, due).values(timed_out=True)
                )
            if done.rowcount == 1:
                fired.append((table_id, seat))
        return fired

    # -- what clients see -------------------------------------------------------------------------

    def view(self, live: LiveTable, connected: set[int]) -> dict[str, Any] | None:
        """The clocks as the table summary shows them: durations at the server's ``now``, so a browser
        ticks them down from the moment it receives them, whatever its own clock says."""
        try:
            clock = self.of(live)
        except (RobotableError, OSError):
            return None
        at = now()
        over = self.is_over(live)
        seats = []
        for c in clock.seats:
            away_ms = None
            if clock.control.kind == LIVE and c.away_deadline is not None and c.seat not in connected and not over:
                away_ms = max(0, (c.away_deadline - at) // _MS)
            seats.append(
                {
                    "seat": c.seat,
                    "running": c.running,
                    "left_ms": c.left_ms(at),
                    "deadline": c.deadline.isoformat() if c.deadline else None,
                    "timed_out": c.left_ms(at) <= 0,
                    "away_ms": away_ms,
                    "can_hand_over": self.why_not_hand_over(live, c.seat, connected, at) is None
                    and live.seat(c.seat).kind != "bot"
                    and not live.seat(c.seat).handed_to_bot
                    and not over,
                }
            )
        return {
            "control": clock.control.to_json(),
            "waiting": waiting_for_players(live.row.seats) and not over,
            "hand_over_level": bots.hand_over_level(clock.control.to_json()),
            "now": at.isoformat(),
            "grace": self.settings.grace,
            "seats": seats,
            "notes": list(clock.notes),
        }


def _duration(ms: int) -> str:
    seconds = max(0, ms) // 1000
    if seconds >= 86400:
        return f"{seconds // 86400} d {seconds % 86400 // 3600} h"
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60} min"
    return f"{seconds // 60}:{seconds % 60:02d}"


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)
