"""OpenSpiel adapter: pyspiel's own conformance tests on every game, player count and main variant."""

from __future__ import annotations

import json
import pickle
import random
import unittest
from collections import deque

import numpy as np
import pyspiel
import pytest
from open_spiel.integration_tests import api_test

from robotable.adapters import openspiel as ros
from robotable.adapters.openspiel import _Engine
from robotable.core import BadInput, Rng

# Twin Tin Bots has no length bound in its rules (random play takes thousands of steps), so most runs
# are cut off early; test_research_openspiel_ttb_real_ending runs to the real end.
SHORT = {"max_game_length": 300}
# Robots on the Line ends by its rules (random play: a few hundred steps): the fewest and the most seats play
# to the real end, 3 seats and the variants are cut off earlier.
ROTL = "robots-on-the-line"
ROTL_SHORT = {"max_game_length": 200}

CASES = [
    ("tf22-reload", 2, None, {}, 1),
    ("tf22-reload", 3, None, {}, 1),
    ("tf22-reload", 4, None, {}, 1),
    ("twin-tin-bots", 2, None, SHORT, 1),
    ("twin-tin-bots", 3, None, SHORT, 1),
    ("twin-tin-bots", 4, None, SHORT, 1),
    ("twin-tin-bots", 5, None, SHORT, 1),
    ("twin-tin-bots", 6, None, SHORT, 1),
    ("twin-tin-bots", 3, {"simplified": True}, SHORT, 1),
    ("twin-tin-bots", 2, {"advanced_2p": True}, SHORT, 1),
    ("twin-tin-bots", 4, {"team_play": True}, SHORT, 1),
    ("twin-tin-bots", 4, {"teleporters": 1, "rocks": 2, "blobs": 2, "mud": 2}, SHORT, 1),
    (ROTL, 2, None, {}, 1),
    (ROTL, 3, None, ROTL_SHORT, 1),
    (ROTL, 4, None, {}, 1),
    (ROTL, 3, {"three_new_tiles": True}, ROTL_SHORT, 1),
    (ROTL, 4, {"on_off_variant": True, "line_resets": 0}, ROTL_SHORT, 1),
    (ROTL, 2, {"family": True}, ROTL_SHORT, 1),
]


@pytest.mark.parametrize(("game_id", "players", "options", "params", "sims"), CASES)
def test_research_openspiel_random_sim_test(
    game_id: str, players: int, options: dict | None, params: dict, sims: int
) -> None:
    game = ros.load_game(game_id, players=players, options=options, **params)
    checked = []

    def checker(state: pyspiel.State) -> None:
        ros.check_round_trip(state)  # our JSON round trip, on the very Python state pyspiel tests
        checked.append(state.robotable_state is not None)

    pyspiel.random_sim_test(
        game, num_sims=sims, serialize=True, verbose=False, mask_test=True, state_checker_fn=checker
    )
    assert sum(checked) > 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_research_openspiel_tf22_turn_based_conversion(players: int) -> None:
    game = pyspiel.convert_to_turn_based(ros.load_game("tf22-reload", players=players))
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False, mask_test=True)


def test_research_openspiel_ttb_real_ending() -> None:
    """A whole game to its real end, the conformance test running from 100-150 steps before it."""
    game = ros.load_game("twin-tin-bots", players=6)
    state = ros.seeded_state(game, 11)
    rng = random.Random(11)
    probe = state.clone()
    snapshots: deque[pyspiel.State] = deque(maxlen=3)  # the game every 50 steps (no replay needed)
    steps = 0
    while not probe.is_terminal():
        if steps % 50 == 0:
            snapshots.append(probe.clone())
        probe.apply_action(rng.choice(probe.legal_actions()))
        steps += 1
    engine = probe.robotable_state
    assert engine.is_over()  # the real end, not a cut-off
    assert probe.returns() == [engine.result().payoff(s) for s in range(6)]
    assert sum(probe.returns()) == pytest.approx(1.0)
    state = snapshots[0]  # 100 to 150 steps before the end
    assert len(snapshots) == 3
    pyspiel.random_sim_test(
        game,
        num_sims=1,
        serialize=True,
        verbose=False,
        mask_test=True,
        state_checker_fn=ros.check_round_trip,
        specific_initial_state=state,
    )


def _partial_tree_case(name: str, game: pyspiel.Game) -> type[unittest.TestCase]:
    return type(f"PartialTree_{name}", (api_test.EnforceAPIOnPartialTreeBase,), {"game_name": name, "game": game})


def _sample_simultaneous(game: pyspiel.Game, max_states: int = 400) -> list[pyspiel.State]:
    """States of random playouts (OpenSpiel's sampler returns only the root of a simultaneous game)."""
    rng = random.Random(5)
    states = []
    while len(states) < max_states:
        state = game.new_initial_state()
        while len(states) < max_states:
            states.append(state.clone())
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p) or [0]) for p in range(game.num_players())])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return states


def _simultaneous_case(name: str, game: pyspiel.Game) -> type[unittest.TestCase]:
    """The same OpenSpiel checks, on states sampled by playing the simultaneous game."""

    def set_up_class(cls: type) -> None:
        cls.some_states = _sample_simultaneous(cls.game)
        cls.game_type = cls.game.get_type()

    attrs = {"game_name": name, "game": game, "setUpClass": classmethod(set_up_class)}
    return type(f"PartialTree_{name}", (api_test.EnforceAPIOnPartialTreeBase,), attrs)


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("ttb2", lambda: ros.load_game("twin-tin-bots", players=2, **SHORT)),
        ("ttb4_variants", lambda: ros.load_game("twin-tin-bots", players=4, options={"rocks": 2, "blobs": 1}, **SHORT)),
        ("tf22_2p_simultaneous", lambda: ros.load_game("tf22-reload", players=2)),
        ("tf22_4p_simultaneous", lambda: ros.load_game("tf22-reload", players=4)),
        ("tf22_3p_turn_based", lambda: pyspiel.convert_to_turn_based(ros.load_game("tf22-reload", players=3))),
        ("rotl3", lambda: ros.load_game(ROTL, players=3)),
        ("rotl4_variants", lambda: ros.load_game(ROTL, players=4, options={"three_new_tiles": True, "line_resets": 1})),
    ],
)
def test_research_openspiel_api_partial_tree(name: str, make) -> None:
    """OpenSpiel's own integration tests (``EnforceAPIOnPartialTreeBase``) on a sample of states."""
    random.seed(5)
    game = make()
    simultaneous = game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    case = (_simultaneous_case if simultaneous else _partial_tree_case)(name, game)
    result = unittest.TextTestRunner(verbosity=0).run(unittest.defaultTestLoader.loadTestsFromTestCase(case))
    assert result.wasSuccessful(), [str(e) for e in result.errors + result.failures]
    assert result.testsRun == 5  # every partial-tree check of this OpenSpiel version


def test_research_openspiel_game_type_and_info() -> None:
    tf22 = ros.load_game("tf22-reload", players=4)
    ttb = ros.load_game("twin-tin-bots", players=3, options={"simplified": True})
    rotl = ros.load_game(ROTL, players=2, options={"family": True})
    assert tf22.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert ttb.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert rotl.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    for game, actions in ((tf22, 79), (ttb, 239), (rotl, 19266)):
        gtype = game.get_type()
        assert gtype.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert gtype.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert gtype.utility == pyspiel.GameType.Utility.CONSTANT_SUM
        assert game.utility_sum() == 1.0
        assert game.num_distinct_actions() == actions
        assert game.max_chance_outcomes() == 256
        draws = game.max_game_length() * ros.DRAWS_PER_STEP  # explicit chance: the draws after the seed
        assert game.max_chance_nodes_in_history() == ros.SEED_BYTES + draws
    assert tf22.max_game_length() == 56
    assert ttb.num_players() == 3
    # Also loadable by name, with options as JSON.
    again = pyspiel.load_game("robotable_twin_tin_bots", {"players": 3, "options": '{"simplified": true}'})
    assert again.num_players() == 3
    assert pyspiel.load_game(str(ttb)).get_parameters() == ttb.get_parameters()


def test_research_openspiel_history_is_a_record() -> None:
    game = ros.load_game("tf22-reload", players=2)
    state = game.new_initial_state()
    for byte in (0, 1, 0, 7):
        assert state.is_chance_node() and state.robotable_state is None
        state.apply_action(byte)
    assert state.robotable_state.seed == 256**2 + 7
    assert state.history() == [0, 1, 0, 7]
    while state.is_chance_node():  # the deal: each draw a chance node of its own
        state.apply_action(state.chance_outcomes()[0][0])
    assert len(state.history()) > 4
    state.apply_actions([state.legal_actions(0)[0], state.legal_actions(1)[-1]])
    restored = game.deserialize_state(state.serialize())
    assert str(restored) == str(state)
    assert pickle.loads(pickle.dumps(state)).robotable_state.to_json() == state.robotable_state.to_json()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"players": 7}, "7 players is not supported"),
        ({"players": "3"}, "num_players must be an integer"),
        ({"options": {"simplified": "yes"}}, "simplified"),
        ({"options": {"nope": 1}}, "nope"),
        ({"seed_bytes": 0}, "seed_bytes"),
        ({"seed_bytes": 8}, "seed_bytes"),
        ({"max_game_length": -3}, "max_game_length"),
    ],
)
def test_research_openspiel_bad_parameters(kwargs: dict, match: str) -> None:
    with pytest.raises(BadInput, match=match):
        ros.load_game("twin-tin-bots", **kwargs)


def test_research_openspiel_unknown_game() -> None:
    with pytest.raises(BadInput, match="unknown game"):
        ros.load_game("chess")


def _observations(state: pyspiel.State, seat: int) -> tuple:
    return (
        state.observation_string(seat),
        tuple(state.observation_tensor(seat)),
        state.information_state_string(seat),
        tuple(state.information_state_tensor(seat)),
    )


@pytest.mark.parametrize(("game_id", "players"), [("tf22-reload", 3), ("twin-tin-bots", 4), (ROTL, 3)])
def test_research_openspiel_no_leak(game_id: str, players: int) -> None:
    """Resampling what seat 0 cannot know (others' hidden tiles, choices, the deck) changes nothing it sees."""
    game = ros.load_game(game_id, players=players)
    state = ros.seeded_state(game, 3)
    rng = random.Random(3)
    changed = 0
    for step in range(60):
        if state.is_terminal():
            break
        other = state.clone()
        resampled = state.robotable_state.determinize(0, Rng(step + 1))
        other._engine = _Engine(resampled, [seat[:] for seat in state._engine.own])
        changed += resampled.to_json() != state.robotable_state.to_json()
        assert _observations(other, 0) == _observations(state, 0)
        obs = np.asarray(state.observation_tensor(0))
        assert np.isfinite(obs).all()
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p) or [0]) for p in range(players)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 0


def test_research_openspiel_observation_is_the_view() -> None:
    game = ros.load_game("tf22-reload", players=2)
    state = ros.seeded_state(game, 1)
    assert json.loads(state.observation_string(1)) == state.robotable_state.view(1)
    info = state.information_state_string(1)
    assert info.startswith(state.observation_string(1) + " | own actions:  | history sha256: ")
    assert len(state.observation_tensor(1)) == game.observation_tensor_size()


def _seller(legal: list[int], state: pyspiel.State, rng: random.Random) -> int:
    """A legal index: one time in five at random, else a sale, a junk pick, a torso, a part or the end of
    the turn (declining offers), in that order of preference (random play alone rarely sells)."""
    if rng.random() < 0.2:
        return rng.choice(legal)
    kinds = {i: json.loads(state.action_to_string(i))["type"] for i in legal}
    for wanted in (("sell_robot",), ("pick_junk",), ("take_torso",), ("take_part",), ("end_turn", "decline")):
        choice = [i for i in legal if kinds[i] in wanted]
        if choice:
            return rng.choice(choice)
    return rng.choice(legal)


def test_research_openspiel_rotl_sales_and_waiting_seats() -> None:
    """Robots on the Line through pyspiel with robots sold (random play rarely sells): a sale's index
    plays the helper's robot, the 3 new tiles picks follow, and while a trade offer is answered the
    node belongs to the answering seat alone; every state survives serialization."""
    game = ros.load_game(ROTL, players=3, options={"three_new_tiles": True}, chance_draws=0)  # seed mode
    state = ros.seeded_state(game, 8)
    rng = random.Random(8)
    sales = picks = waiting = 0
    while not state.is_terminal():
        engine = state.robotable_state
        seats = engine.to_act()
        current = state.current_player()
        assert current == seats[0]
        assert all(state.legal_actions(seat) == [] for seat in range(3) if seat != current)
        waiting += len(seats) > 1
        legal = state.legal_actions()
        mask = state.legal_actions_mask()
        assert len(mask) == game.num_distinct_actions() and [i for i, m in enumerate(mask) if m] == legal
        action = _seller(legal, state, rng)
        chosen = json.loads(state.action_to_string(action))
        if chosen["type"] == "sell_robot":
            sales_listed = [a for a in engine.legal_actions(current) if a.type == "sell_robot"]
            helper = next(a for a in sales_listed if a.buyer == chosen["buyer"])
            state.apply_action(action)
            assert state.robotable_state.sales[-1]["layout"] == [list(x) for x in helper.layout]
            sales += 1
        else:
            state.apply_action(action)
            picks += chosen["type"] == "pick_junk"
        ros.check_round_trip(state)
        assert str(game.deserialize_state(state.serialize())) == str(state)
    assert sales >= 2 and picks >= 2 and waiting > 0
    assert sum(state.returns()) == pytest.approx(1.0)
