"""The `robotable` command as a user runs it: play (people and bots), replay, errors."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from robotable.cli import app
from robotable.core import Record, replay

runner = CliRunner()


def test_all_bot_game_runs_unattended_and_saves_a_replayable_record(tmp_path):
    path = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "tf22-reload", "--players", "3", "--seats", "random,random,random", "--seed", "7",
              "--record", str(path), "--quiet"]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Result" in result.output and "record saved" in result.output
    record = Record.load(path)
    assert record.seed == 7 and record.meta["result"]["winners"]
    assert replay(record).is_over()
    shown = runner.invoke(app, ["replay", str(path), "--no-step"])
    assert shown.exit_code == 0, shown.output
    assert f"after move {len(record.moves)}/{len(record.moves)}" in shown.output


def test_replay_as_a_seat_names_only_its_own_secret_choices_and_reads_server_records(tmp_path):
    from robotable.cli import replay_steps_summary

    path = tmp_path / "game.json"
    runner.invoke(app, ["play", "tf22-reload", "--seats", "random,random", "--seed", "4", "--record", str(path)])
    record = Record.load(path)
    first = record.moves[0]  # seat 0's secret card, not yet revealed after move 1
    assert first[0] == 0 and first[1]["type"] == "play"
    mine, theirs = replay_steps_summary(record, 0)[0], replay_steps_summary(record, 1)[0]
    assert mine.startswith("seat 0: ") and str(first[1]["value"]) in mine
    assert theirs.startswith("seat 0") and str(first[1]["value"]) not in theirs
    record.meta["seats"] = ["Ada", "random bot"]  # as the server writes it
    record.save(path)
    shown = runner.invoke(app, ["replay", str(path), "--seat", "1", "--no-step"])
    assert shown.exit_code == 0, shown.output
    assert "Ada" in shown.output


def test_a_human_seat_sees_its_view_picks_by_number_and_bad_answers_are_refused(tmp_path):
    path = tmp_path / "human.json"
    answers = "abc\n99\n" + '{"type": "load", "slot": 0}\n' + "1\n" * 600
    result = runner.invoke(
        app,
        ["play", "tf22-reload", "--players", "2", "--seats", "human,random", "--seed", "3", "--record", str(path)],
        input=answers,
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert "seat 0 to act" in result.output and "RCU-1" in result.output
    assert "not understood" in result.output  # "abc"
    assert "99 is not between 1 and" in result.output
    assert "refused" in result.output  # a load during the battle choice
    assert Record.load(path).meta["result"]


def test_quitting_saves_the_game_so_far(tmp_path):
    path = tmp_path / "partial.json"
    result = runner.invoke(
        app, ["play", "tf22-reload", "--seats", "human,random", "--seed", "3", "--record", str(path)], input="1\nq\n"
    )
    assert result.exit_code == 1
    assert len(Record.load(path).moves) >= 1


def test_bad_command_lines_get_clear_errors():
    cases = [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "tf22-reload", "--players", "3", "--seats", "human,random"], "--seats names 2 seats"),
        (["play", "tf22-reload", "--players", "7"], "7 players is not supported"),
        (["play", "tf22-reload", "--seats", "human,genius"], "unknown agent 'genius'"),
        (["play", "tf22-reload", "--options", "{bad"], "--options is not valid JSON"),
        (["play", "tf22-reload", "--options", '{"x": 1}'], "unknown option 'x'"),
        (["replay", "/nonexistent/record.json"], "no such file"),
    ]
    for args, message in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)


def test_games_lists_every_registered_game():
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0 and "tf22-reload" in result.output


def test_installed_command_runs(tmp_path):
    path = tmp_path / "cmd.json"
    done = subprocess.run(
        [sys.executable, "-m", "robotable.cli", "play", "tf22-reload", "--players", "4",
         "--seats", "random,random,random,random", "--seed", "1", "--record", str(path), "--quiet"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(path.read_text())["num_players"] == 4


def test_every_tf22_event_has_a_readable_log_line():
    from robotable.core import Match, Rng
    from robotable.terminal import describe_event

    seen = {}
    for seed in range(30):
        match = Match("tf22-reload", 2 + seed % 3, seed=seed)
        rng = Rng(seed)
        while not match.state.is_over():
            seat = match.state.to_act()[0]
            legal = match.state.legal_actions(seat)
            for event in match.apply(seat, legal[rng.randrange(len(legal))]):
                seen[event.type] = event.to_json()
    assert {"activate", "reveal", "battle", "won_cards", "round_scored", "game_over"} <= set(seen)
    for kind, event in seen.items():
        line = describe_event("tf22-reload", event)
        assert line and not line.startswith(f"{kind}:"), kind
