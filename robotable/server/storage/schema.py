"""Every SQL table of the server, on one :data:`metadata`, and how a database gets them (SQLAlchemy Core).

All of them live in one database (and, on PostgreSQL, one schema): whoever creates the schema
(:func:`create`, run by every :class:`~robotable.server.storage.Storage` on start) gets every table. The
logic that reads and writes each group is elsewhere: games in ``store.py``; people in ``accounts.py``,
``sessions.py``, ``invites.py`` and ``chat.py``; friends, blocks and seats offered to a friend in
``friends.py``; e-mail when away in ``mail.py``; clocks in ``clocks.py``; ratings in ``ratings.py``;
reputation in ``reputation.py``; tournaments in ``tournaments.py``; the bot queue in ``botqueue.py``;
reviews in ``review_jobs.py``; solved exercises in ``exercise_api.py``. Secrets are stored as hashes only:
passwords with argon2, session ids, API tokens and invite codes (long random values) with SHA-256.

Migrations are additive: a column a newer version declares is added to a table an older version created
(:func:`add_missing_columns`; each such column is nullable or has a server default), and
``robotable_meta`` holds :data:`SCHEMA_VERSION`, so a server refuses a database written by a newer one.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    DefaultClause,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    insert,
    inspect,
    literal,
    select,
    text,
)
from sqlalchemy.engine import Connection
from sqlalchemy.schema import CreateSchema

SCHEMA_VERSION = 1

metadata = MetaData()

# -- games ------------------------------------------------------------------------------------------

meta_table = Table(
    "robotable_meta",
    metadata,
    Column("key", String(40), primary_key=True),
    Column("value", String(200), nullable=False),
)

tables_table = Table(
    "robotable_tables",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("game", String(60), nullable=False),
    Column("num_players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", JSON, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("num_moves", Integer, nullable=False, default=0),
    Column("result", JSON, nullable=True),
    Column("next_table", String(24), nullable=True),
    Column("parent", String(24), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # people (server/accounts.py): who made the table; hotseat tables (several seats on one device,
    # chosen at creation) are never rated
    Column("created_by", String(24), ForeignKey("robotable_accounts.id", ondelete="SET NULL"), nullable=True),
    Column("hotseat", Boolean, nullable=False, default=False, server_default=false()),
    Column("rated", Boolean, nullable=False, default=False, server_default=false()),
    # hints while playing (server/hint_api.py): the creator allowed them (such a table is never rated)
    Column("hints", Boolean, nullable=False, default=False, server_default=false()),
    # scaling out (server/cache.py): every write bumps ``version`` (a cache is current iff its version is the
    # row's); an undo also bumps ``history`` (moves were taken back, so a cache cannot just append);
    # ``to_act`` is who the game waits for, so lobby summaries need no replay.
    Column("version", BigInteger, nullable=False, default=0, server_default=text("0")),
    Column("history", Integer, nullable=False, default=0, server_default=text("0")),
    Column("to_act", JSON, nullable=True),
    # reputation (server/reputation.py): only accounts with at least this share of finished games may sit
    Column("min_reputation", Integer, nullable=True),
)

seats_table = Table(
    "robotable_seats",
    metadata,
    Column("table_id", String(24), ForeignKey("robotable_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(60), nullable=False),
    Column("difficulty", String(40), nullable=True),
    Column("handed_to_bot", Boolean, nullable=False, default=False),
    # the account that plays this seat (None: a bot, an open seat, or an invite not yet accepted)
    Column(
        "account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="SET NULL"), nullable=True, index=True
    ),
)

moves_table = Table(
    "robotable_moves",
    metadata,
    Column("table_id", String(24), ForeignKey("robotable_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", JSON, nullable=False),
    Column("actor", String(8), nullable=False),  # "human" or "bot": undo never passes another human's move
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# -- people (accounts.py, sessions.py, invites.py, chat.py) -------------------------------------------

accounts_table = Table(
    "robotable_accounts",
    metadata,
    Column("id", String(24), primary_key=True),
    # the sign-in name as typed, and its lowercase form (unique); both None for a guest
    Column("username", String(40), nullable=True),
    Column("username_key", String(40), nullable=True, unique=True),
    Column("display_name", String(60), nullable=False),
    Column("password_hash", String(200), nullable=True),  # argon2id; None: a guest without a password
    Column("api_token_hash", String(64), nullable=True, unique=True),  # SHA-256 of the API token
    Column("created_at", DateTime(timezone=True), nullable=False),
    # e-mail when away (mail.py): an address only when the account gave one (never shown to others), and
    # whether it asked for e-mail (off by default; an unsubscribe link turns it off), and when its last
    # message went (at most one per interval)
    Column("email", String(254), nullable=True),
    Column("email_notify", Boolean, nullable=False, default=False, server_default=false()),
    Column("email_sent_at", DateTime(timezone=True), nullable=True),
    # the language its messages are written in (set with the address; None: English)
    Column("email_lang", String(8), nullable=True),
)

sessions_table = Table(
    "robotable_sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),  # SHA-256 of the cookie's value
    Column("account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("csrf", String(64), nullable=False),  # the synchronizer token the page sends back in X-CSRF-Token
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Index("ix_robotable_sessions_account", "account_id"),
)

invites_table = Table(
    "robotable_invites",
    metadata,
    Column("code_hash", String(64), primary_key=True),  # SHA-256 of the one-time code
    Column("table_id", String(24), ForeignKey("robotable_tables.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("created_by", String(24), ForeignKey("robotable_accounts.id", ondelete="SET NULL"), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("used_at", DateTime(timezone=True), nullable=True),
    Column("used_by", String(24), ForeignKey("robotable_accounts.id", ondelete="SET NULL"), nullable=True),
    Index("ix_robotable_invites_table_seat", "table_id", "seat"),
)

chat_table = Table(
    "robotable_chat",
    metadata,
    Column("table_id", String(24), ForeignKey("robotable_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="SET NULL"), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(60), nullable=False),
    Column("text", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

mutes_table = Table(
    "robotable_mutes",
    metadata,
    Column("account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("muted_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# -- friends (friends.py) ---------------------------------------------------------------------------

#: A friendship, one row per direction: ``requested`` (``account_id`` asked ``other_id``, who has not
#: answered) or ``friends`` (accepted: both directions are stored).
friends_table = Table(
    "robotable_friends",
    metadata,
    Column("account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("other_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("status", String(12), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_robotable_friends_other", "other_id"),
)

#: ``account_id`` blocked ``blocked_id``: no requests, invites or chat lines from them reach it.
blocks_table = Table(
    "robotable_blocks",
    metadata,
    Column("account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("blocked_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_robotable_blocks_blocked", "blocked_id"),
)

#: A seat offered to a friend directly (one offer per seat; it goes when taken, declined or replaced).
seat_offers_table = Table(
    "robotable_seat_offers",
    metadata,
    Column("table_id", String(24), ForeignKey("robotable_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("invited_by", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_robotable_seat_offers_account", "account_id"),
)

#: When an account last had a page open that says so (the friends socket): "online" for its friends.
seen_table = Table(
    "robotable_seen",
    metadata,
    Column("account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("seen_at", DateTime(timezone=True), nullable=False),
)

# -- e-mail when away (mail.py) ----------------------------------------------------------------------

#: What an account is to be told by e-mail: one row per notice (``key`` says which, so a notice is queued
#: once), ``sent_at`` set when the message that carried it went (or it was dropped as no longer true).
mail_outbox_table = Table(
    "robotable_mail_outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(16), nullable=False),  # turn, timeout, invite, tournament
    Column("key", String(120), nullable=False),
    Column("table_id", String(24), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("sent_at", DateTime(timezone=True), nullable=True),
    UniqueConstraint("account_id", "key", name="uq_robotable_mail_outbox_key"),
    Index("ix_robotable_mail_outbox_pending", "sent_at", "account_id"),
)

# -- clocks (clocks.py) -----------------------------------------------------------------------------

clocks_table = Table(
    "robotable_clocks",
    metadata,
    Column("table_id", String(24), ForeignKey("robotable_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("control", JSON, nullable=False),
)

seat_clocks_table = Table(
    "robotable_seat_clocks",
    metadata,
    Column("table_id", String(24), ForeignKey("robotable_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("remaining_ms", BigInteger, nullable=False),  # time left when stopped
    Column("deadline", DateTime(timezone=True), nullable=True, index=True),  # set while running
    Column("timed_out", Boolean, nullable=False, default=False),  # the time-out of this run was fired
    Column("away_deadline", DateTime(timezone=True), nullable=True),  # live: end of a disconnection's grace
)

seat_notes_table = Table(
    "robotable_seat_notes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(24), ForeignKey("robotable_tables.id", ondelete="CASCADE"), index=True),
    Column("seat", Integer, nullable=False),
    Column("kind", String(16), nullable=False),  # timeout, handed_to_bot, reclaimed
    Column("move", Integer, nullable=False),
    Column("detail", String(120), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

# -- ratings (ratings.py) ---------------------------------------------------------------------------

ratings_table = Table(
    "robotable_ratings",
    metadata,
    Column("game", String(60), primary_key=True),
    Column("entry", String(80), primary_key=True),  # account:<id> or a bot's agent spec
    Column("kind", String(8), nullable=False),  # account or bot
    Column("label", String(60), nullable=False),  # the name shown (an account's name at its last game)
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

rated_tables_table = Table(
    "robotable_rated_tables",
    metadata,
    Column("table_id", String(24), ForeignKey("robotable_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(60), nullable=False),
    Column("changes", JSON, nullable=False),  # per seat: entry, mu before and after
    Column("rated_at", DateTime(timezone=True), nullable=False),
)

# -- reputation (reputation.py) ---------------------------------------------------------------------

#: How each table with at least two accounts ended for each of them: ``finished`` or ``abandoned`` (a live
#: time-out or the seat handed to a bot); one row per account and table, the first outcome stands.
reputation_table = Table(
    "robotable_reputation",
    metadata,
    Column("account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("table_id", String(24), primary_key=True),
    Column("outcome", String(12), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

# -- tournaments for people (tournaments.py) --------------------------------------------------------

#: A tournament: its settings, ``status`` (``signup``, ``running``, ``finished``) and the round being
#: played (0 before the start). Every change of the round is a compare-and-set on ``version``.
tournaments_table = Table(
    "robotable_tournaments",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("game", String(60), nullable=False),
    Column("table_size", Integer, nullable=False),
    Column("format", String(12), nullable=False),  # swiss (2-player tables) or groups (3-6)
    Column("rounds", Integer, nullable=False),
    Column("round", Integer, nullable=False, default=0),
    Column("control", JSON, nullable=False),  # the tables' time control (clocks.TimeControl.to_json)
    Column("bots_allowed", Boolean, nullable=False, default=False),
    Column("max_entrants", Integer, nullable=False),
    Column("status", String(12), nullable=False, index=True),
    Column("created_by", String(24), ForeignKey("robotable_accounts.id", ondelete="SET NULL"), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("version", BigInteger, nullable=False, default=0),
)

#: Who entered a tournament: an account (``entry`` is its id) or a bot the organiser added (``bot-N``).
tournament_entries_table = Table(
    "robotable_tournament_entries",
    metadata,
    Column("tournament_id", String(24), ForeignKey("robotable_tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("entry", String(24), primary_key=True),
    Column("kind", String(8), nullable=False),  # account or bot
    Column(
        "account_id", String(24), ForeignKey("robotable_accounts.id", ondelete="CASCADE"), nullable=True, index=True
    ),
    Column("difficulty", String(40), nullable=True),
    Column("name", String(60), nullable=False),
    Column("joined_at", DateTime(timezone=True), nullable=False),
)

#: A table of a round (``board`` from 0), or a bye (no ``table_id``): the entries by seat, their points
#: once it is over, and how it ended (``playing``, ``finished``, ``forfeit``, ``bye``).
tournament_tables_table = Table(
    "robotable_tournament_tables",
    metadata,
    Column("tournament_id", String(24), ForeignKey("robotable_tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("board", Integer, primary_key=True),
    Column("table_id", String(24), nullable=True, index=True),
    Column("entries", JSON, nullable=False),
    Column("points", JSON, nullable=True),
    Column("outcome", String(12), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

#: A seat that forfeited at a tournament table (its clock ran out): inserted once over every process.
tournament_forfeits_table = Table(
    "robotable_tournament_forfeits",
    metadata,
    Column("table_id", String(24), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("tournament_id", String(24), ForeignKey("robotable_tournaments.id", ondelete="CASCADE"), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

# -- the bot queue (botqueue.py) --------------------------------------------------------------------

bot_turns = Table(
    "robotable_bot_turns",
    metadata,
    Column("table_id", String(24), primary_key=True),
    Column("owner", String(80), nullable=True, index=True),
    Column("all_bots", Boolean, nullable=False, default=False),
    Column("pending", Boolean, nullable=False, default=False, index=True),
    Column("version", Integer, nullable=False, default=0),  # the move count the turn is for
    Column("due_at", DateTime(timezone=True), nullable=False),
    Column("lease_until", DateTime(timezone=True), nullable=True),
    Column("worker", String(60), nullable=True),
    Column("attempts", Integer, nullable=False, default=0),
    Column("last_error", String(200), nullable=True),
)

bot_usage = Table(
    "robotable_bot_usage",
    metadata,
    Column("owner", String(80), primary_key=True),
    Column("window_start", DateTime(timezone=True), nullable=False),
    Column("seconds", Float, nullable=False, default=0.0),
)

# -- reviews (review_jobs.py) -----------------------------------------------------------------------

reviews = Table(
    "reviews",
    metadata,
    Column("table_id", String(64), primary_key=True),  # a table's id, or upload-<id>
    Column("status", String(16), nullable=False),  # queued, running, done, failed
    Column("done", Integer, nullable=False, default=0),
    Column("total", Integer, nullable=False, default=0),
    Column("budget", JSON, nullable=False),
    Column("review", JSON, nullable=True),
    Column("error", String(500), nullable=True),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # added for the bot workers and uploads (older databases get them at start-up: all nullable)
    Column("worker", String(60), nullable=True),  # the bot worker computing it
    Column("owner", String(24), nullable=True),  # an upload's account
    Column("record", JSON, nullable=True),  # an upload's record
)

# -- exercises (exercise_api.py) --------------------------------------------------------------------

#: Which exercises (a review's mistakes, replayed as puzzles) an account has solved.
exercises_solved = Table(
    "exercises_solved",
    metadata,
    Column("account_id", String(24), primary_key=True),
    Column("table_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("move", Integer, primary_key=True),
    Column("solved_at", DateTime(timezone=True), nullable=False),
)


def create(conn: Connection, schema: str | None) -> None:
    """Create every table (in ``schema``, created if missing), add the columns older tables lack, and
    refuse a database written by a newer version (RuntimeError). ``conn`` translates the schema."""
    if schema:
        conn.execute(CreateSchema(schema, if_not_exists=True))
    metadata.create_all(conn)
    add_missing_columns(conn, schema)
    row = conn.execute(select(meta_table.c.value).where(meta_table.c.key == "schema_version")).first()
    if row is None:
        conn.execute(insert(meta_table).values(key="schema_version", value=str(SCHEMA_VERSION)))
    elif int(row[0]) > SCHEMA_VERSION:
        raise RuntimeError(f"the database has schema version {row[0]}; this server knows {SCHEMA_VERSION}")


def add_missing_columns(conn: Connection, schema: str | None, tables: Iterable[Table] | None = None) -> None:
    """Add the columns a newer version declares to ``tables`` (default: every table) that an older
    version created (each such column is nullable or has a server default)."""
    inspector = inspect(conn)
    for table in metadata.sorted_tables if tables is None else tables:
        present = {c["name"] for c in inspector.get_columns(table.name, schema=schema)}
        for column in table.columns:
            if column.name in present:
                continue
            kind = column.type.compile(dialect=conn.dialect)
            default = ""
            if isinstance(column.server_default, DefaultClause):  # a SQL expression: false(), text("0")
                arg = column.server_default.arg
                sql = literal(arg) if isinstance(arg, str) else arg  # a plain string is a quoted value
                default = " DEFAULT " + str(sql.compile(dialect=conn.dialect, compile_kwargs={"literal_binds": True}))
            null = "" if column.nullable else " NOT NULL"
            prefix = f'"{schema}".' if schema else ""
            # text: SQLAlchemy Core has no ALTER TABLE ... ADD COLUMN construct (that is Alembic's)
            conn.execute(text(f'ALTER TABLE {prefix}"{table.name}" ADD COLUMN "{column.name}" {kind}{default}{null}'))
