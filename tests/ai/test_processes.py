"""Pool workers end with the process that made the pool (robotable.ai.processes): a server or CLI killed
mid-search leaves no orphan computing a review nobody will read."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

#: Makes a pool (ours, or a plain one), gives its worker something long to do, prints the worker's pid,
#: then waits to be killed.
SCRIPT = """
import os, sys, time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from robotable.ai.processes import local_pool

pool = local_pool(1) if sys.argv[1] == "local" else ProcessPoolExecutor(1, mp_context=get_context("spawn"))
print(pool.submit(os.getpid).result(), flush=True)
pool.submit(time.sleep, 600)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


def worker_of_killed_parent(kind: str, deadline: float = 60.0) -> tuple[int, bool]:
    """Start a parent with a pool of ``kind``, kill it, and say whether its worker is still alive after it
    had ``deadline`` seconds to end (waiting for the condition, not for a fixed time)."""
    parent = subprocess.Popen([sys.executable, "-c", SCRIPT, kind], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    worker = int(parent.stdout.readline())
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    end = time.monotonic() + deadline
    while alive(worker) and time.monotonic() < end:
        time.sleep(0.1)
    return worker, alive(worker)


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc (Linux)")
def test_a_local_pools_worker_ends_when_its_parent_is_killed() -> None:
    worker, still = worker_of_killed_parent("local")
    assert not still, f"worker {worker} outlived its killed parent"


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc (Linux)")
def test_a_plain_pools_worker_outlives_its_killed_parent() -> None:
    """The reason for local_pool: without the watch the worker is orphaned (killed here by the test)."""
    worker, still = worker_of_killed_parent("plain", deadline=2.0)
    try:
        assert still
    finally:
        if alive(worker):
            os.kill(worker, signal.SIGKILL)
