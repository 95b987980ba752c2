"""Accounts: people with a username and password, or guests with only a display name.

Passwords are hashed with argon2id (argon2-cffi's ``PasswordHasher``, its recommended parameters) and
re-hashed on sign-in when those parameters change. A guest account is made in one click from a display
name and can later be given a username and password, keeping its seats. An account may hold one API
token (for scripts and bots a person runs), stored as its SHA-256 hash and sent only in the
``Authorization: Bearer`` header.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from .errors import ApiError, Conflict
from .people_tables import accounts_table
from .storage import Storage, now

USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,23}")
MIN_PASSWORD, MAX_PASSWORD = 8, 200
MAX_DISPLAY_NAME = 40

_hasher = PasswordHasher()


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode().rstrip("=")


#: A hash of nothing, verified against when a username is unknown so both answers take as long: random salt
#: and digest under the hasher's own parameters (verifying it costs what verifying a real hash does; making
#: it with ``_hasher.hash`` cost every process that imports this module an argon2 run at start-up).
_DUMMY_HASH = (
    f"$argon2id$v=19$m={_hasher.memory_cost},t={_hasher.time_cost},p={_hasher.parallelism}"
    f"${_b64(secrets.token_bytes(_hasher.salt_len))}${_b64(secrets.token_bytes(_hasher.hash_len))}"
)


@dataclass(frozen=True)
class Account:
    """A signed-up person or a guest."""

    id: str
    display_name: str
    username: str | None
    is_guest: bool  # no password yet
    created_at: datetime

    def to_json(self) -> dict[str, Any]:
        """What the account's owner is told about it (never a hash)."""
        return {
            "id": self.id,
            "display_name": self.display_name,
            "username": self.username,
            "guest": self.is_guest,
            "created_at": self.created_at.isoformat(),
        }


def hash_secret(value: str) -> str:
    """What is stored for a long random secret (session id, API token, invite code)."""
    return hashlib.sha256(value.encode()).hexdigest()


def new_id() -> str:
    """A fresh account id (random, so ids do not count the accounts)."""
    return secrets.token_urlsafe(12).replace("-", "x").replace("_", "y")


# -- checking what people type ------------------------------------------------------------------------


def check_username(username: str) -> str:
    """The username, if it is 3-24 letters, digits, ``_ . -`` starting with a letter or digit."""
    if not USERNAME.fullmatch(username):
        raise ApiError("a username is 3 to 24 letters, digits, '_', '.' or '-', starting with a letter or digit")
    return username


def check_password(password: str) -> str:
    """The password, if it is 8 to 200 characters."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ApiError(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return password


def check_display_name(name: str) -> str:
    """The display name, trimmed: 1 to 40 printable characters (no control or formatting characters)."""
    name = " ".join(name.split())
    if not 1 <= len(name) <= MAX_DISPLAY_NAME:
        raise ApiError(f"a display name is 1 to {MAX_DISPLAY_NAME} characters")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs") for c in name):
        raise ApiError("a display name holds printable characters only")
    return name


# -- storage ------------------------------------------------------------------------------------------


def account_from_row(row: Any) -> Account:
    created = row["created_at"]
    created = created if created.tzinfo else created.replace(tzinfo=UTC)
    return Account(
        id=row["id"],
        display_name=row["display_name"],
        username=row["username"],
        is_guest=row["password_hash"] is None,
        created_at=created,
    )


def get_account(storage: Storage, account_id: str) -> Account | None:
    """The account with this id, or None."""
    with storage.read() as conn:
        row = conn.execute(select(accounts_table).where(accounts_table.c.id == account_id)).mappings().first()
    return account_from_row(row) if row else None


def accounts_by_id(storage: Storage, ids: set[str]) -> dict[str, Account]:
    """The accounts with these ids."""
    if not ids:
        return {}
    with storage.read() as conn:
        rows = conn.execute(select(accounts_table).where(accounts_table.c.id.in_(sorted(ids)))).mappings()
        return {r["id"]: account_from_row(r) for r in rows}


def create_guest(storage: Storage, display_name: str) -> Account:
    """A new guest account (no password yet)."""
    name = check_display_name(display_name)
    account_id = new_id()
    with storage.transaction() as conn:
        conn.execute(insert(accounts_table).values(id=account_id, display_name=name, created_at=now()))
    account = get_account(storage, account_id)
    assert account is not None
    return account


def create_user(storage: Storage, username: str, password: str, display_name: str | None = None) -> Account:
    """A new account with a username and password (Conflict if the username is taken)."""
    check_username(username)
    check_password(password)
    name = check_display_name(display_name if display_name else username)
    account_id = new_id()
    try:
        with storage.transaction() as conn:
            conn.execute(
                insert(accounts_table).values(
                    id=account_id,
                    username=username,
                    username_key=username.lower(),
                    display_name=name,
                    password_hash=_hasher.hash(password),
                    created_at=now(),
                )
            )
    except IntegrityError:
        raise Conflict(
            f"the username {username!r} is taken", code="app:errors.username_taken", params={"username": username}
        ) from None
    account = get_account(storage, account_id)
    assert account is not None
    return account


def set_credentials(storage: Storage, account: Account, username: str, password: str) -> Account:
    """Give a guest a username and password; it keeps its id, name, seats and tables."""
    if not account.is_guest:
        raise Conflict("this account already has a password (change it with the current one)")
    check_username(username)
    check_password(password)
    try:
        with storage.transaction() as conn:
            conn.execute(
                update(accounts_table)
                .where(accounts_table.c.id == account.id, accounts_table.c.password_hash.is_(None))
                .values(username=username, username_key=username.lower(), password_hash=_hasher.hash(password))
            )
    except IntegrityError:
        raise Conflict(
            f"the username {username!r} is taken", code="app:errors.username_taken", params={"username": username}
        ) from None
    updated = get_account(storage, account.id)
    assert updated is not None
    return updated


def change_password(storage: Storage, account: Account, current: str, new: str) -> None:
    """Change a password, given the current one."""
    check_password(new)
    with storage.read() as conn:
        stored = conn.execute(
            select(accounts_table.c.password_hash).where(accounts_table.c.id == account.id)
        ).scalar_one_or_none()
    if stored is None or not _verify(stored, current):
        raise ApiError("the current password is wrong")
    with storage.transaction() as conn:
        conn.execute(
            update(accounts_table).where(accounts_table.c.id == account.id).values(password_hash=_hasher.hash(new))
        )


def rename(storage: Storage, account: Account, display_name: str) -> Account:
    """Change the display name."""
    name = check_display_name(display_name)
    with storage.transaction() as conn:
        conn.execute(update(accounts_table).where(accounts_table.c.id == account.id).values(display_name=name))
    updated = get_account(storage, account.id)
    assert updated is not None
    return updated


def verify_sign_in(storage: Storage, username: str, password: str) -> Account | None:
    """The account if the username and password match (case-insensitive username), else None.

    An unknown username costs one argon2 verification like a known one, so timing does not tell which
    usernames exist. A hash made with older parameters is replaced on success.
    """
    with storage.read() as conn:
        row = (
            conn.execute(select(accounts_table).where(accounts_table.c.username_key == username.lower()[:40]))
            .mappings()
            .first()
        )
    if row is None or row["password_hash"] is None:
        _verify(_DUMMY_HASH, password)
        return None
    if not _verify(row["password_hash"], password):
        return None
    if _hasher.check_needs_rehash(row["password_hash"]):
        with storage.transaction() as conn:
            conn.execute(
                update(accounts_table)
                .where(accounts_table.c.id == row["id"])
                .values(password_hash=_hasher.hash(password))
            )
    return account_from_row(row)


def _verify(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


# -- API tokens ---------------------------------------------------------------------------------------


def new_api_token(storage: Storage, account: Account) -> str:
    """A new API token for the account (the previous one stops working); shown once, stored hashed."""
    token = "rt_" + secrets.token_urlsafe(32)
    with storage.transaction() as conn:
        conn.execute(
            update(accounts_table).where(accounts_table.c.id == account.id).values(api_token_hash=hash_secret(token))
        )
    return token


def revoke_api_token(storage: Storage, account: Account) -> None:
    """The account's API token stops working."""
    with storage.transaction() as conn:
        conn.execute(update(accounts_table).where(accounts_table.c.id == account.id).values(api_token_hash=None))


def has_api_token(storage: Storage, account: Account) -> bool:
    """Whether the account has an API token now."""
    with storage.read() as conn:
        value = conn.execute(
            select(accounts_table.c.api_token_hash).where(accounts_table.c.id == account.id)
        ).scalar_one_or_none()
    return value is not None


def live_tokens(storage: Storage, hashes: Iterable[str]) -> set[str]:
    """Which of these API token hashes still belong to an account."""
    wanted = sorted(set(hashes))
    if not wanted:
        return set()
    with storage.read() as conn:
        rows = conn.execute(
            select(accounts_table.c.api_token_hash).where(accounts_table.c.api_token_hash.in_(wanted))
        ).all()
    return {r[0] for r in rows}


def account_by_api_token(storage: Storage, token: str) -> Account | None:
    """The account whose API token this is, or None."""
    if not token.startswith("rt_") or len(token) > 100:
        return None
    with storage.read() as conn:
        row = (
            conn.execute(select(accounts_table).where(accounts_table.c.api_token_hash == hash_secret(token)))
            .mappings()
            .first()
        )
    return account_from_row(row) if row else None
