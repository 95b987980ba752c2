"""Why an action is refused, as coded reasons (docs/i18n.md): actions, colours and cards named as the
table names them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from robotable.core import Action, reason
from robotable.core.errors import Message, Messages, name

from .actions import Load, PlayCard, RBuy, Reload, ReturnContainer
from .components import COLOUR_NAMES, RELOAD_COSTS
from .phases import CHOOSE, LOAD
from .view import ship_json

if TYPE_CHECKING:
    from .state import Tf22State

#: The catalogue's short name of each action type, where the table has one (``action.*``).
_SHORT = {"r_discard": "r_discard_short", "r_reload": "r_reload_short", "r_buy": "r_buy_short"}


def action_name(action: Action, text: str) -> Message:
    """``action`` in a refusal as the table names it (``text`` is the engine's English for it): its
    ``action.*`` message, slots as places counted from 0 and its colour by name."""
    params: dict[str, Any] = {}
    for field in ("value", "slot", "from_slot", "to_slot"):
        if hasattr(action, field):
            params[field] = getattr(action, field)
    if hasattr(action, "colour"):
        params["colour"] = name(COLOUR_NAMES[action.colour], "names.colour")
    return Message(text, f"action.{_SHORT.get(action.type, action.type)}", params)


def why_illegal(st: Tf22State, player: int, action: Action) -> str:
    """Why ``action`` is refused to ``player``."""
    if st.phase == LOAD and not isinstance(action, Load | Reload | ReturnContainer):
        return reason(
            "refusals.must_place_container",
            "seat {seat} won the battle and must decide where the container goes (load, reload or return)",
            seat=player,
        )
    if st.phase == CHOOSE and isinstance(action, Load | Reload | ReturnContainer):
        return reason(
            "refusals.choose_card_first", "no battle has been won: choose a card (a number or R) for the battle"
        )
    if isinstance(action, PlayCard) and action.value not in st.hands[player]:
        return reason(
            "refusals.card_not_in_hand",
            "RCU-{value} is not in seat {seat}'s hand (hand: {hand})",
            value=action.value,
            seat=player,
            hand=Messages(
                [Message(str(v), "names.rcu", {"value": v}) for v in st.hands[player]],
                text=str(st.hands[player]),
            ),
        )
    cost = RELOAD_COSTS.get(action.type, 0)
    if cost > st.chips[player]:
        return reason(
            "refusals.not_enough_chipcards",
            "{action} costs {cost} chipcard(s); seat {seat} has {chips}",
            action=action_name(action, action.type),
            cost=cost,
            seat=player,
            chips=st.chips[player],
        )
    if isinstance(action, RBuy) and not st.stock[action.colour]:
        return reason(
            "refusals.stock_empty",
            "the stock has no {colour} container left",
            colour=name(COLOUR_NAMES[action.colour], "names.colour"),
        )
    return reason(
        "refusals.breaks_loading_rules",
        "{action} breaks the loading rules on seat {seat}'s ship ({ship})",
        action=action_name(action, str(action.to_json())),
        seat=player,
        ship=ship_json(st, player),
    )
