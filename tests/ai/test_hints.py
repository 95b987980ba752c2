"""Hints while playing (robotable.ai.review.hints): legal choices, best first, reproducible, and from
the seat's view alone (re-dealing what it cannot see gives the same hint)."""

from __future__ import annotations

import pytest

from robotable import games
from robotable.ai.review import Budget, positions
from robotable.ai.review.hints import HINT_CHOICES, hint
from tests.ai.test_review import _variants, short_record

GAMES = games.available()
#: A tiny budget: the tests check how a hint is made, not how well the search plays.
TINY = Budget(iterations=12, seed=2)


def decisions(game_id: str):
    """Positions of a short game where the seat to move has a real choice."""
    record = short_record(game_id, 12, seed=4)
    for pos in positions(record):
        if pos.seat in pos.state.to_act() and len(pos.state.legal_actions(pos.seat)) > 1:
            yield pos.index, pos.seat, pos.state.clone()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_hint_lists_distinct_legal_moves_best_first_and_is_reproducible(game_id):
    index, seat, state = next(decisions(game_id))
    before = state.to_json()
    choices = hint(state, seat, index, TINY)
    legal = [a.to_json() for a in state.legal_actions(seat)]
    assert 1 <= len(choices) <= HINT_CHOICES
    assert all(c.action in legal and 0.0 <= c.value <= 1.0 for c in choices)
    assert len({str(c.action) for c in choices}) == len(choices)
    assert [c.visits for c in choices[1:]] == sorted((c.visits for c in choices[1:]), reverse=True)
    assert state.to_json() == before  # the position is not changed
    assert hint(state, seat, index, TINY) == choices


@pytest.mark.parametrize("game_id", GAMES)
def test_a_hint_ignores_what_the_seat_cannot_see(game_id):
    swapped = 0
    for index, seat, state in decisions(game_id):
        for variant in _variants(state, seat, index):
            if variant.to_json() != state.to_json():
                swapped += 1
                assert hint(variant, seat, index, TINY) == hint(state, seat, index, TINY)
                break
        if swapped >= 2:
            break
    assert swapped > 0, "no hidden information was re-dealt: the test checked nothing"
