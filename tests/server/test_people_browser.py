"""Two people, two browsers, on SQLite and on PostgreSQL: Ann makes a TF22 table and invites Bob; Bob opens
the link signed out, gives a name and takes the seat; they chat and play the whole game.

Everything Ann's page receives (every websocket frame, every HTTP answer) is recorded: Bob's secret card
never reaches it before the reveal, and Ann's attempts to play, see or connect as Bob's seat are refused.
No URL either browser requests holds a session, CSRF or API value; the invite code appears only in the
invite page's own URL, and is dead once used. Chat lines holding HTML are shown as text; too long and
too fast messages are refused with a clear error; a mute hides a player's lines.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from people import bearer, browser_guest, new_table
from test_server_browser import ARTIFACTS, browser, watch_errors  # noqa: F401  (the browser fixture)

BOB = 1


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request, server_factory, pg_url):
    if request.param == "sqlite":
        return server_factory(bot_delay=0.0)
    return server_factory(bot_delay=0.0, database=pg_url, schema=request.getfixturevalue("pg_schema"))


class Recorder:
    """Every request URL of a context, and every websocket frame and HTTP answer body of one page."""

    def __init__(self) -> None:
        self.urls: list[str] = []
        self.frames: list[str] = []  # received over websockets
        self.bodies: list[str] = []  # HTTP answers (JSON and pages)

    def watch_context(self, context: Any) -> None:
        context.on("request", lambda req: self.urls.append(req.url))

    def watch_page(self, page: Any) -> None:
        def on_socket(ws: Any) -> None:
            self.urls.append(ws.url)
            ws.on("framereceived", lambda payload: self.frames.append(payload if isinstance(payload, str) else ""))

        def on_response(res: Any) -> None:
            with contextlib.suppress(Exception):  # a redirect or a body already gone: nothing to read
                self.bodies.append(res.text())

        page.on("websocket", on_socket)
        page.on("response", on_response)


def secret_of_seat(value: Any, seat: int) -> list[Any]:
    """Every place in a JSON value where ``seat``'s own secret choice shows before the reveal: its
    ``your_choice`` events and a ``choice`` in its entry of a view's players."""
    found: list[Any] = []
    if isinstance(value, dict):
        if value.get("type") == "your_choice" and value.get("seat") == seat:
            found.append(value)
        players = value.get("players")
        seated = isinstance(players, list) and len(players) > seat and isinstance(players[seat], dict)
        if seated and "choice" in players[seat]:
            found.append(players[seat])
        for item in value.values():
            found += secret_of_seat(item, seat)
    elif isinstance(value, list):
        for item in value:
            found += secret_of_seat(item, seat)
    return found


def stack_orders(value: Any) -> list[Any]:
    """Every place in a JSON value holding the container stack's order (a ``deck`` list: nobody's to see)."""
    found: list[Any] = []
    if isinstance(value, dict):
        if isinstance(value.get("deck"), list):
            found.append(value["deck"])
        for item in value.values():
            found += stack_orders(item)
    elif isinstance(value, list):
        for item in value:
            found += stack_orders(item)
    return found


def as_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def page_fetch(page: Any, method: str, path: str, body: Any = None) -> dict[str, Any]:
    """A request from inside the page, as its own script would make it (cookie and CSRF header)."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const me = await (await fetch("/api/account")).json();
            const headers = {"Content-Type": "application/json"};
            if (me.csrf) headers["X-CSRF-Token"] = me.csrf;
            const res = await fetch(path, {method, headers, body: body === null ? undefined : JSON.stringify(body)});
            return {status: res.status, body: await res.json()};
        }""",
        [method, path, body],
    )


def page_socket(page: Any, path: str) -> dict[str, Any]:
    """Open a websocket from inside the page (its cookie goes with it): the first message and the close code."""
    return page.evaluate(
        """(path) => new Promise((resolve) => {
            const ws = new WebSocket(`ws://${location.host}${path}`);
            let first = null;
            ws.onmessage = (ev) => { if (first === null) first = JSON.parse(ev.data); };
            ws.onclose = (ev) => resolve({first, code: ev.code});
        })""",
        path,
    )


def chat_send(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")


def play_one(page: Any) -> bool:
    """If it is this page's move, click one legal action and wait for the table to take it."""
    if page.evaluate("document.body.dataset.yourTurn !== '1' || document.body.classList.contains('pending')"):
        return False
    moves = page.evaluate("document.body.dataset.moves")
    legal = page.locator("[data-legal]")
    if legal.count() == 0:
        rcard = page.locator("[data-rcard]:not([disabled])")
        if rcard.count() == 0:
            return False
        rcard.click()
        legal = page.locator("[data-legal]")
        if legal.count() == 0:
            return False
    legal.first.click()
    page.wait_for_function(f"() => document.body.dataset.moves !== '{moves}'")
    return True


def test_two_accounts_invite_chat_and_a_whole_game_without_leaks(server, browser) -> None:  # noqa: F811
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    ann_log, bob_log = Recorder(), Recorder()
    ann_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    bob_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ann_log.watch_context(ann_ctx)
    bob_log.watch_context(bob_ctx)
    ann = ann_ctx.new_page()
    ann_log.watch_page(ann)
    watch_errors(ann, errors)

    # Ann signs up in the lobby's dialog and makes a TF22 table for two people
    ann.goto(server.url + "/")
    ann.wait_for_selector("#seats-fields .seat-row")
    ann.select_option("#game-select", "tf22-reload")
    ann.select_option("#players-select", "2")
    ann.select_option("#seats-fields .seat-row >> nth=1 >> [name=kind]", "human")
    ann.click("#create-button")
    ann.fill("#signup-username", "ann")
    ann.fill("#signup-password", "ann's long password")
    ann.click("#signup-go")
    ann.wait_for_selector("#created .invite")
    invite = ann.locator("#created .invite input").input_value()
    code = invite.rsplit("/invite/", 1)[1]
    ann.click("#go-table")
    ann.wait_for_selector("[data-legal]")
    table = ann.url.split("/table/")[1].split("?")[0]

    # Bob opens the invite signed out: he gives a name, takes seat 2 and lands on the table
    bob = bob_ctx.new_page()
    bob_log.watch_page(bob)
    watch_errors(bob, errors)
    bob.goto(invite)
    bob.wait_for_selector("#accept-invite")
    assert "ann invites you to play TF22" in bob.inner_text("#invite")
    bob.click("#accept-invite")
    bob.fill("#guest-name", "Bob")
    bob.click("#guest-go")
    bob.wait_for_url(lambda url: url.endswith(f"/table/{table}?seat=1"))
    bob.wait_for_selector("[data-legal]")
    assert "Bob (guest)" in bob.inner_text("#account-name")
    ann.wait_for_selector("#seats >> text=Bob")

    # the invite is dead now, and a wrong one shows a clear page that breaks nothing
    used = ann_ctx.new_page()
    used.goto(invite)
    used.wait_for_selector("#invite-error")
    assert "already used" in used.inner_text("#invite-error")
    used.goto(server.url + "/invite/not-a-real-code")
    used.wait_for_selector("#invite-error")
    assert "no such invite" in used.inner_text("#invite-error")
    used.goto(server.url + "/")
    used.wait_for_selector(f"[data-table='{table}']")  # the lobby still works in that browser
    used.close()

    # chat: HTML is text; too long and too fast are refused clearly; Ann mutes Bob, then unmutes him
    chat_send(bob, "<b>bold</b><img src=x onerror=\"document.title='pwned'\">")
    ann.wait_for_selector("#chat-lines .chat-text")
    assert ann.inner_text("#chat-lines .chat-text") == "<b>bold</b><img src=x onerror=\"document.title='pwned'\">"
    assert ann.locator("#chat-lines b, #chat-lines img").count() == 0
    chat_send(bob, "x" * 501)
    bob.wait_for_selector("#toasts >> text=at most 500 characters")
    for i in range(5):
        chat_send(bob, f"line {i}")
    bob.wait_for_selector("#toasts >> text=too many chat messages")
    ann.wait_for_selector("#chat-lines >> text=line 3")
    assert ann.locator("#chat-lines >> text=line 4").count() == 0  # the sixth in ten seconds was refused
    ann.locator("#chat-lines [data-mute]").first.click()
    ann.wait_for_selector("#chat-mutes [data-unmute]")
    assert ann.locator("#chat-lines .chat-text").count() == 0
    assert bob.locator("#chat-lines .chat-text").count() == 5  # the mute is Ann's alone
    ann.click("#chat-mutes [data-unmute]")
    ann.wait_for_selector("#chat-lines >> text=line 3")
    chat_send(ann, "good luck")
    bob.wait_for_selector("#chat-lines >> text=good luck")

    # Ann tries to act as Bob's seat: refused over HTTP and over the websocket, and nothing changes
    before = page_fetch(ann, "GET", f"/api/tables/{table}")["body"]["moves"]
    legal = {"type": "play", "value": 3}
    refused = page_fetch(ann, "POST", f"/api/tables/{table}/moves", {"seat": BOB, "action": legal})
    assert refused["status"] == 403 and "not yours" in refused["body"]["detail"]
    assert page_fetch(ann, "GET", f"/api/tables/{table}/state?seat={BOB}")["status"] == 403
    assert page_fetch(ann, "POST", f"/api/tables/{table}/undo", {"seat": BOB})["status"] == 403
    socket = page_socket(ann, f"/ws/tables/{table}?seat={BOB}")
    assert socket["code"] == 4403 and socket["first"]["status"] == 403
    assert page_fetch(ann, "GET", f"/api/tables/{table}")["body"]["moves"] == before

    # the whole game, each clicking on their own page
    clicks = 0
    while not (ann.locator("#end-screen").is_visible() and bob.locator("#end-screen").is_visible()):
        moved = play_one(bob) | play_one(ann)
        clicks += moved
        if not moved:
            ann.wait_for_timeout(50)
        assert clicks < 300, "the game should end within 300 clicks"
    assert "Game over" in ann.inner_text("#end-screen") and "Game over" in bob.inner_text("#end-screen")
    ann.screenshot(path=str(ARTIFACTS / f"people-ann-end-{server.schema or 'sqlite'}.png"))
    assert clicks >= 20

    # Bob chose a secret card every battle, and none of it reached Ann's page before the reveal
    received = ann_log.frames + ann_log.bodies
    assert sum('"your_choice"' in f for f in bob_log.frames) >= 3  # Bob's page did get his own choices
    assert any('"reveal"' in f for f in ann_log.frames)
    assert any(secret_of_seat(as_json(f), BOB) for f in bob_log.frames)  # the check finds it where it belongs
    leaks = [found for text in received for found in secret_of_seat(as_json(text), BOB)]
    assert leaks == [], leaks[:3]
    assert [o for text in received for o in stack_orders(as_json(text))] == []  # nor the stack's order

    # no credential in any URL either browser asked for; the invite code only in its own page's URL
    secrets_seen = [c["value"] for ctx in (ann_ctx, bob_ctx) for c in ctx.cookies()]
    secrets_seen += [page_fetch(p, "GET", "/api/account")["body"]["csrf"] for p in (ann, bob)]
    assert len(secrets_seen) >= 4 and all(secrets_seen)
    for url in ann_log.urls + bob_log.urls:
        assert not any(value in url for value in secrets_seen), url
        assert "token" not in url.lower() and "session" not in url.lower(), url
        if code in url:
            assert url == invite, url
    assert invite in bob_log.urls
    # nor in either browser's storage (older versions kept seat tokens in localStorage)
    for page in (ann, bob):
        stored = page.evaluate("() => JSON.stringify([{...localStorage}, {...sessionStorage}])")
        assert not any(value in stored for value in secrets_seen), stored
        assert "token" not in stored.lower(), stored
    dead = page_fetch(bob, "POST", "/api/invites/info", {"code": code})
    assert dead["status"] == 410
    # the browser logs each refused request (4xx) as a console error: those were the point; nothing else
    errors = [e for e in errors if "the server responded with a status of 4" not in e]
    assert not errors, errors


def connection_of(page: Any) -> tuple[str, str]:
    """The table page's connection status: its text and class."""
    node = page.locator("#connection")
    return node.inner_text(), node.get_attribute("class") or ""


def test_bad_links_break_nothing_and_error_pages_are_not_live(server, browser) -> None:  # noqa: F811
    """Issue 17 item 3: a bad table link (an old ``seat=&token=`` link, a seat that is not yours, a seat that is
    not a number) or a wrong invite code leaves that browser's later visits to the table and the lobby's Play
    working; a page the server refused never shows a green "live" status; seats are counted from 1."""
    errors: list[str] = []
    ann_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ann_token = browser_guest(ann_ctx, server.url, "Ann")
    made = new_table(server, [{"kind": "human"}, {"kind": "human"}], creator=ann_token)
    table = made["table"]["id"]
    ann = ann_ctx.new_page()
    watch_errors(ann, errors)

    # an old-style link to Bob's seat with a wrong token: Ann is told, plays her own seat, the token is gone
    ann.goto(f"{server.url}/table/{table}?seat={BOB}&token=wrong")
    ann.wait_for_selector("#toasts >> text=Seat 2 is not yours: you play seat 1.")
    ann.wait_for_selector("[data-legal]")
    assert ann.url.endswith(f"/table/{table}?seat=0"), ann.url
    assert connection_of(ann) == ("live", "connection ok")
    for bad in ("abc", "-1", "7"):
        ann.goto(f"{server.url}/table/{table}?seat={bad}")
        ann.wait_for_selector("[data-legal]")
        assert ann.url.endswith(f"/table/{table}?seat=0"), ann.url
    assert ann.locator("#toasts >> text=NaN").count() == 0
    # a wrong invite code, then the plain table link and the lobby's Play still work in this browser
    ann.goto(f"{server.url}/invite/not-a-real-code")
    ann.wait_for_selector("#invite-error >> text=no such invite")
    ann.goto(f"{server.url}/table/{table}")
    ann.wait_for_selector("[data-legal]")
    assert ann.url.endswith(f"/table/{table}?seat=0") and connection_of(ann)[1] == "connection ok"
    ann.goto(server.url + "/")
    ann.locator(f"[data-table='{table}'] a", has_text="Play").click()
    ann.wait_for_url(lambda url: url.endswith(f"/table/{table}?seat=0"))
    ann.wait_for_selector("[data-legal]")

    # signed out, the same bad link shows the table to watch
    stranger = browser.new_context().new_page()
    watch_errors(stranger, errors)
    stranger.goto(f"{server.url}/table/{table}?seat={BOB}&token=wrong")
    stranger.wait_for_selector("#toasts >> text=Sign in to play seat 2; you are watching.")
    stranger.wait_for_function("() => document.getElementById('connection').textContent === 'watching live'")
    assert stranger.url.endswith(f"/table/{table}?watch=1") and stranger.locator("[data-legal]").count() == 0
    # a spectator reads the players' chat, as text, and cannot write in it
    said = server.api("POST", f"/api/tables/{table}/chat", json={"text": "<i>hi</i> all"}, headers=bearer(ann_token))
    assert said.status_code == 200, said.text
    stranger.wait_for_selector("#chat-lines .chat-text")
    assert stranger.inner_text("#chat-lines .chat-text") == "<i>hi</i> all"
    assert stranger.locator("#chat-lines i").count() == 0
    assert not stranger.locator("#chat-input").is_visible()

    # a table that does not exist: a clear error and a red status, never "live"
    for page in (ann, stranger):
        page.goto(f"{server.url}/table/no-such-table?seat=0&token=wrong")
        page.wait_for_selector("#board .error")
        assert "no table 'no-such-table'" in page.inner_text("#board .error")
        page.wait_for_function("() => document.getElementById('connection').classList.contains('bad')")
        text, cls = connection_of(page)
        assert "live" not in text and "ok" not in cls.split(), (text, cls)
    # and Ann's table still works after all that
    ann.goto(f"{server.url}/table/{table}")
    ann.wait_for_selector("[data-legal]")
    errors = [e for e in errors if "the server responded with a status of 4" not in e]
    assert not errors, errors
