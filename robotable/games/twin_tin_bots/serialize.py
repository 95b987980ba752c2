"""The state of a game of Twin Tin Bots in JSON: :func:`to_json`, and :func:`read` with the core's
policy (:mod:`robotable.core.state_json`): every field required, every error naming its field, every
impossible value refused. Positions written by hand: :mod:`.positions` fills in the rest."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from robotable.core import BadInput, BadOptions, Game, Rng
from robotable.core.state_json import StateReader

from .board import Board
from .components import (
    COUNTDOWN,
    CRYSTAL_KINDS,
    CRYSTAL_NAMES,
    CRYSTAL_VALUES,
    ROBOTS_PER_COLOUR,
    SLOTS_PER_ROBOT,
    TILE_NAMES,
    parse_tile,
)
from .hexgrid import FACING_NAMES, Hex, parse_facing
from .orders import OPS_BY_TILE
from .phases import BLOB, CHANGE, CRYSTAL, OVER, PHASES, ZAP, RunPoint
from .programs import EMPTY, tile_or_none

if TYPE_CHECKING:
    from .state import TtbState

GAME_ID = "twin-tin-bots"


# -- writing ---------------------------------------------------------------------------------------


def to_json(st: TtbState) -> dict[str, Any]:
    """The full state, RNG included (exact round trip through :func:`read`)."""
    names = st.colours
    return {
        "game": GAME_ID,
        "num_players": st.num_players,
        "seed": st.seed,
        "options": dict(st.options),
        "rng": st.rng.to_json(),
        "colours": list(names),
        "controllers": list(st.controller),
        "teams": list(st.team),
        "turn_order": [names[c] for c in st.order],
        **_board_json(st),
        "blobs": [list(h) for h in st.blobs],
        "robots": _robots_json(st),
        **_crystals_json(st),
        **_tiles_json(st),
        "double_modification_used": {names[c]: u for c, u in enumerate(st.dm_used)},
        "first_turn_done": {names[c]: u for c, u in enumerate(st.first_done)},
        "round": st.round,
        "turn": st.turn,
        "countdown": st.countdown,
        "end_phase": st.end_phase,
        "phase": PHASES[st.phase],
        "changes_left": st.changes_left,
        "run": {"robot": "AB"[st.run_at.robot], "slot": st.run_at.slot, "op": st.run_at.op},
        "stuck": [st.names[r] for r in range(len(st.rhex)) if st.stuck[r]],
        "pending": _pending_json(st),
        "victor": st.victor if st.victor >= 0 else None,
        "end_reason": st.end_reason,
    }


def _board_json(st: TtbState) -> dict[str, Any]:
    """The board: radius, bases, rocks, teleporters and mud."""
    names = st.colours
    return {
        "radius": st.board.radius,
        "bases": {names[c]: list(h) for c, h in enumerate(st.board.bases)},
        "rocks": [list(h) for h in sorted(st.board.rocks)],
        "teleporters": [[list(a), list(b)] for a, b in st.board.teleporters],
        "mud": [list(h) for h in sorted(st.board.mud)],
    }


def _crystals_json(st: TtbState) -> dict[str, Any]:
    """Crystals on the ground, the Crystal track, those unused and those delivered."""
    names = st.colours
    return {
        "crystals": [{"hex": list(h), "crystal": CRYSTAL_NAMES[v]} for h, v in sorted(st.ground.items())],
        "track": [CRYSTAL_NAMES[v] for v in st.track],
        "unused": {CRYSTAL_NAMES[v]: st.unused[i] for i, v in enumerate(CRYSTAL_KINDS)},
        "delivered": {names[c]: [CRYSTAL_NAMES[v] for v in d] for c, d in enumerate(st.delivered)},
    }


def _tiles_json(st: TtbState) -> dict[str, Any]:
    """Programs, special tiles in hand and revealed, and the special stack."""
    names = st.colours
    return {
        "programs": {names[c]: [tile_or_none(t) for t in p] for c, p in enumerate(st.programs)},
        "specials": {names[c]: [TILE_NAMES[t] for t in s] for c, s in enumerate(st.specials)},
        "revealed": {names[c]: [TILE_NAMES[t] for t in s] for c, s in enumerate(st.revealed)},
        "special_stack": [TILE_NAMES[t] for t in st.stack],
    }


def _robots_json(st: TtbState) -> dict[str, list[dict[str, Any]]]:
    robots: dict[str, list[dict[str, Any]]] = {n: [] for n in st.colours}
    for r in range(len(st.rhex)):
        robots[st.colours[st.robot_colour(r)]].append(
            {
                "hex": list(st.rhex[r]),
                "facing": FACING_NAMES[st.rface[r]],
                "cargo": CRYSTAL_NAMES[st.rcargo[r]] if st.rcargo[r] else None,
            }
        )
    return robots


def _pending_json(st: TtbState) -> dict[str, Any] | None:
    if st.phase == ZAP:
        return {"robot": st.names[st.target]}
    if st.phase == BLOB:
        return {"blob": st.target}
    if st.phase == CRYSTAL:
        return {"crystal": CRYSTAL_NAMES[st.entering]}
    return None


# -- reading ---------------------------------------------------------------------------------------


def read(game: Game, data: object) -> TtbState:
    """A state from its JSON (see docs/games/twin-tin-bots.md); :class:`BadInput` names the field."""
    return _StateReader(game, data).read()


def parse_hex(value: object, where: str, error: type[BadInput] = BadInput) -> Hex:
    """A hex from ``[q, r]``."""
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    raise error(f"{where}: a hex is [q, r] (two integers), got {value!r}")


class _StateReader(StateReader):
    """Reads a state's JSON part by part. The fixed facts of the layout (colours, arena, robots per
    colour) come from a new game with the same players, seed and options, and must match."""

    def __init__(self, game: Game, data: object) -> None:
        super().__init__(GAME_ID, data)
        self.ttb = game

    # -- values --

    def hex_(self, value: object, where: str) -> Hex:
        try:
            return parse_hex(value, "")
        except BadInput:
            raise self.fail(where, f"a hex is [q, r] (two integers), got {value!r}") from None

    def hexes(self, key: str) -> list[Hex]:
        return [self.hex_(h, f"{key}[{i}]") for i, h in enumerate(self.list(key))]

    def crystal(self, value: object, where: str) -> int:
        return self.name(value, CRYSTAL_VALUES, where, "crystal")

    def tile(self, value: object, where: str, allow_none: bool = False) -> int:
        if value is None and allow_none:
            return EMPTY
        t = parse_tile(value)
        if t is None:
            raise self.fail(where, f"unknown tile {value!r} (one of {', '.join(TILE_NAMES)})")
        return t

    def per_colour(self, key: str, names: tuple[str, ...], tp: Any = Any) -> list[Any]:
        value = self.field(key, dict[str, tp])
        if set(value) != set(names):
            raise self.fail(key, f"expected an object with one entry per colour {list(names)}, got {sorted(value)!r}")
        return [value[n] for n in names]

    def tile_lists(self, key: str, names: tuple[str, ...]) -> list[list[int]]:
        return [
            [self.tile(t, f"{key}.{names[c]}[{i}]") for i, t in enumerate(tiles)]
            for c, tiles in enumerate(self.per_colour(key, names, list[Any]))
        ]

    # -- the state, part by part --

    def read(self) -> TtbState:
        state = self._new_game()
        self._seating(state)
        self._board(state)
        self._robots(state)
        self._crystals(state)
        self._tiles(state)
        self._clock(state)
        self._stuck(state)
        self._phase(state)
        self._ending(state)
        try:
            state.check_invariants()
        except BadInput as exc:
            raise self.fail_state(str(exc).removeprefix(f"{GAME_ID} state: ")) from None
        return state

    def _new_game(self) -> TtbState:
        self.game(GAME_ID)
        n = self.int("num_players", self.ttb.min_players, self.ttb.max_players)
        seed = self.int("seed", 0)
        options = self.field("options", dict[str, Any])
        try:
            # Game.start is typed State; this game's start makes a TtbState
            state: TtbState = self.ttb.start(n, seed=seed, options=options)  # type: ignore[assignment]
        except BadOptions as exc:
            raise self.fail("options", str(exc)) from None
        try:
            state.rng = Rng.from_json(self.field("rng"))
        except BadInput as exc:
            raise self.fail("rng", str(exc)) from None
        return state

    def _seating(self, state: TtbState) -> None:
        names = state.colours
        given = self.list("colours")
        if not all(isinstance(x, str) for x in given) or sorted(given) != sorted(names):
            raise self.fail("colours", f"these options and players use the colours {list(names)}, got {given!r}")
        if tuple(given) != names:
            raise self.fail("colours", f"colours are listed clockwise: {list(names)}")
        for key, attr in (("controllers", "controller"), ("teams", "team")):
            value = self.list(key, int)
            if value != list(getattr(state, attr)):
                raise self.fail(
                    key,
                    f"{state.num_players} players with these options seat the colours {list(names)} as "
                    f"{list(getattr(state, attr))} (each seat its own team unless team_play or advanced_2p), "
                    f"got {value}",
                )
        order = self.list("turn_order")
        if not all(isinstance(x, str) for x in order) or sorted(order) != sorted(names):
            raise self.fail("turn_order", f"each of {list(names)} once, got {order!r}")
        state.order = tuple(names.index(x) for x in order)

    def _board(self, state: TtbState) -> None:
        names = state.colours
        radius = state.board.radius
        if self.field("radius") != radius:
            raise self.fail("radius", f"{state.num_players} players use radius {radius}")
        bases = [self.hex_(h, f"bases.{names[c]}") for c, h in enumerate(self.per_colour("bases", names))]
        state.board = Board(radius, bases, self.hexes("rocks"), self._teleporters(), self.hexes("mud"))
        for h in sorted(state.board.mud):
            self._check_mud(state.board, h)
        state.blobs = self.hexes("blobs")

    def _check_mud(self, board: Board, h: Hex) -> None:
        """Mud lies on a board hex that robots can enter: not a Base, Rock or Teleporter."""
        if h not in board.hexes:
            raise self.fail("mud", f"{list(h)} is off the board")
        for what, where in (("Base", board.base_at), ("Rock", board.rocks), ("Teleporter", board.tele)):
            if h in where:
                raise self.fail("mud", f"{list(h)} is on a {what}: Mud goes on a hex robots can enter")

    def _teleporters(self) -> list[tuple[Hex, Hex]]:
        tele = []
        for i, pair in enumerate(self.list("teleporters", list[Any])):
            if len(pair) != 2:
                raise self.fail(f"teleporters[{i}]", "a pair of hexes")
            tele.append((self.hex_(pair[0], f"teleporters[{i}][0]"), self.hex_(pair[1], f"teleporters[{i}][1]")))
        return tele

    def _robots(self, state: TtbState) -> None:
        names = state.colours
        per = state.robots_per
        rhex, rface, rcargo = [], [], []
        for c, robots in enumerate(self.per_colour("robots", names, list[Any])):
            if len(robots) != per:
                raise self.fail(
                    f"robots.{names[c]}", f"{per} robot(s) per colour with these options, got {len(robots)}"
                )
            for k, robot in enumerate(robots):
                h, facing, cargo = self._robot(self.at(f"robots.{names[c]}", k, robot))
                rhex.append(h)
                rface.append(facing)
                rcargo.append(cargo)
        state.rhex, state.rface, state.rcargo = rhex, rface, rcargo

    def _robot(self, robot: StateReader) -> tuple[Hex, int, int]:
        if set(robot.data) != {"hex", "facing", "cargo"}:
            raise self.fail(robot.path, f'expected {{"hex": [q, r], "facing": "E", "cargo": null}}, got {robot.data!r}')
        h = self.hex_(robot.data["hex"], robot.where("hex"))
        facing = parse_facing(robot.data["facing"])
        if facing is None:
            raise self.fail(robot.where("facing"), f"one of E, NE, NW, W, SW, SE, got {robot.data['facing']!r}")
        cargo = robot.data["cargo"]
        return h, facing, 0 if cargo is None else self.crystal(cargo, robot.where("cargo"))

    def _crystals(self, state: TtbState) -> None:
        names = state.colours
        state.ground = {}
        for i, item in enumerate(self.list("crystals")):
            where = f"crystals[{i}]"
            if not isinstance(item, Mapping) or set(item) != {"hex", "crystal"}:
                raise self.fail(where, f'expected {{"hex": [q, r], "crystal": name}}, got {item!r}')
            h = self.hex_(item["hex"], where + ".hex")
            if h in state.ground:
                raise self.fail(where, f"two crystals on {list(h)}")
            state.ground[h] = self.crystal(item["crystal"], where + ".crystal")
        state.track = [self.crystal(x, f"track[{i}]") for i, x in enumerate(self.list("track"))]
        state.delivered = [
            [self.crystal(x, f"delivered.{names[c]}[{i}]") for i, x in enumerate(crystals)]
            for c, crystals in enumerate(self.per_colour("delivered", names, list[Any]))
        ]
        unused = self.field("unused", dict[str, int])
        if set(unused) != set(CRYSTAL_VALUES):
            raise self.fail("unused", f"a count for each of {list(CRYSTAL_VALUES)}")
        state.unused = [unused[CRYSTAL_NAMES[v]] for v in CRYSTAL_KINDS]

    def _tiles(self, state: TtbState) -> None:
        names = state.colours
        state.programs = [self._program(v, names[c]) for c, v in enumerate(self.per_colour("programs", names))]
        state.specials = self.tile_lists("specials", names)
        state.revealed = self.tile_lists("revealed", names)
        state.stack = [self.tile(t, f"special_stack[{i}]") for i, t in enumerate(self.list("special_stack"))]
        state.dm_used = self.per_colour("double_modification_used", names, bool)
        state.first_done = self.per_colour("first_turn_done", names, bool)

    def _program(self, value: object, name: str) -> list[int]:
        slots = ROBOTS_PER_COLOUR * SLOTS_PER_ROBOT
        if not isinstance(value, list) or len(value) != slots:
            raise self.fail(f"programs.{name}", f"{slots} slots (null for empty), got {value!r}")
        return [self.tile(t, f"programs.{name}[{i}]", True) for i, t in enumerate(value)]

    def _clock(self, state: TtbState) -> None:
        state.round = self.int("round", 1)
        state.turn = self.int("turn", 0, len(state.colours) - 1)
        state.countdown = self.int("countdown", 0, COUNTDOWN)
        state.end_phase = self.field("end_phase", bool)
        if state.countdown < COUNTDOWN and not state.end_phase:
            raise self.fail("countdown", f"Countdown counters are discarded only in the end phase: {COUNTDOWN}")

    def _stuck(self, state: TtbState) -> None:
        stuck = self.list("stuck", str)
        for x in stuck:
            if x not in state.names:
                raise self.fail("stuck", f"unknown robot {x!r} (robots: {', '.join(state.names)})")
        state.stuck = [name in stuck for name in state.names]

    def _phase(self, state: TtbState) -> None:
        phases = [p for p in PHASES if p != "run"]
        state.phase = PHASES.index(self.choice("phase", phases))
        state.changes_left = self.int("changes_left")
        state.run_at = self._run_point(state, self.object("run"))
        self._pending(state, self.field("pending"))
        self._check_changes_left(state)

    def _check_changes_left(self, state: TtbState) -> None:
        """Programming: the first turn's placements still due, else 1 (2 right after a Double
        Modification); 0 once the programs run."""
        c = state.active
        due = state.first_turn_placements(c)
        if state.phase != CHANGE:
            allowed, why = [0], f"0 once programming is over (phase {PHASES[state.phase]!r})"
        elif due:
            allowed, why = [due], f"{state.colours[c]}'s first turn: the {due} placement(s) still due"
        elif state.dm_used[c]:
            allowed, why = [1, 2], "1, or 2 after a Double Modification"
        else:
            allowed, why = [1], f"1 ({state.colours[c]} has not used its Double Modification)"
        if state.changes_left not in allowed:
            raise self.fail("changes_left", f"must be {why}, got {state.changes_left}")

    def _run_point(self, state: TtbState, run: StateReader) -> RunPoint:
        k = "AB".index(run.choice("robot", "AB"[: state.robots_per]))
        return RunPoint(k, run.int("slot", 0, SLOTS_PER_ROBOT), run.int("op", 0, max(map(len, OPS_BY_TILE))))

    def _pending(self, state: TtbState, pending: object) -> None:
        state.target, state.entering = -1, 0
        if state.phase == ZAP:
            if not isinstance(pending, Mapping) or pending.get("robot") not in state.names:
                raise self.fail("pending", f'a zap needs {{"robot": name}} (one of {", ".join(state.names)})')
            state.target = state.names.index(pending["robot"])
        elif state.phase == BLOB:
            if not isinstance(pending, Mapping) or not isinstance(pending.get("blob"), int):
                raise self.fail("pending", 'a Blob move needs {"blob": index in blobs}')
            state.target = pending["blob"]
        elif state.phase == CRYSTAL:
            if not isinstance(pending, Mapping) or "crystal" not in pending:
                raise self.fail("pending", 'a crystal entry needs {"crystal": name}')
            state.entering = self.crystal(pending["crystal"], "pending.crystal")
        elif pending is not None:
            raise self.fail("pending", f"null in phase {PHASES[state.phase]!r}")

    def _ending(self, state: TtbState) -> None:
        victor = self.field("victor", int | None)
        state.victor = -1 if victor is None else victor
        state.end_reason = self.field("end_reason", str)
        if victor is not None:
            self._check_victor(state, victor)
        if (state.phase == OVER) != bool(state.end_reason):
            raise self.fail("end_reason", "why the game ended, exactly when the phase is 'over' (else empty)")

    def _check_victor(self, state: TtbState, seat: int) -> None:
        """A score victory: a seat whose crystals in Bases reached the target, in a game that is over."""
        n = state.num_players
        target = state.score_target()
        if not 0 <= seat < n:
            raise self.fail("victor", f"a seat 0-{n - 1} or null, got {seat}")
        if target is None:
            raise self.fail("victor", "Team play has no score victory: null")
        if state.phase != OVER:
            raise self.fail("victor", f"a score victory ends the game: null in phase {PHASES[state.phase]!r}")
        points = sum(sum(state.delivered[c]) for c in state.seat_colours(seat))
        if points < target:
            raise self.fail("victor", f"seat {seat} has {points} points in Bases, short of the {target} that win")
