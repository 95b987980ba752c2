"""Every Python snippet of docs/research.md runs as written and finishes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "research.md"
SNIPPETS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)


def test_research_docs_have_snippets() -> None:
    assert len(SNIPPETS) >= 4


@pytest.mark.parametrize("index", range(len(SNIPPETS)))
def test_research_docs_snippet_runs(index: int, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "MPLBACKEND": "Agg",
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", SNIPPETS[index]],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert done.returncode == 0, f"snippet {index}:\n{SNIPPETS[index]}\n{done.stderr[-2000:]}"


def test_research_training_example_runs_and_reports() -> None:
    """examples/train_tf22.py trains, then reports win rates through the arena (tiny numbers here)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_tf22.py"), "--episodes", "6", "--games", "4"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("trained 6 episodes")
    for opponent in ("random", "heuristic"):
        line = next(x for x in lines if x.startswith(f"trained vs {opponent}: win rate "))
        assert 0.0 <= float(line.split("win rate ")[1].split()[0]) <= 1.0 and "over 4 arena games" in line
