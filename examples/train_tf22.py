"""Train a small agent on TF22: RELOAD! with OpenSpiel's own tabular Q-learner and measure it through the arena.

    python examples/train_tf22.py                       # a few minutes on one core
    python examples/train_tf22.py --episodes 200 --games 20     # a quick look

The learner is OpenSpiel's ``tabular_qlearner.QLearner`` (epsilon-greedy Q-learning; numpy only, no
deep-learning library), trained through OpenSpiel's ``rl_environment.Environment`` on our registered game
in its sequential form (``robotable_tf22_reload_sequential``: the battle's secret choices one seat after
another, neither seeing the other's), one seat against the training opponents (``--opponents``, any arena
agents, default ``random``; several are met in turn), alternating seats 0 and 1. One learner and one
Q-table serve both seats (the planes are seat-relative); its rewards are zero-sum (win 1, loss -1).

A table over the full 724 observation values would never see a state twice, so the learner's
information state is a small abstraction of the seat's own feature planes (:func:`abstract`): in a battle
the stake (face values of the two revealed container cards), the seat's best RCU card and how many cards
it holds (0, 1, 2, 3 or more); when loading, the activated colour and which of the seat's slots are empty
or hold it. The trained learner then plays greedily, as the arena agent ``trained``, against ``random``
and ``heuristic`` in 2-player arena tournaments (every lineup equally often), and the script prints its win
rates with 95% intervals.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from open_spiel.python import rl_agent, rl_environment, rl_tools
from open_spiel.python.algorithms.tabular_qlearner import QLearner

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from robotable import games
from robotable.adapters import openspiel
from robotable.adapters._common import observation_array
from robotable.ai import AGENTS, Agent, Decision
from robotable.arena.tournament import Tournament, run_tournament
from robotable.core import Action

GAME = games.load("tf22-reload")
PLANES = {p.name: p for p in GAME.observation_encoder.planes}


def _plane(observation: np.ndarray, name: str) -> np.ndarray:
    plane = PLANES[name]
    return np.asarray(observation[plane.offset : plane.offset + plane.size]).reshape(plane.shape)


def abstract(observation: np.ndarray) -> str:
    """The learner's information state: a few features of one seat's own planes (relative seat 0 is the seat)."""
    phase = int(np.argmax(_plane(observation, "phase")))
    if phase == 1:  # load: where the activated container could go
        activated = int(np.argmax(_plane(observation, "activated")))
        ship = _plane(observation, "ship")[0]
        holds = "".join("1" if ship[slot, activated] > 0 else "0" for slot in range(ship.shape[0]))
        empty = "".join("1" if not ship[slot].any() else "0" for slot in range(ship.shape[0]))
        return f"load {activated} {holds} {empty}"
    hands = _plane(observation, "hand")
    revealed = _plane(observation, "revealed")  # per card: colour one-hot (4), face value one-hot (4)
    stake = int(sum(np.argmax(c[4:]) for c in revealed if c[4:].any()))
    best = int(np.flatnonzero(hands[0]).max()) + 1 if hands[0].any() else 0
    return f"battle {stake} {best} {min(int(hands[0].sum()), 3)}"


def seen_by(time_step: rl_environment.TimeStep, seat: int) -> rl_environment.TimeStep:
    """``time_step`` as the learner sees it: ``seat``'s abstraction, legal actions and reward, as player 0.

    Rewards become zero-sum (win 1, loss -1, draw 0) rather than OpenSpiel's constant-sum 1 / 0: a move
    that lost then scores below one never tried (0), so the learner keeps looking for better ones.
    """
    observations = time_step.observations
    return rl_environment.TimeStep(
        observations={
            "info_state": [abstract(np.asarray(observations["info_state"][seat]))],
            "legal_actions": [observations["legal_actions"][seat]],
            "current_player": 0,
        },
        rewards=None if time_step.rewards is None else [2.0 * time_step.rewards[seat] - 1.0],
        discounts=None,
        step_type=time_step.step_type,
    )


class ArenaOpponent(rl_agent.AbstractAgent):
    """A Robotable arena agent (``random``, ``heuristic``, ...) playing one seat of the OpenSpiel environment."""

    def __init__(self, env: rl_environment.Environment, player_id: int, name: str, seed: int) -> None:
        self.env, self.player_id, self.agent = env, player_id, AGENTS[name](seed)

    def step(self, time_step: rl_environment.TimeStep, is_evaluation: bool = False) -> rl_agent.StepOutput | None:
        if time_step.last():
            return None
        action = self.agent.act(self.env.get_state.robotable_state, self.player_id)
        return rl_agent.StepOutput(action=GAME.action_index(action), probs=None)


def train(
    episodes: int, seed: int, opponents: list[str], step_size: float, discount: float
) -> tuple[QLearner, list[float], int]:
    """Q-learning against the ``opponents`` in turn (and both seats): the learner, every episode's reward
    and how many abstract information states it met."""
    np.random.seed(seed)  # QLearner draws its exploration from numpy's global generator
    game = openspiel.load_game("tf22-reload", players=2, sequential=True)
    env = rl_environment.Environment(
        game,
        chance_event_sampler=rl_environment.ChanceEventSampler(seed),
        observation_type=rl_environment.ObservationType.OBSERVATION,
    )
    schedule = rl_tools.LinearSchedule(0.3, 0.02, max(1, episodes * 14))  # about 14 learner moves a game
    # One learner for both seats: it sees its seat as player 0 (``seen_by``); the planes are seat-relative.
    learner = QLearner(0, game.num_distinct_actions(), step_size, schedule, discount_factor=discount)
    lineups = [(seat, name) for name in opponents for seat in (0, 1)]
    rewards, states = [], set()
    for episode in range(episodes):
        seat, name = lineups[episode % len(lineups)]
        opponent = ArenaOpponent(env, 1 - seat, name, seed * 100_000 + episode)
        time_step = env.reset()
        while not time_step.last():
            if time_step.observations["current_player"] == seat:
                seen = seen_by(time_step, seat)
                states.add(seen.observations["info_state"][0])
                action = learner.step(seen).action
            else:
                action = opponent.step(time_step).action
            time_step = env.step([action])
        learner.step(seen_by(time_step, seat))  # the final update
        rewards.append(time_step.rewards[seat])
    return learner, rewards, len(states)


class QAgent(Agent):
    """The trained QLearner as a Robotable agent: greedy (``is_evaluation``) over the seat's view."""

    name = "trained"
    learner: QLearner | None = None

    def choose(self, decision: Decision) -> Action:
        assert self.learner is not None
        key = abstract(observation_array(GAME.observation_encoder, decision.view, decision.seat))
        by_index = {GAME.action_index(a): a for a in decision.legal}
        time_step = rl_environment.TimeStep(
            observations={"info_state": [key], "legal_actions": [list(by_index)], "current_player": 0},
            rewards=None,
            discounts=None,
            step_type=rl_environment.StepType.MID,
        )
        return by_index[self.learner.step(time_step, is_evaluation=True).action]


def evaluate(opponent: str, games_played: int, seed: int) -> dict:
    """The trained agent's row of a 2-player arena tournament against ``opponent``."""
    outcome = run_tournament(Tournament("tf22-reload", ("trained", opponent), players=2, games=games_played, seed=seed))
    return next(row for row in outcome.summary["agents"] if row["agent"] == "trained")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--games", type=int, default=200, help="arena games against each opponent")
    parser.add_argument("--lr", type=float, default=0.1, help="the QLearner's step size")
    parser.add_argument("--discount", type=float, default=0.9, help="the QLearner's discount factor")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--opponents", default="random", help="training opponents (arena agents), in turn, comma-separated"
    )
    args = parser.parse_args(argv)
    opponents = args.opponents.split(",")
    unknown = [name for name in opponents if name not in AGENTS]
    if unknown:
        parser.error(f"unknown opponent(s) {', '.join(unknown)}; known: {', '.join(sorted(AGENTS))}")
    started = time.perf_counter()
    learner, rewards, states = train(args.episodes, args.seed, opponents, args.lr, args.discount)
    tail = rewards[-max(1, len(rewards) // 5) :]
    print(
        f"trained {args.episodes} episodes in {time.perf_counter() - started:.0f} s; "
        f"mean reward over the last {len(tail)}: {np.mean(tail):.3f} (first {len(tail)}: "
        f"{np.mean(rewards[: len(tail)]):.3f}); {states} information states met"
    )
    QAgent.learner = learner
    AGENTS["trained"] = QAgent
    for opponent in ("random", "heuristic"):
        row = evaluate(opponent, args.games, args.seed)
        low, high = row["ci95"]
        print(
            f"trained vs {opponent}: win rate {row['win_rate']:.3f} "
            f"(95% CI {low:.3f}-{high:.3f}) over {row['games']} arena games"
        )


if __name__ == "__main__":
    main()
