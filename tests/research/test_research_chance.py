"""Hidden draws as chance nodes where they happen (OpenSpiel ``chance_draws=1``), with their probabilities."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from robotable import games
from robotable.adapters import openspiel as ros
from robotable.adapters._common import canonical, encodable_games
from robotable.ai import make_agent
from robotable.games.tf22_reload.components import DECK

SETTINGS = {"twin-tin-bots": {"max_rounds": 30}}


def _move(state: pyspiel.State, rng: random.Random) -> None:
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    elif state.is_simultaneous_node():
        state.apply_actions([rng.choice(state.legal_actions(p) or [0]) for p in range(state.num_players())])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game_id", encodable_games())
def test_research_chance_draws_random_sim_test(game_id: str) -> None:
    game = ros.load_game(game_id, players=3, chance_draws=1, **SETTINGS.get(game_id, {}))
    pyspiel.random_sim_test(
        game, num_sims=1, serialize=True, verbose=False, mask_test=True, state_checker_fn=ros.check_round_trip
    )


def _pools(draws) -> dict[str, str]:
    """Each hidden pile's pool: piles the game declares ``shared`` draw from one pool."""
    pools = {name: name for name in draws.outcomes[:0]}
    for names in getattr(draws, "shared", ()):
        pools.update({name: " + ".join(names) for name in names})
    return pools


def _pile_counts(draws, state) -> dict[str, Counter]:
    """Each hidden pool of the Robotable state as a count of its chance outcomes."""
    pools = _pools(draws)
    counts: dict[str, Counter] = {}
    for name, pile in draws.piles(state).items():
        counts.setdefault(pools.get(name, name), Counter()).update(draws.outcome(name, item) for item in pile)
    return counts


@pytest.mark.parametrize("game_id", encodable_games())
def test_research_chance_draws_happen_where_they_happen(game_id: str) -> None:
    """Every chance node is a draw that happens: its outcomes are the kinds in the face-down pile it draws
    from (``chance_pile``) in proportion to their counts, and once the move is played the tiles that left
    each pile are exactly the outcomes its chance nodes chose (no chance node without its draw, no draw
    without its chance node). Seats play the heuristic (so Twin Tin Bots' blue crystals reach a Base and
    earn Special Orders) with some random moves."""
    sequential = games.load(game_id).simultaneous
    game = ros.load_game(game_id, players=2, chance_draws=1, sequential=sequential, **SETTINGS.get(game_id, {}))
    draws = game.robotable.chance_draws
    agent = make_agent("heuristic", seed=3)
    nodes = checked = 0
    for seed in range(4):
        state = ros.seeded_state(game, seed)
        rng = random.Random(seed)
        before: dict[str, Counter] | None = None
        chosen: dict[str, Counter] = {}
        while not state.is_terminal():
            if not state.is_chance_node():
                seat = state.current_player()
                action = agent.act(state.robotable_state, seat) if rng.random() < 0.8 else None
                state.apply_action(
                    rng.choice(state.legal_actions()) if action is None else game.robotable.action_index(action)
                )
                continue
            pile = _pools(draws).get(state.chance_pile, state.chance_pile)
            if before is None:
                before, chosen = _pile_counts(draws, state.robotable_state), {}
            hidden = before[pile] - chosen.get(pile, Counter())
            left = sum(hidden.values())
            assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
            if left:  # else the move refilled the pile before drawing (TF22's round 2): checked below
                assert state.chance_outcomes() == [(o, n / left) for o, n in sorted(hidden.items())], game_id
            outcome = rng.choices(*zip(*state.chance_outcomes()))[0]
            chosen.setdefault(pile, Counter())[outcome] += 1
            nodes += 1
            state.apply_action(outcome)
            if not state.is_chance_node():  # the move is played
                after = _pile_counts(draws, state.robotable_state)
                for name, counts in before.items():
                    if not after[name] - counts:  # nothing came back into the pile (no reshuffle)
                        assert counts - after[name] == chosen.get(name, Counter()), (game_id, name)
                        checked += 1
                before = None
    assert nodes >= 2 and checked >= 2, (nodes, checked)


def test_research_chance_draws_tf22_reveals_what_chance_drew() -> None:
    """Each battle's two cards are chance nodes over the face-down stack, in proportion to the cards of
    each kind in it, and the cards revealed are the ones drawn."""
    game = ros.load_game("tf22-reload", players=2, chance_draws=1)
    state = ros.seeded_state(game, 5)
    rng = random.Random(5)
    drawn: list[str] = []
    reveals = 0
    while not state.is_terminal():
        if state.is_chance_node():
            deck = Counter(state.robotable_state.deck or DECK)  # the hidden stack, or all 28 reshuffled
            names = game.robotable.chance_draws.outcomes
            left = sum(deck.values()) - len(drawn)
            for outcome, p in state.chance_outcomes():
                assert p == pytest.approx((deck[outcome] - drawn.count(names[outcome])) / left)
            outcome = rng.choice(state.chance_outcomes())[0]
            drawn.append(game.robotable.chance_draws.outcomes[outcome])
            state.apply_action(outcome)
            if not state.is_chance_node():
                revealed = [f"{c} {v}" for c, v in state.robotable_state.view(None)["revealed"]]
                assert revealed == drawn
                drawn = []
                reveals += 1
        else:
            _move(state, rng)
    assert reveals == 27  # 28 battles; the first is the deal (seeded_state drew it: see the deal test)


def test_research_chance_draws_rotl_parts_are_drawn() -> None:
    game = ros.load_game("robots-on-the-line", players=2, chance_draws=1)
    state = ros.seeded_state(game, 2)
    rng = random.Random(2)
    draws = 0
    names = game.robotable.chance_draws.outcomes
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            outcome = rng.choice(outcomes)[0]
            before = state.robotable_state.view(None)
            state.apply_action(outcome)
            draws += 1
            if not state.is_chance_node() and names[outcome].count("-"):  # a part: it is on a line now
                after = state.robotable_state.view(None)
                on_lines = {x for line in after["lines"] for x in line} | {
                    x for pile in after["junk_piles"] for x in pile
                }
                assert names[outcome] in on_lines or after["turn_number"] != before["turn_number"]
        else:
            _move(state, rng)
    assert draws > 10


def test_research_chance_draws_ismcts() -> None:
    game = ros.load_game("tf22-reload", players=2, sequential=True, chance_draws=1)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 5, random_state=np.random.RandomState(1))
    state = ros.seeded_state(game, 1)
    rng = random.Random(1)
    while not state.is_terminal():
        if not state.is_chance_node() and state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            _move(state, rng)
    assert sum(state.returns()) == pytest.approx(1.0)


def test_research_chance_draws_bad_values() -> None:
    with pytest.raises(ValueError, match="'chance_draws' must be 0 or 1"):
        ros.load_game("tf22-reload", players=2, chance_draws=2)
    state = ros.seeded_state(ros.load_game("tf22-reload", players=2, chance_draws=1), 1)
    rng = random.Random(1)
    while not state.is_chance_node():
        _move(state, rng)
    before = state.robotable_state.to_json()
    for impossible in (16, 200):
        with pytest.raises(ValueError, match="is not a possible draw"):
            state.apply_action(impossible)
    assert state.robotable_state.to_json() == before and state.is_chance_node()
    assert games.load("tf22-reload").chance_draws is not None


@pytest.mark.parametrize("game_id", encodable_games())
def test_research_chance_the_deal_is_chance_nodes(game_id: str) -> None:
    """With explicit chance the deal is chance nodes too: after the seed's bytes (which fix only what
    every seat sees), each card or tile the deal draws is a chance node over the pile's kinds in
    proportion to their counts, probabilities summing to 1; different outcomes deal different hidden
    cards (the seed does not), and TF22's first two revealed cards are the drawn ones."""
    game = ros.load_game(game_id, players=2, **SETTINGS.get(game_id, {}))
    robotable = game.robotable
    assert robotable.capabilities()["chance_deal"]
    draws = robotable.chance_draws
    deals = set()
    for trial in range(6):
        state = game.new_initial_state()
        for byte in (0, 0, 0, 7):  # the same seed every time
            state.apply_action(byte)
        rng = random.Random(trial)
        drawn = []
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0) and all(p > 0 for _, p in outcomes)
            if not drawn:  # the first draw: the whole pile (pool) the deal draws from
                undealt = state.robotable_state.clone()
                robotable.chance_deal.undeal(undealt)
                pool = _pile_counts(draws, undealt)[_pools(draws).get(state.chance_pile, state.chance_pile)]
                total = sum(pool.values())
                assert outcomes == [(o, n / total) for o, n in sorted(pool.items())]
            outcome = rng.choices(*zip(*outcomes))[0]
            drawn.append(outcome)
            state.apply_action(outcome)
        assert drawn, "the deal drew nothing"
        engine = state.robotable_state
        engine.check_invariants()
        if game_id == "tf22-reload":
            assert engine.revealed == drawn  # card ids are their kinds
        views = [canonical(engine.view(seat)) for seat in range(2)]
        deals.add(tuple(views))
    assert len(deals) > 1  # the chance nodes, not the seed, made the deal


def test_research_chance_a_clone_holds_no_future_draw() -> None:
    """A TF22 clone at a battle choice does not hold the next cards: from copies of the same clone, every
    kind still face down can be revealed next (the chance node's outcomes are exactly those kinds), and
    the card revealed is the one its chance node chose."""
    game = ros.load_game("tf22-reload", players=2, sequential=True)
    state = ros.seeded_state(game, 3)
    assert not state.is_chance_node()
    clone = state.clone()
    kinds = sorted(set(clone.robotable_state.deck))
    while not clone.is_chance_node():  # both battle choices, then the winner's load decision
        clone.apply_action(clone.legal_actions()[0])
    assert [o for o, _ in clone.chance_outcomes()] == kinds and len(kinds) > 1
    for outcome in kinds:
        copy = clone.clone()
        copy.apply_action(outcome)
        copy.apply_action(copy.chance_outcomes()[0][0])
        assert copy.robotable_state.revealed[0] == outcome


@pytest.mark.parametrize("game_id", encodable_games())
def test_research_chance_a_move_waits_at_its_draws(game_id: str) -> None:
    """A move with hidden draws is played once, in place, waiting at each undecided draw: in a game
    never asked for a state at a pending chance node, the state before the move is not kept, and is
    rebuilt from the history when asked (an observation, a clone); the rebuilt state, a clone's
    continuation and a replay of the history all reach the same states as the original."""
    game = ros.load_game(game_id, players=2, max_game_length=4321 + len(game_id), **SETTINGS.get(game_id, {}))
    rng = random.Random(5)
    ctx = game.new_initial_state().ctx
    assert not ctx.keep_before  # a fresh game: nothing asked at a pending node yet
    for seed in range(40):  # a game in which a move draws (Twin Tin Bots draws only for blue crystals)
        state = ros.seeded_state(game, seed)
        before = None
        while not state.is_terminal() and not (state.is_chance_node() and state.chance_pile):
            before = state.robotable_state.to_json()  # the state before the next move
            _move(state, rng)
        if not state.is_terminal():
            break
    assert state.is_chance_node() and before is not None, f"{game_id}: no move drew a card in 40 games"
    assert state._engine._state is None  # played in place: the state before it is not kept
    assert state.robotable_state.to_json() == before  # rebuilt from the history
    assert ctx.keep_before  # from now on kept as a copy
    clone = state.clone()
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcome = rng.choices(*zip(*state.chance_outcomes()))[0]
            state.apply_action(outcome)
            clone.apply_action(outcome)
        else:
            action = rng.choice(state.legal_actions()) if not state.is_simultaneous_node() else None
            if action is None:
                joint = [rng.choice(state.legal_actions(p) or [0]) for p in range(2)]
                state.apply_actions(joint)
                clone.apply_actions(joint)
            else:
                state.apply_action(action)
                clone.apply_action(action)
        assert clone.history() == state.history()
        assert clone.robotable_state.to_json() == state.robotable_state.to_json()
    again = ros.replay(game, [[h.player, h.action] for h in state.full_history()])
    assert again.robotable_state.to_json() == state.robotable_state.to_json()


def test_research_chance_states_dropped_while_waiting() -> None:
    """States left waiting at a draw can be dropped (their worker greenlets end with them), and play goes
    on in the same process as before."""
    import gc

    game = ros.load_game("tf22-reload", players=2, max_game_length=999)
    rng = random.Random(2)
    waiting = []
    for seed in range(30):
        state = ros.seeded_state(game, seed)
        while not (state.is_chance_node() and state.chance_pile):
            _move(state, rng)
        waiting.append(state)
    assert all(state._engine.worker is not None for state in waiting)
    del waiting, state
    gc.collect()
    state = ros.seeded_state(game, 99)
    while not state.is_terminal():
        _move(state, rng)
    again = ros.replay(game, [[h.player, h.action] for h in state.full_history()])
    assert again.robotable_state.to_json() == state.robotable_state.to_json()


def test_research_chance_a_waiting_state_goes_on_in_another_thread() -> None:
    """A state waiting at a draw can be continued in another thread (its worker greenlet belongs to the
    thread that began the move, so the move is played again there from the state before it): the game
    reaches the same states as in one thread."""
    import threading

    game = ros.load_game("tf22-reload", players=2, max_game_length=998)
    state = ros.seeded_state(game, 4)
    rng = random.Random(3)
    while not (state.is_chance_node() and state.chance_pile):
        _move(state, rng)
    assert state._engine.worker is not None
    twin = ros.replay(game, [[h.player, h.action] for h in state.full_history()])
    errors: list[BaseException] = []

    def finish(target: pyspiel.State, seed: int) -> None:
        try:
            moves = random.Random(seed)
            while not target.is_terminal():
                _move(target, moves)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    thread = threading.Thread(target=finish, args=(state, 8))
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive() and not errors, errors
    finish(twin, 8)
    assert twin.history() == state.history()
    assert twin.robotable_state.to_json() == state.robotable_state.to_json()


def test_research_chance_piles_between_moves_are_plain() -> None:
    """Between moves a state's hidden piles draw as plain lists: a move applied straight to the Robotable
    state (outside the wrapper) reveals the top cards, as the engine does."""
    game = ros.load_game("tf22-reload", players=2, max_game_length=997)
    state = ros.seeded_state(game, 6)
    rng = random.Random(6)
    for _ in range(3):  # a few battles: the deck is arranged by now
        while not state.is_terminal() and (state.is_chance_node() or state.is_simultaneous_node()):
            _move(state, rng)
        _move(state, rng)
    engine = state.robotable_state
    plain = engine.clone()  # the same position with a plain list for a deck
    assert type(engine.deck) is not list and type(plain.deck) is list and plain.deck == engine.deck
    battle = engine.battle
    for copy in (engine, plain):
        while not copy.is_over() and copy.battle == battle:
            seat = copy.to_act()[0]
            copy.apply(seat, copy.legal_actions(seat)[0])
    assert engine.to_json() == plain.to_json()
