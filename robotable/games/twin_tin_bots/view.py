"""What each seat may know: views, and states re-dealt from a seat's knowledge (for search).

The only secrets are each colour's unrevealed Special Orders and the order of the Special Order stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from robotable.core import Rng

from .components import CRYSTAL_NAMES, TILE_NAMES, ZAP_ORDERS
from .hexgrid import FACING_NAMES
from .phases import BLOB, CRYSTAL, OVER, PHASES, ZAP
from .programs import tile_or_none

if TYPE_CHECKING:
    from .state import TtbState

GAME_ID = "twin-tin-bots"


def view(st: TtbState, player: int | None) -> dict[str, Any]:
    """What ``player`` may know: the whole table, its own colours' hands, and of the other colours only
    the Special Orders they have revealed (the rest are counted)."""
    mine = set(st.seat_colours(player)) if player is not None else set()
    out = public(st)
    out["seat"] = player
    out["your_colours"] = [st.colours[c] for c in sorted(mine)]
    for c, entry in enumerate(out["colours"]):
        in_hand = st.hand(c)
        secret = [t for t in st.specials[c] if t not in st.revealed[c]]
        shown = {t: n for t, n in in_hand.items() if c in mine or t not in secret}
        entry["hand"] = {TILE_NAMES[t]: n for t, n in sorted(shown.items())}
        entry["hidden_specials"] = 0 if c in mine else len(secret)
    return out


def colour_view(st: TtbState, c: int) -> dict[str, Any]:
    """A colour's public side: its seat, team, Base, program and crystals."""
    bases = st.delivered[c]
    return {
        "colour": st.colours[c],
        "seat": st.controller[c],
        "team": st.team[c],
        "base": list(st.board.bases[c]),
        "program": [tile_or_none(t) for t in st.programs[c]],
        "revealed": [TILE_NAMES[t] for t in st.revealed[c]],
        "double_modification_used": st.dm_used[c],
        "first_turn_done": st.first_done[c],
        "delivered": [CRYSTAL_NAMES[v] for v in bases],
        "points_in_base": sum(bases),
    }


def pending_view(st: TtbState) -> dict[str, Any] | None:
    """The decision the run waits for, with its choices."""
    if st.phase == ZAP:
        return {"type": "zap", "robot": st.names[st.target], "choices": [TILE_NAMES[t] for t in ZAP_ORDERS]}
    if st.phase == BLOB:
        return {"type": "blob", "hex": list(st.blobs[st.target])}
    if st.phase == CRYSTAL:
        return {
            "type": "crystal",
            "crystal": CRYSTAL_NAMES[st.entering],
            "hexes": [list(h) for h in st.entry_hexes()],
        }
    return None


def robots_view(st: TtbState) -> list[dict[str, Any]]:
    """Every robot: name, colour, hex, facing and cargo."""
    return [
        {
            "robot": st.names[r],
            "colour": st.colours[st.robot_colour(r)],
            "hex": list(st.rhex[r]),
            "facing": FACING_NAMES[st.rface[r]],
            "cargo": CRYSTAL_NAMES[st.rcargo[r]] if st.rcargo[r] else None,
        }
        for r in range(len(st.rhex))
    ]


def public(st: TtbState) -> dict[str, Any]:
    """Everything on the table, hands apart."""
    board = st.board
    out: dict[str, Any] = {
        "game": GAME_ID,
        "num_players": st.num_players,
        "options": dict(st.options),
        "radius": board.radius,
        "colours": [colour_view(st, c) for c in range(len(st.colours))],
        "turn_order": [st.colours[c] for c in st.order],
        "robots": robots_view(st),
        "crystals": [{"hex": list(h), "crystal": CRYSTAL_NAMES[v]} for h, v in sorted(st.ground.items())],
        "blobs": [list(h) for h in st.blobs],
        "rocks": [list(h) for h in sorted(board.rocks)],
        "teleporters": [[list(a), list(b)] for a, b in board.teleporters],
        "mud": [list(h) for h in sorted(board.mud)],
        "track": [CRYSTAL_NAMES[v] for v in st.track],
        "special_stack_count": len(st.stack),
        "round": st.round,
        "active": st.colours[st.active],
        "first": st.colours[st.order[0]],
        "countdown": st.countdown,
        "end_phase": st.end_phase,
        "phase": PHASES[st.phase],
        "changes_left": st.changes_left,
        "running": st.names[st.active * st.robots_per + st.run_at.robot] if st.phase in (ZAP, BLOB, CRYSTAL) else None,
        "pending": pending_view(st),
        "score_victory": st.score_target(),
        "to_act": st.to_act(),
    }
    if st.phase == OVER:
        out["result"] = st.result().to_json()
    return out


def determinize(st: TtbState, player: int | None, rng: Rng) -> TtbState:
    """Deal again every Special Order ``player`` cannot see: other colours' unrevealed ones and the stack."""
    new = st.clone()
    mine = set(st.seat_colours(player)) if player is not None else set()
    pool = list(new.stack)
    hidden: list[list[int]] = []
    for c in range(len(new.colours)):
        secret = [] if c in mine else [t for t in new.specials[c] if t not in new.revealed[c]]
        hidden.append(secret)
        pool += secret
    pool.sort()  # the sample depends only on what the seat knows, and on rng
    rng.shuffle(pool)
    for c, secret in enumerate(hidden):
        if secret:
            keep = [t for t in new.specials[c] if t not in secret]
            new.specials[c] = keep + [pool.pop() for _ in secret]
    new.stack = pool
    new.rng = Rng(rng.next64())
    new.seed = 0  # the seed fixes the deal: a sample must not carry it
    return new
