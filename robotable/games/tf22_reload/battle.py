"""A battle: two container cards activate a container; every seat chooses a card or R at once; the
choices are revealed, R uses resolve, the highest card no one else played wins (rules.battle), ties
earn chipcards, and an absolute tie puts the two cards aside."""

from __future__ import annotations

from typing import TYPE_CHECKING

from robotable.core import Action, Event

from . import loading, rounds, rules
from .actions import PlayCard, RBuy, RDiscard, RReload, RTakeBack
from .choices import RETURN, action_json
from .components import CARDS_PER_BATTLE, COLOUR_NAMES, RELOAD_COSTS, card_json
from .phases import LOAD

if TYPE_CHECKING:
    from .state import Tf22State


def activate(st: Tf22State, events: list[Event]) -> None:
    """Reveal the next two container cards; they activate one container of the winning colour."""
    st.revealed = [st.deck.pop() for _ in range(CARDS_PER_BATTLE)]
    st.battle += 1
    colour = st.battle_colour()
    if st.stock[colour]:
        st.stock[colour] -= 1
        st.activated = colour
    else:
        st.activated = -1
    events.append(
        Event(
            "activate",
            {
                "round": st.round,
                "battle": st.battle,
                "cards": [card_json(c) for c in st.revealed],
                "colour": COLOUR_NAMES[colour],
                "container": st.activated >= 0,
            },
        )
    )


def resolve_battle(st: Tf22State, events: list[Event]) -> None:
    """Every seat has chosen: reveal, play the R uses, then decide the battle."""
    choices = [c for c in st.choices if c is not None]
    st.choices = [None] * st.num_players
    shown = [action_json(c) for c in choices]
    events.append(Event("reveal", {"choices": shown}))
    _play_choices(st, choices, events)
    plays = {seat: c.value for seat, c in enumerate(choices) if isinstance(c, PlayCard)}
    outcome = rules.battle(plays)
    st.last_battle = {
        "round": st.round,
        "battle": st.battle,
        "cards": [card_json(c) for c in st.revealed],
        "choices": shown,
        "winner": outcome.winner,
        "tied": list(outcome.tied),
        "neutralized": list(outcome.neutralized),
    }
    events.append(Event("battle", dict(st.last_battle)))
    for seat in outcome.tied:
        give_chipcard(st, seat, events)
    if outcome.winner is None:
        absolute_tie(st, events)
        return
    _win(st, outcome.winner, events)


def _play_choices(st: Tf22State, choices: list[Action], events: list[Event]) -> None:
    """The cards played go from hand to discard pile, then the R cards' uses are played in seat order."""
    for seat, choice in enumerate(choices):
        if isinstance(choice, PlayCard):
            st.hands[seat].remove(choice.value)
            st.discards[seat].append(choice.value)
    for seat, choice in enumerate(choices):
        if not isinstance(choice, PlayCard):
            use_r(st, seat, choice, events)


def _win(st: Tf22State, winner: int, events: list[Event]) -> None:
    """The winner takes the revealed cards, then loads (or returns the container when that is all it can do)."""
    st.winner = winner
    st.cc_piles[winner].extend(st.revealed)
    events.append(Event("won_cards", {"seat": winner, "cards": [card_json(c) for c in st.revealed]}))
    if has_load_decision(st, winner):
        st.phase = LOAD
    else:  # nothing to load or reload: the only choice is to return the container
        loading.decide_load(st, winner, RETURN, events)


def has_load_decision(st: Tf22State, seat: int) -> bool:
    """Whether the battle's winner has more than one answer (returning is always one)."""
    ship, colour = st.ships[seat], st.activated
    if colour >= 0 and any(rules.can_stack(stack, colour) for stack in ship):
        return True
    return bool(rules.reload_moves(ship, st.battle_colour(), st.options["strict_moves"]))


def use_r(st: Tf22State, seat: int, choice: Action, events: list[Event]) -> None:
    """The R card's four uses; the R card itself goes straight back to hand."""
    ship = st.ships[seat]
    if isinstance(choice, RTakeBack):
        taken = st.discards[seat]
        st.hands[seat] = sorted(st.hands[seat] + taken)
        st.discards[seat] = []
        events.append(Event("r_take_back", {"seat": seat, "cards": taken}))
    elif isinstance(choice, RDiscard):
        pay(st, seat, RELOAD_COSTS["r_discard"])
        colour = ship[choice.slot].pop()
        st.stock[colour] += 1
        events.append(Event("r_discard", {"seat": seat, "slot": choice.slot, "colour": COLOUR_NAMES[colour]}))
    elif isinstance(choice, RReload):
        pay(st, seat, RELOAD_COSTS["r_reload"])
        loading.move_container(st, seat, choice.from_slot, choice.to_slot, "r_reload", events)
    elif isinstance(choice, RBuy):
        colour = int(choice.colour)
        if not st.stock[colour]:  # an earlier buyer took the last one: cancelled, nothing paid
            events.append(Event("r_buy_cancelled", {"seat": seat, "colour": COLOUR_NAMES[colour]}))
            return
        pay(st, seat, RELOAD_COSTS["r_buy"])
        st.stock[colour] -= 1
        ship[choice.slot].append(colour)
        events.append(Event("r_buy", {"seat": seat, "colour": COLOUR_NAMES[colour], "slot": choice.slot}))


def pay(st: Tf22State, seat: int, chips: int) -> None:
    """Chipcards paid for an R use go back to the common stock."""
    st.chips[seat] -= chips
    st.chip_stock += chips


def give_chipcard(st: Tf22State, seat: int, events: list[Event]) -> None:
    """A tie earns a chipcard from the stock, while it lasts."""
    if st.chip_stock:
        st.chip_stock -= 1
        st.chips[seat] += 1
        events.append(Event("chipcard", {"seat": seat}))
    else:
        events.append(Event("chipcard_stock_empty", {"seat": seat}))


def absolute_tie(st: Tf22State, events: list[Event]) -> None:
    """The two cards are put aside for the rest of the round; the container goes back."""
    st.set_aside.extend(st.revealed)
    events.append(Event("set_aside", {"cards": [card_json(c) for c in st.revealed]}))
    loading.return_activated(st, events)
    rounds.next_battle(st, events)
