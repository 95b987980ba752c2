"""The benchmark scripts run and print their figures (speed itself is never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_engine_benchmark_prints_a_row_per_player_count():
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "engine.py"), "--game", "tf22-reload", "--seconds", "0.2"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("machine: ")
    rows = [line.split() for line in done.stdout.splitlines() if line.startswith("tf22-reload")]
    assert [row[1] for row in rows] == ["2", "3", "4"]
    assert all(float(row[2]) > 0 and float(row[5]) > 0 for row in rows)
