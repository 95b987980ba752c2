"""Positions written by hand, loaded through the state JSON (as docs/games/tf22-reload.md describes)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from robotable.games.tf22_reload import GAME, Tf22State
from robotable.games.tf22_reload.components import CHIPCARDS, COLOUR_NAMES, CONTAINERS_PER_COLOUR, DECK, card_json

BUZZ, NEIL, VALENTINA, JURI = 0, 1, 2, 3
Card = tuple[str, int]


def position(
    num_players: int,
    revealed: tuple[Card, Card] = (("blue", 2), ("yellow", 1)),
    *,
    activated: bool = True,
    ships: list[list[list[str]]] | None = None,
    chips: list[int] | None = None,
    hands: list[list[int]] | None = None,
    cc_piles: list[list[Card]] | None = None,
    set_aside: list[Card] = (),  # type: ignore[assignment]
    next_cards: list[Card] = (),  # type: ignore[assignment]
    deck: list[Card] | None = None,
    rest: str = "deck",
    round: int = 1,
    phase: str = "choose",
    winner: int = -1,
    options: dict[str, Any] | None = None,
) -> Tf22State:
    """A consistent state: unlisted cards go to the stack, unlisted containers to the stock.

    ``next_cards`` are revealed next, in order, from the top of the stack; ``deck`` gives the whole stack.
    With ``rest="set_aside"`` the cards not placed anywhere are set aside (for the last battle of a round).
    During a load decision the revealed cards are already in the winner's CC pile.
    """
    n = num_players
    ships = ships or [[[] for _ in range({2: 5, 3: 4, 4: 3}[n])] for _ in range(n)]
    chips = chips or [0] * n
    hands = hands or [[1, 2, 3, 4, 5, 6, 7] for _ in range(n)]
    cc_piles = cc_piles or [[] for _ in range(n)]
    shown = revealed if phase == "choose" else ()
    used = Counter([*shown, *set_aside, *next_cards, *(c for pile in cc_piles for c in pile)])
    pool = Counter(tuple(card_json(c)) for c in DECK)
    pool.subtract(used)
    unplaced = [c for c, k in sorted(pool.items()) for _ in range(k)]
    if rest == "set_aside":
        set_aside, deck = [*set_aside, *unplaced], list(reversed(next_cards))
    elif deck is None:
        deck = unplaced + list(reversed(next_cards))
    on_ships = Counter(c for ship in ships for stack in ship for c in stack)
    colour = _winning_colour(revealed)
    if not activated or on_ships[colour] == CONTAINERS_PER_COLOUR:
        colour = None
    stock = {c: CONTAINERS_PER_COLOUR - on_ships[c] - (c == colour) for c in COLOUR_NAMES}
    data: dict[str, Any] = {
        "game": "tf22-reload",
        "num_players": n,
        "seed": 1,
        "options": options or {},
        "rng": 1,
        "round": round,
        "battle": 14 - len(deck) // 2,
        "phase": phase,
        "deck": [list(c) for c in deck],
        "revealed": [list(c) for c in revealed],
        "activated": colour,
        "set_aside": [list(c) for c in set_aside],
        "cc_piles": [[list(c) for c in pile] for pile in cc_piles],
        "hands": hands,
        "discards": [sorted(set(range(1, 8)) - set(h)) for h in hands],
        "ships": ships,
        "chipcards": chips,
        "chipcard_stock": CHIPCARDS - sum(chips),
        "stock": stock,
        "choices": [None] * n,
        "winner": winner,
        "scores": [[0, 0, 0] for _ in range(n)],
        "last_battle": None,
        "round_scores": [],
    }
    return GAME.state_from_json(data)


def _winning_colour(revealed: tuple[Card, Card]) -> str:
    from robotable.games.tf22_reload.components import card
    from robotable.games.tf22_reload.rules import activated_colour

    a, b = (card(COLOUR_NAMES.index(c), v) for c, v in revealed)
    return COLOUR_NAMES[activated_colour(a, b)]


def play_all(state: Tf22State, *choices: Any) -> list[Any]:
    """Every seat makes its secret choice in turn; returns all events."""
    events = []
    for seat, choice in enumerate(choices):
        events += state.apply(seat, choice)
    return events
