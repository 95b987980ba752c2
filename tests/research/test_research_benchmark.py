"""benchmarks/compare_openspiel.py runs and prints both tables (speed itself is never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.parametrize(("opponent", "name"), [("ismcts", "ISMCTSBot"), ("sampled", "MCTSBot-on-a-sample")])
def test_research_mcts_vs_ismcts_prints_both_matches(opponent: str, name: str) -> None:
    """benchmarks/mcts_vs_ismcts.py plays its matches (tiny numbers) and prints each score line."""
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "mcts_vs_ismcts.py"),
            "--games",
            "2",
            "--reference-games",
            "2",
            "--simulations",
            "2",  # MCTSBot needs 2 (its root has no children after 1)
            "--opponent",
            opponent,
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("safe_clones=")]
    assert [line.split(":")[0] for line in lines] == ["safe_clones=1", "safe_clones=0"]
    for line in lines:
        mcts_score = float(line.split("MCTSBot ")[1].split(",")[0])
        other_score = float(line.split(f", {name} ")[1].split(";")[0])
        assert mcts_score + other_score == 2.0  # every game's payoff sums to 1
