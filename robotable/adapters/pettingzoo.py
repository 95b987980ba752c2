"""Robotable games as PettingZoo environments.

- :class:`RobotableAECEnv` (``aec_env``): one agent acts at a time, the seat the game waits for. Secret
  simultaneous choices (TF22: RELOAD!) are made one seat after the other, which the contract allows: a
  seat sees only that the others have chosen, never what.
- :class:`RobotableParallelEnv` (``parallel_env``): every agent submits an action each step; the seats the
  game waits for choose together (TF22's battle choice), the others can only play ``WAIT`` (the last
  index of the action space). In a game without simultaneous choices only the first seat the game waits
  for acts each step (a later one's choice could depend on it).

Observations are dicts ``{"observation": float32 vector, "action_mask": int8 vector}``; the vector is the
game's feature planes of ``view(seat)`` (values in [0, 1], the same layout for every seat;
``env.observation_planes`` lists them; see docs/research.md), the mask marks the legal action indices of
the game's integer encoding; an agent that is not selected has an all-zero mask.
``observation_string(agent)`` gives the view as canonical JSON.
Rewards come once, at the end: Robotable's payoff (1 shared among the winners). ``reset(seed=...)``
seeds the game, so equal seeds and actions replay exactly. ``max_cycles`` (PettingZoo's name) truncates a
game after that many steps (an AEC step is one agent's action, a parallel step one call of ``step``;
default: never for TF22, whose rules bound it; 20000 for the other games: random play can make Twin Tin
Bots very long). ``max_steps``, its old name, still works in 0.2 with a ``DeprecationWarning`` and goes
in 0.3. ``max_rounds`` (Twin Tin Bots) ends a game after that many rounds with a scored
outcome (ranked as the rules rank an ended game; agents are terminated, not truncated).
``structured_actions=True`` (AEC, Robots on the Line) uses the game's structured action space: trade offers
built as short sequences of sub-decisions, the draft shown in extra observation planes (see
:mod:`robotable.games.robots_on_the_line.structured`).

>>> env = aec_env("tf22-reload", num_players=2)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> int(obs["action_mask"].sum())      # seven numbers and R to take the discards back
8
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from robotable.core import Action, BadInput, IllegalAction, Result, State

from ._common import (
    canonical,
    check_limit,
    check_max_rounds,
    check_setup,
    default_action_limit,
    encoder_of,
    is_simultaneous,
    legal_by_index,
    load_encodable,
    observation_array,
    round_limit_result,
    structured_actions,
)
from .render import RENDER_MODES, Window, check_mode, render


class _Table:
    """The shared part of both environments: the game, its state and per-seat observations."""

    def __init__(
        self,
        game_id: str,
        num_players: int,
        options: Mapping[str, Any] | None,
        max_cycles: int | None,
        max_rounds: int | None = None,
        structured: bool = False,
    ) -> None:
        self.game = load_encodable(game_id)
        self.structured = structured_actions(self.game) if structured else None
        if structured and self.structured is None:
            raise BadInput(
                f"{game_id} has no structured action space (structured_actions is for games that declare one)"
            )
        self.drafts: dict[int, Any] = {}  # per seat: the structured draft being built
        self.max_rounds = check_max_rounds(self.game, max_rounds)
        self.encoder = encoder_of(self.game)
        self.simultaneous = is_simultaneous(self.game)
        self.num_players, self.options = check_setup(self.game, num_players, options)
        self.num_actions = self.game.num_distinct_actions(self.num_players, self.options)
        self.observation_size = self.encoder.size
        if self.structured is not None:
            self.num_actions = self.structured.size
            self.observation_size += self.structured.draft_size
        check_limit(max_cycles, "max_cycles")
        self.max_cycles = default_action_limit(self.game) if max_cycles is None else max_cycles
        self.state: State | None = None
        self.steps = 0
        self.rng = np.random.default_rng()

    def start(self, seed: int | None) -> State:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        game_seed = int(self.rng.integers(0, 2**62))
        self.state = self.game.start(self.num_players, seed=game_seed, options=self.options)
        self.steps = 0
        self.drafts = {}
        return self.state

    def legal(self, seat: int) -> dict[int, Any]:
        """``seat``'s legal actions by index (decoded through the state: see :func:`legal_by_index`);
        with structured actions, what each structured index leads to (an action, a draft or none)."""
        assert self.state is not None
        if self.structured is not None:
            return self.structured.legal(self.state, seat, self.drafts.get(seat))
        return legal_by_index(self.game, self.state, seat)

    def acting(self) -> list[int]:
        """The seats that choose now: all the game waits for in a simultaneous game (TF22's battle
        choice), else the first of them (the others, such as a turn's player while a trade offer is
        answered, act after it, as in the AEC environment and OpenSpiel)."""
        assert self.state is not None
        waiting = self.state.to_act()
        return waiting if self.simultaneous else waiting[:1]

    def mask(self, seat: int, size: int | None = None) -> np.ndarray:
        mask = np.zeros(size or self.num_actions, np.int8)
        mask[list(self.legal(seat))] = 1
        return mask

    def tensor(self, seat: int) -> np.ndarray:
        assert self.state is not None
        planes = observation_array(self.encoder, self.state.view(seat), seat)
        if self.structured is None:
            return planes
        draft = np.zeros(self.structured.draft_size, np.float32)
        for i, v in self.structured.draft_features(self.drafts.get(seat), seat, self.num_players).items():
            draft[i] = v
        return np.concatenate([planes, draft])

    def observation_space(self, mask_size: int) -> spaces.Dict:
        return spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.observation_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (mask_size,), np.int8),
            }
        )

    def chosen(self, seat: int, index: int) -> Action:
        """The action ``index`` of ``seat``; an illegal index raises :class:`IllegalAction`."""
        index = int(index)
        legal = self.legal(seat)
        if index not in legal:
            raise IllegalAction(
                f"{self.game.id}: action {index} is not legal for seat {seat} now (legal: {sorted(legal)})"
            )
        return legal[index]

    def play(self, seat: int, index: int) -> None:
        """Apply action ``index`` for ``seat``; an illegal index raises :class:`IllegalAction`. With
        structured actions an index may only extend or drop the seat's draft (the state is unchanged)."""
        assert self.state is not None
        outcome = self.chosen(seat, index)
        if self.structured is not None and not isinstance(outcome, Action):
            if outcome is None:
                self.drafts.pop(seat, None)
            else:
                self.drafts[seat] = outcome
            return
        self.drafts.pop(seat, None)
        self.state.apply_legal(seat, outcome)

    def outcome(self) -> Result | None:
        """The result once the game has ended, or its round limit (``max_rounds``) stopped it; else None."""
        assert self.state is not None
        if self.state.is_over():
            return self.state.result()
        return round_limit_result(self.game, self.state, self.max_rounds)

    def payoffs(self, result: Result) -> list[float]:
        return [result.payoff(seat) for seat in range(self.num_players)]


def cycles_keyword(max_cycles: int | None, max_steps: int | None) -> int | None:
    """``max_cycles``, or the deprecated ``max_steps`` (a :class:`DeprecationWarning`; both: an error)."""
    if max_steps is None:
        return max_cycles
    if max_cycles is not None:
        raise BadInput("give max_cycles only (max_steps is its deprecated old name)")
    warnings.warn(
        "max_steps is deprecated since Robotable 0.2 and will be removed in 0.3: use max_cycles, "
        "PettingZoo's name for it",
        DeprecationWarning,
        stacklevel=3,
    )
    return max_steps


def _agent(seat: int) -> str:
    return f"player_{seat}"


class RobotableAECEnv(AECEnv):
    """A Robotable game as a PettingZoo AEC environment (agents ``player_0`` ... ``player_{n-1}``)."""

    metadata = {"render_modes": RENDER_MODES, "name": "robotable_v0", "is_parallelizable": False}

    def __init__(
        self,
        game_id: str,
        num_players: int = 2,
        options: Mapping[str, Any] | None = None,
        max_cycles: int | None = None,
        render_mode: str | None = None,
        max_rounds: int | None = None,
        structured_actions: bool = False,
        *,
        max_steps: int | None = None,
    ) -> None:
        max_cycles = cycles_keyword(max_cycles, max_steps)
        super().__init__()
        check_mode(render_mode)
        self.render_mode = render_mode
        self._window = Window()
        self.table = _Table(game_id, num_players, options, max_cycles, max_rounds, structured_actions)
        self.metadata = {**self.metadata, "name": f"robotable_{game_id.replace('-', '_')}_v0"}
        self.possible_agents = [_agent(s) for s in range(self.table.num_players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        obs_space = self.table.observation_space(self.table.num_actions)
        self.observation_planes = self.table.encoder.planes
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.table.num_actions) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` makes it reproducible."""
        self.table.start(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        assert self.table.state is not None
        waiting = self.table.state.to_act()
        return _agent(waiting[0]) if waiting else self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's feature planes and its action mask (all zeros unless it is the selected agent)."""
        seat = self._seat[agent]
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask = self.table.mask(seat)
        else:
            mask = np.zeros(self.table.num_actions, np.int8)
        return {"observation": self.table.tensor(seat), "action_mask": mask}

    def observation_string(self, agent: str) -> str:
        """The agent's view as canonical JSON."""
        assert self.table.state is not None
        return canonical(self.table.state.view(self._seat[agent]))

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (an illegal index raises :class:`robotable.IllegalAction`)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        table = self.table
        # None is PettingZoo's action for a finished agent, handled above
        table.play(self._seat[agent], action)  # type: ignore[arg-type]
        table.steps += 1
        state = table.state
        assert state is not None
        outcome = table.outcome()
        if outcome is not None:
            for a, payoff in zip(self.possible_agents, table.payoffs(outcome)):
                self.rewards[a] = payoff
                self.terminations[a] = True
            self.agent_selection = agent
        elif table.max_cycles is not None and table.steps >= table.max_cycles:
            self.truncations = {a: True for a in self.agents}
            self.agent_selection = agent
        else:
            self.agent_selection = self._next_agent()
        self._accumulate_rewards()
        if self.terminations[agent] or self.truncations[agent]:
            self._deads_step_first()

    def render(self) -> str | np.ndarray | None:
        """The spectator's view drawn as text (``ansi``), an image (``rgb_array``) or in a window
        (``human``); see :mod:`robotable.adapters.render`."""
        state = self.table.state
        view = None if state is None else state.view(None)
        return render(self.table.game.id, view, self.render_mode, self._window)

    def close(self) -> None:
        """Close the ``human`` window, if any."""
        self._window.close()


class RobotableParallelEnv(ParallelEnv):
    """A Robotable game as a PettingZoo parallel environment: the seats the game waits for act together.

    The action space has one extra index, ``WAIT`` (= the game's number of distinct actions), the only
    legal action of a seat that is not to act.
    """

    metadata = {"render_modes": RENDER_MODES, "name": "robotable_parallel_v0"}

    def __init__(
        self,
        game_id: str,
        num_players: int = 2,
        options: Mapping[str, Any] | None = None,
        max_cycles: int | None = None,
        render_mode: str | None = None,
        max_rounds: int | None = None,
        *,
        max_steps: int | None = None,
    ) -> None:
        max_cycles = cycles_keyword(max_cycles, max_steps)
        check_mode(render_mode)
        self.render_mode = render_mode
        self._window = Window()
        self.table = _Table(game_id, num_players, options, max_cycles, max_rounds)
        self.metadata = {**self.metadata, "name": f"robotable_{game_id.replace('-', '_')}_parallel_v0"}
        self.WAIT = self.table.num_actions
        self.possible_agents = [_agent(s) for s in range(self.table.num_players)]
        self.agents: list[str] = []
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self._obs_space = self.table.observation_space(self.WAIT + 1)
        self.observation_planes = self.table.encoder.planes
        self._act_space = spaces.Discrete(self.WAIT + 1)

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        table = self.table
        assert table.state is not None
        if seat in table.acting():
            mask = table.mask(seat, self.WAIT + 1)
        else:
            mask = np.zeros(self.WAIT + 1, np.int8)
            mask[self.WAIT] = 1
        return {"observation": table.tensor(seat), "action_mask": mask}

    def observation_string(self, agent: str) -> str:
        """The agent's view as canonical JSON."""
        assert self.table.state is not None
        return canonical(self.table.state.view(self._seat[agent]))

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Start a new game; ``seed`` makes it reproducible."""
        self.table.start(seed)
        self.agents = list(self.possible_agents)
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, int]) -> tuple[dict, dict, dict, dict, dict]:
        """Apply the actions of the seats the game waits for (``WAIT`` for the others)."""
        table = self.table
        state = table.state
        assert state is not None
        waiting = table.acting()
        for seat in waiting:
            if _agent(seat) not in actions:
                raise ValueError(f"{_agent(seat)} is to act and needs an action")
        for agent, action in actions.items():
            if self._seat.get(agent) not in waiting and int(action) != self.WAIT:
                raise IllegalAction(f"{agent} is not to act: its only legal action is WAIT ({self.WAIT})")
        chosen = [(seat, table.chosen(seat, actions[_agent(seat)])) for seat in waiting]  # all checked first
        for seat, legal_action in chosen:
            state.apply_legal(seat, legal_action)
        table.steps += 1
        agents = self.agents
        outcome = table.outcome()
        over = outcome is not None
        cut = not over and table.max_cycles is not None and table.steps >= table.max_cycles
        rewards = dict.fromkeys(agents, 0.0)
        if outcome is not None:
            rewards = {a: table.payoffs(outcome)[self._seat[a]] for a in agents}
        observations = {a: self._observe(a) for a in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, cut)
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        if over or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | np.ndarray | None:
        """The spectator's view drawn as text (``ansi``), an image (``rgb_array``) or in a window
        (``human``); see :mod:`robotable.adapters.render`."""
        state = self.table.state
        view = None if state is None else state.view(None)
        return render(self.table.game.id, view, self.render_mode, self._window)

    def close(self) -> None:
        """Close the ``human`` window, if any."""
        self._window.close()


def aec_env(game_id: str, num_players: int = 2, **kwargs: Any) -> RobotableAECEnv:
    """An AEC environment of ``game_id`` (see :class:`RobotableAECEnv` for the keyword arguments)."""
    return RobotableAECEnv(game_id, num_players, **kwargs)


def parallel_env(game_id: str, num_players: int = 2, **kwargs: Any) -> RobotableParallelEnv:
    """A parallel environment of ``game_id`` (made for simultaneous choices; any game works)."""
    return RobotableParallelEnv(game_id, num_players, **kwargs)


__all__ = ["RobotableAECEnv", "RobotableParallelEnv", "aec_env", "parallel_env"]
