"""Load: N websocket clients across M tables playing random legal moves, bounded in time.

Starts its own cluster (``--web`` processes on PostgreSQL + Redis, in a schema and key prefix of its
own, dropped afterwards) unless ``--url`` points at running servers. Each table has two people; seat 0
plays through one web process and seat 1 through the next, so every move is fanned out across
processes. A finished game is followed by a new table. Prints accepted moves per second, the ack
round trip (move sent -> ack) and the broadcast delay (move sent -> the other seat's update) at p50
and p99, errors, and each server's RSS after warm-up and at the end. ``--reference`` first runs the
same load on one process without Redis, printed beside it.

    .venv/bin/python benchmarks/load.py --clients 400 --seconds 120 --web 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
PG = os.environ.get("ROBOTABLE_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("ROBOTABLE_TEST_REDIS", "redis://127.0.0.1:6379/0")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Figures:
    moves: int = 0
    games: int = 0
    errors: list[str] = field(default_factory=list)
    ack_ms: list[float] = field(default_factory=list)
    broadcast_ms: list[float] = field(default_factory=list)


def rss_mb(pid: int) -> float:
    """Resident memory of a process, MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Cluster:
    """Web processes on one PostgreSQL schema (and, for several, one Redis prefix)."""

    def __init__(
        self, web: int, redis: bool, bot_delay: float = 0.6, database: str = PG, redis_url: str = REDIS
    ) -> None:
        self.schema = f"rt_load_{secrets.token_hex(4)}"
        self.prefix = f"rt-load-{secrets.token_hex(4)}:"
        self.procs: list[subprocess.Popen[bytes]] = []
        self.urls: list[str] = []
        self.cmds: list[list[str]] = []
        self.env = env = {**os.environ, "PYTHONPATH": str(ROOT), "ROBOTABLE_CONNECTIONS_PER_IP": "0"}
        env.update(
            {
                "ROBOTABLE_WS_PER_IP": "100000",
                "ROBOTABLE_WS_RATE": "100000/minute",
                "ROBOTABLE_CREATE_RATE": "100000/minute",
            }
        )
        for _ in range(web):
            port = free_port()
            cmd = [sys.executable, "-m", "robotable.server", "--port", str(port), "--database", database]
            cmd += ["--schema", self.schema, "--bot-delay", str(bot_delay)]
            if redis:
                cmd += ["--redis", redis_url, "--redis-prefix", self.prefix]
            self.cmds.append(cmd)
            self.procs.append(subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            self.urls.append(f"http://127.0.0.1:{port}")
            self._wait(self.urls[-1])  # one at a time: both create the schema

    def restart(self, i: int) -> None:
        """Start web process ``i`` again (after it was killed)."""
        self.procs[i] = subprocess.Popen(
            self.cmds[i], env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self._wait(self.urls[i])

    @staticmethod
    def _wait(url: str) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError(f"{url} did not start")

    def rss(self) -> list[float]:
        return [round(rss_mb(p.pid), 1) for p in self.procs if p.poll() is None]

    def stop(self) -> None:
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
        import sqlalchemy

        engine = sqlalchemy.create_engine(PG)
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE'))
        engine.dispose()


async def play_tables(urls: list[str], index: int, deadline: float, figures: Figures, rng: random.Random) -> None:
    """One table's two seats, game after game, until the deadline."""
    a, b = urls[index % len(urls)], urls[(index + 1) % len(urls)]
    async with httpx.AsyncClient(timeout=30) as http:
        while time.monotonic() < deadline:
            body = {"game": "tf22-reload", "num_players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
            try:
                res = await http.post(f"{a}/api/tables", json=body)
                res.raise_for_status()
            except httpx.HTTPError as exc:
                figures.errors.append(f"create: {exc!r}")
                await asyncio.sleep(1)
                continue
            made = res.json()
            table, tokens = made["table"]["id"], made["tokens"]
            sent_at: dict[int, tuple[int, float]] = {}  # move number -> (its seat, when it was sent)
            seen_at: dict[tuple[int, int], float] = {}  # (seat, move number) -> when the seat saw it
            done = asyncio.Event()

            async def play_seat(
                url: str,
                seat: int,
                done: asyncio.Event = done,
                sent_at: dict[int, tuple[int, float]] = sent_at,
                seen_at: dict[tuple[int, int], float] = seen_at,
            ) -> None:
                async with websockets.connect(url, max_size=2**22, open_timeout=30) as ws:
                    mine: float | None = None  # when this seat's pending move was sent
                    last: dict | None = None  # the latest snapshot or update
                    while time.monotonic() < deadline and not done.is_set():
                        try:
                            raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
                        except TimeoutError:
                            break
                        msg = json.loads(raw)
                        kind = msg["type"]
                        if kind == "error":
                            figures.errors.append(f"{msg.get('status')}: {msg.get('message')}")
                            mine = None
                        elif kind == "ack" and mine is not None:
                            figures.ack_ms.append((time.monotonic() - mine) * 1000)
                            sent_at[msg["moves"]] = (seat, mine)
                            figures.moves += 1
                            mine = None
                        elif kind in ("snapshot", "update"):
                            seen_at[(seat, msg["moves"])] = time.monotonic()
                            last = msg
                            if msg["result"] is not None:
                                figures.games += seat == 0
                                done.set()
                                break
                        if last is not None and last["legal"] and mine is None and kind != "table":
                            mine = time.monotonic()
                            action = rng.choice(last["legal"])
                            await ws.send(json.dumps({"type": "move", "action": action, "after": last["moves"]}))
                            last = dict(last, legal=[])  # one move per position

            urls_seats = [
                (f"{base.replace('http', 'ws')}/ws/tables/{table}?seat={s}&token={tokens[str(s)]}", s)
                for s, base in ((0, a), (1, b))
            ]
            try:
                await asyncio.gather(*(play_seat(url, s) for url, s in urls_seats))
            except Exception as exc:
                figures.errors.append(f"socket: {exc!r}")
                await asyncio.sleep(0.5)
            for move, (mover, t) in sent_at.items():
                seen = seen_at.get((1 - mover, move))
                if seen is not None:
                    figures.broadcast_ms.append((seen - t) * 1000)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def run_load(urls: list[str], tables: int, seconds: float, warmup: float, seed: int) -> tuple[Figures, float]:
    figures = Figures()
    start = time.monotonic()
    deadline = start + warmup + seconds
    tasks = []
    for i in range(tables):
        tasks.append(asyncio.create_task(play_tables(urls, i, deadline, figures, random.Random(seed + i))))
        await asyncio.sleep(min(0.02, warmup / max(1, tables)))
    await asyncio.sleep(max(0.0, start + warmup - time.monotonic()))
    marks = (figures.moves, len(figures.ack_ms), len(figures.broadcast_ms), len(figures.errors))
    t0 = time.monotonic()
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - t0
    steady = Figures(
        moves=figures.moves - marks[0],
        games=figures.games,
        errors=figures.errors[marks[3] :],
        ack_ms=figures.ack_ms[marks[1] :],
        broadcast_ms=figures.broadcast_ms[marks[2] :],
    )
    return steady, elapsed


def report(label: str, figures: Figures, elapsed: float, rss: tuple[list[float], list[float]]) -> None:
    print(
        f"{label:<28} {figures.moves / elapsed:8.1f} moves/s  ack p50 {pct(figures.ack_ms, 0.5):6.1f} ms "
        f"p99 {pct(figures.ack_ms, 0.99):7.1f} ms  broadcast p50 {pct(figures.broadcast_ms, 0.5):6.1f} ms "
        f"p99 {pct(figures.broadcast_ms, 0.99):7.1f} ms  errors {len(figures.errors)}  "
        f"games {figures.games}  RSS MB after warm-up {rss[0]} end {rss[1]}",
        flush=True,
    )
    for err in sorted(set(figures.errors))[:5]:
        print(f"    error: {err}")


def one_run(label: str, web: int, redis: bool, args: argparse.Namespace) -> None:
    cluster = Cluster(web, redis)
    try:

        async def main() -> tuple[Figures, float, list[float]]:
            async def sample() -> list[float]:
                await asyncio.sleep(args.warmup)
                return cluster.rss()

            sampler = asyncio.create_task(sample())
            figures, elapsed = await run_load(cluster.urls, args.clients // 2, args.seconds, args.warmup, args.seed)
            return figures, elapsed, await sampler

        figures, elapsed, warm = asyncio.run(main())
        report(label, figures, elapsed, (warm, cluster.rss()))
    finally:
        cluster.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=100, help="websocket clients (two per table)")
    parser.add_argument("--seconds", type=float, default=30, help="measured seconds after the warm-up")
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--web", type=int, default=2, help="web processes (several: fanned out by Redis)")
    parser.add_argument("--reference", action="store_true", help="first the same load on one process, no Redis")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"load: {args.clients} clients on {args.clients // 2} tables (tf22-reload, 2 people), "
        f"{args.seconds:.0f} s after {args.warmup:.0f} s warm-up; PostgreSQL; {os.cpu_count()} CPUs; "
        f"Python {sys.version.split()[0]}",
        flush=True,
    )
    if args.reference:
        one_run("1 web process, no Redis", 1, False, args)
    one_run(f"{args.web} web processes + Redis", args.web, args.web > 1, args)


if __name__ == "__main__":
    main()
