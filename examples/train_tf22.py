"""Train a small agent on TF22: RELOAD! and measure it through the arena.

    python examples/train_tf22.py                       # about 3 minutes on one core
    python examples/train_tf22.py --episodes 200 --games 20     # a quick look

The agent is a linear softmax policy over the game's feature planes (724 values) with the legal-action
mask, trained by REINFORCE (policy gradient with a running-mean baseline) in the Gymnasium environment,
one seat against the training opponents (``--opponents``, default ``random``; several are met in turn),
alternating seats 0 and 1. It then plays greedily, as the arena agent ``trained``, against ``random``
and ``heuristic`` in 2-player arena tournaments (every lineup equally often), and the script prints its
win rates with 95% intervals. Plain numpy: this machine has no
deep-learning library; the same loop works with any (the observations are float32 arrays, the masks int8).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from robotable import games
from robotable.adapters._common import observation_array
from robotable.adapters.gymnasium import RobotableEnv
from robotable.ai import AGENTS, Agent, Decision
from robotable.arena.tournament import Tournament, run_tournament
from robotable.core import Action

GAME = games.load("tf22-reload")


class LinearPolicy:
    """Action logits ``W @ observation + b``; illegal actions masked out."""

    def __init__(self, features: int, actions: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.w = rng.normal(0.0, 0.01, (actions, features)).astype(np.float32)
        self.b = np.zeros(actions, np.float32)

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.w @ observation + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()


def train(policy: LinearPolicy, episodes: int, lr: float, seed: int, opponents: list[str]) -> list[float]:
    """REINFORCE against the ``opponents`` in turn (and both seats); returns every episode's reward."""
    envs = [RobotableEnv("tf22-reload", 2, seat=seat, opponents=spec) for spec in opponents for seat in (0, 1)]
    rng = np.random.default_rng(seed)
    baseline, rewards = 0.5, []
    for episode in range(episodes):
        env = envs[episode % len(envs)]
        obs, _ = env.reset(seed=seed * 100_000 + episode)
        steps, done, reward = [], False, 0.0
        while not done:
            p = policy.probabilities(obs["observation"], obs["action_mask"])
            action = int(rng.choice(len(p), p=p))
            steps.append((obs["observation"], p, action))
            obs, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        for observation, p, action in steps:
            grad = -p
            grad[action] += 1.0
            policy.w += lr * advantage * np.outer(grad, observation)
            policy.b += lr * advantage * grad
        rewards.append(reward)
    return rewards


class PolicyAgent(Agent):
    """The trained policy as a Robotable agent: greedy over the legal actions, from the seat's view."""

    name = "trained"
    policy: LinearPolicy | None = None

    def choose(self, decision: Decision) -> Action:
        assert self.policy is not None
        encoder = GAME.observation_encoder
        observation = observation_array(encoder, decision.view, decision.seat)
        by_index = {GAME.action_index(a): a for a in decision.legal}
        mask = np.zeros(GAME.num_distinct_actions(2), np.int8)
        mask[list(by_index)] = 1
        return by_index[int(np.argmax(self.policy.probabilities(observation, mask)))]


def evaluate(opponent: str, games_played: int, seed: int) -> dict:
    """The trained agent's row of a 2-player arena tournament against ``opponent``."""
    outcome = run_tournament(Tournament("tf22-reload", ("trained", opponent), players=2, games=games_played, seed=seed))
    return next(row for row in outcome.summary["agents"] if row["agent"] == "trained")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--games", type=int, default=200, help="arena games against each opponent")
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default="random", help="training opponents, in turn (comma-separated)")
    args = parser.parse_args(argv)
    encoder = GAME.observation_encoder
    policy = LinearPolicy(encoder.size, GAME.num_distinct_actions(2), args.seed)
    started = time.perf_counter()
    rewards = train(policy, args.episodes, args.lr, args.seed, args.opponents.split(","))
    tail = rewards[-max(1, len(rewards) // 5) :]
    print(
        f"trained {args.episodes} episodes in {time.perf_counter() - started:.0f} s; "
        f"mean reward over the last {len(tail)}: {np.mean(tail):.3f} (first {len(tail)}: "
        f"{np.mean(rewards[: len(tail)]):.3f})"
    )
    PolicyAgent.policy = policy
    AGENTS["trained"] = PolicyAgent
    for opponent in ("random", "heuristic"):
        row = evaluate(opponent, args.games, args.seed)
        low, high = row["ci95"]
        print(
            f"trained vs {opponent}: win rate {row['win_rate']:.3f} "
            f"(95% CI {low:.3f}-{high:.3f}) over {row['games']} arena games"
        )


if __name__ == "__main__":
    main()
