"""Serving the app with uvicorn: timeouts, connection limits and a database URL fit to print.

uvicorn's own settings used (see docs/server.md "Limits"):

- ``timeout_keep_alive``: an idle keep-alive connection is closed after :data:`KEEP_ALIVE` seconds;
- ``ws_max_size``: a websocket frame over :data:`WS_MAX_FRAME` bytes closes the socket (code 1009);
  messages up to that size but over the app's 64 KiB limit get an ``error`` message and stay open;
- ``ws_ping_interval`` / ``ws_ping_timeout``: a websocket whose peer stopped answering is closed;
- ``ws_per_message_deflate`` off: compressing every update cost more CPU than the bytes it saved (a
  proxy in front may still compress for slow links).

A served process's garbage collector is set by :func:`collector.tune_garbage_collection
<robotable.server.collector.tune_garbage_collection>`.

uvicorn has no timeout for a request's headers (slowloris), so :class:`_Guard`, a few additions to its
httptools protocol, closes a connection whose request headers have not all arrived within
:data:`HEADER_TIMEOUT` seconds of its first byte (or of the connection: 408), refuses a request target
over :data:`MAX_URL` bytes (414, websocket upgrades included, which uvicorn's websocket side would
leave unanswered) or a head over :data:`MAX_HEAD` (431), and refuses more than
``ROBOTABLE_CONNECTIONS_PER_IP`` open HTTP connections from one address (503). Behind a proxy every
connection comes from the proxy: there the proxy enforces these (see the nginx example in the docs)
and ``ROBOTABLE_CONNECTIONS_PER_IP=0`` turns ours off.
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import make_url

from .collector import tune_garbage_collection
from .headers import COMMON, CSP

#: The security headers of every app answer, on the refusals written here below the app too.
TRANSPORT_HEADERS = b"".join(
    name + b": " + value + b"\r\n" for name, value in [*COMMON, (b"content-security-policy", CSP.encode())]
)

#: Seconds a connection has to send its request headers.
HEADER_TIMEOUT = float(os.environ.get("ROBOTABLE_HEADER_TIMEOUT", "10"))
#: Seconds an idle keep-alive connection stays open.
KEEP_ALIVE = 5
#: Largest websocket frame uvicorn reads (bigger ones close the socket with 1009).
WS_MAX_FRAME = 1024 * 1024
#: Open HTTP connections one address may hold (0: no limit).
CONNECTIONS_PER_IP = 256
#: Longest request target (path and query) and longest request head (target and headers), in bytes.
MAX_URL = 4096
MAX_HEAD = 32 * 1024


class _Refused(Exception):
    """Stops the parser after a refusal was written."""


def redacted(url: str) -> str:
    """A database URL fit to print: the password replaced by ``***``."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: show no more than the part after any '@'
        return url.rsplit("@", 1)[-1]


if TYPE_CHECKING:  # the checker sees the protocol _Guard is mixed into; at run time it is imported late
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Protocol
else:
    _Protocol = object


class _Guard(_Protocol):
    """Additions to httptools' protocol: a header timeout, URL and head sizes, connections per address.

    Mixed in before uvicorn's ``HttpToolsProtocol`` by :func:`_guarded_protocol`, which sets
    ``per_ip`` and the shared ``open_per_ip`` counter. The attributes used (``transport``, ``loop``,
    ``client``, ``url``) are the protocol's.
    """

    per_ip = 0
    open_per_ip: Counter[str]

    _header_timer: asyncio.TimerHandle | None = None
    _counted: str | None = None
    _refused = False
    _head_size = 0

    # as uvicorn's own method, narrower than asyncio's BaseProtocol (which takes any BaseTransport)
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        ip = self.client[0] if self.client else None
        if self.per_ip and ip is not None:
            if self.open_per_ip[ip] >= self.per_ip:
                self._refuse(b"503 Service Unavailable", b"too many connections from your address")
                return
            self.open_per_ip[ip] += 1
            self._counted = ip
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(HEADER_TIMEOUT, self._headers_late)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _uncount(self) -> None:
        if self._counted is not None:
            self.open_per_ip[self._counted] -= 1
            if self.open_per_ip[self._counted] <= 0:
                del self.open_per_ip[self._counted]
            self._counted = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self._refuse(b"408 Request Timeout", b"the request headers did not arrive in time")

    def _refuse(self, status: bytes, message: bytes) -> None:
        self._refused = True
        self._disarm()
        body = b'{"detail": "' + message + b'"}'
        self.transport.write(
            b"HTTP/1.1 "
            + status
            + b"\r\ncontent-type: application/json\r\nconnection: close\r\n"
            + TRANSPORT_HEADERS
            + b"content-length: "
            + str(len(body)).encode()
            + b"\r\n\r\n"
            + body
        )
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if not self._refused:
            super().data_received(data)

    def send_400_response(self, msg: str) -> None:
        if not self._refused:  # else a refusal of ours stopped the parser: it has answered already
            self._refuse(b"400 Bad Request", b"invalid HTTP request")  # JSON, not uvicorn's plain text

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_size = 0
        if self._header_timer is None:
            self._arm()  # the next request on a kept-alive connection

    def _grow_head(self, size: int) -> None:
        self._head_size += size
        if len(self.url) > MAX_URL:
            self._refuse(b"414 URI Too Long", b"the request target is longer than " + str(MAX_URL).encode())
            raise _Refused
        if self._head_size > MAX_HEAD:
            self._refuse(b"431 Request Header Fields Too Large", b"the request headers are too large")
            raise _Refused

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        self._grow_head(len(url))

    def on_header(self, name: bytes, value: bytes) -> None:
        super().on_header(name, value)
        self._grow_head(len(name) + len(value) + 4)

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self._uncount()  # the websocket is counted by the app (limits.RateLimiter)
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._uncount()
        super().connection_lost(exc)


def _guarded_protocol(per_ip: int) -> type:
    """uvicorn's httptools protocol with :class:`_Guard`'s additions, at most ``per_ip`` connections an address."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    return type("GuardedHttp", (_Guard, HttpToolsProtocol), {"per_ip": per_ip, "open_per_ip": Counter()})


def uvicorn_options(forwarded_allow_ips: str | None = None) -> dict[str, Any]:
    """uvicorn keyword arguments with the limits above (``ROBOTABLE_CONNECTIONS_PER_IP`` overrides).

    ``X-Forwarded-For`` / ``X-Forwarded-Proto`` are read only from the proxies listed in
    ``forwarded_allow_ips`` (or ``ROBOTABLE_FORWARDED_ALLOW_IPS``); by default none is trusted (uvicorn's
    own default trusts 127.0.0.1, which lets any local client reset its per-address counts)."""
    per_ip = int(os.environ.get("ROBOTABLE_CONNECTIONS_PER_IP", CONNECTIONS_PER_IP))
    trusted = (forwarded_allow_ips or os.environ.get("ROBOTABLE_FORWARDED_ALLOW_IPS") or "").strip()
    options: dict[str, Any] = {
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": trusted or "",
        "server_header": False,
        "timeout_keep_alive": KEEP_ALIVE,
        "ws_max_size": WS_MAX_FRAME,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "ws_per_message_deflate": False,
        "log_level": "warning",
    }
    try:
        options["http"] = _guarded_protocol(per_ip)
    except ImportError:  # no httptools: uvicorn's h11 protocol, without the header timeout
        options["http"] = "h11"
    return options


def serve(app: Any, host: str, port: int, forwarded_allow_ips: str | None = None) -> None:
    """Run ``app`` with uvicorn and the limits above (proxies trusted: see :func:`uvicorn_options`)."""
    import uvicorn

    tune_garbage_collection()
    uvicorn.run(app, host=host, port=port, **uvicorn_options(forwarded_allow_ips))
