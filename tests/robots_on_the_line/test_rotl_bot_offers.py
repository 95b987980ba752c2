"""Issue 27: a bot's offers never block its own turn, and a declined offer is not made again that turn.

Against a Robots on the Line bot a person saw "Bot 2's turn" while the table waited for them to answer
the bot's offer, and the bot offered again right after each decline (offers 6, 7 and 8 in one turn)."""

from __future__ import annotations

from robotable.ai import Decision, make_agent
from robotable.games.robots_on_the_line import GAME, Accept, Decline, EndTurn, Offer
from robotable.games.robots_on_the_line.line import pid
from robotable.server.bots import seats_to_move


def test_a_bot_whose_offer_waits_for_a_person_plays_on() -> None:
    state = GAME.start(2, seed=3)
    state.apply(0, EndTurn())  # the bot's (seat 1's) turn
    state.apply(1, Offer(0, (pid(state.hands[1][0]),), (), 0, 1))
    assert state.to_act() == [0, 1] and state.answering() == [0]
    movers = seats_to_move(state, lambda s: s == 1, lambda s: "heuristic")
    assert movers == [(1, "heuristic")]  # before: [] (the bot waited for the person's answer)
    # a person whose own turn it is, with a bot's offer to answer as well: the bot does not act for them
    state = GAME.start(2, seed=3)
    state.apply(1, Offer(0, (pid(state.hands[1][0]),), (), 0, 1))
    assert seats_to_move(state, lambda s: s == 1, lambda s: "heuristic") == []


def test_the_view_says_which_offers_were_made_this_turn() -> None:
    state = GAME.start(3, seed=4)
    state.apply(2, Offer(0, (pid(state.hands[2][0]),), (), 0, 1))
    for seat in (None, 0, 1, 2):
        assert state.view(seat)["this_turn"]["offers_made"] == [[2, 0, 1]]
    state.apply(0, EndTurn())
    assert state.view(1)["this_turn"]["offers_made"] == []


def _offer_then_decline(seed: int) -> tuple[object, int, Offer] | None:
    """A game of heuristics up to the first time the heuristic offers out of turn, that offer declined."""
    agents = [make_agent("heuristic", seed * 10 + seat) for seat in range(2)]
    state = GAME.start(2, seed=seed)
    for _ in range(600):
        if state.is_over():
            return None
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        answers = [a for a in legal if isinstance(a, Accept | Decline)]
        state.apply(seat, answers[-1] if answers else agents[seat].choose(Decision.of(state, seat)))
        for other in state.optional_actors():
            action = agents[other].choose_optional(Decision.of(state, other))
            if isinstance(action, Offer):
                state.apply(other, action)
                number = state.offers[-1].number
                state.apply(action.to, Decline(number))
                return state, other, action
    return None


def test_a_declined_offer_is_not_made_again_the_same_turn() -> None:
    found = 0
    for seed in range(40):
        case = _offer_then_decline(seed)
        if case is None:
            continue
        state, seat, offer = case
        again = make_agent("heuristic", 99).choose_optional(Decision.of(state, seat))
        assert not (isinstance(again, Offer) and again.to == offer.to), (seed, offer, again)
        found += 1
        if found == 5:
            break
    assert found >= 3  # the heuristic did make out-of-turn offers to decline
