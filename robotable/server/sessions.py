"""Server-side sessions: a row in the database per signed-in browser, behind an HttpOnly cookie.

The cookie holds a long random session id; the database holds only its SHA-256 hash, the account, an
expiry and the session's CSRF token (the synchronizer token the page sends back in ``X-CSRF-Token``
on every write; see ``auth.py``). Signing in always makes a new session (no fixation); signing out
deletes the row, so a stolen cookie dies with it.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, insert, select, update
from starlette.requests import HTTPConnection
from starlette.responses import Response

from .accounts import Account, account_from_row, hash_secret
from .people_tables import accounts_table, sessions_table
from .storage import Storage, now

COOKIE = "robotable_session"
#: A session lasts this long after it was last renewed.
LIFETIME = timedelta(days=30)
#: A session used after this much of its lifetime is renewed (one write a day at most).
RENEW_AFTER = timedelta(days=1)


@dataclass(frozen=True)
class Session:
    """A signed-in browser: its account and the CSRF token its page must send with writes."""

    id_hash: str
    account: Account
    csrf: str
    expires_at: datetime


def create_session(storage: Storage, account: Account) -> tuple[str, Session]:
    """A new session for the account: the cookie value (shown to the browser only) and the session."""
    value = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(32)
    stamp = now()
    expires = stamp + LIFETIME
    with storage.transaction() as conn:
        conn.execute(
            insert(sessions_table).values(
                id_hash=hash_secret(value), account_id=account.id, csrf=csrf, created_at=stamp, expires_at=expires
            )
        )
        # old sessions of anyone are swept now and then, so the table does not grow forever
        if secrets.randbelow(50) == 0:
            conn.execute(delete(sessions_table).where(sessions_table.c.expires_at < stamp))
    return value, Session(hash_secret(value), account, csrf, expires)


def find_session(storage: Storage, value: str) -> Session | None:
    """The live session behind a cookie value, renewed if it is a day old; None if unknown or expired."""
    if not value or len(value) > 100:
        return None
    key = hash_secret(value)
    with storage.read() as conn:
        row = (
            conn.execute(
                select(sessions_table.c.csrf, sessions_table.c.expires_at, accounts_table)
                .join(accounts_table, accounts_table.c.id == sessions_table.c.account_id)
                .where(sessions_table.c.id_hash == key)
            )
            .mappings()
            .first()
        )
    if row is None:
        return None
    expires = row["expires_at"] if row["expires_at"].tzinfo else row["expires_at"].replace(tzinfo=UTC)
    stamp = now()
    if expires <= stamp:
        end_session(storage, value)
        return None
    if expires - stamp < LIFETIME - RENEW_AFTER:
        expires = stamp + LIFETIME
        with storage.transaction() as conn:
            conn.execute(update(sessions_table).where(sessions_table.c.id_hash == key).values(expires_at=expires))
    return Session(key, account_from_row(row), row["csrf"], expires)


def live_sessions(storage: Storage, hashes: Iterable[str]) -> set[str]:
    """Which of these session hashes are of sessions that exist and have not expired."""
    wanted = sorted(set(hashes))
    if not wanted:
        return set()
    stamp = now()
    alive: set[str] = set()
    with storage.read() as conn:
        for start in range(0, len(wanted), 500):
            rows = conn.execute(
                select(sessions_table.c.id_hash, sessions_table.c.expires_at).where(
                    sessions_table.c.id_hash.in_(wanted[start : start + 500])
                )
            )
            for key, expires in rows:
                if (expires if expires.tzinfo else expires.replace(tzinfo=UTC)) > stamp:
                    alive.add(key)
    return alive


def end_session(storage: Storage, value: str) -> None:
    """Sign out: the session row is deleted."""
    with storage.transaction() as conn:
        conn.execute(delete(sessions_table).where(sessions_table.c.id_hash == hash_secret(value)))


def end_other_sessions(storage: Storage, account: Account, keep_hash: str | None) -> None:
    """Every session of the account but ``keep_hash`` (None: every one) ends (a password change, "sign out
    everywhere")."""
    with storage.transaction() as conn:
        query = delete(sessions_table).where(sessions_table.c.account_id == account.id)
        if keep_hash:
            query = query.where(sessions_table.c.id_hash != keep_hash)
        conn.execute(query)


def is_https(conn: HTTPConnection) -> bool:
    """Whether the request came over HTTPS (uvicorn's --proxy-headers sets the scheme behind a proxy)."""
    return conn.url.scheme in ("https", "wss")


def set_cookie(response: Response, conn: HTTPConnection, value: str) -> None:
    """The session cookie: HttpOnly, SameSite=Lax, Secure when the site is served over HTTPS."""
    response.set_cookie(
        COOKIE,
        value,
        max_age=int(LIFETIME.total_seconds()),
        path="/",
        httponly=True,
        samesite="lax",
        secure=is_https(conn),
    )


def clear_cookie(response: Response, conn: HTTPConnection) -> None:
    """Remove the session cookie from the browser."""
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=is_https(conn))
