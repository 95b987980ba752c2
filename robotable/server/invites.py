"""Invites: one-time, expiring codes that bind a person seat to the account that accepts them.

The creator of a table gets one invite link per person seat they do not play
(``/invite/<code>``). The code is the only credential that ever appears in a URL, and only on that one
page: the page sends it back in a request body, and accepting it binds the seat to the accepting
account, marks the code used and makes the seat's own account the only one that can see and act for
it. The database holds the code's SHA-256 only. A new invite for a seat revokes the seat's earlier ones.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import overload

from sqlalchemy import delete, insert, select, update

from .accounts import hash_secret
from .errors import ApiError, Conflict, NotFound
from .people_tables import invites_table
from .storage import Storage, now, seats_table, tables_table

#: How long an invite can be accepted.
LIFETIME = timedelta(days=7)
MAX_CODE = 100


class Gone(ApiError):
    """An invite that was used or has expired."""

    status = 410


@dataclass(frozen=True)
class Invite:
    """A stored invite (never its code)."""

    table_id: str
    seat: int
    created_by: str | None
    expires_at: datetime
    used_at: datetime | None


def invite_path(code: str) -> str:
    """The invite page's path for a code."""
    return f"/invite/{code}"


def create_invite(storage: Storage, table_id: str, seat: int, created_by: str | None) -> str:
    """A new invite code for a seat (earlier unused invites for it stop working); shown once."""
    code = secrets.token_urlsafe(18)
    stamp = now()
    with storage.transaction() as conn:
        conn.execute(
            delete(invites_table).where(
                invites_table.c.table_id == table_id, invites_table.c.seat == seat, invites_table.c.used_at.is_(None)
            )
        )
        conn.execute(
            insert(invites_table).values(
                code_hash=hash_secret(code),
                table_id=table_id,
                seat=seat,
                created_by=created_by,
                created_at=stamp,
                expires_at=stamp + LIFETIME,
            )
        )
    return code


@overload
def _utc(value: datetime) -> datetime: ...
@overload
def _utc(value: None) -> None: ...
def _utc(value: datetime | None) -> datetime | None:
    return value if value is None or value.tzinfo else value.replace(tzinfo=UTC)


def find_invite(storage: Storage, code: str) -> Invite:
    """The invite behind a code, if it can still be accepted: NotFound (404) or Gone (410) saying why not."""
    if not code or len(code) > MAX_CODE:
        raise NotFound("no such invite: check that the whole link was copied")
    with storage.read() as conn:
        row = (
            conn.execute(select(invites_table).where(invites_table.c.code_hash == hash_secret(code))).mappings().first()
        )
    if row is None:
        raise NotFound("no such invite: check that the whole link was copied, or ask for a new one")
    invite = Invite(row["table_id"], row["seat"], row["created_by"], _utc(row["expires_at"]), _utc(row["used_at"]))
    if invite.used_at is not None:
        raise Gone("this invite was already used: an invite link works once; ask the table's creator for a new one")
    if invite.expires_at <= now():
        raise Gone("this invite has expired; ask the table's creator for a new one")
    return invite


def accept_invite(storage: Storage, code: str, account_id: str, name: str) -> Invite:
    """Bind the invited seat to the account and use up the code, in one transaction (first wins)."""
    invite = find_invite(storage, code)
    stamp = now()
    with storage.transaction() as conn:
        used = conn.execute(
            update(invites_table)
            .where(
                invites_table.c.code_hash == hash_secret(code),
                invites_table.c.used_at.is_(None),
                invites_table.c.expires_at > stamp,
            )
            .values(used_at=stamp, used_by=account_id)
        )
        if used.rowcount != 1:
            raise Gone("this invite was just used")
        bound = conn.execute(
            update(seats_table)
            .where(
                seats_table.c.table_id == invite.table_id,
                seats_table.c.seat == invite.seat,
                seats_table.c.kind == "human",
                seats_table.c.account_id.is_(None),
            )
            .values(account_id=account_id, name=name)
        )
        if bound.rowcount != 1:
            raise Conflict(f"seat {invite.seat + 1} already has its player")  # rolls the use back too
        # a new version: every server process's copy of the table catches up (server/table/sync.py)
        conn.execute(
            update(tables_table)
            .where(tables_table.c.id == invite.table_id)
            .values(updated_at=stamp, version=tables_table.c.version + 1)
        )
    return invite
