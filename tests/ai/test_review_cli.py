"""`robotable review RECORD.json`: the review in the terminal, the PNG chart, and clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from robotable import games
from robotable.ai import make_agent
from robotable.ai.review.show import sparkline
from robotable.cli import app
from robotable.core import Match

runner = CliRunner()


def write_record(tmp_path, game_id: str, moves: int, seed: int = 3) -> str:
    match = Match(game_id, 2, seed=seed, meta={"seats": "ann,random"})
    agent = make_agent("random", seed=seed)
    while not match.state.is_over() and len(match.record.moves) < moves:
        seat = match.state.to_act()[0]
        match.apply(seat, agent.act(match.state, seat))
    return str(match.record.save(tmp_path / f"{game_id}.json"))


@pytest.mark.parametrize("game_id", games.available())
def test_review_prints_losses_and_sparklines_and_writes_the_chart(tmp_path, game_id):
    path = write_record(tmp_path, game_id, 8)
    png, out = tmp_path / "chart.png", tmp_path / "review.json"
    args = ["review", path, "--budget", "6", "--png", str(png), "--json", str(out), "--quiet", "--lang", "en"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    review = json.loads(out.read_text())
    assert review["budget"]["iterations"] == 6 and len(review["seats"]) == 2
    assert "Review: " in result.output and "Seat 1 (ann)" in result.output
    for seat in review["seats"]:
        values = [m["before"] for m in seat["moments"]]
        assert sparkline(values) in result.output
    if any(s["largest_losses"] for s in review["seats"]):
        assert "Largest losses" in result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"chart saved: {png}" in result.output


def test_review_of_one_seat_in_japanese(tmp_path):
    path = write_record(tmp_path, "tf22-reload", 6)
    result = runner.invoke(
        app, ["review", path, "--seat", "1", "--budget", "4", "--quiet", "--lang", "ja", "--workers", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "振り返り" in result.output and "2番席" in result.output and "1番席" not in result.output


def test_sparkline_spans_the_value_scale():
    assert sparkline([0, 1 / 7, 2 / 7, 3 / 7, 4 / 7, 5 / 7, 6 / 7, 1]) == "▁▂▃▄▅▆▇█"
    assert sparkline([]) == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["review", "{tmp}/missing.json"], "no such file"),
        (["review", "{tmp}/bad.json"], "cannot read"),
        (["review", "{tmp}/game.json", "--seat", "2"], "--seat must be 0 to 1"),
        (["review", "{tmp}/game.json", "--seat", "-1"], "--seat must be 0 to 1"),
        (["review", "{tmp}/game.json", "--budget", "0"], "budget must be 1 to"),
        (["review", "{tmp}/game.json", "--moves", "-3"], "--moves must be 0 or more"),
        (["review", "{tmp}/other.json"], "missing field 'moves'"),
        (["review", "{tmp}/game.json", "--budget", "2", "--png", "{tmp}/bad.json/chart.png"], "cannot write"),
    ],
)
def test_bad_input_gets_one_clear_line_and_exit_code_2(tmp_path, args, message):
    write_record(tmp_path, "tf22-reload", 2)
    (tmp_path / "tf22-reload.json").rename(tmp_path / "game.json")
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "other.json").write_text(json.dumps({"game": "tf22-reload", "num_players": 2, "seed": 1}))
    result = runner.invoke(app, [a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code == 2, result.output
    assert message in result.output and result.output.startswith("error:")
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) <= 2


def test_the_review_benchmark_prints_its_figures_beside_the_hard_levels_thinking():
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "review.py"
    args = [sys.executable, str(script), "--game", "tf22-reload:2", "--moves", "4", "--budget", "4"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("machine: ")
    row = next(line.split() for line in done.stdout.splitlines() if line.startswith("tf22-reload"))
    assert row[1:3] == ["2", "4"] and row[4:6] == ["4", "4"] and float(row[9]) > 0  # players, moves, decisions, iters
    spread = subprocess.run([*args, "--spread", "2"], capture_output=True, text=True, timeout=300, check=False)
    row = next(line.split() for line in spread.stdout.splitlines() if line.startswith("tf22-reload"))
    assert row[1:4] == ["2", "4", "2"] and all(0 <= float(x) <= 0.5 for x in row[4].split("/") + row[5].split("/"))
