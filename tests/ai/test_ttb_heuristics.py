"""Twin Tin Bots heuristics: navigation, sensible choices in small puzzles, search helpers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from robotable import games
from robotable.ai import Decision, ISMCTSAgent, heuristics, ismcts, make_agent
from robotable.ai.heuristics import twin_tin_bots as ttb
from robotable.core import Match, Rng
from robotable.games.twin_tin_bots import Pass, Place, Remove, Swap, Tile, ZapOrder
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
    agent._bind("tf22-reload")  # another game: its levels again
    tf22 = {**ismcts.LEVELS["hard"], **getattr(heuristics.for_game("tf22-reload"), "LEVELS", {}).get("hard", {})}
    assert agent.iterations == tf22["iterations"]
    assert make_agent("ismcts:easy", seed=1).act(state, seat) in state.legal_actions(seat)
    # every level gives both budgets, and each level above thinks more than the one below
    levels = [ttb.LEVELS[name] for name in ("easy", "medium", "hard")]
    assert all(lv["iterations"] > 0 and lv["seconds"] > 0 for lv in levels)
    assert [lv["seconds"] for lv in levels] == sorted(lv["seconds"] for lv in levels)
    assert [lv["iterations"] for lv in levels] == sorted(lv["iterations"] for lv in levels)


# -- carriers (issue 29): what a person sees ----------------------------------------------------------


def _slots(*names):
    return [int(Tile[n.upper()]) if n else -1 for n in names]


def _red_carrier_near_home(red_program):
    """Red A carries a green crystal two hexes from its Base (3, 0), facing it, with ``red_program``;
    red B, empty, could drive toward the crystals instead."""
    return position(
        turn_order=["red", "yellow"],
        robots={
            "red": [{"hex": [1, 0], "facing": "E", "cargo": "green"}, {"hex": [-3, -1], "facing": "E", "cargo": None}]
        }
        | YELLOW_START,
        crystals=[{"hex": [-1, 3], "crystal": "pink"}, {"hex": [1, -3], "crystal": "blue"}],
        programs={"red": red_program, "yellow": ["zap", None, None, "turn_left", None, None]},
    )


def test_a_carrier_whose_program_spins_it_on_the_spot_is_sent_home():
    # `Turn Left, Turn Right` brings red A back where it started every turn: the change goes to it
    # (Forward 1x after the turns: it ends facing its Base), not to red B.
    state = _red_carrier_near_home(["turn_left", "turn_right", None, "turn_right", None, None])
    for seed in range(3):
        sim = state.clone()
        sim.apply(0, make_agent("heuristic", seed=seed).act(sim, 0))
        assert sim.rhex[0] == (2, 0) and sim.rface[0] == 0 and sim.rcargo[0] == 3  # facing its Base, E


def test_a_program_that_returns_the_carrier_to_its_start_is_worth_less_than_one_that_progresses():
    for loop, progress in (
        (("turn_left", "turn_right", None), ("turn_left", "turn_right", "forward_1")),
        (("unload", "forward_1", "load"), ("forward_1", "forward_1", "load")),  # the crystal cannot be pushed
    ):
        state = _red_carrier_near_home([*loop, "turn_right", None, None])
        tb = ttb.Table(state)
        start = ttb.Sim(state)
        looping = ttb.program_value(tb, start, state, 0, 0, _slots(*loop, "forward_1", None, None))
        going_home = ttb.program_value(tb, start, state, 0, 0, _slots(*progress, "turn_right", None, None))
        assert going_home > looping, loop


def test_after_a_steal_the_robot_drives_away_instead_of_being_robbed_back():
    # Red A's program (Turn Left, Load, Turn Right) steals yellow A's green crystal and leaves red A next
    # to yellow A, whose program (Forward 2x blocked by the edge, Load) steals it back at once: red
    # drives off after the steal (Forward 2x, pushing yellow A away) and still has it after yellow's turn.
    state = position(
        turn_order=["red", "yellow"],
        robots={
            "red": [{"hex": [3, 1], "facing": "NW", "cargo": None}, {"hex": [0, 0], "facing": "SE", "cargo": "green"}],
            "yellow": [
                {"hex": [2, 1], "facing": "E", "cargo": "green"},
                {"hex": [-2, 0], "facing": "SE", "cargo": None},
            ],
        },
        crystals=[
            {"hex": [-2, 4], "crystal": "blue"},
            {"hex": [-1, 1], "crystal": "blue"},
            {"hex": [3, -4], "crystal": "blue"},
        ],
        programs={
            "red": ["turn_left", "load", "turn_right", "forward_1", "forward_1", "load"],
            "yellow": ["forward_2", "load", None, "forward_1", "unload", None],
        },
        delivered={"red": ["blue"], "yellow": ["green"]},
        track=["green", "pink", "pink", "pink", "pink"],
    )
    for seed in range(3):
        sim = state.clone()
        sim.apply(0, make_agent("heuristic", seed=seed).act(sim, 0))
        assert sim.rcargo[0] == 3  # stolen
        sim.apply(1, Pass())  # yellow's programs run as they stand
        assert sim.rcargo[0] == 3 and sim.rcargo[2] == 0


# -- search: one change per program as it runs -------------------------------------------------------


def _effective(prog, robot):
    lo = robot * 3
    return tuple(t for t in prog[lo : lo + 3] if t >= 0)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 40))
def test_prune_keeps_one_change_per_program_as_it_runs(seed, moves):
    state = GAME.start(2, seed=seed)
    rng = Rng(seed)
    for _ in range(moves):
        if state.is_over():
            return
        seat = state.to_act()[0]
        state.apply(seat, ttb.rollout(state, seat, state.legal_actions(seat), rng))
    if state.is_over():
        return
    seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    kept = ttb.prune(state, seat, legal)
    assert kept and all(a in legal for a in kept)

    def runs_as(a):
        after = ttb.changed_program(state.programs[state.active], a)
        if after is None or not isinstance(a, Place | Swap | Remove):
            return a  # kept as itself
        k = ttb._robot_of(a)
        return (k, _effective(after, k))

    kept_keys = [runs_as(a) for a in kept]
    assert len(set(kept_keys)) == len(kept_keys)  # no two kept changes run the same
    assert {runs_as(a) for a in legal} == set(kept_keys)  # every program a change leads to is still reachable


def test_the_first_turn_offers_each_tile_once_per_robot():
    state = GAME.start(2, seed=3)
    seat = state.to_act()[0]
    kept = ttb.prune(state, seat, state.legal_actions(seat))
    places = [(a.slot // 3, a.tile) for a in kept if isinstance(a, Place)]
    assert len(places) == len(set(places)) == len(kept)
    assert len(kept) < len(state.legal_actions(seat))


def _red_carrier_with_points(delivered):
    """Red A carries a green crystal (3) one order from facing its Base, its program spinning it on the
    spot; red has ``delivered`` in its Base, yellow 8 points and no carrier."""
    state = _red_carrier_near_home(["turn_left", "turn_right", None, "turn_right", None, None])
    data = state.to_json()
    data["delivered"] = {"red": delivered, "yellow": ["green", "green", "blue"]}
    for crystal in [*delivered, "green", "green", "blue"]:  # delivered crystals come off the track
        if crystal in data["track"]:
            data["track"].remove(crystal)
        else:
            data["unused"][crystal] -= 1
    return GAME.state_from_json(data)


def test_the_race_sees_a_carrier_whose_delivery_wins_the_game():
    # 2 players: the target is 11. With 8 in its Base, red's green (3) wins the game when it is delivered;
    # with 6, it does not, and nothing is threatened.
    winning, not_yet = _red_carrier_with_points(["pink", "pink"]), _red_carrier_with_points(["pink", "blue"])
    tb = ttb.Table(winning)
    assert tb.target == 11
    delivered = [sum(d) for d in winning.delivered]
    assert ttb.victory_threat(tb, winning, delivered) == [ttb.GAMMA ** tb.home_cost_at(0, winning), 0.0]
    assert ttb.victory_threat(tb, winning, delivered)[0] > 0
    assert ttb.victory_threat(ttb.Table(not_yet), not_yet, [sum(d) for d in not_yet.delivered]) == [0.0, 0.0]
    # the evaluator with a race weight values the winning carrier more, and nothing else changes
    assert ttb.evaluate(winning, race=ttb.RACE)[0] > ttb.evaluate(winning)[0]
    assert ttb.evaluate(not_yet, race=ttb.RACE) == ttb.evaluate(not_yet)


def test_hard_searches_with_the_race_and_the_levels_below_without_it():
    winning = _red_carrier_with_points(["pink", "pink"])
    hard = ISMCTSAgent.level("hard", seed=1)
    hard._bind("twin-tin-bots")
    assert hard.evaluator(winning) == ttb.evaluate(winning, race=ttb.RACE) != ttb.evaluate(winning)
    medium = ISMCTSAgent.level("medium", seed=1)
    medium._bind("twin-tin-bots")
    assert medium.evaluator(winning) == ttb.evaluate(winning)


def test_search_values_a_robot_on_its_way_above_one_its_program_leaves_in_place():
    # Red B, empty, 3 orders from the pink crystal with `Forward 1x` (it is on its way), against red B a
    # hex nearer whose program (Turn Left, Turn Right) leaves it where it stands: that one fetches
    # nothing before a programming change, and red's other robot may need the turn's change.
    def red_b(hex_, program):
        return position(
            turn_order=["yellow", "red"],
            robots={
                "red": [{"hex": [2, 0], "facing": "E", "cargo": None}, {"hex": hex_, "facing": "SE", "cargo": None}]
            }
            | YELLOW_START,
            crystals=[{"hex": [-2, 3], "crystal": "pink"}],
            programs={"red": ["turn_left", None, None, *program], "yellow": ["turn_left", None, None] * 2},
        )

    on_its_way = red_b([-1, 0], ["forward_1", None, None])
    standing = red_b([-1, 1], ["turn_left", "turn_right", None])
    assert ttb.evaluate(on_its_way)[0] > ttb.evaluate(standing)[0]


# -- search: the opponent model remembers positions -------------------------------------------------


def test_the_opponent_model_remembers_positions_and_answers_as_the_light_heuristic():
    # Positions of several games through one shared memory: every answer (first asked or remembered)
    # is the light heuristic's own choice there, with the same draws from the search's generator.
    ttb._MODEL_CACHE.clear()
    asked = 0
    for seed in range(3):
        state = GAME.start(2, seed=seed)
        play = Rng(seed)
        for _ in range(24):
            if state.is_over():
                break
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            plain = Rng(seed)
            fresh = ttb.decide(state, seat, legal, plain, light=True)
            next_draw = plain.random()
            for remembered in (False, True):
                rng = Rng(seed)
                assert ttb.model(state.clone(), seat, legal, rng) == fresh, remembered
                # the same draws as without the memory: a search's later choices do not depend on it
                assert rng.random() == next_draw, remembered
            asked += 1
            state.apply(seat, ttb.rollout(state, seat, legal, play))
    assert asked > 30
    assert 0 < len(ttb._MODEL_CACHE) <= asked


def test_the_opponent_model_tells_apart_positions_one_robot_apart():
    # The same mid-game position with one robot turned, moved or unloaded: each variant is answered as
    # the light heuristic answers it, through one shared memory (a key blind to robots would not).
    ttb._MODEL_CACHE.clear()
    state = GAME.start(2, seed=5)
    rng = Rng(5)
    for _ in range(14):
        seat = state.to_act()[0]
        state.apply(seat, ttb.rollout(state, seat, state.legal_actions(seat), rng))
    seat = state.to_act()[0]
    variants = []
    for r in range(len(state.rhex)):
        for f in range(6):
            v = state.clone()
            v.rface[r] = f
            variants.append(v)
        for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            h = (state.rhex[r][0] + dq, state.rhex[r][1] + dr)
            if h in ttb.nav_for(state).index and state.thing_at(h) is None and not state.board.solid(h):
                v = state.clone()
                v.rhex[r] = h
                variants.append(v)
        v = state.clone()
        v.rcargo[r] = 0 if state.rcargo[r] else 3
        variants.append(v)
    answers = set()
    for v in variants:
        legal = v.legal_actions(seat)
        fresh = ttb.decide(v, seat, legal, Rng(0), light=True)
        assert ttb.model(v, seat, legal, Rng(1)) == fresh
        answers.add(fresh)
    assert len(answers) > 3  # the variants do call for different changes


def test_the_opponent_model_memory_is_bounded(monkeypatch):
    monkeypatch.setattr(ttb, "MODEL_CACHE_SIZE", 3)
    ttb._MODEL_CACHE.clear()
    state = GAME.start(2, seed=4)
    rng = Rng(4)
    for _ in range(12):
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        ttb.model(state, seat, legal, rng)
        assert len(ttb._MODEL_CACHE) <= 3
        state.apply(seat, ttb.rollout(state, seat, legal, rng))


def test_search_with_the_model_memory_plays_as_without_it(monkeypatch):
    # The memory only saves time: a guided search (as hard searches) gives every root candidate the
    # same visits and rewards with it as without it, decision after decision of one game.
    def light(state, seat, legal, rng):
        return ttb.decide(state, seat, legal, rng, light=True)

    params = {"iterations": 40, "rollout_depth": 4, "model_opponents": 0.7, "root_width": 6}
    state = GAME.start(2, seed=8)
    play = Rng(8)
    with_memory, without = ISMCTSAgent(seed=3, **params), ISMCTSAgent(seed=3, **params)
    ttb._MODEL_CACHE.clear()
    compared = 0
    for _ in range(10):
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            roots = []
            for agent, model in ((without, light), (with_memory, ttb.model)):
                monkeypatch.setattr(ttb, "model", model)
                agent._game = None  # bind the game's model again
                seen = {}
                original = agent._iterate

                def record(sample, roots_, me, allowed=None, guided=None, original=original, seen=seen):
                    seen["root"] = roots_
                    seen["me"] = me
                    return original(sample, roots_, me, allowed, guided)

                monkeypatch.setattr(agent, "_iterate", record)
                agent.act(state.clone(), seat)
                edges = seen["root"][seen["me"]].actions
                roots.append({a: (e.visits, round(e.total, 9)) for a, e in edges.items()})
            assert roots[0] == roots[1]
            compared += 1
        state.apply(seat, ttb.rollout(state, seat, legal, play))
    assert compared >= 5
    assert ttb._MODEL_CACHE  # the memory was used
