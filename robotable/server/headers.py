"""Security headers on every HTTP response: CSP, frame-ancestors, referrer policy, nosniff.

The client is plain ES modules served from ``/static/`` with no inline script, so scripts come from
this origin only. Inline *styles* are allowed: the Twin Tin Bots table colours its pieces with style
attributes. The invite links carry a seat's token in their query, so no page sends a referrer. The
OpenAPI pages (``/docs``, ``/redoc``) load FastAPI's Swagger UI and ReDoc from their CDN and get a
policy of their own that allows it.
"""

from __future__ import annotations

from typing import Any

#: The policy of every page of the app.
CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
#: The policy of the OpenAPI pages (Swagger UI and ReDoc from the jsDelivr CDN, with inline setup).
DOCS_CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net",
        "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com",
        "font-src 'self' https://fonts.gstatic.com",
        "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly",
        "worker-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
    ]
)
DOCS_PATHS = ("/docs", "/redoc")

COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeadersMiddleware:
    """ASGI middleware adding the headers above to every HTTP response (errors included)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = DOCS_CSP if scope["path"].startswith(DOCS_PATHS) else CSP
        extra = [*COMMON, (b"content-security-policy", csp.encode())]

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", ())}
                message["headers"] = [*message.get("headers", ()), *(h for h in extra if h[0] not in names)]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class HeadMiddleware:
    """ASGI middleware: ``HEAD`` works wherever ``GET`` does (FastAPI's routes answer only the methods they
    name): a HEAD request is served as a GET whose body is dropped, headers (length included) kept."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)
