"""Ratings of people and bots per game: OpenSkill (Plackett-Luce), updated once after each rated table.

Who is rated: a finished table marked ``rated`` (not hotseat, no chosen seed, no written position) whose
every person seat belongs to an account, with at least one account and at least two different entries.
An account is rated as ``account:<id>``; a bot as its own entry named with the agent that played it
(``ismcts:hard``, ``heuristic``), so people can measure themselves against the levels. A person's seat
handed to a bot still counts for its account: leaving does not avoid a loss. Several seats of one entry
(two ``random`` bots) count as one player with several results, as in the arena.

The update reuses the arena's :func:`robotable.arena.ratings.rate_game`. It runs in one transaction that
first inserts the table into ``robotable_rated_tables``: a second attempt (a retry, another process)
violates its primary key and changes nothing, so every table is rated at most once. Rating rows are read
``FOR UPDATE`` (PostgreSQL) so two tables finishing at once never lose an update. The leaderboard orders
by the conservative ``ordinal = mu - 3 sigma``; every rating the API answers also carries it on the 1500-based
scale people see (``display_rating``, ``provisional``: rating_scale.py). See docs/server.md, "Ratings".
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from robotable.arena.ratings import model, rate_game

from . import bots, levels
from .rating_scale import shown
from .storage import Storage, TableRow, now
from .storage.schema import rated_tables_table, ratings_table

log = logging.getLogger("robotable.server")

#: Leaderboards list at most this many entries.
MAX_BOARD = 200
_lock = threading.Lock()  # one update at a time in this process (SQLite has no row locks)


@dataclass(frozen=True)
class Entry:
    """Who a seat's result is rated for."""

    key: str
    kind: str
    label: str


def account_entry(account_id: str) -> str:
    """The rating entry of an account."""
    return f"account:{account_id}"


def entries_of(row: TableRow) -> list[Entry] | None:
    """The rated entry of every seat, or None if the table is not rated (see the module docstring)."""
    if not row.rated or row.hotseat:
        return None
    out = []
    for seat in row.seats:
        if seat.kind == "bot":
            agent = bots.effective_agent(seat.difficulty)
            out.append(Entry(agent, "bot", agent))
        elif seat.kind == "human" and seat.account_id:
            out.append(Entry(account_entry(seat.account_id), "account", seat.name))
        else:
            return None  # a person without an account, or a seat nobody took
    if not any(e.kind == "account" for e in out) or len({e.key for e in out}) < 2:
        return None
    return out


def rate_table(storage: Storage, row: TableRow, result: dict[str, Any]) -> dict[str, Any] | None:
    """Rate a finished table once; the changes per seat, or None if it is unrated or was rated before."""
    entries = entries_of(row)
    if entries is None:
        return None
    ranks = [int(r) for r in result["ranks"]]
    winners = set(result.get("winners", ()))
    for attempt in range(3):
        try:
            return _rate_once(storage, row, entries, ranks, winners)
        except IntegrityError:
            if table_changes(storage, row.id) is not None:
                return None  # rated already (by another process)
            log.warning("table %s: rating raced another table's (attempt %d); trying again", row.id, attempt + 1)
    log.error("table %s could not be rated", row.id)
    return None


def _rate_once(
    storage: Storage, row: TableRow, entries: list[Entry], ranks: list[int], winners: set[int]
) -> dict[str, Any] | None:
    """One attempt: mark the table rated and update its entries, in one transaction."""
    m = model()
    keys = [e.key for e in entries]
    with _lock, storage.transaction() as conn:
        exists = select(rated_tables_table.c.table_id).where(rated_tables_table.c.table_id == row.id)
        if conn.execute(exists).first() is not None:
            return None  # rated already
        # a concurrent rating of this table by another process fails on this primary key
        conn.execute(insert(rated_tables_table).values(table_id=row.id, game=row.game, changes=[], rated_at=now()))
        query = select(ratings_table).where(ratings_table.c.game == row.game, ratings_table.c.entry.in_(set(keys)))
        if conn.dialect.name == "postgresql":
            query = query.with_for_update()
        stored = {r.entry: r for r in conn.execute(query)}
        before = {
            k: m.rating(mu=stored[k].mu, sigma=stored[k].sigma, name=k) if k in stored else m.rating(name=k)
            for k in keys
        }
        after = rate_game(m, before, keys, ranks)
        stamp = now()
        for entry in {e.key: e for e in entries}.values():
            won = sum(1 for seat, e in enumerate(entries) if e.key == entry.key and seat in winners)
            played = sum(1 for e in entries if e.key == entry.key)
            values = {"mu": after[entry.key].mu, "sigma": after[entry.key].sigma, "label": entry.label}
            values["updated_at"] = stamp
            if entry.key in stored:
                conn.execute(
                    update(ratings_table)
                    .where(ratings_table.c.game == row.game, ratings_table.c.entry == entry.key)
                    .values(
                        **values,
                        games=ratings_table.c.games + played,
                        wins=ratings_table.c.wins + won,
                    )
                )
            else:
                conn.execute(
                    insert(ratings_table).values(
                        game=row.game,
                        entry=entry.key,
                        kind=entry.kind,
                        games=played,
                        wins=won,
                        **values,
                    )
                )
        games_before = {k: stored[k].games if k in stored else 0 for k in keys}
        changes = [
            {
                "seat": seat,
                "entry": e.key,
                "label": e.label,
                "before": _rating_json(before[e.key], games_before[e.key]),
                "after": _rating_json(after[e.key], games_before[e.key] + keys.count(e.key)),
            }
            for seat, e in enumerate(entries)
        ]
        conn.execute(update(rated_tables_table).where(rated_tables_table.c.table_id == row.id).values(changes=changes))
    return {"table": row.id, "game": row.game, "changes": [_shown_change(c) for c in changes]}


def _rating_json(rating: Any, games: int) -> dict[str, float]:
    return {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.mu - 3 * rating.sigma, "games": games}


def _shown_change(change: dict[str, Any]) -> dict[str, Any]:
    """A stored change with the 1500-based scale added to ``before`` and ``after`` (changes stored before
    the scale have no ``games``: their ratings are marked provisional)."""
    out = dict(change)
    for side in ("before", "after"):
        r = change[side]
        out[side] = {**r, **shown(r["mu"], r["sigma"], r.get("games"))}
    return out


def leaderboard(storage: Storage, game: str, limit: int = 100) -> list[dict[str, Any]]:
    """A game's rated entries, best first by ``ordinal = mu - 3 sigma``; a bot's entry also carries its
    level's arena rating (``level_rating``, levels.py), the rating shown beside its name."""
    ordinal = (ratings_table.c.mu - 3 * ratings_table.c.sigma).label("ordinal")
    query = (
        select(ratings_table, ordinal)
        .where(ratings_table.c.game == game)
        .order_by(ordinal.desc(), ratings_table.c.entry)
        .limit(min(limit, MAX_BOARD))
    )
    with storage.read() as conn:
        rows = list(conn.execute(query))
    return [
        {
            "rank": i + 1,
            "entry": r.entry,
            "kind": r.kind,
            "account": r.entry.split(":", 1)[1] if r.kind == "account" else None,
            "name": r.label,
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": r.ordinal,
            **shown(r.mu, r.sigma, r.games),
            "games": r.games,
            "wins": r.wins,
            "level_rating": levels.rating_of(game, r.entry) if r.kind == "bot" else None,  # the arena's
        }
        for i, r in enumerate(rows)
    ]


def ratings_of(storage: Storage, entry: str) -> dict[str, dict[str, Any]]:
    """Every game's rating of one entry: ``{game: {mu, sigma, ordinal, display_rating, provisional, games,
    wins, rank}}``."""
    out = {}
    with storage.read() as conn:
        for r in conn.execute(select(ratings_table).where(ratings_table.c.entry == entry)):
            better = conn.execute(
                select(func.count())
                .select_from(ratings_table)
                .where(
                    ratings_table.c.game == r.game, ratings_table.c.mu - 3 * ratings_table.c.sigma > r.mu - 3 * r.sigma
                )
            ).scalar_one()
            out[r.game] = {
                "mu": r.mu,
                "sigma": r.sigma,
                "ordinal": r.mu - 3 * r.sigma,
                **shown(r.mu, r.sigma, r.games),
                "games": r.games,
                "wins": r.wins,
                "rank": better + 1,
            }
    return out


def shown_of_accounts(storage: Storage, account_ids: list[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """Each account's ratings as the seats show them: ``{account: {game: {display_rating, provisional}}}``
    (one query; an account never rated has ``{}``)."""
    keys = {account_entry(a): a for a in account_ids}
    out: dict[str, dict[str, dict[str, Any]]] = {a: {} for a in account_ids}
    if not keys:
        return out
    r = ratings_table.c
    with storage.read() as conn:
        for row in conn.execute(select(r.entry, r.game, r.mu, r.sigma, r.games).where(r.entry.in_(list(keys)))):
            out[keys[row.entry]][row.game] = shown(row.mu, row.sigma, row.games)
    return out


def table_changes(storage: Storage, table_id: str) -> list[dict[str, Any]] | None:
    """The rating changes a table made, or None if it was not rated."""
    with storage.read() as conn:
        row = conn.execute(
            select(rated_tables_table.c.changes).where(rated_tables_table.c.table_id == table_id)
        ).first()
    return None if row is None else [_shown_change(c) for c in row[0]]
