"""Twin Tin Bots as a Robotable game: options (variants), setup, and loading states from JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from robotable.core import Action, BadInput, BadOptions, Game, Option, Rng, check_options

from . import rules
from .actions import ACTION_TYPES, ACTIONS, action_from_index, action_index
from .components import (
    CRYSTAL_KINDS,
    CRYSTAL_NAMES,
    CRYSTALS_PER_KIND,
    LAYOUTS,
    ROBOTS_PER_COLOUR,
    SLOTS_PER_ROBOT,
    SPECIALS,
    TILE_NAMES,
    TOKEN_LIMITS,
    parse_crystal,
    parse_tile,
)
from .hexgrid import Hex, clockwise_key, neighbours, parse_facing, ring_of
from .observation import OBSERVATION
from .state import CHANGE, CRYSTAL, EMPTY, GAME_ID, PHASES, ZAP, Board, TtbState

TOKENS = ("teleporters", "rocks", "blobs", "mud")


def _hex(value: object, where: str, error: type[BadInput] = BadInput) -> Hex:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    raise error(f"{where}: a hex is [q, r] (two integers), got {value!r}")


def _token_check(name: str) -> Any:
    limit = TOKEN_LIMITS[name]
    pairs = name == "teleporters"
    where = f"{GAME_ID}: option {name!r}"
    shape = "a list of pairs of hexes [[[q, r], [q, r]], ...]" if pairs else "a list of hexes [[q, r], ...]"

    def check(value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            if not 0 <= value <= limit:
                raise BadOptions(f"{where}: a number from 0 to {limit}, got {value}")
            return value
        if not isinstance(value, list | tuple):
            raise BadOptions(f"{where}: a number (0 to {limit}, placed at random) or {shape}, got {value!r}")
        if len(value) > limit:
            raise BadOptions(f"{where}: at most {limit}, got {len(value)}")
        if pairs:
            out = []
            for i, pair in enumerate(value):
                if not isinstance(pair, list | tuple) or len(pair) != 2:
                    raise BadOptions(f"{where}[{i}]: a pair of hexes [[q, r], [q, r]], got {pair!r}")
                out.append([list(_hex(h, f"{where}[{i}]", BadOptions)) for h in pair])
            return out
        return [list(_hex(h, f"{where}[{i}]", BadOptions)) for i, h in enumerate(value)]

    return check


def _bool_check(name: str) -> Any:
    def check(value: Any) -> bool:
        if not isinstance(value, bool):
            raise BadOptions(f"{GAME_ID}: option {name!r}: expected true or false, got {value!r}")
        return value

    return check


class TwinTinBots(Game):
    """Twin Tin Bots for 2 to 6 players, every variant of the rulebook as an option.

    >>> state = GAME.start(num_players=4, seed=1)
    >>> [c["colour"] for c in state.view(None)["colours"]]     # clockwise from the top
    ['blue', 'yellow', 'red', 'green']
    >>> len(state.legal_actions(state.to_act()[0]))    # first turn: 7 Orders and 1 Special on 6 slots
    48
    """

    id = GAME_ID
    observation_encoder = OBSERVATION  # feature planes for the research adapters (observation.py)
    name = "Twin Tin Bots"
    min_players = 2
    max_players = 6
    options = (
        Option(
            "simplified",
            False,
            "Simplified rules: one robot per colour and no Special Orders",
            check=_bool_check("simplified"),
        ),
        Option(
            "teleporters",
            0,
            "Teleporters: 0-3 pairs placed at random, or a list of pairs of hexes [[[q, r], [q, r]], ...]",
            check=_token_check("teleporters"),
        ),
        Option(
            "rocks", 0, "Rocks: 0-3 placed at random, or a list of hexes [[q, r], ...]", check=_token_check("rocks")
        ),
        Option(
            "blobs", 0, "Blobs: 0-3 placed at random, or a list of hexes [[q, r], ...]", check=_token_check("blobs")
        ),
        Option("mud", 0, "Mud: 0-3 placed at random, or a list of hexes [[q, r], ...]", check=_token_check("mud")),
        Option(
            "advanced_2p",
            False,
            "Advanced 2-player variant: each player plays two colours on the 4-player board",
            check=_bool_check("advanced_2p"),
        ),
        Option(
            "team_play", False, "Team play: two teams, team totals, no score victory", check=_bool_check("team_play")
        ),
    )
    action_types = ACTION_TYPES

    def check_options(self, options: Mapping[str, Any] | None, num_players: int) -> dict[str, Any]:
        opts = check_options(self.id, self.options, options)
        if opts["advanced_2p"] and num_players != 2:
            raise BadOptions(f"{GAME_ID}: the Advanced 2-player variant is for 2 players, not {num_players}")
        if opts["advanced_2p"] and opts["team_play"]:
            raise BadOptions(f"{GAME_ID}: advanced_2p and team_play cannot be combined")
        return opts

    def new_state(self, num_players: int, seed: int, options: dict[str, Any]) -> TtbState:
        state = TtbState(num_players, seed, options)
        setup(state)
        return state

    def state_from_json(self, data: object) -> TtbState:
        """Load a state written by ``to_json`` or by hand (see docs/games/twin-tin-bots.md)."""
        return _StateReader(self, data).read()

    # The stable integer encoding of :mod:`.actions` (the same for every player count and option).

    def num_distinct_actions(self, num_players: int, options: Mapping[str, Any] | None = None) -> int:
        """Every action a game can offer has an index below this (see :data:`.actions.ACTIONS`)."""
        return len(ACTIONS)

    def action_index(self, action: Action) -> int:
        """See :func:`.actions.action_index`."""
        return action_index(action)

    def action_from_index(self, index: int) -> Action:
        """See :func:`.actions.action_from_index`."""
        return action_from_index(index)


# -- setup ----------------------------------------------------------------------------------------


def setup(state: TtbState) -> None:
    """Set up a new game on ``state``: layout, variant tokens, first player, Special Orders."""
    opts = state.options
    n = state.num_players
    C = rules.colours_in_play(n, opts["advanced_2p"], opts["team_play"])
    layout = LAYOUTS[C]
    names = sorted(layout["bases"], key=lambda name: clockwise_key(tuple(layout["bases"][name])))
    state.colours = tuple(names)
    state.controller, state.team = rules.colour_seating(n, C, opts["advanced_2p"], opts["team_play"])
    state.robots_per = 1 if opts["simplified"] else ROBOTS_PER_COLOUR
    bases = [tuple(layout["bases"][name]) for name in names]
    for name in names:
        for k in range(state.robots_per):
            pos, facing = layout["robots"][name][k]
            state.rhex.append(tuple(pos))
            state.rface.append(parse_facing(facing))  # type: ignore[arg-type]
            state.rcargo.append(0)
            state.stuck.append(False)
    for crystal, hexes in layout["crystals"].items():
        for h in hexes:
            state.ground[tuple(h)] = parse_crystal(crystal)  # type: ignore[assignment]
    state.track = [parse_crystal(c) for c in layout["track"]]  # type: ignore[misc]
    in_play = list(state.track) + list(state.ground.values())
    state.unused = [CRYSTALS_PER_KIND - in_play.count(v) for v in CRYSTAL_KINDS]
    state.board = Board(layout["radius"], bases)
    tele, rocks, blobs, mud = place_tokens(state, state.rng)
    state.board = Board(layout["radius"], bases, rocks, tele, mud)
    state.blobs = blobs
    first = state.rng.randrange(C)
    state.order = tuple((first + i) % C for i in range(C))
    state.delivered = [[] for _ in range(C)]
    state.programs = [[EMPTY] * (ROBOTS_PER_COLOUR * SLOTS_PER_ROBOT) for _ in range(C)]
    state.specials = [[] for _ in range(C)]
    state.revealed = [[] for _ in range(C)]
    state.dm_used = [False] * C
    state.first_done = [False] * C
    if not opts["simplified"]:
        state.stack = list(SPECIALS)
        state.rng.shuffle(state.stack)
        for c in state.order:
            state.specials[c].append(state.stack.pop())
    state.start_turn([])


def place_tokens(state: TtbState, rng: Rng) -> tuple[list[tuple[Hex, Hex]], list[Hex], list[Hex], list[Hex]]:
    """Teleporters, Rocks, Blobs and Mud: the positions given in the options (checked), then the
    random ones: never on an occupied hex; Teleporters, Rocks and Blobs never on the outer ring nor next
    to a Base, Teleporter, Blob or Rock."""
    board = state.board
    hexes = sorted(board.hexes, key=lambda h: (h[1], h[0]))
    taken = set(board.bases) | set(state.rhex) | set(state.ground)
    opts = state.options

    # Given positions first.
    tele: list[tuple[Hex, Hex]] = []
    rocks: list[Hex] = []
    blobs: list[Hex] = []
    mud: list[Hex] = []
    placed: set[Hex] = set()
    away: set[Hex] = set(board.bases)
    given = {name: opts[name] for name in TOKENS if isinstance(opts[name], list)}
    for name in ("teleporters", "rocks", "blobs"):
        items = given.get(name, [])
        flat = [tuple(h) for pair in items for h in pair] if name == "teleporters" else [tuple(h) for h in items]
        for h in flat:
            where = f"{GAME_ID}: option {name!r}: {list(h)}"
            if h not in board.hexes:
                raise BadOptions(f"{where} is off the board (radius {board.radius})")
            if h in taken or h in placed:
                raise BadOptions(f"{where} is not an empty hex")
            if ring_of(h) >= board.radius:
                raise BadOptions(f"{where} is on the outer ring")
            if any(x in away for x in neighbours(h)):
                raise BadOptions(f"{where} is next to a Base, Teleporter, Blob or Rock")
            placed.add(h)
            away.add(h)
        if name == "teleporters":
            tele = [(tuple(a), tuple(b)) for a, b in items]  # type: ignore[misc]
        elif name == "rocks":
            rocks = list(flat)  # type: ignore[arg-type]
        else:
            blobs = list(flat)  # type: ignore[arg-type]
    for h in map(tuple, given.get("mud", [])):
        where = f"{GAME_ID}: option 'mud': {list(h)}"
        if h not in board.hexes:
            raise BadOptions(f"{where} is off the board (radius {board.radius})")
        if h in taken or h in placed:
            raise BadOptions(f"{where} is not an empty hex")
        placed.add(h)  # type: ignore[arg-type]
        mud.append(h)  # type: ignore[arg-type]

    # Then the random ones: a seeded random choice of hexes far enough apart from each other.
    counts = {name: opts[name] for name in TOKENS if isinstance(opts[name], int)}
    spread = 2 * counts.get("teleporters", 0) + counts.get("rocks", 0) + counts.get("blobs", 0)
    if spread:
        spots = rules.token_spots(hexes, board.radius, lambda h: h in taken or h in placed, away, True)
        rng.shuffle(spots)
        chosen = rules.apart(spots, spread)
        if chosen is None:
            raise BadOptions(
                f"{GAME_ID}: cannot place {spread} Teleporters, Rocks and Blobs on the {len(state.colours)}-colour "
                "board apart from each other, the Bases and the outer ring; use fewer"
            )
        placed.update(chosen)
        it = iter(chosen)
        tele += [(next(it), next(it)) for _ in range(counts.get("teleporters", 0))]
        rocks += [next(it) for _ in range(counts.get("rocks", 0))]
        blobs += [next(it) for _ in range(counts.get("blobs", 0))]
    for _ in range(counts.get("mud", 0)):
        spots = [h for h in hexes if h not in taken and h not in placed]
        h = spots[rng.randrange(len(spots))]
        placed.add(h)
        mud.append(h)
    return tele, rocks, blobs, mud


# -- reading a state ------------------------------------------------------------------------------


class _StateReader:
    """Reads a state's JSON field by field, naming the field in every error. Any field left out takes
    its value from a new game with the same ``num_players``, ``seed`` and ``options``."""

    def __init__(self, game: TwinTinBots, data: object) -> None:
        if not isinstance(data, Mapping):
            raise BadInput(f"{GAME_ID} state: expected a JSON object")
        self.game = game
        self.data = data

    def fail(self, where: str, problem: str) -> BadInput:
        return BadInput(f"{GAME_ID} state: field {where}: {problem}")

    def has(self, key: str) -> bool:
        return key in self.data

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
            return _hex(value, "")
        except BadInput:
            raise self.fail(where, f"a hex is [q, r], got {value!r}") from None

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

    def read(self) -> TtbState:
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
            state = self.game.start(n, seed=seed, options=d.get("options", {}))
        except BadOptions as exc:
            raise BadInput(f"{GAME_ID} state: {exc}") from None
        if "rng" in d:
            try:
                state.rng = Rng.from_json(d["rng"])
            except BadInput as exc:
                raise self.fail("'rng'", str(exc)) from None
        names = state.colours
        C = len(names)
        if "colours" in d:
            given = self.list_(d["colours"], "'colours'")
            if not all(isinstance(x, str) for x in given) or sorted(given) != sorted(names):
                raise self.fail("'colours'", f"these options and players use the colours {list(names)}, got {given!r}")
            if tuple(given) != names:
                raise self.fail("'colours'", f"colours are listed clockwise: {list(names)}")
        for key, attr in (("controllers", "controller"), ("teams", "team")):
            if key in d:
                value = [self.int_(x, f"'{key}'") for x in self.list_(d[key], f"'{key}'")]
                if len(value) != C:
                    raise self.fail(f"'{key}'", f"one entry per colour ({C}), got {len(value)}")
                setattr(state, attr, tuple(value))
        if sorted(set(state.controller)) != list(range(n)):
            raise self.fail("'controllers'", f"every seat 0-{n - 1} must play at least one colour")
        if "turn_order" in d:
            order = self.list_(d["turn_order"], "'turn_order'")
            if not all(isinstance(x, str) for x in order) or sorted(order) != sorted(names):
                raise self.fail("'turn_order'", f"each of {list(names)} once, got {order!r}")
            state.order = tuple(names.index(x) for x in order)
        radius = state.board.radius
        if "radius" in d and d["radius"] != radius:
            raise self.fail("'radius'", f"{n} players use radius {radius}")
        bases = list(state.board.bases)
        if "bases" in d:
            bases = [self.hex_(h, f"'bases'.{names[c]}") for c, h in enumerate(self.per_colour("bases", names))]
        rocks = sorted(state.board.rocks)
        mud = sorted(state.board.mud)
        tele = list(state.board.teleporters)
        if "rocks" in d:
            rocks = [self.hex_(h, f"'rocks'[{i}]") for i, h in enumerate(self.list_(d["rocks"], "'rocks'"))]
        if "mud" in d:
            mud = [self.hex_(h, f"'mud'[{i}]") for i, h in enumerate(self.list_(d["mud"], "'mud'"))]
        if "teleporters" in d:
            tele = []
            for i, pair in enumerate(self.list_(d["teleporters"], "'teleporters'")):
                pair = self.list_(pair, f"'teleporters'[{i}]")
                if len(pair) != 2:
                    raise self.fail(f"'teleporters'[{i}]", "a pair of hexes")
                tele.append(
                    (self.hex_(pair[0], f"'teleporters'[{i}][0]"), self.hex_(pair[1], f"'teleporters'[{i}][1]"))
                )
        state.board = Board(radius, bases, rocks, tele, mud)
        for h in mud:
            if h not in state.board.hexes:
                raise self.fail("'mud'", f"{list(h)} is off the board")
        if "blobs" in d:
            state.blobs = [self.hex_(h, f"'blobs'[{i}]") for i, h in enumerate(self.list_(d["blobs"], "'blobs'"))]
        if "robots" in d:
            self._robots(state, names)
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
        slots = ROBOTS_PER_COLOUR * SLOTS_PER_ROBOT
        if "programs" in d:
            progs = []
            for c, v in enumerate(self.per_colour("programs", names)):
                prog = self.list_(v, f"'programs'.{names[c]}")
                if len(prog) != slots:
                    raise self.fail(f"'programs'.{names[c]}", f"{slots} slots (null for empty), got {len(prog)}")
                progs.append([self.tile(t, f"'programs'.{names[c]}[{i}]", True) for i, t in enumerate(prog)])
            state.programs = progs
        for key in ("specials", "revealed"):
            if key in d:
                setattr(
                    state,
                    key,
                    [
                        [
                            self.tile(t, f"'{key}'.{names[c]}[{i}]")
                            for i, t in enumerate(self.list_(v, f"'{key}'.{names[c]}"))
                        ]
                        for c, v in enumerate(self.per_colour(key, names))
                    ],
                )
        if "revealed" not in d and ("programs" in d or "specials" in d):
            # Hand-written positions: specials already on a board count as revealed.
            state.revealed = [[t for t in state.programs[c] if t in SPECIALS] for c in range(C)]
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
        for key in ("round", "turn", "countdown"):
            if key in d:
                setattr(state, key, self.int_(d[key], f"'{key}'"))
        if not 0 <= state.turn < C:
            raise self.fail("'turn'", f"an index in turn_order (0 to {C - 1})")
        if state.round < 1:
            raise self.fail("'round'", "rounds start at 1")
        if "end_phase" in d:
            state.end_phase = self.bool_(d["end_phase"], "'end_phase'")
        self._phase(state)
        if "unused" in d:
            value = d["unused"]
            if not isinstance(value, Mapping) or set(value) != set(CRYSTAL_NAMES.values()):
                raise self.fail("'unused'", f"a count for each of {list(CRYSTAL_NAMES.values())}")
            state.unused = [self.int_(value[CRYSTAL_NAMES[v]], f"'unused'.{CRYSTAL_NAMES[v]}") for v in CRYSTAL_KINDS]
        else:
            in_play = (
                state.track
                + list(state.ground.values())
                + [v for v in state.rcargo if v]
                + [v for dd in state.delivered for v in dd]
                + ([state.entering] if state.entering else [])
            )
            state.unused = [CRYSTALS_PER_KIND - in_play.count(v) for v in CRYSTAL_KINDS]
        if "victor" in d:
            state.victor = -1 if d["victor"] is None else self.int_(d["victor"], "'victor'")
        if "end_reason" in d:
            if not isinstance(d["end_reason"], str):
                raise self.fail("'end_reason'", "a string")
            state.end_reason = d["end_reason"]
        state.check_invariants()
        return state

    def _robots(self, state: TtbState, names: tuple[str, ...]) -> None:
        R = state.robots_per
        rhex, rface, rcargo = [], [], []
        for c, robots in enumerate(self.per_colour("robots", names)):
            robots = self.list_(robots, f"'robots'.{names[c]}")
            if len(robots) != R:
                raise self.fail(
                    f"'robots'.{names[c]}", f"{R} robot(s) per colour with these options, got {len(robots)}"
                )
            for k, robot in enumerate(robots):
                where = f"'robots'.{names[c]}[{k}]"
                if not isinstance(robot, Mapping) or not {"hex", "facing"} <= set(robot) <= {"hex", "facing", "cargo"}:
                    raise self.fail(where, f'expected {{"hex": [q, r], "facing": "E", "cargo": null}}, got {robot!r}')
                rhex.append(self.hex_(robot["hex"], where + ".hex"))
                facing = parse_facing(robot["facing"])
                if facing is None:
                    raise self.fail(where + ".facing", f"one of E, NE, NW, W, SW, SE, got {robot['facing']!r}")
                rface.append(facing)
                cargo = robot.get("cargo")
                rcargo.append(0 if cargo is None else self.crystal(cargo, where + ".cargo"))
        state.rhex, state.rface, state.rcargo = rhex, rface, rcargo
        state.stuck = [False] * len(rhex)

    def _phase(self, state: TtbState) -> None:
        d = self.data
        if "stuck" in d:
            stuck = self.list_(d["stuck"], "'stuck'")
            robot_names = [state.robot_name(r) for r in range(len(state.rhex))]
            for x in stuck:
                if x not in robot_names:
                    raise self.fail("'stuck'", f"unknown robot {x!r} (robots: {', '.join(robot_names)})")
            state.stuck = [name in stuck for name in robot_names]
        else:
            state.stuck = [h in state.board.mud for h in state.rhex]
        phase = d.get("phase", "change")
        if phase not in PHASES or phase == "run":
            raise self.fail("'phase'", f"one of change, zap, blob, crystal, over; got {phase!r}")
        state.phase = PHASES.index(phase)
        c = state.active
        if "changes_left" in d:
            state.changes_left = self.int_(d["changes_left"], "'changes_left'")
        elif state.phase == CHANGE:
            state.changes_left = state.first_turn_placements(c) or 1
        if state.phase == CHANGE and state.changes_left < 1:
            raise self.fail("'changes_left'", "at least 1 while programming")
        if "run" in d:
            run = d["run"]
            if not isinstance(run, Mapping) or set(run) != {"robot", "slot", "op"} or run["robot"] not in ("A", "B"):
                raise self.fail("'run'", f'expected {{"robot": "A" or "B", "slot": 0-2, "op": n}}, got {run!r}')
            k = "AB".index(run["robot"])
            slot, op = self.int_(run["slot"], "'run'.slot"), self.int_(run["op"], "'run'.op")
            if k >= state.robots_per or not 0 <= slot <= SLOTS_PER_ROBOT or op < 0:
                raise self.fail("'run'", f"no such point in the programs: {run!r}")
            state.pc = [k, slot, op]
        pending = d.get("pending")
        state.target, state.entering = -1, 0
        if state.phase == ZAP:
            names = [state.robot_name(r) for r in range(len(state.rhex))]
            if not isinstance(pending, Mapping) or pending.get("robot") not in names:
                raise self.fail("'pending'", f'a zap needs {{"robot": name}} (one of {", ".join(names)})')
            state.target = names.index(pending["robot"])
        elif state.phase == PHASES.index("blob"):
            if not isinstance(pending, Mapping) or "blob" not in pending:
                raise self.fail("'pending'", 'a Blob move needs {"blob": index in blobs}')
            state.target = self.int_(pending["blob"], "'pending'.blob")
        elif state.phase == CRYSTAL:
            if not isinstance(pending, Mapping) or "crystal" not in pending:
                raise self.fail("'pending'", 'a crystal entry needs {"crystal": name}')
            state.entering = self.crystal(pending["crystal"], "'pending'.crystal")
        elif pending is not None:
            raise self.fail("'pending'", f"null in phase {PHASES[state.phase]!r}")


GAME = TwinTinBots()

TtbState.game = GAME
