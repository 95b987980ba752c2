"""What a seat sees: everything on the table but the stack's order and the other seats' choices."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .components import BATTLES_PER_ROUND, COLOUR_NAMES, NUM_COLOURS, card_json
from .phases import GAME_ID, LOAD, PHASES

if TYPE_CHECKING:
    from .state import Tf22State


def ship_json(st: Tf22State, seat: int) -> list[list[str]]:
    """A seat's ship: its stacks, bottom first, by colour name."""
    return [[COLOUR_NAMES[c] for c in stack] for stack in st.ships[seat]]


def view(st: Tf22State, player: int | None) -> dict[str, Any]:
    """What ``player`` sees (``None``: a spectator): everything on the table but the stack order and
    others' choices."""
    players = []
    for seat in range(st.num_players):
        choice = st.choices[seat]
        entry: dict[str, Any] = {
            "seat": seat,
            "hand": list(st.hands[seat]),
            "discard": list(st.discards[seat]),
            "chipcards": st.chips[seat],
            "ship": ship_json(st, seat),
            "cc_pile": [card_json(c) for c in st.cc_piles[seat]],
            "scores": {
                "round_1": st.scores[seat][0],
                "round_2": st.scores[seat][1],
                "bonus": st.scores[seat][2],
                "total": sum(st.scores[seat]),
            },
            "has_chosen": choice is not None,
        }
        if seat == player and choice is not None:
            entry["choice"] = choice.to_json()
        players.append(entry)
    colour = st.battle_colour()
    return {
        "game": GAME_ID,
        "seat": player,
        "num_players": st.num_players,
        "round": st.round,
        "battle": st.battle,
        "battles_per_round": BATTLES_PER_ROUND,
        "phase": PHASES[st.phase],
        "to_act": st.to_act(),
        "deck_count": len(st.deck),
        "revealed": [card_json(c) for c in st.revealed],
        "battle_colour": COLOUR_NAMES[colour] if colour >= 0 else None,
        "activated": COLOUR_NAMES[st.activated] if st.activated >= 0 else None,
        "winner": st.winner if st.phase == LOAD else None,
        "set_aside": [card_json(c) for c in st.set_aside],
        "stock": {COLOUR_NAMES[c]: st.stock[c] for c in range(NUM_COLOURS)},
        "chipcard_stock": st.chip_stock,
        "players": players,
        "last_battle": st.last_battle,
        "round_scores": st.round_scores,
    }
