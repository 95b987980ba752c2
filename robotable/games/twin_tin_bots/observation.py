"""Twin Tin Bots as feature planes, filled from a seat's view (see docs/research.md for the table).

Colours are relative: colour block 0 is the first colour the observing seat controls, then the colours
after it in the order of the view's ``colours`` (the spectator's block 0 is the first colour). Robots are
numbered ``2 * colour + robot`` (A, B). Hex planes are ``GRID x GRID`` over axial coordinates
``(q + RADIUS, r + RADIUS)`` of the largest board; cells off the board stay zero (plane ``board`` marks
the board). Not encoded: the order in which a Base received its crystals (only their kinds count), the
names of the robots and the options of the token variants (their tokens are on the board planes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from robotable.core.observation import ObservationEncoder, binary, scaled

from .components import (
    ALL_CRYSTALS,
    COLOUR_NAMES,
    COUNTDOWN,
    CRYSTAL_KINDS,
    CRYSTAL_NAMES,
    LAYOUTS,
    ORDER_COUNTS,
    ROBOTS_PER_COLOUR,
    SCORE_VICTORY,
    SLOTS_PER_ROBOT,
    SPECIALS,
    TILE_NAMES,
    TOKEN_LIMITS,
)
from .hexgrid import FACING_NAMES

MAX_COLOURS = len(COLOUR_NAMES)
MAX_SEATS = max(LAYOUTS)
RADIUS: int = max(layout["radius"] for layout in LAYOUTS.values())
GRID = 2 * RADIUS + 1
ROBOTS = MAX_COLOURS * ROBOTS_PER_COLOUR
SLOTS = ROBOTS_PER_COLOUR * SLOTS_PER_ROBOT
TILES = len(TILE_NAMES)
MAX_TILE_COUNT = max(ORDER_COUNTS.values())
PHASES = ("change", "run", "zap", "blob", "crystal", "over")
ROUND_BITS = 16
MAX_POINTS = 2 * max(SCORE_VICTORY.values())
_TILE = {name: i for i, name in enumerate(TILE_NAMES)}
_FACING = {name: i for i, name in enumerate(FACING_NAMES)}
_CRYSTAL = {CRYSTAL_NAMES[v]: i for i, v in enumerate(CRYSTAL_KINDS)}
_NAME = {name: i for i, name in enumerate(COLOUR_NAMES)}


def _cell(h: list[int]) -> int:
    """The flat cell of a hex ``[q, r]`` in a ``GRID x GRID`` plane."""
    return (h[0] + RADIUS) * GRID + h[1] + RADIUS


class TtbObservation(ObservationEncoder):
    """The planes of Twin Tin Bots (see the module docstring)."""

    def declare(self) -> None:
        g, c, r, k = GRID, MAX_COLOURS, ROBOTS, len(CRYSTAL_KINDS)
        self._boards: dict[int, dict[int, float]] = {}
        self.board = self.plane("board", (g, g), "1 on every hex of this game's board")
        self.robot = self.plane("robot", (r, g, g), "robot 2*colour+robot (A, B) stands on the hex")
        self.crystal = self.plane("crystal", (k, g, g), "a crystal of the kind (blue, green, pink) on the hex")
        self.base = self.plane("base", (c, g, g), "the colour's Base")
        self.rock = self.plane("rock", (g, g), "a Rock")
        self.mud = self.plane("mud", (g, g), "Mud")
        self.blob = self.plane("blob", (g, g), "a Blob")
        self.teleporter = self.plane(
            "teleporter", (TOKEN_LIMITS["teleporters"], g, g), "the two ends of each Teleporter pair"
        )
        self.entry = self.plane("crystal_entry", (g, g), "pending: a hex where the entering crystal may go")
        self.blob_pending = self.plane("blob_pending", (g, g), "pending: the Blob to move")
        self.facing = self.plane("robot_facing", (r, len(FACING_NAMES)), "the robot's facing (E, NE, NW, W, SW, SE)")
        self.cargo = self.plane("robot_cargo", (r, k), "the robot carries a crystal of the kind")
        self.running = self.plane("running", (r,), "the robot whose program is running")
        self.zap_target = self.plane("zap_target", (r,), "pending: the zapped robot whose order is chosen")
        self.colour_present = self.plane("colour_present", (c,), "1 if the colour plays")
        self.colour_name = self.plane("colour_name", (c, MAX_COLOURS), f"the colour ({', '.join(COLOUR_NAMES)})")
        self.controller = self.plane("controller", (c, MAX_SEATS), "the relative seat controlling the colour")
        self.teammate = self.plane("teammate", (c,), "the colour is on the observing seat's team")
        self.program = self.plane("program", (c, SLOTS, TILES), "the tile in each program slot (3 per robot)")
        self.hand = self.plane("hand", (c, TILES), f"tiles of each kind in the colour's hand / {MAX_TILE_COUNT}")
        self.revealed = self.plane("revealed", (c, TILES), "Special Orders the colour has revealed")
        self.hidden = self.plane("hidden_specials", (c,), f"face-down Special Orders / {len(SPECIALS)}")
        self.flags = self.plane("colour_flags", (c, 2), "double modification used, first turn done")
        self.delivered = self.plane(
            "delivered", (c, k), f"crystals of the kind in the colour's Base / {ALL_CRYSTALS // k}"
        )
        self.points = self.plane("points_in_base", (c,), f"points in the colour's Base / {MAX_POINTS}")
        self.turn_order = self.plane("turn_order", (c, MAX_COLOURS), "the colour's place in the turn order")
        self.active = self.plane("active", (c,), "the active colour")
        self.first = self.plane("first", (c,), "the first colour of the round")
        self.track = self.plane("track", (ALL_CRYSTALS, k), "the crystals waiting on the track, in order")
        self.stack = self.plane("special_stack", (1,), f"Special Orders left in the stack / {len(SPECIALS)}")
        self.round = self.plane("round", (ROUND_BITS,), "the round number in binary, lowest bit first")
        self.countdown = self.plane("countdown", (1,), f"countdown counters left / {COUNTDOWN}")
        self.end_phase = self.plane("end_phase", (1,), "the end phase has begun")
        self.phase = self.plane("phase", (len(PHASES),), "change / run / zap / blob / crystal / over")
        self.changes = self.plane("changes_left", (3,), "program changes left this turn: 0, 1, 2")
        self.victory = self.plane("score_victory", (1,), f"points that win / {MAX_POINTS}")
        self.to_act = self.plane("seat_to_act", (MAX_SEATS,), "the relative seat the game waits for")
        self.seat_number = self.plane("seat_number", (MAX_SEATS,), "the observing seat's own number")
        self.variant = self.plane("variant", (3,), "simplified, advanced 2-player, team play")

    def features(self, view: Mapping[str, Any], seat: int | None) -> dict[int, float]:
        out: dict[int, float] = dict(self._board(view["radius"]))
        colours = view["colours"]
        seats = view["num_players"]
        me = 0 if seat is None else seat
        mine = [i for i, entry in enumerate(colours) if entry["seat"] == seat]
        c0 = mine[0] if mine else 0
        index = {entry["colour"]: (i - c0) % len(colours) for i, entry in enumerate(colours)}
        robot_of = self._pieces(out, view, index)
        self._pending(out, view, robot_of)
        for entry in colours:
            self._colour(out, entry, index[entry["colour"]], me, seats, colours[c0]["team"], _cell)
        self._turn(out, view, index)
        for s in view["to_act"]:
            out[self.to_act.offset + (s - me) % seats] = 1.0
        if seat is not None:
            out[self.seat_number.offset + seat] = 1.0
        for j, key in enumerate(("simplified", "advanced_2p", "team_play")):
            if view["options"].get(key):
                out[self.variant.offset + j] = 1.0
        return out

    def _pieces(self, out: dict[int, float], view: Mapping[str, Any], index: Mapping[str, int]) -> dict[str, int]:
        """Robots (hex, facing, cargo), crystals and the variant tokens; returns each robot's number."""
        cells = GRID * GRID
        robot_of: dict[str, int] = {}
        for entry in view["robots"]:
            name = entry["robot"]
            rid = 2 * index[entry["colour"]] + (0 if name.endswith("A") else 1)
            robot_of[name] = rid
            out[self.robot.offset + rid * cells + _cell(entry["hex"])] = 1.0
            out[self.facing.offset + rid * len(FACING_NAMES) + _FACING[entry["facing"]]] = 1.0
            if entry["cargo"]:
                out[self.cargo.offset + rid * len(CRYSTAL_KINDS) + _CRYSTAL[entry["cargo"]]] = 1.0
        for item in view["crystals"]:
            out[self.crystal.offset + _CRYSTAL[item["crystal"]] * cells + _cell(item["hex"])] = 1.0
        for key, plane in (("rocks", self.rock), ("mud", self.mud), ("blobs", self.blob)):
            for h in view[key]:
                out[plane.offset + _cell(h)] = 1.0
        for j, (a, b) in enumerate(view["teleporters"]):
            out[self.teleporter.offset + j * cells + _cell(a)] = 1.0
            out[self.teleporter.offset + j * cells + _cell(b)] = 1.0
        return robot_of

    def _pending(self, out: dict[int, float], view: Mapping[str, Any], robot_of: Mapping[str, int]) -> None:
        """The decision the rules wait for (crystal entry hexes, the Blob, the zapped robot), the running robot."""
        pending = view["pending"]
        if pending is not None:
            if pending["type"] == "crystal":
                for h in pending["hexes"]:
                    out[self.entry.offset + _cell(h)] = 1.0
            elif pending["type"] == "blob":
                out[self.blob_pending.offset + _cell(pending["hex"])] = 1.0
            elif pending["type"] == "zap":
                out[self.zap_target.offset + robot_of[pending["robot"]]] = 1.0
        if view["running"] is not None:
            out[self.running.offset + robot_of[view["running"]]] = 1.0

    def _turn(self, out: dict[int, float], view: Mapping[str, Any], index: Mapping[str, int]) -> None:
        """Turn order, active and first colour, track, stack, round, countdown, phase, changes, target."""
        for place, name in enumerate(view["turn_order"]):
            out[self.turn_order.offset + index[name] * MAX_COLOURS + place] = 1.0
        out[self.active.offset + index[view["active"]]] = 1.0
        out[self.first.offset + index[view["first"]]] = 1.0
        for j, name in enumerate(view["track"]):
            out[self.track.offset + j * len(CRYSTAL_KINDS) + _CRYSTAL[name]] = 1.0
        if view["special_stack_count"]:
            out[self.stack.offset] = scaled(view["special_stack_count"], len(SPECIALS))
        for b, bit in enumerate(binary(view["round"], ROUND_BITS)):
            if bit:
                out[self.round.offset + b] = 1.0
        if view["countdown"]:
            out[self.countdown.offset] = scaled(view["countdown"], COUNTDOWN)
        if view["end_phase"]:
            out[self.end_phase.offset] = 1.0
        out[self.phase.offset + PHASES.index(view["phase"])] = 1.0
        out[self.changes.offset + min(view["changes_left"], 2)] = 1.0
        if view["score_victory"]:
            out[self.victory.offset] = scaled(view["score_victory"], MAX_POINTS)

    def _board(self, radius: int) -> dict[int, float]:
        """The ``board`` plane's features for a board of ``radius`` (remembered)."""
        cached = self._boards.get(radius)
        if cached is None:
            cached = self._boards[radius] = {
                self.board.offset + (q + RADIUS) * GRID + r + RADIUS: 1.0
                for q in range(-radius, radius + 1)
                for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1)
            }
        return cached

    def _colour(
        self, out: dict[int, float], entry: Mapping[str, Any], k: int, me: int, seats: int, team: int, cell: Any
    ) -> None:
        out[self.colour_present.offset + k] = 1.0
        out[self.colour_name.offset + k * MAX_COLOURS + _NAME[entry["colour"]]] = 1.0
        out[self.controller.offset + k * MAX_SEATS + (entry["seat"] - me) % seats] = 1.0
        if entry["team"] == team:
            out[self.teammate.offset + k] = 1.0
        out[self.base.offset + k * GRID * GRID + cell(entry["base"])] = 1.0
        at = self.program.offset + k * SLOTS * TILES
        for slot, tile in enumerate(entry["program"]):
            if tile is not None:
                out[at + slot * TILES + _TILE[tile]] = 1.0
        at = self.hand.offset + k * TILES
        for tile, count in entry["hand"].items():
            if count:
                out[at + _TILE[tile]] = scaled(count, MAX_TILE_COUNT)
        at = self.revealed.offset + k * TILES
        for tile in entry["revealed"]:
            out[at + _TILE[tile]] = 1.0
        if entry["hidden_specials"]:
            out[self.hidden.offset + k] = scaled(entry["hidden_specials"], len(SPECIALS))
        for j, key in enumerate(("double_modification_used", "first_turn_done")):
            if entry[key]:
                out[self.flags.offset + 2 * k + j] = 1.0
        kinds = len(CRYSTAL_KINDS)
        for name in entry["delivered"]:
            i = self.delivered.offset + k * kinds + _CRYSTAL[name]
            out[i] = out.get(i, 0.0) + kinds / ALL_CRYSTALS
        if entry["points_in_base"]:
            out[self.points.offset + k] = scaled(entry["points_in_base"], MAX_POINTS)


OBSERVATION = TtbObservation()
