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
from typing import Any

from robotable.core import Action, BadInput, reason

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
    """What is malformed in an action's names and numbers ('' if nothing), as a coded ``Reason``.

    >>> malformed(TakePart(0, 7))
    'line must be 0-1 and space 1-6, got line 0, space 7'
    """
    try:
        return _malformed(a)
    except (TypeError, ValueError) as exc:  # fields of the wrong shape, built in Python
        return reason("refusals.malformed.fields", "malformed fields ({error})", error=str(exc))


def _bad_space(a: TakePart) -> str:
    if a.line not in range(LINES) or a.space not in range(1, SPACES + 1):
        return reason(
            "refusals.malformed.space",
            "line must be 0-{last_line} and space 1-{spaces}, got line {line}, space {space}",
            last_line=LINES - 1,
            spaces=SPACES,
            line=a.line,
            space=a.space,
        )
    return ""


def _bad_pile(a: SearchJunk | TradeJunk | PickJunk) -> str:
    if a.pile not in range(LINES):
        return reason(
            "refusals.malformed.pile", "pile must be 0-{last_pile}, got {pile}", last_pile=LINES - 1, pile=a.pile
        )
    if isinstance(a, SearchJunk | TradeJunk):
        return _bad_part(a)
    return ""


def _bad_part(a: SearchJunk | TradeJunk | SellPart) -> str:
    return "" if a.part in PART_IDS else reason("refusals.malformed.part", "unknown part {part}", part=repr(a.part))


def _bad_torso(a: ChooseTorso) -> str:
    return (
        "" if a.torso in TORSO_IDS else reason("refusals.malformed.torso", "unknown torso {torso}", torso=repr(a.torso))
    )


def _bad_switches(a: FlipSwitches) -> str:
    for name, (line, sec) in (("on", a.on), ("off", a.off)):
        if line not in range(LINES) or sec not in range(len(SECTIONS)):
            return reason(
                "refusals.malformed.switches",
                "'{field}' must be [line 0-{last_line}, section 0-{last_section}], got {got}",
                field=name,
                last_line=LINES - 1,
                last_section=len(SECTIONS) - 1,
                got=[line, sec],
            )
    return ""


def _bad_switch(a: FlipSwitch) -> str:
    if a.line not in range(LINES) or a.section not in range(len(SECTIONS)):
        return reason(
            "refusals.malformed.switch",
            "line must be 0-{last_line} and section 0-{last_section}",
            last_line=LINES - 1,
            last_section=len(SECTIONS) - 1,
        )
    return ""


def _bad_offer(a: Offer) -> str:
    if a.give_money < 0 or a.take_money < 0:
        return reason("refusals.trade.negative_money", "money in an offer cannot be negative")
    for name in a.give + a.take:
        if name not in PART_IDS and name not in TORSO_IDS:
            return reason("refusals.malformed.tile", "unknown tile {tile}", tile=repr(name))
    return ""


def _bad_sale(a: SellRobot) -> str:
    if a.buyer not in BUYER_IDS:
        return reason(
            "refusals.malformed.buyer",
            "unknown buyer {buyer} (one of {buyers})",
            buyer=repr(a.buyer),
            buyers=", ".join(BUYER_IDS),
        )
    for i, (name, x, y, rotation) in enumerate(a.layout):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y, rotation)):
            return reason(
                "refusals.malformed.layout_numbers", "layout[{index}]: x, y and rotation are integers", index=i
            )
        if name not in PART_IDS and name not in TORSO_IDS:
            return reason(
                "refusals.malformed.layout_tile", "layout[{index}]: unknown tile {tile}", index=i, tile=repr(name)
            )
        if rotation not in range(4):
            return reason(
                "refusals.malformed.rotation",
                "layout[{index}]: rotation is 0 to 3 quarter turns clockwise, got {rotation}",
                index=i,
                rotation=rotation,
            )
    for field, names in (("batteries", a.batteries), ("magnets", a.magnets)):
        for name in names:
            if name not in PART_IDS:
                return reason(
                    "refusals.malformed.field_part", "{field}: unknown part {part}", field=field, part=repr(name)
                )
    return ""


#: What to check in the names and numbers of each action type (the others have none).
_CHECKS: dict[type[Action], Any] = {
    TakePart: _bad_space,
    SearchJunk: _bad_pile,
    TradeJunk: _bad_pile,
    PickJunk: _bad_pile,
    SellPart: _bad_part,
    ChooseTorso: _bad_torso,
    FlipSwitches: _bad_switches,
    FlipSwitch: _bad_switch,
    Offer: _bad_offer,
    SellRobot: _bad_sale,
}


def _malformed(a: Action) -> str:
    check = _CHECKS.get(type(a))
    return check(a) if check else ""


# -- the stable integer encoding (for the research adapters) -----------------------------------------------
#
# An index names the kind and the target of an action, never a free-form content: "sell a robot to
# buyer-3" (whatever its layout), "accept the offer numbered k (mod 12)", "offer part g for part t". Those
# indices stand for the one action of that kind and target that ``legal_actions`` lists in a state (the
# assembly helper's robot, the open offer), so they are decoded through the state's legal actions; every
# other index decodes without a state (:func:`action_from_index`). Blocks never move: new actions get new
# indices at the end.

#: Open offers at once, at most: one per ordered pair of seats (4 seats); open offers are numbered so that
#: their numbers differ modulo this (see :mod:`.trade`).
OFFER_WINDOW = 12

_P, _T, _B = len(PART_IDS), len(TORSO_IDS), len(BUYER_IDS)
_CELLS = LINES * len(SECTIONS)
_PART_NAMES = tuple(sorted(PART_IDS, key=PART_IDS.__getitem__))
_TORSO_NAMES = tuple(sorted(TORSO_IDS, key=TORSO_IDS.__getitem__))
_BUYER_NAMES = tuple(sorted(BUYER_IDS, key=BUYER_IDS.__getitem__))

#: The blocks of the encoding, in order: (action type, size, decoded without a state).
_BLOCKS: tuple[tuple[type[Action], int, bool], ...] = (
    (EndTurn, 1, True),
    (StopPicking, 1, True),
    (TakeTorso, 1, True),
    (SwapTorso, 1, True),
    (PickJunk, LINES, True),
    (TakePart, LINES * SPACES, True),
    (FlipSwitch, _CELLS, True),
    (FlipSwitches, _CELLS * _CELLS, True),
    (ChooseTorso, _T, True),
    (SellRobot, _B, False),  # by buyer: the layout is the helper's
    (Accept, OFFER_WINDOW, False),  # by offer number modulo OFFER_WINDOW
    (Decline, OFFER_WINDOW, False),
    (SellPart, _P, True),
    (SearchJunk, LINES * _P, True),
    (TradeJunk, LINES * _P, True),
    (Offer, _P * _P, False),  # one-for-one part trades, by (given part, asked part); the asked part names the seat
)
_START: dict[type[Action], int] = {}
_at = 0
for _kind, _size, _ in _BLOCKS:
    _START[_kind] = _at
    _at += _size
#: The size of the encoding (the same for every player count and option).
NUM_ACTIONS = _at
del _at, _kind, _size


def _cell(line: int, section: int) -> int:
    return line * len(SECTIONS) + section


def _offset(a: Action) -> int:
    """The index of ``a`` inside its block (``a`` is well formed)."""
    if isinstance(a, PickJunk):
        return a.pile
    if isinstance(a, TakePart):
        return a.line * SPACES + a.space - 1
    if isinstance(a, FlipSwitch):
        return _cell(a.line, a.section)
    if isinstance(a, FlipSwitches):
        return _cell(*a.on) * _CELLS + _cell(*a.off)
    if isinstance(a, ChooseTorso):
        return TORSO_IDS[a.torso]
    if isinstance(a, SellRobot):
        return BUYER_IDS[a.buyer]
    if isinstance(a, Accept | Decline):
        return a.offer % OFFER_WINDOW
    if isinstance(a, SellPart):
        return PART_IDS[a.part]
    if isinstance(a, SearchJunk | TradeJunk):
        return a.pile * _P + PART_IDS[a.part]
    if isinstance(a, Offer):
        return PART_IDS[a.give[0]] * _P + PART_IDS[a.take[0]]
    return 0


def action_index(a: Action) -> int:
    """The stable integer of ``a``: its kind and target (see the comment above :data:`OFFER_WINDOW`).

    A sale's index is its buyer's, whatever the layout; an offer has one only if it is a one-for-one part
    trade without money (the offers ``legal_actions`` lists).

    >>> action_index(EndTurn()), action_index(TakePart(1, 6)) - action_index(TakePart(0, 1))
    (0, 11)
    >>> action_index(Offer(1, ("head-01",), ("hand-01",), 0, 0)) < NUM_ACTIONS == 19266
    True
    """
    kind = type(a)
    problem = "not a robots-on-the-line action" if kind not in _START else malformed(a)
    if not problem and isinstance(a, Offer):
        one_for_one = len(a.give) == len(a.take) == 1 and not (a.give_money or a.take_money)
        if not one_for_one or a.give[0] not in PART_IDS or a.take[0] not in PART_IDS:
            problem = "only one-for-one part trades without money (the offers legal_actions lists) have one"
    if not problem and isinstance(a, Accept | Decline) and not isinstance(a.offer, int):
        problem = "the offer number is an integer"
    if problem:
        raise BadInput(f"robots-on-the-line: {a!r} has no integer encoding ({problem})")
    return _START[kind] + _offset(a)


def _block(index: int) -> tuple[type[Action], int, bool]:
    """The block of a valid index: its action type, the offset inside it, and whether it needs no state."""
    for kind, size, stateless in _BLOCKS:
        if index < size:
            return kind, index, stateless
        index -= size
    raise AssertionError("index checked by the caller")


def index_needs_state(index: int) -> bool:
    """Whether the action of ``index`` depends on the state (a sale's layout, an offer's number or seat)."""
    _check_index(index)
    return not _block(index)[2]


def _check_index(index: object) -> None:
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < NUM_ACTIONS:
        raise BadInput(f"robots-on-the-line: action index must be 0 to {NUM_ACTIONS - 1}, got {index!r}")


def describe_index(index: int) -> str:
    """What an index stands for, in words (also for the indices that need a state to decode).

    >>> describe_index(action_index(SellRobot("buyer-3", (), (), ())))
    'sell_robot to buyer-3'
    """
    _check_index(index)
    kind, at, stateless = _block(index)
    if stateless:
        return str(action_from_index(index).to_json())
    if kind is SellRobot:
        return f"sell_robot to {_BUYER_NAMES[at]}"
    if kind is Offer:
        return f"offer {_PART_NAMES[at // _P]} for {_PART_NAMES[at % _P]}"
    return f"{kind.type} the open offer numbered {at} modulo {OFFER_WINDOW}"


def action_from_index(index: int) -> Action:
    """The action of a stable integer that decodes without a state (inverse of :func:`action_index`).

    Indices of sales, offers and answers to offers stand for what ``legal_actions`` lists in a state: they
    raise :class:`BadInput` here; decode them through the state's legal actions.

    >>> action_from_index(action_index(FlipSwitches((0, 0), (1, 1))))
    FlipSwitches(on=(0, 0), off=(1, 1))
    """
    _check_index(index)
    kind, at, stateless = _block(index)
    if not stateless:
        raise BadInput(
            f"robots-on-the-line: action index {index} ({describe_index(index)}) depends on the state: "
            "decode it through state.legal_actions"
        )
    sections = len(SECTIONS)
    if kind is PickJunk:
        return PickJunk(at)
    if kind is TakePart:
        return TakePart(at // SPACES, at % SPACES + 1)
    if kind is FlipSwitch:
        return FlipSwitch(at // sections, at % sections)
    if kind is FlipSwitches:
        on, off = divmod(at, _CELLS)
        return FlipSwitches(divmod(on, sections), divmod(off, sections))
    if kind is ChooseTorso:
        return ChooseTorso(_TORSO_NAMES[at])
    if kind is SellPart:
        return SellPart(_PART_NAMES[at])
    if kind is SearchJunk or kind is TradeJunk:
        return kind(at // _P, _PART_NAMES[at % _P])
    return kind()
