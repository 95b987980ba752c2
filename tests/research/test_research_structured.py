"""Robots on the Line's structured action space: offers as short sequences of sub-decisions, every legal
move expressible (offers with money, several parts or a torso included), through the PettingZoo AEC env."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from robotable import games
from robotable.adapters.pettingzoo import aec_env
from robotable.adapters.vector import VectorEnv
from robotable.core import BadInput
from robotable.games.robots_on_the_line.actions import Offer
from robotable.games.robots_on_the_line.components import PARTS, TORSOS
from robotable.games.robots_on_the_line.structured import PROPOSE, STRUCTURED

ROTL = "robots-on-the-line"


def test_research_structured_api_test() -> None:
    warnings.filterwarnings("ignore", category=UserWarning)
    api_test(aec_env(ROTL, 3, structured_actions=True), num_cycles=300)
    env = aec_env(ROTL, 2, structured_actions=True)
    assert env.action_space("player_0").n == STRUCTURED.size == 1054 < games.load(ROTL).num_distinct_actions(2)
    size = games.load(ROTL).observation_encoder.size + STRUCTURED.draft_size
    assert env.observation_space("player_0")["observation"].shape == (size,)


def _offers(state, seat: int, rng: random.Random) -> list[Offer]:
    """Hand-made offers of every shape from ``seat``: several parts, money, torsos."""
    view = state.view(seat)
    mine = view["players"][seat]["hand"]
    out = []
    for q in range(state.num_players):
        if q == seat:
            continue
        theirs = view["players"][q]["hand"]
        torso = view["players"][seat]["torso"]
        their_torso = view["players"][q]["torso"]
        give = tuple(rng.sample(mine, min(2, len(mine))))
        out.append(Offer(q, give, tuple(theirs[:1]), rng.randint(0, 7), rng.randint(0, 3)))
        out.append(Offer(q, (), tuple(theirs[:2]), rng.randint(1, 9), 0))
        out.append(Offer(q, give[:1], (), 0, rng.randint(1, 12)))
        if torso:
            out.append(Offer(q, (torso,), tuple(theirs[:1]), 0, 1))
        if their_torso and not torso:
            out.append(Offer(q, give[:1], (their_torso,), 2, 0))
    return out


def test_research_structured_every_legal_move_is_expressible() -> None:
    game = games.load(ROTL)
    rng = random.Random(5)
    played = {"offer": 0, "money": 0, "several": 0, "torso": 0, "other": 0}
    for seed in range(6):
        env = aec_env(ROTL, 3, structured_actions=True)
        env.reset(seed=seed)
        for _ in range(150):
            table = env.table
            state = table.state
            if state.is_over():
                break
            seat = state.to_act()[0]
            candidates = [a for a in _offers(state, seat, rng) if state.is_legal(seat, a)]
            candidates += state.legal_actions(seat)[:3]
            action = rng.choice(candidates)
            expected = state.clone()
            expected.apply(seat, action)
            for index in STRUCTURED.sequence(state, seat, action):
                mask = env.observe(f"player_{seat}")["action_mask"]
                assert mask[index] == 1, f"{action.to_json()}: step {index} not legal"
                env.step(index)
            assert env.table.state.to_json() == expected.to_json()
            if isinstance(action, Offer):
                played["offer"] += 1
                played["money"] += bool(action.give_money or action.take_money)
                played["several"] += len(action.give) + len(action.take) > 2
                played["torso"] += any(n in {t.id for t in TORSOS} for n in action.give + action.take)
            else:
                played["other"] += 1
    assert all(played.values()), played
    assert len(PARTS) == 136 and game.num_distinct_actions(3) == 19266


@pytest.mark.parametrize("players", [2, 3, 4])
def test_research_structured_every_listed_action_walks_to_itself(players: int) -> None:
    """Every action the engine lists (every seat it waits for, or may act anyway) and every hand-made
    offer it accepts is reached by its sequence: each index legal in turn, the last one giving exactly
    that action."""
    game = games.load(ROTL)
    rng = random.Random(players)
    walked = 0
    for seed in range(3):
        state = game.start(players, seed=seed)
        for _ in range(120):
            if state.is_over():
                break
            for seat in sorted({*state.to_act(), *state.optional_actors()}):
                offers = [a for a in _offers(state, seat, rng) if state.is_legal(seat, a)]
                for action in [*state.legal_actions(seat), *offers]:
                    draft = None
                    sequence = STRUCTURED.sequence(state, seat, action)
                    for k, index in enumerate(sequence):
                        outcome = STRUCTURED.legal(state, seat, draft).get(index, "illegal")
                        assert outcome != "illegal", f"{action.to_json()}: step {k} ({index}) not legal"
                        if k < len(sequence) - 1:
                            draft = outcome
                    assert outcome == action, action.to_json()
                    walked += 1
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
    assert walked > 1000


def test_research_structured_drafts_change_nothing_until_proposed() -> None:
    env = aec_env(ROTL, 2, structured_actions=True)
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    before = env.table.state.to_json()
    seat = env.table.state.to_act()[0]
    legal = env.table.legal(seat)
    start = next(i for i in legal if i >= STRUCTURED.size - 284)
    env.step(start)
    assert env.table.state.to_json() == before and env.table.drafts
    obs = env.observe(f"player_{seat}")["observation"]
    assert obs[-STRUCTURED.draft_size :].sum() > 0  # the draft is observed
    mask = env.observe(f"player_{seat}")["action_mask"]
    assert mask[STRUCTURED.size - 1] == 1  # drop
    while PROPOSE not in env.table.legal(seat):
        env.step(int(rng.choice(np.flatnonzero(mask[:-1]))))
        mask = env.observe(f"player_{seat}")["action_mask"]
        assert env.table.state.to_json() == before
    env.step(PROPOSE)
    assert env.table.state.to_json() != before and not env.table.drafts


def test_research_structured_only_where_declared() -> None:
    with pytest.raises(BadInput, match="tf22-reload has no structured action space"):
        aec_env("tf22-reload", 2, structured_actions=True)


def test_research_structured_vector_env() -> None:
    """VectorEnv with structured actions: 1,054-wide masks, drafts observed, games played to the end."""
    env = VectorEnv(ROTL, num_envs=4, num_players=2, seed=3, structured_actions=True)
    obs, mask, _ = env.reset()
    assert mask.shape == (4, STRUCTURED.size)
    assert obs.shape == (4, games.load(ROTL).observation_encoder.size + STRUCTURED.draft_size)
    rng = np.random.default_rng(3)
    drafted = proposed = 0
    for _ in range(1500):
        before = [s.to_json() for s in env.states]
        actions = env.sample(rng)
        obs, mask, _, _, done = env.step(actions)
        for i, a in enumerate(actions):
            if done[i]:
                continue
            if a >= STRUCTURED.size - 284 and a != PROPOSE:  # a draft step: the game is unchanged
                assert env.states[i].to_json() == before[i]
                drafted += 1
                if env.drafts[i] is not None:
                    assert obs[i, -STRUCTURED.draft_size :].any()
            proposed += a == PROPOSE
    assert drafted > 0 and proposed > 0 and env.episodes > 0
