"""Issue 27: "Players can trade at any time with another player, and it does not have to be their turn to
initiate the trade." A seat the game is not waiting for may make any well-formed offer, also when it has
no canonical offer (nothing of the other seat's hand seen yet, as at the start of every game): only the
documented limits (one open offer per pair, offers per turn) bound it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from robotable.core.rng import Rng
from robotable.games.robots_on_the_line import GAME, Offer
from robotable.games.robots_on_the_line.line import pid
from robotable.games.robots_on_the_line.trade import may_offer


def test_a_seat_not_to_act_offers_its_own_part_at_the_start_of_the_game() -> None:
    state = GAME.start(2, seed=500)
    assert state.to_act() == [0] and state.legal_actions(1) == []  # nothing of seat 0's hand is known yet
    assert state.optional_actors() == [1]
    offer = Offer(0, (pid(state.hands[1][0]),), (), 0, 1)
    events = state.apply(1, offer)  # refused with NotYourTurn before
    assert [e.type for e in events] == ["offer"]
    assert state.to_act() == [0]
    assert state.optional_actors() == []  # one open offer from seat 1 to seat 0: wait for the answer


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    num_players=st.integers(2, 4),
    steps=st.integers(0, 120),
    money=st.integers(1, 3),
)
def test_any_seat_within_the_limits_may_offer_at_any_moment(
    seed: int, num_players: int, steps: int, money: int
) -> None:
    state = GAME.start(num_players, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over():
            return
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    if state.is_over():
        return
    for p in range(num_players):
        for q in range(num_players):
            asked = min(money, state.money[q])  # an offer asks only for what the other seat has
            if q == p or may_offer(state, p, q) is not None or not state.hands[p] or not asked:
                continue
            assert p in state.to_act() or p in state.optional_actors()
            part = pid(state.hands[p][rng.randrange(len(state.hands[p]))])
            trial = state.clone()
            events = trial.apply(p, Offer(q, (part,), (), 0, asked))
            assert [e.type for e in events] == ["offer"], events
