"""Post-game reviews (robotable.ai.review): reproducible, blind to what the seat could not know, the
move played always valued, turning points and losses marked, sentences in English and Japanese."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotable import games
from robotable.ai import Decision, make_agent
from robotable.ai.review import (
    MIN_LOSS,
    Budget,
    Moment,
    Position,
    Review,
    SeatReview,
    positions,
    review_decision,
    review_positions,
    review_record,
)
from robotable.ai.review.text import describe, loss_line, swing_line, where
from robotable.core import BadInput, Match, Record, Rng

GAMES = games.available()
#: Tiny budgets: a test checks how the review works, not how well the search plays.
TINY = Budget(iterations=8, seed=3)


def short_record(game_id: str, moves: int, seed: int = 1, agent: str = "heuristic", players: int = 2) -> Record:
    """The first ``moves`` moves of a game between ``agent`` seats."""
    match = Match(game_id, players, seed=seed)
    agents = [make_agent(agent, seed=seed + s) for s in range(players)]
    while not match.state.is_over() and len(match.record.moves) < moves:
        seat = match.state.to_act()[0]
        match.apply(seat, agents[seat].act(match.state, seat))
    return match.record


@pytest.mark.parametrize("game_id", GAMES)
def test_a_review_is_reproducible_and_the_same_for_one_seat_as_for_all(game_id):
    record = short_record(game_id, 8)
    full = review_record(record, budget=TINY).to_json()
    assert review_record(record, budget=TINY).to_json() == full
    alone = review_record(record, seats=[1], budget=TINY).to_json()
    assert alone["seats"] == [full["seats"][1]]
    assert full["moves"] == 8 and not full["over"]
    # another seed searches otherwise: the values move (the seed is not ignored)
    other = review_record(record, budget=Budget(iterations=8, seed=4)).to_json()
    assert [m["before"] for s in other["seats"] for m in s["moments"]] != [
        m["before"] for s in full["seats"] for m in s["moments"]
    ]


def test_worker_processes_make_the_same_review():
    record = short_record("tf22-reload", 10, seed=4)
    alone = review_record(record, budget=TINY)
    seen: list[tuple[int, int]] = []
    shared = review_record(record, budget=TINY, workers=2, progress=lambda done, total: seen.append((done, total)))
    assert shared.to_json() == alone.to_json()
    assert seen[-1] == (10, 10) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    with pytest.raises(BadInput, match="workers must be 1 to 64"):
        review_record(record, workers=0)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_decision_is_reviewed_with_values_in_range(game_id):
    record = short_record(game_id, 10, agent="random")
    review = review_record(record, budget=TINY)
    counted = 0
    for seat in review.seats:
        counted += len(seat.moments) + seat.forced + seat.optional
        for m in seat.moments:
            assert 0 <= m.before <= 1 and 0 <= m.after <= 1
            assert m.loss == (0.0 if m.agreed else max(0.0, m.before - m.after))
            if m.agreed:
                assert m.after == m.before
            # valued by a search of its own even when the decision's search left it unvisited (8
            # iterations over up to 30 moves)
            assert 0 <= m.played_visits <= m.iterations == 8 and m.legal >= 2
    assert counted == len(record.moves)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_finished_game_ends_each_seats_value_with_its_outcome(game_id):
    if game_id != "tf22-reload":  # the other games' full records take too long to review in a test
        record = short_record(game_id, 6)
        assert not review_record(record, budget=Budget(iterations=2)).over
        return
    match = Match(game_id, 2, seed=9)
    agents = [make_agent("heuristic", seed=s) for s in range(2)]
    while not match.state.is_over():
        seat = match.state.to_act()[0]
        match.apply(seat, agents[seat].act(match.state, seat))
    review = review_record(match.record, budget=Budget(iterations=2))
    assert review.over
    winners = set(match.state.result().winners)
    for seat in review.seats:
        assert seat.final == (1.0 if winners == {seat.seat} else 0.5 if seat.seat in winners else 0.0)
        assert seat.series()[-1] == seat.final


def _variants(state, seat, seed):
    """States ``seat`` cannot tell from ``state`` (its view and its choices the same), with what it does
    not see dealt again: from its own view and from every other seat's."""
    for k, other in enumerate(range(state.num_players)):
        variant = state.determinize(other, Rng(seed * 7 + k))
        if variant.view(seat) == state.view(seat) and variant.legal_actions(seat) == state.legal_actions(seat):
            yield variant


@pytest.mark.parametrize("game_id", GAMES)
def test_a_seats_review_ignores_what_it_could_not_see(game_id):
    """Re-deal, at every decision of seat 0, what seat 0 could not see (the stack's order, another seat's
    hand or secret choice): its review stays the same, move for move."""
    record = short_record(game_id, 10, seed=5)
    seat = 0
    reference = review_record(record, seats=[seat], budget=TINY).seat(seat).to_json()
    swapped = 0

    def redealt() -> list[Position]:
        nonlocal swapped
        out = []
        for pos in positions(record):
            if pos.seat != seat:
                continue
            state = pos.state.clone()
            for variant in _variants(pos.state, seat, pos.index):
                if variant.to_json() != pos.state.to_json():
                    state = variant
                    swapped += 1
                    break
            out.append(Position(pos.index, pos.seat, state, pos.action))
        return out

    (review,) = review_positions(game_id, record.num_players, redealt(), TINY, seats=[seat])
    review.mark()
    assert swapped > 0, "no hidden information was re-dealt: the test checked nothing"
    assert review.to_json() == reference


def test_a_review_that_peeked_would_change_when_the_hidden_cards_change():
    """The check above can fail: a search given the true state (samples that are copies of it) values
    the same decisions differently once the hidden cards are dealt again."""
    record = short_record("tf22-reload", 12, seed=5)
    differs = 0
    for pos in positions(record):
        if pos.seat != 0 or len(pos.state.legal_actions(0)) < 2:
            continue
        variant = next((v for v in _variants(pos.state, 0, pos.index) if v.to_json() != pos.state.to_json()), None)
        if variant is None:
            continue
        honest = review_decision(Decision.of(pos.state, 0), pos.action, pos.index, TINY)
        assert review_decision(Decision.of(variant, 0), pos.action, pos.index, TINY) == honest

        def peeking(state):
            return Decision(state.game.id, 0, state.view(0), state.legal_actions(0), lambda rng, s=state: s.clone())

        first = review_decision(peeking(pos.state.clone()), pos.action, pos.index, TINY)
        second = review_decision(peeking(variant), pos.action, pos.index, TINY)
        differs += (first.before, first.after) != (second.before, second.after)
    assert differs > 0


@pytest.mark.parametrize("game_id", ["twin-tin-bots", "robots-on-the-line"])
def test_the_move_played_is_valued_even_where_the_level_searches_few_candidates(game_id):
    """Hard searches only a few root candidates in these games (and prunes some moves): random moves
    are mostly outside them, and are still searched and valued."""
    record = short_record(game_id, 6, seed=2, agent="random")
    review = review_record(record, budget=Budget(iterations=8, seed=1))
    moments = [m for s in review.seats for m in s.moments]
    assert moments and all(m.played_visits > 0 for m in moments)
    assert any(not m.agreed for m in moments)


def test_equal_moves_get_equal_values():
    """Each move is valued by a search of that move alone with the decision's seed: TF22's loads onto
    two empty slots of the same ship are the same move, and get the same value."""
    from robotable.ai.review.search import evaluate_move

    record = short_record("tf22-reload", 40, seed=1)
    checked = 0
    for pos in positions(record):
        legal = pos.state.legal_actions(pos.seat)
        loads = [a for a in legal if a.to_json()["type"] == "load"]
        ship = pos.state.view(pos.seat)["players"][pos.seat]["ship"]
        empty = [a for a in loads if not ship[a.to_json()["slot"]]]
        if len(empty) >= 2:
            decision = Decision.of(pos.state, pos.seat)
            values = {evaluate_move(decision, a, pos.index, TINY) for a in empty}
            assert len(values) == 1, values
            checked += 1
    assert checked > 0


def _moment(index: int, before: float, after: float, agreed: bool = False) -> Moment:
    best = {"type": "x", "n": 0}
    return Moment(index, 0, 3, best if agreed else {"type": "x", "n": 1}, best, before, after, 5, 9, 16, {"round": 1})


values = st.floats(min_value=0, max_value=1, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(values, values, st.booleans()), min_size=0, max_size=25), st.none() | values)
def test_turning_points_are_the_largest_swings_and_losses_the_largest_losses(rows, final):
    moments = [_moment(i * 2, b, b if agreed else a, agreed) for i, (b, a, agreed) in enumerate(rows)]
    review = SeatReview(0, moments, final)
    review.mark(turning_points=3, largest_losses=4)
    swings = [abs(review.swing(i)) for i in range(len(moments))]
    marked = [swings[i] for i in review.turning_points]
    assert marked == sorted(marked, reverse=True) and len(set(review.turning_points)) == len(marked)
    assert len(marked) == min(3, sum(1 for s in swings if s > 0))
    unmarked = [s for i, s in enumerate(swings) if i not in review.turning_points]
    assert all(s <= min(marked) for s in unmarked) if marked else all(s == 0 for s in swings)
    losses = [moments[i].loss for i in review.largest_losses]
    assert losses == sorted(losses, reverse=True) and all(x >= MIN_LOSS for x in losses)
    rest = [m.loss for i, m in enumerate(moments) if i not in review.largest_losses]
    assert len(losses) == 4 or all(x < MIN_LOSS for x in rest)
    assert all(x <= min(losses) for x in rest) if losses else True
    assert review.series() == [m.before for m in moments] + ([final] if final is not None else [])
    assert SeatReview.from_json(json.loads(json.dumps(review.to_json()))).to_json() == review.to_json()


def test_a_review_round_trips_through_json():
    review = review_record(short_record("tf22-reload", 6), budget=TINY)
    again = Review.from_json(json.loads(json.dumps(review.to_json())))
    assert again.to_json() == review.to_json()


@pytest.mark.parametrize("game_id", GAMES)
def test_sentences_name_the_moves_as_the_game_does_in_english_and_japanese(game_id):
    review = review_record(short_record(game_id, 8, agent="random", seed=3), budget=TINY)
    module = games.load(game_id).hook("terminal")
    seat = max(review.seats, key=lambda s: len(s.largest_losses))
    assert seat.largest_losses, "random moves lose something somewhere"
    moment = seat.moments[seat.largest_losses[0]]
    for lang in ("en", "ja"):
        line = loss_line(game_id, moment, lang)
        assert module.describe(moment.played, lang=lang) in line
        assert module.describe(moment.best, lang=lang) in line
        assert f"{round(100 * moment.loss)}%" in line
        assert where(game_id, moment, lang) in line and str(moment.index + 1) in where(game_id, moment, lang)
        assert "{{" not in line
        text = describe(game_id, seat, lang)
        assert len(text["largest_losses"]) == len(seat.largest_losses)
        assert text["turning_points"] == [swing_line(game_id, seat, i, lang) for i in seat.turning_points]
    assert loss_line(game_id, moment, "en") != loss_line(game_id, moment, "ja")
    assert where(game_id, moment, "en") != f"move {moment.index + 1}", "the game words its positions"


def test_bad_input_is_refused_with_a_clear_error():
    record = short_record("tf22-reload", 4)
    with pytest.raises(BadInput, match="seat must be 0 to 1"):
        review_record(record, seats=[2])
    with pytest.raises(BadInput, match="budget must be 1 to"):
        Budget(iterations=0)
    with pytest.raises(BadInput, match="unknown level"):
        Budget(level="expert")
    broken = Record(record.game, 2, record.seed, record.options, [record.moves[0], record.moves[0]])
    with pytest.raises(BadInput, match="move 1"):
        review_record(broken, budget=TINY)


def test_a_budget_in_seconds_gives_a_long_record_fewer_iterations_the_same_for_every_seat() -> None:
    """``Budget.seconds`` (the server's): a record whose review would cost more gets fewer iterations a
    decision, fixed by the record's length alone, so a seat reviewed alone still gets its part of the
    review of every seat, and the same budget and seed give the same review."""
    budget = Budget(iterations=40, seed=3, seconds=1)
    record = short_record("tf22-reload", 60)
    assert budget.estimate("tf22-reload", 60) > 1  # (40 iterations at TF22 hard's cost: 0.02 s a decision)
    plan = budget.for_record(record)
    assert plan.seconds is None and 10 <= plan.iterations < 40  # type: ignore[operator]
    short = Record(record.game, record.num_players, record.seed, record.options, record.moves[:20])
    assert budget.for_record(short).iterations == 40  # a short record: the whole budget
    every = review_record(record, budget=budget)
    assert every.budget == plan and every.to_json()["budget"]["iterations"] == plan.iterations
    assert review_record(record, seats=[1], budget=budget).seat(1).to_json() == every.seat(1).to_json()
    with pytest.raises(BadInput, match="seconds"):
        Budget(seconds=0)


def test_a_paired_level_is_costed_for_a_review_by_its_tree(monkeypatch) -> None:
    """A review searches the tree, so a level whose root is paired (cheaper) gives its tree's cost
    (``tree_seconds``) for the review's budget; a level without it, its ``seconds``."""
    from robotable.ai.heuristics import robots_on_the_line as rotl

    hard = rotl.LEVELS["hard"]
    budget = Budget(iterations=10)
    per_iteration = 2 * 10 * 100 / hard["iterations"]  # 100 moves, a search and two half searches
    assert budget.estimate("robots-on-the-line", 100) == pytest.approx(per_iteration * hard["tree_seconds"])
    monkeypatch.setitem(rotl.LEVELS, "hard", {k: v for k, v in hard.items() if k != "tree_seconds"})
    assert budget.estimate("robots-on-the-line", 100) == pytest.approx(per_iteration * hard["seconds"])
