"""Friends over the API on SQLite and PostgreSQL: requests accepted, the private list with who is online
and their tables, a seat offered to a friend (a live notice, then in their "My tables"), blocks, limits,
and a notice crossing two server processes through Redis."""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from people import bearer, guest_token, wait_for
from test_security_edges import docs_rows

from robotable.server import create_app, friends
from robotable.server.notices import FriendCard, FriendNotice, SeatOfferNotice

PASSWORD = "correct horse 1"
HUMAN = {"kind": "human"}


@pytest.fixture
def make(database: tuple[str, str | None]) -> Iterator[Callable[..., TestClient]]:
    """In-process apps over the parametrized database (``redis=``: with a Redis fan-out)."""
    url, schema = database
    clients: list[TestClient] = []

    def new(**extra: Any) -> TestClient:
        client = TestClient(create_app(url, schema=schema, bot_delay=0, **extra))
        client.__enter__()
        clients.append(client)
        return client

    yield new
    for client in reversed(clients):
        client.__exit__(None, None, None)


def member(client: TestClient, username: str) -> str:
    """A new account with a username; its API token."""
    res = client.post("/api/account/signup", json={"username": username, "password": PASSWORD})
    assert res.status_code == 201, res.text
    res = client.post("/api/account/token", headers={"X-CSRF-Token": res.json()["csrf"]})
    assert res.status_code == 200, res.text
    client.cookies.clear()
    return res.json()["token"]


def call(client: TestClient, method: str, path: str, token: str, body: Any = None) -> Any:
    return client.request(method, path, json=body, headers=bearer(token))


def ok(res: Any) -> Any:
    assert res.status_code in (200, 201), res.text
    return res.json()


def refused(res: Any, status: int, words: str) -> None:
    assert res.status_code == status, res.text
    assert words in res.json()["detail"], res.text


def table_waiting_for(client: TestClient, token: str, links: dict[str, str] | None = None) -> str:
    """A two-seat TF22 table the account made, its second seat waiting for an invited player (its invite
    code put in ``links`` under the table's id)."""
    body = {"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, HUMAN]}
    made = ok(call(client, "POST", "/api/tables", token, body))
    if links is not None:
        links[made["table"]["id"]] = made["invites"]["1"].rsplit("/", 1)[1]
    return made["table"]["id"]


def notice(socket: Any) -> dict[str, Any]:
    """The next notice on a friends socket, checked against its declared type (no field more or less)."""
    got: dict[str, Any] = socket.receive_json()
    declared = SeatOfferNotice if got["type"] == "seat_offer" else FriendNotice
    assert set(got) == set(declared.__annotations__), got
    assert set(got["from"]) == set(FriendCard.__annotations__), got
    return got


@contextlib.contextmanager
def friends_socket(client: TestClient, token: str | None = None) -> Iterator[Any]:
    """A friends socket (``token``'s, else the session cookie's), yielded once the server holds it: the
    socket says nothing when it opens, and a notice sent before the server holds it goes nowhere (the
    test would then wait for it for ever)."""
    hub = client.app.state.manager.notices.hub
    held = hub.count()
    with client.websocket_connect("/ws/friends", headers=bearer(token) if token else {}) as socket:
        wait_for(lambda: hub.count() > held, "the friends socket to be held")
        yield socket


def test_friends_offer_a_seat_and_block(make) -> None:
    client = make()
    ann, bob, cat = member(client, "ann"), member(client, "Bob"), member(client, "cat")
    ids = {
        name: ok(call(client, "GET", "/api/account", tok))["account"]["id"]
        for name, tok in [("ann", ann), ("bob", bob)]
    }
    refused(call(client, "POST", "/api/friends/requests", guest_token(client), {"username": "ann"}), 403, "username")
    refused(call(client, "POST", "/api/friends/requests", ann, {"username": "nobody"}), 404, "no account")
    refused(call(client, "POST", "/api/friends/requests", ann, {"username": "ANN"}), 400, "your own friend")
    refused(call(client, "POST", "/api/friends/requests", ann, {"username": "x" * 41}), 422, "username")

    with friends_socket(client, bob) as bobs_socket:
        asked = ok(call(client, "POST", "/api/friends/requests", ann, {"username": "bob"}))  # any case
        assert asked["status"] == "requested" and asked["account"]["id"] == ids["bob"]
        got = notice(bobs_socket)
        assert got == {"type": "friend_request", "from": {"id": ids["ann"], "display_name": "ann", "username": "ann"}}
        mine = ok(call(client, "GET", "/api/friends", bob))
        assert [a["id"] for a in mine["incoming"]] == [ids["ann"]] and mine["friends"] == []
        cats = ok(call(client, "GET", "/api/friends", cat))  # private: nothing of the others
        assert cats["friends"] == cats["incoming"] == cats["outgoing"] == []
        refused(call(client, "POST", f"/api/friends/requests/{ids['ann']}/accept", cat), 404, "no friend request")
        ok(call(client, "POST", f"/api/friends/requests/{ids['ann']}/accept", bob))

        # ann's list: bob online (his friends socket is open), with his tables
        bobs_table = table_waiting_for(client, bob)
        listed = ok(call(client, "GET", "/api/friends", ann))["friends"]
        assert [(f["username"], f["online"]) for f in listed] == [("Bob", True)]
        assert [(t["id"], t["seat"]) for t in listed[0]["tables"]] == [(bobs_table, 0)]

        # a seat offered to bob directly: a notice at once, then in his offers and, once taken, My tables
        table = table_waiting_for(client, ann)
        refused(
            call(client, "POST", f"/api/tables/{table}/seats/1/offer", cat, {"account": ids["bob"]}), 403, "creator"
        )
        cat_id = ok(call(client, "GET", "/api/account", cat))["account"]["id"]
        refused(call(client, "POST", f"/api/tables/{table}/seats/1/offer", ann, {"account": cat_id}), 403, "friends")
        refused(call(client, "POST", f"/api/tables/{table}/seats/0/offer", ann, {"account": ids["bob"]}), 409, "seat 1")
        ok(call(client, "POST", f"/api/tables/{table}/seats/1/offer", ann, {"account": ids["bob"]}))
        got = notice(bobs_socket)
        assert got["type"] == "seat_offer" and got["table"]["id"] == table and got["seat"] == 1
    offers = ok(call(client, "GET", "/api/friends/offers", bob))
    assert [(o["table"]["id"], o["seat"], o["from"]["id"]) for o in offers] == [(table, 1, ids["ann"])]
    assert ok(call(client, "GET", "/api/friends/offers", cat)) == []
    refused(
        call(client, "POST", "/api/friends/offers/accept", cat, {"table": table, "seat": 1}), 404, "no seat offered"
    )
    taken = ok(call(client, "POST", "/api/friends/offers/accept", bob, {"table": table, "seat": 1}))
    assert taken["link"] == f"/table/{table}?seat=1"
    assert ok(call(client, "GET", f"/api/tables/{table}", bob))["seats"][1]["account"] == ids["bob"]
    assert table in [t["id"] for t in ok(call(client, "GET", "/api/my/tables", bob))]
    assert ok(call(client, "GET", "/api/friends/offers", bob)) == []

    # a seat taken through its link meanwhile: the offer cannot be taken, and goes
    links: dict[str, str] = {}
    third = table_waiting_for(client, ann, links)
    ok(call(client, "POST", f"/api/tables/{third}/seats/1/offer", ann, {"account": ids["bob"]}))
    ok(call(client, "POST", "/api/invites/accept", guest_token(client, "Dan"), {"code": links[third]}))
    refused(call(client, "POST", "/api/friends/offers/accept", bob, {"table": third, "seat": 1}), 409, "no longer free")
    assert ok(call(client, "GET", "/api/friends/offers", bob)) == []

    # bob blocks ann: the friendship and her offers go, her requests and offers are refused, her chat muted
    second = table_waiting_for(client, ann)
    ok(call(client, "POST", f"/api/tables/{second}/seats/1/offer", ann, {"account": ids["bob"]}))
    ok(call(client, "POST", "/api/friends/blocks", bob, {"account": ids["ann"]}))
    assert ok(call(client, "GET", "/api/friends/offers", bob)) == []
    assert ok(call(client, "GET", "/api/friends", ann))["friends"] == []
    refused(call(client, "POST", "/api/friends/requests", ann, {"username": "bob"}), 403, "does not accept")
    refused(call(client, "POST", f"/api/tables/{second}/seats/1/offer", ann, {"account": ids["bob"]}), 403, "friends")
    assert [m["id"] for m in ok(call(client, "GET", "/api/account/mutes", bob))["muted"]] == [ids["ann"]]
    refused(call(client, "POST", "/api/friends/requests", bob, {"username": "ann"}), 409, "unblock it first")
    assert [b["id"] for b in ok(call(client, "GET", "/api/friends", bob))["blocked"]] == [ids["ann"]]
    ok(call(client, "DELETE", f"/api/friends/blocks/{ids['ann']}", bob))
    assert ok(call(client, "GET", "/api/account/mutes", bob))["muted"] == []
    assert ok(call(client, "POST", "/api/friends/requests", ann, {"username": "bob"}))["status"] == "requested"
    # asking back accepts; removing ends it for both
    assert ok(call(client, "POST", "/api/friends/requests", bob, {"username": "ann"}))["status"] == "friends"
    ok(call(client, "DELETE", f"/api/friends/{ids['ann']}", bob))
    assert ok(call(client, "GET", "/api/friends", ann))["friends"] == []
    refused(call(client, "DELETE", f"/api/friends/{ids['ann']}", bob), 404, "no friendship")


def test_requests_are_rate_limited_and_documented(make) -> None:
    client = make()
    ann, _ = member(client, "ann"), member(client, "bob")
    allowed = int(friends.REQUEST_RATE.split()[0])
    for _ in range(allowed):
        ok(call(client, "POST", "/api/friends/requests", ann, {"username": "bob"}))
    res = call(client, "POST", "/api/friends/requests", ann, {"username": "bob"})
    refused(res, 429, "too many friend requests")
    assert int(res.headers["Retry-After"]) >= 1
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/friends", "/api/friends/requests", "/api/friends/offers/accept", "/api/friends/blocks"):
        assert path in paths, path
    assert "post" in paths["/api/tables/{table_id}/seats/{seat}/offer"]
    rows = docs_rows()
    assert rows["friend requests per account"] == friends.REQUEST_RATE.replace(" per ", "/")
    assert rows["seats offered to friends per account"] == friends.OFFER_RATE.replace(" per ", "/")


def test_a_notice_reaches_a_socket_of_another_process(make) -> None:
    prefix = f"rt-test-{secrets.token_hex(4)}:"
    here = make(redis="redis://127.0.0.1:6379/0", redis_prefix=prefix)
    there = make(redis="redis://127.0.0.1:6379/0", redis_prefix=prefix)
    ann, bob = member(here, "ann"), member(here, "bob")
    for _ in range(1000):  # a condition, not a duration: both processes subscribed to the news channel
        if here.app.state.manager.fanout.connected and there.app.state.manager.fanout.connected:
            break
        time.sleep(0.01)
    with friends_socket(there, bob) as bobs_socket:
        ok(call(here, "POST", "/api/friends/requests", ann, {"username": "bob"}))
        got = notice(bobs_socket)
        assert got["type"] == "friend_request" and got["from"]["username"] == "ann"


def test_signing_out_closes_the_friends_socket_at_once(make) -> None:
    client = make()
    res = client.post("/api/account/signup", json={"username": "ann", "password": PASSWORD})
    assert res.status_code == 201, res.text
    with friends_socket(client) as socket:  # the session cookie
        # signed out once the server holds it (else it is refused as signed out before it opened,
        # "sign_in", which is not what this test is about)
        ok(client.post("/api/account/signout", headers={"X-CSRF-Token": res.json()["csrf"]}))
        got = socket.receive_json()
        assert got["type"] == "error" and got["status"] == 401 and got["code"] == "app:errors.signed_out"
    client.cookies.clear()
    with client.websocket_connect("/ws/friends") as socket:  # signed out: refused
        assert socket.receive_json()["status"] == 401
