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


def test_agents_benchmark_prints_a_row_per_game_and_agent():
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "agents.py"), "--game", "tf22-reload", "--game", "twin-tin-bots",
         "--agents", "random,ismcts:easy", "--decisions", "3"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("machine: ")
    rows = [line.split() for line in done.stdout.splitlines()[2:]]
    assert [(row[0], row[1]) for row in rows] == [
        (g, a) for g in ("tf22-reload", "twin-tin-bots") for a in ("random", "ismcts:easy")
    ]
    assert all(row[2] == "3" and float(row[3]) >= 0 for row in rows)


def test_load_benchmark_plays_across_two_processes_and_prints_its_figures():
    """A short run of benchmarks/load.py on its own cluster (PostgreSQL + Redis, as the targets use)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "load.py"), "--clients", "8", "--seconds", "12", "--warmup", "3",
         "--think", "0.2"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("2 web processes + Redis"))
    words = line.split()
    assert float(words[words.index("moves/s") - 1]) > 0
    assert words[words.index("errors") + 1] == "0", done.stdout
    spans = next(line for line in done.stdout.splitlines() if "ack p99 in each 10 s" in line)
    # 12 s measured: two spans of 10 s, the second printed only if a move was acknowledged in its 2 s
    assert 1 <= len(spans.split(":")[1].split()) <= 2
    memory = next(line for line in done.stdout.splitlines() if "RSS at the start of each 10 s" in line)
    assert all(len(sample.split("/")) == 2 for sample in memory.split(":")[1].split())  # two web processes


def test_table_cost_benchmark_prints_each_step_of_a_new_table():
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "table_cost.py"), "--tables", "3"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if "web CPU" in line]
    assert [row.split(" web CPU")[0].strip() for row in rows] == [
        "a table made and its invite taken",
        "its two seats' sockets opened and closed",
    ]
    assert all(float(row.split("web CPU")[1].split()[0]) > 0 for row in rows)


def level_screen(*args: str) -> subprocess.CompletedProcess[str]:
    """``benchmarks/level_screen.py`` run with ``args``, its output captured."""
    script = str(ROOT / "benchmarks" / "level_screen.py")
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True, timeout=120, check=False)


def test_level_screen_plays_the_changed_level_and_prints_its_wins():
    done = level_screen(
        "--game", "tf22-reload", "--level", "easy", "--set", "iterations=2", "--set", "rollout_depth=1",
        "--games", "2", "--seed", "3",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "tf22-reload ismcts:easy with {'iterations': 2, 'rollout_depth': 1} against heuristic"
    assert sum(line.startswith("scores ") for line in lines) == 2
    wins = float(lines[-1].split(" won ")[1].split(" of ")[0])
    assert lines[-1].startswith("ismcts:easy won ") and " of 2 seats: " in lines[-1] and 0 <= wins <= 2
    bad = level_screen("--game", "tf22-reload", "--set", "iterations")
    assert bad.returncode == 2 and "expected key=value, got 'iterations'" in bad.stderr


def test_level_screen_plays_against_a_changed_opponent_level():
    done = level_screen(
        "--game", "tf22-reload", "--level", "easy", "--set", "iterations=2", "--opponent", "ismcts:easy",
        "--opponent-set", "iterations=3", "--games", "2", "--seed", "3",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "tf22-reload ismcts:easy with {'iterations': 2} against easy-variant"
    assert sum(line.startswith("scores ") for line in lines) == 2
    bad = level_screen("--game", "tf22-reload", "--opponent-set", "iterations=3")
    assert bad.returncode != 0 and "--opponent-set needs an ismcts:LEVEL opponent" in bad.stderr


def test_tf22_variants_prints_the_variants_wins():
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "tf22_variants.py"), "--games", "2", "--seed", "3", "--set",
         "CARD_COST=0.45", "--set", "RSCALE=2"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("{'CARD_COST': 0.45, 'RSCALE': 2.0}, 2 games, seed 3, 2 players: variant won ")


def test_level_iterations_benchmark_prints_what_each_level_buys():
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "level_iterations.py"), "--game", "tf22-reload", "--level", "easy",
         "--level", "medium", "--decisions", "3"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[2:]]
    assert [row[0] for row in rows] == ["easy", "medium"]
    assert all(float(row[2]) >= 1 and float(row[5]) >= 1 for row in rows)  # iterations bought and counted
