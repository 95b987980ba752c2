"""Tournaments for people (and bots, where the organiser allows): the rules and the storage.

A tournament is made by an organiser with a game, the players per table (2 to 6), a number of rounds, a
time control (the game's live clock, another live clock, or turn-based) and whether bots may enter.
People sign up (and withdraw) until the organiser starts it; then every round is paired from the
standings, its tables are made (``tournament_api.py`` makes them through the table code), and the next
round is paired when every table of the round is over. See docs/server.md, "Tournaments".

- **Formats.** Tables of 2 play a **Swiss** tournament: the standings in order, each entrant is paired
  with the next one below it it has not met yet (backtracking when that leaves someone unpaired; a
  rematch only when no pairing avoids one). Tables of 3 to 6 play **groups by standing**: the standings
  cut into tables in order.
- **Byes.** An entrant left over (an odd count in Swiss; in groups a remainder too small for a table of
  the game) gets a bye, which scores as a win (1 point). The lowest-placed entrant without a bye yet gets
  it; nobody gets two before everyone has had one.
- **Points.** At a table of ``n``, a seat scores, against each other seat, 1 if it finished ahead, 1/2
  if level, 0 if behind, divided by ``n - 1`` (the encounter counting of the arena's head-to-head
  table, ``robotable.arena.stats``): a win at a 2-player table is 1, a draw 1/2, at a table of 4 the
  winner gets 1, the second 2/3 and so on.
- **Forfeits.** A seat whose clock runs out at a tournament table forfeits: it loses to every other seat
  there (0 points, even against another forfeited seat) whatever the game says. If at most one seat is left that has not
  forfeited, the table ends at once (status ``expired``; the others win); otherwise the forfeited seat is
  handed to a bot, as the hand-over policy does, and the others play on.
- **Standings** order by points, then Buchholz (the sum over an entrant's tables of the mean points its
  opponents have in the tournament; 0 for a bye), then rating (the 1500-based rating of the game), then
  name.

Every change is a compare-and-set in the database (the tournament's ``round`` and ``version``, a table's
``outcome``, a forfeit's primary key), so several server processes sharing the database, or a restarted
one, never pair a round twice or count a table twice.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from robotable import games
from robotable.core import RobotableError

from . import bots, mail
from .accounts import Account
from .errors import ApiError, Conflict, Forbidden, NotFound, from_game_error
from .rating_scale import display_rating
from .ratings import account_entry
from .storage import Storage, now, tables_table
from .storage.schema import (
    ratings_table,
    seat_clocks_table,
    seat_notes_table,
    tournament_entries_table,
    tournament_forfeits_table,
    tournament_tables_table,
    tournaments_table,
)

SWISS, GROUPS = "swiss", "groups"
SIGNUP, RUNNING, FINISHED = "signup", "running", "finished"
PLAYING, DONE, FORFEIT, BYE = "playing", "finished", "forfeit", "bye"
#: Bounds of a tournament's settings.
MIN_TABLE, MAX_TABLE = 2, 6
MAX_ROUNDS = 20
MAX_ENTRANTS = 256
#: Backtracking steps the Swiss pairing tries before it accepts rematches.
PAIRING_STEPS = 20_000


def new_id() -> str:
    """A new tournament's id."""
    return "t" + secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


# -- the pure rules -----------------------------------------------------------------------------------


def format_of(table_size: int) -> str:
    """Swiss for tables of 2, groups by standing for 3 to 6."""
    return SWISS if table_size == 2 else GROUPS


def table_points(ranks: Sequence[int], forfeited: Sequence[int] = ()) -> list[float]:
    """Each seat's points at a table from the game's ``ranks`` (0 is first, equal ranks are level); a
    forfeited seat loses to every other seat (scoring nothing, even against another forfeit).

    >>> table_points([0, 1])
    [1.0, 0.0]
    >>> table_points([0, 0])
    [0.5, 0.5]
    >>> table_points([0, 1], forfeited=[0])
    [0.0, 1.0]
    >>> table_points([0, 0], forfeited=[0, 1])
    [0.0, 0.0]
    >>> [round(p, 3) for p in table_points([1, 0, 2, 1])]
    [0.5, 1.0, 0.0, 0.5]
    """
    n = len(ranks)
    if n < 2:
        return [1.0] * n

    def against(seat: int, other: int) -> float:
        if seat in forfeited:
            return 0.0  # a forfeit loses to everyone, another forfeit included
        if other in forfeited:
            return 1.0
        return 1.0 if ranks[seat] < ranks[other] else 0.5 if ranks[seat] == ranks[other] else 0.0

    return [sum(against(seat, o) for o in range(n) if o != seat) / (n - 1) for seat in range(n)]


@dataclass(frozen=True)
class Played:
    """A table of a round as the standings count it (``points`` None while it is played)."""

    round: int
    board: int
    entries: tuple[str, ...]
    points: tuple[float, ...] | None
    outcome: str
    table_id: str | None = None
    created_at: datetime | None = None


@dataclass
class Standing:
    """One entrant's line of the standings."""

    entry: str
    name: str
    kind: str
    points: float = 0.0
    buchholz: float = 0.0
    rating: int = 0
    played: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)


def standings(
    entrants: Sequence[tuple[str, str, str]], played: Sequence[Played], ratings: dict[str, int]
) -> list[Standing]:
    """The standings: ``entrants`` as ``(entry, name, kind)``, the tables played so far, each entry's
    rating; ordered by points, Buchholz, rating, then name."""
    lines = {e: Standing(e, name, kind, rating=ratings.get(e, display_rating(0.0))) for e, name, kind in entrants}
    scored = [t for t in played if t.points is not None]
    for t in scored:
        assert t.points is not None
        for seat, entry in enumerate(t.entries):
            if entry not in lines:
                continue
            lines[entry].points += t.points[seat]
            if t.outcome == BYE:
                lines[entry].byes += 1
            else:
                lines[entry].played += 1
    for t in scored:
        if t.outcome == BYE:
            continue
        for entry in t.entries:
            if entry not in lines:
                continue
            others = [o for o in t.entries if o != entry]
            lines[entry].opponents += others
            lines[entry].buchholz += sum(lines[o].points for o in others if o in lines) / len(others)
    return sorted(lines.values(), key=lambda s: (-s.points, -s.buchholz, -s.rating, s.name.casefold(), s.entry))


def met_pairs(played: Sequence[Played]) -> set[frozenset[str]]:
    """Every pair of entries that shared a table."""
    out: set[frozenset[str]] = set()
    for t in played:
        for i, a in enumerate(t.entries):
            for b in t.entries[i + 1 :]:
                out.add(frozenset((a, b)))
    return out


def _bye_for(order: Sequence[str], had_bye: dict[str, int], count: int) -> list[str]:
    """The ``count`` lowest-placed entries with the fewest byes so far."""
    if count <= 0:
        return []
    placed = {e: i for i, e in enumerate(order)}
    return sorted(order, key=lambda e: (had_bye.get(e, 0), -placed[e]))[:count]


def pair_swiss(
    order: Sequence[str], met: set[frozenset[str]], had_bye: dict[str, int]
) -> tuple[list[tuple[str, str]], list[str]]:
    """A Swiss round: pairs in standing order and the entry with a bye (if the count is odd).

    >>> pair_swiss(["a", "b", "c", "d"], {frozenset("ab")}, {})
    ([('a', 'c'), ('b', 'd')], [])
    >>> pair_swiss(["a", "b", "c"], set(), {"c": 1})
    ([('a', 'c')], ['b'])
    """
    byes = _bye_for(order, had_bye, len(order) % 2)
    left = [e for e in order if e not in byes]
    steps = 0

    def search(rest: list[str]) -> list[tuple[str, str]] | None:
        nonlocal steps
        if not rest:
            return []
        first, others = rest[0], rest[1:]
        for i, other in enumerate(others):
            steps += 1
            if steps > PAIRING_STEPS:
                return None
            if frozenset((first, other)) in met:
                continue
            tail = search(others[:i] + others[i + 1 :])
            if tail is not None:
                return [(first, other), *tail]
        return None

    pairs = search(left)
    if pairs is None:  # every pairing has a rematch (or the search gave up): the standings in order
        pairs = [(left[i], left[i + 1]) for i in range(0, len(left), 2)]
    return pairs, byes


def group_tables(
    order: Sequence[str], size: int, min_players: int, had_bye: dict[str, int]
) -> tuple[list[tuple[str, ...]], list[str]]:
    """A round of tables of ``size`` cut from the standings in order; a remainder of at least
    ``min_players`` (and 2) makes one smaller table at the bottom, a smaller one gets byes.

    >>> group_tables(list("abcdefg"), 3, 2, {})
    ([('a', 'b', 'c'), ('d', 'e', 'f')], ['g'])
    >>> group_tables(list("abcdefgh"), 3, 2, {})
    ([('a', 'b', 'c'), ('d', 'e', 'f'), ('g', 'h')], [])
    """
    extra = len(order) % size
    byes = _bye_for(order, had_bye, extra) if extra < max(2, min_players) else []
    left = [e for e in order if e not in byes]
    return [tuple(left[i : i + size]) for i in range(0, len(left), size)], byes


def seat_order(entries: Sequence[str], round_number: int, first_seats: dict[str, int]) -> tuple[str, ...]:
    """Who sits where at a table: the entry that sat first least often sits first (then by the round, so
    tables of several rotate)."""
    rotated = list(entries[round_number % len(entries) :]) + list(entries[: round_number % len(entries)])
    return tuple(sorted(rotated, key=lambda e: first_seats.get(e, 0))) if len(entries) == 2 else tuple(rotated)


# -- the stored tournament ----------------------------------------------------------------------------


@dataclass
class Tournament:
    """A stored tournament."""

    id: str
    name: str
    game: str
    table_size: int
    format: str
    rounds: int
    round: int
    control: dict[str, Any]
    bots_allowed: bool
    max_entrants: int
    status: str
    created_by: str | None
    created_at: datetime
    updated_at: datetime
    version: int

    def card(self) -> dict[str, Any]:
        """What the lists and the page show of it."""
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "table_size": self.table_size,
            "format": self.format,
            "rounds": self.rounds,
            "round": self.round,
            "time_control": self.control,
            "bots_allowed": self.bots_allowed,
            "max_entrants": self.max_entrants,
            "status": self.status,
            "created_by": self.created_by,
            "created_at": self.created_at.isoformat(),
        }


def _tournament(row: Any) -> Tournament:
    return Tournament(**{c: row[c] for c in Tournament.__dataclass_fields__})


def check_settings(game_id: str, table_size: int, rounds: int, max_entrants: int) -> None:
    """Refuse settings a tournament cannot be played with (400 naming the problem)."""
    try:
        game = games.load(game_id)
    except RobotableError as exc:
        raise from_game_error(exc) from None
    if not MIN_TABLE <= table_size <= MAX_TABLE:
        raise ApiError(f"table_size must be {MIN_TABLE} to {MAX_TABLE} players per table, not {table_size}")
    if not game.min_players <= table_size <= game.max_players:
        raise ApiError(
            f"{game.name} is played by {game.min_players} to {game.max_players} players, not {table_size} per table"
        )
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ApiError(f"rounds must be 1 to {MAX_ROUNDS}, not {rounds}")
    if not table_size <= max_entrants <= MAX_ENTRANTS:
        raise ApiError(f"max_entrants must be {table_size} (one table) to {MAX_ENTRANTS}, not {max_entrants}")


def create(
    storage: Storage,
    account: Account,
    name: str,
    game_id: str,
    table_size: int,
    rounds: int,
    control: dict[str, Any],
    bots_allowed: bool,
    max_entrants: int,
) -> Tournament:
    """A new tournament open for sign-up, organised by ``account`` (who is not entered by this)."""
    check_settings(game_id, table_size, rounds, max_entrants)
    stamp = now()
    values = {
        "id": new_id(),
        "name": name,
        "game": games.load(game_id).id,
        "table_size": table_size,
        "format": format_of(table_size),
        "rounds": rounds,
        "round": 0,
        "control": control,
        "bots_allowed": bots_allowed,
        "max_entrants": max_entrants,
        "status": SIGNUP,
        "created_by": account.id,
        "created_at": stamp,
        "updated_at": stamp,
        "version": 0,
    }
    with storage.transaction() as conn:
        conn.execute(insert(tournaments_table).values(**values))
    return Tournament(**values)  # type: ignore[arg-type]


def get(storage: Storage, tournament_id: str) -> Tournament:
    """A stored tournament (404 if there is none)."""
    if not 1 <= len(tournament_id) <= 24:
        raise NotFound("no such tournament", code="app:errors.tournament_unknown")
    with storage.read() as conn:
        row = conn.execute(select(tournaments_table).where(tournaments_table.c.id == tournament_id)).mappings().first()
    if row is None:
        raise NotFound("no such tournament", code="app:errors.tournament_unknown")
    return _tournament(row)


def listing(storage: Storage, statuses: Sequence[str], limit: int = 100) -> list[dict[str, Any]]:
    """Tournaments with these statuses, newest first, each with its number of entrants."""
    t, e = tournaments_table.c, tournament_entries_table.c
    count = select(func.count()).where(e.tournament_id == t.id).scalar_subquery()
    with storage.read() as conn:
        rows = conn.execute(
            select(tournaments_table, count.label("entrants"))
            .where(t.status.in_(list(statuses)))
            .order_by(t.created_at.desc())
            .limit(limit)
        ).mappings()
        return [{**_tournament(r).card(), "entrants": r["entrants"]} for r in rows]


def entrants(conn: Connection, tournament_id: str) -> list[dict[str, Any]]:
    """The entries of a tournament in the order they joined."""
    e = tournament_entries_table.c
    rows = conn.execute(
        select(tournament_entries_table).where(e.tournament_id == tournament_id).order_by(e.joined_at, e.entry)
    ).mappings()
    return [dict(r) for r in rows]


def _open_for_signup(conn: Connection, tournament_id: str) -> Tournament:
    query = select(tournaments_table).where(tournaments_table.c.id == tournament_id)
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    row = conn.execute(query).mappings().first()
    if row is None:
        raise NotFound("no such tournament", code="app:errors.tournament_unknown")
    t = _tournament(row)
    if t.status != SIGNUP:
        raise Conflict("the tournament has started: entries can no longer change", code="app:errors.tournament_started")
    return t


def _add(conn: Connection, t: Tournament, values: dict[str, Any]) -> None:
    e = tournament_entries_table.c
    taken = conn.execute(select(func.count()).where(e.tournament_id == t.id)).scalar_one()
    if taken >= t.max_entrants:
        raise Conflict(f"the tournament is full ({t.max_entrants} entrants)", code="app:errors.tournament_full")
    if conn.execute(select(e.entry).where(e.tournament_id == t.id, e.entry == values["entry"])).first() is not None:
        raise Conflict("you have already entered this tournament", code="app:errors.tournament_entered")
    conn.execute(insert(tournament_entries_table).values(tournament_id=t.id, joined_at=now(), **values))


def sign_up(storage: Storage, tournament_id: str, account: Account) -> None:
    """``account`` enters the tournament (before it starts)."""
    try:
        with storage.transaction() as conn:
            t = _open_for_signup(conn, tournament_id)
            values = {"entry": account.id, "kind": "account", "account_id": account.id, "name": account.display_name}
            _add(conn, t, values)
    except IntegrityError:  # the same account signing up twice at once, through two processes
        raise Conflict("you have already entered this tournament", code="app:errors.tournament_entered") from None


def add_bot(storage: Storage, tournament_id: str, account: Account, difficulty: str) -> str:
    """The organiser enters a bot of ``difficulty`` (tournaments that allow bots); its entry."""
    spec = bots.check_difficulty(difficulty)
    with storage.transaction() as conn:
        t = _open_for_signup(conn, tournament_id)
        if t.created_by != account.id:
            raise Forbidden("only the tournament's organiser enters bots", code="app:errors.tournament_not_organiser")
        if not t.bots_allowed:
            raise Conflict("this tournament does not allow bots", code="app:errors.tournament_no_bots")
        e = tournament_entries_table.c
        bots_in = conn.execute(select(func.count()).where(e.tournament_id == t.id, e.kind == "bot")).scalar_one()
        entry = f"bot-{bots_in + 1}"
        while conn.execute(select(e.entry).where(e.tournament_id == t.id, e.entry == entry)).first() is not None:
            bots_in += 1
            entry = f"bot-{bots_in + 1}"
        _add(conn, t, {"entry": entry, "kind": "bot", "difficulty": spec, "name": f"Bot {bots_in + 1} ({spec})"})
    return entry


def withdraw(storage: Storage, tournament_id: str, account: Account, entry: str) -> None:
    """Leave the tournament before it starts (your own entry; the organiser may also remove a bot)."""
    with storage.transaction() as conn:
        t = _open_for_signup(conn, tournament_id)
        e = tournament_entries_table.c
        row = (
            conn.execute(select(tournament_entries_table).where(e.tournament_id == t.id, e.entry == entry[:24]))
            .mappings()
            .first()
        )
        if row is None:
            raise NotFound("no such entry in this tournament", code="app:errors.tournament_no_entry")
        mine = row["account_id"] == account.id
        organiser_bot = row["kind"] == "bot" and t.created_by == account.id
        if not (mine or organiser_bot):
            raise Forbidden("you can only withdraw your own entry", code="app:errors.tournament_not_yours")
        conn.execute(delete(tournament_entries_table).where(e.tournament_id == t.id, e.entry == row["entry"]))


def played(conn: Connection, tournament_id: str) -> list[Played]:
    """Every table of the tournament so far, by round and board."""
    c = tournament_tables_table.c
    rows = conn.execute(
        select(tournament_tables_table).where(c.tournament_id == tournament_id).order_by(c.round, c.board)
    ).mappings()
    return [
        Played(
            r["round"],
            r["board"],
            tuple(r["entries"]),
            None if r["points"] is None else tuple(float(p) for p in r["points"]),
            r["outcome"],
            r["table_id"],
            r["created_at"],
        )
        for r in rows
    ]


def ratings_of(conn: Connection, game: str, people: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Each entry's rating of the game on the 1500-based scale (bots by their agent's rating here, else
    by their level's rating from the arena)."""
    keys = {
        (account_entry(p["account_id"]) if p["kind"] == "account" else bots.effective_agent(p["difficulty"])): p[
            "entry"
        ]
        for p in people
    }
    r = ratings_table.c
    rows = conn.execute(select(r.entry, r.mu, r.sigma).where(r.game == game, r.entry.in_(list(keys))))
    found = {row.entry: display_rating(row.mu - 3 * row.sigma) for row in rows}
    for p in people:  # a bot not yet rated on this server: its level's rating from the arena (levels.py)
        key = bots.effective_agent(p["difficulty"]) if p["kind"] == "bot" else None
        level = bots.level_rating(game, p["difficulty"]) if key is not None and key not in found else None
        if key is not None and level is not None and isinstance(level.get("display_rating"), int):
            found[key] = cast(int, level["display_rating"])
    return {entry: found[key] for key, entry in keys.items() if key in found}


def current_standings(conn: Connection, t: Tournament) -> tuple[list[Standing], list[Played], list[dict[str, Any]]]:
    """The standings, every table so far and the entrants."""
    people = entrants(conn, t.id)
    tables = played(conn, t.id)
    order = standings([(p["entry"], p["name"], p["kind"]) for p in people], tables, ratings_of(conn, t.game, people))
    return order, tables, people


def forfeits_of(storage: Storage, table_ids: Sequence[str]) -> dict[str, list[int]]:
    """:func:`forfeits` on a connection of its own (for a worker thread)."""
    with storage.read() as conn:
        return forfeits(conn, table_ids)


def entrants_of(storage: Storage, tournament_id: str) -> list[dict[str, Any]]:
    """:func:`entrants` on a connection of its own (for a worker thread)."""
    with storage.read() as conn:
        return entrants(conn, tournament_id)


def forfeits(conn: Connection, table_ids: Sequence[str]) -> dict[str, list[int]]:
    """The forfeited seats of each of these tables."""
    f = tournament_forfeits_table.c
    out: dict[str, list[int]] = {}
    if table_ids:
        for row in conn.execute(select(f.table_id, f.seat).where(f.table_id.in_(list(table_ids)))):
            out.setdefault(row.table_id, []).append(row.seat)
    return out


@dataclass(frozen=True)
class Pairing:
    """A round to play: its tables (entries by seat) and byes."""

    round: int
    tables: list[tuple[str, ...]]
    byes: list[str]


def next_pairing(conn: Connection, t: Tournament) -> Pairing:
    """The next round's tables from the standings (Swiss or groups)."""
    order, tables, _ = current_standings(conn, t)
    entries = [s.entry for s in order]
    had_bye: dict[str, int] = {}
    first_seats: dict[str, int] = {}
    for p in tables:
        if p.outcome == BYE:
            had_bye[p.entries[0]] = had_bye.get(p.entries[0], 0) + 1
        elif p.entries:
            first_seats[p.entries[0]] = first_seats.get(p.entries[0], 0) + 1
    number = t.round + 1
    if t.format == SWISS:
        pairs, byes = pair_swiss(entries, met_pairs(tables), had_bye)
        groups: list[tuple[str, ...]] = list(pairs)
    else:
        groups, byes = group_tables(entries, t.table_size, max(2, games.load(t.game).min_players), had_bye)
    return Pairing(number, [seat_order(g, number, first_seats) for g in groups], byes)


def begin_round(storage: Storage, t: Tournament, starting: bool = False) -> tuple[Tournament, Pairing] | None:
    """Claim the next round (compare-and-set on the tournament's version) and store its tables, with no
    game table yet; None if another process (or an earlier call) did it first. ``starting``: the
    organiser's start, which also moves the status from sign-up to running."""
    with storage.transaction() as conn:
        pairing = next_pairing(conn, t)
        tc = tournaments_table.c
        values: dict[str, Any] = {"round": pairing.round, "version": tc.version + 1, "updated_at": now()}
        if starting:
            values["status"] = RUNNING
        done = conn.execute(
            update(tournaments_table)
            .where(tc.id == t.id, tc.version == t.version, tc.status == (SIGNUP if starting else RUNNING))
            .values(**values)
        )
        if done.rowcount != 1:
            return None
        stamp = now()
        for board, entries in enumerate(pairing.tables):
            conn.execute(
                insert(tournament_tables_table).values(
                    tournament_id=t.id,
                    round=pairing.round,
                    board=board,
                    table_id=None,
                    entries=list(entries),
                    points=None,
                    outcome=PLAYING,
                    created_at=stamp,
                )
            )
        for i, entry in enumerate(pairing.byes):
            conn.execute(
                insert(tournament_tables_table).values(
                    tournament_id=t.id,
                    round=pairing.round,
                    board=len(pairing.tables) + i,
                    table_id=None,
                    entries=[entry],
                    points=[1.0],
                    outcome=BYE,
                    created_at=stamp,
                )
            )
        people = {p["entry"]: p for p in entrants(conn, t.id)}
        for entries in pairing.tables:  # e-mail when away: "a round of your tournament starts" (opt-in)
            for entry in entries:
                account_id = people.get(entry, {}).get("account_id")
                if account_id:
                    mail.enqueue(conn, account_id, "tournament", f"tournament:{t.id}:{pairing.round}", None, stamp)
    return get(storage, t.id), pairing


def claim_table(storage: Storage, tournament_id: str, round_number: int, board: int, table_id: str) -> bool:
    """Give a paired table its game table's id, once over every process."""
    c = tournament_tables_table.c
    with storage.transaction() as conn:
        done = conn.execute(
            update(tournament_tables_table)
            .where(c.tournament_id == tournament_id, c.round == round_number, c.board == board, c.table_id.is_(None))
            .values(table_id=table_id)
        )
        return done.rowcount == 1


def unmade_tables(storage: Storage, tournament_id: str, round_number: int) -> list[tuple[int, tuple[str, ...]]]:
    """The paired tables of a round that have no game table yet: ``(board, entries)``."""
    c = tournament_tables_table.c
    with storage.read() as conn:
        rows = conn.execute(
            select(c.board, c.entries).where(
                c.tournament_id == tournament_id,
                c.round == round_number,
                c.table_id.is_(None),
                c.outcome == PLAYING,
            )
        )
        return [(r.board, tuple(r.entries)) for r in rows]


def record_result(
    storage: Storage, tournament_id: str, round_number: int, board: int, points: Sequence[float], outcome: str
) -> bool:
    """A table of the round is over: store its points once (a compare-and-set on ``playing``)."""
    c = tournament_tables_table.c
    with storage.transaction() as conn:
        done = conn.execute(
            update(tournament_tables_table)
            .where(c.tournament_id == tournament_id, c.round == round_number, c.board == board, c.outcome == PLAYING)
            .values(points=list(points), outcome=outcome)
        )
        return done.rowcount == 1


def add_forfeit(storage: Storage, tournament_id: str, table_id: str, seat: int) -> bool:
    """Store that ``seat`` forfeited at ``table_id``; False if it was stored before (another process)."""
    try:
        with storage.transaction() as conn:
            conn.execute(
                insert(tournament_forfeits_table).values(
                    tournament_id=tournament_id, table_id=table_id, seat=seat, at=now()
                )
            )
        return True
    except IntegrityError:
        return False


def finish(storage: Storage, t: Tournament) -> bool:
    """The last round is over: the tournament is finished (once)."""
    tc = tournaments_table.c
    with storage.transaction() as conn:
        done = conn.execute(
            update(tournaments_table)
            .where(tc.id == t.id, tc.version == t.version, tc.status == RUNNING)
            .values(status=FINISHED, version=tc.version + 1, updated_at=now())
        )
        return done.rowcount == 1


def running(storage: Storage) -> list[Tournament]:
    """Every tournament being played."""
    with storage.read() as conn:
        rows = conn.execute(select(tournaments_table).where(tournaments_table.c.status == RUNNING)).mappings()
        return [_tournament(r) for r in rows]


def round_tables(storage: Storage, t: Tournament) -> list[Played]:
    """The tables of the tournament's current round."""
    with storage.read() as conn:
        return [p for p in played(conn, t.id) if p.round == t.round]


def check_start(storage: Storage, t: Tournament, account: Account) -> None:
    """Only the organiser starts, once, with enough entrants for one table."""
    if t.created_by != account.id:
        raise Forbidden("only the tournament's organiser can start it", code="app:errors.tournament_not_organiser")
    if t.status != SIGNUP:
        raise Conflict("the tournament has already started", code="app:errors.tournament_started")
    with storage.read() as conn:
        people = entrants(conn, t.id)
    if len(people) < t.table_size:
        raise Conflict(
            f"a tournament of tables of {t.table_size} needs at least {t.table_size} entrants, it has {len(people)}",
            code="app:errors.tournament_need_more",
            params={"need": t.table_size, "have": len(people)},
        )
    if not any(p["kind"] == "account" for p in people):
        raise Conflict("a tournament needs at least one person entered", code="app:errors.tournament_no_people")


def page(storage: Storage, t: Tournament, account: Account | None) -> dict[str, Any]:
    """The tournament's page: settings, entrants, rounds with their tables, standings."""
    with storage.read() as conn:
        order, tables, people = current_standings(conn, t)
        lost = forfeits(conn, [p.table_id for p in tables if p.table_id])
        made = [p.table_id for p in tables if p.table_id]
        exists = {r.id for r in conn.execute(select(tables_table.c.id).where(tables_table.c.id.in_(made)))}
    names = {p["entry"]: p["name"] for p in people}
    rounds: list[dict[str, Any]] = []
    for p in tables:
        while len(rounds) < p.round:
            rounds.append({"round": len(rounds) + 1, "tables": []})
        rounds[p.round - 1]["tables"].append(
            {
                "board": p.board,
                "table": p.table_id if p.table_id in exists else None,  # claimed, not yet made: none
                "outcome": p.outcome,
                "seats": [
                    {
                        "seat": seat,
                        "entry": entry,
                        "name": names.get(entry, entry),
                        "points": None if p.points is None else p.points[seat],
                        "forfeit": seat in lost.get(p.table_id or "", []),
                    }
                    for seat, entry in enumerate(p.entries)
                ],
            }
        )
    mine = account is not None and any(p["account_id"] == account.id for p in people)
    return {
        "tournament": t.card(),
        "entrants": [
            {"entry": p["entry"], "name": p["name"], "kind": p["kind"], "difficulty": p["difficulty"]} for p in people
        ],
        "rounds": rounds,
        "standings": [
            {
                "place": i + 1,
                "entry": s.entry,
                "name": s.name,
                "kind": s.kind,
                "points": s.points,
                "buchholz": round(s.buchholz, 4),
                "rating": s.rating,
                "played": s.played,
                "byes": s.byes,
            }
            for i, s in enumerate(order)
        ],
        "me": {
            "entered": mine,
            "organiser": account is not None and t.created_by == account.id,
            "entry": account.id if mine and account is not None else None,
        },
    }


def table_states(storage: Storage, table_ids: Sequence[str]) -> dict[str, tuple[str, dict[str, Any] | None]]:
    """The status and result of each of these game tables (those that exist)."""
    if not table_ids:
        return {}
    t = tables_table.c
    with storage.read() as conn:
        rows = conn.execute(select(t.id, t.status, t.result).where(t.id.in_(list(table_ids))))
        return {r.id: (r.status, r.result) for r in rows}


def timeouts(storage: Storage, table_ids: Sequence[str]) -> dict[str, set[int]]:
    """The seats whose clock ran out at each of these tables (the time-out notes of ``timers.py``), and
    the forfeits already stored; ``{table: seats}`` for the time-outs not yet counted as forfeits."""
    if not table_ids:
        return {}
    n = seat_notes_table.c
    with storage.read() as conn:
        rows = conn.execute(select(n.table_id, n.seat).where(n.table_id.in_(list(table_ids)), n.kind == "timeout"))
        out: dict[str, set[int]] = {}
        for r in rows:
            out.setdefault(r.table_id, set()).add(r.seat)
        for table_id, seats in forfeits(conn, list(out)).items():
            out[table_id] -= set(seats)
    return {k: v for k, v in out.items() if v}


def end_table(storage: Storage, table_id: str) -> bool:
    """End a table whose seats forfeited but one (status ``expired``, clocks stopped), once."""
    t = tables_table.c
    with storage.transaction() as conn:
        done = conn.execute(
            update(tables_table)
            .where(t.id == table_id, t.status.in_(("open", "running")))
            .values(status="expired", version=t.version + 1, updated_at=now())
        )
        if done.rowcount == 1:
            conn.execute(
                update(seat_clocks_table).where(seat_clocks_table.c.table_id == table_id).values(deadline=None)
            )
        return done.rowcount == 1
