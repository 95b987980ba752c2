"""E-mail when away (issue 33): a turn-based player who asked for it is told by e-mail that it is their
turn, that a move's time is running out, or that a friend offered them a seat; docs/server.md "E-mail".

- **Opt-in.** An account gives an address and turns e-mail on (``PUT /api/account/mail``; off by default,
  the address stored only when given, never shown to anyone else). Every message has a one-purpose
  unsubscribe link (an HMAC of the account's id: no other credential is ever in a URL), which turns it off.
- **Configured or nothing.** Without an SMTP server (``--smtp-host`` / ``ROBOTABLE_SMTP_HOST``, the
  default being none) no notice is queued and nothing is sent.
- **The outbox.** ``robotable_mail_outbox`` holds one row per notice, keyed so each is queued once
  (``turn:<table>:<seat>:<the seat's last move>``...). :meth:`Mailer.tick` derives the notices from the
  committed rows (a turn-based table's ``to_act``, its seat clocks' deadlines, the seats offered to a
  friend), so a notice can never disagree with the move that caused it, and queues them with
  :func:`enqueue`, which other modules may call in their own transaction (the hook a tournament's "your
  round starts" will use: ``enqueue(conn, account, "tournament", "tournament:<id>:<round>", None, at)``).
- **Away.** An account whose page is open (its friends socket seen within ``friends.ONLINE_SECONDS``)
  is not mailed yet: its notices wait, and those it acts on meanwhile are dropped.
- **In the player's language.** The language is kept when the player sets e-mail up (``lang`` in the body,
  else the page's ``lang`` cookie, else ``Accept-Language``): the message is in it (the ``app:mail.*``
  texts of the catalogue; English when none is known).
- **Batching.** An account gets at most one message per interval (``--mail-interval``, default an hour):
  the sender claims an account's interval with a compare-and-set on ``email_sent_at``, so two processes
  never both send, then sends every notice still true in one message (a notice that stopped being true,
  a turn already played, is dropped). A failed send gives the interval and the notices back.

The sender runs in the web process (every process of a cluster may run it: the claim is atomic), through
aiosmtplib; time is :func:`robotable.server.wallclock.now`, which tests move.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import html
import logging
import os
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import Field
from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine

from robotable.core.i18n import best_language, languages, translate

from .auth import CurrentAccount
from .errors import ApiError
from .friends import ONLINE_SECONDS
from .schemas import Strict
from .storage import Storage
from .storage.schema import (
    accounts_table,
    clocks_table,
    mail_outbox_table,
    meta_table,
    moves_table,
    seat_clocks_table,
    seat_offers_table,
    seats_table,
    seen_table,
    tables_table,
)
from .wallclock import now

log = logging.getLogger("robotable.server.mail")

#: The default interval: at most one message per account this often (seconds).
DEFAULT_INTERVAL = 3600.0
#: A "time is running out" notice when a turn-based move has this little time left.
TIMEOUT_WARNING = timedelta(hours=6)
#: How often the sender looks for notices (seconds; at most the interval).
POLL = 20.0
#: The longest address accepted (RFC 5321's path limit).
MAX_ADDRESS = 254
_ADDRESS = re.compile(
    r"[^@\s\"(),:;<>\[\]\\]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+"
)
KINDS = ("turn", "timeout", "invite", "tournament")


@dataclass(frozen=True)
class MailConfig:
    """Where and how messages go. ``base_url`` is the site's address as players reach it (for links)."""

    host: str
    port: int = 25
    sender: str = "robotable@localhost"
    interval: float = DEFAULT_INTERVAL
    base_url: str = "http://127.0.0.1:8000"
    username: str | None = None
    password: str | None = None
    tls: str = "starttls"  # starttls (when the server offers it), tls (implicit, port 465) or none
    poll: float = POLL  # seconds between two rounds of the sender

    @classmethod
    def of(
        cls,
        host: str | None = None,
        port: int | None = None,
        sender: str | None = None,
        interval: float | None = None,
        base_url: str | None = None,
    ) -> MailConfig | None:
        """The options, else ``ROBOTABLE_SMTP_HOST``, ``_PORT``, ``ROBOTABLE_MAIL_FROM``, ``_INTERVAL``,
        ``ROBOTABLE_PUBLIC_URL`` (and ``ROBOTABLE_SMTP_USER``, ``_PASSWORD``, ``_TLS``); None without a host."""
        env = os.environ.get
        host = host or env("ROBOTABLE_SMTP_HOST") or None
        if host is None:
            return None
        tls = env("ROBOTABLE_SMTP_TLS", "starttls")
        if tls not in ("starttls", "tls", "none"):
            raise ValueError(f"ROBOTABLE_SMTP_TLS must be starttls, tls or none, not {tls!r}")
        interval = interval if interval is not None else float(env("ROBOTABLE_MAIL_INTERVAL", DEFAULT_INTERVAL))
        if interval <= 0:
            raise ValueError(f"the mail interval must be a positive number of seconds, not {interval}")
        return cls(
            host=host,
            port=port or int(env("ROBOTABLE_SMTP_PORT", "25")),
            sender=sender or env("ROBOTABLE_MAIL_FROM") or f"robotable@{host}",
            interval=interval,
            base_url=(base_url or env("ROBOTABLE_PUBLIC_URL") or "http://127.0.0.1:8000").rstrip("/"),
            username=env("ROBOTABLE_SMTP_USER") or None,
            password=env("ROBOTABLE_SMTP_PASSWORD") or None,
            tls=tls,
        )


def checked_address(text: str) -> str:
    """``text`` as an address to store (trimmed), or ApiError saying what is wrong."""
    address = text.strip()
    if not address or len(address) > MAX_ADDRESS or not _ADDRESS.fullmatch(address):
        raise ApiError(
            f"not an e-mail address: {address[:60]!r} (name@example.org, at most {MAX_ADDRESS} characters)",
            "app:errors.email_invalid",
        )
    return address


# -- the unsubscribe token --------------------------------------------------------------------------


def secret(engine: Engine) -> bytes:
    """The key of the unsubscribe tokens: ``ROBOTABLE_MAIL_SECRET``, else one made once and kept in the
    database (so every process, and a restarted one, signs alike)."""
    given = os.environ.get("ROBOTABLE_MAIL_SECRET")
    if given:
        return given.encode()
    m = meta_table.c
    with engine.begin() as conn:
        row = conn.execute(select(m.value).where(m.key == "mail_secret")).first()
        if row is None:
            conn.execute(
                _insert_ignoring(conn, meta_table, ["key"]).values(key="mail_secret", value=secrets.token_hex(32))
            )
            row = conn.execute(select(m.value).where(m.key == "mail_secret")).first()
    assert row is not None
    return str(row[0]).encode()


def _signature(key: bytes, account_id: str) -> str:
    digest = hmac.new(key, b"unsubscribe:" + account_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def unsubscribe_token(key: bytes, account_id: str) -> str:
    """The token of ``account_id``'s unsubscribe link (it can do nothing else)."""
    return f"{account_id}.{_signature(key, account_id)}"


def account_of_token(key: bytes, token: str) -> str | None:
    """The account an unsubscribe token is for, or None if it is not one of ours."""
    account_id, _, signature = token.partition(".")
    if not account_id or len(account_id) > 24 or not signature:
        return None
    return account_id if hmac.compare_digest(signature, _signature(key, account_id)) else None


# -- the outbox -------------------------------------------------------------------------------------


def _insert_ignoring(conn: Connection, table: Any, keys: list[str]) -> Any:
    """An INSERT that does nothing when the row's unique key is there already."""
    if conn.dialect.name == "postgresql":
        return pg_insert(table).on_conflict_do_nothing()
    if conn.dialect.name == "sqlite":
        return sqlite_insert(table).on_conflict_do_nothing()
    return insert(table)


def enqueue(conn: Connection, account_id: str, kind: str, key: str, table_id: str | None, at: datetime) -> bool:
    """Queue a notice for ``account_id`` in the caller's transaction, once per ``key``, if the account asked
    for e-mail (the hook for other modules: tournaments' rounds). Answers whether it was queued now."""
    if kind not in KINDS:
        raise ValueError(f"unknown notice kind {kind!r}; one of {', '.join(KINDS)}")
    a = accounts_table.c
    wanted = conn.execute(
        select(a.id).where(a.id == account_id, a.email_notify.is_(True), a.email.is_not(None))
    ).first()
    if wanted is None:
        return False
    statement = _insert_ignoring(conn, mail_outbox_table, ["account_id", "key"]).values(
        account_id=account_id, kind=kind, key=key[:120], table_id=table_id, created_at=at
    )
    return conn.execute(statement).rowcount == 1


@dataclass(frozen=True)
class Notice:
    account_id: str
    kind: str
    key: str
    table_id: str | None


def current_notices(conn: Connection, at: datetime) -> list[Notice]:
    """The notices true now for the accounts that asked for e-mail: their turn at a turn-based table, a
    move's time running out there, a seat a friend offered them."""
    t, s, a, c, sc = tables_table.c, seats_table.c, accounts_table.c, clocks_table.c, seat_clocks_table.c
    wanted = and_(a.email_notify.is_(True), a.email.is_not(None))
    rows = conn.execute(
        select(t.id, t.to_act, s.seat, s.account_id, c.control, sc.deadline)
        .select_from(
            tables_table.join(seats_table, s.table_id == t.id)
            .join(accounts_table, a.id == s.account_id)
            .join(clocks_table, c.table_id == t.id)
            .outerjoin(seat_clocks_table, and_(sc.table_id == t.id, sc.seat == s.seat))
        )
        .where(t.status == "running", s.handed_to_bot.is_(False), wanted)
    ).all()
    out: list[Notice] = []
    for table_id, to_act, seat, account_id, control, deadline in rows:
        if not isinstance(control, dict) or control.get("kind") != "turn" or seat not in (to_act or []):
            continue
        m = moves_table.c
        last = conn.execute(select(func.max(m.idx)).where(m.table_id == table_id, m.seat == seat)).scalar()
        since = -1 if last is None else int(last)
        out.append(Notice(account_id, "turn", f"turn:{table_id}:{seat}:{since}", table_id))
        if deadline is not None:
            deadline = deadline if deadline.tzinfo else deadline.replace(tzinfo=UTC)
            if at < deadline <= at + TIMEOUT_WARNING:
                out.append(Notice(account_id, "timeout", f"timeout:{table_id}:{seat}:{since}", table_id))
    o = seat_offers_table.c
    offers = conn.execute(
        select(o.table_id, o.seat, o.account_id, o.invited_by)
        .select_from(seat_offers_table.join(accounts_table, a.id == o.account_id))
        .where(wanted)
    ).all()
    for table_id, seat, account_id, by in offers:
        out.append(Notice(account_id, "invite", f"invite:{table_id}:{seat}:{by}", table_id))
    return out


@dataclass(frozen=True)
class Batch:
    """One message's worth: the account, its address, the notices, and the interval it claimed."""

    account_id: str
    address: str
    name: str
    notices: list[tuple[int, str, str | None]]  # outbox id, kind, table id
    previous: datetime | None
    lang: str | None = None  # the language the account set e-mail up in (None: English)


def collect(conn: Connection, at: datetime) -> None:
    """Queue the notices true now; drop the queued ones (turns, time running out) no longer true."""
    current = current_notices(conn, at)
    for n in current:
        enqueue(conn, n.account_id, n.kind, n.key, n.table_id, at)
    true = {(n.account_id, n.key) for n in current}
    o = mail_outbox_table.c
    pending = conn.execute(
        select(o.id, o.account_id, o.key).where(o.sent_at.is_(None), o.kind.in_(("turn", "timeout", "invite")))
    ).all()
    stale = [row_id for row_id, account_id, key in pending if (account_id, key) not in true]
    if stale:
        conn.execute(delete(mail_outbox_table).where(o.id.in_(stale)))


def claim(conn: Connection, at: datetime, interval: float) -> list[Batch]:
    """Claim every account whose interval allows a message, that has notices waiting and no page open (seen
    by its friends socket within ``ONLINE_SECONDS``: it is not away), its notices marked sent (the claim is
    a compare-and-set on ``email_sent_at``: one process wins)."""
    o, a, s = mail_outbox_table.c, accounts_table.c, seen_table.c
    cutoff = at - timedelta(seconds=interval)
    here = select(s.account_id).where(s.seen_at > at - timedelta(seconds=ONLINE_SECONDS))  # a page open
    due = conn.execute(
        select(a.id, a.email, a.display_name, a.email_sent_at, a.email_lang)
        .where(
            a.email_notify.is_(True),
            a.email.is_not(None),
            or_(a.email_sent_at.is_(None), a.email_sent_at <= cutoff),
            a.id.in_(select(o.account_id).where(o.sent_at.is_(None))),
            a.id.not_in(here),
        )
        .limit(200)
    ).all()
    batches = []
    for account_id, address, name, previous, lang in due:
        was = a.email_sent_at.is_(None) if previous is None else a.email_sent_at == previous
        if conn.execute(update(accounts_table).where(a.id == account_id, was).values(email_sent_at=at)).rowcount != 1:
            continue  # another process claimed it
        rows = conn.execute(
            select(o.id, o.kind, o.table_id).where(o.account_id == account_id, o.sent_at.is_(None)).order_by(o.id)
        ).all()
        conn.execute(update(mail_outbox_table).where(o.id.in_([r[0] for r in rows])).values(sent_at=at))
        batches.append(Batch(account_id, address, name, [(r[0], r[1], r[2]) for r in rows], previous, lang))
    return batches


def give_back(conn: Connection, batch: Batch, at: datetime) -> None:
    """A send failed: the notices wait again and the interval is not used up."""
    o, a = mail_outbox_table.c, accounts_table.c
    conn.execute(update(mail_outbox_table).where(o.id.in_([n[0] for n in batch.notices])).values(sent_at=None))
    conn.execute(
        update(accounts_table)
        .where(a.id == batch.account_id, a.email_sent_at == at)
        .values(email_sent_at=batch.previous)
    )


# -- the message ------------------------------------------------------------------------------------

#: The kinds of notice, in the order a message's subject names them.
_ORDER = ("turn", "timeout", "invite", "tournament")


def message(config: MailConfig, batch: Batch, key: bytes) -> EmailMessage:
    """The one message carrying ``batch``'s notices (one line per table and kind), in the account's language
    (``app:mail.*``), with the unsubscribe link in its body and its ``List-Unsubscribe`` headers (RFC 8058's
    one click)."""
    lang = batch.lang if batch.lang in languages() else "en"
    seen: set[tuple[str, str | None]] = set()
    lines = []
    for _, kind, table_id in batch.notices:
        if (kind, table_id) in seen:
            continue
        seen.add((kind, table_id))
        link = f"{config.base_url}/table/{table_id}" if table_id else f"{config.base_url}/my"
        text = translate(f"app:mail.line.{kind}", lang, table=table_id, link=link) if kind in _ORDER else link
        lines.append("- " + text)
    kinds = [k for k in _ORDER if any(n[1] == k for n in batch.notices)]
    unsubscribe = f"{config.base_url}/mail/unsubscribe?token={unsubscribe_token(key, batch.account_id)}"
    msg = EmailMessage()
    msg["From"] = config.sender
    msg["To"] = batch.address
    msg["Subject"] = translate(f"app:mail.subject.{kinds[0] if len(kinds) == 1 else 'several'}", lang)
    msg["List-Unsubscribe"] = f"<{unsubscribe}>"
    msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    body = [translate("app:mail.hello", lang, name=batch.name), "", *lines, ""]
    body += [_every(config.interval, lang), translate("app:mail.unsubscribe", lang, link=unsubscribe)]
    msg.set_content("\n".join(body) + "\n")
    if lang != "en":
        msg["Content-Language"] = lang  # after set_content, which clears the Content-* headers
    return msg


def _every(seconds: float, lang: str) -> str:
    """'At most one such message every ...' for the interval, in whole hours or else minutes."""
    if seconds >= 3600 and seconds % 3600 == 0:
        return translate("app:mail.every_hours", lang, count=int(seconds // 3600))
    return translate("app:mail.every_minutes", lang, count=max(1, round(seconds / 60)))


# -- the sender -------------------------------------------------------------------------------------


class Mailer:
    """Queues the notices and sends the due batches through ``config``'s SMTP server; ``clock`` is the
    time (default the server's wall clock)."""

    def __init__(self, storage: Storage, config: MailConfig, clock: Callable[[], datetime] = now) -> None:
        self.storage = storage
        self.config = config
        self.clock = clock
        self._key: bytes | None = None
        self._task: asyncio.Task[None] | None = None

    def _prepare(self, at: datetime) -> list[Batch]:
        with self.storage.engine.begin() as conn:
            collect(conn, at)
        with self.storage.engine.begin() as conn:
            return claim(conn, at, self.config.interval)

    async def tick(self) -> int:
        """One round: queue what is true now, send what is due. Answers the messages sent."""
        import aiosmtplib  # the server extra

        if self._key is None:
            self._key = await asyncio.to_thread(secret, self.storage.engine)
        at = self.clock()
        batches = await asyncio.to_thread(self._prepare, at)
        sent = 0
        c = self.config
        for batch in batches:
            try:
                await aiosmtplib.send(
                    message(c, batch, self._key),
                    hostname=c.host,
                    port=c.port,
                    username=c.username,
                    password=c.password,
                    use_tls=c.tls == "tls",
                    start_tls=None if c.tls == "starttls" else False,
                    timeout=30,
                )
                sent += 1
            except (aiosmtplib.SMTPException, OSError) as exc:
                log.warning("e-mail to account %s not sent (tried again later): %s", batch.account_id, exc)
                await asyncio.to_thread(self._give_back, batch, at)
        return sent

    def _give_back(self, batch: Batch, at: datetime) -> None:
        with self.storage.engine.begin() as conn:
            give_back(conn, batch, at)

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(min(self.config.poll, self.config.interval))
            try:
                await self.tick()
            except Exception:  # a database hiccup: the next round tries again
                log.exception("the e-mail round failed")

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="robotable-mail")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None


# -- the API ----------------------------------------------------------------------------------------

router = APIRouter(tags=["account"])


class MailSettings(Strict):
    email: str | None = Field(default=None, description="the address (None: remove it)")
    notify: bool = Field(default=False, description="e-mail me at turn-based tables when I am away")
    lang: str | None = Field(
        default=None,
        max_length=8,
        description="the messages' language (default: the page's lang cookie, else Accept-Language)",
    )


def _config(request: Request) -> MailConfig | None:
    return getattr(request.app.state, "mail", None)


def _settings(storage: Storage, account_id: str) -> tuple[str | None, bool]:
    a = accounts_table.c
    with storage.engine.connect() as conn:
        row = conn.execute(select(a.email, a.email_notify).where(a.id == account_id)).first()
    return (None, False) if row is None else (row[0], bool(row[1]))


@router.get("/api/account/mail")
async def get_mail(request: Request, account: CurrentAccount) -> dict[str, Any]:
    """Your address and whether you get e-mail (only you see them); ``available``: whether this server
    sends e-mail at all."""
    email, notify = await asyncio.to_thread(_settings, request.app.state.manager.storage, account.id)
    return {"email": email, "notify": notify, "available": _config(request) is not None}


def mail_language(request: Request, asked: str | None) -> str:
    """The language a player's messages are written in: ``asked`` if there is a catalogue for it, else the
    page's ``lang`` cookie (the language the player chose), else the best of ``Accept-Language``."""
    have = languages()
    for lang in (asked, request.cookies.get("lang")):
        if lang in have:
            return str(lang)
    return best_language(request.headers.get("accept-language"))


@router.put("/api/account/mail")
async def put_mail(request: Request, account: CurrentAccount, body: MailSettings) -> dict[str, Any]:
    """Set your address and whether you get e-mail (an address is needed to turn it on)."""
    address = checked_address(body.email) if body.email is not None and body.email.strip() else None
    if body.notify and address is None:
        raise ApiError("give an e-mail address to get e-mail", "app:errors.email_needed")
    storage: Storage = request.app.state.manager.storage
    lang = mail_language(request, body.lang)

    def write() -> None:
        a, o = accounts_table.c, mail_outbox_table.c
        with storage.engine.begin() as conn:
            conn.execute(
                update(accounts_table)
                .where(a.id == account.id)
                .values(email=address, email_notify=body.notify, email_lang=lang)
            )
            if not body.notify:
                conn.execute(delete(mail_outbox_table).where(o.account_id == account.id, o.sent_at.is_(None)))

    await asyncio.to_thread(write)
    return {"email": address, "notify": body.notify, "available": _config(request) is not None}


_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Robotable</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><p>{text}</p>{form}<p><a href="/account">Robotable</a></p></body></html>"""


def unsubscribe(storage: Storage, token: str) -> bool:
    """Turn e-mail off for the token's account; False if the token is not ours."""
    account_id = account_of_token(secret(storage.engine), token)
    if account_id is None:
        return False
    a, o = accounts_table.c, mail_outbox_table.c
    with storage.engine.begin() as conn:
        conn.execute(update(accounts_table).where(a.id == account_id).values(email_notify=False))
        conn.execute(delete(mail_outbox_table).where(o.account_id == account_id, o.sent_at.is_(None)))
    return True


@router.get("/mail/unsubscribe", include_in_schema=False)
def unsubscribe_page(token: Annotated[str, Query(max_length=80)] = "") -> HTMLResponse:
    """The link in a message: a page with the button (a GET changes nothing, so a link checker cannot
    unsubscribe anyone)."""
    action = f"/mail/unsubscribe?token={html.escape(token)}"
    form = f'<form method="post" action="{action}"><button type="submit">Unsubscribe / 配信停止</button></form>'
    text = "Stop e-mail from Robotable? / Robotable からのメールを停止しますか？"
    return HTMLResponse(_PAGE.format(text=text, form=form), headers={"Cache-Control": "no-store"})


@router.post("/mail/unsubscribe", include_in_schema=False)
async def unsubscribe_post(request: Request, token: Annotated[str, Query(max_length=80)] = "") -> HTMLResponse:
    """Unsubscribe (the page's button, or a mail client's one click)."""
    if not await asyncio.to_thread(unsubscribe, request.app.state.manager.storage, token):
        text = "This unsubscribe link is not valid. / この配信停止リンクは無効です。"
        return HTMLResponse(_PAGE.format(text=text, form=""), status_code=400)
    text = "You will get no more e-mail from Robotable. / Robotable からのメールを停止しました。"
    return HTMLResponse(_PAGE.format(text=text, form=""))
