"""The bot levels' arena ratings, shown beside a bot's name ("ISMCTS hard, rated 31") like a chess
site's engine levels: in the difficulty list (``GET /api/difficulties``), on every bot seat of a table
and on the leaderboards' bot entries.

The ratings come from the arena's round-robin of the levels (``python -m robotable.arena.level_ratings``,
written to the package data file ``robotable/ai/data/level_ratings.json``) and are read once per process,
never from the network. The number shown is the conservative OpenSkill rating ``mu - 3 sigma``
(``ordinal``, the one the leaderboards rank by) on the 1500-based scale (``display_rating``,
rating_scale.py). A missing or broken file is logged as a warning and the bots are shown without a
rating: the server runs on.
"""

from __future__ import annotations

import json
import logging
from functools import lru_cache
from pathlib import Path
from typing import Any

from robotable.arena.level_ratings import check_level_ratings
from robotable.core import BadInput

from .rating_scale import PROVISIONAL_GAMES, display_rating

log = logging.getLogger("robotable.server")

#: The ratings' data file (package data).
PATH = Path(__file__).resolve().parent.parent / "ai" / "data" / "level_ratings.json"


@lru_cache(maxsize=4)
def _read(path: Path) -> dict[str, dict[str, dict[str, Any]]]:
    try:
        return check_level_ratings(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        log.warning("no bot level ratings (%s is missing): bots are shown without a rating", path)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, BadInput) as exc:
        log.warning("bot level ratings unreadable (%s: %s): bots are shown without a rating", path, exc)
    return {}


def all_ratings() -> dict[str, dict[str, dict[str, Any]]]:
    """``{game: {level: {"mu", "sigma", "ordinal", "games"}}}``, or ``{}`` without a usable file."""
    return _read(PATH)


def rating_of(game: str, level: str | None) -> dict[str, Any] | None:
    """A level's rating in one game as the pages show it, or None (not rated there, or no ratings):
    ``{"rating": 31, "display_rating": 2430, "provisional": False, "mu": 35.2, "sigma": 1.4, "games": 120}``
    (``rating``: ``mu - 3 sigma`` rounded; ``display_rating``: the same on the 1500-based scale,
    rating_scale.py)."""
    found = all_ratings().get(game, {}).get(level or "")
    if found is None:
        return None
    return {
        "rating": round(found["ordinal"]),
        "display_rating": display_rating(found["ordinal"]),
        "provisional": found["games"] < PROVISIONAL_GAMES,
        "mu": round(found["mu"], 1),
        "sigma": round(found["sigma"], 1),
        "games": found["games"],
    }


def ratings_of(level: str) -> dict[str, dict[str, Any]]:
    """A level's rating in every game it was rated in: ``{game: rating_of(game, level)}``."""
    out = {}
    for game in sorted(all_ratings()):
        rating = rating_of(game, level)
        if rating is not None:
            out[game] = rating
    return out
