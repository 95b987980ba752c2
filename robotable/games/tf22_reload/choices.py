"""What a seat may choose: a card or an R use for the battle, and the battle winner's load decision
(load, reload or return the container), each built once and handed out as shared values."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from robotable.core import Action

from . import rules
from .actions import Load, PlayCard, RBuy, RDiscard, Reload, ReturnContainer, RReload, RTakeBack
from .components import MAX_SLOTS, NUM_COLOURS, RCU_VALUES, RELOAD_COSTS, Colour

if TYPE_CHECKING:
    from .state import Tf22State

# Every action a player can ever take, built once: legal_actions hands out these shared values.
PLAY = {v: PlayCard(v) for v in RCU_VALUES}
TAKE_BACK = RTakeBack()
DISCARD = {s: RDiscard(s) for s in range(MAX_SLOTS)}
R_RELOAD = {(a, b): RReload(a, b) for a in range(MAX_SLOTS) for b in range(MAX_SLOTS) if a != b}
BUY = {(c, s): RBuy(Colour(c), s) for c in range(NUM_COLOURS) for s in range(MAX_SLOTS)}
LOAD = {s: Load(s) for s in range(MAX_SLOTS)}
RELOAD = {(a, b): Reload(a, b) for a in range(MAX_SLOTS) for b in range(MAX_SLOTS) if a != b}
RETURN = ReturnContainer()
# Their JSON forms, built once (events carry copies), by identity: the shared actions are looked up
# without hashing their fields.
_JSON = {
    id(a): (a, a.to_json())
    for a in (
        *PLAY.values(),
        TAKE_BACK,
        *DISCARD.values(),
        *R_RELOAD.values(),
        *BUY.values(),
        *LOAD.values(),
        *RELOAD.values(),
        RETURN,
    )
}


def action_json(action: Action) -> dict[str, Any]:
    """``action.to_json()``, a fresh copy of the one built once for the shared actions."""
    known = _JSON.get(id(action))
    return dict(known[1]) if known is not None and known[0] is action else action.to_json()


def battle_choices(st: Tf22State, p: int) -> list[Action]:
    """A card of the hand, or the R card: take the discards back, or (paying chipcards) discard,
    reload or buy a container."""
    actions: list[Action] = [PLAY[v] for v in st.hands[p]]
    actions.append(TAKE_BACK)
    ship, chips = st.ships[p], st.chips[p]
    if chips >= RELOAD_COSTS["r_discard"]:
        actions += [DISCARD[s] for s, stack in enumerate(ship) if stack]
    if chips >= RELOAD_COSTS["r_reload"]:
        actions += [R_RELOAD[m] for m in rules.reload_moves(ship, strict=st.options["strict_moves"])]
    if chips >= RELOAD_COSTS["r_buy"]:
        for colour in range(NUM_COLOURS):
            if st.stock[colour]:
                actions += [BUY[colour, s] for s in rules.load_slots(ship, colour)]
    return actions


def load_decisions(st: Tf22State, p: int) -> list[Action]:
    """The battle winner's answers: load the activated container, reload a container of the battle's
    colour (the container goes back), or return it."""
    ship = st.ships[p]
    actions: list[Action] = []
    if st.activated >= 0:
        actions += [LOAD[s] for s in rules.load_slots(ship, st.activated)]
    actions += [RELOAD[m] for m in rules.reload_moves(ship, st.battle_colour(), st.options["strict_moves"])]
    actions.append(RETURN)
    return actions


def is_battle_choice(st: Tf22State, p: int, action: Action) -> bool:
    """Same answer as ``action in battle_choices(st, p)``, without building the list."""
    ship, chips = st.ships[p], st.chips[p]
    if type(action) is PlayCard:
        return action.value in st.hands[p]
    if type(action) is RTakeBack:
        return True
    if type(action) is RDiscard:
        slot = action.slot
        return chips >= RELOAD_COSTS["r_discard"] and 0 <= slot < len(ship) and bool(ship[slot])
    if type(action) is RReload:
        if chips < RELOAD_COSTS["r_reload"]:
            return False
        return rules.can_move(ship, action.from_slot, action.to_slot, None, st.options["strict_moves"])
    if type(action) is RBuy:
        colour, slot = int(action.colour), action.slot
        return (
            chips >= RELOAD_COSTS["r_buy"]
            and st.stock[colour] > 0
            and 0 <= slot < len(ship)
            and rules.can_stack(ship[slot], colour)
        )
    return False


def is_load_decision(st: Tf22State, p: int, action: Action) -> bool:
    """Same answer as ``action in load_decisions(st, p)``, without building the list."""
    ship = st.ships[p]
    if type(action) is Load:
        slot = action.slot
        return st.activated >= 0 and 0 <= slot < len(ship) and rules.can_stack(ship[slot], st.activated)
    if type(action) is Reload:
        colour, strict = st.battle_colour(), st.options["strict_moves"]
        return rules.can_move(ship, action.from_slot, action.to_slot, colour, strict)
    return type(action) is ReturnContainer
