"""The database tables for people: accounts, sessions, invites, chat lines and mutes.

They are defined with every other table in ``storage/schema.py`` (one metadata, so the same database
and schema as the game tables); the logic that reads and writes them is in ``accounts.py``,
``sessions.py``, ``invites.py`` and ``chat.py``. Secrets are stored as hashes only: passwords with
argon2, session ids, API tokens and invite codes (long random values) with SHA-256.
"""

from __future__ import annotations

from .storage.schema import accounts_table, chat_table, invites_table, mutes_table, sessions_table

__all__ = ["accounts_table", "chat_table", "invites_table", "mutes_table", "sessions_table"]
