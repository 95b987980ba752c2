"""How long the disk takes to make a write durable (``fdatasync``), the wait of every commit.

PostgreSQL flushes its write-ahead log at each commit (``synchronous_commit = on``: an acknowledged move
survives a crash of the machine), so a disk that now and then takes long to sync holds every commit of
that moment, of every server process at once. This writes 8 KiB and syncs it, again and again, for
``--seconds``, in ``--folder`` (by default PostgreSQL's data folder when it is readable, else /tmp), and
prints the sync time's median, 99th and 99.9th percentile and maximum, and how many took over 50 ms.
Run it alone for the disk's own figures, and beside ``benchmarks/load.py`` to see it under load:

    .venv/bin/python benchmarks/fsync_probe.py --seconds 30
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

PG_DATA = Path("/var/lib/postgresql")


def probe(folder: Path, seconds: float) -> list[float]:
    """Sync times (ms) of 8 KiB writes in ``folder`` for ``seconds``."""
    times = []
    fd, name = tempfile.mkstemp(prefix="fsync-probe-", dir=folder)
    try:
        block = os.urandom(8192)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            os.pwrite(fd, block, 0)
            start = time.perf_counter()
            os.fdatasync(fd)
            times.append((time.perf_counter() - start) * 1000)
    finally:
        os.close(fd)
        os.unlink(name)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10)
    default = PG_DATA if os.access(PG_DATA, os.W_OK) else Path(tempfile.gettempdir())
    parser.add_argument("--folder", type=Path, default=default)
    args = parser.parse_args()
    times = sorted(probe(args.folder, args.seconds))
    n = len(times)

    def at(q: float) -> float:
        return times[min(n - 1, int(n * q))]

    slow = sum(t > 50 for t in times)
    print(
        f"fdatasync of 8 KiB in {args.folder}: {n} syncs in {args.seconds:g} s; p50 {at(0.5):.2f} ms "
        f"p99 {at(0.99):.2f} ms p99.9 {at(0.999):.2f} ms max {times[-1]:.1f} ms; over 50 ms: {slow}",
        flush=True,
    )


if __name__ == "__main__":
    main()
