"""Twin Tin Bots' tutorial (issue 33) makes the player use every Order tile: each of the colour's own
Orders is placed by some step (the Double Modification played), and a Special Order too."""

from __future__ import annotations

from robotable.core.tutorial import paths, tutorial_of
from robotable.games.twin_tin_bots import GAME
from robotable.games.twin_tin_bots.components import ORDER_COUNTS, SPECIALS, TILE_NAMES


def test_every_order_tile_is_placed_in_some_lesson() -> None:
    placed: set[str] = set()
    played: set[str] = set()
    for lesson in tutorial_of(GAME).lessons:
        walk = next(iter(paths(GAME, lesson)))
        for action in walk.moves:
            data = action.to_json()
            played.add(data["type"])
            if data["type"] == "place":
                placed.add(data["tile"])
    orders = {TILE_NAMES[t] for t in ORDER_COUNTS} - {"double_modification"}
    assert orders <= placed, orders - placed
    assert "double_modification" in played
    assert placed & {TILE_NAMES[t] for t in SPECIALS}
