"""A review's sentences for people, in the catalogue's languages (``app:review.*``; docs/i18n.md).

Moves are named by the game's own action descriptions (its terminal module's ``describe``, the names its
table uses), positions by the game's catalogue text ``review.where`` filled from the seat's view (round,
battle, turn: each game words its own), after the record's move number. Nothing here names a game.
"""

from __future__ import annotations

from typing import Any

from robotable.core import load
from robotable.core.i18n import lookup, translate

from .search import MIN_LOSS, Moment, SeatReview


def percent(value: float) -> str:
    """A value (0 to 1) as people read it: ``64%``."""
    return f"{round(100 * value)}%"


def describe_move(game_id: str, action: dict[str, Any] | None, lang: str) -> str:
    """An action's JSON form named as the game's table names it (its terminal module's ``describe``);
    ``None``, a move a spectator's review did not see, as such."""
    if action is None:  # a move a spectator's review did not see
        return translate("app:review.hidden_move", lang)
    module = load(game_id).hook("terminal")
    describe = getattr(module, "describe", None)
    if describe is not None:
        try:
            return str(describe(action, lang=lang))
        except TypeError:  # a describe without languages
            return str(describe(action))
    fields = " ".join(f"{k}={v}" for k, v in action.items() if k != "type")
    return f"{action['type']} {fields}".strip()


def where(game_id: str, moment: Moment, lang: str) -> str:
    """Where the decision was: the game's ``review.where`` (``round 3, battle 5``) and the move number."""
    move = moment.index + 1
    key = f"{game_id}:review.where"
    if lookup(key, "en") is None:
        return translate("app:review.move", lang, move=move)
    return translate("app:review.where", lang, where=translate(key, lang, **moment.where), move=move)


def seat_name(seat: int, lang: str, name: str = "") -> str:
    """``Seat 2`` (people count seats from 1), with the player's name when the record has one."""
    shown = translate("app:seat.name", lang, n=seat + 1)
    return translate("app:review.seat_named", lang, seat=shown, name=name) if name else shown


def loss_line(game_id: str, moment: Moment, lang: str) -> str:
    """``round 12 (move 47): Forward 2x lost 18% (64% → 46%) — Turn Right keeps 64%``."""
    return translate(
        "app:review.loss",
        lang,
        where=where(game_id, moment, lang),
        played=describe_move(game_id, moment.played, lang),
        loss=percent(moment.loss),
        before=percent(moment.before),
        after=percent(moment.after),
        better=describe_move(game_id, moment.best, lang),
    )


def swing_line(game_id: str, review: SeatReview, position: int, lang: str) -> str:
    """A turning point: how the value moved from this decision to the seat's next (or the outcome), the
    move played and what the search preferred."""
    moment = review.moments[position]
    values = review.series()
    after = values[position + 1] if position + 1 < len(values) else moment.before
    if moment.agreed:
        verdict = translate("app:review.agreed", lang)
    elif moment.loss < MIN_LOSS:
        verdict = translate("app:review.as_good", lang, better=describe_move(game_id, moment.best, lang))
    else:
        verdict = translate(
            "app:review.preferred",
            lang,
            better=describe_move(game_id, moment.best, lang),
            value=percent(moment.before),
            played=percent(moment.after),
        )
    return translate(
        "app:review.swing",
        lang,
        where=where(game_id, moment, lang),
        start=percent(moment.before),
        end=percent(after),
        played=describe_move(game_id, moment.played, lang),
        verdict=verdict,
    )


def describe(game_id: str, review: SeatReview, lang: str) -> dict[str, list[str]]:
    """The seat's turning points and largest losses as sentences, largest first."""
    return {
        "turning_points": [swing_line(game_id, review, i, lang) for i in review.turning_points],
        "largest_losses": [loss_line(game_id, review.moments[i], lang) for i in review.largest_losses],
    }
