"""The paired root: candidates compared on the same samples, the heuristic's choice left only for a
candidate that is clearly better.

A tiny 2-player game: seat 0 picks one of three moves, then a coin (the state's own generator, so the
same sample gives the same coin whatever was picked) decides between two final scores. The coin makes
each move's outcome noisy; compared on the same coins, the differences between moves are exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from robotable.ai import Decision, ISMCTSAgent
from robotable.ai.ismcts import _paired_gain
from robotable.core import Action, Event, Game, Result, Rng, State
from tests.ai.test_search_budget import Ticking

#: Seat 0's final score per move and coin (seat 1 scores 10): BAD loses on a tail, GOOD wins on both,
#: EVEN ties on a tail.
BAD, GOOD, EVEN = 0, 1, 2
SCORES = {BAD: (11, 9), GOOD: (12, 11), EVEN: (11, 10)}


@dataclass(frozen=True, slots=True)
class Move(Action):
    type: ClassVar[str] = "move"
    choice: int


class CoinGame(Game):
    id = "paired-test-coin"
    name = "A move and a coin"
    min_players = max_players = 2
    action_types = (Move,)

    def new_state(self, num_players: int, seed: int, options: dict[str, Any]) -> State:
        return CoinState(self, seed)

    def state_from_json(self, data: object) -> State:
        raise NotImplementedError


class CoinState(State):
    num_players = 2

    def __init__(self, game: CoinGame, seed: int, moves: tuple[int, ...] = (BAD, GOOD, EVEN)) -> None:
        self.game = game  # type: ignore[misc]
        self.seed, self.options, self.rng = seed, {}, Rng(seed)
        self.moves, self.score = moves, None

    def to_act(self) -> list[int]:
        return [] if self.score is not None else [0]

    def legal_actions(self, player: int) -> list[Action]:
        return [Move(m) for m in self.moves] if player in self.to_act() else []

    def apply_legal(self, player: int, action: Action) -> list[Event]:
        heads = self.rng.random() < 0.5
        self.score = SCORES[action.choice][0 if heads else 1]  # type: ignore[attr-defined]
        return [Event("moved", {"choice": action.choice})]  # type: ignore[attr-defined]

    def view(self, player: int | None) -> dict[str, Any]:
        return {"score": self.score}

    def is_over(self) -> bool:
        return self.score is not None

    def result(self) -> Result:
        return Result.from_keys([self.score, 10], [(self.score,), (10,)], "the coin")

    def clone(self) -> State:
        new = CoinState(self.game, self.seed, self.moves)  # type: ignore[arg-type]
        new.rng, new.score = Rng(self.rng.state), self.score
        return new

    def to_json(self) -> dict[str, Any]:
        return {"score": self.score}

    def determinize(self, player: int, rng: Rng) -> State:
        new = self.clone()
        new.rng = rng.fork()  # the coin is unseen: each sample flips its own
        return new


class Paired(ISMCTSAgent):
    """A paired root whose guide (the 'heuristic') always picks ``guide``."""

    def __init__(self, guide: int, **kwargs: Any) -> None:
        super().__init__(rollout_depth=4, root_width=3, guide_bias=1.0, **kwargs)
        self._guide = guide

    def _bind(self, game_id: str) -> None:
        super()._bind(game_id)
        self.guide = lambda decision, rng: Move(self._guide)
        self.evaluator = None


def decide(agent: ISMCTSAgent, seed: int = 1) -> int:
    state = CoinState(CoinGame(), seed)
    return agent.choose(Decision.of(state, 0)).choice  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", range(4))
def test_the_paired_root_leaves_the_guide_for_a_clearly_better_move(seed):
    assert decide(Paired(BAD, seed=seed, iterations=30, paired=4), seed) == GOOD


@pytest.mark.parametrize("seed", range(4))
def test_the_paired_root_keeps_the_guide_when_nothing_is_better(seed):
    assert decide(Paired(GOOD, seed=seed, iterations=30, paired=4), seed) == GOOD


def test_a_required_gain_keeps_the_guide():
    # GOOD gains half a win on a tail over EVEN (a quarter on average): not the half asked for
    assert decide(Paired(EVEN, seed=3, iterations=30, paired=4, paired_gain=0.5)) == EVEN
    assert decide(Paired(EVEN, seed=3, iterations=30, paired=4, paired_gain=0.1)) == GOOD


def test_the_paired_root_counts_rollouts_and_drops_the_weakest():
    agent = Paired(EVEN, seed=2, iterations=30, paired=4)
    decide(agent)
    # 4 samples of 3 candidates, then the guide and the best other on 9 more: 12 + 18 rollouts
    assert agent.last_search["iterations"] == 30


def test_without_paired_the_tree_searches_as_before():
    agent = Paired(BAD, seed=1, iterations=30)
    decide(agent)
    assert agent.last_search["iterations"] == 30  # tree iterations, not paired rollouts


def test_paired_gain_is_the_mean_difference_on_common_samples():
    mean, error = _paired_gain([1.0, 0.5, 1.0], [0.5, 0.5])
    assert mean == pytest.approx(0.25)
    assert error == pytest.approx(0.25)
    assert _paired_gain([1.0], [0.0])[1] == float("inf")


def test_a_sample_the_wall_cap_cuts_is_dropped():
    # reads: the decision's start, then after each candidate of a sample (and before every sample but the
    # first); with a cap of 5 steps it passes after the second sample's first candidate: only the first
    # sample's 3 rollouts count, so its candidates stay compared on the same samples
    agent = Paired(BAD, seed=1, iterations=30, paired=4, max_wall=5 / 64, wall_clock=Ticking(1 / 64))
    decide(agent)
    assert agent.last_search["stopped_by"] == "max_wall"
    assert agent.last_search["iterations"] == 3


def test_a_sample_cut_before_any_completes_leaves_the_guides_choice():
    agent = Paired(BAD, seed=1, iterations=30, paired=4, max_wall=1 / 64, wall_clock=Ticking(1 / 64))
    assert decide(agent) == BAD
    assert agent.last_search["iterations"] == 0
