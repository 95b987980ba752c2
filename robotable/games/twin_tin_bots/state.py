"""The state of a game of Twin Tin Bots: what changes during a game, and the game contract.

Colours are numbered clockwise around the board (a Base, its robots, a programming board and a hand
each). Players (seats) control one or two colours and teams group colours; every rule is written over
colours, and "opponent" always means a colour of another team.

Robots are numbered ``colour * robots_per_colour + k`` (k = 0 for robot A, 1 for robot B). Hexes are
axial ``(q, r)`` tuples, facings ints (see :mod:`.hexgrid`), crystals their point values (2, 3, 4)
and tiles the ints of :class:`~.components.Tile`; -1 is an empty program slot.

The rules live in their own modules, named after the rulebook: :mod:`.setup`, :mod:`.programs`
(changing programs), :mod:`.running` and :mod:`.orders` (running them), :mod:`.movement`,
:mod:`.crystals`, :mod:`.zaps`, :mod:`.turn`, :mod:`.game_end`; the fixed board in :mod:`.board`,
the phase and run point in :mod:`.phases`; views in :mod:`.view`, JSON in :mod:`.serialize` (and
:mod:`.positions` for positions written by hand), the position's invariants in :mod:`.invariants`.
Actions are applied through :data:`DISPATCH`, one ``(check, apply)`` pair per action type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from robotable.core import Action, BadInput, Event, Result, Rng, State, reason
from robotable.core.errors import Message, Messages, name

from . import compiled, crystals, game_end, invariants, programs, running, serialize, view, zaps
from .actions import DoubleModification, MoveBlob, Pass, Place, PlaceCrystal, Remove, Reset, Swap, ZapOrder
from .board import BLOB_THING, GROUND, ROBOT, Board, Thing
from .components import SLOTS_PER_ROBOT, ZAP_ORDERS, Tile, colour_name, robot_name, tile_name
from .hexgrid import FACING_NAMES, OFFSETS, Facing, Hex, place_label
from .phases import BLOB, CHANGE, CRYSTAL, OVER, PHASES, RUN, START, ZAP, RunPoint

GAME_ID = "twin-tin-bots"
EMPTY = programs.EMPTY
__all__ = ["BLOB", "CHANGE", "CRYSTAL", "EMPTY", "GAME_ID", "OVER", "PHASES", "RUN", "ZAP", "Board", "TtbState"]

_ZAP_CHOICES = [ZapOrder(Tile(t)) for t in ZAP_ORDERS]
_BLOB_CHOICES = {d: MoveBlob(None if d is None else Facing(d)) for d in [None, *range(6)]}


def _can_place_crystal(st: TtbState, action: PlaceCrystal) -> bool:
    return st.phase == CRYSTAL and tuple(action.hex) in st.entry_hexes()


def _place_crystal(st: TtbState, action: PlaceCrystal, events: list[Event]) -> None:
    q, r = action.hex  # (a list when decoded from JSON)
    crystals.place_entering(st, (q, r), events)


#: How each action type is checked (is it legal now?) and applied.
DISPATCH: dict[type[Action], tuple[Callable[..., bool], Callable[..., None]]] = {
    Place: (programs.can_place, programs.place),
    Swap: (programs.can_swap, programs.swap),
    Remove: (programs.can_remove, programs.remove),
    Reset: (programs.can_reset, programs.reset),
    Pass: (programs.can_pass, programs.pass_),
    DoubleModification: (programs.can_double, programs.double_modification),
    ZapOrder: (zaps.can_order, zaps.zap_order),
    MoveBlob: (zaps.can_move_blob, zaps.move_blob),
    PlaceCrystal: (_can_place_crystal, _place_crystal),
}


class TtbState(State):
    """A game of Twin Tin Bots in progress."""

    __slots__ = (
        "blobs",
        "board",
        "changes_left",
        "colours",
        "controller",
        "countdown",
        "delivered",
        "dm_used",
        "end_phase",
        "end_reason",
        "entering",
        "first_done",
        "ground",
        "names",
        "num_players",
        "options",
        "order",
        "phase",
        "programs",
        "rcargo",
        "revealed",
        "rface",
        "rhex",
        "rng",
        "robots_per",
        "round",
        "run_at",
        "seed",
        "specials",
        "stack",
        "stuck",
        "target",
        "team",
        "track",
        "turn",
        "unused",
        "victor",
    )

    def __init__(self, num_players: int, seed: int, options: dict[str, Any]) -> None:
        self.num_players = num_players
        self.seed = seed
        self.options = options
        self.rng = Rng(seed)
        self.colours: tuple[str, ...] = ()
        self.controller: tuple[int, ...] = ()
        self.team: tuple[int, ...] = ()
        self.order: tuple[int, ...] = ()  # turn order of colours; order[0] is the first player's
        self.robots_per = 2
        self.names: tuple[str, ...] = ()  # robot names by id, e.g. "red-A"
        self.board = Board(4, [])
        self.rhex: list[Hex] = []
        self.rface: list[int] = []
        self.rcargo: list[int] = []  # 0 = carries nothing
        self.stuck: list[bool] = []  # the robot's next Forward step is ignored (Mud)
        self.ground: dict[Hex, int] = {}  # crystals on the ground
        self.blobs: list[Hex] = []
        self.track: list[int] = []  # the next crystal to enter is track[0]
        self.unused: list[int] = [0, 0, 0]  # crystals left in the box, per kind (2, 3, 4)
        self.entering = 0  # the crystal waiting for the active player to place it
        self.delivered: list[list[int]] = []
        self.programs: list[list[int]] = []
        self.specials: list[list[int]] = []  # Special Orders each colour owns (hand or board)
        self.revealed: list[list[int]] = []  # Special Orders each colour has shown (placed once)
        self.stack: list[int] = []  # face-down Special Orders; the top is the last
        self.dm_used: list[bool] = []
        self.first_done: list[bool] = []
        self.round = 1
        self.turn = 0  # index in ``order`` of the active colour
        self.countdown = 3  # Countdown counters the first player still holds
        self.end_phase = False
        self.phase = CHANGE
        self.changes_left = 0
        self.run_at: RunPoint = START  # where the program run stands
        self.target = -1  # zapped robot (ZAP) or Blob (BLOB)
        self.victor = -1  # seat that won by score victory
        self.end_reason = ""

    # -- who and what ---------------------------------------------------------------------------

    @property
    def active(self) -> int:
        """The colour whose turn it is."""
        return self.order[self.turn]

    def robot_colour(self, rid: int) -> int:
        """The colour of a robot."""
        return rid // self.robots_per

    def robots_of(self, colour: int) -> range:
        """The ids of a colour's robots."""
        return range(colour * self.robots_per, (colour + 1) * self.robots_per)

    def robot_name(self, rid: int) -> str:
        """A robot's name, e.g. ``"red-A"``."""
        return self.names[rid]

    def opponents(self, a: int, b: int) -> bool:
        """Whether colours ``a`` and ``b`` are on different teams."""
        return self.team[a] != self.team[b]

    def in_program(self, rid: int, tile: int) -> bool:
        """Whether ``tile`` is on one of the robot's three program slots."""
        lo = (rid % self.robots_per) * SLOTS_PER_ROBOT
        return tile in self.programs[rid // self.robots_per][lo : lo + SLOTS_PER_ROBOT]

    def first_turn_placements(self, colour: int) -> int:
        """Placements still due in a colour's first turn: one on each robot whose program is empty."""
        if self.first_done[colour]:
            return 0
        return programs.first_turn_placements(self.programs[colour], self.robots_per, self.first_done[colour])

    def seat_colours(self, seat: int) -> list[int]:
        """The colours ``seat`` plays."""
        return [c for c, s in enumerate(self.controller) if s == seat]

    def score_target(self) -> int | None:
        """Points in Bases that win at once (``None`` in Team play)."""
        return game_end.score_target(self.num_players, bool(self.options.get("team_play")))

    def hand(self, colour: int) -> dict[int, int]:
        """Tiles in a colour's hand: owned and not on its board (Double Modification until used)."""
        return programs.hand(self.programs[colour], self.specials[colour], self.dm_used[colour])

    def thing_at(self, h: Hex) -> Thing | None:
        """What stands on ``h``: ``(ROBOT, id)``, ``(GROUND, hex)`` for a crystal, ``(BLOB_THING, i)``."""
        if h in self.rhex:
            return (ROBOT, self.rhex.index(h))
        if h in self.ground:
            return (GROUND, h)
        if h in self.blobs:
            return (BLOB_THING, self.blobs.index(h))
        return None

    def is_free(self, h: Hex) -> bool:
        """An empty board hex: no robot, crystal, Blob, Base, Rock or Teleporter."""
        b = self.board
        return h in b.hexes and h not in b.base_at and h not in b.rocks and h not in b.tele and self.thing_at(h) is None

    def front(self, rid: int) -> Hex:
        """The hex a robot faces."""
        h, (dq, dr) = self.rhex[rid], OFFSETS[self.rface[rid]]
        return (h[0] + dq, h[1] + dr)

    def entry_hexes(self) -> list[Hex]:
        """Where a new crystal may enter now: the centre, or the free hexes closest to it."""
        return crystals.free_entry_hexes(self)

    # -- the contract ---------------------------------------------------------------------------

    def to_act(self) -> list[int]:
        if self.phase == OVER:
            return []
        return [self.controller[self.order[self.turn]]]  # (self.active, inlined: asked every action)

    def legal_actions(self, player: int) -> list[Action]:
        if self.phase == OVER or player != self.controller[self.order[self.turn]]:
            return []
        if self.phase == CHANGE:
            return programs.legal_changes(self)
        if self.phase == ZAP:
            return list(_ZAP_CHOICES)
        if self.phase == BLOB:
            return [_BLOB_CHOICES[None], *(_BLOB_CHOICES[d] for d in zaps.blob_moves(self))]
        if self.phase == CRYSTAL:
            return [PlaceCrystal(h) for h in self.entry_hexes()]
        return []

    def is_legal(self, player: int, action: Action) -> bool:
        """Same answer as ``action in legal_actions(player)``, without building the list."""
        if self.phase == OVER or player != self.controller[self.order[self.turn]]:
            return False
        entry = DISPATCH.get(type(action))
        return entry is not None and entry[0](self, action)

    def why_illegal(self, player: int, action: Action) -> str:
        if self.phase == ZAP and not isinstance(action, ZapOrder):
            return reason(
                "refusals.zap_pending",
                "a zap hit {name}: choose what it does (zap_order)",
                name=robot_name(self.names[self.target]),
            )
        if self.phase == BLOB and not isinstance(action, MoveBlob):
            return reason("refusals.blob_pending", "a zap hit a Blob: choose where it goes, or leave it (move_blob)")
        if self.phase == CRYSTAL and not isinstance(action, PlaceCrystal):
            return reason("refusals.crystal_pending", "a new crystal is entering: choose its hex (place_crystal)")
        if self.phase == CHANGE and isinstance(action, ZapOrder | MoveBlob | PlaceCrystal):
            return reason(
                "refusals.programming_now",
                "{name} is programming: no zap, Blob or crystal decision is pending",
                name=colour_name(self.colours[self.active]),
            )
        why = self._why_decision_refused(action) or programs.why_refused(self, action)
        return why or reason(
            "refusals.not_legal_now",
            "{action} is not a legal action for seat {seat} now",
            action=action.to_json(),
            seat=player,
        )

    def _why_decision_refused(self, action: Action) -> str | None:
        if isinstance(action, PlaceCrystal):
            hexes = [list(h) for h in self.entry_hexes()]
            radius = self.board.radius
            return reason(
                "refusals.crystal_hex",
                "{hex} is not one of the free hexes closest to the centre: {hexes}",
                hex=Message(str(list(action.hex)), "names.place", {"place": place_label(action.hex, radius)}),
                hexes=Messages(
                    [Message(str(h), "names.place", {"place": place_label(h, radius)}) for h in hexes], text=str(hexes)
                ),
            )
        if isinstance(action, ZapOrder):
            allowed = Messages([tile_name(t) for t in ZAP_ORDERS], ", ")
            return reason(
                "refusals.zap_order",
                "a zap can force only {allowed}, not {order}",
                allowed=allowed,
                order=tile_name(action.order),
            )
        if isinstance(action, MoveBlob):
            direction = name(FACING_NAMES[action.direction], "names.facing") if action.direction is not None else ""
            return reason("refusals.blob_direction", "the Blob cannot move {direction}", direction=direction)
        return None

    def apply(self, player: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``player``; on any error nothing changes (:meth:`State.apply`: a legal
        action is recognised here at once, anything else gets the generic checks and their errors)."""
        entry = DISPATCH.get(type(action))
        if (
            entry is None
            or type(player) is not int
            or self.phase == OVER
            or player != self.controller[self.order[self.turn]]
            or not entry[0](self, action)
        ):
            self.check(player, action)
            return self.apply_legal(player, action)
        events: list[Event] = []  # (apply_legal, inlined: the action's entry is at hand)
        entry[1](self, action, events)
        if self.phase == RUN:
            compiled.run(self, events)
        return events

    def apply_legal(self, player: int, action: Action) -> list[Event]:
        events: list[Event] = []
        DISPATCH[type(action)][1](self, action, events)
        if self.phase == RUN:
            compiled.run(self, events)
        return events

    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> Result:
        return game_end.result(self)

    # -- running programs (for previews and the AI) ---------------------------------------------

    def start_run(self, events: list[Event]) -> None:
        """End the programming step: the active colour's programs start running."""
        running.start_run(self, events)

    def run_programs(self, events: list[Event]) -> None:
        """Run the programs from where the run stands until the turn ends or a decision is pending."""
        compiled.run(self, events)

    def perform(self, rid: int, op: int, events: list[Event]) -> bool:
        """One elementary operation (:mod:`.orders`) by robot ``rid``; False if a Forward step could not move."""
        return running.perform(self, rid, op, events)

    # -- copies, views, JSON --------------------------------------------------------------------

    def clone(self) -> TtbState:
        new = TtbState.__new__(TtbState)
        new.num_players = self.num_players
        new.seed = self.seed
        new.options = self.options
        new.rng = Rng(self.rng.state)
        new.colours = self.colours
        new.controller = self.controller
        new.team = self.team
        new.order = self.order
        new.robots_per = self.robots_per
        new.names = self.names
        new.board = self.board
        new.rhex = self.rhex[:]
        new.rface = self.rface[:]
        new.rcargo = self.rcargo[:]
        new.stuck = self.stuck[:]
        new.ground = self.ground.copy()
        new.blobs = self.blobs[:]
        new.track = self.track[:]
        new.unused = self.unused[:]
        new.entering = self.entering
        new.delivered = [d[:] for d in self.delivered]
        new.programs = [p[:] for p in self.programs]
        new.specials = [s[:] for s in self.specials]
        new.revealed = [s[:] for s in self.revealed]
        new.stack = self.stack[:]
        new.dm_used = self.dm_used[:]
        new.first_done = self.first_done[:]
        new.round = self.round
        new.turn = self.turn
        new.countdown = self.countdown
        new.end_phase = self.end_phase
        new.phase = self.phase
        new.changes_left = self.changes_left
        new.run_at = self.run_at
        new.target = self.target
        new.victor = self.victor
        new.end_reason = self.end_reason
        return new

    def determinize(self, player: int | None, rng: Rng) -> TtbState:
        """Deal again every Special Order ``player`` cannot see: other colours' unrevealed ones and the stack."""
        return view.determinize(self, player, rng)

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may know: the whole table, its own colours' hands, and of the other colours
        only the Special Orders they have revealed (the rest are counted)."""
        return view.view(self, player)

    def to_json(self) -> dict[str, Any]:
        return serialize.to_json(self)

    # -- invariants -----------------------------------------------------------------------------

    def crystal_census(self) -> dict[str, int]:
        """Where the 18 crystals are: track, ground, carried, entering, in Bases, unused."""
        return invariants.crystal_census(self)

    def check_invariants(self) -> None:
        """Raise :class:`BadInput` naming the first broken rule of the position."""
        for problem in invariants.problems(self):
            raise BadInput(f"{GAME_ID} state: {problem}")
