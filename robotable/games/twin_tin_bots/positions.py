"""Positions written by hand: :func:`complete` fills in every field a partial state leaves out, so that
puzzles and tests list only what matters, and :meth:`~.game.TwinTinBots.state_from_json` (which
requires every field) reads the result.

A field left out takes its value from a new game with the same ``num_players``, ``seed`` (default 0) and
``options`` (default none), except: ``unused`` is recomputed from the other crystals; ``revealed`` is
the Special Orders on the boards when ``programs`` or ``specials`` are given; ``special_stack`` is the
Special Orders nobody owns; ``first_turn_done`` is "has a tile on its board" when ``programs`` are
given; ``stuck`` is the robots standing in Mud; ``changes_left`` is what the phase and first turn ask.

>>> from robotable.games.twin_tin_bots import GAME
>>> state = GAME.state_from_json(complete({"num_players": 2, "crystals": [], "track": ["pink"]}))
>>> state.crystal_census()["unused"]
17
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from robotable.core import BadInput

from .components import (
    CRYSTAL_KINDS,
    CRYSTAL_NAMES,
    CRYSTALS_PER_KIND,
    SLOTS_PER_ROBOT,
    SPECIALS,
    TILE_NAMES,
    parse_crystal,
)
from .game import GAME

_SPECIAL_NAMES = [TILE_NAMES[t] for t in SPECIALS]


def complete(partial: Mapping[str, Any]) -> dict[str, Any]:
    """Every field of a Twin Tin Bots state, those of ``partial`` first (see the module docstring)."""
    if not isinstance(partial, Mapping) or "num_players" not in partial:
        raise BadInput("twin-tin-bots position: a JSON object with at least num_players")
    base = GAME.start(partial["num_players"], seed=partial.get("seed", 0), options=partial.get("options")).to_json()
    data = {**base, **partial}
    given = set(partial)
    if "revealed" not in given and given & {"programs", "specials"}:
        data["revealed"] = {c: [t for t in prog if t in _SPECIAL_NAMES] for c, prog in data["programs"].items()}
    if "special_stack" not in given and "specials" in given:
        owned = {t for tiles in data["specials"].values() for t in tiles}
        simplified = bool(data["options"].get("simplified"))
        stack = [t for t in base["special_stack"] if t not in owned]
        data["special_stack"] = stack + [
            t for t in _SPECIAL_NAMES if t not in owned and t not in stack and not simplified
        ]
    if "first_turn_done" not in given and "programs" in given:
        data["first_turn_done"] = {c: any(t is not None for t in prog) for c, prog in data["programs"].items()}
    if "stuck" not in given:
        mud = {tuple(h) for h in data["mud"]}
        data["stuck"] = [
            f"{c}-{'AB'[k]}"
            for c, robots in data["robots"].items()
            for k, r in enumerate(robots)
            if tuple(r["hex"]) in mud
        ]
    if "changes_left" not in given:
        data["changes_left"] = _changes_left(data)
    if "unused" not in given:
        data["unused"] = _unused(data)
    return data


def _changes_left(data: dict[str, Any]) -> int:
    if data.get("phase", "change") != "change":
        return 0
    active = data["turn_order"][data["turn"]]
    if data["first_turn_done"].get(active):
        return 1
    prog = data["programs"][active]
    robots = len(data["robots"][active])
    return (
        sum(1 for k in range(robots) if all(t is None for t in prog[k * SLOTS_PER_ROBOT : (k + 1) * SLOTS_PER_ROBOT]))
        or 1
    )


def _unused(data: dict[str, Any]) -> dict[str, int]:
    """Crystals in the box: 6 of each kind less those on the track, the ground, robots, Bases, entering."""
    names = [
        *data["track"],
        *(c["crystal"] for c in data["crystals"]),
        *(r["cargo"] for robots in data["robots"].values() for r in robots if r.get("cargo")),
        *(c for crystals in data["delivered"].values() for c in crystals),
    ]
    if data.get("phase") == "crystal" and isinstance(data.get("pending"), Mapping):
        names.append(data["pending"].get("crystal"))
    values = [parse_crystal(n) for n in names]
    return {CRYSTAL_NAMES[v]: CRYSTALS_PER_KIND - values.count(v) for v in CRYSTAL_KINDS}
