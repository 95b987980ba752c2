"""What a seat sees (``state.view``): the table face up, every hand's seen parts, its own hand whole."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .components import BONUS_TILES, BUYERS, HUNTER_ANY, HUNTER_FEATURED, REQUIREMENTS, TORSOS
from .line import EMPTY, magnet_units, pid
from .phases import OVER
from .sale import sold_in_robots
from .torsos import tid

if TYPE_CHECKING:
    from .state import RotlState

GAME_ID = "robots-on-the-line"


def view(s: RotlState, player: int | None) -> dict[str, Any]:
    """The table as ``player`` knows it (``None``: a spectator); see docs/games/robots-on-the-line.md."""
    out: dict[str, Any] = {
        "game": GAME_ID,
        "seat": player,
        "num_players": s.num_players,
        "options": dict(s.options),
        "phase": s.phase,
        "turn": s.turn,
        "turn_number": s.turn_number,
        "to_act": s.to_act(),
        "lines": lines_json(s),
        "switches": switches_json(s),
        "units": [magnet_units(line) for line in s.lines],
        "draw_piles": [len(pile) for pile in s.draw],
        "junk_piles": [[pid(x) for x in pile] for pile in s.junk],
        "maintenance": {"stack": len(s.maint), "discard": list(s.maint_discard)},
        "torso_stack": {
            "top": tid(s.torso_pile[-1]) if s.torso_pile else None,
            "count": len(s.torso_pile),
            "torsos": sorted(TORSOS[t].id for t in s.torso_pile),
        },
        "bargain_hunter": {"featured": s.featured, "any_part": HUNTER_ANY, "featured_part": HUNTER_FEATURED},
        "buyers": [buyer_json(s, slot) for slot in range(len(s.buyers))],
        "players": [player_json(s, seat, player) for seat in range(s.num_players)],
        "offers": [o.to_json() for o in s.offers],
        "this_turn": {**this_turn_json(s), "offers_made": offers_made_json(s)},
        "sales": list(s.sales),
        "bargain_hunter_parts": [pid(x) for x in s.gone if x not in sold_in_robots(s)],
        "bank": s.bank,
    }
    if s.phase == OVER:
        out["result"] = s.result().to_json()
    return out


def lines_json(s: RotlState) -> list[list[str | None]]:
    return [[pid(x) if x != EMPTY else None for x in line] for line in s.lines]


def switches_json(s: RotlState) -> list[list[str]]:
    return [["on" if on else "off" for on in line] for line in s.switches]


def offers_made_json(s: RotlState) -> list[list[int]]:
    """The offers made this turn, as ``[from, to, how many]`` (public, as every offer is; the state's JSON
    keeps them as ``offered``)."""
    return [[giver, taker, s.offered.count((giver, taker))] for giver, taker in sorted(set(s.offered))]


def this_turn_json(s: RotlState) -> dict[str, Any]:
    return {
        "part_taken": s.acquired,
        "junk_trades": s.junk_trades,
        "torso_stack_used": s.torso_done,
        "picks_left": s.picks,
    }


def player_json(s: RotlState, seat: int, viewer: int | None) -> dict[str, Any]:
    shown = s.hands[seat] if seat == viewer else s.known(seat)
    return {
        "seat": seat,
        "money": s.money[seat],
        "torso": tid(s.torso[seat]),
        "hand": [pid(x) for x in shown],
        "unknown_parts": len(s.hands[seat]) - len(shown),
        "magnets": s.magnets(seat),
        "robots_sold": s.robots[seat],
        "score": s.scores()[seat],
    }


def buyer_json(s: RotlState, slot: int) -> dict[str, Any]:
    buyer = BUYERS[s.buyers[slot]]
    return {
        "id": buyer.id,
        "name": buyer.name,
        "robots": buyer.robots,
        "pay": buyer.pay,
        "money": s.buyer_money[slot],
        "buying": s.buyer_money[slot] >= buyer.pay,
        "requirements": [
            {"id": r.id, "kind": r.kind, "text": r.text(), "bonus": r.bonus}
            for r in (REQUIREMENTS[i] for i in s.buyer_reqs[slot])
        ],
        "bonus_tiles": [
            {"id": t.id, "icons": sorted(t.icons), "value": t.value}
            for t in (BONUS_TILES[i] for i in s.buyer_bonus[slot])
        ],
    }
