"""A batched self-play environment: ``num_envs`` games of one kind stepped together, numpy in and out.

Every game is played by all its seats (self-play): each step, each game's acting seat (the first seat it
waits for; simultaneous secret choices are made one seat after another, each seeing only that the others
chose) takes the action given for that game. Observations are the acting seat's feature planes (the
game's ``observation_encoder``, from its view only) and masks its legal action indices::

    from robotable.adapters.vector import VectorEnv

    env = VectorEnv("tf22-reload", num_envs=64, num_players=2, seed=0)
    obs, mask, seat = env.reset()               # (64, planes) float32, (64, actions) bool, (64,) int
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions = env.sample(rng)               # a uniformly random legal action per game
        obs, mask, seat, rewards, done = env.step(actions)

``rewards`` is ``(num_envs, num_players)``: zero until a game ends, then Robotable's payoff (1 shared
among the winners) on the step that ended it; ``done`` marks those games. A finished game restarts at
once (auto-reset) with the next seed of its own seeded stream, so the arrays returned after a game ended
already show the new game's first position. ``max_steps`` cuts a game off (``truncated`` in
:attr:`info`, every seat scored ``1 / players``): by default never for games whose rules bound their
length, 20000 actions for the others. ``structured_actions=True`` (Robots on the Line) uses the game's
structured action space: an offer is built by sub-decisions (each a step of its own that leaves the game
unchanged until the offer is proposed) and the open draft is appended to the observation. ``max_rounds``
(Twin Tin Bots) ends a game after that many rounds with a scored outcome (ranked as the rules rank an
ended game; not truncated). Equal seeds give equal runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from robotable.core import Action, BadInput, State

from ._common import (
    check_limit,
    check_max_rounds,
    check_setup,
    default_action_limit,
    legal_by_index,
    load_encodable,
    observation_encoder,
    round_limit_result,
)
from ._common import structured_actions as structured_actions_of

_ILLEGAL = object()


class VectorEnv:
    """``num_envs`` self-play games of ``game_id`` with numpy observations, masks and auto-reset."""

    def __init__(
        self,
        game_id: str,
        num_envs: int = 16,
        num_players: int = 2,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        max_steps: int | None = None,
        max_rounds: int | None = None,
        structured_actions: bool = False,
    ) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or not 1 <= num_envs <= 65_536:
            raise BadInput(f"num_envs must be an integer from 1 to 65536, got {num_envs!r}")
        check_limit(max_steps)
        self.game = load_encodable(game_id)
        self.max_rounds = check_max_rounds(self.game, max_rounds)
        self.structured = structured_actions_of(self.game) if structured_actions else None
        if structured_actions and self.structured is None:
            raise BadInput(
                f"{game_id} has no structured action space (structured_actions is for games that declare one)"
            )
        self.num_players, self.options = check_setup(self.game, num_players, options)
        self.encoder = observation_encoder(self.game)
        assert self.encoder is not None
        self.num_envs = num_envs
        self.num_actions = self.game.num_distinct_actions(self.num_players, self.options)
        self.max_steps = default_action_limit(self.game) if max_steps is None else max_steps
        self.observation_size = self.encoder.size
        if self.structured is not None:
            self.num_actions = self.structured.size
            self.observation_size += self.structured.draft_size
        self.drafts: list[Any] = [None] * num_envs  # structured actions: each game's open draft
        self.observations = np.zeros((num_envs, self.observation_size), np.float32)
        self.masks = np.zeros((num_envs, self.num_actions), np.bool_)
        self.seats = np.zeros(num_envs, np.int64)
        self.rewards = np.zeros((num_envs, self.num_players), np.float32)
        self.dones = np.zeros(num_envs, np.bool_)
        self.truncated = np.zeros(num_envs, np.bool_)
        self.states: list[State] = []
        self.steps = [0] * num_envs  # actions played in each game so far
        self.episodes = 0
        self._legal: list[dict[int, Any]] = []  # each game's legal actions by index
        self._keys: list[list[int]] = []  # the same indices as lists (for sampling)
        self._seats = [0] * num_envs  # self.seats as a list
        self._seeds = np.random.default_rng(seed)

    # -- the API ------------------------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start every game (``seed`` re-seeds the stream of game seeds); returns observations, masks, seats."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.states = [self._new_game() for _ in range(self.num_envs)]
        self._legal = [{} for _ in range(self.num_envs)]
        self._keys = [[] for _ in range(self.num_envs)]
        self.steps = [0] * self.num_envs
        self.rewards[:] = 0.0
        self.dones[:] = False
        self.truncated[:] = False
        self._observe(range(self.num_envs))
        return self.observations, self.masks, self.seats

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play one action per game (an index legal in its mask); returns observations, masks, seats,
        rewards and done flags. An illegal index raises :class:`robotable.BadInput` and changes nothing."""
        if not self.states:
            raise RuntimeError("call reset() before step()")
        chosen = np.asarray(actions).reshape(-1)
        if chosen.shape[0] != self.num_envs:
            raise BadInput(f"step needs one action per game ({self.num_envs}), got {chosen.shape[0]}")
        picks = [legal.get(a, _ILLEGAL) for legal, a in zip(self._legal, chosen.tolist())]
        bad = [i for i, pick in enumerate(picks) if pick is _ILLEGAL]
        if bad:
            i = bad[0]
            raise BadInput(
                f"game {i}: action {chosen[i]!r} is not legal for seat {self._seats[i]} "
                f"(legal: {sorted(self._legal[i])})"
            )
        self.rewards[:] = 0.0
        self.dones[:] = False
        self.truncated[:] = False
        steps, seats, limit = self.steps, self._seats, self.max_steps
        for i, action in enumerate(picks):
            steps[i] += 1
            if self.structured is not None and not isinstance(action, Action):
                self.drafts[i] = action  # a draft extended (or dropped: None); the game is unchanged
                if limit is None or steps[i] < limit:
                    continue
            else:
                self.drafts[i] = None
                self.states[i].apply_legal(seats[i], action)
            self._finish(i)
        self._observe(range(self.num_envs))
        return self.observations, self.masks, self.seats, self.rewards, self.dones

    def _finish(self, i: int) -> None:
        """Score and restart game ``i`` if it ended (or reached ``max_steps``)."""
        state = self.states[i]
        result = state.result() if state.is_over() else round_limit_result(self.game, state, self.max_rounds)
        cut = self.max_steps is not None and self.steps[i] >= self.max_steps
        if result is None and not cut:
            return
        if result is not None:
            self.rewards[i] = [result.payoff(s) for s in range(self.num_players)]
        else:
            self.rewards[i] = 1.0 / self.num_players
            self.truncated[i] = True
        self.dones[i] = True
        self.episodes += 1
        self.states[i] = self._new_game()
        self.steps[i] = 0
        self.drafts[i] = None

    def sample(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action for every game."""
        draws = rng.random(self.num_envs).tolist()
        return np.fromiter(
            (keys[int(u * len(keys))] for keys, u in zip(self._keys, draws)),
            np.int64,
            self.num_envs,
        )

    @property
    def info(self) -> dict[str, np.ndarray]:
        """``truncated``: the games the last step cut off at ``max_steps`` (they score ``1 / players``)."""
        return {"truncated": self.truncated}

    # -- inside ---------------------------------------------------------------------------------------

    def _new_game(self) -> State:
        seed = int(self._seeds.integers(0, 2**62))
        return self.game.start(self.num_players, seed=seed, options=self.options)

    def _observe(self, games: range) -> None:
        """Fill observations, masks and seats of ``games`` from each acting seat's view."""
        mask_rows: list[int] = []
        mask_cols: list[int] = []
        encoder, game, structured = self.encoder, self.game, self.structured
        observations = self.observations
        observations.fill(0.0)
        for i in games:
            state = self.states[i]
            seat = state.to_act()[0]
            self._seats[i] = seat
            if structured is None:
                legal: dict[int, Any] = legal_by_index(game, state, seat)
            else:
                legal = structured.legal(state, seat, self.drafts[i])
            self._legal[i] = legal
            keys = self._keys[i] = list(legal)
            mask_rows += [i] * len(keys)
            mask_cols += keys
            features = encoder.features(state.view(seat), seat)
            if structured is not None and self.drafts[i] is not None:
                draft = structured.draft_features(self.drafts[i], seat, self.num_players)
                features = {**features, **{encoder.size + j: v for j, v in draft.items()}}
            n = len(features)
            observations[i, np.fromiter(features, np.intp, n)] = np.fromiter(features.values(), np.float32, n)
        self.seats[:] = self._seats
        self.masks.fill(False)
        self.masks[mask_rows, mask_cols] = True


__all__ = ["VectorEnv"]
