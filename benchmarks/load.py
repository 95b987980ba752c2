"""Load: N websocket clients across M tables playing random legal moves, bounded in time.

Starts its own cluster as ``python -m robotable.server.cluster`` does (``--web`` processes with
``--bots external`` on PostgreSQL + Redis and ``--workers`` bot workers, in a schema and key prefix of
its own, dropped afterwards). Each table has two people (two guest accounts, the second taking the
invite); seat 0 plays through one web process and seat 1 through the next, so every move is fanned out
across processes. A finished game is followed by a new table. ``--think`` makes each client pause
before a move as a person would (by default it moves at once: then every client always has a move in
flight, and the ack round trip is about clients / throughput). ``--bot-tables`` all-bot tables of four
``ismcts:hard`` bots think in the worker meanwhile. Prints accepted moves per second, the ack round
trip (move sent -> ack) and the broadcast delay (move sent -> the other seat's update) at p50 and p99,
errors, each web process's RSS after warm-up and at the end, the web processes' CPU time per accepted
move and the machine's load average. ``--reference`` first runs the same load on one process without
Redis, printed beside it; ``--code`` runs the servers of another checkout (a before/after comparison).

    .venv/bin/python benchmarks/load.py --clients 400 --seconds 120 --web 2
    .venv/bin/python benchmarks/load.py --clients 400 --seconds 120 --bot-tables 12
    git worktree add /tmp/old <commit> && .venv/bin/python benchmarks/load.py --code /tmp/old
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parents[1]
PG = os.environ.get("ROBOTABLE_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("ROBOTABLE_TEST_REDIS", "redis://127.0.0.1:6379/0")


#: Mean seconds a client pauses before each move (``--think``; 0: at once), in a list to be set once.
THINK = [0.0]

#: All-bot tables one account may have running (the server's default quota, ``ROBOTABLE_BOT_TABLES``).
BOT_TABLES_PER_ACCOUNT = 6


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Figures:
    moves: int = 0
    games: int = 0
    tables: int = 0
    errors: list[str] = field(default_factory=list)
    ack_ms: list[float] = field(default_factory=list)
    ack_at: list[float] = field(default_factory=list)  # when each ack came (time.monotonic())
    broadcast_ms: list[float] = field(default_factory=list)
    lag_ms: list[float] = field(default_factory=list)  # how late the clients' own event loop woke a nap
    rss_mb: list[list[float]] = field(default_factory=list)  # the web processes' RSS every SPAN seconds


def rss_mb(pid: int) -> float:
    """Resident memory of a process, MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used so far, seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_cpu() -> tuple[float, float]:
    """Seconds the machine's CPUs have been busy, and seconds the hypervisor took from them (``steal``:
    on a virtual machine, time its cores were not running it), from /proc/stat."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return 0.0, 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / tick, steal / tick


class Cluster:
    """Web processes on one PostgreSQL schema (and, for several, one Redis prefix) and bot workers.

    As ``python -m robotable.server.cluster`` starts them: web processes with ``--bots external`` and
    ``workers`` worker processes of their own (``python -m robotable.server.worker``).
    """

    def __init__(
        self,
        web: int,
        redis: bool,
        bot_delay: float = 0.6,
        database: str = PG,
        redis_url: str = REDIS,
        code: Path = ROOT,
        workers: int = 1,
    ) -> None:
        self.schema = f"rt_load_{secrets.token_hex(4)}"
        self.prefix = f"rt-load-{secrets.token_hex(4)}:"
        self.procs: list[subprocess.Popen[bytes]] = []
        self.urls: list[str] = []
        self.cmds: list[list[str]] = []
        # run in ``code`` too: ``python -m`` puts the working directory ahead of PYTHONPATH
        self.cwd = str(code)
        self.env = env = {**os.environ, "PYTHONPATH": str(code), "ROBOTABLE_CONNECTIONS_PER_IP": "0"}
        env.update(
            {
                "ROBOTABLE_WS_PER_IP": "100000",
                "ROBOTABLE_TIMINGS_KEPT": "200000",  # the servers' own timings of the whole run
                "ROBOTABLE_WS_RATE": "100000/minute",
                "ROBOTABLE_CREATE_RATE": "100000/minute",
                "ROBOTABLE_ACCOUNTS_RATE": "100000/hour",
                "ROBOTABLE_WORKER_SECRET": secrets.token_urlsafe(24),
                "ROBOTABLE_DATABASE": database,
                "ROBOTABLE_DB_SCHEMA": self.schema,
            }
        )
        for _ in range(web):
            port = free_port()
            cmd = [sys.executable, "-m", "robotable.server", "--port", str(port), "--database", database]
            cmd += ["--schema", self.schema, "--bot-delay", str(bot_delay), "--bots", "external"]
            if redis:
                cmd += ["--redis", redis_url, "--redis-prefix", self.prefix]
            self.cmds.append(cmd)
            self.procs.append(
                subprocess.Popen(
                    cmd, env=env, cwd=self.cwd, stdout=subprocess.DEVNULL, stderr=self._log(len(self.procs))
                )
            )
            self.urls.append(f"http://127.0.0.1:{port}")
            self._wait(self.urls[-1])  # one at a time: both create the schema
        self.worker_cmds = [
            [sys.executable, "-m", "robotable.server.worker", "--server", self.urls[i % web]] for i in range(workers)
        ]
        self.workers = [self._start_worker(i) for i in range(workers)]

    def _start_worker(self, i: int) -> subprocess.Popen[bytes]:
        log = self._log(f"worker{i}")
        return subprocess.Popen(self.worker_cmds[i], env=self.env, cwd=self.cwd, stdout=subprocess.DEVNULL, stderr=log)

    def restart_worker(self, i: int) -> None:
        """Start bot worker ``i`` again (after it was killed)."""
        self.workers[i] = self._start_worker(i)

    def restart(self, i: int) -> None:
        """Start web process ``i`` again (after it was killed)."""
        self.procs[i] = subprocess.Popen(
            self.cmds[i], env=self.env, cwd=self.cwd, stdout=subprocess.DEVNULL, stderr=self._log(i)
        )
        self._wait(self.urls[i])

    @staticmethod
    def _log(i: int | str) -> Any:
        """Where web process ``i`` writes its log: ``$ROBOTABLE_LOAD_LOGS/web<i>.log``, or nowhere."""
        folder = os.environ.get("ROBOTABLE_LOAD_LOGS")
        if not folder:
            return subprocess.DEVNULL
        return open(Path(folder) / (i if isinstance(i, str) else f"web{i}.log"), "ab")

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

    def cpu(self) -> float:
        """CPU seconds the web processes have used so far."""
        return sum(cpu_seconds(p.pid) for p in self.procs if p.poll() is None)

    def timings(self) -> str:
        """Each web process's own timings (``GET /api/server``: its last moves), or "" from older code."""
        parts = []
        for i, url in enumerate(self.urls):
            try:
                info = httpx.get(f"{url}/api/server", timeout=5).json()
                t = info.get("timings") or {}
            except (httpx.HTTPError, ValueError):
                continue
            if not t:
                continue
            shown = [
                f"{name} p50 {t[name]['p50_ms']:.1f} p99 {t[name]['p99_ms']:.1f} ms"
                for name in (
                    "move",
                    "move_lock",
                    "move_write",
                    "move_connection",
                    "race_catch_up",
                    "raced_move",
                    "news_publish",
                    "news_delay",
                    "loop_lag",
                )
                if name in t
            ]
            if "race_catch_up" in t:
                shown.append(f"races lost {t['race_catch_up']['n']}")
            pauses = (info.get("gc") or {}).get("pauses") or {}
            for gen, p in sorted(pauses.items()):  # the garbage collector's pauses (collector.py)
                shown.append(f"gc {gen} n {p['n']} p50 {p['p50_ms']:.1f} max {p['max_ms']:.1f} ms")
            pool = info.get("move_connections") or {}
            if pool:
                shown.append(f"pool opened {pool.get('connections_num')} lost {pool.get('connections_lost')}")
                if pool.get("batches_num"):  # writes of moves sent in batches (batched_writes.py)
                    shown.append(f"{pool['requests_num'] / pool['batches_num']:.2f} writes a batch")
            parts.append(f"web{i}: " + ", ".join(shown))
        return "; ".join(parts)

    def db_counts(self) -> tuple[int, int]:
        """Table scans (index and sequential: each a statement reading a table) and rows written so far in
        this cluster's schema, from PostgreSQL's statistics (flushed about once a second)."""
        import sqlalchemy

        engine = sqlalchemy.create_engine(PG)
        query = (
            "SELECT coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0), "
            "coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables WHERE schemaname = :s"
        )
        try:
            with engine.connect() as conn:
                scans, rows = conn.execute(sqlalchemy.text(query), {"s": self.schema}).one()
        finally:
            engine.dispose()
        return int(scans), int(rows)

    def stop(self) -> None:
        for p in self.workers + self.procs:
            p.terminate()
        for p in self.workers + self.procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
        import sqlalchemy

        engine = sqlalchemy.create_engine(PG)
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE'))
        engine.dispose()


def bearer(token: str) -> dict[str, str]:
    """The header that says which account a script's request (or websocket) is for."""
    return {"Authorization": f"Bearer {token}"}


async def guest(http: httpx.AsyncClient, base: str, name: str) -> str:
    """A new guest account's API token (a guest session, then a token, as a script would)."""
    res = await http.post(f"{base}/api/account/guest", json={"display_name": name})
    res.raise_for_status()
    csrf = res.json()["csrf"]
    res = await http.post(f"{base}/api/account/token", headers={"X-CSRF-Token": csrf})
    res.raise_for_status()
    http.cookies.clear()  # later requests say who they are with a token
    return res.json()["token"]


async def people_table(http: httpx.AsyncClient, base: str, tokens: dict[int, str]) -> str:
    """A TF22 table of two people: made by the account of ``tokens[0]``, its invite taken by ``tokens[1]``."""
    body = {"game": "tf22-reload", "num_players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    res = await http.post(f"{base}/api/tables", json=body, headers=bearer(tokens[0]))
    res.raise_for_status()
    made = res.json()
    code = made["invites"]["1"].rsplit("/", 1)[1]
    res = await http.post(f"{base}/api/invites/accept", json={"code": code}, headers=bearer(tokens[1]))
    res.raise_for_status()
    return made["table"]["id"]


@dataclass
class Game:
    """One game at a table: when each move was sent and when each seat saw it."""

    sent_at: dict[int, tuple[int, float]] = field(default_factory=dict)  # move number -> (its seat, sent)
    seen_at: dict[tuple[int, int], float] = field(default_factory=dict)  # (seat, move number) -> seen
    done: asyncio.Event = field(default_factory=asyncio.Event)


async def play_seat(
    url: str, seat: int, token: str, deadline: float, figures: Figures, rng: random.Random, game: Game
) -> None:
    """One seat over a websocket: a random legal move whenever it may move, until the game ends."""
    async with websockets.connect(url, max_size=2**22, open_timeout=30, additional_headers=bearer(token)) as ws:
        me: dict[str, Any] = {"sent": None, "thinking": None}  # when the pending move was sent; the pause

        async def move(action: Any, after: int, pause: float) -> None:
            await asyncio.sleep(pause)  # a person's pause (the socket is read meanwhile)
            me["sent"], me["thinking"] = time.monotonic(), None
            await ws.send(json.dumps({"type": "move", "action": action, "after": after}))

        last: dict | None = None  # the latest snapshot or update
        while time.monotonic() < deadline and not game.done.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                break
            msg = orjson.loads(raw)  # (the clients share the machine: parse cheaply)
            kind = msg["type"]
            mine = me["sent"]
            if kind == "error":
                figures.errors.append(f"{msg.get('status')}: {msg.get('message')}")
                me["sent"] = None
            elif kind == "ack" and mine is not None:
                figures.ack_at.append(time.monotonic())
                figures.ack_ms.append((figures.ack_at[-1] - mine) * 1000)
                game.sent_at[msg["moves"]] = (seat, mine)
                figures.moves += 1
                me["sent"] = None
            elif kind in ("snapshot", "update"):
                game.seen_at[(seat, msg["moves"])] = time.monotonic()
                last = msg
                if msg["result"] is not None:
                    figures.games += seat == 0
                    game.done.set()
                    break
            idle = me["sent"] is None and me["thinking"] is None
            if last is not None and last["legal"] and idle and kind != "table":
                action, pause = rng.choice(last["legal"]), rng.uniform(0, 2 * THINK[0]) if THINK[0] else 0.0
                if pause:
                    me["thinking"] = asyncio.create_task(move(action, last["moves"], pause))
                else:
                    await move(action, last["moves"], 0.0)
                last = dict(last, legal=[])  # one move per position
        if me["thinking"] is not None:  # the game ended (or the time is up) during a pause
            me["thinking"].cancel()


async def bot_tables(url: str, count: int) -> None:
    """``count`` all-bot TF22 tables of four ``ismcts:hard`` bots, thinking in the worker meanwhile (made by
    as few guest accounts as the per-account quota allows)."""
    hard = {"kind": "bot", "difficulty": "ismcts:hard"}
    body = {"game": "tf22-reload", "num_players": 4, "seats": [hard] * 4}
    async with httpx.AsyncClient(timeout=60) as http:
        token = ""
        for i in range(count):
            if i % BOT_TABLES_PER_ACCOUNT == 0:
                token = await guest(http, url, f"Bot owner {i // BOT_TABLES_PER_ACCOUNT}")
            res = await http.post(f"{url}/api/tables", json=body, headers=bearer(token))
            res.raise_for_status()


async def accounts(urls: list[str], tables: int) -> list[dict[int, str]]:
    """Two guest accounts for each table, made before the clock starts (20 sign-ups at a time)."""
    gate = asyncio.Semaphore(20)

    async def pair(index: int) -> dict[int, str]:
        base, made = urls[index % len(urls)], {}
        async with gate:
            for attempt in range(5):
                try:
                    async with httpx.AsyncClient(timeout=60) as http:
                        for s in (0, 1):
                            if s not in made:
                                made[s] = await guest(http, base, f"Load {index}.{s}")
                    return made
                except httpx.HTTPError:  # a kept-alive connection closed under us: once more
                    if attempt == 4:
                        raise
                    await asyncio.sleep(1)
        return made

    return list(await asyncio.gather(*(pair(i) for i in range(tables))))


async def play_tables(
    urls: list[str], index: int, deadline: float, figures: Figures, rng: random.Random, tokens: dict[int, str]
) -> None:
    """One table's two seats (two guest accounts), game after game, until the deadline."""
    a, b = urls[index % len(urls)], urls[(index + 1) % len(urls)]
    async with httpx.AsyncClient(timeout=30) as http:
        while time.monotonic() < deadline:
            try:
                for s in (0, 1):
                    if s not in tokens:
                        tokens[s] = await guest(http, a, f"Load {index}.{s}")
                table = await people_table(http, a, tokens)
            except httpx.HTTPError as exc:
                figures.errors.append(f"create: {exc!r}")
                await asyncio.sleep(1)
                continue
            figures.tables += 1
            game = Game()
            seats = [(f"{base.replace('http', 'ws')}/ws/tables/{table}?seat={s}", s) for s, base in ((0, a), (1, b))]
            try:
                await asyncio.gather(*(play_seat(u, s, tokens[s], deadline, figures, rng, game) for u, s in seats))
            except Exception as exc:
                figures.errors.append(f"socket: {exc!r}")
                await asyncio.sleep(0.5)
            for move, (mover, t) in game.sent_at.items():
                seen = game.seen_at.get((1 - mover, move))
                if seen is not None:
                    figures.broadcast_ms.append((seen - t) * 1000)


async def client_lag(figures: Figures) -> None:
    """How late the clients' own event loop wakes from a nap of 0.1 s, until cancelled: the clients share
    the machine with the servers, and their own delays are part of every ack they time."""
    while True:
        asked = time.monotonic() + 0.1
        await asyncio.sleep(0.1)
        figures.lag_ms.append(max(0.0, time.monotonic() - asked) * 1000)


async def sample_rss(figures: Figures, rss: Callable[[], list[float]]) -> None:
    """The web processes' RSS now and every :data:`SPAN` seconds, until cancelled."""
    while True:
        figures.rss_mb.append(rss())
        await asyncio.sleep(SPAN)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def run_load(
    urls: list[str],
    tables: int,
    seconds: float,
    warmup: float,
    seed: int,
    at_warm: Callable[[], Any] = lambda: None,
    ramp: float | None = None,
    rss: Callable[[], list[float]] = list,
) -> tuple[Figures, float, Any]:
    """Play until the deadline; the figures after the warm-up, their seconds, and ``at_warm()`` as it was then.

    The tables start one after another, evenly over ``ramp`` seconds (by default the warm-up; 0: all at
    once), as people come to a server: tables that all start in the same second also end their games in
    the same seconds, and every game's end (a new table, its invite, two new sockets: about 35 ms of the
    web processes' CPU) then comes at once, 200 of them."""
    figures = Figures()
    people = await accounts(urls, tables)
    probe = asyncio.create_task(client_lag(figures))
    start = time.monotonic()
    deadline = start + warmup + seconds
    tasks = []
    for i in range(tables):
        rng = random.Random(seed + i)
        tasks.append(asyncio.create_task(play_tables(urls, i, deadline, figures, rng, people[i])))
        await asyncio.sleep((warmup if ramp is None else ramp) / max(1, tables))
    await asyncio.sleep(max(0.0, start + warmup - time.monotonic()))
    marks = (figures.moves, len(figures.ack_ms), len(figures.broadcast_ms), len(figures.errors), len(figures.lag_ms))
    warm = at_warm()
    t0 = time.monotonic()
    memory = asyncio.create_task(sample_rss(figures, rss))
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - t0
    probe.cancel()
    memory.cancel()
    steady = Figures(
        moves=figures.moves - marks[0],
        games=figures.games,
        tables=figures.tables,
        errors=figures.errors[marks[3] :],
        ack_ms=figures.ack_ms[marks[1] :],
        ack_at=[at - t0 for at in figures.ack_at[marks[1] :]],
        broadcast_ms=figures.broadcast_ms[marks[2] :],
        lag_ms=figures.lag_ms[marks[4] :],
        rss_mb=figures.rss_mb,
    )
    return steady, elapsed, warm


#: Seconds of each part of the run whose ack p99 ``report`` prints on its own (quiet seconds and busy ones).
SPAN = 10


def spans(figures: Figures) -> list[float]:
    """The ack p99 of each :data:`SPAN` seconds of the measured time (``ack_at`` counted from its start)."""
    parts: dict[int, list[float]] = {}
    for at, ms in zip(figures.ack_at, figures.ack_ms, strict=True):
        parts.setdefault(int(at // SPAN), []).append(ms)
    return [pct(parts[k], 0.99) for k in sorted(parts)]


def report(
    label: str,
    figures: Figures,
    elapsed: float,
    rss: tuple[list[float], list[float]],
    cpu: float,
    load: str,
    db: tuple[int, int],
    machine: tuple[float, float] = (0.0, 0.0),
    clients_cpu: float = 0.0,
) -> None:
    cpu_ms = f"{1000 * cpu / figures.moves:.1f}" if figures.moves else "-"
    per_move = f"{db[0] / figures.moves:.1f} scans {db[1] / figures.moves:.1f} rows" if figures.moves else "-"
    print(
        f"{label:<28} {figures.moves / elapsed:8.1f} moves/s  ack p50 {pct(figures.ack_ms, 0.5):6.1f} ms "
        f"p99 {pct(figures.ack_ms, 0.99):7.1f} ms  broadcast p50 {pct(figures.broadcast_ms, 0.5):6.1f} ms "
        f"p99 {pct(figures.broadcast_ms, 0.99):7.1f} ms  clients' loop lag p99 {pct(figures.lag_ms, 0.99):.1f} ms  "
        f"errors {len(figures.errors)}  "
        f"tables {figures.tables} games {figures.games}  RSS MB after warm-up {rss[0]} end {rss[1]}  "
        f"web CPU {cpu_ms} ms/move  database per move: {per_move}  load average {load}  "
        f"machine busy {machine[0] / elapsed:.2f} of {os.cpu_count()} cores (the clients {clients_cpu / elapsed:.2f}), "
        f"stolen by the host {machine[1] / elapsed:.2f}",
        flush=True,
    )
    print(f"    ack p99 in each {SPAN} s of the measured time, ms: {' '.join(f'{p:.0f}' for p in spans(figures))}")
    if figures.rss_mb:
        every = " ".join("/".join(f"{mb:.0f}" for mb in sample) for sample in figures.rss_mb)
        print(f"    the web processes' RSS at the start of each {SPAN} s, MB: {every}")
    for err in sorted(set(figures.errors))[:5]:
        print(f"    error: {err}")


def run(main: Any) -> Any:
    """``asyncio.run(main)``, on uvloop when it is installed (the server's extra brings it): the clients
    share the machine's cores with the servers, so they should cost as little as they can."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def one_run(label: str, web: int, redis: bool, args: argparse.Namespace) -> None:
    cluster = Cluster(web, redis, code=Path(args.code).resolve(), workers=args.workers)
    try:

        async def main() -> tuple[
            Figures, float, tuple[list[float], float, tuple[int, int], tuple[float, float], float]
        ]:
            await bot_tables(cluster.urls[0], args.bot_tables)
            return await run_load(
                cluster.urls,
                args.clients // 2,
                args.seconds,
                args.warmup,
                args.seed,
                lambda: (cluster.rss(), cluster.cpu(), cluster.db_counts(), machine_cpu(), cpu_seconds(os.getpid())),
                args.ramp,
                cluster.rss,
            )

        load_before = os.getloadavg()[0]
        figures, elapsed, (warm, cpu, db, machine, own) = run(main())
        busy, stolen = (end - start for end, start in zip(machine_cpu(), machine, strict=True))
        clients_cpu = cpu_seconds(os.getpid()) - own  # this process: the clients (and their HTTP calls)
        time.sleep(1.5)  # PostgreSQL flushes its table statistics about once a second
        db_end = cluster.db_counts()
        load = f"{load_before:.1f} -> {os.getloadavg()[0]:.1f}"
        db_used = (db_end[0] - db[0], db_end[1] - db[1])
        machine = (busy, stolen)
        report(label, figures, elapsed, (warm, cluster.rss()), cluster.cpu() - cpu, load, db_used, machine, clients_cpu)
        if own := cluster.timings():
            print(f"    as the servers timed their last moves: {own}", flush=True)
    finally:
        cluster.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=100, help="websocket clients (two per table)")
    parser.add_argument("--seconds", type=float, default=30, help="measured seconds after the warm-up")
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument(
        "--ramp", type=float, default=None, help="seconds over which the tables start (default: the warm-up)"
    )
    parser.add_argument("--web", type=int, default=2, help="web processes (several: fanned out by Redis)")
    parser.add_argument("--workers", type=int, default=1, help="bot worker processes")
    parser.add_argument("--bot-tables", type=int, default=0, help="all-bot tables (4 ismcts:hard) thinking meanwhile")
    parser.add_argument("--reference", action="store_true", help="first the same load on one process, no Redis")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a client pauses before each move (uniform 0..2x)"
    )
    parser.add_argument(
        "--code", default=str(ROOT), help="the checkout whose server runs (e.g. a git worktree of an older commit)"
    )
    args = parser.parse_args()
    THINK[0] = args.think
    print(
        f"load: {args.clients} clients on {args.clients // 2} tables (tf22-reload, 2 people"
        f"{f', thinking {args.think:g} s a move on average' if args.think else ', moving at once'}), "
        f"{args.seconds:.0f} s after {args.warmup:.0f} s warm-up, the tables starting over "
        f"{args.warmup if args.ramp is None else args.ramp:.0f} s; {args.bot_tables} all-bot ismcts:hard tables; "
        f"{args.workers} bot worker(s); PostgreSQL; {os.cpu_count()} CPUs; "
        f"Python {sys.version.split()[0]}",
        flush=True,
    )
    if args.reference:
        one_run("1 web process, no Redis", 1, False, args)
    code = "" if Path(args.code).resolve() == ROOT else f" ({Path(args.code).name})"
    one_run(f"{args.web} web processes + Redis{code}", args.web, args.web > 1, args)


if __name__ == "__main__":
    main()
