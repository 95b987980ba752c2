"""The actions of TF22: RELOAD!.

A battle choice is one card from hand: a number (:class:`PlayCard`) or the R card with one of its four
uses and their parameters, all chosen secretly (:class:`RTakeBack`, :class:`RDiscard`,
:class:`RReload`, :class:`RBuy`). The winner of a battle then decides what to do with the activated
container (:class:`Load`, :class:`Reload`, :class:`ReturnContainer`). Slots are numbered from 0.

>>> RBuy(Colour.GREEN, 2).to_json()
{'type': 'r_buy', 'colour': 'green', 'slot': 2}
"""

from __future__ import annotations

from dataclasses import dataclass

from robotable.core import Action, BadInput

from .components import MAX_SLOTS, NUM_COLOURS, RCU_VALUES, Colour


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Play the numbered RCU card ``value`` (1 to 7) in the battle."""

    type = "play"
    value: int


@dataclass(frozen=True, slots=True)
class RTakeBack(Action):
    """R a: take every card of your RC discard pile back into your hand, for free."""

    type = "r_take_back"


@dataclass(frozen=True, slots=True)
class RDiscard(Action):
    """R b: pay 1 chipcard, discard the container on top of the stack in ``slot``."""

    type = "r_discard"
    slot: int


@dataclass(frozen=True, slots=True)
class RReload(Action):
    """R c: pay 2 chipcards, move the container on top of ``from_slot`` to ``to_slot``."""

    type = "r_reload"
    from_slot: int
    to_slot: int


@dataclass(frozen=True, slots=True)
class RBuy(Action):
    """R d: pay 3 chipcards, buy a ``colour`` container from the stock and load it on ``slot``."""

    type = "r_buy"
    colour: Colour
    slot: int


@dataclass(frozen=True, slots=True)
class Load(Action):
    """After winning a battle: load the activated container on ``slot``."""

    type = "load"
    slot: int


@dataclass(frozen=True, slots=True)
class Reload(Action):
    """After winning a battle (the bluff): move a container of the battle's colour instead of loading."""

    type = "reload"
    from_slot: int
    to_slot: int


@dataclass(frozen=True, slots=True)
class ReturnContainer(Action):
    """After winning a battle: neither load nor reload; the activated container goes back to the stock."""

    type = "return"


BATTLE_CHOICES = (PlayCard, RTakeBack, RDiscard, RReload, RBuy)
R_USES = (RTakeBack, RDiscard, RReload, RBuy)
LOAD_DECISIONS = (Load, Reload, ReturnContainer)
ACTION_TYPES = BATTLE_CHOICES + LOAD_DECISIONS


def _every_action() -> tuple[Action, ...]:
    slots = range(MAX_SLOTS)
    moves = [(a, b) for a in slots for b in slots if a != b]
    out: list[Action] = [PlayCard(v) for v in RCU_VALUES]
    out += [RTakeBack()] + [RDiscard(s) for s in slots] + [RReload(a, b) for a, b in moves]
    out += [RBuy(Colour(c), s) for c in range(NUM_COLOURS) for s in slots]
    out += [Load(s) for s in slots] + [Reload(a, b) for a, b in moves] + [ReturnContainer()]
    return tuple(out)


#: Every action a game can ever offer, in a fixed order: the stable integer encoding for RL adapters
#: (slots up to the largest ship, whatever the player count).
ACTIONS: tuple[Action, ...] = _every_action()
_INDEX = {a: i for i, a in enumerate(ACTIONS)}


def action_index(action: Action) -> int:
    """The action's stable integer.

    >>> action_index(PlayCard(1)), action_from_index(action_index(RBuy(Colour.RED, 2))) == RBuy(Colour.RED, 2)
    (0, True)
    >>> len(ACTIONS)
    79
    """
    try:
        return _INDEX[action]
    except (KeyError, TypeError):
        raise BadInput(f"tf22-reload: {action!r} has no integer encoding (not a possible action)") from None


def action_from_index(index: int) -> Action:
    """The action of a stable integer (see :func:`action_index`)."""
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(ACTIONS):
        raise BadInput(f"tf22-reload: action index must be 0 to {len(ACTIONS) - 1}, got {index!r}")
    return ACTIONS[index]
