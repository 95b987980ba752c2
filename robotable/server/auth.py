"""Who is asking: the signed-in account of a request or websocket, CSRF checks and rate limits.

A request is authenticated by one of:

- the session cookie (browsers). Every write (any method but GET, HEAD, OPTIONS) made with it must carry
  the session's CSRF token in the ``X-CSRF-Token`` header: the synchronizer-token pattern, chosen
  because the session is already a row on the server, so the token lives beside it, dies with it, needs
  no signing key shared between server processes, and cannot be planted by a sibling subdomain the way a
  double-submit cookie can. The cookie is also SameSite=Lax, so other sites' pages do not send it with
  their POSTs in the first place.
- an API token in ``Authorization: Bearer <token>`` (scripts and bots people run). Browsers never add
  that header by themselves, so it needs no CSRF token. A token in a URL is never read.

Websockets authenticate by the session cookie (or the Bearer header, for scripts) and are refused when
their ``Origin`` is another site (cross-site websocket hijacking). Sign-up, sign-in and guest accounts
are refused from another site's ``Origin`` too (login CSRF).

Rate limits use the ``limits`` library (moving windows; in memory by default, or any storage URI it
knows, e.g. ``redis://127.0.0.1:6379/0``, so several server processes share the counts; a server given
``--redis`` for its fan-out keeps them there too, under its key prefix).

Sign-in attempts are counted per (username, address) and per address, never per username alone: a
per-username lock would let anyone lock a person out of their own account from anywhere (see
docs/server.md, "Rate limits").
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, Request
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, storage_from_string
from limits.storage import Storage as Storage_
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection

from .accounts import Account, account_by_api_token, hash_secret
from .errors import Forbidden, TooManyRequests, Unauthorized
from .sessions import COOKIE, Session, find_session
from .storage import Storage

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_HEADER = "X-CSRF-Token"

#: Sign-in (and password-change) attempts allowed per (username, client address), and per client address.
SIGN_IN_PER_USERNAME = "5/minute"
SIGN_IN_PER_ADDRESS = "20/minute"
#: Accounts made per client address (sign-up and guests); ``ROBOTABLE_ACCOUNTS_RATE`` overrides it.
ACCOUNTS_PER_ADDRESS = "60/hour"


def limit_storage(storage_uri: str | None, redis_prefix: str | None = None) -> Storage_:
    """The ``limits`` storage of ``storage_uri`` (``redis://...`` keeps its keys under ``redis_prefix``
    plus ``limits``), or process memory when None."""
    if not storage_uri:
        return MemoryStorage()
    if storage_uri.startswith(("redis://", "rediss://", "redis+unix://")):
        storage = storage_from_string(storage_uri, key_prefix=f"{redis_prefix or 'robotable:'}limits")
    else:
        storage = storage_from_string(storage_uri)
    if not isinstance(storage, Storage_):
        raise ValueError(f"rate limit storage {storage_uri!r} is asynchronous; give a synchronous limits URI")
    return storage


class RateLimits:
    """The server's rate limits, on ``limits`` moving windows (shared by every process given one storage)."""

    def __init__(self, storage_uri: str | None = None, redis_prefix: str | None = None) -> None:
        self.storage = limit_storage(storage_uri, redis_prefix)
        self.shared = storage_uri is not None and not storage_uri.startswith("memory://")
        self.limiter = MovingWindowRateLimiter(self.storage)
        self.items: dict[str, RateLimitItem] = {}
        self.accounts_rate = os.environ.get("ROBOTABLE_ACCOUNTS_RATE", ACCOUNTS_PER_ADDRESS)

    def hit(self, limit: str, *key: str, what: str) -> None:
        """Count one attempt under ``key``; TooManyRequests (429) naming ``what`` when over ``limit``."""
        item = self.items.get(limit) or self.items.setdefault(limit, parse(limit))
        if not self.limiter.hit(item, *key):
            stats = self.limiter.get_window_stats(item, *key)
            wait = max(1, int(stats.reset_time - time.time()) + 1)
            allowed = limit.replace("/", " per ")
            raise TooManyRequests(f"too many {what}: at most {allowed}; try again in {wait} s", wait)

    def clear(self, limit: str, *key: str) -> None:
        """Forget the attempts under ``key`` (a successful sign-in)."""
        item = self.items.get(limit) or self.items.setdefault(limit, parse(limit))
        self.limiter.clear(item, *key)


@dataclass(frozen=True)
class Auth:
    """An authenticated request: the account, and its session when it came with the cookie."""

    account: Account
    session: Session | None  # None: an API token
    token_hash: str | None = None  # the SHA-256 of the API token it came with


def storage_of(conn: HTTPConnection) -> Storage:
    """The app's storage."""
    return conn.app.state.manager.storage


def limits_of(conn: HTTPConnection) -> RateLimits:
    """The app's rate limits."""
    return conn.app.state.limits


def client_address(conn: HTTPConnection) -> str:
    """The client's address, for per-address limits."""
    return conn.client.host if conn.client else "unknown"


def same_origin(conn: HTTPConnection) -> bool:
    """Whether the ``Origin`` header (if any) is this site. Non-browser clients send none."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc.lower() == conn.headers.get("host", "").lower()


def check_same_origin(conn: HTTPConnection) -> None:
    """Forbidden unless the request comes from this site's pages (or from a non-browser client)."""
    if not same_origin(conn):
        raise Forbidden("requests from another site's pages are refused")


def bearer_token(conn: HTTPConnection) -> str | None:
    """The API token of an ``Authorization: Bearer`` header, or None."""
    header = conn.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("the Authorization header must be 'Bearer <API token>'")
    return token.strip()


def authenticate(conn: HTTPConnection, method: str = "GET") -> Auth | None:
    """The request's account (API token first, else session cookie), checking CSRF on cookie writes."""
    storage = storage_of(conn)
    token = bearer_token(conn)
    if token is not None:
        account = account_by_api_token(storage, token)
        if account is None:
            raise Unauthorized("unknown or revoked API token")
        return Auth(account, None, hash_secret(token))
    value = conn.cookies.get(COOKIE)
    if not value:
        return None
    session = find_session(storage, value)
    if session is None:
        return None  # expired or signed out elsewhere: treated as signed out
    if method not in SAFE_METHODS:
        sent = conn.headers.get(CSRF_HEADER.lower(), "")
        if not sent or not secrets.compare_digest(sent.encode(), session.csrf.encode()):
            raise Forbidden(
                f"missing or wrong CSRF token: pages send the {CSRF_HEADER} header given by GET /api/account "
                "with every change (reload the page)"
            )
    return Auth(session.account, session)


def optional_auth(request: Request) -> Auth | None:
    """FastAPI dependency: the request's authentication, or None when signed out."""
    return authenticate(request, request.method)


def required_auth(request: Request) -> Auth:
    """FastAPI dependency: the request's authentication; 401 when signed out."""
    auth = authenticate(request, request.method)
    if auth is None:
        raise Unauthorized("sign in first (or continue as a guest)", code="app:errors.sign_in")
    return auth


def optional_account(request: Request) -> Account | None:
    """FastAPI dependency: the signed-in account, or None."""
    auth = authenticate(request, request.method)
    return auth.account if auth else None


def current_account(request: Request) -> Account:
    """FastAPI dependency: the signed-in account; 401 when signed out."""
    return required_auth(request).account


OptionalAccount = Annotated[Account | None, Depends(optional_account)]
CurrentAccount = Annotated[Account, Depends(current_account)]
OptionalAuth = Annotated[Auth | None, Depends(optional_auth)]
RequiredAuth = Annotated[Auth, Depends(required_auth)]


def websocket_auth(conn: HTTPConnection) -> Auth | None:
    """The authentication of a websocket handshake (session cookie or Bearer header); Forbidden if cross-site."""
    check_same_origin(conn)
    return authenticate(conn, "GET")
