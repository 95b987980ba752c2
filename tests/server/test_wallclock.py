"""The server's injectable wall clock: tests move it forward, or stop real time from passing."""

from __future__ import annotations

import time

import pytest

from robotable.server.wallclock import WallClock


def test_a_frozen_clock_moves_only_when_advanced() -> None:
    clock = WallClock()
    clock.freeze()
    first = clock.now()
    time.sleep(0.01)  # real time passes...
    assert clock.now() == first  # ...the frozen clock does not see it
    clock.advance(2.5)
    assert (clock.now() - first).total_seconds() == 2.5


def test_reset_brings_back_real_time() -> None:
    clock = WallClock()
    clock.freeze()
    clock.advance(3600)
    clock.reset()
    before = clock.now()
    time.sleep(0.01)
    assert clock.now() > before and clock.offset.total_seconds() == 0


def test_time_never_moves_back() -> None:
    with pytest.raises(ValueError, match="time only moves forward, not by -1 s"):
        WallClock().advance(-1)
