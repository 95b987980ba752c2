"""The actions of Robots on the Line.

Parts, torsos and buyers are named by their catalogue ids (``"head-07"``, ``"torso-13"``,
``"buyer-2"``). Lines and junk piles are 0 and 1; spaces are 1 (next to the draw pile) to 6 (next to
the junk pile); a line's sections are 0 (spaces 1-3) and 1 (spaces 4-6). A robot's layout is a list of
``[tile id, x, y, rotation]`` (see :mod:`.geometry`).

>>> SellRobot("buyer-2", (("torso-07", 0, 0, 0), ("head-01", 0, -1, 0)), (), ()).to_json()["layout"]
[['torso-07', 0, 0, 0], ['head-01', 0, -1, 0]]
>>> FlipSwitches((0, 0), (1, 1)).to_json()
{'type': 'flip_switches', 'on': [0, 0], 'off': [1, 1]}
"""

from __future__ import annotations

from dataclasses import dataclass

from robotable.core import Action

from .components import BUYER_IDS, LINES, PART_IDS, SECTIONS, SPACES, TORSO_IDS


@dataclass(frozen=True, slots=True)
class TakePart(Action):
    """Take the part on ``space`` of ``line`` (its section's switch must be ON) with its magnet unit."""

    type = "take_part"
    line: int
    space: int


@dataclass(frozen=True, slots=True)
class SearchJunk(Action):
    """Pay $1 to go through junk pile ``pile`` and take ``part`` from it (the pile keeps its order)."""

    type = "search_junk"
    pile: int
    part: str


@dataclass(frozen=True, slots=True)
class TradeJunk(Action):
    """Give ``part`` for the top of junk pile ``pile`` (no magnets; at most two per turn)."""

    type = "trade_junk"
    pile: int
    part: str


@dataclass(frozen=True, slots=True)
class TakeTorso(Action):
    """Take the top torso for free (only with no torso in hand)."""

    type = "take_torso"


@dataclass(frozen=True, slots=True)
class ChooseTorso(Action):
    """Pay $1 to go through the torso stack and take ``torso`` (only with no torso in hand)."""

    type = "choose_torso"
    torso: str


@dataclass(frozen=True, slots=True)
class SwapTorso(Action):
    """Trade the torso in hand for the top torso of the stack."""

    type = "swap_torso"


@dataclass(frozen=True, slots=True)
class FlipSwitches(Action):
    """Pay $1: turn the OFF switch ``on`` ON and the ON switch ``off`` OFF (each ``[line, section]``)."""

    type = "flip_switches"
    on: tuple[int, int]
    off: tuple[int, int]


@dataclass(frozen=True, slots=True)
class FlipSwitch(Action):
    """ON/OFF variant: pay $1 to turn one switch over."""

    type = "flip_switch"
    line: int
    section: int


@dataclass(frozen=True, slots=True)
class SellPart(Action):
    """Sell ``part`` to the Bargain Hunter ($1, or $4 for the featured kind; never a magnet)."""

    type = "sell_part"
    part: str


@dataclass(frozen=True, slots=True)
class SellRobot(Action):
    """Sell a finished robot to ``buyer``: its ``layout``, and the batteries and magnets handed over with it."""

    type = "sell_robot"
    buyer: str
    layout: tuple[tuple[str, int, int, int], ...]
    batteries: tuple[str, ...]
    magnets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Offer(Action):
    """Offer seat ``to`` a trade: ``give`` (parts or your torso) and ``give_money`` for ``take`` and ``take_money``."""

    type = "offer"
    to: int
    give: tuple[str, ...]
    take: tuple[str, ...]
    give_money: int
    take_money: int


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Accept the open trade offer numbered ``offer`` made to you."""

    type = "accept"
    offer: int


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Decline the open trade offer numbered ``offer`` made to you."""

    type = "decline"
    offer: int


@dataclass(frozen=True, slots=True)
class PickJunk(Action):
    """3 new tiles variant: after a sale, take the top of junk pile ``pile``."""

    type = "pick_junk"
    pile: int


@dataclass(frozen=True, slots=True)
class StopPicking(Action):
    """3 new tiles variant: take no more tiles from the junk piles."""

    type = "stop_picking"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn: open offers lapse and both lines advance one space."""

    type = "end_turn"


ACTION_TYPES: tuple[type[Action], ...] = (
    TakePart,
    SearchJunk,
    TradeJunk,
    TakeTorso,
    ChooseTorso,
    SwapTorso,
    FlipSwitches,
    FlipSwitch,
    SellPart,
    SellRobot,
    Offer,
    Accept,
    Decline,
    PickJunk,
    StopPicking,
    EndTurn,
)


def malformed(a: Action) -> str:
    """What is malformed in an action's names and numbers ('' if nothing).

    >>> malformed(TakePart(0, 7))
    'line must be 0-1 and space 1-6, got line 0, space 7'
    """
    try:
        return _malformed(a)
    except (TypeError, ValueError) as exc:  # fields of the wrong shape, built in Python
        return f"malformed fields ({exc})"


def _malformed(a: Action) -> str:
    if isinstance(a, TakePart) and (a.line not in range(LINES) or a.space not in range(1, SPACES + 1)):
        return f"line must be 0-{LINES - 1} and space 1-{SPACES}, got line {a.line}, space {a.space}"
    if isinstance(a, SearchJunk | TradeJunk | PickJunk) and a.pile not in range(LINES):
        return f"pile must be 0-{LINES - 1}, got {a.pile}"
    if isinstance(a, SearchJunk | TradeJunk | SellPart) and a.part not in PART_IDS:
        return f"unknown part {a.part!r}"
    if isinstance(a, ChooseTorso) and a.torso not in TORSO_IDS:
        return f"unknown torso {a.torso!r}"
    if isinstance(a, FlipSwitches):
        for name, (line, sec) in (("on", a.on), ("off", a.off)):
            if line not in range(LINES) or sec not in range(len(SECTIONS)):
                return f"'{name}' must be [line 0-{LINES - 1}, section 0-{len(SECTIONS) - 1}], got {[line, sec]}"
    if isinstance(a, FlipSwitch) and (a.line not in range(LINES) or a.section not in range(len(SECTIONS))):
        return f"line must be 0-{LINES - 1} and section 0-{len(SECTIONS) - 1}"
    if isinstance(a, Offer):
        if a.give_money < 0 or a.take_money < 0:
            return "money in an offer cannot be negative"
        for name in a.give + a.take:
            if name not in PART_IDS and name not in TORSO_IDS:
                return f"unknown tile {name!r}"
    if isinstance(a, SellRobot):
        if a.buyer not in BUYER_IDS:
            return f"unknown buyer {a.buyer!r} (one of {', '.join(BUYER_IDS)})"
        for i, (name, x, y, rotation) in enumerate(a.layout):
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y, rotation)):
                return f"layout[{i}]: x, y and rotation are integers"
            if name not in PART_IDS and name not in TORSO_IDS:
                return f"layout[{i}]: unknown tile {name!r}"
            if rotation not in range(4):
                return f"layout[{i}]: rotation is 0 to 3 quarter turns clockwise, got {rotation}"
        for field, names in (("batteries", a.batteries), ("magnets", a.magnets)):
            for name in names:
                if name not in PART_IDS:
                    return f"{field}: unknown part {name!r}"
    return ""
