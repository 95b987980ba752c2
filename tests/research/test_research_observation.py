"""Observation tensors: each game's feature planes (games/<id>/observation.py) as the adapters serve them.

Values in [0, 1], indices inside the layout, one layout for every seat and player count, shapes exposed
by every adapter, and no collisions: states whose views differ in anything the planes encode get
different tensors (the normalizers below drop exactly what each game's module docstring says it leaves
out, because it follows from what is encoded).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from robotable import games
from robotable.adapters import openspiel as ros
from robotable.adapters._common import encodable_games, observation_encoder
from robotable.adapters.gymnasium import RobotableEnv
from robotable.adapters.pettingzoo import aec_env, parallel_env
from robotable.core.observation import ObservationEncoder

GAMES = encodable_games()


def _tf22(view: dict[str, Any]) -> None:
    view.pop("round_scores")
    for p in view["players"]:
        p["cc_pile"] = sorted(p["cc_pile"])
        p["discard"] = sorted(p["discard"])
        p["scores"].pop("total")
    view["set_aside"] = sorted(view["set_aside"])
    if view["last_battle"]:
        view["last_battle"].pop("round", None)
        view["last_battle"].pop("battle", None)


def _ttb(view: dict[str, Any]) -> None:
    for colour in view["colours"]:
        colour["delivered"] = sorted(colour["delivered"])


def _rotl(view: dict[str, Any]) -> None:
    view.pop("units")
    view.pop("bank")
    for p in view["players"]:
        p.pop("score")
    view["junk_piles"] = [[sorted(pile), pile[-1] if pile else None] for pile in view["junk_piles"]]
    view["bargain_hunter_parts"] = sorted(view["bargain_hunter_parts"])
    view["sales"] = sorted(
        [s["seat"], s["buyer"], sorted([item[0] for item in s["layout"]] + s["batteries"] + s["magnets"])]
        for s in view["sales"]
    )


#: The planes that hold what only the observing seat knows.
PRIVATE = {
    "tf22-reload": {"own_choice"},
    "twin-tin-bots": {"hand", "hidden_specials"},
    "robots-on-the-line": {"part_place", "unknown_parts", "magnets"},
}
#: What each game's planes leave out (see its observation module's docstring).
NORMALIZE = {"tf22-reload": _tf22, "twin-tin-bots": _ttb, "robots-on-the-line": _rotl}
CASES = {
    "tf22-reload": [(2, {}), (3, {}), (4, {})],
    "twin-tin-bots": [
        (2, {}),
        (3, {}),
        (6, {}),
        (2, {"advanced_2p": True}),
        (4, {"team_play": True}),
        (4, {"teleporters": 1, "rocks": 2, "blobs": 2, "mud": 2}),
        (3, {"simplified": True}),
    ],
    "robots-on-the-line": [(2, {}), (3, {"three_new_tiles": True}), (4, {"on_off_variant": True})],
}


def _normal(game_id: str, view: dict[str, Any]) -> str:
    view = json.loads(json.dumps(view))
    view.pop("result", None)
    NORMALIZE[game_id](view)
    return json.dumps(view, sort_keys=True)


def _positions(game_id: str, games_per_case: int, steps: int) -> list[tuple[Any, int]]:
    """(state, seat) pairs from random play over every case of the game."""
    game = games.load(game_id)
    out = []
    for players, options in CASES[game_id]:
        for seed in range(games_per_case):
            state = game.start(players, seed=seed, options=options)
            rng = random.Random(seed)
            for _ in range(steps):
                if state.is_over():
                    break
                seat = state.to_act()[0]
                legal = state.legal_actions(seat)
                state.apply(seat, legal[rng.randrange(len(legal))])
                for s in range(players):
                    out.append((state.clone(), s))
    return out


def test_research_observation_every_served_game_declares_planes() -> None:
    assert set(NORMALIZE) <= set(GAMES)
    for game_id in GAMES:
        encoder = observation_encoder(games.load(game_id))
        assert isinstance(encoder, ObservationEncoder)
        assert encoder.size == sum(p.size for p in encoder.planes)
        names = [p.name for p in encoder.planes]
        assert len(names) == len(set(names))
        offsets = [p.offset for p in encoder.planes]
        assert offsets == sorted(offsets) and offsets[0] == 0


@pytest.mark.parametrize("game_id", sorted(NORMALIZE))
def test_research_observation_values_and_no_collisions(game_id: str) -> None:
    encoder = observation_encoder(games.load(game_id))
    assert encoder is not None
    seen: dict[tuple, str] = {}
    views = 0
    for state, seat in _positions(game_id, games_per_case=3, steps=120):
        view = state.view(seat)
        features = encoder.features(view, seat)
        assert all(0 <= i < encoder.size for i in features)
        assert all(0.0 < v <= 1.0 for v in features.values()), game_id
        flat = encoder.encode(view, seat)
        assert len(flat) == encoder.size and all(0.0 <= v <= 1.0 for v in flat)
        key = tuple(sorted(features.items()))
        normal = _normal(game_id, view)
        assert seen.setdefault(key, normal) == normal, f"{game_id}: two different views share a tensor"
        views += 1
    assert len(set(seen.values())) > 500, views


@pytest.mark.parametrize("game_id", sorted(NORMALIZE))
def test_research_observation_spectator_layout_is_the_seats(game_id: str) -> None:
    """A seat's planes are the spectator's view laid out for that seat, except in the planes that hold
    what only that seat knows (its secret choice, its hidden tiles)."""
    encoder = observation_encoder(games.load(game_id))
    assert encoder is not None
    private = {encoder.planes[i].name for i in range(len(encoder.planes))} & PRIVATE[game_id]
    assert private == PRIVATE[game_id]
    spans = [range(p.offset, p.offset + p.size) for p in encoder.planes if p.name in private]
    differing = 0
    for state, seat in _positions(game_id, games_per_case=2, steps=60)[::3]:
        mine = encoder.features(state.view(seat), seat)
        public = encoder.features(state.view(None), seat)
        diff = {i for i in set(mine) | set(public) if mine.get(i) != public.get(i)}
        assert all(any(i in span for span in spans) for i in diff), game_id
        differing += bool(diff)
    assert differing > 0  # there is private information, and it shows only in those planes


@pytest.mark.parametrize("game_id", GAMES)
def test_research_observation_shapes_in_every_adapter(game_id: str) -> None:
    encoder = observation_encoder(games.load(game_id))
    assert encoder is not None
    game = ros.load_game(game_id, players=2)
    assert game.observation_tensor_shape() == [encoder.size]
    bits = game.num_distinct_actions().bit_length() + 1  # an own action's index + 1 in binary
    recall = encoder.size * ros.RECALL_FRAMES + ros.RECALL_ACTIONS * bits
    assert game.information_state_tensor_shape() == [encoder.size + recall]
    observer = game.make_py_observer()
    for plane in encoder.planes:
        assert observer.dict[plane.name].shape == plane.shape
    state = ros.seeded_state(game, 5)
    tensor = np.asarray(state.observation_tensor(0))
    assert tensor.min() >= 0.0 and tensor.max() <= 1.0 and tensor.max() == 1.0
    env = aec_env(game_id, 2)
    space = env.observation_space("player_0")["observation"]
    assert space.shape == (encoder.size,) and space.low.min() == 0.0 and space.high.max() == 1.0
    par = parallel_env(game_id, 2)
    assert par.observation_space("player_0")["observation"].shape == (encoder.size,)
    gym = RobotableEnv(game_id, 2)
    assert gym.observation_space["observation"].shape == (encoder.size,)
    obs, _ = gym.reset(seed=1)
    assert gym.observation_space.contains(obs)


@pytest.mark.parametrize("game_id", GAMES)
def test_research_observation_aec_masks_only_for_the_selected_agent(game_id: str) -> None:
    players = min(3, games.load(game_id).max_players)
    env = aec_env(game_id, players)
    env.reset(seed=4)
    rng = random.Random(4)
    several = 0
    for _ in range(200):
        if not env.agents:
            break
        for agent in env.possible_agents:
            mask = env.observe(agent)["action_mask"]
            if agent == env.agent_selection and not (env.terminations[agent] or env.truncations[agent]):
                assert mask.sum() > 0
            else:
                assert mask.sum() == 0, f"{agent} is not selected but has legal actions in its mask"
        several += len(env.table.state.to_act()) > 1
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    if game_id == "tf22-reload":
        assert several > 0  # simultaneous choices: other seats wait too, yet only one is selected


def test_research_observation_every_plane_is_documented() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text()
    for game_id in GAMES:
        encoder = observation_encoder(games.load(game_id))
        assert encoder is not None
        for plane in encoder.planes:
            row = f"| `{plane.name}` | {' x '.join(map(str, plane.shape))} | {plane.offset} |"
            assert row in doc, f"docs/research.md: {game_id} plane {plane.name} missing or out of date"
