"""Rules of Twin Tin Bots that are pure functions of plain data: what each tile does, who plays which
colour, where tokens and new crystals may go, and how crystals score.

>>> TILE_OPS[Tile.FORWARD_THEN_ZAP] == (FORWARD, ZAP)
True
>>> colour_seating(3, 4, advanced=False, team_play=True)    # 3 players in teams: seat 0 plays two colours
((0, 1, 0, 2), (0, 1, 0, 1))
>>> colour_seating(2, 4, advanced=True, team_play=False)    # blue, yellow, red, green
((1, 0, 1, 0), (1, 0, 1, 0))
>>> crystal_score([2, 4], [3])      # 2 + 4 in the Base, a green carried scores 3 - 1
8
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .components import CRYSTAL_VALUES, Tile
from .hexgrid import CENTRE, Hex, distance, neighbours

# -- What each tile does --------------------------------------------------------------------------

# The elementary operations programs are made of.
FORWARD, BACK_UP, TURN_LEFT, TURN_RIGHT, TURN_2_LEFT, TURN_2_RIGHT, U_TURN = range(7)
LOAD, UNLOAD, ZAP, LONG_RANGE_ZAP, JUMP = range(7, 12)
OP_NAMES = (
    "forward",
    "back_up",
    "turn_left",
    "turn_right",
    "turn_2_left",
    "turn_2_right",
    "u_turn",
    "load",
    "unload",
    "zap",
    "long_range_zap",
    "jump",
)
#: Hex-sides turned (counter-clockwise positive) by each turning operation.
TURNS = {TURN_LEFT: 1, TURN_RIGHT: -1, TURN_2_LEFT: 2, TURN_2_RIGHT: -2, U_TURN: 3}

TILE_OPS: dict[int, tuple[int, ...]] = {
    Tile.FORWARD_1: (FORWARD,),
    Tile.FORWARD_2: (FORWARD, FORWARD),
    Tile.FORWARD_3: (FORWARD, FORWARD, FORWARD),
    Tile.TURN_LEFT: (TURN_LEFT,),
    Tile.TURN_RIGHT: (TURN_RIGHT,),
    Tile.TURN_2_LEFT: (TURN_2_LEFT,),
    Tile.TURN_2_RIGHT: (TURN_2_RIGHT,),
    Tile.U_TURN: (U_TURN,),
    Tile.LOAD: (LOAD,),
    Tile.UNLOAD: (UNLOAD,),
    Tile.ZAP: (ZAP,),
    Tile.DOUBLE_ZAP: (ZAP, ZAP),
    Tile.LONG_RANGE_ZAP: (LONG_RANGE_ZAP,),
    Tile.FORWARD_THEN_LOAD: (FORWARD, LOAD),
    Tile.FORWARD_THEN_ZAP: (FORWARD, ZAP),
    Tile.DASH: (FORWARD,),
    Tile.JUMP: (JUMP,),
    Tile.BACK_UP: (BACK_UP,),
    Tile.ANTI_ZAP: (),
    Tile.ANTI_THEFT: (),
    Tile.DOUBLE_MODIFICATION: (),
}
#: Orders made of several Forward steps: the first step that cannot move ends the order.
CHAINED_STEPS = frozenset({Tile.FORWARD_2, Tile.FORWARD_3})
#: What a zapped robot may be made to do, as the operation it performs.
ZAP_ORDER_OPS = {
    Tile.FORWARD_1: FORWARD,
    Tile.TURN_LEFT: TURN_LEFT,
    Tile.TURN_RIGHT: TURN_RIGHT,
    Tile.LOAD: LOAD,
    Tile.UNLOAD: UNLOAD,
}


# -- Colours, players and teams -------------------------------------------------------------------


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
    controller = [0] * num_colours
    seat = 1
    for c in range(1, num_colours):
        if c == 2:
            continue
        controller[c] = seat
        seat += 1
    return tuple(controller), teams


# -- Variant tokens -------------------------------------------------------------------------------


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


# -- New crystals ---------------------------------------------------------------------------------


def entry_hexes(hexes: Iterable[Hex], free: Callable[[Hex], bool]) -> list[Hex]:
    """Where a new crystal may enter: the centre if free, else every free hex closest to it (sorted).

    >>> entry_hexes([(0, 0), (1, 0), (0, 1), (2, 0)], lambda h: h != (0, 0))
    [(0, 1), (1, 0)]
    """
    best: list[Hex] = []
    best_d = None
    for h in hexes:
        if not free(h):
            continue
        d = distance(h, CENTRE)
        if best_d is None or d < best_d:
            best, best_d = [h], d
        elif d == best_d:
            best.append(h)
    return sorted(best)


# -- Scoring --------------------------------------------------------------------------------------

BLUE, GREEN = CRYSTAL_VALUES["blue"], CRYSTAL_VALUES["green"]


def crystal_score(in_bases: Sequence[int], carried: Sequence[int]) -> int:
    """Crystals in Bases at face value, crystals still carried by robots at one point less."""
    return sum(in_bases) + sum(v - 1 for v in carried)


def ranking_key(in_bases: Sequence[int], carried: Sequence[int], score_victory: bool = False) -> tuple[int, ...]:
    """The comparison key (higher is better): a score victory first, then the score, then the
    rulebook's tie-breaks: most blue crystals in Bases, most green, highest value in Bases.

    >>> ranking_key([2, 2], [4]) > ranking_key([3, 4], [])     # 7 each: the two blues win
    True
    """
    return (
        int(score_victory),
        crystal_score(in_bases, carried),
        sum(1 for v in in_bases if v == BLUE),
        sum(1 for v in in_bases if v == GREEN),
        sum(in_bases),
    )
