"""The garbage collector of a served process: when it runs, what it skips, and how long it pauses.

A web process keeps a few hundred thousand objects alive (its tables' states, events and moves, its
sockets), and most objects it makes under load live on: each move adds some to a table's history. A
collection walks every object of the generations it collects while the event loop, and with it every
socket and move of the process, waits. Measured under load on a 2-core machine (docs/server.md, "Load
and faults, measured"):

- CPython's thresholds (700, 10, 10) made a full collection every few seconds, 250 to 490 ms each;
- :data:`GC_THRESHOLDS` alone (50,000, 20, 100) made a young collection every 8 s or so, 50 to 130 ms
  each (nearly all it walked survived), and left larger ones for later;
- what survived is now frozen every :data:`FREEZE_SECONDS` (``gc.freeze``: no collection walks it
  again), so the young generation stays small and is seldom collected.

Reference counting still frees every object that is not in a reference cycle at once, frozen or not;
cycles (uvicorn's HTTP connections leave a few objects in one each, SQLAlchemy's statements some)
that were frozen are found by a full collection every ``ROBOTABLE_GC_FULL_SECONDS`` (300 s; a pause of
a few hundred milliseconds, memory freed up to tens of megabytes). ``ROBOTABLE_GC_FULL_SECONDS=0``
freezes nothing after start: the collector runs at :data:`GC_THRESHOLDS` alone.

Every collection is timed by generation (:data:`COLLECTIONS`, ``gc.pauses`` in ``GET /api/server``).
"""

from __future__ import annotations

import gc
import os
import threading
import time

from .timings import Timings

#: The collector's thresholds in a server process (CPython's are 700, 10, 10).
GC_THRESHOLDS = (50_000, 20, 100)
#: Seconds between freezes of what survived.
FREEZE_SECONDS = 2.0
#: Seconds between full collections (``ROBOTABLE_GC_FULL_SECONDS``; 0 or less: no freezing after start).
FULL_SECONDS = float(os.environ.get("ROBOTABLE_GC_FULL_SECONDS", "300"))

#: A served process's garbage collections, each timed by generation (``gen0``, ``gen1``, ``gen2``; see
#: :func:`time_collections`), shown with the collector's figures in ``GET /api/server``.
COLLECTIONS = Timings()


def tune_garbage_collection() -> None:
    """Set a served process's collector (see the module docstring): its thresholds, what was loaded
    by now (the modules, the app) frozen, every collection timed, and what survives frozen from now on
    by a thread of its own."""
    gc.set_threshold(*GC_THRESHOLDS)
    gc.freeze()
    time_collections()
    if FULL_SECONDS > 0:
        threading.Thread(target=_keep_freezing, daemon=True, name="robotable-gc").start()


def freeze_survivors(full: bool = False) -> None:
    """Freeze every object alive (none is walked by a collection again); ``full``: first thaw them
    all and collect every generation, so that reference cycles among them are freed."""
    if full:
        gc.unfreeze()
        gc.collect()
    gc.freeze()


def _keep_freezing() -> None:
    last_full = time.monotonic()
    while True:
        time.sleep(FREEZE_SECONDS)
        full = time.monotonic() - last_full >= FULL_SECONDS
        freeze_survivors(full)
        if full:
            last_full = time.monotonic()


def time_collections() -> None:
    """Time every garbage collection of this process into :data:`COLLECTIONS` (once per process): a
    collection pauses the event loop, and with it every socket and move of the process."""
    if _time_collection in gc.callbacks:
        return
    gc.callbacks.append(_time_collection)


_collection_started = [0.0]


def _time_collection(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _collection_started[0] = time.perf_counter()
    else:
        COLLECTIONS.add(f"gen{info['generation']}", time.perf_counter() - _collection_started[0])
