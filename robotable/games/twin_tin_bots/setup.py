"""Setup: the layout for the number of colours in play, who plays which colour, the variant tokens
(Teleporters, Rocks, Blobs, Mud), the first player and the Special Orders dealt.

>>> colour_seating(3, 4, advanced=False, team_play=True)    # 3 players in teams: seat 0 plays two colours
((0, 1, 0, 2), (0, 1, 0, 1))
>>> colour_seating(2, 4, advanced=True, team_play=False)    # blue, yellow, red, green
((1, 0, 1, 0), (1, 0, 1, 0))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from robotable.core import BadOptions, Rng

from .board import Board
from .components import (
    BOARD_SLOTS,
    CRYSTAL_KINDS,
    CRYSTAL_VALUES,
    CRYSTALS_PER_KIND,
    LAYOUTS,
    ROBOTS_PER_COLOUR,
    SPECIALS,
)
from .hexgrid import CENTRE, Hex, clockwise_key, distance, neighbours, parse_facing, ring_of
from .programs import EMPTY
from .turn import start_turn

if TYPE_CHECKING:
    from .state import TtbState

GAME_ID = "twin-tin-bots"
TOKENS = ("teleporters", "rocks", "blobs", "mud")
#: Tokens kept apart from the ring, the Bases and each other.
SPREAD_TOKENS = ("teleporters", "rocks", "blobs")


# -- colours, players and teams --------------------------------------------------------------------


def colours_in_play(num_players: int, advanced: bool, team_play: bool) -> int:
    """How many colours play: one per player, four in the Advanced 2-player variant, and one more
    than the players for Team play with an odd number of players."""
    if advanced:
        return 4
    if team_play and num_players % 2:
        return num_players + 1
    return num_players


def colour_seating(
    num_players: int, num_colours: int, advanced: bool, team_play: bool
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(controller, team)`` of each colour, colours numbered clockwise around the board.

    Standard: colour i is seat i's, every seat its own team. Advanced 2 players (blue, yellow, red,
    green clockwise): seat 0 plays yellow and green, seat 1 blue and red. Team play: teams alternate
    around the board (so teammates sit as far apart as possible and teams alternate turns); with an odd
    number of players seat 0 plays colours 0 and 2 (same team) and the other seats one colour each.
    """
    if advanced:
        controller = tuple((c + 1) % 2 for c in range(num_colours))
        return controller, controller
    if not team_play:
        seats = tuple(range(num_colours))
        return seats, seats
    teams = tuple(c % 2 for c in range(num_colours))
    if num_colours == num_players:
        return tuple(range(num_colours)), teams
    seat_of = [0] * num_colours
    seat = 1
    for c in range(1, num_colours):
        if c == 2:
            continue
        seat_of[c] = seat
        seat += 1
    return tuple(seat_of), teams


# -- variant tokens --------------------------------------------------------------------------------


def token_spots(
    hexes: Iterable[Hex],
    radius: int,
    occupied: Callable[[Hex], bool],
    keep_away: Iterable[Hex],
    ring_and_neighbours: bool = True,
) -> list[Hex]:
    """Hexes where a Teleporter, Rock or Blob (``ring_and_neighbours``) or a Mud token may be placed.

    Nothing goes on an occupied hex. Teleporters, Rocks and Blobs never go on the outer ring nor next to
    a Base, a Teleporter, a Blob or a Rock (``keep_away`` lists those hexes).
    """
    away = set(keep_away)
    out = []
    for h in hexes:
        if occupied(h):
            continue
        if ring_and_neighbours and (
            distance(h, CENTRE) >= radius or h in away or any(n in away for n in neighbours(h))
        ):
            continue
        out.append(h)
    return out


def apart(spots: Sequence[Hex], k: int, budget: int = 200_000) -> list[Hex] | None:
    """``k`` of ``spots`` no two of which are neighbours, preferring earlier spots; ``None`` if there
    are none (or the search gives up after ``budget`` steps).

    >>> apart([(0, 0), (1, 0), (2, 0)], 2)
    [(0, 0), (2, 0)]
    >>> apart([(0, 0), (1, 0)], 2) is None
    True
    """
    chosen: list[Hex] = []
    steps = 0

    def search(start: int) -> bool:
        nonlocal steps
        if len(chosen) == k:
            return True
        for i in range(start, len(spots)):
            steps += 1
            if steps > budget or len(spots) - i < k - len(chosen):
                return False
            h = spots[i]
            if all(distance(h, c) > 1 for c in chosen):
                chosen.append(h)
                if search(i + 1):
                    return True
                chosen.pop()
        return False

    return list(chosen) if search(0) else None


class _Tokens:
    """Teleporters, Rocks, Blobs and Mud as they are placed."""

    def __init__(self, board: Board, taken: set[Hex]) -> None:
        self.board = board
        self.hexes = sorted(board.hexes, key=lambda h: (h[1], h[0]))
        self.taken = taken
        self.tele: list[tuple[Hex, Hex]] = []
        self.rocks: list[Hex] = []
        self.blobs: list[Hex] = []
        self.mud: list[Hex] = []
        self.placed: set[Hex] = set()
        self.away: set[Hex] = set(board.bases)

    def check_given(self, name: str, h: Hex, spread: bool) -> None:
        """A position given in the options: on the board, empty and (Teleporters, Rocks, Blobs) apart."""
        board = self.board
        where = f"{GAME_ID}: option {name!r}: {list(h)}"
        if h not in board.hexes:
            raise BadOptions(f"{where} is off the board (radius {board.radius})")
        if h in self.taken or h in self.placed:
            raise BadOptions(f"{where} is not an empty hex")
        if spread and ring_of(h) >= board.radius:
            raise BadOptions(f"{where} is on the outer ring")
        if spread and any(x in self.away for x in neighbours(h)):
            raise BadOptions(f"{where} is next to a Base, Teleporter, Blob or Rock")
        self.placed.add(h)
        if spread:
            self.away.add(h)

    def given(self, opts: dict[str, Any]) -> None:
        """The positions the options give, checked."""
        for name in SPREAD_TOKENS:
            items = opts[name] if isinstance(opts[name], list) else []
            flat = [tuple(h) for pair in items for h in pair] if name == "teleporters" else [tuple(h) for h in items]
            for h in flat:
                self.check_given(name, h, True)
            if name == "teleporters":
                self.tele = [(tuple(a), tuple(b)) for a, b in items]
            elif name == "rocks":
                self.rocks = list(flat)
            else:
                self.blobs = list(flat)
        for h in map(tuple, opts["mud"] if isinstance(opts["mud"], list) else []):
            self.check_given("mud", h, False)
            self.mud.append(h)

    def random(self, opts: dict[str, Any], rng: Rng, num_colours: int) -> None:
        """Then the random ones: a seeded random choice of hexes far enough apart from each other; Mud
        on any empty hex."""
        counts = {name: opts[name] for name in TOKENS if isinstance(opts[name], int)}
        spread = 2 * counts.get("teleporters", 0) + counts.get("rocks", 0) + counts.get("blobs", 0)
        if spread:
            occupied = lambda h: h in self.taken or h in self.placed  # noqa: E731
            spots = token_spots(self.hexes, self.board.radius, occupied, self.away, True)
            rng.shuffle(spots)
            chosen = apart(spots, spread)
            if chosen is None:
                raise BadOptions(
                    f"{GAME_ID}: cannot place {spread} Teleporters, Rocks and Blobs on the {num_colours}-colour "
                    "board apart from each other, the Bases and the outer ring; use fewer"
                )
            self.placed.update(chosen)
            it = iter(chosen)
            self.tele += [(next(it), next(it)) for _ in range(counts.get("teleporters", 0))]
            self.rocks += [next(it) for _ in range(counts.get("rocks", 0))]
            self.blobs += [next(it) for _ in range(counts.get("blobs", 0))]
        for _ in range(counts.get("mud", 0)):
            spots = [h for h in self.hexes if h not in self.taken and h not in self.placed]
            h = spots[rng.randrange(len(spots))]
            self.placed.add(h)
            self.mud.append(h)


def place_tokens(st: TtbState, rng: Rng) -> tuple[list[tuple[Hex, Hex]], list[Hex], list[Hex], list[Hex]]:
    """Teleporters, Rocks, Blobs and Mud: the positions given in the options (checked), then the
    random ones: never on an occupied hex; Teleporters, Rocks and Blobs never on the outer ring nor next
    to a Base, Teleporter, Blob or Rock."""
    tokens = _Tokens(st.board, set(st.board.bases) | set(st.rhex) | set(st.ground))
    tokens.given(st.options)
    tokens.random(st.options, rng, len(st.colours))
    return tokens.tele, tokens.rocks, tokens.blobs, tokens.mud


# -- a new game ------------------------------------------------------------------------------------


def setup(st: TtbState) -> None:
    """Set up a new game on ``st``: layout, variant tokens, first player, Special Orders."""
    opts = st.options
    n = st.num_players
    C = colours_in_play(n, opts["advanced_2p"], opts["team_play"])
    layout = LAYOUTS[C]
    names = sorted(layout["bases"], key=lambda name: clockwise_key(tuple(layout["bases"][name])))
    st.colours = tuple(names)
    st.controller, st.team = colour_seating(n, C, opts["advanced_2p"], opts["team_play"])
    st.robots_per = 1 if opts["simplified"] else ROBOTS_PER_COLOUR
    st.names = robot_names(st.colours, st.robots_per)
    _pieces(st, layout)
    bases = [tuple(layout["bases"][name]) for name in names]
    st.board = Board(layout["radius"], bases)
    tele, rocks, blobs, mud = place_tokens(st, st.rng)
    st.board = Board(layout["radius"], bases, rocks, tele, mud)
    st.blobs = blobs
    first = st.rng.randrange(C)
    st.order = tuple((first + i) % C for i in range(C))
    st.delivered = [[] for _ in range(C)]
    st.programs = [[EMPTY] * BOARD_SLOTS for _ in range(C)]
    st.specials = [[] for _ in range(C)]
    st.revealed = [[] for _ in range(C)]
    st.dm_used = [False] * C
    st.first_done = [False] * C
    if not opts["simplified"]:
        st.stack = list(SPECIALS)
        st.rng.shuffle(st.stack)
        for c in st.order:
            st.specials[c].append(st.stack.pop())
    start_turn(st, [])


def _pieces(st: TtbState, layout: dict[str, Any]) -> None:
    """Robots, starting crystals and the Crystal track of the layout."""
    for name in st.colours:
        for k in range(st.robots_per):
            pos, facing = layout["robots"][name][k]
            st.rhex.append(tuple(pos))
            st.rface.append(parse_facing(facing))  # type: ignore[arg-type]  # the shipped layouts name real facings
            st.rcargo.append(0)
            st.stuck.append(False)
    for crystal, hexes in layout["crystals"].items():
        for h in hexes:
            st.ground[tuple(h)] = CRYSTAL_VALUES[crystal]  # the layouts name crystals by colour
    st.track = [CRYSTAL_VALUES[c] for c in layout["track"]]
    in_play = list(st.track) + list(st.ground.values())
    st.unused = [CRYSTALS_PER_KIND - in_play.count(v) for v in CRYSTAL_KINDS]


def robot_names(colours: Sequence[str], robots_per: int) -> tuple[str, ...]:
    """Robot names by id, e.g. ``"red-A"``."""
    return tuple(f"{c}-{'AB'[k]}" for c in colours for k in range(robots_per))
