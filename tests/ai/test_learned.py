"""The learned value model (issue 29): the pipeline reproduces its weights, the evaluator's values are rank
rewards for every seat, the packaged weights load with no network and no numpy, and a broken weights file
is refused with a clear error."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotable import games
from robotable.ai import ISMCTSAgent
from robotable.ai import learned as lv
from robotable.ai.heuristics import tf22_reload_features as features
from robotable.ai.learn import pipeline
from robotable.core import BadInput, Rng

GAME = "tf22-reload"


def random_state(players: int, seed: int, moves: int):
    """A TF22 state after up to ``moves`` random actions (never over)."""
    state = games.load(GAME).start(players, seed=seed)
    rng = Rng(seed)
    for _ in range(moves):
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        after = state.clone()
        after.apply_legal(seat, legal[rng.randrange(len(legal))])
        if after.is_over():
            break
        state = after
    return state


# -- the pipeline ----------------------------------------------------------------------------------


def tiny(seed: int) -> dict:
    return pipeline.run(GAME, players=[2], games=[6], seed=seed, hidden=3, steps=40)


def test_the_pipeline_on_a_tiny_run_gives_the_same_weights_for_the_same_seed(tmp_path):
    first, again, other = tiny(7), tiny(7), tiny(8)
    assert first == again
    assert first["models"] != other["models"]  # the seed matters: the equality above is not vacuous
    path = pipeline.write(first, tmp_path / "w.json")
    text = path.read_text()
    assert pipeline.write(again, tmp_path / "w2.json").read_text() == text  # byte for byte
    loaded = lv.load_weights(GAME, path)
    model = loaded.models[2]
    assert model.linear == first["models"]["2"]["linear"] and len(model.hidden) == 3


def test_the_command_line_writes_weights_that_load(tmp_path, capsys):
    out = tmp_path / "value.json"
    code = pipeline.main(
        [GAME, "--games", "4", "--seed", "1", "--hidden", "0", "--steps", "10", "--quiet", "--out", str(out)]
    )
    assert code == 0 and capsys.readouterr().out.strip() == str(out)
    doc = json.loads(out.read_text())
    assert doc["training"]["command"].startswith(f"python -m robotable.ai.learn {GAME} ")
    assert lv.load_weights(GAME, out).models[2].hidden == []


def test_the_command_line_refuses_mismatched_runs_clearly(tmp_path, capsys):
    code = pipeline.main([GAME, "--players", "2,4", "--games", "10", "--out", str(tmp_path / "x.json")])
    assert code == 2 and "one game count per table size" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()


# -- the evaluator ---------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 200))
def test_the_packaged_evaluator_gives_every_seat_a_rank_reward_on_random_states(players, seed, moves):
    state = random_state(players, seed, moves)
    values = lv.value_evaluator(GAME)(state)
    assert len(values) == players
    assert all(0.0 <= v <= 1.0 for v in values)
    assert sum(values) == pytest.approx(players / 2)  # as rank rewards: each pair shares one point


weights = st.floats(-50, 50, allow_nan=False)


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    moves=st.integers(0, 200),
    linear=st.lists(weights, min_size=len(features.NAMES), max_size=len(features.NAMES)),
    hidden=st.lists(st.tuples(weights, weights, weights), max_size=3),
)
def test_any_weights_give_values_in_0_1_even_extreme_ones(players, seed, moves, linear, hidden):
    width = len(features.NAMES)
    model = lv.ValueModel(linear, [[h[0]] * width for h in hidden], [h[1] for h in hidden], [h[2] for h in hidden])
    values = model.values(features.features(random_state(players, seed, moves)))
    assert all(0.0 <= v <= 1.0 and math.isfinite(v) for v in values)


def test_the_features_see_only_what_every_seat_sees():
    state = random_state(3, 11, 40)
    for seat in range(3):
        sample = state.determinize(seat, Rng(5))
        assert features.features(sample) == features.features(state)


def test_a_late_big_lead_is_worth_almost_a_win():
    state = random_state(2, 3, 0)
    state.round, state.battle = 2, 14
    state.scores = [[30, 0, 0], [10, 0, 0]]
    values = lv.value_evaluator(GAME)(state)
    assert values[0] > 0.9 > 0.1 > values[1]


def test_search_plays_with_the_learned_evaluator():
    state = games.load(GAME).start(2, seed=4)
    agent = ISMCTSAgent(seed=1, iterations=30, rollout_depth=4, evaluator=lv.value_evaluator(GAME))
    assert agent.act(state, 0) in state.legal_actions(0)


# -- loading ---------------------------------------------------------------------------------------


def test_the_packaged_weights_load_with_no_network_and_no_numpy():
    code = """
import socket, sys
sys.modules["numpy"] = None  # importing numpy now fails
def refuse(*args, **kwargs):
    raise OSError("no network in this test")
socket.socket = refuse
socket.create_connection = refuse
from robotable import games
from robotable.ai.learned import value_evaluator
values = value_evaluator("tf22-reload")(games.load("tf22-reload").start(4, seed=2))
assert len(values) == 4 and all(0 <= v <= 1 for v in values), values
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_the_packaged_weights_cover_the_table_sizes_they_were_trained_for():
    loaded = lv.load_weights(GAME)
    runs = loaded.meta["runs"]
    assert sorted(loaded.models) == sorted(r["players"] for r in runs)
    assert 2 in loaded.models


def good_doc() -> dict:
    return json.loads(lv.default_weights(GAME).read_text())


@pytest.mark.parametrize(
    ("break_it", "message"),
    [
        (lambda d: d.update(format="other/9"), "format is 'other/9'"),
        (lambda d: d.update(game="twin-tin-bots"), "weights for 'twin-tin-bots', not 'tf22-reload'"),
        (lambda d: d["features"].pop(), "train again"),
        (lambda d: d.update(models={}), "'models' must map"),
        (lambda d: d["models"].update({"two": d["models"]["2"]}), "'two' is not a number of players"),
        (lambda d: d["models"]["2"]["linear"].pop(), "models[2].linear: expected a list of"),
        (lambda d: d["models"]["2"].pop("out"), "models[2]: missing out"),
        (lambda d: d["models"]["2"]["linear"].__setitem__(0, "x"), "'x' is not a finite number"),
    ],
)
def test_a_broken_weights_file_is_refused_saying_what_is_wrong(tmp_path, break_it, message):
    doc = good_doc()
    break_it(doc)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(lv.WeightsError) as caught:
        lv.load_weights(GAME, path)
    assert message in str(caught.value) and str(path) in str(caught.value)
    assert isinstance(caught.value, BadInput)


def test_a_file_that_is_not_json_or_not_there_is_refused_clearly(tmp_path):
    path = tmp_path / "w.json"
    path.write_text('{"format": "robotable-value/1", ')
    with pytest.raises(lv.WeightsError, match="not valid JSON"):
        lv.load_weights(GAME, path)
    with pytest.raises(lv.WeightsError, match="cannot read the weights file"):
        lv.load_weights(GAME, tmp_path / "missing.json")
    path.write_text("[1, 2]")
    with pytest.raises(lv.WeightsError, match="expected a JSON object"):
        lv.load_weights(GAME, path)


def test_a_game_without_a_learned_model_is_refused():
    with pytest.raises(BadInput, match="no learned value model for 'robots-on-the-line'"):
        lv.value_evaluator("robots-on-the-line")


def test_the_fit_keeps_the_listed_weights_nonnegative():
    np = pytest.importorskip("numpy")
    from robotable.ai.learn import train

    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(400, 3)), rng.normal(size=(400, 3))
    y = ((a[:, 0] - b[:, 0]) < 0).astype(float)  # more of feature 0 loses: a confounded resource
    data = train.Pairs(a, b, y, np.full(400, 2))
    free = train.fit(data, hidden=0, steps=200, seed=1)
    kept = train.fit(data, hidden=0, steps=200, seed=1, nonneg=[0])
    assert free["linear"][0] < -0.5  # the data do teach a negative weight...
    assert kept["linear"][0] == 0.0  # ...which the constraint refuses


def test_every_tf22_feature_is_something_a_seat_wants_more_of():
    assert frozenset(features.NAMES) == features.NONNEGATIVE
    model = lv.load_weights(GAME)
    for players, weights in model.models.items():
        assert all(w >= 0 for w in weights.linear), players
