"""Put on PYTHONPATH by tests/test_run_dependencies.py: the processes it starts (``robotable serve`` and the
bot workers it spawns) cannot import the packages named in ``ROBOTABLE_BLOCKED_IMPORTS`` (those that the
test extras install but `make run`'s extras do not), as on a machine that ran only `make run`."""

from __future__ import annotations

import os
import sys
from importlib.abc import MetaPathFinder
from typing import Any

BLOCKED = frozenset(filter(None, os.environ.get("ROBOTABLE_BLOCKED_IMPORTS", "").split(",")))


class NotInstalledByMakeRun(MetaPathFinder):
    """Answers ModuleNotFoundError for a blocked top-level package, as a missing one would."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if path is None and name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (not installed by make run's extras)", name=name)


if BLOCKED:
    sys.meta_path.insert(0, NotInstalledByMakeRun())
