"""Test helpers for people: guest accounts with API tokens, tables whose invites guests accept, browsers
signed in as guests. Every helper goes through the public HTTP API, as a script or a browser would."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx


def call(client: Any, method: str, path: str, token: str | None = None, **kwargs: Any) -> httpx.Response:
    """One request to a TestClient or a ServerProcess, as the account of API token ``token`` (if any)."""
    headers = dict(kwargs.pop("headers", None) or {})
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if hasattr(client, "api"):  # a ServerProcess
        return client.api(method, path, headers=headers, **kwargs)
    return client.request(method, path, headers=headers, **kwargs)


def guest_token(client: Any, name: str = "Player") -> str:
    """A new guest account's API token (made as a script would: guest session, then a token)."""

    def make(http: Any) -> str:
        res = http.post("/api/account/guest", json={"display_name": name})
        assert res.status_code == 201, res.text
        res = http.post("/api/account/token", headers={"X-CSRF-Token": res.json()["csrf"]})
        assert res.status_code == 200, res.text
        return res.json()["token"]

    if hasattr(client, "api"):  # a ServerProcess
        with httpx.Client(base_url=client.url, timeout=10) as http:
            return make(http)
    token = make(client)
    client.cookies.clear()  # the TestClient is shared: later calls say who they are with their token
    return token


def new_table(
    client: Any, seats: list[dict[str, Any]], game: str = "tf22-reload", creator: str | None = None, **extra: Any
) -> dict[str, Any]:
    """Create a table through the API (a TestClient or a ServerProcess) as a guest (or ``creator``'s API
    token), let a new guest account accept each invite, and return the answer with ``tokens``: the API
    token of the account playing each person seat (all the creator's on a hotseat table)."""
    people = [i for i, s in enumerate(seats) if s.get("kind", "human") == "human"]
    creator = creator or guest_token(client, f"Player {people[0] + 1}" if people else "Creator")
    body = {"game": game, "num_players": len(seats), "seats": seats, **extra}
    res = call(client, "POST", "/api/tables", creator, json=body)
    assert res.status_code == 201, res.text
    data = res.json()
    table_id = data["table"]["id"]
    invites = {int(k): v for k, v in data["invites"].items()}
    tokens = {seat: creator for seat in people if seat not in invites}
    for seat, link in invites.items():
        tokens[seat] = guest_token(client, f"Player {seat + 1}")
        code = link.rsplit("/", 1)[1]
        accepted = call(client, "POST", "/api/invites/accept", tokens[seat], json={"code": code})
        assert accepted.status_code == 200, accepted.text
    data["table"] = call(client, "GET", f"/api/tables/{table_id}").json()
    data["tokens"] = tokens
    data["creator"] = creator
    data["links"] = {str(seat): f"/table/{table_id}?seat={seat}" for seat in tokens}
    return data


def bearer(token: str) -> dict[str, str]:
    """The header that says which account a script request is for."""
    return {"Authorization": f"Bearer {token}"}


def browser_guest(context: Any, base_url: str, name: str = "Player 1") -> str:
    """Sign a Playwright browser context in as a new guest (its cookie jar gets the session) and return
    an API token of that account, so a test can set up tables for it."""
    res = context.request.post(f"{base_url}/api/account/guest", data={"display_name": name})
    assert res.status == 201, res.text()
    csrf = res.json()["csrf"]
    res = context.request.post(f"{base_url}/api/account/token", headers={"X-CSRF-Token": csrf})
    assert res.status == 200, res.text()
    return res.json()["token"]


def wait_for(predicate: Callable[[], Any], what: str = "the condition", timeout: float = 180.0) -> Any:
    """Poll ``predicate`` until it returns something true, and return that. The timeout is only a guard
    against a hang, generous so a busy machine never trips it: tests wait for conditions, not for time
    (a background review started in a spawned process took over 60 s with the machine at load 15-18)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out after {timeout:.0f} s waiting for {what}"
        time.sleep(0.02)


def finished_bot_table(server: Any, game: str, creator: str, seats: int = 2, timeout: float = 60.0) -> str:
    """A table of ``seats`` random bots made by ``creator`` (an API token), once its game has finished
    (for replays); its id."""
    made = new_table(server, [{"kind": "bot", "difficulty": "random"}] * seats, game=game, creator=creator)
    table = made["table"]["id"]
    deadline = time.monotonic() + timeout
    while server.api("GET", f"/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, f"the bots of table {table} did not finish in {timeout:.0f} s"
        time.sleep(0.1)
    return table


class Browsers:
    """In-process clients on one app, each with its own cookie jar, as several browsers on one server:
    the first starts the app (its lifespan, in its own event loop) and the others use that same loop.

    (A TestClient entered on its own starts the app's lifespan again in a new event loop; two lifespans
    of one app leave tasks of one loop behind in the other, and stopping them could hang.)"""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.clients: list[Any] = []

    def new(self, **kwargs: Any) -> Any:
        """Another browser on the app."""
        from fastapi.testclient import TestClient

        client = TestClient(self.app, **kwargs)
        if self.clients:
            client.portal = self.clients[0].portal
        else:
            client.__enter__()
        self.clients.append(client)
        return client

    def close(self) -> None:
        """Stop the app (once)."""
        if self.clients:
            self.clients[0].__exit__(None, None, None)
