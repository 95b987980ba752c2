"""Hand-written Twin Tin Bots positions for the web tests (tables started with ``position``), completed
with every field the state reader requires."""

from __future__ import annotations

from typing import Any

from robotable.games.twin_tin_bots.positions import complete

#: Red (seat 0) to play; red-A faces yellow-A next to it: a Zap on A1 hits yellow-A.
ZAP: dict[str, Any] = complete(
    {
        "num_players": 2,
        "turn_order": ["red", "yellow"],
        "robots": {
            "red": [{"hex": [0, -1], "facing": "SE", "cargo": None}, {"hex": [-4, 3], "facing": "NE", "cargo": None}],
            "yellow": [{"hex": [0, 0], "facing": "W", "cargo": None}, {"hex": [0, 4], "facing": "NW", "cargo": None}],
        },
        "crystals": [
            {"hex": [-2, 4], "crystal": "blue"},
            {"hex": [-1, 1], "crystal": "blue"},
            {"hex": [1, -1], "crystal": "blue"},
            {"hex": [2, -4], "crystal": "blue"},
        ],
        "programs": {
            "red": [None, None, None, "turn_left", None, None],
            "yellow": ["forward_1", None, None, "turn_left", None, None],
        },
    }
)

#: The end phase with two Countdown counters left; red-A carries a pink crystal in front of its Base.
ENDGAME: dict[str, Any] = complete(
    {
        "num_players": 2,
        "turn_order": ["red", "yellow"],
        "track": [],
        "end_phase": True,
        "countdown": 2,
        "robots": {
            "red": [{"hex": [2, 0], "facing": "E", "cargo": "pink"}, {"hex": [-4, 3], "facing": "NE", "cargo": None}],
            "yellow": [{"hex": [4, -3], "facing": "SW", "cargo": None}, {"hex": [0, 4], "facing": "NW", "cargo": None}],
        },
        "programs": {
            "red": ["turn_left", None, None, "turn_left", None, None],
            "yellow": ["turn_right", None, None, "turn_left", None, None],
        },
    }
)

#: Red to play; red-A faces a Blob: a Zap on A1 lets red move the Blob.
BLOB: dict[str, Any] = complete(
    {
        "num_players": 2,
        "turn_order": ["red", "yellow"],
        "robots": {
            "red": [{"hex": [0, -2], "facing": "SE", "cargo": None}, {"hex": [-4, 3], "facing": "NE", "cargo": None}],
            "yellow": [{"hex": [4, -3], "facing": "SW", "cargo": None}, {"hex": [0, 4], "facing": "NW", "cargo": None}],
        },
        "blobs": [[0, -1]],
        "programs": {
            "red": [None, None, None, "turn_left", None, None],
            "yellow": ["forward_1", None, None, "turn_left", None, None],
        },
    }
)

#: Red-A delivers a green crystal while red-B stands on the centre: the new crystal has four hexes to go.
CRYSTAL: dict[str, Any] = complete(
    {
        "num_players": 2,
        "turn_order": ["red", "yellow"],
        "robots": {
            "red": [{"hex": [2, 0], "facing": "E", "cargo": "green"}, {"hex": [0, 0], "facing": "NE", "cargo": None}],
            "yellow": [{"hex": [4, -3], "facing": "SW", "cargo": None}, {"hex": [0, 4], "facing": "NW", "cargo": None}],
        },
        "crystals": [
            {"hex": [-2, 4], "crystal": "blue"},
            {"hex": [-1, 1], "crystal": "blue"},
            {"hex": [1, -1], "crystal": "blue"},
            {"hex": [2, -4], "crystal": "blue"},
        ],
        "programs": {
            "red": ["turn_left", None, None, "turn_left", None, None],
            "yellow": ["turn_right", None, None, "turn_left", None, None],
        },
    }
)
