"""Helpers for tests that compare table snapshots while clocks run."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from people import wait_for

#: Fields of a seat's clock that the passing of time alone changes.
TIME_FIELDS = ("left_ms", "timed_out", "away_ms", "can_hand_over")


def timeless(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot (or summary) without what only the passing of time changes: the server's ``now`` and
    each clock's time left. Deadlines stay, so a clock started or stopped still shows."""
    out = copy.deepcopy(snapshot)
    clock = out.get("table", out)["clock"]
    del clock["now"]
    for seat in clock["seats"]:
        for key in TIME_FIELDS:
            del seat[key]
    return out


def wait_for_running_clock(summary: Callable[[], dict[str, Any]], seat: int) -> None:
    """Wait until a table's summary (``summary()``, as ``GET /api/tables/{id}`` answers) shows ``seat``'s
    clock running. A new table's clocks are stored just after the table itself: a test that moves an
    injected clock on before they are would start them after the jump, and they would never run out."""

    def running() -> bool:
        clock = summary().get("clock")
        return bool(clock) and bool(clock["seats"][seat]["running"])

    wait_for(running, f"seat {seat}'s clock to run")
