"""The state of a game of Twin Tin Bots and the running of programs.

Colours are numbered clockwise around the board (a Base, its robots, a programming board and a hand
each). Players (seats) control one or two colours and teams group colours; every rule below is written
over colours, and "opponent" always means a colour of another team.

Robots are numbered ``colour * robots_per_colour + k`` (k = 0 for robot A, 1 for robot B). Hexes are
axial ``(q, r)`` tuples, facings ints (see :mod:`.hexgrid`), crystals their point values (2, 3, 4)
and tiles the ints of :class:`~.components.Tile`; -1 is an empty program slot.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from robotable.core import Action, BadInput, Event, IllegalAction, Result, Rng, State

from . import rules
from .actions import DoubleModification, MoveBlob, Pass, Place, PlaceCrystal, Remove, Reset, Swap, ZapOrder
from .components import (
    ALL_CRYSTALS,
    CRYSTAL_KINDS,
    CRYSTAL_NAMES,
    CRYSTALS_PER_KIND,
    ORDER_COUNTS,
    SCORE_VICTORY,
    SLOTS_PER_ROBOT,
    SPECIALS,
    TILE_NAMES,
    ZAP_ORDERS,
    ZAP_RANGE,
    Tile,
)
from .hexgrid import CENTRE, FACING_NAMES, OFFSETS, Facing, Hex, board_hexes, opposite, turn

GAME_ID = "twin-tin-bots"
CHANGE, RUN, ZAP, BLOB, CRYSTAL, OVER = range(6)
PHASES = ("change", "run", "zap", "blob", "crystal", "over")
ROBOT, GROUND, BLOB_THING = 0, 1, 2
EMPTY = -1
_SPECIAL_SET = frozenset(SPECIALS)
_DM = int(Tile.DOUBLE_MODIFICATION)
_ANTI_ZAP, _ANTI_THEFT, _DASH = int(Tile.ANTI_ZAP), int(Tile.ANTI_THEFT), int(Tile.DASH)

# Every action built once: legal_actions hands out these shared values.
_PLACE = {(s, t): Place(s, Tile(t)) for s in range(6) for t in range(len(TILE_NAMES))}
_SWAP = {(a, b): Swap(a, b) for a in range(6) for b in range(6)}
_REMOVE = {s: Remove(s) for s in range(6)}
_RESET = {k: Reset(k) for k in range(2)}
_PASS = Pass()
_DOUBLE = DoubleModification()
_ZAP_CHOICES = [ZapOrder(Tile(t)) for t in ZAP_ORDERS]
_BLOB_CHOICES = {d: MoveBlob(None if d is None else Facing(d)) for d in [None, *range(6)]}


class Board:
    """What never moves: the arena, the Bases, Rocks, Teleporters and Mud (shared by clones)."""

    __slots__ = ("base_at", "bases", "hexes", "mud", "radius", "rocks", "tele", "teleporters")

    def __init__(
        self,
        radius: int,
        bases: list[Hex],
        rocks: list[Hex] = (),  # type: ignore[assignment]
        teleporters: list[tuple[Hex, Hex]] = (),  # type: ignore[assignment]
        mud: list[Hex] = (),  # type: ignore[assignment]
    ) -> None:
        self.radius = radius
        self.hexes: frozenset[Hex] = frozenset(board_hexes(radius))
        self.bases: tuple[Hex, ...] = tuple(bases)
        self.base_at: dict[Hex, int] = {h: c for c, h in enumerate(self.bases)}
        self.rocks: frozenset[Hex] = frozenset(rocks)
        self.teleporters: tuple[tuple[Hex, Hex], ...] = tuple((a, b) for a, b in teleporters)
        self.tele: dict[Hex, Hex] = {}
        for a, b in self.teleporters:
            self.tele[a] = b
            self.tele[b] = a
        self.mud: frozenset[Hex] = frozenset(mud)

    def solid(self, h: Hex) -> bool:
        """Off the board, a Base or a Rock: nothing can enter or be pushed there."""
        return h not in self.hexes or h in self.base_at or h in self.rocks


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
        "num_players",
        "options",
        "order",
        "pc",
        "phase",
        "programs",
        "rcargo",
        "revealed",
        "rface",
        "rhex",
        "rng",
        "robots_per",
        "round",
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
        self.pc: list[int] = [0, 0, 0]  # running: robot k of the active colour, slot, operation
        self.target = -1  # zapped robot (ZAP) or Blob (BLOB)
        self.victor = -1  # seat that won by score victory
        self.end_reason = ""

    # -- small helpers ------------------------------------------------------------------------

    @property
    def active(self) -> int:
        """The colour whose turn it is."""
        return self.order[self.turn]

    def robot_colour(self, rid: int) -> int:
        """The colour of a robot."""
        return rid // self.robots_per

    def robot_name(self, rid: int) -> str:
        """A robot's name, e.g. ``"red-A"``."""
        return f"{self.colours[rid // self.robots_per]}-{'AB'[rid % self.robots_per]}"

    def opponents(self, a: int, b: int) -> bool:
        """Whether colours ``a`` and ``b`` are on different teams."""
        return self.team[a] != self.team[b]

    def in_program(self, rid: int, tile: int) -> bool:
        """Whether ``tile`` is on one of the robot's three program slots."""
        k = rid % self.robots_per
        base = k * SLOTS_PER_ROBOT
        return tile in self.programs[rid // self.robots_per][base : base + SLOTS_PER_ROBOT]

    def first_turn_placements(self, colour: int) -> int:
        """Placements still due in a colour's first turn: one on each robot whose program is empty."""
        if self.first_done[colour]:
            return 0
        prog = self.programs[colour]
        return sum(
            1
            for k in range(self.robots_per)
            if all(t < 0 for t in prog[k * SLOTS_PER_ROBOT : (k + 1) * SLOTS_PER_ROBOT])
        )

    def seat_colours(self, seat: int) -> list[int]:
        """The colours ``seat`` plays."""
        return [c for c, s in enumerate(self.controller) if s == seat]

    def score_target(self) -> int | None:
        """Points in Bases that win at once (``None`` in Team play)."""
        if self.options.get("team_play"):
            return None
        return SCORE_VICTORY[self.num_players]

    def hand(self, colour: int) -> dict[int, int]:
        """Tiles in a colour's hand: owned and not on its board (Double Modification until used)."""
        counts = dict(ORDER_COUNTS)
        if self.dm_used[colour]:
            counts[_DM] = 0
        for s in self.specials[colour]:
            counts[s] = 1
        for t in self.programs[colour]:
            if t >= 0:
                counts[t] -= 1
        return {t: n for t, n in counts.items() if n > 0}

    def thing_at(self, h: Hex) -> tuple[int, Any] | None:
        """What stands on ``h``: ``(ROBOT, id)``, ``(GROUND, hex)`` for a crystal, ``(BLOB_THING, i)``."""
        for i, p in enumerate(self.rhex):
            if p == h:
                return (ROBOT, i)
        if h in self.ground:
            return (GROUND, h)
        for i, p in enumerate(self.blobs):
            if p == h:
                return (BLOB_THING, i)
        return None

    def is_free(self, h: Hex) -> bool:
        """An empty board hex: no robot, crystal, Blob, Base, Rock or Teleporter."""
        b = self.board
        return h in b.hexes and h not in b.base_at and h not in b.rocks and h not in b.tele and self.thing_at(h) is None

    # -- the contract -------------------------------------------------------------------------

    def to_act(self) -> list[int]:
        if self.phase == OVER:
            return []
        return [self.controller[self.active]]

    def legal_actions(self, player: int) -> list[Action]:
        if self.phase == OVER or player != self.controller[self.active]:
            return []
        if self.phase == CHANGE:
            return self._changes()
        if self.phase == ZAP:
            return list(_ZAP_CHOICES)
        if self.phase == BLOB:
            return [_BLOB_CHOICES[None]] + [
                _BLOB_CHOICES[d] for d in range(6) if self.push_line(self.blobs[self.target], d, False)
            ]
        if self.phase == CRYSTAL:
            return [PlaceCrystal(h) for h in self.entry_hexes()]
        return []

    def _changes(self) -> list[Action]:
        c = self.active
        prog = self.programs[c]
        hand = [t for t in sorted(self.hand(c)) if t != _DM]
        first = self.first_turn_placements(c) > 0
        actions: list[Action] = []
        if not first:
            actions.append(_PASS)
            if not self.dm_used[c]:
                actions.append(_DOUBLE)
        for k in range(self.robots_per):
            lo = k * SLOTS_PER_ROBOT
            if first and any(t >= 0 for t in prog[lo : lo + SLOTS_PER_ROBOT]):
                continue
            for s in range(lo, lo + SLOTS_PER_ROBOT):
                actions += [_PLACE[s, t] for t in hand if t != prog[s]]
        if first:
            return actions
        for k in range(self.robots_per):
            lo = k * SLOTS_PER_ROBOT
            for a in range(lo, lo + SLOTS_PER_ROBOT):
                for b in range(a + 1, lo + SLOTS_PER_ROBOT):
                    if prog[a] != prog[b]:
                        actions.append(_SWAP[a, b])
        actions += [_REMOVE[s] for s in range(self.robots_per * SLOTS_PER_ROBOT) if prog[s] >= 0]
        for k in range(self.robots_per):
            lo = k * SLOTS_PER_ROBOT
            if any(t >= 0 for t in prog[lo : lo + SLOTS_PER_ROBOT]):
                actions.append(_RESET[k])
        return actions

    def is_legal(self, player: int, action: Action) -> bool:
        """Same answer as ``action in legal_actions(player)``, without building the list."""
        if self.phase == OVER or player != self.controller[self.active]:
            return False
        if self.phase == ZAP:
            return isinstance(action, ZapOrder) and action.order in ZAP_ORDERS
        if self.phase == BLOB:
            if not isinstance(action, MoveBlob):
                return False
            return (
                action.direction is None or self.push_line(self.blobs[self.target], action.direction, False) is not None
            )
        if self.phase == CRYSTAL:
            return isinstance(action, PlaceCrystal) and tuple(action.hex) in self.entry_hexes()
        return self._change_is_legal(action)

    def _change_is_legal(self, action: Action) -> bool:
        c = self.active
        prog = self.programs[c]
        slots = self.robots_per * SLOTS_PER_ROBOT
        first = self.first_turn_placements(c) > 0
        if isinstance(action, Place):
            s, t = action.slot, int(action.tile)
            if not 0 <= s < slots or t == _DM or prog[s] == t or self.hand(c).get(t, 0) <= 0:
                return False
            lo = s - s % SLOTS_PER_ROBOT
            return not first or all(x < 0 for x in prog[lo : lo + SLOTS_PER_ROBOT])
        if first:
            return False
        if isinstance(action, Pass):
            return True
        if isinstance(action, DoubleModification):
            return not self.dm_used[c]
        if isinstance(action, Swap):
            a, b = action.slot_a, action.slot_b
            return (
                0 <= a < slots
                and 0 <= b < slots
                and a // SLOTS_PER_ROBOT == b // SLOTS_PER_ROBOT
                and prog[a] != prog[b]
            )
        if isinstance(action, Remove):
            return 0 <= action.slot < slots and prog[action.slot] >= 0
        if isinstance(action, Reset):
            lo = action.robot * SLOTS_PER_ROBOT
            return 0 <= action.robot < self.robots_per and any(t >= 0 for t in prog[lo : lo + SLOTS_PER_ROBOT])
        return False

    def why_illegal(self, player: int, action: Action) -> str:
        c = self.active
        name = self.colours[c]
        if self.phase == ZAP and not isinstance(action, ZapOrder):
            return f"a zap hit {self.robot_name(self.target)}: choose what it does (zap_order)"
        if self.phase == BLOB and not isinstance(action, MoveBlob):
            return "a zap hit a Blob: choose where it goes, or leave it (move_blob)"
        if self.phase == CRYSTAL and not isinstance(action, PlaceCrystal):
            return "a new crystal is entering: choose its hex (place_crystal)"
        if self.phase == CHANGE and isinstance(action, ZapOrder | MoveBlob | PlaceCrystal):
            return f"{name} is programming: no zap, Blob or crystal decision is pending"
        if isinstance(action, PlaceCrystal):
            hexes = [list(h) for h in self.entry_hexes()]
            return f"{list(action.hex)} is not one of the free hexes closest to the centre: {hexes}"
        if isinstance(action, ZapOrder):
            return (
                f"a zap can force only {', '.join(TILE_NAMES[t] for t in ZAP_ORDERS)}, not {TILE_NAMES[action.order]}"
            )
        if isinstance(action, MoveBlob):
            return f"the Blob cannot move {FACING_NAMES[action.direction] if action.direction is not None else ''}"
        slots = self.robots_per * SLOTS_PER_ROBOT
        first = self.first_turn_placements(c) > 0
        if isinstance(action, Place | Remove) and not 0 <= action.slot < slots:
            return f"slots are numbered 0 to {slots - 1}"
        if first and not isinstance(action, Place):
            return f"{name}'s first turn: place one tile on each robot's program"
        if isinstance(action, Place):
            if action.tile == _DM:
                return "Double Modification is never placed: use it with the double_modification change"
            if action.tile not in self.hand(c):
                return f"{name} has no {TILE_NAMES[action.tile]} tile in hand"
            if first:
                return f"{name}'s first turn: exactly one tile on each robot (that robot already has one)"
            return f"{TILE_NAMES[action.tile]} is already on slot {action.slot}"
        if isinstance(action, Swap):
            return "a swap takes two different slots of the same robot, not both empty or holding the same tile"
        if isinstance(action, Remove):
            return f"slot {action.slot} is empty"
        if isinstance(action, Reset):
            return f"robot {'AB'[action.robot] if action.robot in (0, 1) else action.robot} has no tile to reset"
        if isinstance(action, DoubleModification):
            return f"{name} has already used its Double Modification"
        return f"{action.to_json()} is not a legal action for seat {player} now"

    def apply_legal(self, player: int, action: Action) -> list[Event]:
        events: list[Event] = []
        if self.phase == CHANGE:
            self._change(action, events)
        elif self.phase == ZAP:
            assert isinstance(action, ZapOrder)
            self._zap_order(action.order, events)
        elif self.phase == BLOB:
            assert isinstance(action, MoveBlob)
            self._move_blob(action.direction, events)
        elif self.phase == CRYSTAL:
            assert isinstance(action, PlaceCrystal)
            self._place_crystal(tuple(action.hex), events)  # type: ignore[arg-type]
        if self.phase == RUN:
            self._run(events)
        return events

    def is_over(self) -> bool:
        return self.phase == OVER

    # -- programming --------------------------------------------------------------------------

    def _change(self, action: Action, events: list[Event]) -> None:
        c = self.active
        prog = self.programs[c]
        name = self.colours[c]
        if isinstance(action, Pass):
            events.append(Event("pass", {"colour": name}))
            self.changes_left = 0
        elif isinstance(action, DoubleModification):
            self.dm_used[c] = True
            self.changes_left = 2
            events.append(Event("double_modification", {"colour": name}))
            return
        elif isinstance(action, Place):
            tile = int(action.tile)
            old = prog[action.slot]
            prog[action.slot] = tile
            if tile in _SPECIAL_SET and tile not in self.revealed[c]:
                self.revealed[c].append(tile)
            events.append(
                Event(
                    "place",
                    {"colour": name, "slot": action.slot, "tile": TILE_NAMES[tile], "replaced": _tile_or_none(old)},
                )
            )
            self.changes_left -= 1
        elif isinstance(action, Swap):
            prog[action.slot_a], prog[action.slot_b] = prog[action.slot_b], prog[action.slot_a]
            events.append(Event("swap", {"colour": name, "slot_a": action.slot_a, "slot_b": action.slot_b}))
            self.changes_left -= 1
        elif isinstance(action, Remove):
            events.append(Event("remove", {"colour": name, "slot": action.slot, "tile": TILE_NAMES[prog[action.slot]]}))
            prog[action.slot] = EMPTY
            self.changes_left -= 1
        elif isinstance(action, Reset):
            lo = action.robot * SLOTS_PER_ROBOT
            tiles = [TILE_NAMES[t] for t in prog[lo : lo + SLOTS_PER_ROBOT] if t >= 0]
            prog[lo : lo + SLOTS_PER_ROBOT] = [EMPTY] * SLOTS_PER_ROBOT
            events.append(Event("reset", {"colour": name, "robot": "AB"[action.robot], "tiles": tiles}))
            self.changes_left -= 1
        if self.changes_left <= 0:
            self.first_done[c] = True
            self.start_run(events)

    def start_run(self, events: list[Event]) -> None:
        """End the programming step: the active colour's programs start running."""
        self.changes_left = 0
        self.phase = RUN
        self._begin_robot(0, events)

    def _begin_robot(self, k: int, events: list[Event]) -> None:
        self.pc = [k, 0, 0]
        rid = self.active * self.robots_per + k
        self.stuck[rid] = self.rhex[rid] in self.board.mud  # starting its program run in Mud
        events.append(Event("run", {"robot": self.robot_name(rid)}))

    # -- running programs ---------------------------------------------------------------------

    def _run(self, events: list[Event]) -> None:
        """Run the active colour's programs from ``pc`` until they end or a decision is pending."""
        c = self.active
        prog = self.programs[c]
        while self.phase == RUN:
            k, slot, op = self.pc
            if slot >= SLOTS_PER_ROBOT:
                if k + 1 >= self.robots_per:
                    self._end_turn(events)
                    return
                self._begin_robot(k + 1, events)
                continue
            tile = prog[k * SLOTS_PER_ROBOT + slot]
            ops = rules.TILE_OPS[tile] if tile >= 0 else ()
            if op >= len(ops):
                self.pc = [k, slot + 1, 0]
                continue
            rid = c * self.robots_per + k
            if op == 0:
                events.append(Event("order", {"robot": self.robot_name(rid), "slot": slot, "tile": TILE_NAMES[tile]}))
            self.pc = [k, slot, op + 1]
            done = self.perform(rid, ops[op], events)
            if not done and tile in rules.CHAINED_STEPS:
                self.pc = [k, slot, len(ops)]

    def perform(self, rid: int, op: int, events: list[Event]) -> bool:
        """One elementary operation by robot ``rid``; False if a Forward step could not move."""
        if op == rules.FORWARD:
            return self.step(rid, self.rface[rid], events, "forward")
        if op == rules.BACK_UP:
            return self.step(rid, opposite(self.rface[rid]), events, "back_up")
        if op in rules.TURNS:
            self.rface[rid] = turn(self.rface[rid], rules.TURNS[op])
            events.append(
                Event(
                    "turn",
                    {
                        "robot": self.robot_name(rid),
                        "hex": list(self.rhex[rid]),
                        "facing": FACING_NAMES[self.rface[rid]],
                    },
                )
            )
            return True
        if op == rules.LOAD:
            self.load(rid, events)
        elif op == rules.UNLOAD:
            self.unload(rid, events)
        elif op == rules.ZAP:
            self.zap(rid, ZAP_RANGE, events)
        elif op == rules.LONG_RANGE_ZAP:
            self.zap(rid, 10**6, events)
        elif op == rules.JUMP:
            self.jump(rid, events)
        return True

    # -- movement -----------------------------------------------------------------------------

    def next_hex(self, h: Hex, d: int) -> Hex | None:
        """Where something leaving ``h`` in direction ``d`` lands (through a Teleporter: the hex beyond
        its pair), or ``None`` if that is off the board, a Base or a Rock."""
        dq, dr = OFFSETS[d]
        n = (h[0] + dq, h[1] + dr)
        b = self.board
        if b.solid(n):
            return None
        pair = b.tele.get(n)
        if pair is not None:
            n = (pair[0] + dq, pair[1] + dr)
            if b.solid(n) or n in b.tele:
                return None
        return n

    def push_line(self, h: Hex, d: int, dash: bool) -> tuple[list[tuple[int, Any]], list[Hex]] | None:
        """The things pushed when what stands on ``h`` moves in direction ``d``, and the hexes each
        (the mover first) moves to; ``None`` if the move is blocked."""
        things: list[tuple[int, Any]] = []
        hexes: list[Hex] = []
        cur = h
        for _ in range(len(self.board.hexes)):
            nxt = self.next_hex(cur, d)
            if nxt is None or nxt == h:
                return None
            hexes.append(nxt)
            thing = self.thing_at(nxt)
            if thing is None:
                return things, hexes
            things.append(thing)
            if not dash and len(things) > 1:
                return None
            cur = nxt
        return None

    def _put(self, thing: tuple[int, Any], to: Hex, events: list[Event], how: str) -> None:
        kind, ref = thing
        if kind == ROBOT:
            self.rhex[ref] = to
            self.stuck[ref] = to in self.board.mud  # entering Mud (leaving it frees the robot)
            events.append(
                Event(
                    "move",
                    {
                        "robot": self.robot_name(ref),
                        "hex": list(to),
                        "facing": FACING_NAMES[self.rface[ref]],
                        "how": how,
                    },
                )
            )
        elif kind == GROUND:
            value = self.ground.pop(ref)
            self.ground[to] = value
            events.append(
                Event("crystal_pushed", {"from": list(ref), "hex": list(to), "crystal": CRYSTAL_NAMES[value]})
            )
        else:
            frm = self.blobs[ref]
            self.blobs[ref] = to
            events.append(Event("blob_moved", {"from": list(frm), "hex": list(to)}))

    def push(self, thing: tuple[int, Any], h: Hex, d: int, dash: bool, events: list[Event], how: str) -> bool:
        """Move a robot, crystal or Blob one hex, pushing per the Forward rules; False if blocked."""
        line = self.push_line(h, d, dash)
        if line is None:
            return False
        things, hexes = line
        for i in range(len(things) - 1, -1, -1):
            self._put(things[i], hexes[i + 1], events, "pushed")
        self._put(thing, hexes[0], events, how)
        return True

    def step(self, rid: int, d: int, events: list[Event], how: str) -> bool:
        """A Forward step (or Back Up) of robot ``rid`` in direction ``d``."""
        if self.stuck[rid]:
            self.stuck[rid] = False
            events.append(Event("mud", {"robot": self.robot_name(rid), "hex": list(self.rhex[rid])}))
            return True
        moved = self.push((ROBOT, rid), self.rhex[rid], d, self.in_program(rid, _DASH), events, how)
        if not moved:
            events.append(Event("blocked", {"robot": self.robot_name(rid), "hex": list(self.rhex[rid]), "how": how}))
        return moved

    def jump(self, rid: int, events: list[Event]) -> None:
        """Jump two hexes ahead over anything; the landing hex must be empty."""
        d = self.rface[rid]
        h = self.rhex[rid]
        dq, dr = OFFSETS[d]
        land: Hex | None = (h[0] + 2 * dq, h[1] + 2 * dr)
        b = self.board
        if b.solid(land):  # type: ignore[arg-type]
            land = None
        elif land in b.tele:
            pair = b.tele[land]  # type: ignore[index]
            land = (pair[0] + dq, pair[1] + dr)
            if b.solid(land) or land in b.tele:
                land = None
        if land is None or self.thing_at(land) is not None:
            events.append(Event("blocked", {"robot": self.robot_name(rid), "hex": list(h), "how": "jump"}))
            return
        self._put((ROBOT, rid), land, events, "jump")

    # -- crystals -----------------------------------------------------------------------------

    def front(self, rid: int) -> Hex:
        """The hex a robot faces."""
        h, (dq, dr) = self.rhex[rid], OFFSETS[self.rface[rid]]
        return (h[0] + dq, h[1] + dr)

    def load(self, rid: int, events: list[Event]) -> None:
        """Load the crystal in front, from the ground or from a robot (stealing it)."""
        name = self.robot_name(rid)
        f = self.front(rid)
        if self.rcargo[rid]:
            events.append(Event("ignored", {"robot": name, "order": "load", "why": "already loaded"}))
            return
        if f in self.ground:
            self.rcargo[rid] = self.ground.pop(f)
            events.append(Event("load", {"robot": name, "crystal": CRYSTAL_NAMES[self.rcargo[rid]], "hex": list(f)}))
            return
        thing = self.thing_at(f)
        if thing is not None and thing[0] == ROBOT and self.rcargo[thing[1]]:
            self.steal(rid, thing[1], events)
            return
        events.append(Event("ignored", {"robot": name, "order": "load", "why": "no crystal in front"}))

    def steal(self, rid: int, victim: int, events: list[Event]) -> None:
        """Load the crystal another robot carries, unless it is an opponent's with Anti Theft."""
        name = self.robot_name(rid)
        if self.opponents(self.robot_colour(rid), self.robot_colour(victim)) and self.in_program(victim, _ANTI_THEFT):
            events.append(Event("anti_theft", {"robot": name, "victim": self.robot_name(victim)}))
            return
        self.rcargo[rid], self.rcargo[victim] = self.rcargo[victim], 0
        crystal = CRYSTAL_NAMES[self.rcargo[rid]]
        events.append(Event("steal", {"robot": name, "victim": self.robot_name(victim), "crystal": crystal}))

    def may_unload_in(self, rid: int, base_colour: int) -> bool:
        """Advanced 2 players: only into the robot's own colour's Base or the other player's Bases."""
        if not self.options.get("advanced_2p"):
            return True
        c = self.robot_colour(rid)
        return base_colour == c or self.controller[base_colour] != self.controller[c]

    def unload(self, rid: int, events: list[Event]) -> None:
        """Unload the carried crystal in front: on an empty hex, a Base, or an empty robot."""
        name = self.robot_name(rid)
        value = self.rcargo[rid]
        if not value:
            events.append(Event("ignored", {"robot": name, "order": "unload", "why": "carries nothing"}))
            return
        f = self.front(rid)
        b = self.board
        base = b.base_at.get(f)
        if base is not None:
            if not self.may_unload_in(rid, base):
                events.append(Event("ignored", {"robot": name, "order": "unload", "why": "not into that Base"}))
                return
            self.rcargo[rid] = 0
            self.deliver(base, value, name, events)
            return
        if f not in b.hexes or f in b.rocks or f in b.tele:
            events.append(Event("ignored", {"robot": name, "order": "unload", "why": "no room in front"}))
            return
        thing = self.thing_at(f)
        if thing is None:
            self.rcargo[rid] = 0
            self.ground[f] = value
            events.append(Event("unload", {"robot": name, "crystal": CRYSTAL_NAMES[value], "hex": list(f)}))
        elif thing[0] == ROBOT and not self.rcargo[thing[1]]:
            self.rcargo[rid] = 0
            self.rcargo[thing[1]] = value
            events.append(
                Event(
                    "unload",
                    {"robot": name, "crystal": CRYSTAL_NAMES[value], "hex": list(f), "onto": self.robot_name(thing[1])},
                )
            )
        else:
            events.append(Event("ignored", {"robot": name, "order": "unload", "why": "no room in front"}))

    def deliver(self, base: int, value: int, by: str, events: list[Event]) -> None:
        """A crystal unloaded in a Base: it scores for the Base's owner, a blue one draws a Special
        Order, then the next crystal of the track enters play."""
        self.delivered[base].append(value)
        events.append(Event("deliver", {"robot": by, "base": self.colours[base], "crystal": CRYSTAL_NAMES[value]}))
        target = self.score_target()
        if target is not None:
            seat = self.controller[base]
            points = sum(sum(self.delivered[c]) for c in self.seat_colours(seat))
            if points >= target:
                self.victor = seat
                self._game_over(f"score victory: seat {seat} has {points} points in Bases", events)
                return
        if value == rules.BLUE and self.stack and not self.options.get("simplified"):
            tile = self.stack.pop()
            self.specials[base].append(tile)
            events.append(Event("draw_special", {"colour": self.colours[base]}))
            events.append(
                Event(
                    "special_drawn",
                    {"colour": self.colours[base], "tile": TILE_NAMES[tile]},
                    (self.controller[base],),
                )
            )
        if self.track:
            self.entering = self.track.pop(0)
            hexes = self.entry_hexes()
            if len(hexes) == 1:
                self._place_crystal(hexes[0], events)
            else:
                self.phase = CRYSTAL
                events.append(
                    Event(
                        "crystal_choice", {"crystal": CRYSTAL_NAMES[self.entering], "hexes": [list(h) for h in hexes]}
                    )
                )

    def entry_hexes(self) -> list[Hex]:
        """Where a new crystal may enter now: the centre, or the free hexes closest to it."""
        if self.is_free(CENTRE):
            return [CENTRE]
        return rules.entry_hexes(self.board.hexes, self.is_free)

    def _place_crystal(self, h: Hex, events: list[Event]) -> None:
        self.ground[h] = self.entering
        events.append(Event("crystal_enters", {"crystal": CRYSTAL_NAMES[self.entering], "hex": list(h)}))
        self.entering = 0
        if self.phase == CRYSTAL:
            self.phase = RUN
        if not self.track and not self.end_phase:
            self.end_phase = True
            events.append(Event("end_phase", {"round": self.round}))

    # -- zaps ---------------------------------------------------------------------------------

    def zap(self, rid: int, reach: int, events: list[Event]) -> None:
        """Scan ahead up to ``reach`` hexes; the first non-empty hex stops the pulse."""
        name = self.robot_name(rid)
        h, (dq, dr) = self.rhex[rid], OFFSETS[self.rface[rid]]
        b = self.board
        for i in range(1, reach + 1):
            n = (h[0] + dq * i, h[1] + dr * i)
            if n not in b.hexes:
                break
            if n in b.base_at or n in b.rocks or n in b.tele or n in self.ground:
                events.append(Event("zap", {"robot": name, "hex": list(n), "hit": None}))
                return
            thing = self.thing_at(n)
            if thing is None:
                continue
            if thing[0] == BLOB_THING:
                self.phase, self.target = BLOB, thing[1]
                events.append(Event("zap", {"robot": name, "hex": list(n), "hit": "blob"}))
                return
            victim = thing[1]
            if self.opponents(self.robot_colour(rid), self.robot_colour(victim)) and self.in_program(victim, _ANTI_ZAP):
                events.append(
                    Event("zap", {"robot": name, "hex": list(n), "hit": self.robot_name(victim), "resisted": True})
                )
                return
            self.phase, self.target = ZAP, victim
            events.append(Event("zap", {"robot": name, "hex": list(n), "hit": self.robot_name(victim)}))
            return
        events.append(Event("zap", {"robot": name, "hex": None, "hit": None}))

    def _zap_order(self, order: int, events: list[Event]) -> None:
        victim, self.target = self.target, -1
        self.phase = RUN
        events.append(Event("zap_order", {"robot": self.robot_name(victim), "order": TILE_NAMES[order]}))
        self.perform(victim, rules.ZAP_ORDER_OPS[order], events)

    def _move_blob(self, direction: int | None, events: list[Event]) -> None:
        i, self.target = self.target, -1
        self.phase = RUN
        if direction is None:
            events.append(Event("blob_left", {"hex": list(self.blobs[i])}))
            return
        self.push((BLOB_THING, i), self.blobs[i], direction, False, events, "zap")

    # -- turns and the end --------------------------------------------------------------------

    def start_turn(self, events: list[Event]) -> None:
        """The active colour's turn begins with its programming step."""
        c = self.active
        self.phase = CHANGE
        self.changes_left = self.first_turn_placements(c) or 1
        self.pc = [0, 0, 0]
        mud = self.board.mud
        self.stuck = [h in mud for h in self.rhex]  # Mud has no memory
        events.append(Event("turn_start", {"colour": self.colours[c], "round": self.round}))

    def _end_turn(self, events: list[Event]) -> None:
        if self.turn + 1 < len(self.order):
            self.turn += 1
        else:
            if self.end_phase and self.countdown <= 0:
                self._game_over("crystal attrition: three game turns after the last crystal entered play", events)
                return
            self.round += 1
            self.turn = 0
            if self.end_phase:
                self.countdown -= 1
                events.append(Event("countdown", {"counters_left": self.countdown, "last_turn": self.countdown == 0}))
        self.start_turn(events)

    def _game_over(self, reason: str, events: list[Event]) -> None:
        self.phase = OVER
        self.end_reason = reason
        events.append(Event("game_over", {"result": self.result().to_json()}))

    def result(self) -> Result:
        if self.phase != OVER:
            raise IllegalAction("the game is not over")
        groups: list[list[int]]  # colours scored together for each seat
        if self.options.get("team_play"):
            groups = [
                [c for c in range(len(self.colours)) if self.team[c] == self.team[self.seat_colours(s)[0]]]
                for s in range(self.num_players)
            ]
        else:
            groups = [self.seat_colours(s) for s in range(self.num_players)]
        keys = []
        for seat, group in enumerate(groups):
            bases = [v for c in group for v in self.delivered[c]]
            carried = [
                self.rcargo[r] for r in range(len(self.rhex)) if self.robot_colour(r) in group and self.rcargo[r]
            ]
            keys.append(rules.ranking_key(bases, carried, seat == self.victor))
        details = {
            "colours": {
                self.colours[c]: {
                    "seat": self.controller[c],
                    "in_base": [CRYSTAL_NAMES[v] for v in self.delivered[c]],
                    "carried": [
                        CRYSTAL_NAMES[self.rcargo[r]]
                        for r in range(len(self.rhex))
                        if self.robot_colour(r) == c and self.rcargo[r]
                    ],
                }
                for c in range(len(self.colours))
            },
            "tie_breaks": [
                "score victory",
                "points",
                "blue crystals in Bases",
                "green crystals in Bases",
                "points in Bases",
            ],
        }
        if self.options.get("team_play"):
            details["teams"] = [self.team[self.seat_colours(s)[0]] for s in range(self.num_players)]
        return Result.from_keys([k[1] for k in keys], keys, self.end_reason, details)

    # -- copies, views, JSON ------------------------------------------------------------------

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
        new.board = self.board
        new.rhex = self.rhex[:]
        new.rface = self.rface[:]
        new.rcargo = self.rcargo[:]
        new.stuck = self.stuck[:]
        new.ground = dict(self.ground)
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
        new.pc = self.pc[:]
        new.target = self.target
        new.victor = self.victor
        new.end_reason = self.end_reason
        return new

    def determinize(self, player: int, rng: Rng) -> TtbState:
        """Deal again every Special Order ``player`` cannot see: other colours' unrevealed ones and the stack."""
        new = self.clone()
        mine = set(self.seat_colours(player))
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
        return new

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may know: the whole table, its own colours' hands, and of the other colours
        only the Special Orders they have revealed (the rest are counted)."""
        mine = set(self.seat_colours(player)) if player is not None else set()
        out = self._public()
        out["seat"] = player
        out["your_colours"] = [self.colours[c] for c in sorted(mine)]
        for c, entry in enumerate(out["colours"]):
            hand = self.hand(c)
            secret = [t for t in self.specials[c] if t not in self.revealed[c]]
            shown = {t: n for t, n in hand.items() if c in mine or t not in secret}
            entry["hand"] = {TILE_NAMES[t]: n for t, n in sorted(shown.items())}
            entry["hidden_specials"] = 0 if c in mine else len(secret)
        return out

    def _public(self) -> dict[str, Any]:
        C = len(self.colours)
        colours = []
        for c in range(C):
            bases = self.delivered[c]
            colours.append(
                {
                    "colour": self.colours[c],
                    "seat": self.controller[c],
                    "team": self.team[c],
                    "base": list(self.board.bases[c]),
                    "program": [_tile_or_none(t) for t in self.programs[c]],
                    "revealed": [TILE_NAMES[t] for t in self.revealed[c]],
                    "double_modification_used": self.dm_used[c],
                    "first_turn_done": self.first_done[c],
                    "delivered": [CRYSTAL_NAMES[v] for v in bases],
                    "points_in_base": sum(bases),
                }
            )
        pending: dict[str, Any] | None = None
        if self.phase == ZAP:
            pending = {
                "type": "zap",
                "robot": self.robot_name(self.target),
                "choices": [TILE_NAMES[t] for t in ZAP_ORDERS],
            }
        elif self.phase == BLOB:
            pending = {"type": "blob", "hex": list(self.blobs[self.target])}
        elif self.phase == CRYSTAL:
            pending = {
                "type": "crystal",
                "crystal": CRYSTAL_NAMES[self.entering],
                "hexes": [list(h) for h in self.entry_hexes()],
            }
        out: dict[str, Any] = {
            "game": GAME_ID,
            "num_players": self.num_players,
            "options": dict(self.options),
            "radius": self.board.radius,
            "colours": colours,
            "turn_order": [self.colours[c] for c in self.order],
            "robots": self._robots_json(),
            "crystals": [{"hex": list(h), "crystal": CRYSTAL_NAMES[v]} for h, v in sorted(self.ground.items())],
            "blobs": [list(h) for h in self.blobs],
            "rocks": [list(h) for h in sorted(self.board.rocks)],
            "teleporters": [[list(a), list(b)] for a, b in self.board.teleporters],
            "mud": [list(h) for h in sorted(self.board.mud)],
            "track": [CRYSTAL_NAMES[v] for v in self.track],
            "special_stack_count": len(self.stack),
            "round": self.round,
            "active": self.colours[self.active],
            "first": self.colours[self.order[0]],
            "countdown": self.countdown,
            "end_phase": self.end_phase,
            "phase": PHASES[self.phase],
            "changes_left": self.changes_left,
            "running": self.robot_name(self.active * self.robots_per + self.pc[0])
            if self.phase in (ZAP, BLOB, CRYSTAL)
            else None,
            "pending": pending,
            "score_victory": self.score_target(),
            "to_act": self.to_act(),
        }
        if self.phase == OVER:
            out["result"] = self.result().to_json()
        return out

    def _robots_json(self) -> list[dict[str, Any]]:
        return [
            {
                "robot": self.robot_name(r),
                "colour": self.colours[self.robot_colour(r)],
                "hex": list(self.rhex[r]),
                "facing": FACING_NAMES[self.rface[r]],
                "cargo": CRYSTAL_NAMES[self.rcargo[r]] if self.rcargo[r] else None,
            }
            for r in range(len(self.rhex))
        ]

    def to_json(self) -> dict[str, Any]:
        names = self.colours
        robots: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
        for r in range(len(self.rhex)):
            robots[names[self.robot_colour(r)]].append(
                {
                    "hex": list(self.rhex[r]),
                    "facing": FACING_NAMES[self.rface[r]],
                    "cargo": CRYSTAL_NAMES[self.rcargo[r]] if self.rcargo[r] else None,
                }
            )
        pending: dict[str, Any] | None = None
        if self.phase == ZAP:
            pending = {"robot": self.robot_name(self.target)}
        elif self.phase == BLOB:
            pending = {"blob": self.target}
        elif self.phase == CRYSTAL:
            pending = {"crystal": CRYSTAL_NAMES[self.entering]}
        return {
            "game": GAME_ID,
            "num_players": self.num_players,
            "seed": self.seed,
            "options": dict(self.options),
            "rng": self.rng.to_json(),
            "colours": list(names),
            "controllers": list(self.controller),
            "teams": list(self.team),
            "turn_order": [names[c] for c in self.order],
            "radius": self.board.radius,
            "bases": {names[c]: list(h) for c, h in enumerate(self.board.bases)},
            "rocks": [list(h) for h in sorted(self.board.rocks)],
            "teleporters": [[list(a), list(b)] for a, b in self.board.teleporters],
            "mud": [list(h) for h in sorted(self.board.mud)],
            "blobs": [list(h) for h in self.blobs],
            "robots": robots,
            "crystals": [{"hex": list(h), "crystal": CRYSTAL_NAMES[v]} for h, v in sorted(self.ground.items())],
            "track": [CRYSTAL_NAMES[v] for v in self.track],
            "unused": {CRYSTAL_NAMES[v]: self.unused[i] for i, v in enumerate(CRYSTAL_KINDS)},
            "delivered": {names[c]: [CRYSTAL_NAMES[v] for v in d] for c, d in enumerate(self.delivered)},
            "programs": {names[c]: [_tile_or_none(t) for t in p] for c, p in enumerate(self.programs)},
            "specials": {names[c]: [TILE_NAMES[t] for t in s] for c, s in enumerate(self.specials)},
            "revealed": {names[c]: [TILE_NAMES[t] for t in s] for c, s in enumerate(self.revealed)},
            "special_stack": [TILE_NAMES[t] for t in self.stack],
            "double_modification_used": {names[c]: u for c, u in enumerate(self.dm_used)},
            "first_turn_done": {names[c]: u for c, u in enumerate(self.first_done)},
            "round": self.round,
            "turn": self.turn,
            "countdown": self.countdown,
            "end_phase": self.end_phase,
            "phase": PHASES[self.phase],
            "changes_left": self.changes_left,
            "run": {"robot": "AB"[self.pc[0]], "slot": self.pc[1], "op": self.pc[2]},
            "stuck": [self.robot_name(r) for r in range(len(self.rhex)) if self.stuck[r]],
            "pending": pending,
            "victor": self.victor if self.victor >= 0 else None,
            "end_reason": self.end_reason,
        }

    # -- invariants ---------------------------------------------------------------------------

    def crystal_census(self) -> dict[str, int]:
        """Where the 18 crystals are: track, ground, carried, entering, in Bases, unused."""
        return {
            "track": len(self.track),
            "ground": len(self.ground),
            "carried": sum(1 for v in self.rcargo if v),
            "entering": int(bool(self.entering)),
            "bases": sum(len(d) for d in self.delivered),
            "unused": sum(self.unused),
        }

    def check_invariants(self) -> None:
        """Raise :class:`BadInput` naming the first broken rule of the position."""
        for problem in self._problems():
            raise BadInput(f"{GAME_ID} state: {problem}")

    def _problems(self) -> Iterator[str]:
        b = self.board
        C = len(self.colours)
        seen: dict[Hex, str] = {}
        for what, hexes in (
            ("base", b.bases),
            ("rock", sorted(b.rocks)),
            ("teleporter", sorted(b.tele)),
            ("robot", self.rhex),
            ("crystal", sorted(self.ground)),
            ("blob", self.blobs),
        ):
            for h in hexes:
                if h not in b.hexes:
                    yield f"{what} at {list(h)} is off the board (radius {b.radius})"
                if h in seen:
                    yield f"{what} at {list(h)} shares its hex with a {seen[h]}"
                seen[h] = what
        per_kind = dict.fromkeys(CRYSTAL_KINDS, 0)
        for v in [
            *self.track,
            *self.ground.values(),
            *(v for v in self.rcargo if v),
            *(v for d in self.delivered for v in d),
        ]:
            per_kind[v] += 1
        if self.entering:
            per_kind[self.entering] += 1
        for i, v in enumerate(CRYSTAL_KINDS):
            if per_kind[v] + self.unused[i] != CRYSTALS_PER_KIND or self.unused[i] < 0:
                name, n, unused = CRYSTAL_NAMES[v], per_kind[v], self.unused[i]
                yield f"{name} crystals: {n} in play and {unused} unused, not {CRYSTALS_PER_KIND}"
        if sum(self.crystal_census().values()) != ALL_CRYSTALS:
            yield f"the crystals do not add up to {ALL_CRYSTALS}"
        for c in range(C):
            owned = dict(ORDER_COUNTS)
            for s in self.specials[c]:
                owned[s] = owned.get(s, 0) + 1
            for t in self.programs[c]:
                if t == _DM:
                    yield f"{self.colours[c]}: Double Modification is never placed on a programming board"
                if t >= 0:
                    owned[t] = owned.get(t, 0) - 1
            if any(n < 0 for n in owned.values()):
                yield f"{self.colours[c]}'s programming board holds tiles it does not own"
            if self.robots_per == 1 and any(t >= 0 for t in self.programs[c][SLOTS_PER_ROBOT:]):
                yield f"{self.colours[c]} has one robot: slots 3-5 must stay empty"
            if any(t not in self.specials[c] for t in self.revealed[c]):
                yield f"{self.colours[c]} has revealed a Special Order it does not own"
            if any(t in _SPECIAL_SET and t not in self.revealed[c] for t in self.programs[c]):
                yield f"{self.colours[c]} has a Special Order on its board that is not listed as revealed"
        everything = [t for s in self.specials for t in s] + self.stack
        if any(t not in _SPECIAL_SET for t in everything) or len(set(everything)) != len(everything):
            yield "each Special Order exists once: specials and special_stack repeat one or hold an Order tile"
        if self.options.get("simplified") and everything:
            yield "simplified rules use no Special Orders"
        if not self.options.get("simplified") and len(everything) != len(SPECIALS):
            yield f"the {len(SPECIALS)} Special Orders are not all in specials and special_stack"
        if self.phase in (ZAP,) and not 0 <= self.target < len(self.rhex):
            yield "a pending zap needs the zapped robot"
        if self.phase == BLOB and not 0 <= self.target < len(self.blobs):
            yield "a pending Blob move needs the Blob"
        if (self.phase == CRYSTAL) != bool(self.entering):
            yield "a crystal is entering exactly when the phase is 'crystal'"
        if self.phase == CRYSTAL and not self.entry_hexes():
            yield "no free hex for the entering crystal"
        if not 0 <= self.countdown <= 3:
            yield "countdown is 0 to 3"


def _tile_or_none(t: int) -> str | None:
    return TILE_NAMES[t] if t >= 0 else None
