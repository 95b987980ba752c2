"""Helpers for tests that compare table snapshots while clocks run."""

from __future__ import annotations

import copy
from typing import Any

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
