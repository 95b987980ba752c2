"""Search budgets: by iterations (reproducible) or by CPU time within a wall-clock cap (as people play).

The clocks are injected, so these tests prove what stops a search without depending on machine speed.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotable import games
from robotable.ai import Decision, ISMCTSAgent, heuristics, ismcts, make_agent
from robotable.ai.ismcts import LEVELS, level_params
from robotable.core import BadInput


class Ticking:
    """A fake clock that moves on by ``step`` each time it is read (or never, with step 0). Tests use
    steps and budgets in 64ths of a second, which floats add up exactly."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.reads = 100.0, step, 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def state_and_seat(game_id: str = "tf22-reload", players: int = 2, seed: int = 1):
    state = games.load(game_id).start(players, seed=seed)
    return state, state.to_act()[0]


@given(steps=st.integers(1, 4), budget=st.integers(1, 40))
@settings(max_examples=25, deadline=None)
def test_a_cpu_budget_stops_the_search_when_the_thread_clock_says_so(steps, budget):
    step, seconds = steps / 64, budget / 64
    state, seat = state_and_seat()
    cpu, wall = Ticking(step), Ticking(0.0)
    agent = ISMCTSAgent(seed=1, iterations=None, seconds=seconds, rollout_depth=2, cpu_clock=cpu, wall_clock=wall)
    assert agent.act(state, seat) in state.legal_actions(seat)
    done = agent.last_search["iterations"]
    # one read at the start, one per iteration after the first, one at the end: the search ran until the
    # clock had moved on by ``seconds``, and not one iteration more
    assert agent.last_search["stopped_by"] == "seconds"
    assert done == max(1, -(-seconds // step))  # ceil(seconds / step) reads passed the deadline
    assert agent.last_search["cpu"] == pytest.approx(step * (done + 1))


class Slow:
    """A wall clock that only the search's rollouts move (``step`` per rollout action): a loaded machine
    where each action takes long, so the cap falls in the middle of a rollout."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        return self.now

    def rollout(self, state, seat, legal, rng):  # type: ignore[no-untyped-def]
        self.now += self.step
        return legal[rng.randrange(len(legal))]


def test_the_wall_cap_stops_a_search_whose_cpu_budget_is_not_spent():
    """A loaded machine: the thread gets little CPU (its clock barely moves) while wall time passes. The
    search stops within one rollout action of the cap: a rollout running past it is evaluated there."""
    state, seat = state_and_seat()
    wall = Slow(1 / 16)
    agent = ISMCTSAgent(
        seed=1,
        iterations=None,
        seconds=1.0,
        max_wall=1.5,
        rollout=wall.rollout,
        rollout_depth=8,
        cpu_clock=Ticking(1 / 1024),
        wall_clock=wall,
    )
    assert agent.act(state, seat) in state.legal_actions(seat)
    assert agent.last_search["stopped_by"] == "max_wall"
    assert 1.5 <= agent.last_search["wall"] <= 1.5 + 1 / 16
    assert agent.last_search["iterations"] < 1.5 * 16  # every iteration took at least one action's time


def test_a_callers_wall_cap_applies_over_the_levels_own(monkeypatch):
    # the search's wall cap: TF22 hard's 2-player battle solver (fixed samples, no clock) is switched off
    monkeypatch.setitem(heuristics.for_game("tf22-reload").LEVELS["hard"], "battle_solve", 0)
    state, seat = state_and_seat()
    wall = Slow(1 / 64)
    agent = ISMCTSAgent.level("hard", seed=1, budget="time", cpu_clock=Ticking(0.0), wall_clock=wall)
    agent._rollout = wall.rollout
    agent.wall_cap = 0.5
    agent.act(state, seat)
    assert agent.max_wall == level_params("tf22-reload", "hard")["max_wall"] > 0.5
    assert agent.last_search["stopped_by"] == "max_wall"
    assert 0.5 <= agent.last_search["wall"] <= 0.5 + 1 / 64


def test_a_cap_that_passes_before_the_first_iteration_plays_the_best_candidate():
    """Ranking a guided root's candidates may use up the wall cap on a loaded machine: then the search
    plays the first candidate (the heuristic's choice) rather than run over."""
    state, seat = state_and_seat()
    agent = ISMCTSAgent.level("hard", seed=1, budget="time", cpu_clock=Ticking(0.0), wall_clock=Ticking(1.0))
    agent.wall_cap = 0.5
    action = agent.act(state, seat)
    assert agent.last_search["iterations"] == 0 and agent.last_search["stopped_by"] == "max_wall"
    again = ISMCTSAgent.level("hard", seed=1, budget="time", cpu_clock=Ticking(0.0), wall_clock=Ticking(1.0))
    again._bind("tf22-reload")
    assert action == again.candidates(Decision.of(state, seat))[0]  # the heuristic's choice comes first


def test_an_iteration_budget_never_reads_a_clock_to_stop():
    """Reproducible: with an iteration budget, however slow the clocks say the machine is, the same
    number of iterations runs and the same move comes out."""
    state, seat = state_and_seat()
    moves = set()
    for step in (0.0, 10.0):
        agent = ISMCTSAgent.level(
            "medium", seed=3, budget="iterations", cpu_clock=Ticking(step), wall_clock=Ticking(step)
        )
        moves.add(agent.act(state, seat))
        assert agent.last_search["stopped_by"] == "iterations"
        assert agent.last_search["iterations"] == level_params("tf22-reload", "medium")["iterations"]
    assert len(moves) == 1


@pytest.mark.parametrize("game_id", [g for g in games.available() if heuristics.for_game(g) is not None])
@pytest.mark.parametrize("name", list(LEVELS))
def test_each_level_gets_the_games_parameters_under_either_budget(game_id, name):
    params = level_params(game_id, name)
    entry = getattr(heuristics.for_game(game_id), "LEVELS", {}).get(name, {})
    for key, value in entry.items():
        assert params[key] == value
    timed = ISMCTSAgent.level(name, seed=1, budget="time")
    timed._bind(game_id)
    counted = ISMCTSAgent.level(name, seed=1, budget="iterations")
    counted._bind(game_id)
    assert (counted.iterations, counted.seconds, counted.max_wall) == (params["iterations"], None, None)
    assert timed.max_wall == params["max_wall"]
    if "seconds" in params:
        assert (timed.iterations, timed.seconds) == (None, params["seconds"])
    else:  # a game entry with iterations but no seconds: its iterations, within the wall cap
        assert (timed.iterations, timed.seconds) == (params["iterations"], None)
    assert timed.rollout_depth == counted.rollout_depth == params["rollout_depth"]


def test_a_game_entry_without_seconds_does_not_inherit_the_default_levels(monkeypatch):
    module = heuristics.for_game("tf22-reload")
    monkeypatch.setattr(module, "LEVELS", {"hard": {"iterations": 7}, "easy": {"rollout_depth": 3}})
    assert "seconds" not in level_params("tf22-reload", "hard")  # 7 iterations cost what they cost here
    assert level_params("tf22-reload", "hard")["max_wall"] == LEVELS["hard"]["max_wall"]
    easy = level_params("tf22-reload", "easy")  # no iterations given: the default pair holds
    assert (easy["iterations"], easy["seconds"], easy["rollout_depth"]) == (
        LEVELS["easy"]["iterations"],
        LEVELS["easy"]["seconds"],
        3,
    )
    monkeypatch.setattr(module, "LEVELS", {"hard": {"iterations": 7, "seconds": 0.25, "max_wall": 3.0}})
    hard = level_params("tf22-reload", "hard")
    assert (hard["iterations"], hard["seconds"], hard["max_wall"]) == (7, 0.25, 3.0)


def test_default_levels_order_their_budgets():
    easy, medium, hard = (LEVELS[n] for n in ("easy", "medium", "hard"))
    for key in ("iterations", "seconds", "max_wall"):
        assert easy[key] < medium[key] < hard[key], key
    assert hard["max_wall"] == 1.8 and all(level["seconds"] < level["max_wall"] for level in LEVELS.values())


def test_make_agent_takes_a_budget_and_refuses_unknown_ones():
    assert make_agent("ismcts:hard", seed=1).budget == "iterations"  # reproducible unless asked
    assert make_agent("ismcts:hard", seed=1, budget="time").budget == "time"
    assert make_agent("heuristic", seed=1, budget="time").name == "heuristic"
    with pytest.raises(BadInput, match="unknown budget 'fast'"):
        make_agent("ismcts:hard", budget="fast")
    with pytest.raises(ValueError, match="budget must be one of"):
        ISMCTSAgent.level("hard", budget="fast")


def test_a_forced_move_searches_nothing():
    state, seat = state_and_seat()
    agent = ISMCTSAgent(seed=1, iterations=None, seconds=1.0, cpu_clock=Ticking(1.0), wall_clock=Ticking(1.0))
    legal = state.legal_actions(seat)
    decision = Decision(state.game.id, seat, state.view(seat), legal[:1], lambda rng: state.determinize(seat, rng))
    assert agent.choose(decision) == legal[0] and agent.last_search["stopped_by"] == "single"


def test_the_real_clocks_are_the_threads_cpu_time_and_a_monotonic_wall_clock():
    agent = ISMCTSAgent(seed=1, iterations=None, seconds=0.01)
    assert agent.cpu_clock is ismcts.time.thread_time and agent.wall_clock is ismcts.time.monotonic


def test_a_wall_cap_given_to_the_level_replaces_its_own():
    """A turn-based table lets a level think its whole CPU budget on a busy machine: a longer cap."""
    longer = make_agent("ismcts:hard", seed=1, budget="time", max_wall=10.0)
    longer._bind("tf22-reload")
    assert longer.max_wall == 10.0 and longer.seconds == level_params("tf22-reload", "hard").get("seconds")
    counted = make_agent("ismcts:easy", seed=1, max_wall=3.0)  # an iteration budget under a wall cap
    counted._bind("tf22-reload")
    assert (counted.max_wall, counted.iterations) == (3.0, level_params("tf22-reload", "easy")["iterations"])


def test_bots_choosing_together_share_the_tables_wait(monkeypatch):
    """The server's bots think by time; three bots bidding in one 4-player TF22 battle share the wall
    seconds the table waits (each its share of what is left), within the level's own cap."""
    from robotable.server import bots

    made: list[ISMCTSAgent] = []
    step = 1 / 64

    def recording(spec, seed=None, budget="iterations", max_wall=None):  # type: ignore[no-untyped-def]
        agent = make_agent(spec, seed=seed, budget=budget, max_wall=max_wall)
        wall = Slow(step)
        agent.cpu_clock, agent.wall_clock, agent._rollout = Ticking(0.0), wall, wall.rollout  # type: ignore[attr-defined]
        made.append(agent)  # type: ignore[arg-type]
        return agent

    monkeypatch.setattr(bots, "make_agent", recording)
    state = games.load("tf22-reload").start(4, seed=5)
    state.apply(0, state.legal_actions(0)[0])  # the person has bid: the three bots bid now
    seats = [(s, "ismcts:hard") for s in state.to_act()]
    assert len(seats) == 3
    chosen = bots.choose_moves(state, seats, 7, 1, wall=2.0, clock=Ticking(0.25))
    assert [seat for seat, _ in chosen] == [s for s, _ in seats]
    made[:] = [a for a in made if a.last_search]  # the agents that chose (not those checking a spec)
    assert [a.budget for a in made] == ["time"] * 3
    assert [a.wall_cap for a in made] == [1.75 / 3, 1.5 / 2, 1.25]  # 0.25 s passes between the clock's reads
    assert all(a.max_wall == level_params("tf22-reload", "hard")["max_wall"] for a in made)  # live: the level's
    for agent in made:  # each stopped at the lower of its share and the level's cap
        cap = min(agent.wall_cap, agent.max_wall)
        assert agent.last_search["stopped_by"] == "max_wall"
        assert cap <= agent.last_search["wall"] <= cap + step

    made.clear()
    bots.choose_moves(state, seats, 7, 1, wall=10.0, turn_based=True, clock=Ticking(0.0))
    made[:] = [a for a in made if a.last_search]
    assert [(a.max_wall, a.wall_cap) for a in made] == [(10.0, 10.0 / 3), (10.0, 10.0 / 2), (10.0, 10.0)]


def test_a_levels_evaluate_scale_reaches_the_games_evaluator(monkeypatch):
    """A level's ``evaluate_scale`` is the scale of the game's evaluator in that level's search."""
    ttb = heuristics.for_game("twin-tin-bots")
    monkeypatch.setitem(ttb.LEVELS, "hard", {**ttb.LEVELS["hard"], "evaluate_scale": 6.0})
    agent = ISMCTSAgent.level("hard", seed=1)
    agent._bind("twin-tin-bots")
    state = games.load("twin-tin-bots").start(2, seed=4)
    rng = random.Random(4)
    while ttb.evaluate(state) == [0.5, 0.5] and not state.is_over():  # play until one side leads
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state = state.clone()
        state.apply(seat, legal[rng.randrange(len(legal))])
    assert agent.evaluator(state) == ttb.evaluate(state, scale=6.0)
    assert agent.evaluator(state) != ttb.evaluate(state)  # a wider scale: a lead is worth less


def test_a_level_cannot_scale_an_evaluator_that_has_no_scale(monkeypatch):
    monkeypatch.setitem(LEVELS, "hard", {**LEVELS["hard"], "evaluate_scale": 6.0})
    agent = ISMCTSAgent.level("hard", seed=1)
    with pytest.raises(ValueError, match="evaluate_scale"):
        agent._bind("tf22-reload")
