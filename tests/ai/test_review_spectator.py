"""Reviews shown to spectators (robotable.ai.review.spectator; docs/review.md "What is hidden"): the seats'
own reviews where every deciding seat knew no more than a spectator, else reviews from a spectator's view;
either way the same review whatever a spectator could not see."""

from __future__ import annotations

import pytest

from robotable.ai import make_agent
from robotable.ai.review import Budget, Position, positions, review_positions, review_record
from robotable.ai.review.spectator import Step, review_steps, spectator_refusal, spectator_review, steps
from robotable.core import Match, Record, Rng

TINY = Budget(iterations=8, seed=3)


def game_record(game_id: str, players: int, seed: int, moves: int | None = None) -> Record:
    match = Match(game_id, players, seed=seed)
    agents = [make_agent("heuristic", seed=seed + s) for s in range(players)]
    while not match.state.is_over() and (moves is None or len(match.record.moves) < moves):
        seat = match.state.to_act()[0]
        match.apply(seat, agents[seat].act(match.state, seat))
    return match.record


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_tf22_seats_know_no_more_than_a_spectator_when_they_decide(players: int, seed: int) -> None:
    """TF22's stack order and unrevealed choices are hidden from every seat and spectator alike."""
    assert spectator_refusal(game_record("tf22-reload", players, seed)) is None


@pytest.mark.parametrize(
    ("game_id", "players"), [("twin-tin-bots", 2), ("twin-tin-bots", 4), ("robots-on-the-line", 2)]
)
def test_games_with_cards_of_ones_own_are_refused_naming_the_move(game_id: str, players: int) -> None:
    reason = spectator_refusal(game_record(game_id, players, seed=4))
    assert reason is not None and "knew something a spectator did not see" in reason
    assert reason.startswith("at move ") or reason.startswith("at the end")


def test_a_secret_never_revealed_to_a_spectator_is_caught_at_the_end() -> None:
    """A TF22 record stopped while a choice is still secret: the move would show in the review."""
    record = game_record("tf22-reload", 2, seed=1)
    for cut in range(1, len(record.moves)):
        partial = Record(record.game, record.num_players, record.seed, record.options, record.moves[:cut])
        state = Match(record.game, record.num_players, seed=record.seed).state
        for seat, data in partial.moves:
            state.apply(seat, state.game.action_from_json(data))
        if len(state.to_act()) == 1 and state.num_players == 2 and state.to_act()[0] != partial.moves[-1][0]:
            break  # one seat chose in secret, the other is still to choose
    else:
        pytest.fail("no position with a secret choice pending")
    reason = spectator_refusal(partial)
    assert reason is not None and reason.startswith("at the end")


def test_a_spectators_review_is_the_same_when_what_a_spectator_could_not_see_is_dealt_again() -> None:
    """At every decision of every seat, the state re-dealt from a spectator's view (the stack's order,
    the unrevealed choices): every seat's review stays the same, move for move."""
    record = game_record("tf22-reload", 2, seed=5, moves=14)
    assert spectator_refusal(record) is None
    reference = review_record(record, budget=TINY).to_json()["seats"]
    swapped = 0

    def redealt() -> list[Position]:
        nonlocal swapped
        out = []
        for pos in positions(record):
            state = pos.state.determinize(None, Rng(1000 + pos.index))
            swapped += state.to_json() != pos.state.to_json()
            out.append(Position(pos.index, pos.seat, state, pos.action))
        return out

    reviews = review_positions(record.game, record.num_players, redealt(), TINY)
    for review in reviews:
        review.mark()
    assert swapped > 0, "nothing was re-dealt: the test checked nothing"
    assert [r.to_json() for r in reviews] == reference  # a record cut short: no outcome in either


@pytest.mark.parametrize(("game_id", "players", "moves"), [("twin-tin-bots", 4, 24), ("robots-on-the-line", 2, 10)])
def test_a_review_from_a_spectators_view_does_not_change_when_hidden_cards_are_dealt_again(
    game_id: str, players: int, moves: int
) -> None:
    """Where seats hold cards of their own, a spectator's review searches spectator samples only: every
    position re-dealt from a spectator's view (others' hands, Special Orders, piles) gives the same
    review, though the seats' own views changed (a review that read them could differ)."""
    record = game_record(game_id, players, seed=6, moves=moves)
    walked, _ = steps(record)
    reference = review_steps(game_id, players, walked, None, TINY).to_json()
    redealt = [Step(s.index, s.seat, s.state.determinize(None, Rng(500 + s.index)), s.action, s.shown) for s in walked]
    seats_saw = sum(a.state.view(a.seat) != b.state.view(b.seat) for a, b in zip(walked, redealt, strict=True))
    assert seats_saw > 0, "nothing a seat knew was re-dealt: the test checked nothing"
    assert review_steps(game_id, players, redealt, None, TINY).to_json() == reference
    assert reference == spectator_review(record, TINY).to_json()  # the record's own review, reproducible
    assert any(m["played"] is not None for s in reference["seats"] for m in s["moments"])
