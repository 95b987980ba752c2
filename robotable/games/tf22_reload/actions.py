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

from robotable.core import Action

from .components import Colour


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
