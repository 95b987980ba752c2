"""OpenSpiel's MCTSBot against its ISMCTSBot at equal simulations on TF22: RELOAD! (issue 31).

MCTSBot searches by cloning the true state. Here the game is the sequential form with explicit chance
(every hidden draw a chance node, the default) and ``safe_clones=1``: a clone made at a seat's decision
is a sample of that seat's information state, so the search cannot read the other seat's committed
battle choice or the stack. ISMCTSBot samples the same way through ``resample_from_infostate``. Both use
random rollouts and the same number of simulations; seats alternate. For reference the same match is
also played without ``safe_clones`` (MCTSBot then searches the true state, the leak issue 31 reported).

``--opponent sampled`` plays MCTSBot against the same MCTSBot searching a state drawn by
``resample_from_infostate`` at each decision (one determinization): the same search, so what is left
between them is what MCTSBot's own clone tells it beyond a fair sample of its information state: about
even with ``safe_clones=1``, the leak without it.

    python benchmarks/mcts_vs_ismcts.py --games 100 --simulations 8
    python benchmarks/mcts_vs_ismcts.py --games 100 --simulations 3 --opponent sampled
"""

from __future__ import annotations

import argparse
import math
import random
import time

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from robotable.adapters import openspiel as ros


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


#: How each opponent is named in the score lines.
OPPONENTS = {"ismcts": "ISMCTSBot", "sampled": "MCTSBot-on-a-sample"}


class SampledMCTS:
    """MCTSBot searching a sample of the seat's information state (``resample_from_infostate``)."""

    def __init__(self, bot: mcts.MCTSBot, rs: np.random.RandomState) -> None:
        self.bot, self.rs = bot, rs

    def step(self, state: ros.RobotableSpielState) -> int:
        return self.bot.step(state.resample_from_infostate(state.current_player(), self.rs.random_sample))


def match(games: int, simulations: int, safe: int, seed: int, opponent: str = "ismcts") -> tuple[float, float]:
    """MCTSBot's and its opponent's total payoffs over ``games`` 2-player games, seats alternating."""
    game = ros.load_game("tf22-reload", players=2, sequential=True, safe_clones=safe)
    totals = [0.0, 0.0]
    for g in range(games):
        rs = np.random.RandomState(seed + g)
        evaluator = mcts.RandomRolloutEvaluator(1, rs)
        other: ismcts.ISMCTSBot | SampledMCTS = (
            ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rs)
            if opponent == "ismcts"
            else SampledMCTS(mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rs), rs)
        )
        bots = [mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rs), other]
        seats = [0, 1] if g % 2 == 0 else [1, 0]  # seats[k]: the seat of bot k
        state = ros.seeded_state(game, seed + g)
        chance = random.Random(seed + g)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(chance.choices(outcomes, probs)[0])
                continue
            bot = bots[seats.index(state.current_player())]
            state.apply_action(bot.step(state))
        returns = state.returns()
        for k in range(2):
            totals[k] += returns[seats[k]]
        if (g + 1) % 10 == 0:
            print(
                f"  safe_clones={safe}: after {g + 1} games "
                f"MCTSBot {totals[0]:.1f}, {OPPONENTS[opponent]} {totals[1]:.1f}",
                flush=True,
            )
    return totals[0], totals[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--reference-games", type=int, default=40, help="games of the unsafe reference match")
    parser.add_argument("--simulations", type=int, default=8)
    parser.add_argument("--seed", type=int, default=31000)
    parser.add_argument(
        "--opponent", choices=list(OPPONENTS), default="ismcts", help="ISMCTSBot, or MCTSBot on a sample"
    )
    args = parser.parse_args()
    for safe, games in ((1, args.games), (0, args.reference_games)):
        if games <= 0:
            continue
        start = time.perf_counter()
        mcts_score, other_score = match(games, args.simulations, safe, args.seed, args.opponent)
        low, high = wilson(mcts_score, games)
        print(
            f"safe_clones={safe}: {games} games, {args.simulations} simulations each: MCTSBot {mcts_score:.1f}, "
            f"{OPPONENTS[args.opponent]} {other_score:.1f}; MCTSBot's share {mcts_score / games:.3f} "
            f"(95% CI {low:.3f}-{high:.3f}); {time.perf_counter() - start:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
