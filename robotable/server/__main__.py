"""``python -m robotable.server``: serve the app, with the knobs tests and operators need.

python -m robotable.server --port 8000 --database sqlite:///robotable.db --bot-delay 0.6
"""

from __future__ import annotations

import argparse
import logging
import os

from .app import create_app, local_url
from .bot_api import MODES
from .mail import MailConfig
from .serving import redacted, serve
from .storage import database_url


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and serve."""
    parser = argparse.ArgumentParser(prog="python -m robotable.server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--database", default=None, help="SQLAlchemy URL or SQLite file (default robotable.db)")
    parser.add_argument("--schema", default=None, help="PostgreSQL schema for the tables")
    parser.add_argument("--bot-delay", type=float, default=None, help="seconds before each bot move")
    parser.add_argument(
        "--allow-positions",
        action="store_true",
        default=None,
        help="accept tables started from a written position (tests and puzzles only; ROBOTABLE_ALLOW_POSITIONS=1)",
    )
    parser.add_argument(
        "--bots",
        choices=MODES,
        default=os.environ.get("ROBOTABLE_BOTS") or "spawn",
        help="where bots think: spawn (a worker process of this server, the default), external "
        "(`robotable worker` processes), inline (a thread of this process)",
    )
    parser.add_argument("--redis", default=None, help="Redis URL for fan-out between processes (ROBOTABLE_REDIS)")
    parser.add_argument("--redis-prefix", default=None, help="prefix of this app's Redis keys (ROBOTABLE_REDIS_PREFIX)")
    parser.add_argument(
        "--rate-limit-storage",
        default=None,
        help="`limits` storage URI of the rate limits, e.g. redis://127.0.0.1:6379/0 (ROBOTABLE_RATE_LIMIT_STORAGE; "
        "default: the --redis URL, else this process's memory)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="addresses of the proxies whose X-Forwarded-For and X-Forwarded-Proto are trusted, comma-separated "
        "(ROBOTABLE_FORWARDED_ALLOW_IPS; default: none, the connection's address is the client's)",
    )
    add_mail_arguments(parser)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    shown = redacted(database_url(args.database or os.environ.get("ROBOTABLE_DATABASE")))
    print(f"Robotable on http://{args.host}:{args.port} (database: {shown})", flush=True)
    app = create_app(
        args.database,
        schema=args.schema,
        bot_delay=args.bot_delay,
        allow_positions=args.allow_positions,
        bots_mode=args.bots,
        self_url=local_url(args.host, args.port),
        redis=args.redis,
        redis_prefix=args.redis_prefix,
        rate_limit_storage=args.rate_limit_storage,
        mail_config=mail_config_of(args, args.host, args.port),
    )
    serve(app, args.host, args.port, forwarded_allow_ips=args.forwarded_allow_ips)


def add_mail_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of e-mail when away (mail.py); without ``--smtp-host`` no e-mail is sent."""
    group = parser.add_argument_group("e-mail when away (none without --smtp-host)")
    group.add_argument("--smtp-host", default=None, help="SMTP server to send through (ROBOTABLE_SMTP_HOST)")
    group.add_argument("--smtp-port", type=int, default=None, help="its port (ROBOTABLE_SMTP_PORT, default 25)")
    group.add_argument("--mail-from", default=None, help="the From address (ROBOTABLE_MAIL_FROM)")
    group.add_argument(
        "--mail-interval",
        type=float,
        default=None,
        help="at most one message per player this often, in seconds (ROBOTABLE_MAIL_INTERVAL, default 3600)",
    )
    group.add_argument(
        "--public-url",
        default=None,
        help="the site's address in links, e.g. https://play.example.org (ROBOTABLE_PUBLIC_URL)",
    )


def mail_config_of(args: argparse.Namespace, host: str, port: int) -> MailConfig | None:
    """The e-mail settings of the parsed options (None: no SMTP server, no e-mail)."""
    try:
        public = args.public_url or os.environ.get("ROBOTABLE_PUBLIC_URL") or local_url(host, port)
        return MailConfig.of(args.smtp_host, args.smtp_port, args.mail_from, args.mail_interval, public)
    except ValueError as exc:
        raise SystemExit(f"robotable: {exc}") from None


if __name__ == "__main__":
    main()
