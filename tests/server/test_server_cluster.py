"""Two real server processes on one PostgreSQL, fanned out through Redis (a schema and a key prefix each).

A move through A reaches a websocket on B in order and B's REST answers see it; B's next move is not
refused as stale; a seat claim through A and a hand-over through B never overwrite each other; after a
Redis outage B's sockets catch up from the database without a skipped move.
"""

from __future__ import annotations

import json
import random
import secrets
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from conftest import PG_URL, ServerProcess, free_port, new_table
from people import bearer, guest_token, wait_for
from redis import Redis
from websockets.sync.client import connect

from robotable.server.collector import GC_THRESHOLDS
from robotable.server.storage import MOVE_CONNECTIONS

HUMAN = {"kind": "human"}
OPEN = {"kind": "open"}
REDIS = "redis://127.0.0.1:6379/0"


@pytest.fixture
def cluster(pg_schema: str) -> Iterator[Callable[..., list[ServerProcess]]]:
    """``cluster(n, redis=URL)``: n server processes on one PostgreSQL schema and one Redis key prefix."""
    started: list[ServerProcess] = []
    prefix = f"rt-test-{secrets.token_hex(4)}:"

    def start(n: int = 2, redis: str = REDIS) -> list[ServerProcess]:
        out = []
        for _ in range(n):
            server = ServerProcess(
                PG_URL,
                0.0,
                schema=pg_schema,
                extra=("--redis", redis, "--redis-prefix", prefix),
                env={"ROBOTABLE_SWEEP_SECONDS": "1"},
            )
            started.append(server)
            out.append(server.start())
        return out

    start.news = f"{prefix}news"  # type: ignore[attr-defined]  (the processes' Redis channel)
    yield start
    for server in started:
        server.stop()


class Socket:
    """A websocket client keeping every message."""

    def __init__(self, url: str, token: str | None = None) -> None:
        self._stack = ExitStack()
        headers = bearer(token) if token else None
        self.ws = self._stack.enter_context(connect(url, open_timeout=10, additional_headers=headers))
        self.received: list[dict[str, Any]] = []

    def until(self, check: Callable[[dict[str, Any]], bool], timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            self.received.append(msg)
            if check(msg):
                return msg

    def close(self) -> None:
        self._stack.close()


def play_random_moves(server: ServerProcess, table: str, tokens: dict[int, str], count: int, seed: int) -> int:
    """Make ``count`` random legal moves through ``server``'s REST API; the move count at the end."""
    rng = random.Random(seed)
    moves = 0
    for _ in range(count):
        for seat in rng.sample(sorted(tokens), len(tokens)):
            state = server.api("GET", f"/api/tables/{table}/state", params={"seat": seat}, headers=bearer(tokens[seat]))
            assert state.status_code == 200, state.text
            body = state.json()
            if body["legal"]:
                choice = rng.choice(body["legal"])
                move = {"seat": seat, "action": choice, "after": body["moves"]}
                res = server.api("POST", f"/api/tables/{table}/moves", json=move, headers=bearer(tokens[seat]))
                assert res.status_code == 200, res.text
                moves = res.json()["moves"]
                break
        else:
            break  # the game is over
    return moves


def updates_in_order(socket: Socket, upto: int, start: int = 0) -> list[int]:
    """The move counts of the updates a socket received until it reached ``upto``."""
    socket.until(lambda m: m["type"] in ("update", "snapshot") and m["moves"] >= upto)
    return [m["moves"] for m in socket.received if m["type"] == "update" and m["moves"] > start]


def test_a_move_through_a_reaches_b_in_order_and_b_plays_on(cluster) -> None:
    a, b = cluster(2)
    made = new_table(a, [HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    assert b.api("GET", f"/api/tables/{table}").json()["moves"] == 0  # B has it in memory at move 0
    watcher = Socket(f"{b.ws_url}/ws/tables/{table}")
    player = Socket(f"{b.ws_url}/ws/tables/{table}?seat=1", tokens[1])
    try:
        assert watcher.until(lambda m: m["type"] == "snapshot")["moves"] == 0
        done = play_random_moves(a, table, tokens, 10, seed=3)
        assert done == 10
        assert updates_in_order(watcher, done) == list(range(1, done + 1))  # every move, in order
        log_moves = [e["move"] for m in watcher.received if m["type"] == "update" for e in m["events"]]
        assert log_moves == sorted(log_moves) and set(log_moves) == set(range(1, done + 1))
        assert updates_in_order(player, done) == list(range(1, done + 1))
        assert b.api("GET", f"/api/tables/{table}").json()["moves"] == done  # REST on B sees it
        # B's next move is accepted (no spurious 409), and A's sockets would see it: A's REST does
        more = play_random_moves(b, table, tokens, 3, seed=4)
        assert more == done + 3
        assert a.api("GET", f"/api/tables/{table}").json()["moves"] == more
        assert updates_in_order(watcher, more, start=done) == list(range(done + 1, more + 1))
    finally:
        watcher.close()
        player.close()


def test_simultaneous_moves_through_both_processes_are_serialized(cluster) -> None:
    a, b = cluster(2)
    made = new_table(a, [HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    state = a.api("GET", f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(tokens[0])).json()
    action = state["legal"][0]

    def move(server: ServerProcess) -> int:
        body = {"seat": 0, "action": action, "after": 0}
        return server.api("POST", f"/api/tables/{table}/moves", json=body, headers=bearer(tokens[0])).status_code

    with ThreadPoolExecutor(2) as pool:
        codes = sorted(pool.map(move, [a, b]))
    assert codes == [200, 409]  # the same decision twice: exactly one lands
    assert a.api("GET", f"/api/tables/{table}").json()["moves"] == 1
    assert b.api("GET", f"/api/tables/{table}").json()["moves"] == 1


def test_a_claim_through_a_and_a_hand_over_through_b_never_overwrite(cluster) -> None:
    a, b = cluster(2)
    for attempt in range(6):
        made = new_table(a, [HUMAN, OPEN])
        table, tokens = made["table"]["id"], made["tokens"]
        assert b.api("GET", f"/api/tables/{table}").json()["seats"][1]["kind"] == "open"  # B caches it open

        zoe = guest_token(a, "Zoe")

        def claim(table: str = table, zoe: str = zoe) -> Any:
            return a.api("POST", f"/api/tables/{table}/seats/1/claim", headers=bearer(zoe))

        def hand_over(table: str = table, tokens: dict[int, str] = tokens) -> Any:
            return b.api(
                "POST", f"/api/tables/{table}/seats/1/bot", json={"difficulty": "random"}, headers=bearer(tokens[0])
            )

        if attempt % 2 == 0:  # one after the other, then at the same time
            claimed, handed = claim(), hand_over()
        else:
            with ThreadPoolExecutor(2) as pool:
                first, second = pool.submit(claim), pool.submit(hand_over)
                claimed, handed = first.result(), second.result()
        assert handed.status_code in (200, 409), handed.text
        seat = a.api("GET", f"/api/tables/{table}").json()["seats"][1]
        assert b.api("GET", f"/api/tables/{table}").json()["seats"][1] == seat
        if claimed.status_code == 200:
            token = zoe
            assert seat["kind"] == "human" and seat["name"] == "Zoe"  # the claim stands
            if handed.status_code == 200:  # handed over after the claim: the claimer takes it back
                assert seat["handed_to_bot"]
                back = b.api("POST", f"/api/tables/{table}/seats/1/reclaim", json={"seat": 1}, headers=bearer(token))
                assert back.status_code == 200, back.text
            else:
                assert not seat["handed_to_bot"]
            state = a.api("GET", f"/api/tables/{table}/state", params={"seat": 1}, headers=bearer(token))
            assert state.status_code == 200  # the claimer's token still opens the seat
        else:  # the hand-over came first and made it a bot seat: the claim was refused
            assert claimed.status_code == 409 and handed.status_code == 200
            assert seat["kind"] == "bot"


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[Callable[[], subprocess.Popen[bytes]]]:
    """A private redis-server on a free port that the test can stop and start again."""
    port = free_port()
    procs: list[subprocess.Popen[bytes]] = []

    def start() -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no", "--dir", str(tmp_path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        procs.append(proc)
        deadline = time.monotonic() + 60
        while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).stdout.strip() != b"PONG":
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        return proc

    start.url = f"redis://127.0.0.1:{port}/0"  # type: ignore[attr-defined]
    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_after_a_redis_outage_b_catches_up_without_skipping_a_move(cluster, own_redis) -> None:
    redis = own_redis()
    a, b = cluster(2, redis=own_redis.url)
    made = new_table(a, [HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    watcher = Socket(f"{b.ws_url}/ws/tables/{table}")
    try:
        watcher.until(lambda m: m["type"] == "snapshot")
        first = play_random_moves(a, table, tokens, 3, seed=5)
        assert updates_in_order(watcher, first) == list(range(1, first + 1))
        redis.kill()  # Redis goes away: A's news is lost, B must read the moves from the database
        redis.wait()
        during = play_random_moves(a, table, tokens, 4, seed=6)
        assert updates_in_order(watcher, during) == list(range(1, during + 1))
        own_redis()  # back again: news flows once more, once both processes have subscribed again
        with Redis.from_url(own_redis.url) as back:
            wait_for(lambda: back.pubsub_numsub(cluster.news)[0][1] == 2, "both processes to subscribe again")
        after = play_random_moves(a, table, tokens, 3, seed=7)
        assert updates_in_order(watcher, after) == list(range(1, after + 1))
        assert b.api("GET", f"/api/tables/{table}").json()["moves"] == after
    finally:
        watcher.close()


def test_simultaneous_choices_through_both_processes_catch_up_at_once(cluster) -> None:
    """TF22's players choose at once: seat 0 plays through A and seat 1 through B, as browsers do (a
    websocket each, moves sent when their update came), at the same time, round after round. Both choices
    land every time; the process whose write lost the compare-and-set takes the winner's move from news
    that came meanwhile or reads it at once, in one statement on its event loop's own connections (no
    worker thread, no waiting for news)."""
    a, b = cluster(2)
    made = new_table(a, [HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    servers = {0: a, 1: b}
    sockets = {seat: Socket(f"{s.ws_url}/ws/tables/{table}?seat={seat}", tokens[seat]) for seat, s in servers.items()}
    rng = random.Random(11)
    moves = 0
    try:
        for _ in range(12):
            seen = {
                seat: ws.until(lambda m, at=moves: m["type"] in ("snapshot", "update") and m["moves"] >= at)
                for seat, ws in sockets.items()
            }
            bodies = {
                seat: {"seat": seat, "action": rng.choice(m["legal"]), "after": m["moves"]}
                for seat, m in seen.items()
                if m["legal"] and m["moves"] == moves
            }
            if not bodies:
                break

            def move(seat: int, bodies: dict[int, Any] = bodies) -> Any:
                url = f"/api/tables/{table}/moves"
                return servers[seat].api("POST", url, json=bodies[seat], headers=bearer(tokens[seat]))

            with ThreadPoolExecutor(2) as pool:
                answers = list(pool.map(move, sorted(bodies)))
            assert [r.status_code for r in answers] == [200] * len(bodies), [r.text for r in answers]
            moves = max(r.json()["moves"] for r in answers)
        assert moves >= 12
        figures = [s.api("GET", "/api/server").json() for s in (a, b)]
        assert all(f["fanout_connected"] for f in figures)
        assert sum(f["races_lost"] for f in figures) >= 1  # the choices really raced
        assert sum(f["catch_up_moves"] for f in figures) >= moves  # each move reached the other process
        # each write (won or lost) is timed, on the pool of the moves' own connections
        assert sum(f["timings"]["move_write"]["n"] for f in figures) >= moves + 1
        # the pool is opened in full (not a connection at a time in a burst); each write waits for one
        assert all(f["move_connections"]["size"] == MOVE_CONNECTIONS for f in figures), figures
        # every write went in a batch, alone or with others
        assert all(0 < f["move_connections"]["batches_num"] <= f["move_connections"]["requests_num"] for f in figures)
        for f in figures:
            timed = f["timings"]
            assert timed["move_connection"]["n"] == timed["move_write"]["n"], timed
            # every lost compare-and-set is timed with its catch-up
            assert timed.get("race_catch_up", {"n": 0})["n"] == f["races_lost"], (timed, f["races_lost"])
            # and each move that lost one or more is timed whole (all of them were written in the end)
            raced = timed.get("raced_move", {"n": 0})["n"]
            assert (0 < raced <= f["races_lost"]) if f["races_lost"] else raced == 0, (timed, f["races_lost"])
            # every catch-up read (a lost race's among them) went on the moves' connections, beside the
            # writes (each move written once here: no connection was lost), none in a worker thread
            pool = f["move_connections"]
            assert pool["requests_num"] == timed["move_write"]["n"] + f["catch_up_reads"], (pool, f, timed)
            # news from the other process is timed from its publishing
            assert timed["news_delay"]["n"] >= 1 and 0 <= timed["news_delay"]["p50_ms"] < 10_000, timed
            # and its own news from publishing to Redis's answer
            assert timed["news_publish"]["n"] >= 1 and 0 <= timed["news_publish"]["p50_ms"] < 10_000, timed
        # served processes collect garbage at the server's thresholds (collector.tune_garbage_collection)
        assert all(f["gc"]["thresholds"] == list(GC_THRESHOLDS) for f in figures), figures
        assert a.api("GET", f"/api/tables/{table}").json()["moves"] == moves
        assert b.api("GET", f"/api/tables/{table}").json()["moves"] == moves
    finally:
        for ws in sockets.values():
            ws.close()
