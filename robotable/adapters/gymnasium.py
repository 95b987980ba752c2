"""Robotable games as single-agent Gymnasium environments: train one seat, the others are Robotable agents.

>>> env = RobotableEnv("tf22-reload", num_players=3, seat=0, opponents="heuristic")
>>> obs, info = env.reset(seed=1)
>>> sorted(obs), int(obs["action_mask"].sum())
(['action_mask', 'observation'], 8)

The other seats are played by agents built with :func:`robotable.ai.make_agent` from specs (``random``,
``heuristic``, ``ismcts:easy|medium|hard``): one spec for all of them or one per other seat. They choose
from their own views and determinized samples, exactly as in the arena. The observation is
``{"observation": the game's feature planes of the seat's view, "action_mask": legal action indices}``
(values in [0, 1]; ``env.observation_planes`` lists the planes; see docs/research.md);
``info["observation_string"]`` is the view as canonical JSON. The
reward is Robotable's payoff at the end (1 shared among the winners). An action outside the mask ends the
episode with ``illegal_reward`` (default -1) and ``info["illegal_action"] = True``. ``max_steps`` truncates
a game after that many actions of all seats (default: never for TF22, whose rules bound it; 20000 for the
other games); ``max_rounds`` (Twin Tin Bots) ends it after that many rounds with a scored outcome.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from robotable.ai import Agent, make_agent
from robotable.core import BadInput, Result, State

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
)
from .render import RENDER_MODES, Window, render


class RobotableEnv(gym.Env):
    """One seat of a Robotable game; the other seats are played by Robotable agents."""

    metadata = {"render_modes": RENDER_MODES}

    def __init__(
        self,
        game_id: str,
        num_players: int = 2,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        options: Mapping[str, Any] | None = None,
        max_steps: int | None = None,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        max_rounds: int | None = None,
    ) -> None:
        self.game = load_encodable(game_id)
        self.max_rounds = check_max_rounds(self.game, max_rounds)
        self.num_players, self.options = check_setup(self.game, num_players, options)
        if not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise BadInput(f"seat must be 0 to {self.num_players - 1}, got {seat!r}")
        others = [s for s in range(self.num_players) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise BadInput(f"opponents: one spec for all or one per other seat ({len(others)}), got {len(specs)}")
        for spec in specs:
            make_agent(spec)  # a bad spec raises BadInput naming the known ones
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise BadInput(f"render_mode must be None or one of {', '.join(RENDER_MODES)}, got {render_mode!r}")
        check_limit(max_steps)
        self.seat = seat
        self.specs = dict(zip(others, specs))
        self.max_steps = default_action_limit(self.game) if max_steps is None else max_steps
        self.illegal_reward = float(illegal_reward)
        self.encoder = encoder_of(self.game)
        self.observation_planes = self.encoder.planes
        self.render_mode = render_mode
        self._window = Window()
        self.num_actions = self.game.num_distinct_actions(self.num_players, self.options)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.num_actions)
        self.state: State | None = None
        self.agents: dict[int, Agent] = {}
        self.steps = 0

    # -- helpers ----------------------------------------------------------------------------------

    def _obs(self) -> dict[str, np.ndarray]:
        assert self.state is not None
        mask = np.zeros(self.num_actions, np.int8)
        mask[list(legal_by_index(self.game, self.state, self.seat))] = 1
        view = self.state.view(self.seat)
        return {"observation": observation_array(self.encoder, view, self.seat), "action_mask": mask}

    def _info(self, **extra: Any) -> dict[str, Any]:
        assert self.state is not None
        return {"observation_string": canonical(self.state.view(self.seat)), **extra}

    def _cut(self) -> bool:
        return self.max_steps is not None and self.steps >= self.max_steps

    def _outcome(self) -> Result | None:
        """The result once the game has ended or its round limit stopped it, else ``None``."""
        assert self.state is not None
        if self.state.is_over():
            return self.state.result()
        return round_limit_result(self.game, self.state, self.max_rounds)

    def _others_play(self) -> None:
        """Let the agents play until this seat is to act or the game ends. Simultaneous choices: the other
        seats choose first (secretly); otherwise seats act in the order the game waits for them (a trade
        offer's answer before the turn goes on), as in the AEC environment and OpenSpiel."""
        state = self.state
        assert state is not None
        simultaneous = is_simultaneous(self.game)
        while self._outcome() is None and not self._cut():
            waiting = state.to_act()
            if not simultaneous and waiting[0] == self.seat:
                return
            others = [s for s in waiting if s != self.seat]
            if not others:
                return
            seat = others[0]
            state.apply_legal(seat, self.agents[seat].act(state, seat))
            self.steps += 1

    # -- the Gymnasium API ------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a new game (seeded by ``seed``) and play the other seats up to this seat's turn."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        self.state = self.game.start(self.num_players, seed=game_seed, options=self.options)
        self.agents = {
            s: make_agent(spec, seed=int(self.np_random.integers(0, 2**31))) for s, spec in self.specs.items()
        }
        self.steps = 0
        self._others_play()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play ``action`` for this seat, then the other seats until this seat's next turn."""
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        if self._outcome() is not None or self._cut():
            raise RuntimeError("the episode is over: call reset()")
        legal = legal_by_index(self.game, state, self.seat)
        index = int(action)
        if index not in legal:
            return self._obs(), self.illegal_reward, True, False, self._info(illegal_action=True)
        state.apply_legal(self.seat, legal[index])
        self.steps += 1
        self._others_play()
        outcome = self._outcome()
        if outcome is not None:
            return self._obs(), outcome.payoff(self.seat), True, False, self._info()
        return self._obs(), 0.0, False, self._cut(), self._info()

    def render(self) -> str | np.ndarray | None:
        """The spectator's view drawn as text (``ansi``), an image (``rgb_array``) or in a window
        (``human``); see :mod:`robotable.adapters.render`."""
        view = None if self.state is None else self.state.view(None)
        return render(self.game.id, view, self.render_mode, self._window)

    def close(self) -> None:
        """Close the ``human`` window, if any."""
        self._window.close()


__all__ = ["RobotableEnv"]
