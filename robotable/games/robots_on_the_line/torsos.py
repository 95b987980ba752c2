"""Torsos (the rulebook's "Torsos"): take the top torso for free, pay $1 to choose one, or trade yours
for the top one; one torso in hand at a time, the stack once a turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from robotable.core import Action, Event, reason

from .actions import ChooseTorso, SwapTorso, TakeTorso
from .components import COSTS, TORSO_IDS, TORSOS, tile_name

if TYPE_CHECKING:
    from .state import RotlState

_TAKE_TORSO = TakeTorso()
_SWAP_TORSO = SwapTorso()
_CHOOSE = [ChooseTorso(t.id) for t in TORSOS]


def tid(torso: int) -> str | None:
    """A torso's catalogue id (``None`` for no torso)."""
    return TORSOS[torso].id if torso >= 0 else None


def torso_actions(s: RotlState, p: int) -> list[Action]:
    if s.torso_done or not s.torso_pile:
        return []
    if s.torso[p] >= 0:
        return [_SWAP_TORSO]
    actions: list[Action] = [_TAKE_TORSO]
    if s.money[p] >= COSTS["choose_torso"]:
        actions += [_CHOOSE[t] for t in sorted(s.torso_pile)]
    return actions


def _check_stack(s: RotlState, p: int) -> str | None:
    if s.torso_done:
        return reason("refusals.torso.stack_used", "the torso stack has already been used this turn")
    if not s.torso_pile:
        return reason("refusals.torso.stack_empty", "the torso stack is empty")
    return None


def _check_empty_handed(s: RotlState, p: int) -> str | None:
    problem = _check_stack(s, p)
    if problem:
        return problem
    if s.torso[p] >= 0:
        return reason(
            "refusals.torso.one_in_hand",
            "one torso in hand at a time: seat {seat} holds {torso}",
            seat=p,
            torso=tile_name(TORSOS[s.torso[p]].id),
        )
    return None


def check_take_torso(s: RotlState, p: int, a: TakeTorso) -> str | None:
    return _check_empty_handed(s, p)


def apply_take_torso(s: RotlState, p: int, a: TakeTorso, events: list[Event]) -> None:
    s.torso_done = True
    s.torso[p] = s.torso_pile.pop()
    events.append(Event("took_torso", {"seat": p, "torso": tid(s.torso[p])}))


def check_choose_torso(s: RotlState, p: int, a: ChooseTorso) -> str | None:
    problem = _check_empty_handed(s, p)
    if problem:
        return problem
    if s.money[p] < COSTS["choose_torso"]:
        return reason(
            "refusals.torso.choose_cost",
            "choosing a torso costs ${cost}; seat {seat} has ${money}",
            cost=COSTS["choose_torso"],
            seat=p,
            money=s.money[p],
        )
    if TORSO_IDS.get(a.torso, -1) not in s.torso_pile:
        return reason("refusals.torso.not_in_stack", "{torso} is not in the torso stack", torso=tile_name(a.torso))
    return None


def apply_choose_torso(s: RotlState, p: int, a: ChooseTorso, events: list[Event]) -> None:
    s.torso_done = True
    s.pay_to_bank(p, COSTS["choose_torso"])
    events.append(Event("torso_stack_seen", {"order": [tid(t) for t in s.torso_pile]}, (p,)))
    t = TORSO_IDS[a.torso]
    s.torso_pile.remove(t)
    s.torso[p] = t
    events.append(Event("chose_torso", {"seat": p, "torso": a.torso}))


def check_swap_torso(s: RotlState, p: int, a: SwapTorso) -> str | None:
    problem = _check_stack(s, p)
    if problem:
        return problem
    return (
        None if s.torso[p] >= 0 else reason("refusals.torso.none_to_trade", "seat {seat} has no torso to trade", seat=p)
    )


def apply_swap_torso(s: RotlState, p: int, a: SwapTorso, events: list[Event]) -> None:
    s.torso_done = True
    mine = s.torso[p]
    s.torso[p] = s.torso_pile.pop()
    s.torso_pile.append(mine)
    events.append(Event("swapped_torso", {"seat": p, "gave": tid(mine), "took": tid(s.torso[p])}))
