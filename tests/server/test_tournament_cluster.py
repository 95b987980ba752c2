"""A tournament on two real server processes sharing one PostgreSQL schema and a Redis key prefix: both
run the tournament runner, yet every round is paired once, every table made once and counted once, and
the tournament started through one process finishes with its standings read through the other."""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable, Iterator

import pytest
from conftest import PG_URL, ServerProcess
from people import bearer, guest_token, wait_for

REDIS = "redis://127.0.0.1:6379/0"


@pytest.fixture
def two_servers(pg_schema: str) -> Iterator[Callable[[], list[ServerProcess]]]:
    started: list[ServerProcess] = []
    prefix = f"rt-test-{secrets.token_hex(4)}:"

    def start() -> list[ServerProcess]:
        for _ in range(2):
            server = ServerProcess(
                PG_URL,
                0.0,
                schema=pg_schema,
                extra=("--redis", REDIS, "--redis-prefix", prefix),
                env={"ROBOTABLE_SWEEP_SECONDS": "1", "ROBOTABLE_CLOCK_TICK": "0.1"},
                bots="inline",
            )
            started.append(server)
            server.start()
        return started

    yield start
    for server in started:
        server.stop()


def test_two_processes_pair_make_and_count_each_table_once(two_servers) -> None:
    a, b = two_servers()
    rng = random.Random(5)
    org = guest_token(a, "Org")
    body = {"name": "Cluster cup", "game": "tf22-reload", "table_size": 2, "rounds": 3, "bots_allowed": True}
    made = a.api("POST", "/api/tournaments", json=body, headers=bearer(org))
    assert made.status_code == 201, made.text
    tid = made.json()["tournament"]["id"]
    assert b.api("POST", f"/api/tournaments/{tid}/entries", headers=bearer(org)).status_code == 200
    for _ in range(3):
        res = a.api("POST", f"/api/tournaments/{tid}/bots", json={"difficulty": "random"}, headers=bearer(org))
        assert res.status_code == 200, res.text
    assert b.api("POST", f"/api/tournaments/{tid}/start", headers=bearer(org)).status_code == 200
    me = a.api("GET", "/api/account", headers=bearer(org)).json()["account"]["id"]
    for number in (1, 2, 3):
        data = wait_for(
            lambda n=number: (
                (t := a.api("GET", f"/api/tournaments/{tid}").json())["tournament"]["round"] == n
                and all(x["table"] for x in t["rounds"][n - 1]["tables"])
                and t
            ),
            f"round {number} and its tables",
        )
        mine = next(t for t in data["rounds"][number - 1]["tables"] if me in {s["entry"] for s in t["seats"]})
        seat = next(s["seat"] for s in mine["seats"] if s["entry"] == me)
        deadline = time.monotonic() + 300
        servers = [a, b]
        while True:  # Org plays its table through both processes in turn; the bots answer
            assert time.monotonic() < deadline, "the table did not end"
            server = servers[rng.randrange(2)]
            snap = server.api("GET", f"/api/tables/{mine['table']}/state", params={"seat": seat}, headers=bearer(org))
            snap = snap.json()
            if snap["result"]:
                break
            if snap["legal"]:
                move = {"seat": seat, "action": rng.choice(snap["legal"]), "after": snap["moves"]}
                server.api("POST", f"/api/tables/{mine['table']}/moves", json=move, headers=bearer(org))
            else:
                time.sleep(0.02)
    final = wait_for(
        lambda: (t := b.api("GET", f"/api/tournaments/{tid}").json())["tournament"]["status"] == "finished" and t,
        "the tournament to finish",
        timeout=300,
    )
    tables = [t for r in final["rounds"] for t in r["tables"]]
    assert [len(r["tables"]) for r in final["rounds"]] == [2, 2, 2]  # each round paired once
    assert all(t["outcome"] == "finished" and t["table"] for t in tables)
    pairs = [frozenset(s["entry"] for s in t["seats"]) for t in tables]
    assert len(set(pairs)) == 6  # four entrants, three rounds: everyone met everyone once
    # each game table made once: the finished tables the organiser's tournament made are exactly these
    listed = a.api("GET", "/api/tables", params={"status": "finished"}).json()
    made_by_org = {t["id"] for t in listed if t["created_by"] == me}
    assert made_by_org == {t["table"] for t in tables}
    assert sum(s["points"] for s in final["standings"]) == pytest.approx(6.0)  # one point a table, counted once
    assert final == a.api("GET", f"/api/tournaments/{tid}").json() | {"me": final["me"]}
