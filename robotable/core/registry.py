"""The game registry: game ids to their :class:`~robotable.core.game.Game`, imported on first use.

Games register themselves in ``robotable.games``; this module knows none of them by name.
"""

from __future__ import annotations

import importlib

from .errors import UnknownGame
from .game import Game

_PATHS: dict[str, str] = {}
_LOADED: dict[str, Game] = {}


def register(game_id: str, path: str) -> None:
    """Register ``game_id`` as the ``Game`` instance at ``"package.module:ATTRIBUTE"``."""
    _PATHS[game_id] = path


def available() -> list[str]:
    """The ids of every registered game."""
    _ensure_games()
    return sorted(_PATHS)


def load(game_id: str) -> Game:
    """The game registered under ``game_id``; :class:`UnknownGame` (a BadInput) otherwise."""
    _ensure_games()
    if game_id in _LOADED:
        return _LOADED[game_id]
    if not isinstance(game_id, str) or game_id not in _PATHS:
        raise UnknownGame(f"unknown game {game_id!r} (known: {', '.join(sorted(_PATHS))})")
    module, _, attr = _PATHS[game_id].partition(":")
    game: Game = getattr(importlib.import_module(module), attr)
    _LOADED[game_id] = game
    return game


def _ensure_games() -> None:
    if not _PATHS:
        importlib.import_module("robotable.games")
