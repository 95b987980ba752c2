"""Reputation: each account's share of games finished without timing out or being handed to a bot, and
the tables that ask for a minimum of it. See docs/server.md, "Reputation".

What counts: tables where at least two different accounts hold seats (people playing people; a game
against bots leaves nobody waiting). Each such table counts once per account, as one outcome stored in
``robotable_reputation`` (primary key: account and table, so two processes never count it twice):

- **abandoned**, as soon as the account's seat times out on a live clock (:func:`seat_abandoned`, from
  the timers), is handed to a bot (live or turn-based: a turn-based seat can only be handed over once its
  clock ran out), or is still timed out when a turn-based table expires (:func:`expired`);
- **finished**, when the game ends with the account still at the table and no abandonment recorded
  there (:func:`table_finished`). An abandonment stands even if the player came back and finished.

The share shown is ``(finished + 3) / (finished + abandoned + 4)``, in whole percent: a new account
starts at 75% (like Board Game Arena's karma, which starts at 75), every finished game raises it towards
100% and every abandoned one lowers it, a lot at first and less as games add up, so a few games decide
little and a long record decides almost everything.

A table may ask for a minimum (``min_reputation``, 1-100): taking a seat there (claiming an open seat,
accepting an invite or a friend's offered seat, creating the table) is refused with 403 and
``app:errors.reputation_too_low`` when the account's share is below it (:func:`check_may_sit`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from .errors import Forbidden
from .storage import Storage, TableRow, now
from .storage.schema import reputation_table, seat_clocks_table, seats_table

FINISHED = "finished"
ABANDONED = "abandoned"
#: The prior every account starts with: 3 games finished out of 4 (75%).
PRIOR_FINISHED = 3
PRIOR_GAMES = 4


@dataclass(frozen=True)
class Reputation:
    """An account's counted games."""

    finished: int = 0
    abandoned: int = 0

    @property
    def percent(self) -> int:
        """The share shown, in whole percent (75 for a new account).

        >>> Reputation().percent, Reputation(1, 0).percent, Reputation(0, 1).percent, Reputation(96, 0).percent
        (75, 80, 60, 99)
        """
        return round(100 * (self.finished + PRIOR_FINISHED) / (self.finished + self.abandoned + PRIOR_GAMES))

    def to_json(self) -> dict[str, Any]:
        return {
            "percent": self.percent,
            "finished": self.finished,
            "abandoned": self.abandoned,
            "games": self.finished + self.abandoned,
        }


def counted(row: TableRow) -> bool:
    """Whether the table counts for reputation: at least two different accounts hold its seats."""
    return len({s.account_id for s in row.seats if s.account_id}) >= 2


def of_accounts(storage: Storage, account_ids: Iterable[str]) -> dict[str, Reputation]:
    """The reputation of each account (a new account's for those with no counted game), in one query."""
    ids = sorted(set(account_ids))
    if not ids:
        return {}
    r = reputation_table.c
    query = select(r.account_id, r.outcome, func.count()).where(r.account_id.in_(ids)).group_by(r.account_id, r.outcome)
    found: dict[str, dict[str, int]] = {i: {} for i in ids}
    with storage.read() as conn:
        for account_id, outcome, count in conn.execute(query):
            found[account_id][outcome] = int(count)
    return {i: Reputation(c.get(FINISHED, 0), c.get(ABANDONED, 0)) for i, c in found.items()}


def of_account(storage: Storage, account_id: str) -> Reputation:
    """One account's reputation."""
    return of_accounts(storage, [account_id])[account_id]


def _record(conn: Connection, table_id: str, account_id: str, outcome: str) -> bool:
    """Store the table's outcome for the account unless one is stored already; True if this call did."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    statement = (
        dialect.insert(reputation_table)
        .values(account_id=account_id, table_id=table_id, outcome=outcome, at=now())
        .on_conflict_do_nothing(index_elements=["account_id", "table_id"])
    )
    return bool(conn.execute(statement).rowcount == 1)


def seat_abandoned(storage: Storage, row: TableRow, seat: int) -> bool:
    """The account of ``seat`` abandoned the table (a live time-out, or its seat handed to a bot)."""
    account_id = row.seats[seat].account_id if 0 <= seat < len(row.seats) else None
    if account_id is None or not counted(row):
        return False
    with storage.transaction() as conn:
        return _record(conn, row.id, account_id, ABANDONED)


def table_finished(storage: Storage, row: TableRow) -> list[str]:
    """The game ended: every account at the table without an abandonment there finished it; returns them."""
    if not counted(row):
        return []
    done = []
    with storage.transaction() as conn:
        for account_id in dict.fromkeys(s.account_id for s in row.seats if s.account_id):
            if _record(conn, row.id, account_id, FINISHED):
                done.append(account_id)
    return done


def expired(conn: Connection, table_id: str) -> list[str]:
    """A turn-based table expired (in the expiry's transaction): the accounts whose seats had timed out
    (and were not handed to a bot, which counted already) abandoned it; returns them."""
    s, c = seats_table.c, seat_clocks_table.c
    seats = list(conn.execute(select(s.seat, s.account_id).where(s.table_id == table_id)))
    if len({a for _, a in seats if a}) < 2:
        return []
    gone = conn.execute(
        select(s.account_id)
        .join(seat_clocks_table, (c.table_id == s.table_id) & (c.seat == s.seat))
        .where(s.table_id == table_id, s.account_id.is_not(None), c.timed_out.is_(True))
    )
    return [a for (a,) in gone if _record(conn, table_id, a, ABANDONED)]


def check_may_sit(storage: Storage, account_id: str, minimum: int | None) -> None:
    """Forbidden (403) unless the account's reputation reaches the table's ``minimum`` (None: no minimum)."""
    if not minimum:
        return
    have = of_account(storage, account_id).percent
    if have < minimum:
        raise Forbidden(
            f"this table is only for players with a reputation of at least {minimum}% (yours is {have}%: "
            "the share of your games with other people that you finished without timing out or being "
            "handed to a bot)",
            code="app:errors.reputation_too_low",
            params={"need": minimum, "have": have},
        )
