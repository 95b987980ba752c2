"""TF22: RELOAD!: fight battles with RCU cards for containers, load your spaceship, keep majorities.

Rules: shared/rules/001_b5398261de407a4a.txt; decisions: docs/games/tf22-reload.md.

>>> from robotable.games.tf22_reload import GAME, PlayCard
>>> state = GAME.start(num_players=2, seed=3)
>>> _ = state.apply(0, PlayCard(5)); _ = state.apply(1, PlayCard(3))
>>> state.last_battle["winner"]
0
"""

from .actions import Load, PlayCard, RBuy, RDiscard, Reload, ReturnContainer, RReload, RTakeBack
from .components import Colour
from .game import GAME, Tf22Reload
from .state import Tf22State

__all__ = [
    "GAME",
    "Colour",
    "Load",
    "PlayCard",
    "RBuy",
    "RDiscard",
    "RReload",
    "RTakeBack",
    "Reload",
    "ReturnContainer",
    "Tf22Reload",
    "Tf22State",
]
