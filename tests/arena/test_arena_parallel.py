"""The same seed gives the same games in this process, in 2 worker processes and on a local Ray instance."""

from __future__ import annotations

import os
import sys

import pytest

from robotable.ai import AGENTS, RandomAgent
from robotable.arena import ArenaGameError, Tournament, run_tournament
from robotable.arena.execute import LOCAL_STARTS, connect_ray
from robotable.core import BadInput

# 4 seats and enough games that both workers are busy for a while (about 1 s of play in all).
SMALL = {"game": "tf22-reload", "agents": ("random",), "players": 4, "games": 60, "seed": 17}


@pytest.fixture(scope="module")
def in_process():
    outcome = run_tournament(Tournament(**SMALL))
    assert {r.worker for r in outcome.results} == {os.getpid()}
    return outcome


def test_two_worker_processes_play_the_same_games(in_process):
    seen = []
    outcome = run_tournament(Tournament(**SMALL, workers=2), on_result=seen.append)
    assert len(seen) == 60
    assert [r.outcome() for r in outcome.results] == [r.outcome() for r in in_process.results]
    workers = {r.worker for r in outcome.results}
    assert len(workers) == 2 and os.getpid() not in workers  # really two other processes
    assert outcome.summary == in_process.summary | {"seconds_per_game": outcome.summary["seconds_per_game"]}


def test_a_local_ray_instance_plays_the_same_games(in_process):
    small = SMALL | {"games": 24}
    expected = [r.outcome() for r in in_process.results[:24]]
    outcome = run_tournament(Tournament(**small, ray="local"))
    assert [r.outcome() for r in outcome.results] == expected
    assert os.getpid() not in {r.worker for r in outcome.results}


def test_without_ray_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail as if not installed
    with pytest.raises(BadInput, match=r"--ray needs Ray, which is not installed: pip install 'robotable\[ray\]'"):
        run_tournament(Tournament(**SMALL, ray="auto"))


class StartsLate:
    """Stands in for Ray whose private instance misses its fixed 30-s startup wait ``misses`` times (a busy
    machine): the real timeout cannot be caused on demand."""

    def __init__(self, misses: int) -> None:
        self.misses, self.inits, self.shutdowns, self.up = misses, 0, 0, False

    def is_initialized(self) -> bool:
        return self.up

    def init(self, address: str, **_: object) -> None:
        self.inits += 1
        if self.inits <= self.misses:
            raise Exception("The current node timed out during startup.")
        self.up = True

    def shutdown(self) -> None:
        self.shutdowns += 1
        self.up = False


def test_a_local_ray_start_that_times_out_is_tried_again(monkeypatch):
    late = StartsLate(misses=LOCAL_STARTS - 1)
    monkeypatch.setitem(sys.modules, "ray", late)
    assert connect_ray("local") == (late, True)
    assert (late.inits, late.shutdowns) == (LOCAL_STARTS, LOCAL_STARTS - 1)  # each failed start cleaned up
    assert connect_ray("local") == (late, False)  # already up: not started again, not shut down by the caller


def test_a_local_ray_that_never_starts_is_a_clear_error(monkeypatch):
    late = StartsLate(misses=LOCAL_STARTS)
    monkeypatch.setitem(sys.modules, "ray", late)
    with pytest.raises(BadInput, match="--ray local: cannot connect to a Ray cluster: The current node timed out"):
        connect_ray("local")
    assert late.inits == LOCAL_STARTS and not late.up


def test_a_cluster_address_is_tried_once(monkeypatch):
    late = StartsLate(misses=1)
    monkeypatch.setitem(sys.modules, "ray", late)
    with pytest.raises(BadInput, match="--ray ray://head:10001: cannot connect"):
        connect_ray("ray://head:10001")
    assert late.inits == 1


def test_workers_build_every_agent_from_its_spec_and_seed():
    mixed = {"game": "tf22-reload", "agents": ("random", "heuristic"), "players": 2, "games": 8, "seed": 23}
    here = run_tournament(Tournament(**mixed))
    there = run_tournament(Tournament(**mixed, workers=2))
    assert [r.outcome() for r in there.results] == [r.outcome() for r in here.results]


class Ghost(RandomAgent):
    """Known to this process only: in a worker process its spec is unknown, so its game fails there."""

    name = "ghost"


def test_a_game_failing_in_a_worker_names_the_game(monkeypatch):
    monkeypatch.setitem(AGENTS, "ghost", Ghost)
    with pytest.raises(
        ArenaGameError, match=r"game \d+ \(tf22-reload, 2 players, seed \d+, agents .*unknown agent 'ghost'"
    ):
        run_tournament(Tournament("tf22-reload", ("ghost", "random"), players=2, games=4, seed=1, workers=2))
