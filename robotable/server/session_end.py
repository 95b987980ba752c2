"""Ending a session ends it everywhere: the open websockets of a session or API token that ended close.

A websocket remembers who opened it (:class:`~robotable.server.hub.Connection`: the account, the hash of
its session or API token). It stops when that credential stops, on every server process:

- **at once**, when this server ends it (sign-out, a password change, "sign out everywhere", a new or
  revoked API token, a guest's session renewed when it gets a password): :func:`end_everywhere` closes
  the sockets here and publishes ``"sessions"`` news, which the other processes apply
  (:func:`apply_news`, through the fan-out);
- **before each write** a socket makes (a move, an undo): :func:`still_valid` reads the session or token
  again, so an expired or deleted session (or news lost while Redis was down) cannot play;
- **within** :data:`CHECK_SECONDS`, by :func:`watch`, which reads every socket's session or token in one
  query per kind and closes those that expired or were deleted in the database.

A socket that ends gets an ``error`` (status 401, ``app:errors.signed_out``, "signed out: sign in
again") and is closed with code :data:`SIGNED_OUT` (4401: the page shows the error and does not
reconnect), or, for a renewed session, :data:`RENEWED` (4001: the page reconnects with its new cookie).
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import TYPE_CHECKING, Protocol

from .accounts import live_tokens
from .fanout import News
from .hub import Connection, Hub
from .messages import ErrorMessage
from .sessions import live_sessions

if TYPE_CHECKING:
    from .fanout import Fanout
    from .notices import Notices
    from .storage import Storage


class Served(Protocol):
    """What ending sessions needs of the table manager (``table.TableManager``): its sockets (the tables'
    and the friends sockets' hubs), its fan-out to the other processes and the storage."""

    hub: Hub
    notices: Notices
    fanout: Fanout
    storage: Storage


log = logging.getLogger("robotable.server")

#: The news kind that carries ended sessions to the other processes.
SESSIONS = "sessions"
#: Close code of a socket whose session or token ended (44xx: the page shows why and stays closed).
SIGNED_OUT = 4401
#: Close code of a socket whose session was renewed (the page reconnects with the new cookie).
RENEWED = 4001
#: Seconds between two checks of every open socket's session (``ROBOTABLE_SESSION_CHECK_SECONDS``).
CHECK_SECONDS = float(os.environ.get("ROBOTABLE_SESSION_CHECK_SECONDS", "30"))

SIGNED_OUT_MESSAGE = "signed out: sign in again"


def signed_out_error() -> ErrorMessage:
    """The ``error`` a socket gets before it is closed because its session ended."""
    return ErrorMessage(
        type="error",
        ref=None,
        status=401,
        message=SIGNED_OUT_MESSAGE,
        code="app:errors.signed_out",
        params={"detail": SIGNED_OUT_MESSAGE},
    )


def _renewed() -> ErrorMessage:
    message = "your session was renewed: reconnecting"
    return ErrorMessage(
        type="error",
        ref=None,
        status=401,
        message=message,
        code="app:errors.session_renewed",
        params={"detail": message},
    )


def end_connection(conn: Connection, renewed: bool = False) -> None:
    """Close one socket whose credential ended (see the module's docstring)."""
    if renewed:
        conn.end(_renewed(), RENEWED, "session renewed")
    else:
        conn.end(signed_out_error(), SIGNED_OUT, SIGNED_OUT_MESSAGE)


def end_here(
    hub: Hub,
    account: str,
    sessions: list[str] | None = None,
    keep: str | None = None,
    tokens: bool = False,
    renewed: bool = False,
) -> int:
    """Close this process's sockets of ``account`` opened with one of ``sessions`` (None: any session but
    ``keep``) or, if ``tokens``, with an API token; how many were closed."""
    closed = 0
    wanted = set(sessions) if sessions is not None else None
    for conn in hub.connections():
        if conn.account != account:
            continue
        by_session = conn.session is not None and (
            conn.session in wanted if wanted is not None else conn.session != keep
        )
        if by_session or (tokens and conn.token is not None):
            end_connection(conn, renewed)
            closed += 1
    return closed


def end_everywhere(
    manager: Served,
    account: str,
    sessions: list[str] | None = None,
    keep: str | None = None,
    tokens: bool = False,
    renewed: bool = False,
) -> None:
    """:func:`end_here` on this process, and on every other through the fan-out (call it on the event
    loop, after the transaction that ended the sessions committed)."""
    for hub in (manager.hub, manager.notices.hub):
        end_here(hub, account, sessions, keep, tokens, renewed)
    message = {"account": account, "sessions": sessions, "keep": keep, "tokens": tokens, "renewed": renewed}
    manager.fanout.publish(News("", SESSIONS, 0, message, None, manager.fanout.origin))


def apply_news(hub: Hub, news: News) -> None:
    """Another process ended sessions: close the matching sockets here."""
    data = news.message or {}
    account = data.get("account")
    if not isinstance(account, str):
        return
    sessions = data.get("sessions")
    wanted = [s for s in sessions if isinstance(s, str)] if isinstance(sessions, list) else None
    keep = data.get("keep") if isinstance(data.get("keep"), str) else None
    end_here(hub, account, wanted, keep, bool(data.get("tokens")), bool(data.get("renewed")))


async def still_valid(manager: Served, conn: Connection) -> bool:
    """Whether the session or token that opened ``conn`` still holds (read from the database); if not,
    the socket is closed. A spectator's anonymous socket is always valid."""
    if conn.closed:
        return False
    if conn.session is not None:
        alive = conn.session in await asyncio.to_thread(live_sessions, manager.storage, [conn.session])
    elif conn.token is not None:
        alive = conn.token in await asyncio.to_thread(live_tokens, manager.storage, [conn.token])
    else:
        return True
    if not alive:
        end_connection(conn)
    return alive


async def check_all(manager: Served) -> int:
    """Close every socket here whose session expired or was deleted, or whose token was revoked."""
    conns = [c for c in manager.hub.connections() if c.session or c.token]
    if not conns:
        return 0
    sessions = await asyncio.to_thread(live_sessions, manager.storage, [c.session for c in conns if c.session])
    tokens = await asyncio.to_thread(live_tokens, manager.storage, [c.token for c in conns if c.token])
    closed = 0
    for conn in conns:
        if (conn.session and conn.session not in sessions) or (conn.token and conn.token not in tokens):
            end_connection(conn)
            closed += 1
    return closed


async def watch(manager: Served, every: float | None = None) -> None:
    """Run :func:`check_all` every ``every`` seconds (default :data:`CHECK_SECONDS`) until cancelled."""
    every = CHECK_SECONDS if every is None else every
    while True:
        await asyncio.sleep(every)
        try:
            await check_all(manager)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("checking the websockets' sessions failed; trying again later")
