"""The tutorial's lessons (``tutorial.json`` beside this module; see :mod:`robotable.core.tutorial`) and
how their written positions are completed. Texts: the catalogue's ``tutorial.*`` keys; what the lessons
cover: docs/games/robots-on-the-line.md, "Tutorial".

A lesson's position names what matters and :func:`complete` fills in the rest from a new game with the
same ``num_players``, ``seed`` and ``options``. Parts named in ``hands``, ``lines``, ``junk_piles`` (and
torsos in ``torsos``) are taken from wherever the new game had them (a space they leave on a line not
written stays empty); parts the written places no longer hold go to the bottom of the draw piles.
``torso_top`` puts those torsos on top of the stack (the last on top). ``secret`` defaults to the parts
of each hand that the new game dealt to that seat; the bank holds the money the players and buyers do
not.

>>> from robotable.games.robots_on_the_line import GAME
>>> data = complete({"num_players": 2, "hands": [["head-01", "base-10", "hand-20"], []], "torso_top": ["torso-01"]})
>>> state = GAME.state_from_json(data)
>>> state.view(0)["players"][0]["hand"], state.view(0)["torso_stack"]["top"]
(['head-01', 'base-10', 'hand-20'], 'torso-01')
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from robotable.core import BadInput

from .components import BANK, PART_IDS
from .game import GAME

LESSONS = Path(__file__).with_name("tutorial.json")

_PLACES = ("hands", "lines", "junk_piles", "draw_piles", "out_of_game", "boxed")


def _parts_of(data: Mapping[str, Any], field: str) -> list[str]:
    value = data[field]
    if field in ("out_of_game", "boxed"):
        return [p for p in value if p]
    return [p for group in value for p in group if p]


def complete(partial: Mapping[str, Any]) -> dict[str, Any]:
    """Every field of a Robots on the Line state, those of ``partial`` first (see the module docstring)."""
    if not isinstance(partial, Mapping) or "num_players" not in partial:
        raise BadInput("robots-on-the-line position: a JSON object with at least num_players")
    base = GAME.start(partial["num_players"], seed=partial.get("seed", 0), options=partial.get("options")).to_json()
    given = {k: v for k, v in partial.items() if k != "torso_top"}
    data = {**base, **given}
    written = {p for field in _PLACES if field in given for p in _parts_of(data, field)}
    for field in _PLACES:
        if field in given:
            continue
        if field == "lines":
            data["lines"] = [[None if p in written else p for p in line] for line in data["lines"]]
        elif field in ("out_of_game", "boxed"):
            data[field] = [p for p in data[field] if p not in written]
        else:
            data[field] = [[p for p in group if p not in written] for group in data[field]]
    placed = {p for field in _PLACES for p in _parts_of(data, field)}
    missing = [p for field in _PLACES for p in _parts_of(base, field) if p not in placed]
    for i, part in enumerate(missing):
        data["draw_piles"][i % 2].insert(0, part)
    data["hands"] = [sorted(hand, key=lambda p: PART_IDS.get(p, -1)) for hand in data["hands"]]
    if "secret" not in given:
        data["secret"] = [sorted(set(hand) & set(dealt)) for hand, dealt in zip(data["hands"], base["secret"])]
    held = {t for t in data["torsos"] if t}
    kept = data["torso_stack"] if "torso_stack" in given else base["torso_stack"]
    stack = [t for t in kept if t not in held]
    stack += [t for t in base["torsos"] if t and t not in held and t not in stack]
    top = list(partial.get("torso_top", []))
    data["torso_stack"] = [t for t in stack if t not in top] + top
    if "bank" not in given:
        data["bank"] = BANK - sum(data["money"]) - sum(b["money"] for b in data["buyers"])
    return data


__all__ = ["LESSONS", "complete"]
