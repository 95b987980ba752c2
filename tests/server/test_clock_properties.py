"""Clock invariants over random sequences of waits and moves (hypothesis), on a real SQLite database:
exactly the seats the game waits for run; a live clock's time left is its base, plus one increment per
hand-on, minus the time it ran; a turn-based clock starts each move afresh; the stored clocks read back
equal to the ones in memory."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from robotable.server.accounts import create_guest
from robotable.server.clocks import LIVE, TURN, Clocks, ClockSettings, TimeControl
from robotable.server.storage import SeatRow, Storage, TableRow

SEATS = 3


@dataclass
class FakeState:
    """The two things clocks ask a state: who it waits for, and whether it is over."""

    waiting: list[int] = field(default_factory=list)

    def to_act(self) -> list[int]:
        return list(self.waiting)

    def is_over(self) -> bool:
        return False


@dataclass
class Table:
    """The shape of a live table that clocks read (a real stored table row behind it)."""

    row: TableRow
    state: FakeState
    moves: list[int] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.row.id

    def seat(self, seat: int) -> SeatRow:
        return self.row.seats[seat]

    def is_bot(self, seat: int) -> bool:
        return self.row.seats[seat].kind == "bot"


steps = st.lists(
    st.tuples(st.integers(min_value=0, max_value=5000), st.sets(st.integers(min_value=0, max_value=SEATS - 1))),
    min_size=1,
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(steps=steps, turn_based=st.booleans(), bot=st.booleans())
def test_clock_invariants(tmp_path_factory, steps, turn_based: bool, bot: bool) -> None:
    path = Path(tmp_path_factory.mktemp("clocks")) / "clocks.db"
    storage = Storage(f"sqlite:///{path}")
    try:
        control = TimeControl(TURN, days=1) if turn_based else TimeControl(LIVE, base=60, increment=7)
        stamp = datetime(2026, 1, 1, tzinfo=UTC)
        kinds = ["human", "human", "bot" if bot else "human"]
        # every person seat taken (an account plays it): a table waiting for players runs no clock
        people = {i: create_guest(storage, f"P{i}").id for i, kind in enumerate(kinds) if kind == "human"}
        seats = [
            SeatRow(i, kind, f"P{i}", "random" if kind == "bot" else None, account_id=people.get(i))
            for i, kind in enumerate(kinds)
        ]
        row = TableRow("t1", "tf22-reload", SEATS, 1, {}, "running", 0, None, None, None, stamp, stamp, seats)
        storage.create_table(row)
        clocks = Clocks(storage, ClockSettings(grace=30, tick=1))
        table = Table(row, FakeState())
        clocks.create(row.id, control, seats)
        at = stamp
        ran = [0] * SEATS  # milliseconds each clock ran
        hand_ons = [0] * SEATS
        was_running = [False] * SEATS
        for wait_ms, waiting in steps:
            at += timedelta(milliseconds=wait_ms)
            for s in range(SEATS):
                if was_running[s]:
                    ran[s] += wait_ms
            table.state.waiting = sorted(waiting)
            clocks.sync(table, at)
            clock = clocks.of(table)
            for s in range(SEATS):
                owes = s in waiting and kinds[s] == "human"
                assert clock.seats[s].running == owes
                if was_running[s] and not owes:
                    hand_ons[s] += 1
                if turn_based:
                    # a fresh day for each move: what ran since it started is all that is gone
                    expected = control.allowance_ms - (ran[s] if owes else 0)
                else:
                    expected = control.allowance_ms + hand_ons[s] * 7000 - ran[s]
                assert clock.seats[s].left_ms(at) == expected
                if turn_based and not owes:
                    ran[s] = 0
                was_running[s] = owes
            stored = clocks.load(row.id)
            assert [(c.remaining_ms, c.deadline) for c in stored.seats] == [
                (c.remaining_ms, c.deadline) for c in clock.seats
            ]
    finally:
        storage.close()
