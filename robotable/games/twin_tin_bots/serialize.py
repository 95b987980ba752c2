"""The state of a game of Twin Tin Bots in JSON: :func:`to_json`, and :func:`read` for states written
by ``to_json`` or by hand (docs/games/twin-tin-bots.md). Every error names the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from robotable.core import BadInput, BadOptions, Game, Rng

from .board import Board
from .components import (
    CRYSTAL_KINDS,
    CRYSTAL_NAMES,
    CRYSTALS_PER_KIND,
    ROBOTS_PER_COLOUR,
    SLOTS_PER_ROBOT,
    SPECIALS,
    TILE_NAMES,
    parse_crystal,
    parse_tile,
)
from .hexgrid import FACING_NAMES, Hex, parse_facing
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
        "radius": st.board.radius,
        "bases": {names[c]: list(h) for c, h in enumerate(st.board.bases)},
        "rocks": [list(h) for h in sorted(st.board.rocks)],
        "teleporters": [[list(a), list(b)] for a, b in st.board.teleporters],
        "mud": [list(h) for h in sorted(st.board.mud)],
        "blobs": [list(h) for h in st.blobs],
        "robots": _robots_json(st),
        "crystals": [{"hex": list(h), "crystal": CRYSTAL_NAMES[v]} for h, v in sorted(st.ground.items())],
        "track": [CRYSTAL_NAMES[v] for v in st.track],
        "unused": {CRYSTAL_NAMES[v]: st.unused[i] for i, v in enumerate(CRYSTAL_KINDS)},
        "delivered": {names[c]: [CRYSTAL_NAMES[v] for v in d] for c, d in enumerate(st.delivered)},
        "programs": {names[c]: [tile_or_none(t) for t in p] for c, p in enumerate(st.programs)},
        "specials": {names[c]: [TILE_NAMES[t] for t in s] for c, s in enumerate(st.specials)},
        "revealed": {names[c]: [TILE_NAMES[t] for t in s] for c, s in enumerate(st.revealed)},
        "special_stack": [TILE_NAMES[t] for t in st.stack],
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


class _StateReader:
    """Reads a state's JSON field by field, naming the field in every error. Any field left out takes
    its value from a new game with the same ``num_players``, ``seed`` and ``options``."""

    def __init__(self, game: Game, data: object) -> None:
        if not isinstance(data, Mapping):
            raise BadInput(f"{GAME_ID} state: expected a JSON object")
        self.game = game
        self.data = data

    # -- values --

    def fail(self, where: str, problem: str) -> BadInput:
        return BadInput(f"{GAME_ID} state: field {where}: {problem}")

    def int_(self, value: object, where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(where, f"expected an integer, got {value!r}")
        return value

    def bool_(self, value: object, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"expected true or false, got {value!r}")
        return value

    def list_(self, value: object, where: str) -> list[Any]:
        if not isinstance(value, list | tuple):
            raise self.fail(where, f"expected a list, got {value!r}")
        return list(value)

    def hex_(self, value: object, where: str) -> Hex:
        try:
            return parse_hex(value, "")
        except BadInput:
            raise self.fail(where, f"a hex is [q, r], got {value!r}") from None

    def hexes(self, key: str) -> list[Hex]:
        return [self.hex_(h, f"'{key}'[{i}]") for i, h in enumerate(self.list_(self.data[key], f"'{key}'"))]

    def crystal(self, value: object, where: str) -> int:
        v = parse_crystal(value)
        if v is None:
            raise self.fail(where, f"a crystal is one of {', '.join(CRYSTAL_NAMES.values())}, got {value!r}")
        return v

    def tile(self, value: object, where: str, allow_none: bool = False) -> int:
        if value is None and allow_none:
            return EMPTY
        t = parse_tile(value)
        if t is None:
            raise self.fail(where, f"unknown tile {value!r} (one of {', '.join(TILE_NAMES)})")
        return t

    def per_colour(self, key: str, names: tuple[str, ...]) -> list[Any]:
        value = self.data[key]
        if not isinstance(value, Mapping) or set(value) != set(names):
            got = sorted(value) if isinstance(value, Mapping) else value
            raise self.fail(key, f"expected an object with one entry per colour {list(names)}, got {got!r}")
        return [value[n] for n in names]

    def tile_lists(self, key: str, names: tuple[str, ...]) -> list[list[int]]:
        return [
            [self.tile(t, f"'{key}'.{names[c]}[{i}]") for i, t in enumerate(self.list_(v, f"'{key}'.{names[c]}"))]
            for c, v in enumerate(self.per_colour(key, names))
        ]

    # -- the state, part by part --

    def read(self) -> TtbState:
        state = self._new_game()
        self._seating(state)
        self._board(state)
        if "robots" in self.data:
            self._robots(state)
        self._crystals(state)
        self._tiles(state)
        self._clock(state)
        self._stuck(state)
        self._phase(state)
        self._unused(state)
        self._ending(state)
        state.check_invariants()
        return state

    def _new_game(self) -> TtbState:
        d = self.data
        game_id = d.get("game", GAME_ID)
        if game_id != GAME_ID:
            raise BadInput(f"{GAME_ID} state: this is a state of {game_id!r}")
        if "num_players" not in d:
            raise self.fail("'num_players'", "missing")
        n = self.int_(d["num_players"], "'num_players'")
        seed = self.int_(d.get("seed", 0), "'seed'")
        if seed < 0:
            raise self.fail("'seed'", "must be non-negative")
        try:
            state: TtbState = self.game.start(n, seed=seed, options=d.get("options", {}))  # type: ignore[assignment]
        except BadOptions as exc:
            raise BadInput(f"{GAME_ID} state: {exc}") from None
        if "rng" in d:
            try:
                state.rng = Rng.from_json(d["rng"])
            except BadInput as exc:
                raise self.fail("'rng'", str(exc)) from None
        return state

    def _seating(self, state: TtbState) -> None:
        d = self.data
        names = state.colours
        n = state.num_players
        if "colours" in d:
            given = self.list_(d["colours"], "'colours'")
            if not all(isinstance(x, str) for x in given) or sorted(given) != sorted(names):
                raise self.fail("'colours'", f"these options and players use the colours {list(names)}, got {given!r}")
            if tuple(given) != names:
                raise self.fail("'colours'", f"colours are listed clockwise: {list(names)}")
        for key, attr in (("controllers", "controller"), ("teams", "team")):
            if key in d:
                value = [self.int_(x, f"'{key}'") for x in self.list_(d[key], f"'{key}'")]
                if len(value) != len(names):
                    raise self.fail(f"'{key}'", f"one entry per colour ({len(names)}), got {len(value)}")
                if tuple(value) != getattr(state, attr):
                    raise self.fail(
                        f"'{key}'",
                        f"{n} players with these options seat the colours {list(names)} as {list(getattr(state, attr))}"
                        f" (each seat its own team unless team_play or advanced_2p), got {value}",
                    )
        if "turn_order" in d:
            order = self.list_(d["turn_order"], "'turn_order'")
            if not all(isinstance(x, str) for x in order) or sorted(order) != sorted(names):
                raise self.fail("'turn_order'", f"each of {list(names)} once, got {order!r}")
            state.order = tuple(names.index(x) for x in order)

    def _board(self, state: TtbState) -> None:
        d = self.data
        names = state.colours
        radius = state.board.radius
        if "radius" in d and d["radius"] != radius:
            raise self.fail("'radius'", f"{state.num_players} players use radius {radius}")
        bases = list(state.board.bases)
        if "bases" in d:
            bases = [self.hex_(h, f"'bases'.{names[c]}") for c, h in enumerate(self.per_colour("bases", names))]
        rocks = self.hexes("rocks") if "rocks" in d else sorted(state.board.rocks)
        mud = self.hexes("mud") if "mud" in d else sorted(state.board.mud)
        tele = self._teleporters() if "teleporters" in d else list(state.board.teleporters)
        state.board = Board(radius, bases, rocks, tele, mud)
        for h in mud:
            self._check_mud(state.board, h)
        if "blobs" in d:
            state.blobs = self.hexes("blobs")

    def _check_mud(self, board: Board, h: Hex) -> None:
        """Mud lies on a board hex that robots can enter: not a Base, Rock or Teleporter."""
        if h not in board.hexes:
            raise self.fail("'mud'", f"{list(h)} is off the board")
        for what, where in (("Base", board.base_at), ("Rock", board.rocks), ("Teleporter", board.tele)):
            if h in where:
                raise self.fail("'mud'", f"{list(h)} is on a {what}: Mud goes on a hex robots can enter")

    def _teleporters(self) -> list[tuple[Hex, Hex]]:
        tele = []
        for i, pair in enumerate(self.list_(self.data["teleporters"], "'teleporters'")):
            pair = self.list_(pair, f"'teleporters'[{i}]")
            if len(pair) != 2:
                raise self.fail(f"'teleporters'[{i}]", "a pair of hexes")
            tele.append((self.hex_(pair[0], f"'teleporters'[{i}][0]"), self.hex_(pair[1], f"'teleporters'[{i}][1]")))
        return tele

    def _robots(self, state: TtbState) -> None:
        names = state.colours
        per = state.robots_per
        rhex, rface, rcargo = [], [], []
        for c, robots in enumerate(self.per_colour("robots", names)):
            robots = self.list_(robots, f"'robots'.{names[c]}")
            if len(robots) != per:
                raise self.fail(
                    f"'robots'.{names[c]}", f"{per} robot(s) per colour with these options, got {len(robots)}"
                )
            for k, robot in enumerate(robots):
                h, facing, cargo = self._robot(robot, f"'robots'.{names[c]}[{k}]")
                rhex.append(h)
                rface.append(facing)
                rcargo.append(cargo)
        state.rhex, state.rface, state.rcargo = rhex, rface, rcargo
        state.stuck = [False] * len(rhex)

    def _robot(self, robot: object, where: str) -> tuple[Hex, int, int]:
        if not isinstance(robot, Mapping) or not {"hex", "facing"} <= set(robot) <= {"hex", "facing", "cargo"}:
            raise self.fail(where, f'expected {{"hex": [q, r], "facing": "E", "cargo": null}}, got {robot!r}')
        h = self.hex_(robot["hex"], where + ".hex")
        facing = parse_facing(robot["facing"])
        if facing is None:
            raise self.fail(where + ".facing", f"one of E, NE, NW, W, SW, SE, got {robot['facing']!r}")
        cargo = robot.get("cargo")
        return h, facing, 0 if cargo is None else self.crystal(cargo, where + ".cargo")

    def _crystals(self, state: TtbState) -> None:
        d = self.data
        names = state.colours
        if "crystals" in d:
            state.ground = {}
            for i, item in enumerate(self.list_(d["crystals"], "'crystals'")):
                where = f"'crystals'[{i}]"
                if not isinstance(item, Mapping) or set(item) != {"hex", "crystal"}:
                    raise self.fail(where, f'expected {{"hex": [q, r], "crystal": name}}, got {item!r}')
                h = self.hex_(item["hex"], where + ".hex")
                if h in state.ground:
                    raise self.fail(where, f"two crystals on {list(h)}")
                state.ground[h] = self.crystal(item["crystal"], where + ".crystal")
        if "track" in d:
            state.track = [self.crystal(x, f"'track'[{i}]") for i, x in enumerate(self.list_(d["track"], "'track'"))]
        if "delivered" in d:
            state.delivered = [
                [
                    self.crystal(x, f"'delivered'.{names[c]}[{i}]")
                    for i, x in enumerate(self.list_(v, f"'delivered'.{names[c]}"))
                ]
                for c, v in enumerate(self.per_colour("delivered", names))
            ]

    def _tiles(self, state: TtbState) -> None:
        d = self.data
        names = state.colours
        if "programs" in d:
            state.programs = [self._program(v, names[c]) for c, v in enumerate(self.per_colour("programs", names))]
        for key in ("specials", "revealed"):
            if key in d:
                setattr(state, key, self.tile_lists(key, names))
        if "revealed" not in d and ("programs" in d or "specials" in d):
            # Hand-written positions: specials already on a board count as revealed.
            state.revealed = [[t for t in state.programs[c] if t in SPECIALS] for c in range(len(names))]
        if "special_stack" in d:
            state.stack = [
                self.tile(t, f"'special_stack'[{i}]")
                for i, t in enumerate(self.list_(d["special_stack"], "'special_stack'"))
            ]
        elif "specials" in d:
            owned = {t for s in state.specials for t in s}
            state.stack = [t for t in state.stack if t not in owned] + [
                t for t in SPECIALS if t not in owned and t not in state.stack and not state.options["simplified"]
            ]
        for key, attr in (("double_modification_used", "dm_used"), ("first_turn_done", "first_done")):
            if key in d:
                setattr(
                    state,
                    attr,
                    [self.bool_(v, f"'{key}'.{names[c]}") for c, v in enumerate(self.per_colour(key, names))],
                )
            elif key == "first_turn_done" and "programs" in d:
                # Hand-written positions: a colour with tiles on its board has had its first turn.
                state.first_done = [any(t >= 0 for t in p) for p in state.programs]

    def _program(self, value: object, name: str) -> list[int]:
        slots = ROBOTS_PER_COLOUR * SLOTS_PER_ROBOT
        prog = self.list_(value, f"'programs'.{name}")
        if len(prog) != slots:
            raise self.fail(f"'programs'.{name}", f"{slots} slots (null for empty), got {len(prog)}")
        return [self.tile(t, f"'programs'.{name}[{i}]", True) for i, t in enumerate(prog)]

    def _clock(self, state: TtbState) -> None:
        d = self.data
        for key in ("round", "turn", "countdown"):
            if key in d:
                setattr(state, key, self.int_(d[key], f"'{key}'"))
        if not 0 <= state.turn < len(state.colours):
            raise self.fail("'turn'", f"an index in turn_order (0 to {len(state.colours) - 1})")
        if state.round < 1:
            raise self.fail("'round'", "rounds start at 1")
        if "end_phase" in d:
            state.end_phase = self.bool_(d["end_phase"], "'end_phase'")

    def _stuck(self, state: TtbState) -> None:
        if "stuck" not in self.data:
            state.stuck = [h in state.board.mud for h in state.rhex]
            return
        stuck = self.list_(self.data["stuck"], "'stuck'")
        robot_names = list(state.names)
        for x in stuck:
            if x not in robot_names:
                raise self.fail("'stuck'", f"unknown robot {x!r} (robots: {', '.join(robot_names)})")
        state.stuck = [name in stuck for name in robot_names]

    def _phase(self, state: TtbState) -> None:
        d = self.data
        phase = d.get("phase", "change")
        if phase not in PHASES or phase == "run":
            raise self.fail("'phase'", f"one of change, zap, blob, crystal, over; got {phase!r}")
        state.phase = PHASES.index(phase)
        if "changes_left" in d:
            state.changes_left = self.int_(d["changes_left"], "'changes_left'")
        else:
            state.changes_left = state.first_turn_placements(state.active) or 1 if state.phase == CHANGE else 0
        if "run" in d:
            state.run_at = self._run_point(state, d["run"])
        self._pending(state, d.get("pending"))
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
            raise self.fail("'changes_left'", f"must be {why}, got {state.changes_left}")

    def _run_point(self, state: TtbState, run: object) -> RunPoint:
        if not isinstance(run, Mapping) or set(run) != {"robot", "slot", "op"} or run["robot"] not in ("A", "B"):
            raise self.fail("'run'", f'expected {{"robot": "A" or "B", "slot": 0-2, "op": n}}, got {run!r}')
        k = "AB".index(run["robot"])
        slot, op = self.int_(run["slot"], "'run'.slot"), self.int_(run["op"], "'run'.op")
        if k >= state.robots_per or not 0 <= slot <= SLOTS_PER_ROBOT or op < 0:
            raise self.fail("'run'", f"no such point in the programs: {run!r}")
        return RunPoint(k, slot, op)

    def _pending(self, state: TtbState, pending: object) -> None:
        state.target, state.entering = -1, 0
        if state.phase == ZAP:
            names = list(state.names)
            if not isinstance(pending, Mapping) or pending.get("robot") not in names:
                raise self.fail("'pending'", f'a zap needs {{"robot": name}} (one of {", ".join(names)})')
            state.target = names.index(pending["robot"])
        elif state.phase == BLOB:
            if not isinstance(pending, Mapping) or "blob" not in pending:
                raise self.fail("'pending'", 'a Blob move needs {"blob": index in blobs}')
            state.target = self.int_(pending["blob"], "'pending'.blob")
        elif state.phase == CRYSTAL:
            if not isinstance(pending, Mapping) or "crystal" not in pending:
                raise self.fail("'pending'", 'a crystal entry needs {"crystal": name}')
            state.entering = self.crystal(pending["crystal"], "'pending'.crystal")
        elif pending is not None:
            raise self.fail("'pending'", f"null in phase {PHASES[state.phase]!r}")

    def _unused(self, state: TtbState) -> None:
        if "unused" in self.data:
            value = self.data["unused"]
            if not isinstance(value, Mapping) or set(value) != set(CRYSTAL_NAMES.values()):
                raise self.fail("'unused'", f"a count for each of {list(CRYSTAL_NAMES.values())}")
            state.unused = [self.int_(value[CRYSTAL_NAMES[v]], f"'unused'.{CRYSTAL_NAMES[v]}") for v in CRYSTAL_KINDS]
            return
        in_play = (
            state.track
            + list(state.ground.values())
            + [v for v in state.rcargo if v]
            + [v for dd in state.delivered for v in dd]
            + ([state.entering] if state.entering else [])
        )
        state.unused = [CRYSTALS_PER_KIND - in_play.count(v) for v in CRYSTAL_KINDS]

    def _ending(self, state: TtbState) -> None:
        d = self.data
        if "victor" in d:
            state.victor = -1 if d["victor"] is None else self.int_(d["victor"], "'victor'")
        if state.victor >= 0:
            self._check_victor(state)
        if "end_reason" in d:
            if not isinstance(d["end_reason"], str):
                raise self.fail("'end_reason'", "a string")
            state.end_reason = d["end_reason"]

    def _check_victor(self, state: TtbState) -> None:
        """A score victory: a seat whose crystals in Bases reached the target, in a game that is over."""
        n, seat = state.num_players, state.victor
        target = state.score_target()
        if not 0 <= seat < n:
            raise self.fail("'victor'", f"a seat 0-{n - 1} or null, got {seat}")
        if target is None:
            raise self.fail("'victor'", "Team play has no score victory: null")
        if state.phase != OVER:
            raise self.fail("'victor'", f"a score victory ends the game: null in phase {PHASES[state.phase]!r}")
        points = sum(sum(state.delivered[c]) for c in state.seat_colours(seat))
        if points < target:
            raise self.fail("'victor'", f"seat {seat} has {points} points in Bases, short of the {target} that win")
