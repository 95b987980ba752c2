"""Friends: a request the other accepts, the friends list, blocks, and seats offered to a friend directly.

Private by default. Friendship is mutual: a request (addressed by exact username: there is no search and
no list of accounts) becomes a friendship only when the other accepts it, and only friends see each
other's online state and unfinished tables. Nobody can read another account's friends. Guests (no
username) take no part: they can neither be found nor ask.

A **block** is one-sided and silent for the others: the blocker's friendship with the blocked account,
their pending requests both ways and the seats they offered each other go; the blocked account can no
longer send the blocker a request (a 403 that names no reason beyond "does not accept") nor offer it a
seat (only friends can); and the blocked account's chat lines are hidden from the blocker, as a mute
(``chat.py``: table chat is public to the table, so the blocked may still write there for the others).
Unblocking lifts the mute too, not the friendship.

A **seat offer** is a direct invite: the table's creator offers a person seat nobody has taken to a
friend. It is stored (``robotable_seat_offers``, one per seat), listed with the friend's tables ("My
tables") and pushed as a notice (``notices.py``); accepting takes the seat through the invite path
(``invites.py``), declining drops it. The rules on the table (creator, seat free, game not over) are
checked by ``friends_api.py`` with the live table.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from . import chat
from .accounts import Account, accounts_by_id, get_account
from .errors import ApiError, Conflict, Forbidden, NotFound
from .notices import FriendCard
from .storage import Storage, now, seats_table, tables_table
from .storage.schema import accounts_table, blocks_table, friends_table, seat_offers_table, seen_table

#: Friend requests one account may send, as a ``limits`` rate.
REQUEST_RATE = "20 per hour"
#: Seats one account may offer to friends, as a ``limits`` rate.
OFFER_RATE = "60 per hour"
#: Most friends, and most unanswered requests an account may have sent.
MAX_FRIENDS = 200
MAX_PENDING = 50
#: Most unfinished tables shown per friend, and most seat offers listed.
TABLES_PER_FRIEND = 10
MAX_OFFERS = 50
#: A friend counts as online this long after their friends socket last said so (it says so every
#: ``SEEN_EVERY`` seconds while a page that opens it is open).
ONLINE_SECONDS = 90
SEEN_EVERY = 30

REQUESTED, FRIENDS = "requested", "friends"


def card(account: Account) -> FriendCard:
    """What friends (and the person asked) see of an account."""
    return {"id": account.id, "display_name": account.display_name, "username": account.username}


def check_member(account: Account) -> None:
    """Friends are for accounts with a username (a guest cannot be found, so cannot be asked either)."""
    if account.is_guest:
        raise Forbidden(
            "friends need an account with a username: give this guest account a username and password on "
            "the account page first",
            code="app:errors.friends_need_username",
        )


def _other(storage: Storage, other_id: str) -> Account:
    other = get_account(storage, other_id) if 1 <= len(other_id) <= 24 else None
    if other is None:
        raise NotFound("no such account", code="app:errors.friend_unknown")
    return other


def _blocked(conn: Connection, blocker: str, blocked: str) -> bool:
    b = blocks_table.c
    return (
        conn.execute(select(b.account_id).where(b.account_id == blocker, b.blocked_id == blocked)).first() is not None
    )


def _link(conn: Connection, a: str, b: str) -> str | None:
    f = friends_table.c
    return conn.execute(select(f.status).where(f.account_id == a, f.other_id == b)).scalar_one_or_none()


def _unlink(conn: Connection, a: str, b: str) -> int:
    f = friends_table.c
    both = or_(and_(f.account_id == a, f.other_id == b), and_(f.account_id == b, f.other_id == a))
    return conn.execute(delete(friends_table).where(both)).rowcount


def _count(conn: Connection, account_id: str, status: str) -> int:
    f = friends_table.c
    return len(conn.execute(select(f.other_id).where(f.account_id == account_id, f.status == status)).all())


def are_friends(storage: Storage, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are friends (and neither blocks the other)."""
    with storage.read() as conn:
        return _link(conn, a, b) == FRIENDS and not _blocked(conn, a, b) and not _blocked(conn, b, a)


def request(storage: Storage, account: Account, username: str) -> tuple[str, Account]:
    """Ask the account with ``username`` to be friends: ``("requested", them)``, or ``("friends", them)``
    when they had asked first (asking back accepts). Asking again changes nothing."""
    check_member(account)
    with storage.read() as conn:
        row = (
            conn.execute(select(accounts_table).where(accounts_table.c.username_key == username.lower()[:40]))
            .mappings()
            .first()
        )
    other = get_account(storage, row["id"]) if row is not None else None
    if other is None or other.is_guest:
        raise NotFound("no account has this username: check its spelling", code="app:errors.friend_unknown")
    if other.id == account.id:
        raise ApiError("you cannot be your own friend", code="app:errors.friend_self")
    with storage.transaction() as conn:
        if _blocked(conn, other.id, account.id):
            raise Forbidden("this account does not accept friend requests from you", code="app:errors.friend_refused")
        if _blocked(conn, account.id, other.id):
            raise Conflict("you blocked this account: unblock it first", code="app:errors.friend_blocked")
        mine, theirs = _link(conn, account.id, other.id), _link(conn, other.id, account.id)
        if mine == FRIENDS:
            return FRIENDS, other
        if mine == REQUESTED:
            return REQUESTED, other
        if theirs == REQUESTED:
            _befriend(conn, other.id, account.id)
            return FRIENDS, other
        if _count(conn, account.id, REQUESTED) >= MAX_PENDING:
            raise Conflict(f"you have {MAX_PENDING} requests nobody has answered: cancel some first")
        if _count(conn, account.id, FRIENDS) >= MAX_FRIENDS:
            raise Conflict(f"an account has at most {MAX_FRIENDS} friends")
        conn.execute(
            insert(friends_table).values(account_id=account.id, other_id=other.id, status=REQUESTED, created_at=now())
        )
    return REQUESTED, other


def _befriend(conn: Connection, asker: str, answerer: str) -> None:
    f = friends_table.c
    if _count(conn, answerer, FRIENDS) >= MAX_FRIENDS or _count(conn, asker, FRIENDS) >= MAX_FRIENDS:
        raise Conflict(f"an account has at most {MAX_FRIENDS} friends")
    conn.execute(update(friends_table).where(f.account_id == asker, f.other_id == answerer).values(status=FRIENDS))
    conn.execute(delete(friends_table).where(f.account_id == answerer, f.other_id == asker))
    conn.execute(insert(friends_table).values(account_id=answerer, other_id=asker, status=FRIENDS, created_at=now()))


def accept(storage: Storage, account: Account, other_id: str) -> Account:
    """Accept ``other_id``'s request: you are friends now."""
    check_member(account)
    other = _other(storage, other_id)
    with storage.transaction() as conn:
        if _link(conn, other.id, account.id) != REQUESTED:
            raise NotFound("no friend request from this account", code="app:errors.friend_no_request")
        _befriend(conn, other.id, account.id)
    return other


def remove(storage: Storage, account: Account, other_id: str) -> None:
    """End a friendship, cancel your request or decline theirs (all the same: nothing links you now),
    and drop the seats you offered each other."""
    with storage.transaction() as conn:
        if not _unlink(conn, account.id, other_id):
            raise NotFound("you have no friendship or request with this account", code="app:errors.friend_unknown")
        _drop_offers_between(conn, account.id, other_id)


def _drop_offers_between(conn: Connection, a: str, b: str) -> None:
    o = seat_offers_table.c
    both = or_(and_(o.account_id == a, o.invited_by == b), and_(o.account_id == b, o.invited_by == a))
    conn.execute(delete(seat_offers_table).where(both))


def block(storage: Storage, account: Account, other_id: str) -> Account:
    """Block ``other_id``: friendship, requests and offers between you go; their requests and chat lines
    no longer reach you (blocking twice is the same as once)."""
    if other_id == account.id:
        raise ApiError("you cannot block yourself")
    other = _other(storage, other_id)
    with storage.transaction() as conn:
        _unlink(conn, account.id, other.id)
        _drop_offers_between(conn, account.id, other.id)
        if not _blocked(conn, account.id, other.id):
            conn.execute(insert(blocks_table).values(account_id=account.id, blocked_id=other.id, created_at=now()))
    chat.mute(storage, account, other.id)  # their lines at tables you share are hidden from you
    return other


def unblock(storage: Storage, account: Account, other_id: str) -> None:
    """Lift a block (and its mute); a friendship does not come back by itself."""
    with storage.transaction() as conn:
        b = blocks_table.c
        gone = conn.execute(delete(blocks_table).where(b.account_id == account.id, b.blocked_id == other_id)).rowcount
    if not gone:
        raise NotFound("you have not blocked this account")
    chat.unmute(storage, account, other_id)


# -- online ---------------------------------------------------------------------------------------------


def touch(storage: Storage, account_id: str) -> None:
    """The account has a page open now (its friends socket says so)."""
    stamp = now()
    with storage.transaction() as conn:
        done = conn.execute(update(seen_table).where(seen_table.c.account_id == account_id).values(seen_at=stamp))
        if done.rowcount:
            return
    try:
        with storage.transaction() as conn:
            conn.execute(insert(seen_table).values(account_id=account_id, seen_at=stamp))
    except IntegrityError:
        pass  # another socket of the account wrote it first: as recent


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Overview:
    """An account's friends (with when each was last seen), requests both ways and blocks."""

    friends: list[tuple[Account, datetime | None]]
    incoming: list[Account]
    outgoing: list[Account]
    blocked: list[Account]


def overview(storage: Storage, account: Account) -> Overview:
    """Everything the friends page lists (for ``account``'s eyes only)."""
    f, b, s = friends_table.c, blocks_table.c, seen_table.c
    with storage.read() as conn:
        links = conn.execute(
            select(f.account_id, f.other_id, f.status).where(or_(f.account_id == account.id, f.other_id == account.id))
        ).all()
        blocked_ids = [r[0] for r in conn.execute(select(b.blocked_id).where(b.account_id == account.id))]
        friend_ids = [r.other_id for r in links if r.account_id == account.id and r.status == FRIENDS]
        seen = (
            {
                r[0]: _utc(r[1])
                for r in conn.execute(select(s.account_id, s.seen_at).where(s.account_id.in_(friend_ids)))
            }
            if friend_ids
            else {}
        )
    incoming_ids = [r.account_id for r in links if r.other_id == account.id and r.status == REQUESTED]
    outgoing_ids = [r.other_id for r in links if r.account_id == account.id and r.status == REQUESTED]
    people = accounts_by_id(storage, {*friend_ids, *incoming_ids, *outgoing_ids, *blocked_ids})

    def listed(ids: list[str]) -> list[Account]:
        return sorted((people[i] for i in ids if i in people), key=lambda a: a.display_name.casefold())

    return Overview(
        friends=[(a, seen.get(a.id)) for a in listed(friend_ids)],
        incoming=listed(incoming_ids),
        outgoing=listed(outgoing_ids),
        blocked=listed(blocked_ids),
    )


def recently(seen_at: datetime | None) -> bool:
    """Whether a last-seen time counts as online now."""
    return seen_at is not None and now() - seen_at <= timedelta(seconds=ONLINE_SECONDS)


def tables_of(storage: Storage, account_id: str) -> list[dict[str, Any]]:
    """A friend's unfinished tables, most recently active first: ``{id, game, status, seat}``."""
    t, st = tables_table.c, seats_table.c
    query = (
        select(t.id, t.game, t.status, st.seat)
        .join(seats_table, st.table_id == t.id)
        .where(st.account_id == account_id, t.status.in_(("open", "running")))
        .order_by(t.updated_at.desc(), st.seat)
        .limit(TABLES_PER_FRIEND * 2)
    )
    out: dict[str, dict[str, Any]] = {}
    with storage.read() as conn:
        for r in conn.execute(query):
            out.setdefault(r.id, {"id": r.id, "game": r.game, "status": r.status, "seat": r.seat})
    return list(out.values())[:TABLES_PER_FRIEND]


# -- seats offered to a friend ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Offer:
    """A seat offered to ``account_id`` by ``invited_by``."""

    table_id: str
    seat: int
    account_id: str
    invited_by: str
    created_at: datetime


def offer_seat(storage: Storage, table_id: str, seat: int, by: Account, friend_id: str) -> Account:
    """Offer ``seat`` to a friend (replacing an earlier offer of that seat); the friend's account."""
    check_member(by)
    friend = _other(storage, friend_id)
    if not are_friends(storage, by.id, friend.id):
        raise Forbidden("you can offer a seat to your friends only", code="app:errors.not_friends")
    o = seat_offers_table.c
    with storage.transaction() as conn:
        conn.execute(delete(seat_offers_table).where(o.table_id == table_id, o.seat == seat))
        conn.execute(
            insert(seat_offers_table).values(
                table_id=table_id, seat=seat, account_id=friend.id, invited_by=by.id, created_at=now()
            )
        )
    return friend


def offers_for(storage: Storage, account_id: str) -> list[Offer]:
    """The seats offered to ``account_id``, newest first (those of accounts it blocked are gone already)."""
    o = seat_offers_table.c
    with storage.read() as conn:
        rows = conn.execute(
            select(seat_offers_table).where(o.account_id == account_id).order_by(o.created_at.desc()).limit(MAX_OFFERS)
        ).mappings()
        return [Offer(r["table_id"], r["seat"], r["account_id"], r["invited_by"], _utc(r["created_at"])) for r in rows]


def find_offer(storage: Storage, table_id: str, seat: int, account_id: str) -> Offer:
    """The seat offered to ``account_id`` (404 if there is none, or no more)."""
    for offer in offers_for(storage, account_id):
        if offer.table_id == table_id and offer.seat == seat:
            return offer
    raise NotFound("no seat offered to you there (the offer may have been taken back)", code="app:errors.no_offer")


def drop_offer(storage: Storage, table_id: str, seat: int) -> None:
    """Forget the offer of a seat (taken, declined, or no longer possible)."""
    o = seat_offers_table.c
    with storage.transaction() as conn:
        conn.execute(delete(seat_offers_table).where(o.table_id == table_id, o.seat == seat))
