"""The robot workbench's server side: what a layout a seat is building measures and would sell for.

The browser's workbench never computes a measure itself: it sends the layout it shows to the server,
which answers with :func:`evaluate` (the geometry module's measures and problems, each buyer's
requirements met or short, the sale value, and whether the sale would be accepted now). ``suggest``
asks the assembly helper for its best robot for each buyer. Nothing here changes the state, and only
the seat's own hand and public buyers are used, so the answer holds nothing the seat may not know.

>>> from robotable.games.robots_on_the_line import GAME
>>> state = GAME.start(num_players=2, seed=3)
>>> out = evaluate(state, 0, {"layout": [], "batteries": [], "magnets": []})
>>> out["finished"], out["problems"][0]
(False, 'no torso (a robot has exactly one)')
"""

from __future__ import annotations

from typing import Any

from robotable.core import BadInput, Reason, reason

from .actions import SellRobot, malformed
from .components import BONUS_TILES, BUYERS, PART_IDS, REQUIREMENTS, SIDE_NAMES, STEP, TORSOS, opposite
from .geometry import Measures, Robot, assemble, measure, meets, shortfall
from .sale import bonus_paid, sale_breakdown
from .state import RotlState
from .view import GAME_ID

#: The largest layout the workbench evaluates (a hand never holds this many parts).
MAX_TILES = 60


def _bad(why: Reason) -> BadInput:
    """A malformed workbench query, coded in the game's namespace (docs/i18n.md)."""
    return BadInput(why, game=GAME_ID)


def _names(value: object, field: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _bad(reason("refusals.workbench.part_list", "{field} must be a list of part ids", field=field))
    return tuple(value)


def parse_query(query: object) -> tuple[tuple[tuple[str, int, int, int], ...], tuple[str, ...], tuple[str, ...], bool]:
    """Check a workbench query ``{layout, batteries?, magnets?, suggest?}``; :class:`BadInput` names a fault."""
    if not isinstance(query, dict):
        raise _bad(
            reason(
                "refusals.workbench.not_object", "the query must be an object {{layout, batteries, magnets, suggest}}"
            )
        )
    unknown = set(query) - {"layout", "batteries", "magnets", "suggest"}
    if unknown:
        raise _bad(
            reason(
                "refusals.workbench.unknown_field",
                "unknown query field {field} (layout, batteries, magnets, suggest)",
                field=repr(sorted(unknown)[0]),
            )
        )
    raw = query.get("layout", [])
    if not isinstance(raw, list):
        raise _bad(reason("refusals.workbench.layout_list", "layout must be a list of [tile id, x, y, rotation]"))
    if len(raw) > MAX_TILES:
        raise _bad(
            reason(
                "refusals.workbench.too_big",
                "layout: {tiles} tiles is more than the {most} the workbench takes",
                tiles=len(raw),
                most=MAX_TILES,
            )
        )
    layout = []
    for i, item in enumerate(raw):
        if not (isinstance(item, list) and len(item) == 4 and isinstance(item[0], str)):
            raise _bad(
                reason(
                    "refusals.workbench.layout_entry",
                    "layout[{index}] must be [tile id, x, y, rotation], got {got}",
                    index=i,
                    got=repr(item),
                )
            )
        layout.append((item[0], item[1], item[2], item[3]))
    batteries = _names(query.get("batteries"), "batteries")
    magnets = _names(query.get("magnets"), "magnets")
    suggest = query.get("suggest", False)
    if not isinstance(suggest, bool):
        raise _bad(reason("refusals.workbench.suggest", "suggest must be true or false"))
    problem = malformed(SellRobot(BUYERS[0].id, tuple(layout), batteries, magnets))
    if problem:
        raise _bad(reason("refusals.workbench.malformed", "workbench: {problem}", problem=problem))
    return tuple(layout), batteries, magnets, suggest


def open_ports(robot: Robot) -> list[dict[str, Any]]:
    """Every port of the placed tiles that does not meet a port: ``{tile, cell, side}``."""
    port_at = {(cell, side) for tile in robot.tiles for cell, side, _ in tile.ports}
    out = []
    for tile in robot.tiles:
        for cell, side, _pink in tile.ports:
            nb = (cell[0] + STEP[side][0], cell[1] + STEP[side][1])
            if (nb, opposite(side)) not in port_at or robot.owner.get(nb) is None:
                out.append({"tile": tile.id, "cell": list(cell), "side": SIDE_NAMES[side]})
    return out


def evaluate(state: RotlState, seat: int, query: object) -> dict[str, Any]:
    """Measure the layout ``query`` describes as ``seat``'s robot, and what each buyer would pay for it.

    The answer: ``problems`` (why the robot is not finished, from the geometry module), ``finished``,
    ``open_ports``, ``measures`` (eyes, heads, bases, hands, tall, wide, long_arm, symmetric, extenders,
    splitters, elbows, wheels, icons, pink_pairs), and per buyer in play its ``requirements`` (met, or
    the shortfall), ``bonus_tiles`` (paid or not), the ``value`` breakdown, and ``sellable``/``why``: the
    engine's own verdict on selling this layout to that buyer now (hand, torso, money, requirements).
    With ``suggest``, ``suggestions`` holds the assembly helper's best sale for each buyer it can satisfy.
    """
    if not isinstance(seat, int) or not 0 <= seat < state.num_players:
        raise _bad(reason("refusals.workbench.seat", "seat must be 0 to {last_seat}", last_seat=state.num_players - 1))
    layout, batteries, magnets, suggest = parse_query(query)
    robot = assemble(layout)
    sold_with = [PART_IDS[b] for b in batteries]
    m = measure(robot, sold_with) if robot.tiles else None
    out: dict[str, Any] = {
        "problems": list(robot.problems),
        "finished": not robot.problems,
        "open_ports": open_ports(robot),
        "measures": None,
        "buyers": [],
    }
    if m is not None:
        out["measures"] = _measures_json(m)
    for slot in range(len(state.buyers)):
        out["buyers"].append(_buyer_entry(state, seat, slot, m, (layout, batteries, magnets)))
    if suggest:
        suggestions = []
        for slot in range(len(state.buyers)):
            sale = state.helper(seat, slot)
            if sale is not None:
                suggestions.append(sale.to_json())
        out["suggestions"] = suggestions
    out["torso"] = TORSOS[state.torso[seat]].id if state.torso[seat] >= 0 else None
    return out


def _measures_json(m: Measures) -> dict[str, Any]:
    return {
        "eyes": m.eyes,
        "heads": m.heads,
        "bases": m.bases,
        "hands": m.hands,
        "tall": m.tall,
        "wide": m.wide,
        "long_arm": m.long_arm,
        "symmetric": m.symmetric,
        "extenders": m.extenders,
        "splitters": m.splitters,
        "elbows": m.elbows,
        "wheels": m.wheels,
        "icons": sorted(m.icons),
        "pink_pairs": m.pink_pairs,
    }


def _buyer_entry(state: RotlState, seat: int, slot: int, m: Measures | None, robot: tuple[Any, ...]) -> dict[str, Any]:
    """What the buyer in play at ``slot`` makes of the robot (its layout, batteries and magnets):
    requirements, bonus tiles, value, and whether ``seat`` may sell it to them now."""
    layout, batteries, names = robot
    buyer = BUYERS[state.buyers[slot]]
    reqs = [REQUIREMENTS[r] for r in state.buyer_reqs[slot]]
    bonus = [BONUS_TILES[t] for t in state.buyer_bonus[slot]]
    magnets = len(names)
    entry: dict[str, Any] = {"id": buyer.id, "name": buyer.name, "requirements": [], "bonus_tiles": []}
    if m is not None:
        entry["requirements"] = [
            {"id": r.id, "text": r.text(), "met": meets(r, m, magnets), "short": shortfall(r, m, magnets)} for r in reqs
        ]
        entry["bonus_tiles"] = [{"id": t.id, "paid": bonus_paid(t, m.icons), "value": t.value} for t in bonus]
        entry["value"] = sale_breakdown(buyer.pay, reqs, bonus, m)
    else:
        entry["requirements"] = [{"id": r.id, "text": r.text(), "met": False, "short": "no robot"} for r in reqs]
        entry["bonus_tiles"] = [{"id": t.id, "paid": False, "value": t.value} for t in bonus]
        entry["value"] = None
    sale = SellRobot(buyer.id, layout, batteries, names)
    entry["sellable"] = state.is_legal(seat, sale)
    entry["why"] = "" if entry["sellable"] else state.why_illegal(seat, sale)
    return entry
