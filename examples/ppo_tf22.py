"""Maskable PPO (sb3-contrib) on TF22: RELOAD! against the heuristic, with its learning curve.

    pip install -e ".[research,ppo]"          # torch (CPU) and sb3-contrib: the ppo extra
    python examples/ppo_tf22.py               # about 10 minutes of CPU; the curve in docs/ppo_tf22.png
    python examples/ppo_tf22.py --timesteps 4096 --checkpoints 2 --eval-games 10 --curve /tmp/c.png  # a look

The learner is sb3-contrib's ``MaskablePPO`` (PPO whose policy gives illegal actions no probability; an
MLP over the game's 724 feature planes) on the Gymnasium environment ``RobotableEnv("tf22-reload", 2,
seat, opponents="heuristic")``: one seat is trained, the other is the project's heuristic, choosing from
its own view exactly as in the arena. Four environments are stepped in turn (seats 0, 1, 0, 1), so the
policy plays both seats (the planes are seat-relative). The reward is the game's payoff (1 for a win,
1/2 each for a shared win, 0 for a loss) at the end.

At ``--checkpoints`` points of the training, the current policy plays greedily (the most probable legal
action) as the arena agent ``ppo`` in a 2-player arena tournament against ``heuristic`` (``--eval-games``
games, both seat orders equally often, the same seed at every checkpoint), and its win rate with a 95%
Wilson interval is a point of the learning curve; the curve (and the mean training reward of the
environments' last 100 episodes) is drawn with matplotlib into ``--curve``. At the end the final policy
plays ``--final-games`` arena games against ``heuristic`` and against ``random``. The figures of a run
are in docs/research.md ("Baselines").

Everything but training imports without torch (:class:`MaskedSeat`, :class:`PolicyAgent`,
:func:`evaluate`, :func:`plot_curve`), so the wiring is tested where torch is not installed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from robotable import games
from robotable.adapters._common import observation_array
from robotable.adapters.gymnasium import RobotableEnv
from robotable.ai import AGENTS, Agent, Decision
from robotable.arena.tournament import Tournament, run_tournament
from robotable.core import Action

GAME = games.load("tf22-reload")
ROOT = Path(__file__).resolve().parent.parent
#: What the example needs beyond the research extra (the ``ppo`` extra of pyproject.toml).
MISSING = 'examples/ppo_tf22.py needs torch and sb3-contrib: pip install -e ".[research,ppo]"'

#: A policy: (observation planes, boolean legal mask) -> the chosen action index.
Policy = Callable[[np.ndarray, np.ndarray], int]


class MaskedSeat(gym.Wrapper):
    """``RobotableEnv`` as MaskablePPO takes it: the planes as the observation, the mask by
    ``action_masks()`` (a boolean vector over the 79 action indices)."""

    def __init__(self, env: RobotableEnv) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]
        self._mask = np.zeros(env.action_space.n, np.bool_)

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self._mask = obs["action_mask"].astype(np.bool_)
        return obs["observation"], info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._mask = obs["action_mask"].astype(np.bool_)
        return obs["observation"], reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self._mask


def make_env(seat: int, opponent: str = "heuristic") -> MaskedSeat:
    return MaskedSeat(RobotableEnv("tf22-reload", num_players=2, seat=seat, opponents=opponent))


class PolicyAgent(Agent):
    """A policy as the arena agent ``ppo``: it sees the seat's planes and legal mask, nothing else."""

    name = "ppo"
    policy: Policy | None = None

    def choose(self, decision: Decision) -> Action:
        assert self.policy is not None, "set PolicyAgent.policy first"
        by_index = {GAME.action_index(a): a for a in decision.legal}
        mask = np.zeros(GAME.num_distinct_actions(2, {}), np.bool_)
        mask[list(by_index)] = True
        planes = observation_array(GAME.observation_encoder, decision.view, decision.seat)
        return by_index[int(self.policy(planes, mask))]


def evaluate(policy: Policy, opponent: str, games_played: int, seed: int) -> dict[str, Any]:
    """``policy``'s row of a 2-player arena tournament against ``opponent`` (win rate, ci95, games)."""
    PolicyAgent.policy = staticmethod(policy)  # the arena makes the agents; they share the policy
    AGENTS["ppo"] = PolicyAgent
    outcome = run_tournament(Tournament("tf22-reload", ("ppo", opponent), players=2, games=games_played, seed=seed))
    return next(row for row in outcome.summary["agents"] if row["agent"] == "ppo")


def plot_curve(points: list[dict[str, float]], path: Path, title: str) -> None:
    """The learning curve: win rate against the heuristic (95% interval) and mean training reward."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [p["timesteps"] for p in points]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    ax.plot(steps, [p["win_rate"] for p in points], "o-", label="arena win rate vs heuristic (greedy)")
    ax.fill_between(steps, [p["low"] for p in points], [p["high"] for p in points], alpha=0.25, label="95% CI")
    rewards = [(p["timesteps"], p["train_reward"]) for p in points if p.get("train_reward") is not None]
    if rewards:
        ax.plot(*zip(*rewards), "s--", label="mean training reward (last 100 episodes)")
    ax.set_xlabel("training timesteps (decisions of the trained seat)")
    ax.set_ylabel("win rate / reward")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def train(args: argparse.Namespace) -> None:
    """Train, measuring the curve at every checkpoint; print each point and the final evaluation."""
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor
    except ImportError:
        raise SystemExit(MISSING) from None
    torch.set_num_threads(1)  # one core: the machine is shared, and a small MLP gains little from more
    env = VecMonitor(DummyVecEnv([lambda seat=seat: make_env(seat) for seat in (0, 1, 0, 1)]))
    env.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        learning_rate=args.lr,
        n_steps=512,
        batch_size=256,
        n_epochs=10,
        gamma=0.99,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        device="cpu",
    )

    def greedy(planes: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(planes, action_masks=mask, deterministic=True)
        return int(action)

    points: list[dict[str, float]] = []
    started, cpu = time.perf_counter(), time.process_time()
    per_checkpoint = args.timesteps // args.checkpoints
    for checkpoint in range(args.checkpoints + 1):
        if checkpoint:
            model.learn(per_checkpoint, reset_num_timesteps=False)
        row = evaluate(greedy, "heuristic", args.eval_games, args.seed)
        low, high = row["ci95"]
        episodes = [e["r"] for e in model.ep_info_buffer] if model.ep_info_buffer else []
        point = {
            "timesteps": float(model.num_timesteps),
            "win_rate": row["win_rate"],
            "low": low,
            "high": high,
            "train_reward": float(np.mean(episodes)) if episodes else None,
        }
        points.append(point)
        reward = "-" if point["train_reward"] is None else f"{point['train_reward']:.3f}"
        print(
            f"{model.num_timesteps:>7} timesteps: vs heuristic {row['win_rate']:.3f} ({low:.3f}-{high:.3f}) "
            f"over {row['games']} games; training reward {reward}; CPU {time.process_time() - cpu:.0f} s, "
            f"wall {time.perf_counter() - started:.0f} s",
            flush=True,
        )
    plot_curve(points, args.curve, f"MaskablePPO on TF22: RELOAD! (2 players) vs heuristic, seed {args.seed}")
    print(f"curve: {args.curve}")
    for opponent in ("heuristic", "random"):
        row = evaluate(greedy, opponent, args.final_games, args.seed + 1)
        low, high = row["ci95"]
        rate = f"win rate {row['win_rate']:.3f} (95% CI {low:.3f}-{high:.3f})"
        print(f"ppo vs {opponent}: {rate} over {row['games']} arena games")
    print(f"CPU {time.process_time() - cpu:.0f} s, wall {time.perf_counter() - started:.0f} s in all")
    if args.save:
        model.save(args.save)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=100_000, help="training timesteps in all")
    parser.add_argument("--checkpoints", type=int, default=5, help="points of the learning curve after the start")
    parser.add_argument("--eval-games", type=int, default=100, help="arena games vs heuristic per checkpoint")
    parser.add_argument("--final-games", type=int, default=200, help="arena games vs each opponent at the end")
    parser.add_argument("--lr", type=float, default=3e-4, help="Adam learning rate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--curve", type=Path, default=ROOT / "docs" / "ppo_tf22.png", help="the PNG written")
    parser.add_argument("--save", type=Path, default=None, help="save the trained model here (.zip)")
    args = parser.parse_args(argv)
    if args.timesteps < 1 or args.checkpoints < 1 or args.eval_games < 2 or args.final_games < 2:
        parser.error("--timesteps and --checkpoints must be at least 1, --eval-games and --final-games at least 2")
    train(args)


if __name__ == "__main__":
    main()
