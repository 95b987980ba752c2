"""The whole state as JSON (hidden parts included): for records, tests and debugging, never for a seat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .components import COLOUR_NAMES, NUM_COLOURS, card_json
from .phases import GAME_ID, PHASES
from .view import ship_json

if TYPE_CHECKING:
    from .state import Tf22State


def to_json(st: Tf22State) -> dict[str, Any]:
    """Every field of the state, in JSON types."""
    return {
        "game": GAME_ID,
        "num_players": st.num_players,
        "seed": st.seed,
        "options": dict(st.options),
        "rng": st.rng.to_json(),
        "round": st.round,
        "battle": st.battle,
        "phase": PHASES[st.phase],
        "deck": [card_json(c) for c in st.deck],
        "revealed": [card_json(c) for c in st.revealed],
        "activated": COLOUR_NAMES[st.activated] if st.activated >= 0 else None,
        "set_aside": [card_json(c) for c in st.set_aside],
        "cc_piles": [[card_json(c) for c in pile] for pile in st.cc_piles],
        "hands": [list(h) for h in st.hands],
        "discards": [list(d) for d in st.discards],
        "ships": [ship_json(st, seat) for seat in range(st.num_players)],
        "chipcards": list(st.chips),
        "chipcard_stock": st.chip_stock,
        "stock": {COLOUR_NAMES[c]: st.stock[c] for c in range(NUM_COLOURS)},
        "choices": [c.to_json() if c is not None else None for c in st.choices],
        "winner": st.winner,
        "scores": [list(s) for s in st.scores],
        "last_battle": st.last_battle,
        "round_scores": st.round_scores,
    }
