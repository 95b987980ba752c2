"""Seeded random games with bots that also sell through the assembly helper.

Every game ends; the 136 parts, 20 torsos and the money are conserved; records replay identically;
views and events never show another player's unseen parts or the draw piles; illegal and malformed
actions raise a clear error and change nothing.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotable.core import BadInput, IllegalAction, Match, Rng, replay, visible_events
from robotable.games.robots_on_the_line import (
    GAME,
    Accept,
    EndTurn,
    Offer,
    SellRobot,
    TakePart,
    TakeTorso,
)
from robotable.games.robots_on_the_line.components import PARTS

PART_ID = re.compile(r'"([a-z]+-\d\d)"')
OPTIONS = [
    {},
    {"three_new_tiles": True},
    {"on_off_variant": True},
    {"family": True},
    {"line_resets": 1, "switch_flips": 0},
]


def bot(state, seat, rng):
    """Sell whenever the helper finds a robot; take parts and torsos; otherwise mostly random."""
    legal = state.legal_actions(seat)
    sales = [a for a in legal if isinstance(a, SellRobot)]
    if sales:
        return sales[rng.randrange(len(sales))]
    if seat != state.turn or state.phase == "pick":
        return legal[rng.randrange(len(legal))]
    takes = [a for a in legal if isinstance(a, TakePart)]
    if takes and rng.random() < 0.7:
        return takes[rng.randrange(len(takes))]
    if TakeTorso() in legal and rng.random() < 0.8:
        return TakeTorso()
    if rng.random() < 0.35:
        others = [a for a in legal if not isinstance(a, Offer) or rng.random() < 0.05]
        return others[rng.randrange(len(others))]
    return EndTurn()


def hidden_from(state, seat):
    """Part ids ``seat`` has not seen: the draw piles and the other players' dealt parts."""
    hidden = {PARTS[x].id for pile in state.draw for x in pile}
    for q in range(state.num_players):
        if q != seat:
            hidden |= {PARTS[x].id for x in state.secret[q]}
    return hidden


def assert_no_leak(state, events):
    for seat in [*range(state.num_players), None]:
        hidden = hidden_from(state, seat) if seat is not None else hidden_from(state, -1)
        shown = set(PART_ID.findall(json.dumps(state.view(seat))))
        assert not shown & hidden, (seat, shown & hidden)
        for e in visible_events(events, seat):
            assert not set(PART_ID.findall(json.dumps(e.to_json()))) & hidden, e


def try_bad_actions(state, rng):
    """Illegal and malformed actions raise and leave the state exactly as it was."""
    before = json.dumps(state.to_json())
    acting = state.to_act()
    idle = [q for q in range(state.num_players) if q not in acting]
    seat = acting[0]
    attempts = [(seat, TakePart(0, 9)), (seat, Accept(999))]
    if idle:
        attempts.append((idle[0], EndTurn()))
    legal_sales = [a for a in state.legal_actions(seat) if isinstance(a, SellRobot)]
    for sale in legal_sales[:1]:
        attempts.append((seat, SellRobot(sale.buyer, sale.layout[:-1], (), ())))
        attempts.append((seat, SellRobot(sale.buyer, (*sale.layout, sale.layout[1]), (), ())))
    for who, action in attempts:
        if state.is_legal(who, action) and who in acting:
            continue
        with pytest.raises(IllegalAction):
            state.apply(who, action)
        assert json.dumps(state.to_json()) == before
    for data in (
        {"type": "take_part", "line": "x", "space": 1},
        {"type": "sell_robot", "buyer": "buyer-2", "layout": [["torso-01", 0]], "batteries": [], "magnets": []},
        {"type": "sell_robot", "buyer": "buyer-2", "layout": [["torso-01", 0, 0, 9]], "batteries": [], "magnets": []},
        {"type": "offer", "to": 1, "give": ["gear-01"], "take": [], "give_money": 0, "take_money": 0},
        {"type": "nope"},
        ["end_turn"],
    ):
        with pytest.raises(BadInput):
            GAME.action_from_json(data)
    with pytest.raises(BadInput):
        state.apply(seat, "end_turn")  # type: ignore[arg-type]
    assert json.dumps(state.to_json()) == before


def play(players, seed, options, checks=True):
    match = Match(GAME, players, seed=seed, options=options)
    state = match.state
    rng = Rng(seed)
    steps = sales = 0
    while not state.is_over():
        seat = state.to_act()[0]
        action = bot(state, seat, rng)
        assert state.is_legal(seat, action), state.why_illegal(seat, action)
        events = match.apply(seat, action)
        sales += isinstance(action, SellRobot)
        steps += 1
        assert steps < 5000, "the game did not end"
        if checks:
            assert not state.check_invariants(), state.check_invariants()
            if steps % 7 == 0:
                assert_no_leak(state, events)
                if not state.is_over():
                    try_bad_actions(state, rng)
                    view = state.view(seat)
                    assert state.determinize(seat, Rng(steps)).view(seat) == view
    return match, sales


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**40),
    players=st.sampled_from([2, 3, 4]),
    options=st.sampled_from(OPTIONS),
)
def test_random_games_end_conserve_and_replay(seed, players, options):
    match, _ = play(players, seed, options)
    state = match.state
    assert state.is_over()
    result = state.result()
    assert len(result.scores) == players and result.winners
    again = replay(match.record)
    assert again.to_json() == state.to_json()
    assert GAME.state_from_json(json.loads(json.dumps(state.to_json()))).to_json() == state.to_json()


def test_bots_really_sell_robots():
    total = 0
    for players in (2, 3, 4):
        for seed in range(3):
            _, sales = play(players, seed, {}, checks=False)
            total += sales
    assert total >= 5


def test_play_random_ends():
    from robotable.core import play_random

    for players in (2, 3, 4):
        state = GAME.start(players, seed=players)
        play_random(state, Rng(players), max_steps=20_000)
        assert state.is_over() and not state.check_invariants()
