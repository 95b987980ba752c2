"""``serialize()`` is the state's versioned JSON, and ``deserialize_state`` reads JSON only: a crafted
pickle (OpenSpiel's own form for Python games) is refused with a clear error and runs nothing."""

from __future__ import annotations

import base64
import json
import pickle
import random
from pathlib import Path

import pytest

from robotable.adapters import openspiel as ros
from robotable.adapters._common import encodable_games
from robotable.core import BadInput


def _walk(game, seed: int, steps: int):
    """States of a random walk (chance by its probabilities, simultaneous nodes jointly)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p) or [0]) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("game_id", encodable_games())
@pytest.mark.parametrize("chance_draws", [0, 1])
def test_research_serialize_is_versioned_json_that_replays(game_id: str, chance_draws: int) -> None:
    game = ros.load_game(game_id, players=2, chance_draws=chance_draws, max_game_length=120)
    for i, state in enumerate(_walk(game, 5, 120)):
        if i % 10:
            continue
        text = state.serialize()
        data = json.loads(text)
        assert data["format"] == ros.STATE_FORMAT and data["version"] == ros.STATE_FORMAT_VERSION
        assert data["history"] == [[h.player, h.action] for h in state.full_history()]
        again = game.deserialize_state(text)
        assert again.history() == state.history() and str(again) == str(state)
        assert again.serialize() == text
        assert again.is_terminal() == state.is_terminal() and again.is_chance_node() == state.is_chance_node()


class _Payload:
    """What an attacker pickles: unpickling it would write a file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return (Path.write_text, (self.path, "ran"))


def test_research_serialize_refuses_a_crafted_pickle(tmp_path: Path) -> None:
    game = ros.load_game("tf22-reload", players=2)
    marker = tmp_path / "ran.txt"
    blob = base64.b64encode(pickle.dumps({"_engine": _Payload(marker)})).decode()
    crafted = f"history=-1:0,-1:0,-1:0,-1:7\nmove_number=4\n__dict__={blob}"
    with pytest.raises(BadInput, match="pickle form is refused"):
        game.deserialize_state(crafted)
    with pytest.raises(BadInput, match="pickle form is refused"):
        game.deserialize_state(pickle.dumps(_Payload(marker)).decode("latin-1"))
    assert not marker.exists()


def test_research_serialize_bad_json_names_the_problem() -> None:
    game = ros.load_game("tf22-reload", players=2, chance_draws=0)  # seed mode: the move is played at once
    state = ros.seeded_state(game, 3)
    state.apply_actions([state.legal_actions(0)[0], state.legal_actions(1)[0]])
    good = json.loads(state.serialize())
    cases = [
        ({**good, "format": "pickle"}, "format"),
        ({**good, "version": 99}, "unknown version 99"),
        ({**good, "game": "robotable_twin_tin_bots"}, "robotable_twin_tin_bots"),
        ({**good, "parameters": {**good["parameters"], "players": 3}}, "parameters"),
        ({**good, "history": [[-1, 0], "x"]}, "history"),
        ({**good, "history": [*good["history"][:4], [0, 999], [1, 0]]}, "not legal"),
        ({**good, "state": {**good["state"], "chips": [9, 9]}}, "does not lead to the stored state"),
        ({**good, "own_actions": [[], []]}, "own actions"),
        ([1, 2], "JSON object"),
    ]
    for data, match in cases:
        with pytest.raises(BadInput, match=match):
            game.deserialize_state(json.dumps(data))
    other = ros.load_game("tf22-reload", players=2, seed_bytes=2, chance_draws=0)
    with pytest.raises(BadInput, match="parameters"):
        other.deserialize_state(state.serialize())
