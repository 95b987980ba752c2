"""The whole suite's settings."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

#: The key under which each test's call report is kept on its item (read by fixtures' teardown).
CALL_REPORT = pytest.StashKey[pytest.TestReport]()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a core. Most of the slow tests wait (on a server process, a browser, a
    database) more than they compute, so a core can serve two; on this 2-core machine kind the suite took
    1,363 s at 4 workers under other agents' load against 1,480 s at 2 on a quiet machine.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` or ``-n N`` still choose."""
    chosen = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    return int(chosen) if chosen and chosen.isdigit() else 2 * (os.cpu_count() or 1)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Keep the call's report on the item, so a fixture's teardown can tell whether its test failed."""
    report = yield
    if report.when == "call":
        item.stash[CALL_REPORT] = report
    return report


def failed(item: pytest.Item) -> bool:
    """Whether ``item``'s test body failed (for teardown code that keeps evidence only then)."""
    report = item.stash.get(CALL_REPORT, None)
    return report is not None and report.failed
