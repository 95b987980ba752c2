"""Selling (the rulebook's "Completing and Selling a Robot", "Bargain Hunter Setup" and the "3 New Tiles"
house rule): what a sale pays, selling a finished robot to a buyer, parts to the Bargain Hunter.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from robotable.core import Action, Event, reason
from robotable.core.errors import Message, Messages

from .actions import PickJunk, SellPart, SellRobot, StopPicking
from .components import (
    BONUS_TILES,
    BUYER_IDS,
    BUYERS,
    HUNTER_ANY,
    HUNTER_FEATURED,
    HUNTER_NEVER,
    LINES,
    MAGNETS,
    NEW_TILES_AFTER_SALE,
    PART_IDS,
    PARTS,
    PINK_PAIR,
    REQUIREMENTS,
    TORSO_IDS,
    TORSOS,
    BonusTile,
    Buyer,
    Requirement,
    buyer_id_name,
    buyer_name,
    kind_name,
    tile_name,
)
from .geometry import Measures, assemble, measure, meets, shortfall
from .line import pid
from .phases import PICK, TURN

if TYPE_CHECKING:
    from .state import RotlState

_STOP_PICKING = StopPicking()
_PICK = [PickJunk(pile) for pile in range(LINES)]
_SELL_PART = [SellPart(part.id) for part in PARTS]  # built once: actions are values

# -- what a sale pays ---------------------------------------------------------------------------------------


def bonus_paid(tile: BonusTile, icons: frozenset[str]) -> bool:
    """A bonus tile pays when the robot shows every one of its icons."""
    return tile.icons <= icons


def sale_breakdown(
    pay: int, requirements: Sequence[Requirement], bonus_tiles: Sequence[BonusTile], m: Measures
) -> dict[str, int]:
    """What a sale pays: the buyer's money, $5 requirement bonuses, bonus tiles and pink pairs.

    >>> from robotable.games.robots_on_the_line.geometry import assemble, measure
    >>> from robotable.games.robots_on_the_line.components import REQUIREMENTS, BONUS_TILES
    >>> m = measure(assemble([("torso-11", 0, 0, 0), ("head-05", 0, -1, 0), ("base-10", 0, 1, 0),
    ...                       ("hand-16", 1, 0, 0), ("hand-20", -1, 0, 2)]))
    >>> sale_breakdown(20, [REQUIREMENTS[0]], [BONUS_TILES[0], BONUS_TILES[3]], m)
    {'buyer': 20, 'requirements': 5, 'bonus_tiles': 5, 'pink_pairs': 4, 'total': 34}
    """
    out = {
        "buyer": pay,
        "requirements": sum(r.bonus for r in requirements),
        "bonus_tiles": sum(b.value for b in bonus_tiles if bonus_paid(b, m.icons)),
        "pink_pairs": PINK_PAIR * m.pink_pairs,
    }
    out["total"] = sum(out.values())
    return out


def hunter_price(part: int, featured: str) -> int:
    """What the Bargain Hunter pays for a part: the featured kind $4, any other $1 (0: never bought).

    >>> hunter_price(PART_IDS["base-01"], "base"), hunter_price(PART_IDS["base-01"], "head")
    (4, 1)
    """
    kind = PARTS[part].kind
    if kind in HUNTER_NEVER:
        return 0
    return HUNTER_FEATURED if kind == featured else HUNTER_ANY


def buying(s: RotlState, slot: int) -> bool:
    """Whether the buyer in play at ``slot`` still has the money for a robot."""
    return s.buyer_money[slot] >= BUYERS[s.buyers[slot]].pay


def buyer_slot(s: RotlState, buyer_id: str) -> int:
    """The slot of a buyer in play (-1 if it is not in play)."""
    b = BUYER_IDS.get(buyer_id, -1)
    return s.buyers.index(b) if b in s.buyers else -1


# -- 5. sell tiles to the Bargain Hunter --------------------------------------------------------------------


def hunter_actions(s: RotlState, p: int) -> list[SellPart]:
    return [*filter(None, map(_HUNTER_SELLS.__getitem__, s.hands[p]))]


#: The Bargain Hunter's ``sell_part`` of each part (``None`` for the kinds it never buys).
_HUNTER_SELLS = [None if part.kind in HUNTER_NEVER else _SELL_PART[part.index] for part in PARTS]


def check_sell_part(s: RotlState, p: int, a: SellPart) -> str | None:
    part = PART_IDS.get(a.part, -1)
    if part not in s.hands[p]:
        return reason("refusals.not_in_hand", "{tile} is not in seat {seat}'s hand", tile=tile_name(a.part), seat=p)
    if PARTS[part].kind in HUNTER_NEVER:
        return reason(
            "refusals.sale.hunter_never_buys",
            "the Bargain Hunter never buys a {kind}",
            kind=kind_name(PARTS[part].kind),
        )
    return None


def apply_sell_part(s: RotlState, p: int, a: SellPart, events: list[Event]) -> None:
    part = PART_IDS[a.part]
    price = hunter_price(part, s.featured)
    s.remove_from_hand(p, [part])
    s.gone.append(part)
    s.pay_from_bank(p, price)
    events.append(Event("sold_part", {"seat": p, "part": a.part, "price": price}))


# -- 6. sell a finished robot -------------------------------------------------------------------------------


def _check_tiles(s: RotlState, p: int, a: SellRobot) -> str | None:
    """The sale's tiles are the seat's torso and parts of their hand, each once, batteries and magnets
    where they belong."""
    hand = set(s.hands[p])
    torso_id = TORSOS[s.torso[p]].id
    names = [item[0] for item in a.layout] + list(a.batteries) + list(a.magnets)
    if len(set(names)) != len(names):
        return reason("refusals.sale.tile_twice", "a tile appears twice in the sale")
    for name in names:
        if name == torso_id:
            continue
        if name in TORSO_IDS:
            return reason(
                "refusals.sale.not_your_torso",
                "{tile} is not seat {seat}'s torso ({torso})",
                tile=tile_name(name),
                seat=p,
                torso=tile_name(torso_id),
            )
        if PART_IDS.get(name, -1) not in hand:
            return reason("refusals.not_in_hand", "{tile} is not in seat {seat}'s hand", tile=tile_name(name), seat=p)
    if torso_id not in [item[0] for item in a.layout]:
        return reason(
            "refusals.sale.torso_not_placed",
            "the layout does not place seat {seat}'s torso {torso}",
            seat=p,
            torso=tile_name(torso_id),
        )
    for name in a.batteries:
        if PARTS[PART_IDS[name]].kind != "battery":
            return reason(
                "refusals.sale.not_a_battery",
                "{tile} is not a battery (only batteries are sold alongside a robot)",
                tile=tile_name(name),
            )
    for name in a.magnets:
        if PART_IDS[name] not in MAGNETS:
            return reason("refusals.sale.not_a_magnet", "{tile} is not a magnet", tile=tile_name(name))
    return None


#: What keeps a robot from being finished, by the start of the geometry module's English for it: the key
#: of what people read (``refusals.sale.problem.*``).
_PROBLEMS = (
    ("no torso", "no_torso"),
    ("no head", "no_head"),
    ("no base", "no_base"),
    ("open port", "open_port"),
)


def problem_name(text: str) -> Message:
    """One of the geometry module's problems (English) as a message people read in their language."""
    for start, key in _PROBLEMS:
        if text.startswith(start):
            return Message(text, f"refusals.sale.problem.{key}")
    for part, key in (("overlap at", "overlap"), ("is not connected", "not_connected"), ("torsos (", "torsos")):
        if part in text:
            return Message(text, f"refusals.sale.problem.{key}")
    return Message(text, "refusals.sale.problem.other")


def check_sell_robot(s: RotlState, p: int, a: SellRobot) -> str | None:
    slot = buyer_slot(s, a.buyer)
    if slot < 0:
        return reason("refusals.sale.no_such_buyer", "{buyer} is not a buyer in play", buyer=buyer_id_name(a.buyer))
    buyer = BUYERS[s.buyers[slot]]
    if not buying(s, slot):
        return reason(
            "refusals.sale.buyer_out_of_money",
            "{buyer} has no money left and buys no more robots",
            buyer=buyer_name(buyer),
        )
    if s.torso[p] < 0:
        return reason("refusals.sale.no_torso", "seat {seat} has no torso", seat=p)
    problem = _check_tiles(s, p, a)
    if problem:
        return problem
    reqs = [REQUIREMENTS[r] for r in s.buyer_reqs[slot]]
    if a.magnets and not any(r.kind == "magnets" for r in reqs):
        return reason(
            "refusals.sale.no_magnet_requirement",
            "{buyer} has no magnet requirement: magnets are not handed over",
            buyer=buyer_name(buyer),
        )
    return _check_robot(a, reqs, buyer)


def _check_robot(a: SellRobot, reqs: list[Requirement], buyer: Buyer) -> str | None:
    """Why the robot of ``a`` cannot be sold to ``buyer``: unfinished, or short of a requirement."""
    robot = assemble(a.layout)
    if robot.problems:
        return reason(
            "refusals.sale.not_finished",
            "the robot is not finished: {problems}",
            problems=Messages([problem_name(text) for text in robot.problems[:3]], "; "),
        )
    m = measure(robot, [PART_IDS[b] for b in a.batteries])
    short = [
        Message(shortfall(r, m, len(a.magnets)), f"names.requirements.{r.id}")
        for r in reqs
        if not meets(r, m, len(a.magnets))
    ]
    if short:
        return reason(
            "refusals.sale.requirements_not_met",
            "{buyer}'s requirements are not met: {shortfalls}",
            buyer=buyer_name(buyer),
            shortfalls=Messages(short, "; "),
        )
    return None


def apply_sell_robot(s: RotlState, p: int, a: SellRobot, events: list[Event]) -> None:
    slot = buyer_slot(s, a.buyer)
    buyer = BUYERS[s.buyers[slot]]
    reqs = [REQUIREMENTS[r] for r in s.buyer_reqs[slot]]
    bonus = [BONUS_TILES[t] for t in s.buyer_bonus[slot]]
    m = measure(assemble(a.layout), [PART_IDS[b] for b in a.batteries])
    paid = sale_breakdown(buyer.pay, reqs, bonus, m)
    parts = [PART_IDS[name] for name, *_ in a.layout if name in PART_IDS]
    parts += [PART_IDS[name] for name in a.batteries + a.magnets]
    s.remove_from_hand(p, parts)
    s.gone.extend(parts)
    s.gone_torsos.append(s.torso[p])
    s.torso[p] = -1
    s.buyer_money[slot] -= buyer.pay
    s.money[p] += buyer.pay
    s.pay_from_bank(p, paid["total"] - buyer.pay)
    s.robots[p] += 1
    sale = {
        "seat": p,
        "buyer": buyer.id,
        "layout": [list(item) for item in a.layout],
        "batteries": list(a.batteries),
        "magnets": list(a.magnets),
        "paid": paid,
    }
    s.sales = [*s.sales, sale]
    events.append(Event("sold_robot", sale))
    if not buying(s, slot):
        events.append(Event("buyer_done", {"buyer": buyer.id}))
    if s.options["three_new_tiles"] and any(s.junk):
        s.picks = NEW_TILES_AFTER_SALE
        s.phase = PICK


def sold_in_robots(s: RotlState) -> set[int]:
    """The parts that left the game in robots sold (the rest of ``gone`` went to the Bargain Hunter)."""
    sold: set[int] = set()
    for sale in s.sales:
        for name in [item[0] for item in sale["layout"]] + sale["batteries"] + sale["magnets"]:
            if name in PART_IDS:
                sold.add(PART_IDS[name])
    return sold


# -- house rule: 3 new tiles after a sale -------------------------------------------------------------------


def pick_actions(s: RotlState) -> list[Action]:
    return [*(_PICK[pile] for pile in range(LINES) if s.junk[pile]), _STOP_PICKING]


def check_pick(s: RotlState, p: int, a: PickJunk) -> str | None:
    if a.pile not in range(LINES):
        return reason("refusals.junk.no_such_pile", "there is no junk pile {pile} (0 or 1)", pile=a.pile)
    return None if s.junk[a.pile] else reason("refusals.junk.pile_empty", "junk pile {pile} is empty", pile=a.pile)


def apply_pick(s: RotlState, p: int, a: PickJunk, events: list[Event]) -> None:
    part = s.junk[a.pile].pop()
    s.add_to_hand(p, [part])
    s.picks -= 1
    events.append(Event("picked", {"seat": p, "pile": a.pile, "part": pid(part)}))
    if not s.picks or not any(s.junk):
        s.picks = 0
        s.phase = TURN


def check_stop_picking(s: RotlState, p: int, a: StopPicking) -> str | None:
    return None


def apply_stop_picking(s: RotlState, p: int, a: StopPicking, events: list[Event]) -> None:
    s.picks = 0
    s.phase = TURN
    events.append(Event("stopped_picking", {"seat": p}))
