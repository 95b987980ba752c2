"""Errors the server answers with: each has an HTTP status and a message naming what was wrong.

An answer is ``{"detail": "the English message", "code": "app:errors.<key>", "params": {...}}``: ``code`` is
a key of the message catalogue (docs/i18n.md) that the client shows as ``t(code, params)`` in the
reader's language. An engine refusal or malformed input given as a ``Reason`` answers with the game's key
(``<game id>:<code>``, or the core's ``app:errors.action.*``) and its params as people read them: seats and
places numbered from 1, components as catalogue keys (``core.errors.person_params``; ``detail`` stays the
engine's English). A
refusal without a code of its own gets its class's generic one, whose text carries the English detail
(``params = {"detail": ...}``).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from robotable.core import BadInput, GameOver, IllegalAction, NotYourTurn, RobotableError
from robotable.core.errors import person_params

log = logging.getLogger("robotable.server")

#: What a client is told about an unexpected server error (the details go to the log).
INTERNAL = "internal server error: the request could not be completed (it has been logged)"


_IDENTIFIER = re.compile(r"[A-Za-z0-9_-]{1,24}")


def quoted(value: object) -> str:
    """``value`` as an error message may quote it back: only a short identifier (1 to 24 ASCII letters,
    digits, ``-``, ``_``) is shown, in quotes; anything else is not repeated ("(not shown)")."""
    if isinstance(value, str) and _IDENTIFIER.fullmatch(value):
        return repr(value)
    return "(not shown)"


class ApiError(Exception):
    """A refused request: ``status`` is the HTTP status, the message says why (in English); ``code`` and
    ``params`` say it for the catalogue (``code`` defaults to the class's generic one)."""

    status = 400
    generic = "app:errors.bad_request"

    def __init__(self, message: str, code: str | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.generic
        self.params = dict(params) if params is not None else {}
        if code is None:
            self.params.setdefault("detail", message)

    def body(self) -> dict[str, Any]:
        """The JSON answer: the English ``detail``, the catalogue ``code`` and its ``params``."""
        return {"detail": self.message, "code": self.code, "params": self.params}


class NotFound(ApiError):
    """No such table or seat."""

    status = 404
    generic = "app:errors.not_found"


class Forbidden(ApiError):
    """A missing or wrong seat token, or a seat the requester does not hold."""

    status = 403
    generic = "app:errors.forbidden"


class Conflict(ApiError):
    """Well-formed, but not possible now: out of turn, illegal, stale, game over, undo refused."""

    status = 409
    generic = "app:errors.conflict"


def from_game_error(exc: RobotableError) -> ApiError:
    """Map an engine error to the answer: malformed input is 400, a refused move 409."""
    if isinstance(exc, NotYourTurn):
        detail = str(exc)
        if exc.player is not None:  # people read seats from 1 (the engine speaks of indexes)
            waiting = ", ".join(str(s + 1) for s in exc.waiting)
            detail = f"seat {exc.player + 1} is not to act (waiting for seat {waiting})"
        return Conflict(detail, code="app:errors.not_your_turn", params={"detail": detail})
    if isinstance(exc, GameOver):
        return Conflict(str(exc), code="app:errors.game_over")
    code = exc.catalogue_code()
    if code:
        # the game's (or the core's) own key; seats, places and names as people read them (core.errors.Reason)
        params = person_params(exc.params or {}, code.split(":", 1)[0])
        cls = Conflict if isinstance(exc, IllegalAction) else ApiError
        return cls(str(exc), code=code, params=params)
    if isinstance(exc, IllegalAction):
        return Conflict(str(exc), code="app:errors.illegal", params={"detail": str(exc)})
    if isinstance(exc, BadInput):
        return ApiError(str(exc))
    return ApiError(str(exc))


class Unauthorized(ApiError):
    """Not signed in (no session cookie, an expired session, or a wrong API token)."""

    status = 401
    generic = "app:errors.unauthorized"


class TooManyRequests(ApiError):
    """Too many attempts in too short a time (sign-in, chat); ``retry_after`` says when to try again."""

    status = 429

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message, code="app:errors.rate_limited", params={"seconds": retry_after})
        self.retry_after = retry_after


class CatchAll:
    """ASGI middleware: an unexpected exception is logged here and answered 500 ``{"detail": ...}``.

    The answer is generic (no traceback, nothing of the request); the log has the details.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: dict[str, Any]) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:
            log.exception("internal error on %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise
            body = json.dumps({"detail": INTERNAL, "code": "app:errors.internal", "params": {}}).encode()
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 500, "headers": headers})
            await send({"type": "http.response.body", "body": body})
