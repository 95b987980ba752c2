"""Program preview: what the active colour's robots would do after a candidate programming change.

The engine runs the turn on a copy of the state and reports, for every robot that moved or turned,
its path as ``(hex, facing)`` steps, with the events a player would see, up to the first decision the
rules would ask of someone (where a zapped robot goes, where a new crystal enters...).

>>> from robotable.games.twin_tin_bots import GAME, Place, Tile
>>> state = GAME.start(num_players=2, seed=3)
>>> seat = state.to_act()[0]
>>> _ = state.apply(seat, Place(0, Tile.FORWARD_2))
>>> p = preview(state, seat, Place(3, Tile.TURN_LEFT))
>>> p.complete, len(p.paths) == 2
(True, True)
>>> state.to_json() == GAME.state_from_json(state.to_json()).to_json()     # the state is untouched
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from robotable.core import Action, Event, Rng

from .hexgrid import FACING_NAMES, Hex
from .phases import CHANGE, OVER
from .state import TtbState

Step = tuple[Hex, str]


@dataclass(frozen=True)
class Preview:
    """The outcome of a candidate change.

    ``paths``: robot name -> its ``(hex, facing)`` steps, starting where it stood, for every robot that
    moved or turned. ``events``: the public events of the run. ``pending``: the first decision the run
    stops at (as in the view's ``pending``), or ``None``. ``complete``: the programs ran to the end of
    the turn (or of the game).
    """

    paths: dict[str, list[Step]]
    events: list[Event]
    pending: dict[str, Any] | None
    complete: bool
    over: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON form for the browser."""
        return {
            "paths": {name: [[list(h), f] for h, f in steps] for name, steps in self.paths.items()},
            "events": [e.to_json() for e in self.events],
            "pending": self.pending,
            "complete": self.complete,
            "over": self.over,
        }


def preview(state: TtbState, seat: int, change: Action) -> Preview:
    """Run the active colour's turn after ``change`` on a copy of ``state``.

    ``change`` must be legal for ``seat`` now (else :class:`~robotable.IllegalAction` or
    :class:`~robotable.BadInput`, as ``apply`` would raise). If the change leaves more changes to
    make (the first turn's second placement, a Double Modification), the programs run as they would
    stand after it. Hidden Special Orders are re-dealt first, so a preview never shows what the seat
    could not know (such as the Special Order a delivery would draw).
    """
    sim = state.determinize(seat, Rng(0))
    sim.check(seat, change)
    turn, rnd = sim.turn, sim.round
    start = {sim.robot_name(r): (sim.rhex[r], FACING_NAMES[sim.rface[r]]) for r in range(len(sim.rhex))}
    events = sim.apply_legal(seat, change)
    if sim.phase == CHANGE and (sim.turn, sim.round) == (turn, rnd):
        sim.start_run(events)
        sim.run_programs(events)
    paths: dict[str, list[Step]] = {}
    for e in events:
        if e.type in ("move", "turn"):
            name = e.data["robot"]
            steps = paths.setdefault(name, [start[name]])
            steps.append((tuple(e.data["hex"]), e.data["facing"]))
        if e.type == "turn_start":
            break
    public = [e for e in events if e.audience is None]
    same_turn = (sim.turn, sim.round) == (turn, rnd) and sim.phase != OVER
    pending = sim.view(seat)["pending"] if same_turn else None
    return Preview(paths, public, pending, complete=not same_turn, over=sim.phase == OVER)
