"""Helpers to write Twin Tin Bots positions by hand in tests (2-player board unless told)."""

from __future__ import annotations

from typing import Any

from robotable.core import Event
from robotable.games.twin_tin_bots import GAME, Pass, TtbState
from robotable.games.twin_tin_bots.components import SPECIALS, TILE_NAMES
from robotable.games.twin_tin_bots.positions import complete

# The 2-player layout's robots (red A and B, yellow A and B), out of the way of tests near the centre.
PARKED = {
    "red": [((0, -4), "SE"), ((-4, 3), "NE")],
    "yellow": [((4, -3), "SW"), ((0, 4), "NW")],
}
SPECIAL_NAMES = {TILE_NAMES[t] for t in SPECIALS}


def position(
    robots: dict[str, list[tuple[Any, ...]]] | None = None,
    crystals: list[tuple[tuple[int, int], str]] = (),  # type: ignore[assignment]
    programs: dict[str, list[str | None]] | None = None,
    n: int = 2,
    options: dict[str, Any] | None = None,
    specials: dict[str, list[str]] | None = None,
    **extra: Any,
) -> TtbState:
    """A position: robots as ``(hex, facing[, cargo])`` per colour, crystals on the ground as
    ``(hex, colour)``, programs as up to six tile names per colour (padded with empty slots)."""
    base = GAME.start(n, seed=1, options=options or {})
    colours = list(base.colours)
    per = base.robots_per
    layout_robots = base.to_json()["robots"]
    out_robots = {}
    for c in colours:
        specs = (robots or {}).get(c)
        if specs is None:
            out_robots[c] = layout_robots[c]
        else:
            out_robots[c] = [
                {"hex": list(spec[0]), "facing": spec[1], "cargo": spec[2] if len(spec) > 2 else None}
                for spec in specs[:per]
            ] + layout_robots[c][len(specs) : per]
    data: dict[str, Any] = {
        "num_players": n,
        "seed": 1,
        "options": options or {},
        "robots": out_robots,
        "crystals": [{"hex": list(h), "crystal": k} for h, k in crystals],
        "turn_order": colours,
        "turn": 0,
    }
    progs = {c: [None] * 6 for c in colours}
    for c, tiles in (programs or {}).items():
        progs[c] = list(tiles) + [None] * (6 - len(tiles))
    data["programs"] = progs
    owned = {c: [t for t in progs[c] if t in SPECIAL_NAMES] for c in colours}
    for c, extra_specials in (specials or {}).items():
        owned[c] += [t for t in extra_specials if t not in owned[c]]
    if (options or {}).get("simplified"):
        owned = {c: [] for c in colours}
    data["specials"] = owned
    data.update(extra)
    return GAME.state_from_json(complete(data))


def run(state: TtbState) -> list[Event]:
    """The active player passes: the programs run (up to the first pending decision)."""
    return state.apply(state.to_act()[0], Pass())


def robot(state: TtbState, name: str) -> tuple[tuple[int, int], str, str | None]:
    """``(hex, facing, cargo)`` of a robot by name, e.g. ``"red-A"``."""
    for r in state.view(None)["robots"]:
        if r["robot"] == name:
            return tuple(r["hex"]), r["facing"], r["cargo"]  # type: ignore[return-value]
    raise KeyError(name)


def crystals(state: TtbState) -> dict[tuple[int, int], str]:
    """Crystals on the ground by hex."""
    return {tuple(c["hex"]): c["crystal"] for c in state.view(None)["crystals"]}  # type: ignore[misc]


def types(events: list[Event]) -> list[str]:
    """The event types, in order."""
    return [e.type for e in events]
