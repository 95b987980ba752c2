"""A small tournament: counts, fair seats, reproducible games, head-to-head, bad input."""

from __future__ import annotations

import math

import pytest

from robotable.ai import AGENTS, Agent, Decision
from robotable.arena import Job, Tournament, play_game, run_tournament
from robotable.core import Action, BadInput, BadOptions, UnknownGame


class FirstAgent(Agent):
    """Always the first legal action: deterministic and different from random."""

    name = "first"

    def choose(self, decision: Decision) -> Action:
        return decision.legal[0]


@pytest.fixture
def first_agent(monkeypatch):
    """Registers the ``first`` agent in this process only (worker processes would not know it)."""
    monkeypatch.setitem(AGENTS, "first", FirstAgent)
    return "first"


def test_a_small_random_tournament_has_the_right_counts_and_fair_seats():
    t = Tournament("tf22-reload", ("random",), players=3, games=12, seed=5)
    outcome = run_tournament(t)
    results, summary = outcome.results, outcome.summary
    assert [r.index for r in results] == list(range(12))
    assert all(len(r.scores) == len(r.ranks) == 3 and r.moves > 0 and r.seconds > 0 for r in results)
    assert all(set(r.winners) == {s for s, rank in enumerate(r.ranks) if rank == 1} for r in results)
    (row,) = summary["agents"]
    assert row["games"] == 36 and row["wins"] == pytest.approx(12)  # one win shared out per game
    assert row["win_rate"] == pytest.approx(1 / 3) and row["ci95"][0] < 1 / 3 < row["ci95"][1]
    assert summary["seat_counts"] == {"random": [12, 12, 12]} and summary["balanced"]
    assert sum(s["wins"] for s in summary["seats"]) == pytest.approx(12)


def test_two_agent_pool_rotates_seats_and_head_to_head_adds_up(first_agent):
    outcome = run_tournament(Tournament("tf22-reload", ("random", first_agent), players=2, games=10, seed=3))
    results, summary = outcome.results, outcome.summary
    assert [r.agents for r in results] == [("random", "first"), ("first", "random")] * 5
    assert summary["seat_counts"] == {"random": [5, 5], "first": [5, 5]} and summary["balanced"]
    assert sum(a["games"] for a in summary["agents"]) == 20
    assert sum(a["wins"] for a in summary["agents"]) == pytest.approx(10)
    ab, ba = summary["head_to_head"]
    assert (ab["agent"], ab["opponent"], ab["games"]) == ("random", "first", 10)
    assert ab["win_rate"] + ba["win_rate"] == pytest.approx(1)
    # In 2-player games, head to head is the win rate.
    assert ab["win_rate"] == pytest.approx(summary["agents"][0]["win_rate"])
    ratings = {a["agent"]: a["rating"] for a in summary["agents"]}
    better, worse = sorted(ratings, key=lambda a: -next(x["win_rate"] for x in summary["agents"] if x["agent"] == a))
    if ab["win_rate"] != 0.5:
        assert ratings[better]["mu"] > ratings[worse]["mu"]


def test_a_game_replays_alone_from_game_players_seed_and_seats(first_agent):
    outcome = run_tournament(Tournament("tf22-reload", ("random", first_agent), players=3, games=7, seed=11))
    assert not outcome.summary["balanced"]  # 7 is not a multiple of the 6 lineups: reported, not hidden
    for r in outcome.results:
        again = play_game("tf22-reload", 3, {}, Job(index=r.index, round=r.round, seed=r.seed, agents=r.agents))
        assert again.outcome() == r.outcome()


def test_results_survive_the_json_report_round_trip():
    from robotable.arena import GameResult

    (r,) = run_tournament(Tournament("tf22-reload", ("random",), players=2, games=1, seed=2)).results
    assert GameResult.from_json(r.to_json()) == r


@pytest.mark.parametrize(
    ("changes", "error", "words"),
    [
        ({"game": "chess"}, UnknownGame, "unknown game 'chess'"),
        ({"agents": ("random", "wizard")}, BadInput, "unknown agent 'wizard'"),
        ({"agents": ("random", "random")}, BadInput, "random more than once"),
        ({"agents": ("random", "")}, BadInput, "empty entry"),
        ({"players": 7}, BadOptions, "7 players is not supported"),
        ({"games": 0}, BadInput, "--games must be an integer of at least 1, got 0"),
        ({"workers": 0}, BadInput, "--workers must be an integer of at least 1, got 0"),
        ({"seed": -1}, BadInput, "--seed must be an integer of at least 0"),
        ({"options": {"nope": 1}}, BadOptions, "unknown option 'nope'"),
        ({"workers": 2, "ray": "auto"}, BadInput, "alternatives"),
    ],
)
def test_bad_input_is_refused_up_front_naming_the_problem(changes, error, words):
    fields = {"game": "tf22-reload", "agents": ("random",), "players": 2, "games": 4, "seed": 1} | changes
    with pytest.raises(error, match=words):
        run_tournament(Tournament(**fields))


def test_an_agent_that_breaks_names_the_game_to_replay(monkeypatch):
    from robotable.arena import ArenaGameError

    class Broken(Agent):
        name = "broken"

        def choose(self, decision):
            raise RuntimeError("out of ideas")

    monkeypatch.setitem(AGENTS, "broken", Broken)
    with pytest.raises(
        ArenaGameError, match=r"game 0 \(tf22-reload, 2 players, seed \d+, agents broken,random\).*out of"
    ):
        run_tournament(Tournament("tf22-reload", ("broken", "random"), players=2, games=2, seed=1))


def test_the_budget_reaches_every_agent(monkeypatch):
    """Search levels think by time in a tournament unless it asks for iterations (reproducible)."""
    from robotable.arena import runner as arena_runner

    seen: list[str] = []
    real = arena_runner.make_agent

    def recording(spec, seed=None, budget="iterations", max_wall=None):  # type: ignore[no-untyped-def]
        seen.append((budget, max_wall))
        return real(spec, seed, budget, max_wall)

    monkeypatch.setattr(arena_runner, "make_agent", recording)
    run_tournament(Tournament("tf22-reload", ("random", "heuristic"), players=2, games=2, seed=1))
    assert seen == [("time", math.inf)] * 4  # CPU seconds, no wall-clock cap (a strength measurement)
    seen.clear()
    run_tournament(Tournament("tf22-reload", ("random", "heuristic"), players=2, games=2, seed=1, budget="iterations"))
    assert seen == [("iterations", None)] * 4
