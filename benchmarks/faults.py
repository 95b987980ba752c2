"""Faults under load: no acknowledged move is lost and every table plays on.

Starts two web processes and a bot worker on PostgreSQL (a schema of its own) and a private
redis-server, and lets ``--tables`` tables of two people (guest accounts) play random legal moves over
websockets (seat 0 through one process, seat 1 through the other; a client whose socket drops
reconnects to any process), beside ``--bot-tables`` tables of a person and a bot (the bot's turns are
the worker's). Then, one after the other in each round: kill -9 of a web process (started again after a
second), kill -9 of the worker (started again after a second), Redis stopped for a while, and every
database session of the servers terminated with ``pg_terminate_backend``. At the end every
acknowledged move (table, move number, action) is compared with the stored moves, and every table
must have moved on after the last fault.

    .venv/bin/python benchmarks/faults.py --tables 20 --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import sqlalchemy
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import PG, Cluster, bearer, free_port, guest


class Redis:
    """A private redis-server that can be stopped and started again."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(0.3)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Players:
    """Tables of two people playing random moves; every acknowledged move is remembered."""

    def __init__(self, urls: list[str], tables: int, seed: int, bot_tables: int = 0) -> None:
        self.urls = urls
        self.tables = tables
        self.bot_tables = bot_tables
        self.tokens: dict[int, dict[int, str]] = {}  # place -> seat -> the API token of its guest account
        self.rng = random.Random(seed)
        self.acked: dict[tuple[str, int], dict] = {}  # (table, move index) -> the action acknowledged
        self.moves: dict[str, int] = {}  # table -> moves seen
        self.finished: set[str] = set()
        self.reconnects = 0
        self.errors: list[str] = []
        self.stop = False

    async def table(self, index: int) -> None:
        """Game after game at one place, until the end."""
        while not self.stop:
            await self.game(index)

    async def game(self, index: int) -> None:
        bot = index >= self.tables  # a person and a bot (the worker's)
        seats = [{"kind": "human"}, {"kind": "bot", "difficulty": "random"} if bot else {"kind": "human"}]
        tokens = self.tokens.setdefault(index, {})
        async with httpx.AsyncClient(timeout=30) as http:
            while not self.stop:
                try:
                    base = self.urls[index % 2]
                    for s in (0,) if bot else (0, 1):
                        if s not in tokens:
                            tokens[s] = await guest(http, base, f"Faults {index}.{s}")
                    body = {"game": "tf22-reload", "num_players": 2, "seats": seats}
                    res = await http.post(f"{base}/api/tables", json=body, headers=bearer(tokens[0]))
                    res.raise_for_status()
                    made = res.json()
                    for link in made["invites"].values():
                        code = {"code": link.rsplit("/", 1)[1]}
                        accepted = await http.post(f"{base}/api/invites/accept", json=code, headers=bearer(tokens[1]))
                        accepted.raise_for_status()
                    break
                except (httpx.HTTPError, ValueError):
                    await asyncio.sleep(0.5)
        if self.stop:
            return
        table = made["table"]["id"]
        self.moves[table] = 0
        await asyncio.gather(*(self.seat(table, s, tokens[s], (index + s) % 2) for s in tokens))

    async def seat(self, table: str, seat: int, token: str, home: int) -> None:
        first = True
        while not self.stop:
            base = self.urls[home if first else self.rng.randrange(len(self.urls))]
            first = False
            url = f"{base.replace('http', 'ws')}/ws/tables/{table}?seat={seat}"
            try:
                async with websockets.connect(
                    url, open_timeout=5, max_size=2**22, additional_headers=bearer(token)
                ) as ws:
                    pending: dict | None = None
                    last: dict | None = None  # the latest snapshot or update
                    while not self.stop:
                        try:
                            msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=1))
                        except TimeoutError:
                            continue
                        if msg["type"] == "ack" and pending is not None:
                            self.acked[(table, msg["moves"] - 1)] = pending
                            pending = None
                        elif msg["type"] == "error":
                            pending = None
                            if msg.get("status") != 409:  # a stale click after a reconnect is fine
                                self.errors.append(f"{msg.get('status')}: {msg.get('message')}")
                            break  # look again: a new connection starts with a snapshot
                        elif msg["type"] in ("snapshot", "update"):
                            last = msg
                            self.moves[table] = max(self.moves[table], msg["moves"])
                            if msg["result"] is not None:
                                self.finished.add(table)
                                return
                        if last is not None and last["legal"] and pending is None and msg["type"] != "table":
                            pending = self.rng.choice(last["legal"])
                            await ws.send(json.dumps({"type": "move", "action": pending, "after": last["moves"]}))
                            last = dict(last, legal=[])  # one move per position
            except (OSError, websockets.WebSocketException, TimeoutError):
                self.reconnects += 1
                await asyncio.sleep(0.3)


def stored_moves(schema: str) -> dict[tuple[str, int], dict]:
    engine = sqlalchemy.create_engine(PG)
    with engine.connect() as conn:
        rows = conn.execute(sqlalchemy.text(f'SELECT table_id, idx, action FROM "{schema}".robotable_moves'))
        out = {(r[0], r[1]): r[2] for r in rows}
    engine.dispose()
    return out


def terminate_sessions(app_name: str) -> int:
    engine = sqlalchemy.create_engine(PG)
    with engine.begin() as conn:
        killed = conn.execute(
            sqlalchemy.text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = :name"
            ),
            {"name": app_name},
        ).scalar()
    engine.dispose()
    return int(killed or 0)


async def scenario(args: argparse.Namespace) -> int:
    redis = Redis()
    redis.start()
    app_name = f"rt_faults_{secrets.token_hex(3)}"
    database = f"{PG}?application_name={app_name}"
    cluster = await asyncio.to_thread(Cluster, 2, True, 0.6, database, redis.url)
    players = Players(cluster.urls, args.tables, args.seed, args.bot_tables)
    tasks = [asyncio.create_task(players.table(i)) for i in range(args.tables + args.bot_tables)]
    log: list[str] = []

    async def settle(label: str) -> None:
        before = sum(players.moves.values())
        await asyncio.sleep(args.pause)
        log.append(f"{label:<44} moves during the next {args.pause:.0f} s: {sum(players.moves.values()) - before}")
        print(log[-1], flush=True)

    try:
        await settle("warm-up")
        for r in range(args.rounds):
            victim = r % 2
            os.kill(cluster.procs[victim].pid, signal.SIGKILL)
            cluster.procs[victim].wait()
            await asyncio.sleep(1)
            await asyncio.to_thread(cluster.restart, victim)
            await settle(f"round {r + 1}: kill -9 of web process {victim + 1}")
            os.kill(cluster.workers[0].pid, signal.SIGKILL)
            cluster.workers[0].wait()
            await asyncio.sleep(1)
            await asyncio.to_thread(cluster.restart_worker, 0)
            await settle(f"round {r + 1}: kill -9 of the bot worker")
            redis.stop()
            await asyncio.sleep(args.outage)
            redis.start()
            await settle(f"round {r + 1}: Redis away {args.outage:.0f} s")
            killed = await asyncio.to_thread(terminate_sessions, app_name)
            await settle(f"round {r + 1}: {killed} database sessions terminated")
        marks = dict(players.moves)
        await asyncio.sleep(args.pause)
        stuck = [t for t, n in players.moves.items() if n == marks.get(t) and t not in players.finished]
    finally:
        players.stop = True
        await asyncio.gather(*tasks, return_exceptions=True)
        stored = await asyncio.to_thread(stored_moves, cluster.schema)
        await asyncio.to_thread(cluster.stop)
        redis.stop()
    lost = [k for k, action in players.acked.items() if stored.get(k) != action]
    print(
        f"tables {args.tables} + {args.bot_tables} with a bot; acknowledged moves {len(players.acked)}; "
        f"lost {len(lost)}; stored moves "
        f"{len(stored)}; tables that did not move on after the faults {len(stuck)} (finished games excluded); "
        f"reconnects {players.reconnects}; errors other than 409 {len(players.errors)}",
        flush=True,
    )
    for err in sorted(set(players.errors))[:5]:
        print(f"    error: {err}")
    return 1 if lost or stuck else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--bot-tables", type=int, default=4, help="tables of a person and a bot (the worker's)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--pause", type=float, default=8, help="seconds of play after each fault")
    parser.add_argument("--outage", type=float, default=5, help="seconds Redis is away")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"faults: {args.tables} tables of two people and {args.bot_tables} of a person and a bot, {args.rounds} "
        "rounds; PostgreSQL + private Redis; 2 web processes and a bot worker",
        flush=True,
    )
    sys.exit(asyncio.run(scenario(args)))


if __name__ == "__main__":
    main()
