"""The database connection: the URL of ``--database``, the engine (pool, SQLite pragmas, pings of idle
PostgreSQL connections) and running a call once more when its connection was lost."""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, DisconnectionError

P = ParamSpec("P")
R = TypeVar("R")

#: Threads a server process runs its blocking database calls on (its default executor), and the size of
#: its connection pool on PostgreSQL (SQLAlchemy's default of 5 queued moves behind each other under load).
DB_THREADS = int(os.environ.get("ROBOTABLE_DB_THREADS", "12"))
#: PostgreSQL: connections (and writer tasks) of the event loop's writes of moves (batched_writes.py).
MOVE_CONNECTIONS = max(1, int(os.environ.get("ROBOTABLE_MOVE_CONNECTIONS", str(DB_THREADS))))  # 0 or less: 1
#: PostgreSQL: moves written at most in one batch (one round trip, one commit); 1: each alone.
MOVE_BATCH = max(1, int(os.environ.get("ROBOTABLE_MOVE_BATCH", "16")))
#: A pooled PostgreSQL connection unused for this many seconds is pinged before it is handed out.
PING_IDLE_SECONDS = 1.0


def database_url(database: str | None) -> str:
    """A SQLAlchemy URL from the ``--database`` value: a URL, a file path, or None (``robotable.db``).

    ``postgresql://`` and ``postgres://`` URLs are sent to the psycopg 3 driver.
    """
    if not database:
        return "sqlite:///robotable.db"
    if "://" not in database:
        return f"sqlite:///{Path(database)}"
    for prefix in ("postgresql://", "postgres://"):
        if database.startswith(prefix):
            return "postgresql+psycopg://" + database[len(prefix) :]
    return database


def make_engine(url: str, schema: str | None) -> Engine:
    """The engine of ``url``; with ``schema`` (PostgreSQL) every table is in that schema."""
    kwargs: dict[str, Any] = {"future": True}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
    else:
        kwargs.update(pool_size=DB_THREADS, max_overflow=4)
    engine = create_engine(url, **kwargs)
    if url.startswith("sqlite"):
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        _ping_idle_connections(engine)
    if schema:
        engine = engine.execution_options(schema_translate_map={None: schema})
    return engine


def once_more_if_disconnected(method: Callable[P, R]) -> Callable[P, R]:
    """Run a storage call again (once) if its database connection was lost (a restarted database, a
    terminated session): the pool hands out a fresh connection. A write that did commit before the
    connection went fails its compare-and-set the second time (StaleTable), so nothing is written twice.
    """

    @functools.wraps(method)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            return method(*args, **kwargs)

    return call


def _ping_idle_connections(engine: Engine) -> None:
    """Replace dropped PostgreSQL connections (a restarted database, terminated sessions) before use.

    SQLAlchemy's ``pool_pre_ping`` pings on every checkout: a round trip for each transaction and read.
    This pings only a connection that sat in the pool for :data:`PING_IDLE_SECONDS`; one that dropped
    while in steady use fails its statement instead, which makes SQLAlchemy replace every pooled
    connection, and the hot storage calls run once more (:func:`once_more_if_disconnected`).
    """
    dialect = engine.dialect

    @event.listens_for(engine, "checkin")
    def checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info["checked_in"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if time.monotonic() - record.info.get("checked_in", 0.0) < PING_IDLE_SECONDS:
            return
        try:
            dialect.do_ping(dbapi_connection)
        except Exception as exc:
            if isinstance(exc, dialect.loaded_dbapi.Error) and dialect.is_disconnect(exc, dbapi_connection, None):
                raise DisconnectionError(str(exc)) from exc  # the pool tries a new connection
            raise


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
