"""benchmarks/compare_openspiel.py runs and prints both tables (speed itself is never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_research_compare_openspiel_prints_its_tables() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "compare_openspiel.py"),
            "--seconds",
            "0.2",
            "--search-seconds",
            "0.3",
            "--game",
            "tf22-reload",
            "--game",
            "robots-on-the-line",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("machine: ")
    for name in ("tf22-reload native 2p", "tf22-reload pyspiel 2p", "python_kuhn_poker", "python_tic_tac_toe"):
        assert name in out
    assert "ratios (ours / theirs)" in out
    assert "MCTSBot (OpenSpiel)" in out
    assert "robots-on-the-line pyspiel 2p" in out
    for game in ("tf22-reload 2p", "robots-on-the-line 2p"):
        row = next(line for line in out.splitlines() if line.strip().startswith(game))
        assert all(float(x.replace(",", "")) > 0 for x in row.split()[2:])
