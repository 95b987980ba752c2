"""``python -m robotable.server.cluster``: a cluster on one machine, for operators, benchmarks and tests.

Starts N web processes (``python -m robotable.server`` on consecutive ports, ``--bots external``) and
M bot workers (``robotable worker``) on one PostgreSQL and one Redis (which holds their shared rate
limits too), and keeps them running until Ctrl-C (a process that dies is started again after a
second). Put a proxy in front for one public address (docs/server.md, "Scaling out"). The database
URL and the workers' secret go to the children by environment, never on a command line.

    python -m robotable.server.cluster --database postgresql://postgres@127.0.0.1:5432/test \\
        --redis redis://127.0.0.1:6379/0 --web 2 --workers 1 --port 8001
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field

from .serving import redacted
from .storage import database_url


@dataclass
class Child:
    """One process of the cluster and how to start it again."""

    name: str
    cmd: list[str]
    env: dict[str, str]
    url: str | None = None  # a web process's address
    proc: subprocess.Popen[bytes] | None = None
    restarts: int = field(default=0)

    def start(self) -> None:
        self.proc = subprocess.Popen(self.cmd, env=self.env)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


def wait_for(child: Child, timeout: float = 60.0) -> None:
    """Wait until a web process answers (or has died)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and child.alive() and child.url:
        try:
            with urllib.request.urlopen(child.url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)


def plan(args: argparse.Namespace) -> list[Child]:
    """The processes of the cluster."""
    env = {
        **os.environ,
        "ROBOTABLE_DATABASE": database_url(args.database),
        "ROBOTABLE_REDIS": args.redis,
        "ROBOTABLE_WORKER_SECRET": os.environ.get("ROBOTABLE_WORKER_SECRET") or secrets.token_urlsafe(24),
    }
    if args.schema:
        env["ROBOTABLE_DB_SCHEMA"] = args.schema
    if args.redis_prefix:
        env["ROBOTABLE_REDIS_PREFIX"] = args.redis_prefix
    children = []
    for i in range(args.web):
        port = args.port + i
        cmd = [sys.executable, "-m", "robotable.server", "--host", args.host, "--port", str(port), "--bots", "external"]
        if args.bot_delay is not None:
            cmd += ["--bot-delay", str(args.bot_delay)]
        if args.schema:
            cmd += ["--schema", args.schema]
        if getattr(args, "forwarded_allow_ips", None):
            cmd += ["--forwarded-allow-ips", args.forwarded_allow_ips]
        children.append(Child(f"web{i + 1} :{port}", cmd, env, url=f"http://127.0.0.1:{port}/api/games"))
    for i in range(args.workers):
        server = f"http://127.0.0.1:{args.port + i % max(1, args.web)}"
        cmd = [sys.executable, "-m", "robotable.server.worker", "--server", server]
        if args.schema:
            cmd += ["--schema", args.schema]
        children.append(Child(f"worker{i + 1}", cmd, env))
    return children


def main(argv: list[str] | None = None) -> None:
    """Start the cluster and keep it running until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m robotable.server.cluster", description=__doc__)
    parser.add_argument("--database", default=os.environ.get("ROBOTABLE_DATABASE"), help="PostgreSQL URL")
    parser.add_argument("--schema", default=None, help="PostgreSQL schema of the tables")
    parser.add_argument("--redis", default=os.environ.get("ROBOTABLE_REDIS") or "redis://127.0.0.1:6379/0")
    parser.add_argument("--redis-prefix", default=None, help="prefix of this cluster's Redis keys")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001, help="first web process's port (the others follow)")
    parser.add_argument("--web", type=int, default=2, help="web processes")
    parser.add_argument("--workers", type=int, default=1, help="bot worker processes")
    parser.add_argument("--bot-delay", type=float, default=None, help="seconds before each bot move")
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help="the proxy in front (e.g. 127.0.0.1), whose X-Forwarded-For the web processes believe (default: none)",
    )
    args = parser.parse_args(argv)
    if not args.database or not database_url(args.database).startswith("postgresql"):
        parser.error("a cluster shares one PostgreSQL: give --database postgresql://... (SQLite is one process)")
    if not 1 <= args.web <= 16 or not 0 <= args.workers <= 16:
        parser.error("--web must be 1 to 16 and --workers 0 to 16")
    children = plan(args)
    print(f"Robotable cluster on {redacted(database_url(args.database))} and {redacted(args.redis)}:", flush=True)
    for child in children:
        print(f"  {child.name}", flush=True)
        child.start()
        if child.url:  # the first web process creates the schema: the others wait for it
            wait_for(child)
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping:
        time.sleep(1)
        for child in children:
            if not stopping and not child.alive():
                child.restarts += 1
                print(f"  {child.name} exited ({child.proc.returncode if child.proc else '?'}); restarting", flush=True)
                child.start()
    for child in children:
        if child.alive() and child.proc is not None:
            child.proc.terminate()
    for child in children:
        if child.proc is not None:
            try:
                child.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.proc.kill()


if __name__ == "__main__":
    main()
