"""Whether a record's reviews may be shown to a spectator (issue 30; docs/review.md "What is hidden").

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
"""

from __future__ import annotations

import json

from robotable.core import Record, Rng, State

from .search import positions

#: Random-number keys tried at each decision.
KEYS = 2


def _sample(state: State, viewer: int | None, key: int) -> str:
    sample = state.determinize(viewer, Rng(key))  # type: ignore[arg-type]  # None: a spectator
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
