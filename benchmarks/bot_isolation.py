"""A person's move round trip while all-bot tables think: bots in the web process vs in a worker process.

    python benchmarks/bot_isolation.py                      # 12 all-bot tables of 4 ismcts:hard bots
    python benchmarks/bot_isolation.py --bot-tables 6 --moves 60 --seconds 20

For each mode (``inline``: bots think in a thread of the web process, the old way; ``spawn``: in a
worker process of its own) a real server on a fresh SQLite file is started, the all-bot tables are
created, and a person plays TF22 against a random bot over HTTP, timing each move's round trip. The
same run also times the person alone (no bot tables) as the reference. Nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from engine import machine

PORT = 18480
#: Seconds before a request is given up (and counted as this long).
TIMEOUT = 20.0


def start(mode: str, database: Path, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "ROBOTABLE_BOT_TABLES": "100",
        "ROBOTABLE_CREATE_RATE": "1000/minute",
        "ROBOTABLE_BOT_THINK": "30",
        "ROBOTABLE_ACCOUNTS_RATE": "1000/hour",
    }
    cmd = [sys.executable, "-m", "robotable.server", "--port", str(port), "--database", f"sqlite:///{database}"]
    proc = subprocess.Popen([*cmd, "--bots", mode, "--bot-delay", "0"], env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start")


def guest_token(url: str, name: str) -> str:
    """A new guest account's API token (tables are made, and seats played, by accounts)."""
    with httpx.Client(base_url=url, timeout=TIMEOUT) as http:
        res = http.post("/api/account/guest", json={"display_name": name})
        res.raise_for_status()
        res = http.post("/api/account/token", headers={"X-CSRF-Token": res.json()["csrf"]})
        res.raise_for_status()
        return res.json()["token"]


def person_round_trips(url: str, moves: int, seconds: float) -> list[float]:
    """Seconds per accepted move of a person playing TF22 against a random bot (first legal action)."""
    auth = {"Authorization": f"Bearer {guest_token(url, 'Person')}"}
    with httpx.Client(base_url=url, timeout=TIMEOUT, headers=auth) as http:
        seats = [{"kind": "human"}, {"kind": "bot", "difficulty": "random"}]
        made = http.post("/api/tables", json={"game": "tf22-reload", "num_players": 2, "seats": seats}).json()
        table = made["table"]["id"]
        times: list[float] = []
        deadline = time.monotonic() + seconds
        while len(times) < moves and time.monotonic() < deadline:
            try:
                state = http.get(f"/api/tables/{table}/state", params={"seat": 0}).json()
            except httpx.TimeoutException:
                continue
            if state["result"]:
                made = http.post("/api/tables", json={"game": "tf22-reload", "num_players": 2, "seats": seats})
                table = made.json()["table"]["id"]
                continue
            if not state["legal"]:
                time.sleep(0.01)
                continue
            body = {"seat": 0, "action": state["legal"][0], "after": state["moves"]}
            tick = time.perf_counter()
            try:
                res = http.post(f"/api/tables/{table}/moves", json=body)
            except httpx.TimeoutException:
                times.append(TIMEOUT)  # counted at the timeout: the real time is longer
                continue
            if res.status_code == 200:
                times.append(time.perf_counter() - tick)
        return times


def measure(mode: str, bot_tables: int, moves: int, seconds: float) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        proc = start(mode, Path(tmp) / "bench.db", PORT)
        try:
            url = f"http://127.0.0.1:{PORT}"
            hard = {"kind": "bot", "difficulty": "ismcts:hard"}
            owner = {"Authorization": f"Bearer {guest_token(url, 'Bot owner')}"} if bot_tables else {}
            for _ in range(bot_tables):
                body = {"game": "tf22-reload", "num_players": 4, "seats": [hard] * 4}
                made = httpx.post(f"{url}/api/tables", json=body, headers=owner, timeout=120)
                assert made.status_code == 201, made.text
            time.sleep(1.0)
            return person_round_trips(url, moves, seconds)
        finally:
            proc.terminate()
            proc.wait(timeout=20)


def row(label: str, times: list[float]) -> str:
    if not times:
        return f"{label:34} no move accepted"
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"{label:34} {len(ms):5d} {statistics.median(ms):9.1f} {p99:9.1f} {ms[-1]:9.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-tables", type=int, default=12)
    parser.add_argument("--moves", type=int, default=80)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    print(machine())
    print(f"{'person vs random bot, over HTTP':34} {'moves':>5} {'p50 ms':>9} {'p99 ms':>9} {'max ms':>9}")
    print(row("reference: no bot tables (spawn)", measure("spawn", 0, args.moves, args.seconds)))
    for mode in ("inline", "spawn"):
        label = f"{args.bot_tables} hard all-bot tables, {mode}"
        print(row(label, measure(mode, args.bot_tables, args.moves, args.seconds)), flush=True)


if __name__ == "__main__":
    main()
