"""The database tables for people: accounts, sessions, invites, chat lines and mutes (SQLAlchemy Core).

They live in the same metadata (and so the same database and schema) as the game tables in
``storage.py``; the logic that reads and writes them is in ``accounts.py``, ``sessions.py``,
``invites.py`` and ``chat.py``. Secrets are stored as hashes only: passwords with argon2, session ids,
API tokens and invite codes (long random values) with SHA-256.
"""

from __future__ import annotations

from sqlalchemy import Column, DateTime, ForeignKey, Index, Integer, String, Table, Text

from .storage import metadata

accounts_table = Table(
    "robotable_accounts",
    metadata,
    Column("id", String(24), primary_key=True),
    # the sign-in name as typed, and its lowercase form (unique); both None for a guest
    Column("username", String(40), nullable=True),
    Column("username_key", String(40), nullable=True, unique=True),
    Column("display_name", String(60), nullable=False),
    Column("password_hash", String(200), nullable=True),  # argon2id; None: a guest without a password
    Column("api_token_hash", String(64), nullable=True, unique=True),  # SHA-256 of the API token
    Column("created_at", DateTime(timezone=True), nullable=False),
)

sessions_table = Table(
    "robotable_sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),  # SHA-256 of the cookie's value
    Column("account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("csrf", String(64), nullable=False),  # the synchronizer token the page sends back in X-CSRF-Token
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_robotable_sessions_account", "account_id"),
)

invites_table = Table(
    "robotable_invites",
    metadata,
    Column("code_hash", String(64), primary_key=True),  # SHA-256 of the one-time code
    Column("table_id", String(24), ForeignKey("robotable_tables.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("created_by", String(24), ForeignKey("robotable_accounts.id", ondelete="SET NULL"), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("used_at", DateTime(timezone=True), nullable=True),
    Column("used_by", String(24), ForeignKey("robotable_accounts.id", ondelete="SET NULL"), nullable=True),
    Index("ix_robotable_invites_table_seat", "table_id", "seat"),
)

chat_table = Table(
    "robotable_chat",
    metadata,
    Column("table_id", String(24), ForeignKey("robotable_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="SET NULL"), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(60), nullable=False),
    Column("text", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

mutes_table = Table(
    "robotable_mutes",
    metadata,
    Column("account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("muted_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
