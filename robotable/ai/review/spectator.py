"""Reviews for spectators (issue 30; docs/review.md "What is hidden"): whether a record's seat reviews
may be shown to a spectator as they are, and else a review made from a spectator's view alone.

A seat's review at a decision is made from what that seat knew then: the samples of the hidden state
drawn from its view. When, at every decision of the record, the deciding seat knew nothing a spectator
did not see (in TF22: the stack's order and the unrevealed choices are hidden from both), the seat's
samples are a spectator's samples, so its review is the review a spectator's view gives, and a spectator
(or another seat's player) may see it. Where a seat held cards of its own, it is not.

The check is made on the record, decision by decision: the deciding seat's sample
(``state.determinize(seat, rng)``) against a spectator's sample (``state.determinize(None, rng)``, every
hidden part sampled) for the same random numbers. A sample depends only on what its viewer knows and on
``rng`` (docs/ai.md "No peeking"; the conformance suite checks it), so the two are equal exactly when the seat
knew no more than a spectator; a game whose ``determinize`` cannot sample for a spectator is refused.

Where a seat knew more (its own cards, its secret choices), :func:`spectator_review` makes every seat's
review from a spectator's view instead: at every position of the record one search over spectator samples
(``state.determinize(None, rng)``: never the true hidden state, never a seat's own sample), which values
the position for every seat; a seat's value before its move is the value of the position it moved in, its
value after the value of the next position. Its move is named only where the spectator saw all of it (the
events it made were shown to a spectator as to the seat), and the search's better move only where it was
legal in every spectator sample checked; a hidden move has no loss (a spectator cannot judge it), but the
value over the game, and its turning points, are there for every seat.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from robotable.core import Action, Record, Rng, State, load
from robotable.core.actions import visible_events
from robotable.core.record import start_state

from ..ismcts import ISMCTSAgent, level_params, rank_rewards
from .search import Budget, Moment, Progress, Review, SeatReview, _where, positions

#: Random-number keys tried at each decision.
KEYS = 2


def _sample(state: State, viewer: int | None, key: int) -> str:
    sample = state.determinize(viewer, Rng(key))
    return json.dumps(sample.to_json(), sort_keys=True, default=str)


def spectator_refusal(record: Record, keys: int = KEYS) -> str | None:
    """None if every seat's review of ``record`` is also a spectator's; else why not (in English, naming
    the first decision where the deciding seat knew more than a spectator).

    Checked at each reviewed decision (the deciding seat) and at the end of the record (every seat: a
    move a spectator never saw, a secret choice or a hidden discard, would show in a review as the move
    played)."""
    state: State | None = None
    for step in positions(record):
        state, seat = step.state, step.seat
        if seat not in state.to_act() or len(state.legal_actions(seat)) < 2:
            continue  # not reviewed (an optional or forced move)
        for k in range(keys):
            why = _differs(record.game, state, seat, step.index * 7919 + k)
            if why is not None:
                return f"at move {step.index + 1}, {why}"
    if state is not None:  # positions() left it at the record's end
        for seat in range(record.num_players):
            why = _differs(record.game, state, seat, 7919 * len(record.moves) + seat)
            if why is not None:
                return f"at the end, {why}"
    return None


def _differs(game: str, state: State, seat: int, key: int) -> str | None:
    try:
        spectator = _sample(state, None, key)
    except Exception:  # an engine that samples only for a seat
        return f"{game} cannot sample the hidden state from a spectator's view"
    if _sample(state, seat, key) != spectator:
        return f"seat {seat + 1} knew something a spectator did not see (its own cards or choices)"
    return None


# -- a review from a spectator's view -------------------------------------------------------------------

#: Spectator samples on which the search's better move is checked to be legal (so a spectator knew it was
#: there to play).
CHECKS = 4


@dataclass
class Step:
    """A record's move as a spectator's review uses it: the move ``index``, the ``seat``, the ``state``
    before the move (only ``to_act``, ``view(None)`` and ``determinize(None, rng)`` are read from it), the
    ``action`` and whether a spectator saw it whole (``shown``: every event it made was public)."""

    index: int
    seat: int
    state: State
    action: Action
    shown: bool


def steps(record: Record) -> tuple[list[Step], State]:
    """The record's moves as :class:`Step` (each with its own copy of the state) and the final state."""
    game, state = start_state(record)
    out = []
    for index, (seat, data) in enumerate(record.moves):
        action = game.action_from_json(data)
        state.check(seat, action)
        before = state.clone()
        events = state.apply_legal(seat, action)
        out.append(Step(index, seat, before, action, visible_events(events, None) == visible_events(events, seat)))
    return out, state


class _SpectatorSearch(ISMCTSAgent):
    """The level's search over spectator samples: every iteration's rewards (one per seat) kept by the
    root action the deciding seat took, so the position gets a value for every seat."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.by_root: dict[Action, list[float]] = {}
        self._rewards: list[float] = []

    def _finish(self, state: State) -> list[float]:
        self._rewards = super()._finish(state)
        return self._rewards

    def search(self, state: State, me: int, iterations: int) -> tuple[Action | None, list[float], int]:
        """The most visited root action of ``me`` (None if none), each seat's mean reward over the
        iterations that took it, and its visits."""
        self._bind(state.game.id)
        roots: dict[int, Any] = {}
        for _ in range(iterations):
            sample = state.determinize(None, self.rng)
            sample.reopen_choices(me)
            self._rewards = []
            root = roots.get(me)
            visits = {a: e.visits for a, e in root.actions.items()} if root is not None else {}
            self._iterate(sample, roots, me)
            taken = [a for a, e in roots[me].actions.items() if e.visits != visits.get(a, 0)]
            if taken and self._rewards:
                sums = self.by_root.setdefault(taken[0], [0.0] * (len(self._rewards) + 1))
                for seat, reward in enumerate(self._rewards):
                    sums[seat] += reward
                sums[-1] += 1
        if not self.by_root:
            return None, [], 0
        edges = roots[me].actions
        best = max(self.by_root, key=lambda a: (edges[a].visits, edges[a].total))
        sums = self.by_root[best]
        return best, [v / sums[-1] for v in sums[:-1]], edges[best].visits


def _search(game_id: str, state: State, me: int, budget: Budget, index: int) -> _SpectatorSearch:
    params = level_params(game_id, budget.level)
    return _SpectatorSearch(  # the root is not guided: the heuristic reads a seat's view, not a spectator's
        budget.decision_seed(index),
        iterations=budget.iterations_for(game_id),
        rollout_depth=int(params["rollout_depth"]),
        model_opponents=params["model_opponents"],
        model_rollouts=params.get("model_rollouts", 0.0),
    )


#: ``sampler(state, rng)``: a spectator's sample of ``state`` (tests swap it to show the review can change).
Sampler = Callable[[State, Rng], State]


def _mover(step: Step) -> int:
    waiting = step.state.to_act()
    return step.seat if step.seat in waiting else waiting[0]


def _position(game_id: str, step: Step, budget: Budget) -> tuple[Action | None, list[float], _SpectatorSearch]:
    search = _search(game_id, step.state, _mover(step), budget, step.index)
    best, values, _ = search.search(step.state, _mover(step), budget.iterations_for(game_id))
    return best, values, search


def _public_best(step: Step, search: _SpectatorSearch, best: Action | None) -> Action | None:
    """The search's most visited root action that is legal in every checked spectator sample."""
    samples = [step.state.determinize(None, Rng(step.index * 7919 + k)) for k in range(CHECKS)]
    ranked = sorted(search.by_root, key=lambda a: (a != best, -search.by_root[a][-1]))
    for action in ranked:
        if all(s.is_legal(step.seat, action) for s in samples):
            return action
    return None


def spectator_review(
    record: Record,
    budget: Budget | None = None,
    progress: Progress | None = None,
) -> Review:
    """Every seat's review of ``record`` from a spectator's view alone (see the module's docstring):
    reproducible (same record, budget and seed: the same review), and the same for two records a
    spectator cannot tell apart (:func:`review_steps`)."""
    budget = (budget or Budget()).for_record(record)
    walked, final = steps(record)
    outcome = rank_rewards(final) if final.is_over() else None
    return review_steps(record.game, record.num_players, walked, outcome, budget, progress)


def review_steps(
    game_id: str,
    num_players: int,
    walked: Sequence[Step],
    outcome: Sequence[float] | None,
    budget: Budget,
    progress: Progress | None = None,
) -> Review:
    """The spectator's review of ``walked`` (the record's steps in order; ``outcome``: each seat's share at
    the end, when the record ends the game). Only spectator samples of each step's state are searched."""
    game = load(game_id)
    values: list[list[float]] = []
    bests: list[tuple[Action | None, _SpectatorSearch]] = []
    for done, step in enumerate(walked, 1):
        best, value, search = _position(game.id, step, budget)
        values.append(value)
        bests.append((best, search))
        if progress is not None:
            progress(done, len(walked))
    reviews = [SeatReview(seat, []) for seat in range(num_players)]
    for k, step in enumerate(walked):
        review = reviews[step.seat]
        if step.seat not in step.state.to_act():
            review.optional += 1
            continue
        best, search = bests[k]
        legal = len(step.state.determinize(None, Rng(step.index)).legal_actions(step.seat))
        if legal < 2 or not values[k]:
            review.forced += 1
            continue
        after = values[k + 1] if k + 1 < len(walked) else outcome
        if not after:
            continue  # the record stops here, the game not over: no value after the last move
        played = step.action.to_json() if step.shown else None
        better = _public_best(step, search, best) if step.shown else None
        shown_best = better.to_json() if better is not None else played
        edges = search.by_root
        review.moments.append(
            Moment(
                index=step.index,
                seat=step.seat,
                legal=legal,
                played=played,  # None: a move the spectator did not see
                best=shown_best,
                before=values[k][step.seat],
                after=after[step.seat],
                played_visits=int(edges[step.action][-1]) if step.shown and step.action in edges else 0,
                best_visits=int(edges[better][-1]) if better is not None and better in edges else 0,
                iterations=budget.iterations_for(game.id),
                where=_where(step.state.view(None)),
            )
        )
    for review in reviews:
        if outcome is not None:
            review.final = outcome[review.seat]
        review.mark()
    iterations = budget.iterations_for(game.id)
    return Review(game.id, num_players, len(walked), outcome is not None, budget, iterations, reviews)
