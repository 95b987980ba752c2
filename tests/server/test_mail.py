"""E-mail when away (mail.py) on SQLite and PostgreSQL, through a real SMTP server the test starts
(aiosmtpd): a turn-based player who opted in gets "your turn", two turns within the interval make one
message, time running out is told, the unsubscribe link turns it off; nothing for players who did not opt
in, nor from a server with no SMTP server (the default). Time is the server's clock, moved by the test."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from email import message_from_bytes
from email.header import decode_header, make_header
from email.message import Message
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from conftest import free_port
from fastapi.testclient import TestClient
from people import bearer, call, guest_token, wait_for
from test_server_browser import browser, signed_in_page, watch_errors  # noqa: F401  (the browser fixture)

from robotable.core.i18n import translate
from robotable.server import create_app, friends
from robotable.server.mail import MailConfig
from robotable.server.wallclock import WallClock

HUMAN = {"kind": "human"}
TURN = {"kind": "turn", "days": 1}
INTERVAL = 600.0


class Inbox:
    """What the SMTP server received: one parsed message per DATA."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"

    def to(self, address: str) -> list[Message]:
        return [m for m in self.messages if m["To"] == address]


class SmtpServer:
    """A real SMTP server (aiosmtpd) on a free port, that a test may stop and start again."""

    def __init__(self) -> None:
        self.inbox = Inbox()
        self.port = free_port()
        self.controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    server = SmtpServer()
    server.start()
    yield server
    server.stop()


def body(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()


def test_your_turn_batched_then_unsubscribed(
    smtp: SmtpServer,
    database: tuple[str, str | None],
    create_table: Callable[..., dict[str, Any]],
    server_clock: WallClock,
) -> None:
    inbox = smtp.inbox
    url, schema = database
    config = MailConfig(
        host="127.0.0.1",
        port=smtp.port,
        sender="robotable@example.org",
        interval=INTERVAL,
        base_url="https://play.example.org",
        tls="none",
        poll=3600,  # the test runs the rounds itself
    )
    with TestClient(create_app(url, schema=schema, bot_delay=0.0, mail_config=config)) as client:
        mailer = client.app.state.mailer  # type: ignore[attr-defined]

        def tick() -> int:
            return client.portal.call(mailer.tick)  # type: ignore[union-attr]

        ann = guest_token(client, "Ann")
        first = create_table(client, [HUMAN, HUMAN], creator=ann, time_control=TURN)["table"]["id"]
        seat_of_bob = create_table(client, [HUMAN, HUMAN], creator=ann, time_control=TURN)
        bob = seat_of_bob["tokens"][1]  # the guest who took the second seat by its invite
        res = client.get("/api/account/mail", headers=bearer(bob))
        assert res.json() == {"email": None, "notify": False, "available": True}
        assert tick() == 0 and inbox.messages == []  # nobody asked for e-mail

        # a bad address, or e-mail without one, is refused clearly; nothing is stored
        bad = client.put("/api/account/mail", json={"email": "bob at example", "notify": True}, headers=bearer(bob))
        assert bad.status_code == 400 and bad.json()["code"] == "app:errors.email_invalid", bad.text
        none = client.put("/api/account/mail", json={"email": None, "notify": True}, headers=bearer(bob))
        assert none.status_code == 400 and none.json()["code"] == "app:errors.email_needed", none.text
        ok = client.put("/api/account/mail", json={"email": " bob@example.org ", "notify": True}, headers=bearer(bob))
        assert ok.status_code == 200 and ok.json()["email"] == "bob@example.org", ok.text
        bob_id = client.get("/api/account", headers=bearer(bob)).json()["account"]["id"]
        assert "bob@example.org" not in client.get(f"/api/profiles/{bob_id}").text  # never shown to others

        # Bob's turn at a turn-based table: one message, with the table's link and an unsubscribe link (the
        # SMTP server down first: nothing is lost, the next round sends it)
        table = seat_of_bob["table"]["id"]
        smtp.stop()
        assert tick() == 0
        smtp.start()
        assert tick() == 1
        [mail] = inbox.to("bob@example.org")
        assert mail["Subject"] == "Robotable: your turn" and mail["From"] == "robotable@example.org"
        assert f"https://play.example.org/table/{table}" in body(mail)
        assert first not in body(mail)  # Ann's table without Bob
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert tick() == 0  # told once

        # two more turns within the interval: nothing until it has passed, then one message with both
        more = [create_table(client, [HUMAN, HUMAN], creator=bob, time_control=TURN)["table"]["id"] for _ in range(2)]
        assert tick() == 0
        server_clock.advance(INTERVAL)
        friends.touch(client.app.state.manager.storage, bob_id)  # type: ignore[attr-defined]  # a page open
        assert tick() == 0  # not away: no e-mail yet
        server_clock.advance(friends.ONLINE_SECONDS + 1)
        assert tick() == 1
        batched = inbox.to("bob@example.org")[1]
        assert all(f"/table/{t}" in body(batched) for t in more) and f"/table/{table}" not in body(batched)
        # a move's time running out (6 hours left of the day) is told, once an interval has passed
        server_clock.advance(18.5 * 3600)
        assert tick() == 1
        assert inbox.to("bob@example.org")[2]["Subject"] == "Robotable: time is running out"

        # the unsubscribe link: a page (a GET changes nothing), then the button; a forged token is refused
        link = re.search(r"https://play\.example\.org(/mail/unsubscribe\?token=\S+)", body(mail))
        assert link is not None
        assert client.get(link.group(1)).status_code == 200
        assert client.get("/api/account/mail", headers=bearer(bob)).json()["notify"] is True
        forged = link.group(1)[:-3] + ("AAA" if not link.group(1).endswith("AAA") else "BBB")
        assert client.post(forged).status_code == 400
        assert client.post(link.group(1)).status_code == 200
        settings = client.get("/api/account/mail", headers=bearer(bob)).json()
        assert settings == {"email": "bob@example.org", "notify": False, "available": True}
        create_table(client, [HUMAN, HUMAN], creator=bob, time_control=TURN)
        server_clock.advance(INTERVAL)
        assert tick() == 0 and len(inbox.messages) == 3


def test_no_smtp_server_no_mail(make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROBOTABLE_SMTP_HOST", raising=False)
    client = make_client()
    token = guest_token(client, "Ann")
    assert client.app.state.mailer is None  # type: ignore[attr-defined]  # no sender runs
    res = client.put("/api/account/mail", json={"email": "ann@example.org", "notify": True}, headers=bearer(token))
    assert res.status_code == 200 and res.json()["available"] is False


def test_the_account_page_turns_e_mail_on_and_a_turn_is_mailed(
    smtp: SmtpServer,
    server_factory: Callable[..., Any],
    browser: Any,  # noqa: F811
    create_table: Callable[..., dict[str, Any]],
) -> None:
    """In a browser, in Japanese on a phone: the account page's setting, then a turn-based table's turn is
    mailed, in Japanese, by the server process's own sender (a second's interval) through the test's SMTP
    server."""
    env = {"ROBOTABLE_SMTP_HOST": "127.0.0.1", "ROBOTABLE_SMTP_PORT": str(smtp.port), "ROBOTABLE_SMTP_TLS": "none"}
    server = server_factory(env={**env, "ROBOTABLE_MAIL_INTERVAL": "1"})
    page, ann = signed_in_page(browser, server, "Ann", locale="ja-JP", viewport={"width": 390, "height": 844})
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(f"{server.url}/account")
    page.wait_for_selector("#mail-settings")
    assert "不在時のメール通知" in page.inner_text("#mail-settings")
    assert page.locator("#mail-unavailable").count() == 0  # this server sends e-mail
    page.fill("#mail-address", "ann@example.org")
    page.check("#mail-notify")
    page.locator("#mail-settings button[type=submit]").click()
    page.wait_for_selector("text=メールの設定を保存しました")
    assert call(server, "GET", "/api/account/mail", ann).json()["notify"] is True
    table = create_table(server, [HUMAN, HUMAN], creator=ann, time_control=TURN)["table"]["id"]
    mail = wait_for(lambda: smtp.inbox.to("ann@example.org"), "Ann's e-mail", timeout=60)[0]
    assert f"/table/{table}" in body(mail) and "/mail/unsubscribe?token=" in body(mail)
    # the page was in Japanese when e-mail was turned on: so is the message
    assert subject(mail) == translate("app:mail.subject.turn", "ja") and "あなたの手番です" in body(mail)
    assert errors == []


def subject(message: Message) -> str:
    """The Subject header decoded (a Japanese one comes as RFC 2047 encoded words)."""
    return str(make_header(decode_header(message["Subject"])))


def test_e_mail_in_the_language_the_player_set_it_up_in(
    smtp: SmtpServer,
    database: tuple[str, str | None],
    create_table: Callable[..., dict[str, Any]],
    server_clock: WallClock,
) -> None:
    """The language is kept when e-mail is turned on: the body's ``lang``, else the page's ``lang`` cookie,
    else ``Accept-Language``; the message is written in it (English when none is known or it is not one
    there is a catalogue for)."""
    url, schema = database
    config = MailConfig(host="127.0.0.1", port=smtp.port, interval=7200.0, base_url="https://p.example", tls="none")
    with TestClient(create_app(url, schema=schema, bot_delay=0.0, mail_config=config)) as client:
        mailer = client.app.state.mailer  # type: ignore[attr-defined]
        ann = guest_token(client, "Ann")
        how = {  # address: what the request that turned e-mail on said
            "kana@example.org": ({"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"}, None),
            "ken@example.org": ({"Cookie": "lang=ja", "Accept-Language": "en-US"}, None),
            "aya@example.org": ({"Accept-Language": "en-US"}, "ja"),
            "eve@example.org": ({"Accept-Language": "ja"}, "en"),
            "bob@example.org": ({}, None),
            "zed@example.org": ({"Accept-Language": "de-DE"}, "xx"),
        }
        tables = {}
        for address, (headers, lang) in how.items():
            made = create_table(client, [HUMAN, HUMAN], creator=ann, time_control=TURN)
            tables[address] = made["table"]["id"]
            settings: dict[str, Any] = {"email": address, "notify": True}
            if lang is not None:
                settings["lang"] = lang
            res = client.put("/api/account/mail", json=settings, headers={**bearer(made["tokens"][1]), **headers})
            assert res.status_code == 200, res.text
        assert client.portal.call(mailer.tick) == len(how)  # type: ignore[union-attr]

        for address in ("kana@example.org", "ken@example.org", "aya@example.org"):
            [mail] = smtp.inbox.to(address)
            link = f"https://p.example/table/{tables[address]}"
            assert subject(mail) == "Robotable：あなたの手番です" == translate("app:mail.subject.turn", "ja")
            assert mail["Content-Language"] == "ja"
            text = body(mail)
            assert f"テーブル {tables[address]} であなたの手番です：{link}" in text
            assert "このようなメールは最大で2時間に1通です。" in text and "メールの配信停止：https://p.example/" in text
            assert "Hello" not in text and "It is your turn" not in text  # no English left
        for address in ("eve@example.org", "bob@example.org", "zed@example.org"):
            [mail] = smtp.inbox.to(address)
            assert subject(mail) == "Robotable: your turn" and mail["Content-Language"] is None
            text = body(mail)
            assert f"It is your turn at table {tables[address]}: https://p.example/table/" in text
            assert "At most one such message every 2 hours." in text and "手番" not in text

        # a language code that is not one is refused clearly, never a 500; nothing changes
        wrong = {"email": "cy@example.org", "notify": True, "lang": "x" * 9}
        res = client.put("/api/account/mail", json=wrong, headers=bearer(ann))
        assert res.status_code == 422, res.text
        assert client.get("/api/account/mail", headers=bearer(ann)).json()["notify"] is False
