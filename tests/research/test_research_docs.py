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
    """examples/train_tf22.py trains OpenSpiel's QLearner, then reports its win rates against random and
    heuristic through the arena, each with a 95% interval around it (tiny numbers here)."""
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
    trained = re.fullmatch(r"trained 6 episodes in \d+ s; .*; (\d+) information states met", lines[0])
    assert trained and int(trained[1]) > 0, lines[0]
    for opponent in ("random", "heuristic"):
        found = [x for x in lines if x.startswith(f"trained vs {opponent}: ")]
        assert len(found) == 1, done.stdout
        report = re.fullmatch(
            rf"trained vs {opponent}: win rate (\d\.\d+) \(95% CI (\d\.\d+)-(\d\.\d+)\) over 4 arena games", found[0]
        )
        assert report, found[0]
        rate, low, high = (float(x) for x in report.groups())
        assert 0.0 <= low <= rate <= high <= 1.0 and high - low > 0.0, found[0]


def test_research_training_example_rejects_an_unknown_opponent() -> None:
    """A training opponent that is not an arena agent is a clear command-line error, before any training."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_tf22.py"), "--opponents", "random,nobody"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 2 and "unknown opponent(s) nobody" in done.stderr, done.stderr[-2000:]
