"""What must hold in every state: each component somewhere exactly once, and the phase consistent."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import TYPE_CHECKING

from .components import (
    BATTLES_PER_ROUND,
    CARDS_PER_BATTLE,
    CHIPCARDS,
    COLOUR_NAMES,
    CONTAINERS_PER_COLOUR,
    DECK,
    NUM_COLOURS,
    RCU_VALUES,
    SLOTS_BY_PLAYERS,
)
from .phases import CHOOSE, LOAD, OVER

if TYPE_CHECKING:
    from .state import Tf22State


def problems(st: Tf22State) -> Iterator[str]:
    """Every rule the state breaks, in words."""
    yield from component_problems(st)
    n = st.num_players
    if st.phase == OVER:
        return
    if len(st.revealed) != CARDS_PER_BATTLE:
        yield f"{CARDS_PER_BATTLE} container cards are revealed during a battle, not {len(st.revealed)}"
    elif st.activated not in (-1, st.battle_colour()):
        yield "the activated container is not of the battle's colour"
    if len(st.deck) % CARDS_PER_BATTLE or st.battle != BATTLES_PER_ROUND - len(st.deck) // CARDS_PER_BATTLE:
        yield f"battle {st.battle} does not match {len(st.deck)} cards left in the stack"
    if st.phase == LOAD and not 0 <= st.winner < n:
        yield "a load decision needs the winning seat"
    if st.phase == CHOOSE and all(c is not None for c in st.choices):
        yield "every seat has chosen but the battle is not resolved"


def component_problems(st: Tf22State) -> Iterator[str]:
    """Every card, container, chipcard and RC card is somewhere, exactly once."""
    n = st.num_players
    # Once a battle is won, the revealed cards are already in the winner's CC pile.
    shown = st.revealed if st.phase == CHOOSE else []
    pool = st.deck + shown + st.set_aside + [c for pile in st.cc_piles for c in pile]
    if sorted(pool) != sorted(DECK):
        yield f"the {len(DECK)} container cards are not all there exactly once ({len(pool)} found)"
    on_ships = [0] * NUM_COLOURS
    yield from _ship_problems(st, on_ships)
    for c in range(NUM_COLOURS):
        held = st.stock[c] + on_ships[c] + (st.activated == c)
        if st.stock[c] < 0 or held != CONTAINERS_PER_COLOUR:
            name, total = COLOUR_NAMES[c], CONTAINERS_PER_COLOUR
            yield f"{name} containers: stock, ships and activated add up to {held}, not {total}"
    if min(*st.chips, st.chip_stock) < 0 or st.chip_stock + sum(st.chips) != CHIPCARDS:
        yield f"chipcards: stock and players add up to {st.chip_stock + sum(st.chips)}, not {CHIPCARDS}"
    for seat in range(n):
        if sorted(st.hands[seat] + st.discards[seat]) != list(RCU_VALUES):
            yield f"seat {seat}'s hand and RC discard pile are not the cards 1 to 7 once each"


def _ship_problems(st: Tf22State, on_ships: list[int]) -> Iterator[str]:
    """Ships with the wrong number of slots or stacks breaking the loading rules; counts the containers
    on ships by colour into ``on_ships``."""
    n = st.num_players
    for seat, ship in enumerate(st.ships):
        if len(ship) != SLOTS_BY_PLAYERS[n]:
            yield f"seat {seat}'s ship has {len(ship)} slots; {n} players have {SLOTS_BY_PLAYERS[n]}"
        for stack in ship:
            if any(a >= b for a, b in pairwise(stack)):
                yield f"seat {seat}'s stack {[COLOUR_NAMES[c] for c in stack]} breaks the loading rules"
            for c in stack:
                on_ships[c] += 1
