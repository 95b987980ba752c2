"""How long things take in this server process, for operators (``GET /api/server``) and benchmarks.

Each figure keeps its last :data:`KEPT` durations and answers their count, median, 99th percentile and
maximum in milliseconds:

- ``move``: a person's move over the websocket, from its message to its acknowledgement (its wait for
  the table, the rules, the database write, a lost race's catch-up and retry);
- ``move_lock``: its wait for the table's lock (another move or a catch-up of the same table);
- ``move_write``: the database write of a move and its clocks (won or lost), its wait for a connection
  included;
- ``move_connection``: on PostgreSQL, that write's wait until it is sent: in the queue of the moves'
  writers, and for a connection of their pool (see batched_writes.py and ``ROBOTABLE_MOVE_CONNECTIONS``
  in docs/server.md);
- ``raced_move``: a move that lost a race (below) at least once, from its wait for the table to its
  write, the catch-ups and retries included;
- ``race_catch_up``: after a write lost its compare-and-set to another process's, the catch-up (the
  winner's move from news that came meanwhile, from what the losing write saw, or read at once; see
  ``Sync.catch_up_after_race`` in table/sync.py);
- ``news_publish``: news of this process, from its publishing to Redis's answer (the queue of the
  fan-out's publisher and its round trip);
- ``news_delay``: how late news of other processes comes through the fan-out, from its publishing
  to its receipt here (wall clocks: exact for processes of one machine);
- ``loop_lag``: how late the event loop wakes a task that asked to sleep (work queued ahead of it:
  every socket and every move of the process shares this loop).

>>> t = Timings()
>>> for ms in range(1, 101):
...     t.add("move", ms / 1000)
>>> t.figures()["move"]
{'n': 100, 'p50_ms': 51.0, 'p99_ms': 100.0, 'max_ms': 100.0}
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import deque

#: Durations kept of each figure (the newest; ``ROBOTABLE_TIMINGS_KEPT``: benchmarks/load.py keeps a whole
#: run's).
KEPT = max(1, int(os.environ.get("ROBOTABLE_TIMINGS_KEPT", "4096")))  # 0 or less: 1
#: Seconds between the loop-lag probe's naps.
PROBE_EVERY = 0.1


class Timings:
    """Recent durations by name (see the module docstring)."""

    def __init__(self) -> None:
        self._kept: dict[str, deque[float]] = {}

    def add(self, name: str, seconds: float) -> None:
        """Keep one duration of ``name``."""
        kept = self._kept.get(name)
        if kept is None:
            kept = self._kept[name] = deque(maxlen=KEPT)
        kept.append(seconds)

    def figures(self) -> dict[str, dict[str, float]]:
        """Count, median, 99th percentile and maximum (ms) of each figure's kept durations."""
        out = {}
        for name, kept in self._kept.items():
            values = sorted(kept)
            n = len(values)
            out[name] = {
                "n": n,
                "p50_ms": round(values[n // 2] * 1000, 1),
                "p99_ms": round(values[min(n - 1, n * 99 // 100)] * 1000, 1),
                "max_ms": round(values[-1] * 1000, 1),
            }
        return out

    async def probe_loop(self) -> None:
        """Measure ``loop_lag`` until cancelled: nap :data:`PROBE_EVERY` and note how late it ends."""
        while True:
            asked = time.perf_counter() + PROBE_EVERY
            await asyncio.sleep(PROBE_EVERY)
            self.add("loop_lag", max(0.0, time.perf_counter() - asked))
