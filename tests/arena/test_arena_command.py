"""`robotable arena` as a user runs it: tables, the JSON report and the PNG chart; clear errors."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from robotable.cli import app

runner = CliRunner()


def test_arena_prints_the_tables_and_writes_the_json_and_png(tmp_path):
    prefix = tmp_path / "out" / "small"
    result = runner.invoke(
        app, ["arena", "--game", "tf22-reload", "--agents", "random", "--players", "3", "--games", "6",
              "--seed", "4", "--out", str(prefix)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "seats" in result.output
    report = json.loads((tmp_path / "out" / "small.json").read_text())
    png = (tmp_path / "out" / "small.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 5000
    assert report["command"] == (
        f"robotable arena --game tf22-reload --agents random --players 3 --games 6 --seed 4 --budget time "
        f"--out {prefix}"
    )  # search levels think by time unless asked otherwise, as people play; the report says so
    assert report["tournament"] == {
        "game": "tf22-reload", "players": 3, "agents": ["random"], "games": 6, "seed": 4, "options": {},
        "budget": "time",
    }  # fmt: skip
    assert report["machine"]["cpus"] and report["machine"]["python"]
    assert report["execution"]["mode"] == "in-process"
    assert len(report["games"]) == 6 and [g["index"] for g in report["games"]] == list(range(6))
    assert {"agents", "scores", "ranks", "winners", "moves", "seconds", "seed"} <= set(report["games"][0])
    agent = report["summary"]["agents"][0]
    assert agent["games"] == 18 and {"win_rate", "ci95", "mean_score", "rating"} <= set(agent)


def test_quiet_prints_only_where_the_report_went(tmp_path):
    result = runner.invoke(
        app, ["arena", "-g", "tf22-reload", "-a", "random", "-n", "2", "--out", str(tmp_path / "q.json"), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith("report:") and (tmp_path / "q.png").exists()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--game", "chess", "--agents", "random"], "unknown game 'chess'"),
        (["--game", "tf22-reload", "--agents", "random,wizard"], "unknown agent 'wizard'"),
        (["--game", "tf22-reload", "--agents", "random", "--players", "9"], "9 players is not supported"),
        (["--game", "tf22-reload", "--agents", "random", "--games", "0"], "--games must be an integer of at least 1"),
        (["--game", "tf22-reload", "--agents", "random", "--workers", "0"], "--workers must be an integer of at least"),
        (["--game", "tf22-reload", "--agents", "random", "--options", "[1]"], "--options must be a JSON object"),
        (
            ["--game", "tf22-reload", "--agents", "random,heuristic", "--players", "4", "--seats", "1,2"],
            "--seats counts add up to 3, but the table has 4 seats",
        ),
        (
            ["--game", "tf22-reload", "--agents", "random,heuristic", "--players", "4", "--seats", "4"],
            "--seats gives 1 counts for 2 agents",
        ),
        (
            ["--game", "tf22-reload", "--agents", "random,heuristic", "--players", "4", "--seats", "0,4"],
            "--seats counts must be integers of at least 1",
        ),
        (
            ["--game", "tf22-reload", "--agents", "random,heuristic", "--players", "4", "--seats", "one,3"],
            "--seats must be whole numbers separated by commas",
        ),
        (
            ["--game", "tf22-reload", "--agents", "random", "--budget", "fast"],
            "--budget must be one of time, iterations",
        ),
    ],
)
def test_bad_input_exits_2_naming_the_problem(tmp_path, args, words):
    result = runner.invoke(app, ["arena", *args, "--out", str(tmp_path / "never")])
    assert result.exit_code == 2, result.output
    assert "error:" in result.output and words in " ".join(result.output.split())
    assert not list(tmp_path.iterdir())  # nothing written


def test_the_command_in_the_report_plays_the_same_games_again(tmp_path):
    """With an iteration budget even search levels replay move for move (a time budget would not)."""
    import shlex

    first = runner.invoke(app, ["arena", "-g", "tf22-reload", "-a", "random,ismcts:easy", "-p", "2", "-n", "2",
                                "--seed", "8", "--budget", "iterations", "--out", str(tmp_path / "a"),
                                "--quiet"])  # fmt: skip
    assert first.exit_code == 0, first.output
    report = json.loads((tmp_path / "a.json").read_text())
    assert report["tournament"]["budget"] == "iterations"
    args = shlex.split(report["command"])
    assert args[:2] == ["robotable", "arena"] and args[args.index("--budget") + 1] == "iterations"
    args[args.index("--out") + 1] = str(tmp_path / "b")
    again = runner.invoke(app, [*args[1:], "--quiet"])
    assert again.exit_code == 0, again.output
    rerun = json.loads((tmp_path / "b.json").read_text())
    strip = ("seconds", "think_seconds", "worker")
    assert [{k: v for k, v in g.items() if k not in strip} for g in rerun["games"]] == [
        {k: v for k, v in g.items() if k not in strip} for g in report["games"]
    ]


def test_seats_put_one_agent_against_three_of_another_in_every_seat_and_replay(tmp_path):
    """``--seats 1,3``: the issue's "against three heuristics"; each game has one random seat, which
    visits every seat once a round, and the report's command plays the same games again."""
    import shlex

    first = runner.invoke(app, ["arena", "-g", "tf22-reload", "-a", "random,heuristic", "-p", "4", "-n", "8",
                                "--seats", "1,3", "--seed", "3", "--budget", "iterations",
                                "--out", str(tmp_path / "a"), "--quiet"])  # fmt: skip
    assert first.exit_code == 0, first.output
    report = json.loads((tmp_path / "a.json").read_text())
    assert report["tournament"]["seats"] == [1, 3]
    lineups = [tuple(g["agents"]) for g in report["games"]]
    assert all(lineup.count("random") == 1 and lineup.count("heuristic") == 3 for lineup in lineups)
    assert [lineup.index("random") for lineup in lineups] == [0, 1, 2, 3] * 2
    assert report["summary"]["balanced"] and report["summary"]["lineups_per_round"] == 4
    random_row = next(row for row in report["summary"]["agents"] if row["agent"] == "random")
    assert random_row["games"] == 8  # one appearance a game
    args = shlex.split(report["command"])
    assert args[args.index("--seats") + 1] == "1,3"
    args[args.index("--out") + 1] = str(tmp_path / "b")
    again = runner.invoke(app, [*args[1:], "--quiet"])
    assert again.exit_code == 0, again.output
    rerun = json.loads((tmp_path / "b.json").read_text())
    assert [g["scores"] for g in rerun["games"]] == [g["scores"] for g in report["games"]]
