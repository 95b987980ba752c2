"""TF22's own invariants over many seeded random games of 2, 3 and 4 players.

The contract (JSON round trips, clones, refusals, views and determinize, records) is checked for every
game by tests/core/test_conformance.py."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotable.core import BadInput, Match, Record, Rng, replay, visible_events
from robotable.games.tf22_reload import GAME, Tf22State
from robotable.games.tf22_reload.state import CHOOSE

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
PLAYERS = st.sampled_from([2, 3, 4])


def random_match(n: int, seed: int) -> Match:
    return Match(GAME, n, seed=seed)


def position_after(n: int, seed: int, steps: int) -> Tf22State:
    """The state after up to ``steps`` random moves of a seeded game (it may have ended)."""
    match = random_match(n, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if match.state.is_over():
            break
        random_step(match, rng)
    return match.state


def random_step(match: Match, rng: Rng) -> None:
    waiting = match.state.to_act()
    seat = waiting[rng.randrange(len(waiting))]
    legal = match.state.legal_actions(seat)
    match.apply(seat, legal[rng.randrange(len(legal))])


@settings(max_examples=30, deadline=None)
@given(n=PLAYERS, seed=SEEDS)
def test_every_game_ends_conserving_every_component_and_replays_exactly(n, seed):
    match = random_match(n, seed)
    rng = Rng(seed ^ 0x5EED)
    steps = 0
    while not match.state.is_over():
        random_step(match, rng)
        match.state.check_invariants()  # cards, containers, chipcards and RCU cards all conserved
        steps += 1
        assert steps < 400, "a game is 28 battles: it must end"
    result = match.state.result()
    assert sorted(result.ranks)[0] == 1 and result.winners
    assert len(match.record.moves) == steps
    record = Record.from_json(json.loads(json.dumps(match.record.to_json())))
    assert replay(record).to_json() == match.state.to_json()


@settings(max_examples=25, deadline=None)
@given(n=PLAYERS, seed=SEEDS, steps=st.integers(min_value=0, max_value=150))
def test_views_never_reveal_another_seats_unrevealed_choice_or_the_stack_order(n, seed, steps):
    state = position_after(n, seed, steps)
    if state.phase != CHOOSE:
        return
    for chooser in state.to_act():
        for choice in state.legal_actions(chooser):
            variant = state.clone()
            events = variant.apply(chooser, choice)
            if variant.phase == CHOOSE and variant.battle == state.battle:  # not yet revealed
                reference = state.clone()
                ref_events = reference.apply(chooser, state.legal_actions(chooser)[0])
                for other in [None, *range(n)]:
                    if other == chooser:
                        continue
                    assert variant.view(other) == reference.view(other)
                    seen = [e.to_json() for e in visible_events(events, other)]
                    assert seen == [e.to_json() for e in visible_events(ref_events, other)]
    # a different stack order is invisible to everyone
    shuffled = state.clone()
    Rng(seed + 1).shuffle(shuffled.deck)
    for seat in [None, *range(n)]:
        assert shuffled.view(seat) == state.view(seat)
        assert "deck" not in state.view(seat)


def test_tampered_state_json_is_refused_with_the_reason():
    state = GAME.start(3, seed=5)
    data = state.to_json()
    data["chipcards"] = [30, 0, 0]
    with pytest.raises(BadInput, match="chipcards"):
        GAME.state_from_json(data)
    data = state.to_json()
    data["ships"][0][0] = ["green", "yellow"]
    with pytest.raises(BadInput, match="breaks the loading rules"):
        GAME.state_from_json(data)
    data = state.to_json()
    data["deck"].pop()
    with pytest.raises(BadInput, match="container cards"):
        GAME.state_from_json(data)
    data = state.to_json()
    data["hands"][1] = [1, 2, 3]
    with pytest.raises(BadInput, match="seat 1's hand"):
        GAME.state_from_json(data)


@settings(max_examples=15, deadline=None)
@given(n=PLAYERS, seed=SEEDS, strict=st.booleans())
def test_is_legal_agrees_with_legal_actions_for_every_action(n, seed, strict):
    from robotable.games.tf22_reload.actions import ACTIONS

    state = GAME.start(n, seed=seed, options={"strict_moves": strict})
    rng = Rng(seed)
    while not state.is_over():
        for seat in range(n):
            legal = state.legal_actions(seat)
            for action in ACTIONS:
                assert state.is_legal(seat, action) == (action in legal), (seat, action)
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
