"""The server's own timings (robotable/server/timings.py): what an operator reads in GET /api/server."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from robotable.server.timings import KEPT, Timings


@given(st.lists(st.floats(min_value=0, max_value=60), min_size=1, max_size=300))
def test_figures_are_the_count_median_p99_and_maximum_of_what_was_kept(durations: list[float]) -> None:
    t = Timings()
    for d in durations:
        t.add("move", d)
    kept = sorted(durations[-KEPT:])
    got = t.figures()["move"]
    assert got["n"] == len(kept)
    assert got["max_ms"] == round(kept[-1] * 1000, 1)
    assert round(kept[0] * 1000, 1) <= got["p50_ms"] <= got["p99_ms"] <= got["max_ms"]


def test_a_kept_count_of_zero_or_less_keeps_one_and_still_answers() -> None:
    """ROBOTABLE_TIMINGS_KEPT=0 (or -5) must not make every move fail or GET /api/server answer 500."""
    for value in ("0", "-5"):
        code = (
            "from robotable.server.timings import KEPT, Timings\n"
            "t = Timings(); t.add('move', 0.5); t.add('move', 0.25)\n"
            "print(KEPT, t.figures()['move']['n'], t.figures()['move']['max_ms'])\n"
        )
        out = subprocess.run(
            [sys.executable, "-c", code],
            env={"ROBOTABLE_TIMINGS_KEPT": value, "PATH": ""},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        assert out == ["1", "1", "250.0"], out
