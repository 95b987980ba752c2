"""What a new table of two people costs the web processes, apart from its moves.

A game's end under ``benchmarks/load.py`` is followed by a new table: made by one account, its invite
taken by the other, then both seats' sockets opened (a snapshot each) and, at the game's end, closed.
This starts the same cluster as load.py (two web processes on PostgreSQL + Redis, in a schema and key
prefix of its own), makes ``--tables`` tables one after another and prints the web processes' CPU time
(from /proc) per table for each step, and PostgreSQL's statements of each step (table scans and rows
written, from its statistics) beside it:

    .venv/bin/python benchmarks/table_cost.py --tables 100
"""

from __future__ import annotations

import argparse
import asyncio

import httpx
import orjson
import websockets
from load import Cluster, accounts, bearer, people_table


async def open_seat(url: str, token: str) -> None:
    """Open a seat's socket, read up to its snapshot, close it."""
    async with websockets.connect(url, additional_headers=bearer(token)) as ws:
        while orjson.loads(await ws.recv())["type"] != "snapshot":
            pass


async def measure(cluster: Cluster, tables: int) -> list[tuple[str, float, tuple[int, int]]]:
    """(step, web CPU seconds, (scans, rows written)) of making ``tables`` tables and opening their seats."""
    people = await accounts(cluster.urls, tables)
    steps = []
    await asyncio.sleep(1.5)  # PostgreSQL flushes its statistics about once a second
    cpu, db = cluster.cpu(), cluster.db_counts()
    async with httpx.AsyncClient(timeout=60) as http:
        made = [await people_table(http, cluster.urls[i % 2], people[i]) for i in range(tables)]
    await asyncio.sleep(1.5)
    steps.append(("a table made and its invite taken", cluster.cpu() - cpu, _minus(cluster.db_counts(), db)))
    cpu, db = cluster.cpu(), cluster.db_counts()
    for i, table in enumerate(made):
        for seat in (0, 1):
            base = cluster.urls[(i + seat) % 2].replace("http", "ws")
            await open_seat(f"{base}/ws/tables/{table}?seat={seat}", people[i][seat])
    await asyncio.sleep(1.5)  # the sockets' closing is handled after they are gone
    steps.append(("its two seats' sockets opened and closed", cluster.cpu() - cpu, _minus(cluster.db_counts(), db)))
    return steps


def _minus(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return a[0] - b[0], a[1] - b[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    args = parser.parse_args()
    cluster = Cluster(2, True)
    try:
        steps = asyncio.run(measure(cluster, args.tables))
    finally:
        cluster.stop()
    print(f"{args.tables} tables of two people, two web processes + Redis, PostgreSQL; per table:")
    for name, cpu, (scans, rows) in steps:
        print(f"{name:<42} web CPU {1000 * cpu / args.tables:5.1f} ms  database: {scans / args.tables:.1f} scans "
              f"{rows / args.tables:.1f} rows written")  # fmt: skip


if __name__ == "__main__":
    main()
