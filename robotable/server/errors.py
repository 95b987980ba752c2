"""Errors the server answers with: each has an HTTP status and a message naming what was wrong."""

from __future__ import annotations

from robotable.core import BadInput, GameOver, IllegalAction, NotYourTurn, RobotableError


class ApiError(Exception):
    """A refused request: ``status`` is the HTTP status, the message says why."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(ApiError):
    """No such table or seat."""

    status = 404


class Forbidden(ApiError):
    """A missing or wrong seat token, or a seat the requester does not hold."""

    status = 403


class Conflict(ApiError):
    """Well-formed, but not possible now: out of turn, illegal, stale, game over, undo refused."""

    status = 409


def from_game_error(exc: RobotableError) -> ApiError:
    """Map an engine error to the answer: malformed input is 400, a refused move 409."""
    if isinstance(exc, NotYourTurn | GameOver | IllegalAction):
        return Conflict(str(exc))
    if isinstance(exc, BadInput):
        return ApiError(str(exc))
    return ApiError(str(exc))


class Unauthorized(ApiError):
    """Not signed in (no session cookie, an expired session, or a wrong API token)."""

    status = 401


class TooManyRequests(ApiError):
    """Too many attempts in too short a time (sign-in, chat); ``retry_after`` says when to try again."""

    status = 429

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after
