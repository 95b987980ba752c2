"""`robotable serve`'s own bot workers: a worker that keeps dying at start is said loudly (an error in the
log with its last words, a back-off, ``GET /api/bots/status`` and the table page), never restarted silently
forever. Real worker processes; the clock and the waits between starts are injected."""

from __future__ import annotations

import asyncio
import logging
import sys

import pytest

from robotable.server.bot_api import LocalWorkers

SAYS = "import sys; sys.stderr.write(\"ModuleNotFoundError: No module named 'httpx'\\n\"); sys.exit(3)"
DIES = [sys.executable, "-c", SAYS]
LIVES = [sys.executable, "-c", "import time; time.sleep(120)"]


class FakeTime:
    """A clock that moves ``per_poll`` seconds at each of the workers' polls; back-offs are recorded
    and move it by their length."""

    def __init__(self) -> None:
        self.now = 0.0
        self.per_poll = 0.0
        self.backoffs: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        if seconds == 0.5:  # a poll of the running process
            self.now += self.per_poll
            await asyncio.sleep(0.01)
        else:
            self.backoffs.append(seconds)
            self.now += seconds


def workers(fake: FakeTime, cmd: list[str]) -> LocalWorkers:
    return LocalWorkers(
        "sqlite://", None, "http://127.0.0.1:1", "secret", cmds=[cmd], clock=fake.clock, sleep=fake.sleep
    )


def test_a_worker_dying_at_start_is_reported_with_a_growing_back_off(caplog: pytest.LogCaptureFixture) -> None:
    fake = FakeTime()
    local = workers(fake, DIES)

    async def run() -> list[dict]:
        seen = []
        for _ in range(4):
            await local._run_once(0)
            seen.append(local.status())
        return seen

    with caplog.at_level(logging.ERROR, logger="robotable.server"):
        statuses = asyncio.run(run())
    assert fake.backoffs == [2.0, 4.0, 8.0, 16.0]
    assert [s["running"] for s in statuses] == [True, True, False, False]
    assert statuses[-1]["restarts"] == 4
    assert "code 3" in statuses[-1]["problem"] and "httpx" not in statuses[-1]["problem"]  # words stay in the log
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 4 and all("No module named 'httpx'" in e for e in errors)
    assert "BOTS ARE DOWN" in errors[2]


def test_the_bots_count_as_running_again_once_a_worker_stays_up() -> None:
    fake = FakeTime()
    local = workers(fake, DIES)

    async def run() -> tuple[dict, dict]:
        for _ in range(3):
            await local._run_once(0)
        down = local.status()
        local.cmds = [LIVES]
        fake.per_poll = 1.0
        task = asyncio.create_task(local._run_once(0))
        while fake.now < fake.backoffs[-1] + LocalWorkers.QUICK_DEATH + 30:
            await asyncio.sleep(0.01)
        up = local.status()
        local.procs[0].kill()
        await task
        return down, up

    down, up = asyncio.run(run())
    assert not down["running"]
    assert up["running"] and up["problem"] is None
    assert fake.backoffs[-1] == 1.0  # a worker that lived a while is restarted at once, no back-off
