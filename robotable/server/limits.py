"""Input limits at the edge: body size, JSON shape, per-IP rates and connections.

Every HTTP request body and every websocket message is read through :func:`parse_json`, which refuses,
with a message naming the problem and never echoing the input:

- more than :data:`MAX_BODY` bytes (HTTP: 413 before the rest is read; websocket: an ``error``);
- nesting deeper than :data:`MAX_DEPTH` arrays/objects;
- a number written with more than :data:`MAX_NUMBER_CHARS` characters, ``NaN`` and ``Infinity``;
- a string or key holding a NUL or a lone surrogate (neither can be stored or sent back as UTF-8).

:class:`EdgeMiddleware` applies the body rules to every ``/api/`` request before FastAPI sees it, and
the per-IP table-creation rate. Rates use the ``limits`` library (moving windows) on the app's limit
storage: process memory by default, Redis when the server has one (``--redis`` or
``--rate-limit-storage``), so every process of a cluster counts the same clients together. The number
of websockets an address holds open at once is counted per process (it is a count of live sockets,
not a rate). :class:`Limits` holds the numbers, from the environment.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, Storage
from limits.strategies import MovingWindowRateLimiter

from .errors import ApiError, TooManyRequests
from .messages import ws_error

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

#: Largest request body and websocket message, in bytes.
MAX_BODY = 64 * 1024
#: Deepest nesting of arrays and objects accepted in any JSON input.
MAX_DEPTH = 32
#: Longest number literal accepted (2**63 has 19 digits; floats rarely need more than 25 characters).
MAX_NUMBER_CHARS = 40
#: Seconds a client has to send a whole request body.
BODY_TIMEOUT = 10.0


class TooLarge(ApiError):
    """A body or message over the size limit."""

    status = 413


class TooMany(TooManyRequests):
    """A rate, connection or quota limit was reached: try again in ``retry_after`` seconds (``Retry-After``)."""

    def __init__(self, message: str, retry_after: int = 60) -> None:
        ApiError.__init__(self, message)
        self.retry_after = retry_after


class TimedOut(ApiError):
    """The client took too long to send its request."""

    status = 408


@dataclass(frozen=True)
class Limits:
    """The per-IP limits of one web process (``ROBOTABLE_*`` environment variables override them)."""

    #: Tables one IP may create (``POST /api/tables``, "play again"), as a ``limits`` rate string.
    create_rate: str = "30/minute"
    #: Websockets one IP may hold open at once.
    websockets_per_ip: int = 200
    #: Websocket connections one IP may open, as a rate.
    websocket_rate: str = "300/minute"
    #: Hints one account (or address) may ask for (``POST /api/tables/{id}/hint``), as a rate.
    hint_rate: str = "6/minute"

    @classmethod
    def from_env(cls) -> Limits:
        """The defaults, overridden by ``ROBOTABLE_CREATE_RATE``, ``ROBOTABLE_WS_PER_IP``, ``ROBOTABLE_WS_RATE``,
        ``ROBOTABLE_HINT_RATE``."""
        env = os.environ
        return cls(
            create_rate=env.get("ROBOTABLE_CREATE_RATE", cls.create_rate),
            websockets_per_ip=int(env.get("ROBOTABLE_WS_PER_IP", cls.websockets_per_ip)),
            websocket_rate=env.get("ROBOTABLE_WS_RATE", cls.websocket_rate),
            hint_rate=env.get("ROBOTABLE_HINT_RATE", cls.hint_rate),
        )


# -- JSON -----------------------------------------------------------------------------------------


def _number(text: str, convert: type) -> Any:
    if len(text) > MAX_NUMBER_CHARS:
        raise ApiError(f"a number is written with {len(text)} characters (at most {MAX_NUMBER_CHARS})")
    return convert(text)


def _constant(name: str) -> Any:
    raise ApiError(f"{name} is not a JSON number")


def parse_json(raw: str | bytes, what: str = "the body") -> Any:
    """``raw`` parsed as JSON within the limits above; ApiError (400, 413) naming the problem."""
    size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
    if size > MAX_BODY:
        raise TooLarge(f"{what} is {size} bytes, more than the {MAX_BODY} accepted")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError(f"{what} is not UTF-8 text") from None
    try:
        data = json.loads(
            raw,
            parse_int=lambda s: _number(s, int),
            parse_float=lambda s: _number(s, float),
            parse_constant=_constant,
        )
    except RecursionError:
        raise ApiError(f"{what} nests arrays and objects more than {MAX_DEPTH} deep") from None
    except json.JSONDecodeError as exc:
        raise ApiError(f"{what} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    check_json(data, what)
    return data


def check_json(data: Any, what: str = "the body") -> None:
    """Refuse nesting deeper than MAX_DEPTH and strings holding NUL or a lone surrogate (iteratively)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _check_text(value, what)
        elif isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                raise ApiError(f"{what} nests arrays and objects more than {MAX_DEPTH} deep")
            if isinstance(value, dict):
                for key, item in value.items():
                    _check_text(key, what)
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in value)


def _check_text(text: str, what: str) -> None:
    if "\x00" in text:
        raise ApiError(f"{what} holds a string with a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(f"{what} holds a string with a lone surrogate (not valid Unicode)") from None


# -- rates and connections --------------------------------------------------------------------------


class RateLimiter:
    """Per-IP moving-window rates (the ``limits`` library) and open websockets per IP."""

    def __init__(self, limits: Limits | None = None, storage: Storage | None = None, shared: bool = False) -> None:
        self.limits = limits or Limits.from_env()
        self._limiter = MovingWindowRateLimiter(storage or MemoryStorage())
        #: whether the counts live in another process (Redis): hits then run off the event loop
        self.shared = shared
        self._create: RateLimitItem = parse(self.limits.create_rate)
        self._ws_rate: RateLimitItem = parse(self.limits.websocket_rate)
        self._hint: RateLimitItem = parse(self.limits.hint_rate)
        self.websockets: Counter[str] = Counter()

    def _wait(self, item: RateLimitItem, *key: str) -> int:
        """Seconds until ``key`` may try again under ``item``."""
        stats = self._limiter.get_window_stats(item, *key)
        return max(1, int(stats.reset_time - time.time()) + 1)

    def hit_create(self, ip: str) -> None:
        """Count a table creation; TooMany (with the seconds to wait) beyond the rate."""
        if not self._limiter.hit(self._create, "create", ip):
            rate = self.limits.create_rate
            wait = self._wait(self._create, "create", ip)
            raise TooMany(f"too many tables created from your address (at most {rate}); wait a little", wait)

    async def hit_create_async(self, ip: str) -> None:
        """:meth:`hit_create` from the event loop (in a thread when the counts are in Redis)."""
        if self.shared:
            await asyncio.to_thread(self.hit_create, ip)
        else:
            self.hit_create(ip)

    def hit_hint(self, owner: str) -> None:
        """Count a hint asked for by ``owner`` (an account, else an address); TooMany beyond the rate."""
        if not self._limiter.hit(self._hint, "hint", owner):
            wait = self._wait(self._hint, "hint", owner)
            raise TooMany(f"too many hints asked for (at most {self.limits.hint_rate}); wait a little", wait)

    async def hit_hint_async(self, owner: str) -> None:
        """:meth:`hit_hint` from the event loop (in a thread when the counts are in Redis)."""
        if self.shared:
            await asyncio.to_thread(self.hit_hint, owner)
        else:
            self.hit_hint(owner)

    def open_websocket(self, ip: str) -> None:
        """Count an opening websocket; TooMany beyond the rate or the number open at once."""
        if self.websockets[ip] >= self.limits.websockets_per_ip:
            raise TooMany(f"too many open connections from your address (at most {self.limits.websockets_per_ip})", 10)
        if not self._limiter.hit(self._ws_rate, "ws", ip):
            wait = self._wait(self._ws_rate, "ws", ip)
            raise TooMany(f"too many connections opened from your address (at most {self.limits.websocket_rate})", wait)
        self.websockets[ip] += 1

    async def open_websocket_async(self, ip: str) -> None:
        """:meth:`open_websocket` from the event loop (the rate in a thread when the counts are in Redis)."""
        if not self.shared:
            self.open_websocket(ip)
            return
        if self.websockets[ip] >= self.limits.websockets_per_ip:
            raise TooMany(f"too many open connections from your address (at most {self.limits.websockets_per_ip})", 10)
        if not await asyncio.to_thread(self._limiter.hit, self._ws_rate, "ws", ip):
            wait = await asyncio.to_thread(self._wait, self._ws_rate, "ws", ip)
            raise TooMany(f"too many connections opened from your address (at most {self.limits.websocket_rate})", wait)
        self.websockets[ip] += 1

    def close_websocket(self, ip: str) -> None:
        """Forget a closed websocket."""
        self.websockets[ip] -= 1
        if self.websockets[ip] <= 0:
            del self.websockets[ip]


def client_ip(scope: Mapping[str, Any]) -> str:
    """The client's address (uvicorn puts a trusted proxy's ``X-Forwarded-For`` here)."""
    client = scope.get("client")
    return client[0] if client else "unknown"


# -- the middleware -------------------------------------------------------------------------------

#: Requests that create a table, counted by the creation rate.
CREATING = {("POST", "/api/tables")}


class EdgeMiddleware:
    """ASGI middleware: bounded, checked JSON bodies on ``/api/`` and the table-creation rate.

    The body is read (at most MAX_BODY bytes, within BODY_TIMEOUT seconds), checked with
    :func:`parse_json`, then handed on unchanged. A refusal is a JSON ``{"detail": ...}`` answer.
    """

    def __init__(self, app: Any, rates: RateLimiter) -> None:
        self.app = app
        self.rates = rates

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            problem = target_problem(scope)
            if problem is not None:
                if scope["type"] == "websocket":  # refused before the handshake: HTTP 403
                    await send({"type": "websocket.close", "code": 4400, "reason": problem})
                else:
                    await _answer(send, ApiError(problem))
                return
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        try:
            body = await asyncio.wait_for(self._read_body(scope, receive), BODY_TIMEOUT)
            if body:
                parse_json(body)
            if (scope["method"], scope["path"].rstrip("/")) in CREATING or _is_again(scope):
                await self.rates.hit_create_async(client_ip(scope))
        except TimeoutError:
            await _answer(send, TimedOut(f"the request body did not arrive within {BODY_TIMEOUT:g} s"))
            return
        except TooLarge as exc:
            await _answer(send, exc)
            return
        except ApiError as exc:
            if exc.status == 400:  # a body that is not acceptable JSON: 422, like one that misses the schema
                exc.status = 422
            await _answer(send, exc)
            return
        except _Disconnected:
            return
        await self.app(scope, _replay(body, receive), send)

    @staticmethod
    async def _read_body(scope: dict[str, Any], receive: Any) -> bytes:
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > MAX_BODY:
                raise TooLarge(f"the body is {int(value)} bytes, more than the {MAX_BODY} accepted")
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _Disconnected
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY:
                raise TooLarge(f"the body is more than the {MAX_BODY} bytes accepted")
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


class _Disconnected(Exception):
    pass


#: Characters no path or query parameter may hold: C0 controls (NUL first), DEL, C1 controls, lone
#: surrogates, and U+FFFD, which stands for bytes that were not UTF-8 once the target is decoded.
_BAD_CHARS = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffd]")
#: Longest path segment (an id, a name) and longest query parameter value, in characters.
MAX_SEGMENT = 200


def target_problem(scope: dict[str, Any]) -> str | None:
    """What is wrong with the request's path or query (never quoting it), or None: the edge check that
    every path and query parameter passes before any route, so no database is handed a NUL or a lone
    surrogate (PostgreSQL refuses them) and every such request is a 400 on every database."""
    path = scope.get("path", "")
    if _BAD_CHARS.search(path):
        return "the path holds a control character or bytes that are not UTF-8"
    if any(len(segment) > MAX_SEGMENT for segment in path.split("/")):
        return f"a part of the path is longer than {MAX_SEGMENT} characters"
    query = scope.get("query_string", b"")
    if query:
        try:
            pairs = parse_qsl(query.decode("ascii"), keep_blank_values=True, errors="strict")
        except (UnicodeDecodeError, ValueError):
            return "the query holds a control character or bytes that are not UTF-8"
        for name, value in pairs:
            if _BAD_CHARS.search(name) or _BAD_CHARS.search(value):
                return "the query holds a control character or bytes that are not UTF-8"
    return None


def _is_again(scope: dict[str, Any]) -> bool:
    path = scope["path"]
    return scope["method"] == "POST" and path.startswith("/api/tables/") and path.endswith("/again")


def _replay(body: bytes, receive: Any) -> Any:
    """A ``receive`` that hands over the body already read, then the client's next messages."""
    sent = False

    async def replay() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _answer(send: Any, exc: ApiError) -> None:
    body = json.dumps(exc.body()).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if exc.status in (408, 413):
        headers.append((b"connection", b"close"))
    if isinstance(exc, TooManyRequests):
        headers.append((b"retry-after", str(exc.retry_after).encode()))
    await send({"type": "http.response.start", "status": exc.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def serve_counted(websocket: WebSocket, serve: Callable[[], Awaitable[None]]) -> None:
    """Accept ``websocket`` and count it against its address's open sockets (over the limit: an ``error``
    message and close code 4000 + status), run ``serve``, then give the place back whatever happens."""
    rates: RateLimiter = websocket.app.state.rates
    ip = client_ip(websocket.scope)
    await websocket.accept()
    try:
        await rates.open_websocket_async(ip)
    except ApiError as exc:
        await websocket.send_json(ws_error(exc))
        await websocket.close(code=4000 + exc.status)
        return
    try:
        await serve()
    finally:
        rates.close_websocket(ip)
