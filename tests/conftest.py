"""The whole suite's settings."""

from __future__ import annotations

import itertools
import os
import random
import socket
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


#: Where the tests' servers listen: below the kernel's ephemeral range (32768-60999 on Linux), where
#: neither ``bind(("", 0))`` nor an outgoing connection takes a port, in a block per xdist worker. A port
#: picked by binding port 0 and letting it go could be handed to a second test worker before the first
#: worker's server bound it: the first test then spoke to the other worker's server (CI of 2026-12-05).
PORT_BASE, PORT_BLOCK = 16000, 400
#: This process's next port in its block (from a random start: two suites on one machine rarely meet).
_port_counter = itertools.count(random.randrange(PORT_BLOCK))


def _port_block() -> int:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")  # "gw0", "gw1", ... or unset without xdist
    number = int(worker[2:]) if worker[2:].isdigit() else 0
    blocks = (32768 - PORT_BASE) // PORT_BLOCK
    return PORT_BASE + (number % blocks) * PORT_BLOCK


def free_ports(count: int = 1) -> int:
    """The first of ``count`` side-by-side TCP ports nobody listens on now, in this test worker's own block,
    never the same as the last call's (a server started a moment ago may not have bound its port yet)."""
    base = _port_block()
    for _ in range(PORT_BLOCK):
        first = base + next(_port_counter) % (PORT_BLOCK - count + 1)
        if all(_bindable(first + i) for i in range(count)):
            for _ in range(count - 1):
                next(_port_counter)  # the next call starts past this run of ports
            return first
    raise RuntimeError(f"no {count} free ports side by side in {base}-{base + PORT_BLOCK - 1}")


def free_port() -> int:
    """A TCP port nobody listens on now (see ``free_ports``)."""
    return free_ports(1)


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True
