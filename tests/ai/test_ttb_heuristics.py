"""Twin Tin Bots heuristics: navigation, sensible choices in small puzzles, search helpers."""

from __future__ import annotations

from robotable import games
from robotable.ai import Decision, ISMCTSAgent, make_agent
from robotable.ai.heuristics import twin_tin_bots as ttb
from robotable.core import Match, Rng
from robotable.games.twin_tin_bots import Pass, Tile, ZapOrder
from robotable.games.twin_tin_bots.positions import complete

GAME = games.load("twin-tin-bots")
YELLOW_START = {
    "yellow": [{"hex": [4, -3], "facing": "SW", "cargo": None}, {"hex": [0, 4], "facing": "NW", "cargo": None}]
}


def position(**fields):
    return GAME.state_from_json(complete({"num_players": 2, **fields}))


def test_navigation_counts_orders_to_face_a_target():
    state = GAME.start(2, seed=0)
    nav = ttb.nav_for(state)
    table = nav.table((3, 0))  # red's Base
    east, west = 0, 3
    assert table[nav.index[(2, 0)] * 6 + east] == 0  # next to it, facing it
    assert table[nav.index[(2, 0)] * 6 + west] == 3  # a U-turn away
    assert table[nav.index[(1, 0)] * 6 + east] == 1  # one step away
    assert ttb.nav_for(state.clone()) is nav  # cached per board


def test_a_loaded_robot_facing_its_base_delivers():
    state = position(
        turn_order=["red", "yellow"],
        robots={
            "red": [{"hex": [2, 0], "facing": "E", "cargo": "green"}, {"hex": [-4, 3], "facing": "NE", "cargo": None}]
        }
        | YELLOW_START,
        crystals=[{"hex": [0, 0], "crystal": "blue"}],
        programs={
            "red": ["turn_left", None, None, "forward_1", None, None],
            "yellow": ["zap", None, None, None, None, None],
        },
    )
    action = make_agent("heuristic", seed=1).act(state, 0)
    state.apply(0, action)
    assert state.delivered[0] == [3]


def test_an_empty_robot_facing_a_crystal_loads_it():
    state = position(
        turn_order=["red", "yellow"],
        robots={
            "red": [{"hex": [0, -1], "facing": "SE", "cargo": None}, {"hex": [-4, 3], "facing": "NE", "cargo": None}]
        }
        | YELLOW_START,
        crystals=[{"hex": [0, 0], "crystal": "pink"}],
        programs={
            "red": ["turn_left", None, None, "forward_1", None, None],
            "yellow": ["zap", None, None, None, None, None],
        },
    )
    state.apply(0, make_agent("heuristic", seed=1).act(state, 0))
    assert state.rcargo[0] == 4


def test_a_zapped_opponent_carrier_is_made_to_drop_its_crystal():
    state = position(
        turn_order=["yellow", "red"],
        robots={
            "red": [{"hex": [1, -1], "facing": "NE", "cargo": "pink"}, {"hex": [-4, 3], "facing": "NE", "cargo": None}],
            "yellow": [{"hex": [-1, -1], "facing": "E", "cargo": None}, {"hex": [0, 4], "facing": "NW", "cargo": None}],
        },
        crystals=[{"hex": [0, 2], "crystal": "blue"}],
        programs={
            "red": ["forward_1", None, None, "forward_1", None, None],
            "yellow": ["zap", None, None, None, None, None],
        },
    )
    state.apply(1, Pass())
    assert state.view(1)["pending"]["type"] == "zap"
    choice = make_agent("heuristic", seed=1).act(state, 1)
    assert choice == ZapOrder(Tile.UNLOAD)


def test_the_heuristic_beats_random_and_games_end():
    wins = 0
    for seed in range(2):
        agents = [make_agent("heuristic", seed=seed), make_agent("random", seed=seed)]
        if seed % 2:
            agents.reverse()
        match = Match("twin-tin-bots", 2, seed=seed)
        while not match.state.is_over():
            seat = match.state.to_act()[0]
            match.apply(seat, agents[seat].act(match.state, seat))
        me = seed % 2
        wins += match.state.result().ranks[me] < match.state.result().ranks[1 - me]
    assert wins == 2


def test_rollout_and_evaluate_on_determinized_states():
    state = GAME.start(3, seed=4)
    rng = Rng(1)
    for _ in range(30):
        if state.is_over():
            break
        seat = state.to_act()[0]
        sample = Decision.of(state, seat).sample(rng)
        legal = sample.legal_actions(seat)
        assert ttb.rollout(sample, seat, legal, rng) in legal
        assert ttb.model(sample, seat, legal, rng) in legal
        values = ttb.evaluate(sample)
        assert len(values) == 3 and all(0.0 <= v <= 1.0 for v in values)
        state.apply(seat, ttb.rollout(state, seat, state.legal_actions(seat), rng))


def test_the_game_sets_its_own_search_budgets():
    agent = ISMCTSAgent.level("hard", seed=1)
    state = GAME.start(2, seed=1)
    seat = state.to_act()[0]
    agent._bind("twin-tin-bots")
    assert agent.iterations == ttb.LEVELS["hard"]["iterations"]
    assert agent.rollout_depth == ttb.LEVELS["hard"]["rollout_depth"]
    agent._bind("tf22-reload")  # another game: the shared levels again
    assert agent.iterations == 700
    assert make_agent("ismcts:easy", seed=1).act(state, seat) in state.legal_actions(seat)
