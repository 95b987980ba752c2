"""Local worker processes that end with the process that started them.

A ``concurrent.futures`` process pool's workers wait on a queue whose pipe they hold both ends of, so when
the process that made the pool dies without shutting it down (a server stopped by a signal, a killed CLI)
they never see the end of it: they finish the search they were given and then wait forever, orphaned.
The pools here start each worker with a watch on its parent that ends the worker as soon as the parent
is gone.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

#: Seconds between two looks at whether the parent still lives.
PARENT_CHECK = 0.5


def local_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` fresh (spawned) processes, each ending when this process ends."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=exit_with_parent,
        initargs=(os.getpid(),),
    )


def exit_with_parent(parent: int) -> None:
    """In a worker: end this process as soon as ``parent`` is no longer its parent (it died)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
