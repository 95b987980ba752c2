"""Chat lines tell their writers apart beyond the display name (issue 28, finding 6).

Two accounts at one table take the same display name; their lines, read over HTTP and pushed over a
real websocket, carry what no one else can take: the account's unique username, or for a guest the
guest marker and a stable tag of the account. The page draws them as text (tests/server browser tests
cover the drawing of chat lines).
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path

from conftest import ServerProcess
from test_security_sessions import COOKIE, Person
from test_server_browser import browser  # noqa: F401  (the browser fixture)
from websockets.sync.client import connect

from robotable.server.chat import tag_of


def test_two_accounts_with_one_display_name_are_told_apart(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'chat.db'}", 0.0).start()
    try:
        alice = Person(server)
        res = alice.http.post(
            "/api/account/signup", json={"username": "alice", "password": "correct horse 1", "display_name": "Alice"}
        )
        assert res.status_code == 201, res.text
        alice.csrf = res.json()["csrf"]
        made = alice.post("/api/tables", {"game": "tf22-reload", "num_players": 2, "seats": [{"kind": "human"}] * 2})
        assert made.status_code == 201, made.text
        table = made.json()["table"]["id"]
        code = made.json()["invites"]["1"].rsplit("/", 1)[1]
        mallory = Person(server).guest("Alice")  # the same display name
        assert mallory.post("/api/invites/accept", {"code": code}).status_code == 200
        with ExitStack() as stack:
            ws = stack.enter_context(
                connect(
                    f"{server.ws_url}/ws/tables/{table}?seat=0",
                    open_timeout=10,
                    additional_headers={"Cookie": f"{COOKIE}={alice.cookie}"},
                )
            )
            # the socket is in the table's hub once its snapshot has come: a line sent before could miss it
            assert json.loads(ws.recv(timeout=20))["type"] == "snapshot"
            assert alice.post(f"/api/tables/{table}/chat", {"text": "it's me"}).status_code == 200
            assert mallory.post(f"/api/tables/{table}/chat", {"text": "no, it's me"}).status_code == 200
            pushed = []
            while len(pushed) < 2:
                msg = json.loads(ws.recv(timeout=20))
                if msg["type"] == "chat":
                    pushed.append(msg["line"])
        stored = alice.http.get(f"/api/tables/{table}/chat").json()["lines"]
        for lines in (pushed, stored):
            first, second = lines
            assert first["name"] == second["name"] == "Alice"
            assert first["username"] == "alice" and first["guest"] is False
            assert second["username"] is None and second["guest"] is True
            assert second["tag"] == tag_of(second["account"]) and second["tag"] != first["tag"]
            assert (first["username"], first["guest"], first["tag"]) != (
                second["username"],
                second["guest"],
                second["tag"],
            )
        # a guest cannot take the username later either: it is unique
        res = mallory.post("/api/account/password", {"username": "ALICE", "password": "correct horse 2"})
        assert res.status_code == 409
    finally:
        server.stop()


def test_the_page_shows_who_wrote_each_line(server_factory, browser) -> None:  # noqa: F811
    server = server_factory(bot_delay=0.0)
    alice = Person(server)
    res = alice.http.post(
        "/api/account/signup", json={"username": "alice", "password": "correct horse 1", "display_name": "Alice"}
    )
    alice.csrf = res.json()["csrf"]
    made = alice.post("/api/tables", {"game": "tf22-reload", "num_players": 2, "seats": [{"kind": "human"}] * 2})
    table = made.json()["table"]["id"]
    mallory = Person(server).guest("Alice")
    assert (
        mallory.post("/api/invites/accept", {"code": made.json()["invites"]["1"].rsplit("/", 1)[1]}).status_code == 200
    )
    assert alice.post(f"/api/tables/{table}/chat", {"text": "it's me"}).status_code == 200
    assert mallory.post(f"/api/tables/{table}/chat", {"text": "<b>no</b>, it's me"}).status_code == 200
    guest_id = mallory.http.get("/api/account").json()["account"]["id"]
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.url}/table/{table}?watch=1")
    page.wait_for_function("() => document.querySelectorAll('#chat-lines .chat-line').length === 2")
    who = page.locator("#chat-lines .chat-who").all_inner_texts()
    assert who == ["@alice", f"(guest) #{tag_of(guest_id)}"]
    names = page.locator("#chat-lines a.chat-name")
    assert names.all_inner_texts() == ["Alice", "Alice"]
    assert names.nth(1).get_attribute("href") == f"/profile/{guest_id}"
    assert page.locator("#chat-lines b").count() == 0  # text, never HTML
    context.close()
