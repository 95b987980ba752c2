"""The core: RNG, action codec, options, results, records and the registry, independent of any game."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

import robotable
from robotable.core import (
    Action,
    ActionCodec,
    BadInput,
    BadOptions,
    Event,
    GameOver,
    IllegalAction,
    Match,
    NotYourTurn,
    Option,
    Record,
    Result,
    Rng,
    UnknownGame,
    check_options,
    replay,
    replay_views,
    visible_events,
)

# -- Rng ---------------------------------------------------------------------------------------------


@given(seed=st.integers(0, 2**64 - 1), n=st.integers(1, 1000))
def test_rng_is_reproducible_and_in_range(seed, n):
    a, b = Rng(seed), Rng.from_json(Rng(seed).to_json())
    xs = [a.randrange(n) for _ in range(20)]
    assert xs == [b.randrange(n) for _ in range(20)]
    assert all(0 <= x < n for x in xs)


def test_rng_clone_is_independent_and_shuffle_is_a_permutation():
    rng = Rng(3)
    twin = rng.clone()
    items = list(range(30))
    rng.shuffle(items)
    assert sorted(items) == list(range(30)) and items != list(range(30))
    assert twin.next64() != rng.next64()  # the clone did not advance with the original
    assert 0.0 <= Rng(9).random() < 1.0


@pytest.mark.parametrize("bad", [-1, 2**64, "7", 1.5, True, None])
def test_rng_from_json_refuses_bad_state(bad):
    with pytest.raises(BadInput, match="rng"):
        Rng.from_json(bad)


def test_rng_randrange_refuses_empty_range():
    with pytest.raises(ValueError):
        Rng(1).randrange(0)


# -- Action codec --------------------------------------------------------------------------------------


class Hue(enum.IntEnum):
    RED = 0
    BLUE = 1


@dataclass(frozen=True, slots=True)
class Paint(Action):
    type = "paint"
    hue: Hue
    cells: tuple[int, ...]
    note: str | None


CODEC = ActionCodec("demo", [Paint])


def test_codec_round_trips_enums_tuples_and_optionals():
    action = Paint(Hue.BLUE, (1, 2), None)
    assert action.to_json() == {"type": "paint", "hue": "blue", "cells": [1, 2], "note": None}
    assert CODEC.from_json(action.to_json()) == action


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "expected a JSON object"),
        ({"type": "jump"}, "unknown type 'jump'"),
        ({"type": "paint", "hue": "red", "cells": []}, "missing field 'note'"),
        ({"type": "paint", "hue": "red", "cells": [], "note": None, "x": 1}, "unknown field"),
        ({"type": "paint", "hue": "pink", "cells": [], "note": None}, "expected one of red, blue"),
        ({"type": "paint", "hue": "red", "cells": [1, "2"], "note": None}, r"cells'\[1\]: expected an integer"),
        ({"type": "paint", "hue": "red", "cells": [True], "note": None}, "expected an integer"),
        ({"type": "paint", "hue": "red", "cells": 3, "note": None}, "expected a list"),
        ({"type": "paint", "hue": "red", "cells": [], "note": 4}, "expected a string"),
    ],
)
def test_codec_names_what_is_wrong(data, message):
    with pytest.raises(BadInput, match=message):
        CODEC.from_json(data)


def test_codec_refuses_two_classes_with_one_type():
    with pytest.raises(ValueError):
        ActionCodec("demo", [Paint, Paint])


def test_events_are_filtered_by_audience():
    public, private = Event("reveal", {"x": 1}), Event("draw", {"card": 5}, (1,))
    assert visible_events([public, private], 1) == [public, private]
    assert visible_events([public, private], 0) == [public]
    assert visible_events([public, private], None) == [public]
    assert private.to_json() == {"type": "draw", "card": 5}


# -- Options -------------------------------------------------------------------------------------------

SPEC = (
    Option("rounds", 2, "rounds", minimum=1, maximum=3),
    Option("mode", "normal", "mode", choices=("normal", "family")),
    Option("teams", False, "team play"),
)


def test_options_fill_defaults():
    assert check_options("demo", SPEC, None) == {"rounds": 2, "mode": "normal", "teams": False}
    assert check_options("demo", SPEC, {"teams": True})["teams"] is True


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"round": 1}, "unknown option 'round'"),
        ({"rounds": 0}, "below the minimum 1"),
        ({"rounds": 4}, "above the maximum 3"),
        ({"rounds": "2"}, "expected an integer"),
        ({"mode": "easy"}, "not one of"),
        ({"teams": 1}, "expected true or false"),
        ([1], "must be a JSON object"),
    ],
)
def test_bad_options_are_named(given, message):
    with pytest.raises(BadOptions, match=message):
        check_options("demo", SPEC, given)


def test_start_refuses_bad_player_counts_and_seeds():
    game = robotable.games.load("tf22-reload")
    for n in (1, 5, "3", True):
        with pytest.raises(BadOptions, match=r"num_players|players is not supported"):
            game.start(n, seed=1)
    for seed in (-1, "x", 1.5):
        with pytest.raises(BadOptions, match="seed"):
            game.start(2, seed=seed)
    with pytest.raises(BadOptions, match="unknown option"):
        game.start(2, seed=1, options={"variant": "x"})


# -- Result --------------------------------------------------------------------------------------------


def test_result_ranks_share_places_and_payoffs_split_the_win():
    result = Result.from_keys((10, 10, 7), ((10, 1), (10, 1), (7, 5)), "end")
    assert result.ranks == (1, 1, 3) and result.winners == (0, 1)
    assert result.ranking == [[0, 1], [2]]
    assert result.payoff(0) == 0.5 and result.payoff(2) == 0.0
    assert Result.from_json(json.loads(json.dumps(result.to_json()))) == result
    with pytest.raises(BadInput):
        Result.from_json({"scores": [1]})


# -- Registry, errors, records -------------------------------------------------------------------------


def test_registry_knows_tf22_and_names_unknown_games():
    assert "tf22-reload" in robotable.games.available()
    assert robotable.games.load("tf22-reload").name == "TF22: RELOAD!"
    with pytest.raises(UnknownGame, match="unknown game 'chess'"):
        robotable.games.load("chess")


def test_contract_errors_out_of_turn_and_after_the_end():
    match = Match("tf22-reload", 2, seed=4)
    state = match.state
    action = state.legal_actions(0)[0]
    state.apply(0, action)
    with pytest.raises(NotYourTurn, match="seat 0 is not to act"):
        state.apply(0, action)
    assert isinstance(NotYourTurn("x"), IllegalAction)
    robotable.core.play_random(state, Rng(1))
    with pytest.raises(GameOver):
        state.apply(0, action)
    with pytest.raises(IllegalAction):
        robotable.games.load("tf22-reload").start(2, seed=1).result()


def test_record_round_trip_save_load_and_replay(tmp_path):
    match = Match("tf22-reload", 3, seed=12, meta={"who": "test"})
    rng = Rng(2)
    for _ in range(40):
        seat = match.state.to_act()[0]
        legal = match.state.legal_actions(seat)
        match.apply(seat, legal[rng.randrange(len(legal))])
    path = match.record.save(tmp_path / "game.json")
    loaded = Record.load(path)
    assert loaded == match.record
    assert replay(loaded).to_json() == match.state.to_json()
    assert replay(loaded, upto=0).to_json() == robotable.games.load("tf22-reload").start(3, seed=12).to_json()
    views = list(replay_views(loaded, 1))
    assert len(views) == 41 and views[-1]["view"] == match.state.view(1)


def test_refused_move_is_not_recorded():
    match = Match("tf22-reload", 2, seed=4)
    with pytest.raises(IllegalAction):
        match.apply(1, robotable.games.load("tf22-reload").action_from_json({"type": "load", "slot": 0}))
    assert match.record.moves == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("x", "expected a JSON object"),
        ({"game": "tf22-reload", "num_players": 2, "seed": 1}, "missing field 'moves'"),
        ({"game": "tf22-reload", "num_players": "2", "seed": 1, "moves": []}, "'num_players' must be an integer"),
        ({"game": "tf22-reload", "num_players": 2, "seed": 1, "moves": [[0]]}, "move 0 must be"),
        ({"game": "tf22-reload", "num_players": 2, "seed": 1, "moves": [], "format": 9}, "unsupported format"),
    ],
)
def test_malformed_records_are_refused(data, message):
    with pytest.raises(BadInput, match=message):
        Record.from_json(data)


def test_a_record_with_an_illegal_move_names_the_move(tmp_path):
    record = Record("tf22-reload", 2, 1, {}, [(0, {"type": "play", "value": 3}), (0, {"type": "play", "value": 4})])
    with pytest.raises(BadInput, match="move 1"):
        replay(record)
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(BadInput, match="cannot read"):
        Record.load(tmp_path / "bad.json")
    with pytest.raises(BadInput, match="no such file"):
        Record.load(tmp_path / "missing.json")
