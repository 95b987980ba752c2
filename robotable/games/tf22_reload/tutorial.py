"""The tutorial's lessons (``tutorial.json`` beside this module; see :mod:`robotable.core.tutorial`) and
how their written positions are completed. Texts: the catalogue's ``tutorial.*`` keys; what the lessons
cover: docs/games/tf22-reload.md, "Tutorial".

A lesson's position names what matters and :func:`complete` fills in the rest from a new game with the
same ``num_players``, ``seed`` and ``options``: ``next`` (cards to reveal next, in order) goes on top of
the stack, and the stack holds the cards nobody holds (in the new game's order), as many as the battle
leaves; ``battle`` follows from the stack; ``activated`` from the revealed cards; ``discards`` are the
numbers not in hand; ``stock`` and ``chipcard_stock`` are what the ships, the activated container and the
players do not hold.

>>> from robotable.games.tf22_reload import GAME
>>> data = complete({"num_players": 2, "revealed": [["green", 0], ["red", 2]], "hands": [[2, 5], [1, 7]]})
>>> data["activated"], data["discards"][0], GAME.state_from_json(data).view(0)["battle"]
('green', [1, 3, 4, 6, 7], 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from robotable.core import BadInput

from .components import (
    CARDS_PER_BATTLE,
    CHIPCARDS,
    COLOUR_NAMES,
    CONTAINERS_PER_COLOUR,
    DECK,
    RCU_VALUES,
    card_json,
)
from .game import GAME
from .rules import activated_colour

LESSONS = Path(__file__).with_name("tutorial.json")


def _card(value: Any) -> int:
    try:
        colour, face = value
        return COLOUR_NAMES.index(colour) * 4 + int(face)
    except (TypeError, ValueError):
        raise BadInput(f"tf22-reload position: a card is [colour, value], got {value!r}") from None


def complete(partial: Mapping[str, Any]) -> dict[str, Any]:
    """Every field of a TF22 state, those of ``partial`` first (see the module docstring)."""
    if not isinstance(partial, Mapping) or "num_players" not in partial:
        raise BadInput("tf22-reload position: a JSON object with at least num_players")
    base = GAME.start(partial["num_players"], seed=partial.get("seed", 0), options=partial.get("options")).to_json()
    given = {k: v for k, v in partial.items() if k != "next"}
    data = {**base, **given}
    if "deck" not in given:
        order = [_card(c) for c in base["deck"] + base["revealed"]]
        held = [_card(c) for c in data["revealed"] + data["set_aside"]]
        held += [_card(c) for pile in data["cc_piles"] for c in pile]
        top = [_card(c) for c in partial.get("next", [])]
        rest = list(order)
        for c in held + top:
            rest.remove(c)
        data["deck"] = [card_json(c) for c in rest + top[::-1]]
        if len(rest) % CARDS_PER_BATTLE or len(rest) + len(top) + len(held) != len(DECK):
            raise BadInput("tf22-reload position: the cards do not add up to whole battles")
    if "battle" not in given:
        data["battle"] = len(DECK) // CARDS_PER_BATTLE - len(data["deck"]) // CARDS_PER_BATTLE
    if "activated" not in given and len(data["revealed"]) == CARDS_PER_BATTLE:
        a, b = (_card(c) for c in data["revealed"])
        data["activated"] = COLOUR_NAMES[activated_colour(a, b)]
    if "discards" not in given and "hands" in given:
        data["discards"] = [[v for v in RCU_VALUES if v not in hand] for hand in data["hands"]]
    if "stock" not in given:
        on = [c for ship in data["ships"] for stack in ship for c in stack]
        if data.get("activated"):
            on.append(data["activated"])
        data["stock"] = {c: CONTAINERS_PER_COLOUR - on.count(c) for c in COLOUR_NAMES}
    if "chipcard_stock" not in given:
        data["chipcard_stock"] = CHIPCARDS - sum(data["chipcards"])
    return data


__all__ = ["LESSONS", "complete"]
