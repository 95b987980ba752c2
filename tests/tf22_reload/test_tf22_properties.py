"""Invariants over many seeded random games of 2, 3 and 4 players."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotable.core import BadInput, IllegalAction, Match, Record, Rng, RobotableError, replay, visible_events
from robotable.games.tf22_reload import GAME, Load, PlayCard, RBuy, ReturnContainer, Tf22State
from robotable.games.tf22_reload.components import Colour
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


@settings(max_examples=15, deadline=None)
@given(n=PLAYERS, seed=SEEDS)
def test_state_json_round_trips_exactly_at_every_step(n, seed):
    match = random_match(n, seed)
    rng = Rng(seed)
    while not match.state.is_over():
        data = match.state.to_json()
        again = GAME.state_from_json(json.loads(json.dumps(data)))
        assert again.to_json() == data
        # the loaded state plays on exactly like the original (its RNG included)
        twin = match.state.clone()
        random_step(match, rng.clone())
        seat_rng = rng.clone()
        waiting = again.to_act()
        seat = waiting[seat_rng.randrange(len(waiting))]
        legal = again.legal_actions(seat)
        again.apply(seat, legal[seat_rng.randrange(len(legal))])
        assert again.to_json() == match.state.to_json()
        assert twin.to_json() == data  # and the clone was not touched
        rng.next64()


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


@settings(max_examples=20, deadline=None)
@given(n=PLAYERS, seed=SEEDS, steps=st.integers(min_value=0, max_value=150))
def test_determinize_keeps_everything_the_seat_knows(n, seed, steps):
    state = position_after(n, seed, steps)
    for seat in range(n):
        sample = state.determinize(seat, Rng(seed + seat))
        assert sample.view(seat) == state.view(seat)
        sample.check_invariants()


@settings(max_examples=25, deadline=None)
@given(n=PLAYERS, seed=SEEDS, steps=st.integers(min_value=0, max_value=150))
def test_illegal_actions_are_refused_and_change_nothing(n, seed, steps):
    state = position_after(n, seed, steps)
    before = json.dumps(state.to_json())
    attempts = [
        (seat, action)
        for seat in range(n)
        for action in [PlayCard(v) for v in range(0, 9)]
        + [Load(s) for s in range(6)]
        + [ReturnContainer(), RBuy(Colour.GREEN, 0), RBuy(Colour.YELLOW, 9)]
        if action not in state.legal_actions(seat)
    ]
    attempts += [(-1, PlayCard(1)), (n, PlayCard(1)), (True, PlayCard(1)), (0, "play 1"), (0, None)]
    for seat, action in attempts:
        with pytest.raises(RobotableError) as caught:
            state.apply(seat, action)
        assert str(caught.value)
        assert isinstance(caught.value, IllegalAction | BadInput)
        assert json.dumps(state.to_json()) == before


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(
    data=st.one_of(
        JSONISH,
        st.fixed_dictionaries(
            {"type": st.sampled_from([t.type for t in GAME.action_types])},
            optional={"value": JSONISH, "slot": JSONISH, "from_slot": JSONISH, "colour": JSONISH, "x": JSONISH},
        ),
    )
)
def test_malformed_action_json_raises_bad_input_naming_the_problem(data):
    try:
        action = GAME.action_from_json(data)
    except BadInput as exc:
        assert "tf22-reload action" in str(exc)
    else:
        assert GAME.action_from_json(action.to_json()) == action


@settings(max_examples=200, deadline=None)
@given(data=JSONISH)
def test_malformed_state_json_raises_bad_input(data):
    with pytest.raises(BadInput):
        GAME.state_from_json(data)


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


@settings(max_examples=20, deadline=None)
@given(n=PLAYERS, seed=SEEDS, steps=st.integers(min_value=0, max_value=150))
def test_determinize_depends_only_on_what_the_seat_knows(n, seed, steps):
    state = position_after(n, seed, steps)
    other = state.clone()  # same information sets, different hidden parts: stack order, RNG, choices
    Rng(seed + 7).shuffle(other.deck)
    other.rng = Rng(seed + 9)
    other.seed = seed + 11
    for seat in range(n):
        if other.choices[seat] is not None:
            other.choices[seat] = None
            legal = other.legal_actions(seat)
            other.choices[seat] = legal[-1]
    for seat in range(n):
        if any(other.choices[q] != state.choices[q] for q in range(n) if q == seat):
            continue  # a seat always knows its own choice
        assert other.view(seat) == state.view(seat)
        a = state.determinize(seat, Rng(seed)).to_json()
        b = other.determinize(seat, Rng(seed)).to_json()
        assert a == b


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
