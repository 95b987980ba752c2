"""The server's database: every SQL table (``schema.py``), the rows as Python values (``rows.py``), the
statements of a move (``statements.py``), PostgreSQL's one-statement forms of them (``postgresql.py``),
the connection (``engine.py``) and the store that reads and writes tables (``store.py``, :class:`Storage`).

The names the rest of the server imports are re-exported here (``from .storage import Storage``).
"""

from ..wallclock import now  # the server's one clock (re-exported: other modules import it from here)
from .engine import (
    DB_THREADS,
    MOVE_BATCH,
    MOVE_CONNECTIONS,
    PING_IDLE_SECONDS,
    database_url,
    once_more_if_disconnected,
)
from .postgresql import conninfo as _conninfo
from .rows import Changes, MoveAppend, MoveRow, RowUpdate, SeatRow, StaleTable, TableRow
from .schema import (
    SCHEMA_VERSION,
    accounts_table,
    bot_turns,
    bot_usage,
    chat_table,
    clocks_table,
    exercises_solved,
    invites_table,
    meta_table,
    metadata,
    moves_table,
    mutes_table,
    rated_tables_table,
    ratings_table,
    reviews,
    seat_clocks_table,
    seat_notes_table,
    seats_table,
    sessions_table,
    tables_table,
)
from .store import APPENDS_NAME, Storage, appends_name, rows_beside

__all__ = [
    "APPENDS_NAME",
    "DB_THREADS",
    "MOVE_BATCH",
    "MOVE_CONNECTIONS",
    "PING_IDLE_SECONDS",
    "SCHEMA_VERSION",
    "Changes",
    "MoveAppend",
    "MoveRow",
    "RowUpdate",
    "SeatRow",
    "StaleTable",
    "Storage",
    "TableRow",
    "_conninfo",
    "accounts_table",
    "appends_name",
    "bot_turns",
    "bot_usage",
    "chat_table",
    "clocks_table",
    "database_url",
    "exercises_solved",
    "invites_table",
    "meta_table",
    "metadata",
    "moves_table",
    "mutes_table",
    "now",
    "once_more_if_disconnected",
    "rated_tables_table",
    "ratings_table",
    "reviews",
    "rows_beside",
    "seat_clocks_table",
    "seat_notes_table",
    "seats_table",
    "sessions_table",
    "tables_table",
]
