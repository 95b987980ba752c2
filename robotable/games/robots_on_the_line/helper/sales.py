"""The assembly helper's answers: the best robot for one buyer (:func:`best_robot`, :func:`search`) and
the sales a seat's hand can make in a game (:func:`robot_sales`), cached on what they depend on."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..actions import SellRobot
from ..components import BONUS_TILES, BUYERS, REQUIREMENTS, BonusTile, Requirement
from .build import Assembly
from .buyers import ANY_BUYER, Buyer, buyer_of
from .finishable import no_robot
from .refusals import may_end, refused
from .skeletons import Search

if TYPE_CHECKING:
    from ..state import RotlState

#: The search stops after this many placements and answers with the best robot found so far.
NODE_LIMIT = 100_000


def best_robot(
    hand: Sequence[int],
    torso: int,
    requirements: Sequence[Requirement],
    bonus_tiles: Sequence[BonusTile],
    pay: int,
    limit: int = NODE_LIMIT,
) -> Assembly | None:
    """The finished robot with the highest sale value that ``hand`` and ``torso`` can sell, or ``None``.

    ``hand`` holds part ints (magnets and batteries included: they may be handed over or sold
    alongside); ``torso`` is a torso int or -1. See :func:`search` for whether the search was complete.
    """
    return search(hand, torso, requirements, bonus_tiles, pay, limit).assembly


@dataclass(frozen=True, slots=True)
class Answer:
    """The helper's answer: the best robot found (or None) and whether the search was complete.

    ``complete`` is False when the search stopped at its step limit: a better robot (or, when
    ``assembly`` is None, a robot at all) may then exist."""

    assembly: Assembly | None
    complete: bool


def search(
    hand: Sequence[int],
    torso: int,
    requirements: Sequence[Requirement],
    bonus_tiles: Sequence[BonusTile],
    pay: int,
    limit: int = NODE_LIMIT,
) -> Answer:
    """The best robot and whether the search was complete (see :class:`Answer`)."""
    key = (
        tuple(sorted(hand)),
        torso,
        tuple(r.index for r in requirements),
        tuple(b.index for b in bonus_tiles),
        pay,
        limit,
    )
    answer = _SEARCHED.get(key)
    if answer is None:
        answer = _answer(*key, buyer_of(key[2], key[3]))
        _keep(key, answer)
    return answer


# -- the helper's sales in a game -------------------------------------------------------------------------


def robot_sales(s: RotlState, p: int) -> tuple[SellRobot, ...]:
    """The assembly helper's best sale to each buyer still buying that ``p``'s hand and torso can satisfy.

    The answer depends only on the hand's contents, the torso and the buyers still buying, so it is
    cached on those: ``legal_actions`` asks again after every action, and most actions change no hand.
    The state keeps a table from (hand, torso) to the sales for the buyers still buying (``sales_memo``:
    the buyer boards never change after setup, so the table is replaced exactly when a buyer's money
    changes); hands not in it are looked up in the shared cache.
    """
    torso = s.torso[p]
    if torso < 0:
        return ()
    memo = s.sales_memo
    if memo is None or memo[0] != s.buyer_money:
        memo = s.sales_memo = (s.buyer_money[:], _buying(s), {})
    hand = tuple(s.hands[p])
    sales = memo[2].get((hand, torso))
    if sales is None:
        # (most hands cannot end a robot for any buyer: that is told before the buyers are looked up)
        sales = _robot_sales(hand, torso, memo[1]) if may_end(hand, torso, ANY_BUYER) else ()
        memo[2][hand, torso] = sales
    return sales  # (a tuple: the caller adds it to its own list)


def _buying(s: RotlState) -> tuple[tuple[str, tuple[int, ...], tuple[int, ...], int], ...]:
    """The buyers still buying: (buyer id, requirements, bonus tiles, pay), in slot order."""
    return tuple(
        (BUYERS[b].id, tuple(s.buyer_reqs[slot]), tuple(s.buyer_bonus[slot]), BUYERS[b].pay)
        for slot, b in enumerate(s.buyers)
        if s.buyer_money[slot] >= BUYERS[b].pay
    )


@functools.lru_cache(maxsize=4096)
def _robot_sales(
    hand: tuple[int, ...], torso: int, buyers: tuple[tuple[str, tuple[int, ...], tuple[int, ...], int], ...]
) -> tuple[SellRobot, ...]:
    if not may_end(hand, torso, ANY_BUYER) or no_robot(hand, torso):
        return ()  # (no buyer's search can find a robot the search for any robot does not find)
    hand = tuple(sorted(hand))
    sales = []
    for buyer_id, reqs, bonus, pay in buyers:
        # (each buyer's answer is new: a game's buyers and hands rarely meet again, so they are not
        # cached per buyer; the answers that needed a search are kept for :func:`search`, which bots ask)
        answer = _answer(hand, torso, reqs, bonus, pay, NODE_LIMIT, buyer_of(reqs, bonus), keep=True)
        found = answer.assembly
        if found is not None:
            sales.append(SellRobot(buyer_id, found.layout, found.batteries, found.magnets))
    return tuple(sales)


def _answer(
    hand: tuple[int, ...],
    torso: int,
    reqs: tuple[int, ...],
    bonuses: tuple[int, ...],
    pay: int,
    limit: int,
    buyer: Buyer,
    keep: bool = False,
) -> Answer:
    """The answer for one buyer (``buyer``: :func:`.buyers.buyer_of` ``reqs`` and ``bonuses``): the quick
    refusals, then the search; with ``keep``, a searched answer is kept for :func:`search`."""
    if torso < 0 or refused(hand, torso, buyer):  # (not may_end, or hopeless, or too_small)
        return _REFUSED
    bonus_tiles = [BONUS_TILES[b] for b in bonuses]
    run = Search(hand, torso, [REQUIREMENTS[r] for r in reqs], bonus_tiles, pay, limit, buyer)
    found = run.explore()  # (hopeless is told above, not again)
    answer = Answer(found, run.nodes <= limit)
    if keep:
        _keep((hand, torso, reqs, bonuses, pay, limit), answer)
    return answer


_REFUSED = Answer(None, True)

#: Searched answers by (sorted hand, torso, requirement ints, bonus tile ints, pay, limit), for :func:`search`
#: (bounded: emptied when full).
_SEARCHED: dict[tuple[object, ...], Answer] = {}
_SEARCHED_MAX = 4096


def _keep(key: tuple[object, ...], answer: Answer) -> None:
    if len(_SEARCHED) >= _SEARCHED_MAX:
        _SEARCHED.clear()
    _SEARCHED[key] = answer
