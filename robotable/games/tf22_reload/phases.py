"""Where a game of TF22: RELOAD! stands: seats choosing a card for the battle, the winner deciding where
the container goes, or the game over."""

from __future__ import annotations

GAME_ID = "tf22-reload"
CHOOSE, LOAD, OVER = 0, 1, 2
PHASES = ("choose", "load", "over")
