"""Information-set Monte Carlo tree search, for every game, through the contract alone.

Multiple-observer ISMCTS (Cowling, Powley & Whitehouse, 2012): each seat has its own tree over what *it*
observes. A seat's node branches on its own actions and then on what it sees happen (the events visible
to it), so a secret choice by another seat never splits that seat's tree: "seat 2 has chosen" is one
observation, whatever seat 2 chose. Every iteration samples a full state consistent with the searching
seat's knowledge (``determinize``), walks all trees down together choosing by UCB among the actions
available in that sample, adds one node, and finishes the game with a rollout policy.

Simultaneous choices (TF22: RELOAD!) are searched one seat after the other with the searching seat
first, which is sound because no seat observes another's choice before the reveal. Pending decisions are
ordinary decisions of the seat the game waits for.

>>> from robotable import games
>>> state = games.load("tf22-reload").start(2, seed=3)
>>> agent = ISMCTSAgent(seed=1, iterations=50)
>>> agent.act(state, 0) in state.legal_actions(0)
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from robotable.core import Action, Event, Rng, State

from . import heuristics
from .base import Agent, Decision

#: A rollout policy picks an action for ``seat`` in a (determinized) state from its legal actions.
RolloutPolicy = Callable[[State, int, Sequence[Action], Rng], Action]
#: An evaluator gives every seat's expected reward in [0, 1] for a state where a rollout stops early.
Evaluator = Callable[[State], list[float]]

#: Difficulty levels: iterations per decision, rollout length before the evaluator takes over, and how
#: often another seat inside the tree plays the game's opponent model (its heuristic) rather than UCB.
#: A game's heuristics module may override them with its own ``LEVELS`` dict (same keys, per level),
#: applied when the agent first meets that game.
LEVELS: dict[str, dict[str, float]] = {
    "easy": {"iterations": 60, "rollout_depth": 8, "model_opponents": 0.5},
    "medium": {"iterations": 250, "rollout_depth": 16, "model_opponents": 0.7},
    "hard": {"iterations": 700, "rollout_depth": 24, "model_opponents": 0.7},
}


def random_policy(state: State, seat: int, legal: Sequence[Action], rng: Rng) -> Action:
    """Uniformly random rollouts."""
    return legal[rng.randrange(len(legal))]


class _InfoNode:
    """A seat's information set: edges for its own actions, children for what it sees others do."""

    __slots__ = ("actions", "observed")

    def __init__(self) -> None:
        self.actions: dict[Action, _Edge] = {}
        self.observed: dict[tuple, _InfoNode] = {}


class _Edge:
    """One action from an information set: visits, total reward, availability, then what was seen."""

    __slots__ = ("avail", "outcomes", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.outcomes: dict[tuple, _InfoNode] = {}


def _observation(events: list[Event], seat: int) -> tuple:
    return tuple((e.type, repr(e.data)) for e in events if e.audience is None or seat in e.audience)


def rank_rewards(state: State) -> list[float]:
    """Each seat's share of the other seats it beat (a tie counts half): 1 for a sole win, 0 for last."""
    ranks = state.result().ranks
    n = len(ranks)
    if n == 1:
        return [1.0]
    return [
        sum(1.0 if ranks[s] < ranks[o] else 0.5 if ranks[s] == ranks[o] else 0.0 for o in range(n) if o != s) / (n - 1)
        for s in range(n)
    ]


class ISMCTSAgent(Agent):
    """Searches ``iterations`` determinizations (or for ``seconds``), then plays the most visited action."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = 1000,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout: RolloutPolicy | None = None,
        evaluator: Evaluator | None = None,
        rollout_depth: int | None = None,
        model_opponents: float = 0.0,
    ) -> None:
        """``rollout``/``evaluator`` default to the game's heuristics (random rollouts to the end if none);
        ``rollout_depth`` stops a rollout after that many actions and asks the evaluator;
        ``model_opponents`` is the probability that another seat, inside the tree, plays the game's
        opponent model (its heuristic) instead of its own UCB choice."""
        super().__init__(seed)
        if iterations is None and seconds is None:
            raise ValueError("a search needs a budget: iterations, seconds or both")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self._rollout = rollout
        self._evaluator = evaluator
        self.rollout_depth = rollout_depth
        self.model_opponents = model_opponents
        self._game: str | None = None
        self._level: str | None = None

    @classmethod
    def level(cls, name: str, seed: int | None = None) -> ISMCTSAgent:
        """An agent at a difficulty level: ``easy``, ``medium`` or ``hard``."""
        agent = cls(seed, **LEVELS[name])  # type: ignore[arg-type]
        agent.name = f"ismcts:{name}"
        agent._level = name
        return agent

    def _bind(self, game_id: str) -> None:
        """Take the game's rollout policy and evaluator (once per game)."""
        if self._game == game_id:
            return
        self._game = game_id
        module = heuristics.for_game(game_id)
        if self._level is not None:  # the level's budgets, or the game's own for this level
            params = {**LEVELS[self._level], **getattr(module, "LEVELS", {}).get(self._level, {})}
            self.iterations = params["iterations"]  # type: ignore[assignment]
            self.rollout_depth = params["rollout_depth"]  # type: ignore[assignment]
            self.model_opponents = params["model_opponents"]
        self.rollout = self._rollout or getattr(module, "rollout", random_policy)
        self.evaluator = self._evaluator or getattr(module, "evaluate", None)
        self.model = getattr(module, "model", None) if self.model_opponents > 0 else None

    def choose(self, decision: Decision) -> Action:
        if len(decision.legal) == 1:
            return decision.legal[0]
        self._bind(decision.game)
        roots: dict[int, _InfoNode] = {}
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else math.inf
        done = 0
        while (self.iterations is None or done < self.iterations) and (done == 0 or time.perf_counter() < deadline):
            sample = decision.sample(self.rng)
            sample.reopen_choices(decision.seat)  # others' secret choices are searched, not guessed
            self._iterate(sample, roots, decision.seat)
            done += 1
        edges = roots[decision.seat].actions
        return max(
            decision.legal,
            key=lambda a: (edges[a].visits, edges[a].total) if a in edges else (-1, 0.0),
        )

    def _iterate(self, state: State, roots: dict[int, _InfoNode], me: int) -> None:
        rng = self.rng
        n = state.num_players
        current = [roots.setdefault(seat, _InfoNode()) for seat in range(n)]
        path: list[tuple[int, _Edge]] = []
        while not state.is_over():
            waiting = state.to_act()
            seat = me if me in waiting else waiting[0]
            legal = state.legal_actions(seat)
            node = current[seat]
            untried = [a for a in legal if a not in node.actions]
            for a in legal:
                edge = node.actions.get(a)
                if edge is not None:
                    edge.avail += 1
            if seat != me and self.model is not None and rng.random() < self.model_opponents:
                action = self.model(state, seat, legal, rng)
                edge = node.actions.get(action)
                if edge is None:
                    edge = node.actions[action] = _Edge()
                else:
                    untried = []
            elif untried:
                action = untried[rng.randrange(len(untried))]
                edge = node.actions[action] = _Edge()
            else:
                action, edge = self._select(node, legal)
            events = state.apply_legal(seat, action)
            path.append((seat, edge))
            for other in range(n):
                seen = _observation(events, other)
                if other == seat:
                    child = edge.outcomes.get(seen)
                    if child is None:
                        child = edge.outcomes[seen] = _InfoNode()
                else:
                    child = current[other].observed.get(seen)
                    if child is None:
                        child = current[other].observed[seen] = _InfoNode()
                current[other] = child
            if untried:
                break
        rewards = self._finish(state)
        for seat, edge in path:
            edge.visits += 1
            edge.total += rewards[seat]

    def _finish(self, state: State) -> list[float]:
        """Roll out to the end (or ``rollout_depth`` actions, then evaluate): each seat's reward."""
        rng, policy = self.rng, self.rollout
        depth = self.rollout_depth if self.evaluator is not None and self.rollout_depth is not None else -1
        while not state.is_over():
            if depth == 0:
                return self.evaluator(state)  # type: ignore[misc]
            depth -= 1
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            state.apply_legal(seat, policy(state, seat, legal, rng) if len(legal) > 1 else legal[0])
        return rank_rewards(state)

    def _select(self, node: _InfoNode, legal: Sequence[Action]) -> tuple[Action, _Edge]:
        best, best_edge, best_score = legal[0], node.actions[legal[0]], -math.inf
        c = self.exploration
        for action in legal:
            edge = node.actions[action]
            score = edge.total / edge.visits + c * math.sqrt(math.log(edge.avail) / edge.visits)
            if score > best_score:
                best, best_edge, best_score = action, edge, score
        return best, best_edge
