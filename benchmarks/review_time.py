"""Issue 30's targets on a real server and bot worker (docs/review.md "How long a review takes").

- a 2-player TF22 game's review ready after its end (target: 60 s);
- a 4-player Twin Tin Bots game's review ready after its end, the worker also serving an all-bot table
  (target: 5 minutes);
- whether the worker's stored review is the review of the same record, budget and seed computed here
  (reproducible: same record, same budget, same seed, same review);
- a hint's answer time, at the server's hint budget and at the hard level's iterations (target: 3 s).

A web process (``--bots external``) and one ``robotable worker`` on a SQLite file in a temporary
directory; each game is played here between heuristic seats and sent move by move to a hotseat table
of that seed, so the table ends as a person's game would; the clock runs from its last move to the
review's ``200``. The default review budget (the hard level's iterations) unless ``--budget``.

    nice -n 5 .venv/bin/python benchmarks/review_time.py
"""

from __future__ import annotations

import argparse
import os
import platform
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from robotable.ai.review import Budget, positions, review_record
from robotable.ai.review.hints import HINT_WALL, hint
from robotable.core import Record
from robotable.server.review_jobs import server_budget

sys.path.insert(0, str(Path(__file__).parent))
from review import play  # benchmarks/review.py: a seeded game between heuristic seats


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """A web process and a bot worker on one SQLite file."""

    def __init__(self, folder: Path, budget: int | None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        database = f"sqlite:///{folder / 'bench.db'}"
        env = {
            **os.environ,
            "ROBOTABLE_WORKER_SECRET": secrets.token_urlsafe(16),
            "ROBOTABLE_ALLOW_POSITIONS": "1",  # a chosen seed at a table of people: this game's
            "ROBOTABLE_DATABASE": database,
            "ROBOTABLE_BOT_TABLES": "20",
        }
        if budget is not None:
            env["ROBOTABLE_REVIEW_ITERATIONS"] = str(budget)
        self.logs = [(folder / "web.log").open("wb"), (folder / "worker.log").open("wb")]
        web = [sys.executable, "-m", "robotable.server", "--port", str(self.port), "--bots", "external"]
        web += ["--bot-delay", "0.2"]
        self.web = subprocess.Popen(web, env=env, stdout=self.logs[0], stderr=subprocess.STDOUT)
        self.wait_up()
        worker = [sys.executable, "-m", "robotable.server.worker", "--server", self.url]
        self.worker = subprocess.Popen(worker, env=env, stdout=self.logs[1], stderr=subprocess.STDOUT)
        self.http = httpx.Client(base_url=self.url, timeout=30)
        guest = self.http.post("/api/account/guest", json={"display_name": "Bench"})
        token = self.http.post("/api/account/token", headers={"X-CSRF-Token": guest.json()["csrf"]}).json()["token"]
        self.http.cookies.clear()
        self.headers = {"Authorization": f"Bearer {token}"}

    def wait_up(self) -> None:
        for _ in range(300):
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("the web process did not start")

    def call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        return self.http.request(method, path, headers=self.headers, **kwargs)

    def table(self, game: str, seats: list[dict[str, Any]], **extra: Any) -> str:
        body = {"game": game, "num_players": len(seats), "seats": seats, **extra}
        res = self.call("POST", "/api/tables", json=body)
        if res.status_code != 201:
            raise RuntimeError(f"table refused: {res.text}")
        return str(res.json()["table"]["id"])

    def replay_to_end(self, record: Record) -> str:
        """A hotseat table of the record's seed, sent the record's moves; its id, once it is over."""
        table = self.table(record.game, [{"kind": "human"}] * record.num_players, hotseat=True, seed=record.seed)
        for seat, action in record.moves:
            res = self.call("POST", f"/api/tables/{table}/moves", json={"seat": seat, "action": action})
            if res.status_code != 200:
                raise RuntimeError(f"move refused: {res.text}")
        return table

    def wait_review(self, table: str) -> tuple[dict[str, Any], list[tuple[float, int, int]]]:
        """The review once ready, and the progress seen on the way (seconds, done, total)."""
        start, seen = time.perf_counter(), []
        while True:
            res = self.call("GET", f"/api/tables/{table}/review")
            if res.status_code == 200:
                return res.json(), seen
            if res.status_code != 202 or res.json()["status"] == "failed":
                raise RuntimeError(f"review: {res.status_code} {res.text[:300]}")
            seen.append((time.perf_counter() - start, res.json()["done"], res.json()["total"]))
            time.sleep(0.5)

    def moves(self, table: str) -> int:
        return int(self.call("GET", f"/api/tables/{table}").json()["moves"])

    def stop(self) -> None:
        self.http.close()
        for proc in (self.worker, self.web):
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        for log in self.logs:
            log.close()


def review_after_end(cluster: Cluster, record: Record, beside: str | None = None) -> dict[str, Any]:
    """The record played at a table, its review waited for; with ``beside``, an all-bot table of that
    game started first, whose moves during the review are counted."""
    bots = None
    if beside is not None:
        bots = cluster.table(beside, [{"kind": "bot", "difficulty": "ismcts:medium"}] * record.num_players)
    table = cluster.replay_to_end(record)
    ended = time.perf_counter()
    bot_moves = cluster.moves(bots) if bots else 0
    body, seen = cluster.wait_review(table)
    ready = time.perf_counter() - ended
    return {
        "table": table,
        "ready": ready,
        "body": body,
        "progress_polls": len(seen),
        "bot_moves": (cluster.moves(bots) - bot_moves) if bots else None,
    }


def hint_times(
    record: Record, iterations: int, at: int = 6, max_wall: float | None = None
) -> list[tuple[float, float]]:
    """Wall and CPU seconds of hints at ``at`` positions spread over the record (``max_wall``: the cap)."""
    wanted = {round(i * (len(record.moves) - 1) / max(1, at - 1)) for i in range(at)}
    times = []
    for pos in positions(record):
        if pos.index in wanted and pos.seat in pos.state.to_act() and len(pos.state.legal_actions(pos.seat)) > 1:
            wall, cpu = time.perf_counter(), time.process_time()
            hint(pos.state, pos.seat, pos.index, Budget(iterations=iterations), max_wall=max_wall)
            times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2026, help="the games' seed")
    parser.add_argument("--budget", type=int, default=None, help="review iterations per decision (default: hard's)")
    parser.add_argument("--skip-ttb", action="store_true", help="only the TF22 review (quicker)")
    args = parser.parse_args(argv)
    print(f"machine: {platform.machine()} {os.cpu_count()} cpus, python {platform.python_version()}, load ", end="")
    print(" ".join(f"{x:.1f}" for x in os.getloadavg()))
    budget = Budget(iterations=args.budget) if args.budget else server_budget()  # (the worker's own)
    tf22 = play("tf22-reload", 2, args.seed, None)
    ttb = play("twin-tin-bots", 4, args.seed, None)
    with tempfile.TemporaryDirectory(prefix="robotable-review-time-") as folder:
        cluster = Cluster(Path(folder), args.budget)
        try:
            first = review_after_end(cluster, tf22)
            print(f"tf22-reload 2 players, {len(tf22.moves)} moves: review ready {first['ready']:.1f} s after the end")
            if not args.skip_ttb:
                second = review_after_end(cluster, ttb, beside="twin-tin-bots")
                print(
                    f"twin-tin-bots 4 players, {len(ttb.moves)} moves: review ready {second['ready']:.1f} s after the "
                    f"end; the all-bot table beside it played {second['bot_moves']} moves meanwhile"
                )
            start = time.process_time()
            here = review_record(tf22, budget=budget).to_json()
            cpu = time.process_time() - start
            stored = [{k: v for k, v in s.items() if k != "text"} for s in first["body"]["seats"]]
            same = stored == here["seats"]
            print(f"tf22-reload: the worker's review == this process's review of the record: {same} (cpu {cpu:.1f} s)")
        finally:
            cluster.stop()
    for record in (tf22, ttb):
        plan = budget.for_record(record)
        estimate = budget.estimate(record.game, len(record.moves))
        print(f"{record.game} {record.num_players}p, {len(record.moves)} moves: review iterations a decision ", end="")
        print(f"{plan.iterations} (the level's would cost {estimate:.0f} s on the reference machine)")
    print("hints (6 positions a game): iterations, wall cap s, wall mean/max s, cpu mean/max s")
    for record in (tf22, ttb, play("robots-on-the-line", 2, args.seed, None)):
        for wall in (None, HINT_WALL):
            iterations = Budget().iterations_for(record.game)  # the top level's
            times = hint_times(record, iterations, max_wall=wall)
            walls, cpus = [w for w, _ in times], [c for _, c in times]
            print(
                f"  {record.game:20} {record.num_players}p {iterations:4} {wall or '-':>4}  "
                f"{statistics.mean(walls):.2f}/{max(walls):.2f}  {statistics.mean(cpus):.2f}/{max(cpus):.2f}"
            )


if __name__ == "__main__":
    main()
