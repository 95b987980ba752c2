"""Accounts and sessions on SQLite and PostgreSQL: sign up / in / out, guests, CSRF, rate limits, API tokens."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import sqlalchemy
from fastapi.testclient import TestClient
from people import Browsers
from sqlalchemy import select

from robotable.server import create_app
from robotable.server.people_tables import accounts_table, sessions_table

PASSWORD = "correct horse battery"


@pytest.fixture
def make(database: tuple[str, str | None]) -> Iterator[Callable[..., TestClient]]:
    """In-process clients (each its own cookie jar) on one app over the parametrized database."""
    url, schema = database
    browsers = Browsers(create_app(url, schema=schema, bot_delay=0))

    def new(base_url: str = "http://testserver") -> TestClient:
        return browsers.new(base_url=base_url)

    yield new
    browsers.close()


def csrf(client: TestClient) -> dict[str, str]:
    """The header a page sends with each change: the session's CSRF token from GET /api/account."""
    token = client.get("/api/account").json()["csrf"]
    assert token
    return {"X-CSRF-Token": token}


def sign_up(client: TestClient, username: str = "ann", **extra: str) -> dict:
    res = client.post("/api/account/signup", json={"username": username, "password": PASSWORD, **extra})
    assert res.status_code == 201, res.text
    return res.json()


def stored_row(client: TestClient, account_id: str) -> dict:
    """The account's database row, read directly."""
    storage = client.app.state.manager.storage
    with storage.engine.connect() as conn:
        row = conn.execute(select(accounts_table).where(accounts_table.c.id == account_id)).mappings().first()
        return dict(row)


def test_sign_up_sets_an_httponly_lax_session_cookie_and_stores_the_password_hashed(make) -> None:
    client = make()
    res = client.post("/api/account/signup", json={"username": "Ann", "password": PASSWORD, "display_name": "Ann B"})
    assert res.status_code == 201, res.text
    cookie = res.headers["set-cookie"]
    assert cookie.startswith("robotable_session=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain http here; see the https test
    me = client.get("/api/account").json()
    assert me["account"]["display_name"] == "Ann B" and me["account"]["guest"] is False and me["csrf"]
    row = stored_row(client, me["account"]["id"])
    assert row["password_hash"].startswith("$argon2id$") and PASSWORD not in row["password_hash"]
    assert row["username_key"] == "ann"
    # the session id is stored hashed too
    storage = client.app.state.manager.storage
    value = client.cookies.get("robotable_session")
    with storage.engine.connect() as conn:
        hashes = [r[0] for r in conn.execute(select(sessions_table.c.id_hash))]
    assert value not in hashes and len(hashes) == 1


def test_cookie_is_secure_over_https(make) -> None:
    client = make("https://testserver")
    res = client.post("/api/account/guest", json={"display_name": "Bo"})
    assert res.status_code == 201 and "Secure" in res.headers["set-cookie"]


def test_sign_in_sign_out_and_a_dead_session_cookie(make) -> None:
    sign_up(make(), "ann")
    client = make()
    assert client.post("/api/account/signin", json={"username": "ANN", "password": "wrong password"}).status_code == 401
    res = client.post("/api/account/signin", json={"username": "ANN", "password": PASSWORD})
    assert res.status_code == 200, res.text
    old = client.cookies.get("robotable_session")
    assert client.get("/api/account").json()["account"]["username"] == "ann"
    assert client.post("/api/account/signout", headers=csrf(client)).status_code == 200
    assert client.get("/api/account").json()["account"] is None
    # the old cookie value no longer signs anyone in: the session row is gone
    other = make()
    other.cookies.set("robotable_session", old)
    assert other.get("/api/account").json()["account"] is None


def test_guest_account_later_gets_a_password_and_keeps_its_id(make) -> None:
    client = make()
    guest = client.post("/api/account/guest", json={"display_name": "  Cy   the  guest "}).json()["account"]
    assert guest["guest"] is True and guest["display_name"] == "Cy the guest" and guest["username"] is None
    assert stored_row(client, guest["id"])["password_hash"] is None
    res = client.post("/api/account/password", json={"password": PASSWORD}, headers=csrf(client))
    assert res.status_code == 400 and "username" in res.json()["detail"]
    res = client.post("/api/account/password", json={"username": "cyd", "password": PASSWORD}, headers=csrf(client))
    assert res.status_code == 200, res.text
    assert res.json()["account"] == {**guest, "guest": False, "username": "cyd"}
    again = make()
    assert (
        again.post("/api/account/signin", json={"username": "cyd", "password": PASSWORD}).json()["account"]["id"]
        == (guest["id"])
    )


def test_changing_a_password_needs_the_current_one_and_ends_other_sessions(make) -> None:
    a, b = make(), make()
    sign_up(a, "dee")
    b.post("/api/account/signin", json={"username": "dee", "password": PASSWORD})
    res = a.post(
        "/api/account/password", json={"password": "new password 1", "current_password": "nope nope"}, headers=csrf(a)
    )
    assert res.status_code == 400 and "current password" in res.json()["detail"]
    assert b.get("/api/account").json()["account"] is not None
    res = a.post(
        "/api/account/password", json={"password": "new password 1", "current_password": PASSWORD}, headers=csrf(a)
    )
    assert res.status_code == 200, res.text
    assert a.get("/api/account").json()["account"]["username"] == "dee"
    assert b.get("/api/account").json()["account"] is None


def test_writes_with_the_session_cookie_need_the_csrf_token(make) -> None:
    client = make()
    sign_up(client, "eve")
    for headers in ({}, {"X-CSRF-Token": "forged"}):
        res = client.post("/api/account/name", json={"display_name": "Mallory"}, headers=headers)
        assert res.status_code == 403 and "CSRF" in res.json()["detail"]
        res = client.post("/api/account/signout", headers=headers)
        assert res.status_code == 403
        res = client.post("/api/tables", json={"game": "tf22-reload", "num_players": 2}, headers=headers)
        assert res.status_code == 403
    assert client.get("/api/account").json()["account"]["display_name"] == "eve"
    res = client.post("/api/account/name", json={"display_name": "Eve E"}, headers=csrf(client))
    assert res.status_code == 200 and res.json()["account"]["display_name"] == "Eve E"


def test_sign_in_attempts_are_rate_limited_per_username(make) -> None:
    sign_up(make(), "fay")
    client = make()
    for _ in range(5):
        res = client.post("/api/account/signin", json={"username": "fay", "password": "guess guess"})
        assert res.status_code == 401
    res = client.post("/api/account/signin", json={"username": "fay", "password": PASSWORD})
    assert res.status_code == 429, res.text
    assert "too many sign-in attempts" in res.json()["detail"] and int(res.headers["Retry-After"]) >= 1
    assert client.get("/api/account").json()["account"] is None
    # another username is not held up by fay's limit
    sign_up(make(), "gus")
    assert client.post("/api/account/signin", json={"username": "gus", "password": PASSWORD}).status_code == 200


def test_sign_in_attempts_are_rate_limited_per_address(make) -> None:
    """20 attempts a minute from one address, whatever the usernames: the 21st is refused, even right."""
    sign_up(make(), "ivy")
    client = make()
    for i in range(20):
        res = client.post("/api/account/signin", json={"username": f"nobody{i}", "password": "guess guess"})
        assert res.status_code == 401, res.text
    res = client.post("/api/account/signin", json={"username": "ivy", "password": PASSWORD})
    assert res.status_code == 429 and "too many sign-in attempts" in res.json()["detail"], res.text
    assert int(res.headers["Retry-After"]) >= 1
    assert client.get("/api/account").json()["account"] is None


def test_requests_from_another_site_cannot_sign_in_or_make_accounts(make) -> None:
    sign_up(make(), "hal")
    client = make()
    evil = {"Origin": "http://evil.example"}
    res = client.post("/api/account/signin", json={"username": "hal", "password": PASSWORD}, headers=evil)
    assert res.status_code == 403 and "another site" in res.json()["detail"]
    assert client.post("/api/account/guest", json={"display_name": "x"}, headers=evil).status_code == 403
    assert client.get("/api/account").json()["account"] is None
    ok = client.post("/api/account/guest", json={"display_name": "x"}, headers={"Origin": "http://testserver"})
    assert ok.status_code == 201


def test_api_token_only_as_a_bearer_header(make) -> None:
    owner = make()
    account = sign_up(owner, "ida")["account"]
    token = owner.post("/api/account/token", headers=csrf(owner)).json()["token"]
    assert stored_row(owner, account["id"])["api_token_hash"] != token
    script = make()
    me = script.get("/api/account", headers={"Authorization": f"Bearer {token}"}).json()
    assert me["account"]["id"] == account["id"] and me["via"] == "api_token" and me["csrf"] is None
    # a bearer write needs no CSRF token (browsers never add that header by themselves)
    res = script.post(
        "/api/account/name", json={"display_name": "Ida bot"}, headers={"Authorization": f"Bearer {token}"}
    )
    assert res.status_code == 200
    # never read from a URL
    assert script.get(f"/api/account?token={token}").json()["account"] is None
    assert script.get("/api/account", headers={"Authorization": "Bearer rt_wrong"}).status_code == 401
    assert script.get("/api/account", headers={"Authorization": "Basic abc"}).status_code == 401
    # a new token replaces the old one; revoking ends it
    token2 = owner.post("/api/account/token", headers=csrf(owner)).json()["token"]
    assert script.get("/api/account", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert owner.delete("/api/account/token", headers=csrf(owner)).status_code == 200
    assert script.get("/api/account", headers={"Authorization": f"Bearer {token2}"}).status_code == 401


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("/api/account/signup", {"username": "a", "password": PASSWORD}, 400, "3 to 24"),
        ("/api/account/signup", {"username": "<b>x</b>", "password": PASSWORD}, 400, "letters, digits"),
        ("/api/account/signup", {"username": "joy", "password": "short"}, 400, "8 to 200"),
        ("/api/account/signup", {"username": "joe", "password": PASSWORD, "role": "admin"}, 422, "role"),
        ("/api/account/guest", {"display_name": "   "}, 400, "1 to 40"),
        ("/api/account/guest", {"display_name": "bad\u202ename"}, 400, "printable"),
        ("/api/account/guest", {"display_name": "x" * 41}, 400, "1 to 40"),
        ("/api/account/signin", {"username": "x"}, 422, "password"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(make, path, body, status, words) -> None:
    client = make()
    res = client.post(path, json=body)
    assert res.status_code == status and words in res.json()["detail"], res.text
    assert client.get("/api/account").json()["account"] is None


def test_usernames_are_unique_whatever_their_case(make) -> None:
    sign_up(make(), "kim")
    res = make().post("/api/account/signup", json={"username": "KIM", "password": PASSWORD})
    assert res.status_code == 409 and "taken" in res.json()["detail"]


def test_a_signed_in_creator_sits_at_the_first_person_seat(make) -> None:
    client = make()
    account = sign_up(client, "lou", display_name="Lou")["account"]
    res = client.post(
        "/api/tables",
        json={"game": "tf22-reload", "num_players": 2, "seats": [{"kind": "bot"}, {"kind": "human"}]},
        headers=csrf(client),
    )
    assert res.status_code == 201, res.text
    seats = res.json()["table"]["seats"]
    assert seats[0]["account"] is None and seats[1]["account"] == account["id"] and seats[1]["name"] == "Lou"
    assert res.json()["table"]["rated"] is True and res.json()["table"]["hotseat"] is False


def test_an_older_database_gets_the_new_columns(database) -> None:
    from robotable.server.storage import Storage, meta_table, moves_table, seats_table, tables_table

    url, schema = database
    new = {"account_id", "created_by", "hotseat", "rated"}
    old = sqlalchemy.MetaData(schema=schema)
    for table in (meta_table, tables_table, seats_table, moves_table):  # as a version before accounts made them
        sqlalchemy.Table(table.name, old, *[c._copy() for c in table.columns if c.name not in new])
    engine = sqlalchemy.create_engine(url)
    with engine.begin() as conn:
        if schema:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        old.create_all(conn)
    engine.dispose()
    store = Storage(url, schema=schema)
    with store.engine.connect() as conn:
        inspector = sqlalchemy.inspect(conn)
        assert "account_id" in {c["name"] for c in inspector.get_columns("robotable_seats", schema=schema)}
        assert new - {"account_id"} <= {c["name"] for c in inspector.get_columns("robotable_tables", schema=schema)}
    store.close()


def test_invites_work_once_expire_are_replaced_and_only_the_creator_makes_them(make) -> None:
    from datetime import timedelta

    from sqlalchemy import update

    from robotable.server.people_tables import invites_table
    from robotable.server.storage import now

    ann = make()
    sign_up(ann, "ann")
    human = {"kind": "human"}
    res = ann.post(
        "/api/tables", json={"game": "tf22-reload", "num_players": 3, "seats": [human] * 3}, headers=csrf(ann)
    )
    assert res.status_code == 201, res.text
    table = res.json()["table"]["id"]
    first, third = (res.json()["invites"][k].rsplit("/", 1)[1] for k in ("1", "2"))

    def guest(name: str) -> TestClient:
        client = make()
        assert client.post("/api/account/guest", json={"display_name": name}).status_code == 201
        return client

    def accept(client: TestClient, code: str):
        return client.post("/api/invites/accept", json={"code": code}, headers=csrf(client))

    # the creator's own link tells her to send it on
    assert ann.post("/api/invites/info", json={"code": first}, headers=csrf(ann)).json()["your_seats"] == [0]
    mine = accept(ann, first)
    assert mine.status_code == 409 and "you already play seat 1" in mine.json()["detail"], mine.text
    # only the creator makes new links; a new one kills the earlier one
    bob = guest("Bob")
    assert bob.post(f"/api/tables/{table}/seats/1/invite", headers=csrf(bob)).status_code == 403
    res = ann.post(f"/api/tables/{table}/seats/1/invite", headers=csrf(ann))
    assert res.status_code == 200, res.text
    second = res.json()["invite"].rsplit("/", 1)[1]
    old = accept(bob, first)
    assert old.status_code == 404 and "no such invite" in old.json()["detail"]
    assert accept(bob, second).status_code == 200
    used = accept(guest("Cy"), second)
    assert used.status_code == 410 and "already used" in used.json()["detail"]
    taken = ann.post(f"/api/tables/{table}/seats/1/invite", headers=csrf(ann))
    assert taken.status_code == 409 and "seat 2 is not waiting for an invited player" in taken.json()["detail"]
    # an invite past its time is refused, and its seat stays free
    storage = ann.app.state.manager.storage
    with storage.engine.begin() as conn:
        conn.execute(
            update(invites_table)
            .where(invites_table.c.table_id == table, invites_table.c.seat == 2)
            .values(expires_at=now() - timedelta(minutes=1))
        )
    late = accept(guest("Di"), third)
    assert late.status_code == 410 and "expired" in late.json()["detail"]
    seats = ann.get(f"/api/tables/{table}").json()["seats"]
    assert seats[1]["name"] == "Bob" and seats[1]["account"] and seats[2]["account"] is None
