"""The levels' ratings from arena reports (python -m robotable.arena.level_ratings): tiny synthetic reports."""

from __future__ import annotations

import json
import shutil

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from robotable.arena.level_ratings import (
    KIND,
    check_level_ratings,
    command,
    level_ratings,
    parse_report,
    read_report,
)
from robotable.arena.ratings import openskill_ratings
from robotable.arena.runner import GameResult
from robotable.core import BadInput

runner = CliRunner()
cli = typer.Typer()
cli.command()(command)


def result(index: int, agents: tuple[str, ...], ranks: tuple[int, ...], seed: int | None = None) -> GameResult:
    n = len(agents)
    return GameResult(
        index=index,
        round=index,
        seed=index if seed is None else seed,
        agents=agents,
        agent_seeds=tuple(range(n)),
        scores=tuple(10 - r for r in ranks),
        ranks=ranks,
        winners=tuple(s for s in range(n) if ranks[s] == 1),
        reason="end",
        moves=10,
        digest=f"d{index}-{'-'.join(agents)}-{seed}",
        seconds=0.1,
        think_seconds=(0.0,) * n,
    )


def report(game: str, date: str, results: list[GameResult], players: int = 2) -> dict:
    agents = sorted({a for r in results for a in r.agents})
    return {
        "format": 1,
        "kind": "robotable-arena",
        "command": "robotable arena ...",
        "date": date,
        "tournament": {"game": game, "players": players, "agents": agents, "games": len(results), "seed": 1},
        "summary": {},
        "games": [r.to_json() for r in results],
    }


def alternate(first: str, second: str, n: int, first_wins: int) -> list[GameResult]:
    """n games seats alternating; ``first`` wins the first ``first_wins`` of them."""
    out = []
    for i in range(n):
        agents = (first, second) if i % 2 == 0 else (second, first)
        winner = first if i < first_wins else second
        out.append(result(i, agents, tuple(1 if a == winner else 2 for a in agents)))
    return out


@pytest.fixture
def two_reports(tmp_path):
    a = tmp_path / "a.json"
    b = tmp_path / "b.json"
    a.write_text(json.dumps(report("tf22-reload", "2026-01-01T00:00:00+00:00", alternate("heuristic", "random", 8, 7))))
    b.write_text(
        json.dumps(report("tf22-reload", "2026-01-02T00:00:00+00:00", alternate("ismcts:hard", "heuristic", 6, 5)))
    )
    return a, b


def test_the_command_rates_the_union_of_the_reports_and_writes_the_data_file(tmp_path, two_reports):
    a, b = two_reports
    out = tmp_path / "data" / "level_ratings.json"
    done = runner.invoke(cli, [str(b), str(a), "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert "tf22-reload: 14 games from 2 reports" in done.output
    data = json.loads(out.read_text())
    assert data["kind"] == KIND and data["format"] == 1 and str(a) in data["command"]
    entry = data["games"]["tf22-reload"]
    assert entry["games"] == 14 and entry["reports"] == [str(a), str(b)]  # played order: by date
    levels = entry["levels"]
    assert set(levels) == {"random", "heuristic", "ismcts:hard"}  # levels that never played are not rated
    assert (levels["random"]["games"], levels["heuristic"]["games"], levels["ismcts:hard"]["games"]) == (8, 14, 6)
    assert levels["random"]["reports"] == [str(a)] and levels["heuristic"]["reports"] == [str(a), str(b)]
    # the same ratings as rating the games one after the other, a's then b's
    games = [*alternate("heuristic", "random", 8, 7), *alternate("ismcts:hard", "heuristic", 6, 5)]
    games = [GameResult(**{**g.__dict__, "index": i}) for i, g in enumerate(games)]
    want = openskill_ratings(games, ["random", "heuristic", "ismcts:hard"])
    for level, rating in want.items():
        assert levels[level]["mu"] == pytest.approx(rating["mu"], abs=1e-4)
        assert levels[level]["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"], abs=1e-3)
    assert levels["ismcts:hard"]["ordinal"] > levels["heuristic"]["ordinal"] > levels["random"]["ordinal"]
    assert check_level_ratings(data)["tf22-reload"]["ismcts:hard"]["games"] == 6


def test_a_game_two_reports_hold_counts_once_and_other_agents_are_left_out(tmp_path, two_reports):
    a, b = two_reports
    copy = tmp_path / "copy-of-a.json"
    shutil.copy(a, copy)
    other = tmp_path / "other.json"
    mixed = [*alternate("heuristic", "random", 4, 2), result(9, ("ismcts:hard", "wizard"), (1, 2))]
    other.write_text(json.dumps(report("tf22-reload", "2026-01-03T00:00:00+00:00", mixed)))
    once = level_ratings([read_report(a), read_report(b)])["games"]["tf22-reload"]
    twice = level_ratings([read_report(a), read_report(copy), read_report(b)])["games"]["tf22-reload"]
    assert twice["left_out"]["duplicates"] == 8 and twice["games"] == once["games"] == 14
    assert {k: v["mu"] for k, v in twice["levels"].items()} == {k: v["mu"] for k, v in once["levels"].items()}
    with_other = level_ratings([read_report(p) for p in (a, b, other)])["games"]["tf22-reload"]
    assert with_other["left_out"]["other_agents"] == 1 and "wizard" not in with_other["levels"]
    assert with_other["levels"]["ismcts:hard"]["games"] == 6  # the game against the wizard is not one of them


def test_games_are_rated_per_game(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report("twin-tin-bots", "2026-01-01", alternate("ismcts:easy", "random", 4, 4))))
    path2 = tmp_path / "r2.json"
    path2.write_text(json.dumps(report("tf22-reload", "2026-01-01", alternate("ismcts:easy", "random", 4, 0))))
    data = level_ratings([read_report(path), read_report(path2)])["games"]
    assert (
        data["twin-tin-bots"]["levels"]["ismcts:easy"]["mu"] > 25 > data["tf22-reload"]["levels"]["ismcts:easy"]["mu"]
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{", "not JSON"),
        ('{"kind": "something"}', "not a robotable arena report"),
        ('{"kind": "robotable-arena", "format": 9}', "report format 9"),
        ('{"kind": "robotable-arena", "format": 1, "tournament": {"game": "tf22-reload"}, "games": [{"x": 1}]}',
         "game 0 is not an arena game result"),
    ],
)  # fmt: skip
def test_a_bad_report_exits_2_naming_the_file(tmp_path, text, words):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    done = runner.invoke(cli, [str(bad), "--out", str(tmp_path / "never.json")])
    assert done.exit_code == 2 and words in done.output and "bad.json" in done.output
    assert not (tmp_path / "never.json").exists()


def test_a_missing_report_is_a_clear_error(tmp_path):
    with pytest.raises(BadInput, match="cannot read it"):
        read_report(tmp_path / "nowhere.json")


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"kind": KIND, "format": 1, "games": []},
        {"kind": KIND, "format": 1, "games": {"g": {"levels": {"random": {"mu": "x", "sigma": 1, "ordinal": 1}}}}},
        {"kind": KIND, "format": 1, "games": {"g": {"levels": {"random": {"mu": 1, "sigma": 1, "ordinal": 1}}}}},
    ],
)
def test_a_broken_data_file_is_refused(data):
    with pytest.raises(BadInput):
        check_level_ratings(data)


LEVEL = st.sampled_from(["random", "heuristic", "ismcts:easy", "ismcts:hard"])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.tuples(LEVEL, LEVEL, st.booleans()), min_size=1, max_size=5), min_size=1, max_size=4))
def test_the_order_reports_are_given_in_does_not_matter(spec):
    reports = []
    for n, games in enumerate(spec):
        results = [result(i, (x, y), (1, 2) if first else (2, 1), seed=n) for i, (x, y, first) in enumerate(games)]
        reports.append(parse_report(report("tf22-reload", f"2026-01-0{n + 1}", results), f"r{n}.json"))
    forward = level_ratings(reports)
    assert level_ratings(list(reversed(reports))) == forward
    entry = forward["games"]["tf22-reload"]
    games_of = {lv: sum(1 for g in spec for x, y, _ in g if x != y and lv in (x, y)) for lv in entry["levels"]}
    assert {lv: r["games"] for lv, r in entry["levels"].items()} == games_of
