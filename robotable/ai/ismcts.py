"""Information-set Monte Carlo tree search, for every game, through the contract alone.

Multiple-observer ISMCTS (Cowling, Powley & Whitehouse, 2012): each seat has its own tree over what *it*
observes. A seat's node branches on its own actions and then on what it sees happen (the events visible
to it), so a secret choice by another seat never splits that seat's tree: "seat 2 has chosen" is one
observation, whatever seat 2 chose. Every iteration samples a full state consistent with the searching
seat's knowledge (``determinize``), walks all trees down together choosing by UCB among the actions
available in that sample, adds one node, and finishes the game with a rollout policy.

Where a decision lists dozens of actions (a Twin Tin Bots programming change, a Robots on the Line
turn), a few hundred iterations spread over all of them leave each a handful of samples. A game's
levels may then *guide the root*: search only ``root_width`` candidates (the heuristic agent's choice,
then the others by the evaluator one action ahead), favour the heuristic's choice by progressive bias
(``guide_bias``), and play rollouts with the heuristic itself (``model_rollouts``). A game's heuristics
module may also ``prune`` actions search never needs (Robots on the Line: switch flips but the
heuristic's, since flipping back and forth is free of limits). A level may replace the tree at the root
by a *paired* comparison of its candidates (``paired``): all played on the same determinizations with
the same rollout seeds (common random numbers), so a few samples tell apart moves a few dollars apart.

Simultaneous choices (TF22: RELOAD!) are searched one seat after the other with the searching seat
first, which is sound because no seat observes another's choice before the reveal. Pending decisions are
ordinary decisions of the seat the game waits for.

Every opponent counts (max^n backups): an iteration ends with one reward per seat (its share of the
other seats it beat, :func:`rank_rewards`, or the game's evaluator, both per seat), and each edge on the
path adds the reward *of the seat that chose it*. So in every seat's tree each seat is expected to play
for its own result, as in max^n (Sturtevant's multiplayer MCTS comparisons), not against the searching
seat alone (paranoid: every other seat a single coalition minimising ours) nor as a 2-player search with
extra seats. ``model_opponents`` replaces a seat's own choice by the game's opponent model, seat by seat.

Budgets: a level's parameters give ``iterations`` and ``seconds``. ``seconds`` is the level's thinking
budget per decision in the deciding thread's CPU time (``time.thread_time``: a loaded machine slows the
search down but does not weaken it); ``iterations`` is what that budget buys on the reference machine,
used when a run asks for a reproducible budget (``budget="iterations"``: tests, ``robotable arena
--budget iterations``). ``max_wall`` caps every decision in wall-clock time (default 1.8 s for hard), so a
busy machine cuts the search short rather than keeping a table waiting. Both clocks are injectable.

>>> from robotable import games
>>> state = games.load("tf22-reload").start(2, seed=3)
>>> agent = ISMCTSAgent(seed=1, iterations=50)
>>> agent.act(state, 0) in state.legal_actions(0)
True
"""

from __future__ import annotations

import functools
import inspect
import math
import time
from collections.abc import Callable, Sequence
from typing import cast

from robotable.core import Action, Event, Rng, State

from . import heuristics
from .base import Agent, Decision

#: A rollout policy picks an action for ``seat`` in a (determinized) state from its legal actions.
RolloutPolicy = Callable[[State, int, Sequence[Action], Rng], Action]
#: An evaluator gives every seat's expected reward in [0, 1] for a state where a rollout stops early.
Evaluator = Callable[[State], list[float]]

#: CPU seconds per decision of the default levels: what their iterations cost on the reference machine
#: (2 cores), the median over the three games at 2 players of each game's median decision (easy 0.012-
#: 0.079 s, medium 0.071-0.678 s, hard 0.255-3.03 s; see docs/ai.md).
SECONDS_EASY, SECONDS_MEDIUM, SECONDS_HARD = 0.05, 0.4, 1.4

#: Difficulty levels: the thinking budget per decision (``seconds`` of the deciding thread's CPU time, and
#: ``iterations``, what those seconds buy on the reference machine, for reproducible runs), the wall-clock
#: cap of a decision (``max_wall``), rollout length before the evaluator takes over, and how often another
#: seat inside the tree plays the game's opponent model (its heuristic) rather than UCB. A game's
#: heuristics module may override them with its own ``LEVELS`` dict (same keys, per level), applied when
#: the agent first meets that game (see :func:`level_params`).
LEVELS: dict[str, dict[str, float]] = {
    "easy": {
        "iterations": 60,
        "seconds": SECONDS_EASY,
        "max_wall": 0.6,
        "rollout_depth": 8,
        "model_opponents": 0.5,
        "root_width": 0,
    },
    "medium": {
        "iterations": 250,
        "seconds": SECONDS_MEDIUM,
        "max_wall": 1.2,
        "rollout_depth": 16,
        "model_opponents": 0.7,
        "root_width": 0,
    },
    "hard": {
        "iterations": 700,
        "seconds": SECONDS_HARD,
        "max_wall": 1.8,
        "rollout_depth": 24,
        "model_opponents": 0.7,
        "root_width": 0,
    },
}
#: How a level's budget is counted: by ``time`` (its ``seconds``, as people play) or by ``iterations``
#: (reproducible: the same seed gives the same move on any machine, under any load).
BUDGETS = ("time", "iterations")


def level_params(game_id: str | None, name: str) -> dict[str, float]:
    """A level's parameters for a game: the default level's, overridden by the game's ``LEVELS`` entry.

    A game entry that sets ``iterations`` without ``seconds`` does not inherit the default level's
    ``seconds`` (those are what the default iterations cost, not the game's): it gets no ``seconds``, and
    a time budget then thinks the entry's ``iterations`` (still within ``max_wall``). ``max_wall`` and the
    search parameters fall back to the default level's.
    """
    if name not in LEVELS:
        raise KeyError(f"unknown level {name!r} (one of {', '.join(LEVELS)})")
    module = heuristics.for_game(game_id) if game_id is not None else None
    entry = dict(getattr(module, "LEVELS", {}).get(name, {}))
    params = {**LEVELS[name], **entry}
    if "iterations" in entry and "seconds" not in entry:
        params.pop("seconds", None)
    return params


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


def _descend(current: list[_InfoNode], seat: int, edge: _Edge, events: list[Event]) -> None:
    """Move every seat's current node on by what it saw: ``seat`` along its ``edge``, the others along
    their observation of the events."""
    for other in range(len(current)):
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


def _paired_gain(values: list[float], base: list[float]) -> tuple[float, float]:
    """The mean of ``values[i] - base[i]`` over the samples both have, and its standard error."""
    diffs = [v - b for v, b in zip(values, base, strict=False)]
    n = len(diffs)
    if n < 2:
        return (diffs[0] if diffs else 0.0), math.inf
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


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
    """Searches until its budget is spent (``iterations``, ``seconds`` of CPU time, ``max_wall`` seconds
    of wall-clock time: whichever comes first), then plays the most visited action."""

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
        root_width: int = 0,
        guide_bias: float = 0.0,
        model_rollouts: float = 0.0,
        paired: int = 0,
        paired_z: float = 2.0,
        paired_gain: float = 0.0,
        max_wall: float | None = None,
        cpu_clock: Callable[[], float] = time.thread_time,
        wall_clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``iterations`` caps the determinizations searched per decision; ``seconds`` the deciding
        thread's CPU time (``cpu_clock``, default ``time.thread_time``); ``max_wall`` the wall-clock time
        (``wall_clock``, default ``time.monotonic``). ``None`` leaves that limit out; at least one of
        ``iterations`` and ``seconds`` is needed. The budget includes choosing the root's candidates, and
        one iteration always runs.

        ``rollout``/``evaluator`` default to the game's heuristics (random rollouts to the end if none);
        ``rollout_depth`` stops a rollout after that many actions and asks the evaluator;
        ``model_opponents`` is the probability that another seat, inside the tree, plays the game's
        opponent model (its heuristic) instead of its own UCB choice; ``root_width`` > 0 searches only
        that many of the root's actions: the heuristic agent's choice first, then the best of the others
        by the evaluator one action ahead (see :meth:`candidates`); ``guide_bias`` adds
        ``guide_bias / (visits + 1)`` to the heuristic's choice at the root (progressive bias), so the
        search leaves the heuristic's move only for one it finds clearly better; ``model_rollouts`` is the
        probability that a rollout step plays the opponent model (the heuristic) instead of ``rollout``.

        ``paired`` > 0 replaces the tree at the root by a paired comparison of the root's candidates
        (see :meth:`_paired`): every candidate is played on the same determinizations with the same
        rollout seeds, the weakest are dropped after ``paired`` samples, and the search leaves the
        heuristic's choice only for a candidate whose mean paired gain exceeds ``paired_gain`` and
        ``paired_z`` standard errors.

        A level's ``battle_solve`` > 0 (with ``battle_depth`` and ``battle_respond``), in a game whose
        heuristics module has ``battle_solve`` (TF22), hands each decision to that solver first; where it
        answers ``None`` (a load, or a table it does not solve) the search decides."""
        super().__init__(seed)
        if iterations is None and seconds is None:
            raise ValueError("a search needs a budget: iterations, seconds or both")
        self.iterations = iterations
        self.seconds = seconds
        self.max_wall = max_wall
        #: A wall-clock cap set by whoever runs the agent (a server's bot worker), over the level's own
        #: ``max_wall``: the lower of the two applies.
        self.wall_cap: float | None = None
        self.cpu_clock = cpu_clock
        self.wall_clock = wall_clock
        self.exploration = exploration
        self._rollout = rollout
        self._evaluator = evaluator
        self.rollout_depth = rollout_depth
        self.model_opponents = model_opponents
        self.root_width = root_width
        self.guide_bias = guide_bias
        self.model_rollouts = model_rollouts
        self.paired = paired
        self.paired_z = paired_z
        self.paired_gain = paired_gain
        #: ``battle_solve`` > 0 (a level's, for a game whose heuristics module has ``battle_solve``): a
        #: simultaneous battle is decided by that solver with so many samples instead of the tree.
        self.battle_samples, self.battle_depth, self.battle_respond = 0, -1, False
        self.solver: Callable[..., Action | None] | None = None
        #: A level's keywords for the game's evaluator: its ``evaluate_<name>`` parameters, passed as
        #: ``evaluate(state, <name>=...)`` (``evaluate_scale``: how many points make a clear edge).
        self.evaluate_params: dict[str, float] = {}
        self._game: str | None = None
        self._level: str | None = None
        self.budget: str | None = None
        self._wall_override: float | None = None
        #: The wall-clock deadline of the decision being searched (rollouts past it evaluate at once).
        self._wall_deadline = math.inf
        #: The last search: ``iterations`` run, ``cpu`` and ``wall`` seconds spent, and what stopped it
        #: (``iterations``, ``seconds``, ``max_wall``, or ``single`` for a forced move).
        self.last_search: dict[str, float | int | str] = {}

    @classmethod
    def level(
        cls,
        name: str,
        seed: int | None = None,
        budget: str = "iterations",
        max_wall: float | None = None,
        cpu_clock: Callable[[], float] = time.thread_time,
        wall_clock: Callable[[], float] = time.monotonic,
    ) -> ISMCTSAgent:
        """An agent at a difficulty level (``easy``, ``medium`` or ``hard``) with the game's parameters
        for it. ``budget="time"`` thinks the level's ``seconds`` of CPU time within its ``max_wall`` (as
        people play); ``budget="iterations"`` (the default: reproducible) its ``iterations``, with no
        clock involved. ``max_wall`` replaces the level's wall-clock cap (a turn-based table may let
        the level think longer; with an iteration budget it adds a cap)."""
        if budget not in BUDGETS:
            raise ValueError(f"budget must be one of {', '.join(BUDGETS)}, got {budget!r}")
        params = level_params(None, name)
        agent = cls(seed, cpu_clock=cpu_clock, wall_clock=wall_clock)
        agent.name = f"ismcts:{name}"
        agent._level = name
        agent.budget = budget
        agent._wall_override = max_wall
        agent._apply_level(params)
        return agent

    def _apply_level(self, params: dict[str, float]) -> None:
        """Take a level's parameters (:func:`level_params`) under this agent's budget."""
        seconds = params.get("seconds")
        if self.budget == "time" and seconds is not None:
            self.iterations, self.seconds = None, float(seconds)
        else:  # reproducible, or a game entry without seconds: its iterations (see level_params)
            self.iterations, self.seconds = int(params["iterations"]), None
        wall = self._wall_override if self._wall_override is not None else params.get("max_wall")
        self.max_wall = float(wall) if wall is not None and (self.budget == "time" or self._wall_override) else None
        self.rollout_depth = int(params["rollout_depth"])
        self.model_opponents = params["model_opponents"]
        self.root_width = int(params.get("root_width", 0))
        self.guide_bias = params.get("guide_bias", 0.0)
        self.model_rollouts = params.get("model_rollouts", 0.0)
        self.paired = int(params.get("paired", 0))
        self.paired_z = params.get("paired_z", 2.0)
        self.paired_gain = params.get("paired_gain", 0.0)
        self.battle_samples = int(params.get("battle_solve", 0))
        self.battle_depth = int(params.get("battle_depth", -1))
        self.battle_respond = bool(params.get("battle_respond", 0))
        self.evaluate_params = {
            key.removeprefix("evaluate_"): float(value) for key, value in params.items() if key.startswith("evaluate_")
        }

    def _bind(self, game_id: str) -> None:
        """Take the game's rollout policy and evaluator (once per game)."""
        if self._game == game_id:
            return
        self._game = game_id
        module = heuristics.for_game(game_id)
        if self._level is not None:  # the level's budgets, or the game's own for this level
            self._apply_level(level_params(game_id, self._level))
        self.rollout = self._rollout or getattr(module, "rollout", random_policy)
        self.evaluator = self._evaluator or getattr(module, "evaluate", None)
        if self._evaluator is None and self.evaluator is not None and self.evaluate_params:
            # a level's ``evaluate_<name>``: the game's evaluator takes it as ``<name>`` (``scale``: how
            # many points make a clear edge); a game whose evaluator has no such keyword rejects the level
            known = inspect.signature(self.evaluator).parameters
            for name in self.evaluate_params:
                if name not in known:
                    raise ValueError(f"{game_id}'s evaluate takes no {name}, so a level cannot set evaluate_{name}")
            tunable = cast(Callable[..., list[float]], self.evaluator)
            self.evaluator = functools.partial(tunable, **self.evaluate_params)
        self.model = getattr(module, "model", None) if self.model_opponents > 0 or self.model_rollouts > 0 else None
        self.guide = getattr(module, "choose", None)
        self.prune = getattr(module, "prune", None)
        self.solver = getattr(module, "battle_solve", None) if self.battle_samples > 0 else None

    def choose(self, decision: Decision) -> Action:
        if len(decision.legal) == 1:
            self.last_search = {"iterations": 0, "cpu": 0.0, "wall": 0.0, "stopped_by": "single"}
            return decision.legal[0]
        cpu, wall = self.cpu_clock, self.wall_clock
        cpu_start, wall_start = cpu(), wall()
        self._bind(decision.game)
        walls = [w for w in (self.max_wall, self.wall_cap) if w is not None]
        if self.solver is not None:
            cap = wall_start + min(walls) if walls else math.inf
            stop = (lambda: wall() >= cap) if walls else None
            solved = self.solver(
                decision, self.rng, self.battle_samples, self.battle_depth, self.battle_respond, stop=stop
            )
            if solved is not None:
                self.last_search = {
                    "iterations": self.battle_samples,
                    "cpu": cpu() - cpu_start,
                    "wall": wall() - wall_start,
                    "stopped_by": "solved",
                }
                return solved
        cpu_deadline = cpu_start + self.seconds if self.seconds is not None else math.inf
        wall_deadline = wall_start + min(walls) if walls else math.inf
        self._wall_deadline = wall_deadline
        roots: dict[int, _InfoNode] = {}
        width, allowed, guided, fallback = self.root_width, None, None, None
        if 0 < width < len(decision.legal) or self.guide_bias > 0:  # (else every action is searched)
            ranked = self.candidates(decision, wall_deadline)
            allowed = set(ranked[:width]) if 0 < width < len(ranked) else None
            guided = ranked[0] if self.guide is not None and self.guide_bias > 0 else None
            fallback = ranked[0]  # played if the wall cap passes before the first iteration
            if self.paired > 0 and guided is not None and width > 1:
                return self._paired(decision, ranked[:width], cpu_deadline, wall_deadline, cpu_start, wall_start)
        done, stopped_by = 0, "iterations"
        while self.iterations is None or done < self.iterations:
            if done or fallback is not None:
                if cpu() >= cpu_deadline:
                    stopped_by = "seconds"
                    break
                if wall() >= wall_deadline:
                    stopped_by = "max_wall"
                    break
            sample = decision.sample(self.rng)
            sample.reopen_choices(decision.seat)  # others' secret choices are searched, not guessed
            self._iterate(sample, roots, decision.seat, allowed, guided)
            done += 1
        self._wall_deadline = math.inf
        self.last_search = {
            "iterations": done,
            "cpu": cpu() - cpu_start,
            "wall": wall() - wall_start,
            "stopped_by": stopped_by,
        }
        if not done:
            return fallback  # type: ignore[return-value]  # set when a deadline can stop the loop first (not iterations=0)
        edges = roots[decision.seat].actions
        return max(
            decision.legal,
            key=lambda a: (edges[a].visits, edges[a].total) if a in edges else (-1, 0.0),
        )

    def _paired(
        self,
        decision: Decision,
        candidates: list[Action],
        cpu_deadline: float,
        wall_deadline: float,
        cpu_start: float,
        wall_start: float,
    ) -> Action:
        """Compare the root's candidates (the heuristic's choice first) by paired samples: each sample is
        one determinization and one rollout seed, and every candidate still in the race is played on it,
        so the differences between candidates are not drowned by the luck of the draw (common random
        numbers). After ``paired`` samples the candidates whose paired gain over the heuristic's choice
        is below the median are dropped (the heuristic's choice stays). A candidate replaces the
        heuristic's choice only if its mean gain exceeds ``paired_gain`` and ``paired_z`` standard errors.
        ``iterations`` counts rollouts (one per candidate and sample)."""
        cpu, wall = self.cpu_clock, self.wall_clock
        me, guide = decision.seat, candidates[0]
        values: dict[Action, list[float]] = {a: [] for a in candidates}
        live = list(candidates)
        done, samples, stopped_by = 0, 0, "iterations"
        while self.iterations is None or done + len(live) <= self.iterations:
            if samples and cpu() >= cpu_deadline:
                stopped_by = "seconds"
                break
            if samples and wall() >= wall_deadline:
                stopped_by = "max_wall"
                break
            sample = decision.sample(self.rng)
            sample.reopen_choices(me)
            seed = self.rng.next64()
            row: list[float] = []
            for action in live:
                state = sample.clone()
                state.apply_legal(me, action)
                row.append(self._seeded_finish(state, seed)[me])
                if wall_deadline < math.inf and wall() >= wall_deadline:
                    break  # the cap passed: this sample's rollouts were cut short or not played
            else:
                for action, value in zip(live, row):
                    values[action].append(value)
                done += len(live)
                samples += 1
                if samples == self.paired and len(live) > 2:
                    others = sorted(live[1:], key=lambda a: -_paired_gain(values[a], values[guide])[0])
                    live = [guide, *others[: max(1, len(others) // 2)]]
                continue
            stopped_by = "max_wall"  # a sample the cap cut is dropped: its candidates were not played alike
            break
        self.last_search = {
            "iterations": done,
            "cpu": cpu() - cpu_start,
            "wall": wall() - wall_start,
            "stopped_by": stopped_by,
        }
        best, best_gain = guide, self.paired_gain
        for action in candidates[1:]:
            gain, error = _paired_gain(values[action], values[guide])
            if gain > best_gain and gain > self.paired_z * error:
                best, best_gain = action, gain
        return best

    def _seeded_finish(self, state: State, seed: int) -> list[float]:
        """:meth:`_finish` with the rollout's choices drawn from ``seed`` (the same for every candidate)."""
        rng = self.rng
        self.rng = Rng(seed)
        try:
            return self._finish(state)
        finally:
            self.rng = rng

    def candidates(self, decision: Decision, deadline: float = math.inf) -> list[Action]:
        """The decision's legal actions, most promising first: the heuristic agent's choice, then the
        others by the evaluator's value for the seat after playing each on one sampled state (those not
        valued when the ``wall_clock`` passes ``deadline`` follow in their order)."""
        first = [self.guide(decision, self.rng)] if self.guide is not None else []
        sample = decision.sample(self.rng)
        sample.reopen_choices(decision.seat)
        legal = self.prune(sample, decision.seat, decision.legal) if self.prune is not None else decision.legal
        if self.evaluator is None:
            return first + [a for a in legal if a not in first]
        value: dict[Action, float] = {}
        for action in legal:
            if deadline < math.inf and self.wall_clock() >= deadline:
                break
            after = sample.clone()
            after.apply_legal(decision.seat, action)
            value[action] = (
                rank_rewards(after)[decision.seat] if after.is_over() else self.evaluator(after)[decision.seat]
            )
        return first + sorted((a for a in legal if a not in first), key=lambda a: -value.get(a, -1.0))

    def _iterate(
        self,
        state: State,
        roots: dict[int, _InfoNode],
        me: int,
        allowed: set[Action] | None = None,
        guided: Action | None = None,
    ) -> None:
        """One iteration; at the root, ``me`` considers only the ``allowed`` actions (all if ``None``)
        and favours the ``guided`` one."""
        rng = self.rng
        n = state.num_players
        current = [roots.setdefault(seat, _InfoNode()) for seat in range(n)]
        path: list[tuple[int, _Edge]] = []
        deadline = self._wall_deadline
        while not state.is_over():
            if path and deadline < math.inf and self.wall_clock() >= deadline:
                break  # past the wall cap: evaluate here (see _finish)
            waiting = state.to_act()
            seat = me if me in waiting else waiting[0]
            legal = state.legal_actions(seat)
            if self.prune is not None and len(legal) > 1:
                legal = self.prune(state, seat, legal)
            node = current[seat]
            at_root = node is roots[me]
            if allowed is not None and at_root:
                legal = [a for a in legal if a in allowed] or legal
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
                action = guided if at_root and guided in untried else untried[rng.randrange(len(untried))]
                edge = node.actions[action] = _Edge()
            else:
                action, edge = self._select(node, legal, guided if at_root else None)
            events = state.apply_legal(seat, action)
            path.append((seat, edge))
            _descend(current, seat, edge, events)
            if untried:
                break
        rewards = self._finish(state)
        for seat, edge in path:
            edge.visits += 1
            edge.total += rewards[seat]

    def _finish(self, state: State) -> list[float]:
        """Roll out to the end (or ``rollout_depth`` actions, then evaluate): each seat's reward."""
        rng, policy, evaluator = self.rng, self.rollout, self.evaluator
        depth = self.rollout_depth if evaluator is not None and self.rollout_depth is not None else -1
        deadline = self._wall_deadline if evaluator is not None else math.inf
        while not state.is_over():
            if evaluator is not None and (depth == 0 or (deadline < math.inf and self.wall_clock() >= deadline)):
                return evaluator(state)  # at the depth or the wall cap: evaluate here
            depth -= 1
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                guided = self.model is not None and self.model_rollouts > 0 and rng.random() < self.model_rollouts
                # guided implies a model; mypy reads the rollout policy as possibly None (set by _bind)
                state.apply_legal(seat, (self.model if guided else policy)(state, seat, legal, rng))  # type: ignore[misc]
            else:
                state.apply_legal(seat, legal[0])
        return rank_rewards(state)

    def _select(self, node: _InfoNode, legal: Sequence[Action], guided: Action | None) -> tuple[Action, _Edge]:
        best, best_edge, best_score = legal[0], node.actions[legal[0]], -math.inf
        c = self.exploration
        for action in legal:
            edge = node.actions[action]
            score = edge.total / edge.visits + c * math.sqrt(math.log(edge.avail) / edge.visits)
            if action == guided:
                score += self.guide_bias / (edge.visits + 1)
            if score > best_score:
                best, best_edge, best_score = action, edge, score
        return best, best_edge
