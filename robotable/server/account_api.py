"""The account endpoints: sign up, sign in, guests, sign out, password, display name, API token.

Every answer that signs someone in sets the session cookie (see ``sessions.py``) and holds the
session's CSRF token, which the page sends back in ``X-CSRF-Token`` with each change.
"""

from __future__ import annotations

from typing import Annotated, Any

from anyio import from_thread
from fastapi import APIRouter, Request, Response
from pydantic import Field

from . import accounts, session_end, sessions
from .auth import (
    SIGN_IN_PER_ADDRESS,
    SIGN_IN_PER_USERNAME,
    OptionalAuth,
    RequiredAuth,
    check_same_origin,
    client_address,
    limits_of,
    storage_of,
)
from .errors import ApiError, Forbidden, Unauthorized
from .schemas import ErrorOut, Strict

router = APIRouter(prefix="/api/account", tags=["account"])
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 401, 403, 409, 422, 429)}

Name = Annotated[str, Field(min_length=1, max_length=100)]
Password = Annotated[str, Field(min_length=1, max_length=400)]


class SignUp(Strict):
    """A new account with a username and password."""

    username: Name
    password: Password
    display_name: Name | None = None


class SignIn(Strict):
    """Sign in with a username and password."""

    username: Name
    password: Password


class Guest(Strict):
    """A one-click guest account: only a display name."""

    display_name: Name


class SetPassword(Strict):
    """A guest chooses a username and password; an account changes its password with the current one."""

    password: Password
    username: Name | None = None
    current_password: Password | None = None


class Rename(Strict):
    """A new display name."""

    display_name: Name


def end_sockets(
    request: Request,
    account: str,
    ended: list[str] | None = None,
    keep: str | None = None,
    tokens: bool = False,
    renewed: bool = False,
) -> None:
    """Close the websockets of the sessions (and tokens) just ended, on every server process (called from
    a sync endpoint's worker thread; see session_end.py)."""
    manager = request.app.state.manager
    from_thread.run_sync(lambda: session_end.end_everywhere(manager, account, ended, keep, tokens, renewed))


def signed_in(request: Request, response: Response, account: accounts.Account, renewed: bool = False) -> dict[str, Any]:
    """Start a session for the account (ending the browser's previous one, and closing its websockets) and
    answer who it is. ``renewed``: the same person goes on (a guest got a password): the sockets reconnect."""
    storage = storage_of(request)
    old = request.cookies.get(sessions.COOKIE)
    if old:
        previous = sessions.find_session(storage, old)
        sessions.end_session(storage, old)
        if previous is not None:
            end_sockets(request, previous.account.id, [previous.id_hash], renewed=renewed)
    value, session = sessions.create_session(storage, account)
    sessions.set_cookie(response, request, value)
    return {"account": account.to_json(), "csrf": session.csrf, "via": "session"}


@router.get("", responses=ERRORS)
def who_am_i(request: Request, auth: OptionalAuth) -> dict[str, Any]:
    """The signed-in account and the session's CSRF token (``account: null`` when signed out)."""
    if auth is None:
        return {"account": None, "csrf": None, "via": None}
    storage = storage_of(request)
    return {
        "account": auth.account.to_json(),
        "csrf": auth.session.csrf if auth.session else None,
        "via": "session" if auth.session else "api_token",
        "has_api_token": accounts.has_api_token(storage, auth.account),
    }


@router.post("/signup", status_code=201, responses=ERRORS)
def sign_up(request: Request, response: Response, body: SignUp) -> dict[str, Any]:
    """Make an account with a username and password, and sign in."""
    check_same_origin(request)
    limits = limits_of(request)
    limits.hit(limits.accounts_rate, "accounts", client_address(request), what="new accounts")
    account = accounts.create_user(storage_of(request), body.username, body.password, body.display_name)
    return signed_in(request, response, account)


@router.post("/guest", status_code=201, responses=ERRORS)
def guest(request: Request, response: Response, body: Guest) -> dict[str, Any]:
    """Make a guest account from a display name, and sign in (a password can be added later)."""
    check_same_origin(request)
    limits = limits_of(request)
    limits.hit(limits.accounts_rate, "accounts", client_address(request), what="new accounts")
    account = accounts.create_guest(storage_of(request), body.display_name)
    return signed_in(request, response, account)


@router.post("/signin", responses=ERRORS)
def sign_in(request: Request, response: Response, body: SignIn) -> dict[str, Any]:
    """Sign in with a username and password (attempts are limited per username and address, and per
    address: someone else's wrong guesses never lock your right password out)."""
    check_same_origin(request)
    limits = limits_of(request)
    key = body.username.lower()
    address = client_address(request)
    limits.hit(SIGN_IN_PER_ADDRESS, "signin-address", address, what="sign-in attempts")
    limits.hit(SIGN_IN_PER_USERNAME, "signin-user", key, address, what="sign-in attempts for this username")
    account = accounts.verify_sign_in(storage_of(request), body.username, body.password)
    if account is None:
        raise Unauthorized("wrong username or password", code="app:errors.wrong_password")
    limits.clear(SIGN_IN_PER_USERNAME, "signin-user", key, address)
    return signed_in(request, response, account)


@router.post("/signout", responses=ERRORS)
def sign_out(request: Request, response: Response, auth: OptionalAuth) -> dict[str, Any]:
    """End this browser's session (with its CSRF token); signed out already is fine."""
    value = request.cookies.get(sessions.COOKIE)
    if value and auth is not None and auth.session is not None:
        sessions.end_session(storage_of(request), value)
        end_sockets(request, auth.account.id, [auth.session.id_hash])
    sessions.clear_cookie(response, request)
    return {"account": None}


@router.post("/signout-everywhere", responses=ERRORS)
def sign_out_everywhere(request: Request, response: Response, auth: RequiredAuth) -> dict[str, Any]:
    """End every session of the account (this one too) and revoke its API token: every device and script
    is signed out, and their open websockets close."""
    storage = storage_of(request)
    sessions.end_other_sessions(storage, auth.account, None)
    accounts.revoke_api_token(storage, auth.account)
    end_sockets(request, auth.account.id, None, None, tokens=True)
    sessions.clear_cookie(response, request)
    return {"account": None}


@router.post("/password", responses=ERRORS)
def set_password(request: Request, response: Response, auth: RequiredAuth, body: SetPassword) -> dict[str, Any]:
    """A guest gets a username and password (keeping its seats); an account changes its password.

    A guest's session is replaced by a new one (a new cookie: the id it had before is worth nothing).
    Changing a password ends every other session of the account and revokes its API token; their open
    websockets close on every server process.
    """
    storage = storage_of(request)
    if auth.account.is_guest:
        if not body.username:
            raise ApiError("choose a username to go with the password")
        account = accounts.set_credentials(storage, auth.account, body.username, body.password)
        if auth.session is not None:  # the session id rotates with the step from guest to account
            return {**signed_in(request, response, account, renewed=True), "account": account.to_json()}
        return {"account": account.to_json()}
    if body.current_password is None:
        raise ApiError("give the current password to change it")
    limits_of(request).hit(
        SIGN_IN_PER_USERNAME,
        "signin-user",
        (auth.account.username or "").lower(),
        client_address(request),
        what="password attempts",
    )
    accounts.change_password(storage, auth.account, body.current_password, body.password)
    keep = auth.session.id_hash if auth.session else None
    sessions.end_other_sessions(storage, auth.account, keep)
    accounts.revoke_api_token(storage, auth.account)
    end_sockets(request, auth.account.id, None, keep, tokens=True)
    return {"account": auth.account.to_json()}


@router.post("/name", responses=ERRORS)
def rename(request: Request, auth: RequiredAuth, body: Rename) -> dict[str, Any]:
    """Change the display name (seats taken from now on show the new one)."""
    return {"account": accounts.rename(storage_of(request), auth.account, body.display_name).to_json()}


@router.post("/token", responses=ERRORS)
def new_token(request: Request, auth: RequiredAuth) -> dict[str, Any]:
    """A new API token (shown once; the previous one stops working, and its websockets close). Send it as
    ``Authorization: Bearer``. Only a signed-in page makes tokens: a token cannot make its own successor."""
    if auth.session is None:
        raise Forbidden(
            "an API token cannot make API tokens: make one from a signed-in page", code="app:errors.token_from_token"
        )
    token = accounts.new_api_token(storage_of(request), auth.account)
    end_sockets(request, auth.account.id, [], tokens=True)
    return {"token": token, "header": "Authorization: Bearer <token>"}


@router.delete("/token", responses=ERRORS)
def revoke_token(request: Request, auth: RequiredAuth) -> dict[str, Any]:
    """The API token stops working."""
    accounts.revoke_api_token(storage_of(request), auth.account)
    end_sockets(request, auth.account.id, [], tokens=True)
    return {"revoked": True}
