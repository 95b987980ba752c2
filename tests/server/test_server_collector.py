"""The garbage collector of a served process (robotable/server/collector.py), each test in a fresh
interpreter: what it freezes, what a full collection frees, and how it times its pauses."""

from __future__ import annotations

import subprocess
import sys


def run(code: str) -> None:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_a_served_process_times_each_garbage_collection_by_generation() -> None:
    """The collector's pauses stop the event loop: a served process times each one (GET /api/server's
    ``gc.pauses``), once however often it is asked to."""
    run(
        "import gc\n"
        "from robotable.server.collector import COLLECTIONS, time_collections\n"
        "assert COLLECTIONS.figures() == {}\n"
        "time_collections(); time_collections()\n"
        "gc.collect(); gc.collect(0)\n"
        "f = COLLECTIONS.figures()\n"
        "assert f['gen2']['n'] == 1 and f['gen0']['n'] >= 1, f\n"
        "assert 0 <= f['gen2']['p50_ms'] <= f['gen2']['max_ms'], f\n"
    )


def test_survivors_are_frozen_and_their_cycles_freed_by_the_next_full_collection() -> None:
    """What is alive when frozen is walked by no collection, so a reference cycle that dies after it
    waits for the next full collection (which thaws everything first); an object outside any cycle is
    freed at once by reference counting, frozen or not."""
    run(
        "import gc, weakref\n"
        "from robotable.server.collector import freeze_survivors\n"
        "class Node: pass\n"
        "loop = Node(); loop.me = loop; cycle = weakref.ref(loop)\n"
        "alone = Node(); single = weakref.ref(alone)\n"
        "freeze_survivors()\n"
        "assert gc.get_freeze_count() > 0\n"
        "del loop, alone\n"
        "assert single() is None  # reference counting\n"
        "gc.collect()\n"
        "assert cycle() is not None  # frozen: no collection walks it\n"
        "freeze_survivors(full=True)\n"
        "assert cycle() is None and gc.get_freeze_count() > 0\n"
    )


def test_a_served_process_keeps_freezing_unless_told_not_to() -> None:
    """``tune_garbage_collection`` sets the thresholds and starts the freezing thread;
    ``ROBOTABLE_GC_FULL_SECONDS=0`` leaves the collector at its thresholds alone."""
    code = (
        "import gc, threading\n"
        "from robotable.server import collector\n"
        "collector.tune_garbage_collection()\n"
        "assert gc.get_threshold() == collector.GC_THRESHOLDS\n"
        "print(any(t.name == 'robotable-gc' for t in threading.enumerate()))\n"
    )
    for value, expected in (("300", "True"), ("0", "False")):
        env = {"ROBOTABLE_GC_FULL_SECONDS": value, "PATH": "/usr/bin:/bin"}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == expected, (value, done.stdout)
