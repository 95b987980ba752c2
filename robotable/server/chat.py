"""Table chat: short text lines stored with the table, shown to players and spectators, and mutes.

A line is plain text (one line, at most ``MAX_CHARS`` characters, no control characters), written by an
account that plays a seat at the table, limited to ``RATE`` per account and table (the ``limits``
library, like sign-in). It is stored in ``robotable_chat`` (deleted with its table) before it goes out,
then pushed to every connection of the table through the hub, like a move. Browsers draw it as text,
never as HTML. A mute is per viewer: an account hides another account's lines for itself, everywhere,
and the server keeps the list so it follows the account to any device.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from .accounts import Account, get_account
from .auth import RateLimits
from .errors import ApiError, Forbidden, NotFound, Unauthorized, quoted
from .people_tables import accounts_table, chat_table, mutes_table
from .storage import Storage, now

MAX_CHARS = 500
#: Lines one account may write at one table, as a ``limits`` rate.
RATE = "5 per 10 seconds"
#: Lines a client gets when it opens a table.
HISTORY = 200


def check_text(text: str) -> str:
    """The line, trimmed: 1 to ``MAX_CHARS`` characters of text, no line breaks or control characters."""
    text = text.strip()
    if not text:
        raise ApiError("a chat message cannot be empty", code="app:errors.chat_empty")
    if len(text) > MAX_CHARS:
        raise ApiError(
            f"a chat message is at most {MAX_CHARS} characters (this one has {len(text)})",
            code="app:errors.chat_too_long",
            params={"max": MAX_CHARS, "length": len(text)},
        )
    if any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs") for c in text):
        raise ApiError("a chat message is one line of text: no line breaks or control characters")
    return text


def line_json(row: Any, username: str | None, guest: bool) -> dict[str, Any]:
    """A stored line as clients get it, with who wrote it beyond the display name (which anyone can take):
    the account's ``username`` (unique) or, for a guest, ``guest: true`` and ``tag``, a stable short tag
    of the account id (pages show "guest #tag")."""
    stamp = row["created_at"]
    return {
        "idx": row["idx"],
        "seat": row["seat"],
        "account": row["account_id"],
        "name": row["name"],
        "username": username,
        "guest": guest,
        "tag": tag_of(row["account_id"]),
        "text": row["text"],
        "at": stamp.isoformat(),
    }


def tag_of(account_id: str | None) -> str:
    """A short stable tag of an account (the first 6 characters of its random id)."""
    return (account_id or "")[:6]


def history(storage: Storage, table_id: str, limit: int = HISTORY) -> list[dict[str, Any]]:
    """The table's last ``limit`` lines, oldest first."""
    with storage.read() as conn:
        rows = (
            conn.execute(
                select(chat_table, accounts_table.c.username, accounts_table.c.password_hash)
                .outerjoin(accounts_table, accounts_table.c.id == chat_table.c.account_id)
                .where(chat_table.c.table_id == table_id)
                .order_by(chat_table.c.idx.desc())
                .limit(limit)
            )
            .mappings()
            .all()
        )
    return [line_json(r, r["username"], r["password_hash"] is None) for r in reversed(rows)]


def store_line(storage: Storage, table_id: str, seat: int, account: Account, text: str) -> dict[str, Any]:
    """Append a line (the next index; retried if another process took it meanwhile)."""
    for _ in range(5):
        try:
            with storage.transaction() as conn:
                last = conn.execute(
                    select(func.max(chat_table.c.idx)).where(chat_table.c.table_id == table_id)
                ).scalar_one_or_none()
                row = {
                    "table_id": table_id,
                    "idx": (last or 0) + 1,
                    "account_id": account.id,
                    "seat": seat,
                    "name": account.display_name,
                    "text": text,
                    "created_at": now(),
                }
                conn.execute(insert(chat_table).values(**row))
            return line_json(row, account.username, account.is_guest)
        except IntegrityError:
            continue
    raise ApiError("the chat is busy; send it again")


def say(
    storage: Storage, limits: RateLimits, table_id: str, seats: list[int], account: Account | None, text: str
) -> dict[str, Any]:
    """Check and store a line from ``account`` (who plays ``seats`` at the table); the stored line."""
    if account is None:
        raise Unauthorized("sign in to chat", code="app:errors.chat_sign_in")
    if not seats:
        raise Forbidden(
            "only the table's players can write in its chat (spectators read it)", code="app:errors.chat_players_only"
        )
    text = check_text(text)
    limits.hit(RATE, "chat", table_id, account.id, what="chat messages: slow down")
    return store_line(storage, table_id, seats[0], account, text)


# -- mutes ----------------------------------------------------------------------------------------------


def muted(storage: Storage, account: Account) -> list[dict[str, str]]:
    """The accounts ``account`` has muted: ``[{id, display_name}]``."""
    with storage.read() as conn:
        ids = [r[0] for r in conn.execute(select(mutes_table.c.muted_id).where(mutes_table.c.account_id == account.id))]
    out = []
    for muted_id in ids:
        other = get_account(storage, muted_id)
        if other is not None:
            out.append({"id": other.id, "display_name": other.display_name})
    return out


def mute(storage: Storage, account: Account, other_id: str) -> None:
    """Hide ``other_id``'s chat lines from ``account`` (muting twice is the same as once)."""
    if other_id == account.id:
        raise ApiError("you cannot mute yourself")
    if get_account(storage, other_id) is None:
        raise NotFound(f"no account {quoted(other_id)}")
    try:
        with storage.transaction() as conn:
            conn.execute(insert(mutes_table).values(account_id=account.id, muted_id=other_id, created_at=now()))
    except IntegrityError:
        pass  # already muted


def unmute(storage: Storage, account: Account, other_id: str) -> None:
    """Show ``other_id``'s lines again."""
    with storage.transaction() as conn:
        conn.execute(
            delete(mutes_table).where(mutes_table.c.account_id == account.id, mutes_table.c.muted_id == other_id)
        )
