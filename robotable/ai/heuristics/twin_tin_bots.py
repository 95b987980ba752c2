"""Twin Tin Bots knowledge for agents.

Everything rests on two cheap tools:

- **Navigation tables.** For a target hex, a breadth-first search over ``(hex, facing)`` on the fixed
  board (Bases, Rocks and Teleporters included) gives the number of elementary orders (a Forward step
  or a 60° turn) a robot needs to stand next to the target *facing it*, ready to Load or Unload. They
  are computed once per board and target and cached.
- **Position value.** Each colour's expected points, as a person reads the board:
  - crystals in its Bases at face value;
  - a carried crystal by the orders it still needs to face a Base where it scores: most of its value
    is only safe once delivered (a far carrier may be robbed or zapped, and only crystals in Bases
    count toward a score victory), so every order nearer home counts (:meth:`Table.carried`);
  - a carrier whose own program last left it on the same hex, no nearer facing home (``Load, Turn
    Left`` spinning on the spot, ``Unload, Forward 1x, Load`` against an obstacle) is *idle*: it needs
    a programming change before it moves, so its way home counts :data:`IDLE_ORDERS` more;
  - a carrier exposed to the robots that move before it does loses a share of its crystal to each
    opponent's empty robot that needs 0, 1 or 2 orders to face it (:data:`STEAL_RISK`);
  - an empty robot is worth a share of the best crystal it could fetch (a crystal on the ground, or one
    an opponent carries that it may steal), discounted by the orders to face it and the crystal's
    distance home; the two robots of a colour never count the same crystal;
  - the race for the track's next crystal, which enters on the centre at the next delivery: the colour
    whose empty robot is nearest the centre (a robot on it blocks it and has the crystal next to it)
    counts a share of it, the others a quarter of that.

  A seat's value is its colours' points minus its strongest opponent's (a blend of the strongest and
  the mean with more than two seats); a score victory dominates everything.

The heuristic agent (:func:`choose`) works on a state sampled from what its seat knows
(``Decision.sample``: other colours' hidden Special Orders are re-dealt, nothing else is secret):

- **Programming.** Every legal change is tried in a fast robot-only simulation (:class:`Sim`: Forward
  steps that push, Dash lines, turns, Load and stealing, Unload and delivering, Jump, Back Up, Mud,
  Zaps), with the engine's own rules of movement, loading and zapping. Programs persist and the other
  colours' programs are public, so a change is valued at three moments (:func:`projection`): after our
  run (our carriers exposed), after every other colour's program has run as it stands (what a person
  sees coming: the robot we just robbed stealing its crystal back, a push, a zap that makes our carrier
  unload), and after our unchanged program runs once more. The best few changes are then played on
  copies of the real engine (every rule applies, pending decisions resolved as below) and valued the
  same way; the best is kept. Double Modification is used when the best changes on the two robots
  together clearly beat the best single change. The first turn's placements are chosen the same way,
  one robot after the other.
- **Pending decisions** (zap order, Blob move, crystal placement): each choice is played on a copy of
  the engine to the end of the turn and the position valued; so a zapped carrier is made to unload
  (unless that would score for its owner), a zapped own robot is turned toward its goal, a Blob is
  pushed out of the way, and a new crystal is put closest to our robots.

After round 40 a growing share of turns (up to 90%) is played at random: two heuristic players can
lock each other in a zap war, and this ends any stalemate; real games end by round 20-40.

For search: :func:`rollout` is a fast policy: for each robot of the active colour, the navigation
tables give its ideal next three orders (toward home when loaded, else toward the best crystal,
finishing with Unload or Load); the first slot where its program differs gets the ideal tile (the
earliest difference first, carriers first); otherwise the programs are kept (Pass). One turn in ten is
random. Pending decisions get quick rules (make an opponent's carrier unload unless it faces a Base of
its team, else turn left). :func:`evaluate` turns the expected points, now and after every colour's
programs have run once more, into expected rewards by a soft pairwise comparison; hard's search adds the
race to the score victory (:func:`victory_threat`: a carrier whose delivery would win the game, by the
orders it still needs), which a points difference does not see. :func:`model`,
ISMCTS's opponent model, is the heuristic's ranking read off a determinized state, lighter (one run of
the programs, no engine check), remembered by position (search meets the same positions again and
again). ``LEVELS`` gives this game's own search budgets: a Twin Tin Bots action is a whole turn, so
rollouts are short.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Collection, Sequence

from robotable.core import Action, Rng, State
from robotable.games.twin_tin_bots import DoubleModification, Pass, Place, Remove, Reset, Swap, Tile, ZapOrder
from robotable.games.twin_tin_bots import orders as O
from robotable.games.twin_tin_bots.board import BLOB_THING, GROUND, ROBOT, Board, Thing
from robotable.games.twin_tin_bots.components import SLOTS_PER_ROBOT, ZAP_RANGE
from robotable.games.twin_tin_bots.crystals import (
    INTO_BASE,
    ONTO_GROUND,
    crystal_in_front,
    may_unload_in,
    theft_prevented,
    unload_spot,
)
from robotable.games.twin_tin_bots.hexgrid import CENTRE, OFFSETS, Hex, board_hexes, opposite, turn
from robotable.games.twin_tin_bots.movement import jump_landing, next_hex, push_line, stuck_at_turn_start
from robotable.games.twin_tin_bots.programs import program_after
from robotable.games.twin_tin_bots.running import UNLIMITED
from robotable.games.twin_tin_bots.state import BLOB, CHANGE, CRYSTAL, OVER, ZAP, TtbState
from robotable.games.twin_tin_bots.zaps import zap_resisted, zap_scan

from ..base import Decision

#: Discount per elementary order still needed.
GAMMA = 0.82
#: Share of a carried crystal's last point already "banked" when the robot faces its Base.
DELIVERY = 0.95
#: Share of a carried crystal's other points that is safe however far from home it is (the rest is
#: discounted by the orders still needed: a crystal far from its Base may be stolen or zapped away,
#: and only crystals in Bases count toward a score victory). In the end phase all of it is safe.
KEEP = 0.6
#: Share of a crystal's carried value an empty robot facing it is worth.
FETCH = 0.7
#: Orders added to a carrier's way home when its own program left it on the same hex: it needs a
#: programming change (one a turn for both robots) before it moves again.
IDLE_ORDERS = 3
#: Orders added to an empty robot's way to any crystal when its own program left it on the same hex
#: (a program of Zaps, turns or nothing): it fetches nothing before a programming change.
IDLE_EMPTY_ORDERS = 2
#: Chance that an opponent's empty robot needing 0, 1 or 2 orders to face a carrier steals its crystal
#: before the carrier moves again (it may change one slot of its program to do it).
STEAL_RISK = (0.5, 0.3, 0.12)
#: Hard's weight of the race to the score victory in :func:`evaluate` (``evaluate_race``), in points: a
#: carrier whose delivery would end the game in its seat's favour is worth that much more, times GAMMA per
#: order it still needs to face its Base, and a seat that reaches the target when the programs run once
#: more twice that. A points difference does not see that the game ends at the target: with 9 points and
#: a 3 on its way home, the other seat's lead of two points is worth nothing.
RACE = 6.0
#: Share of the next crystal of the track (it enters on the centre at the next delivery) counted for
#: the colour whose empty robot is nearest the centre; the others count a quarter of it.
NEXT_SHARE = 0.3
#: Weights of the three moments a change is valued at: after our run, after the other colours' standing
#: programs have run (what a person sees coming: a steal back, a push, a zap), after our second run.
NOW, REPLY, LATER = 0.35, 0.35, 0.3
#: Changes checked on the real engine after the robot-only simulation.
VERIFY = 3
#: Bonus per point of cargo for a Zap that would hit an opponent's carrier.
ZAP_BONUS = 0.15
FAR = 60
#: After this round, programming turns are more and more often random, so no stalemate lasts forever.
STALL_ROUND = 40

# Tile's members are read from the game's data file, so they are looked up by name.
_ANTI_ZAP, _ANTI_THEFT, _DASH = int(Tile["ANTI_ZAP"]), int(Tile["ANTI_THEFT"]), int(Tile["DASH"])
_F1, _F2 = int(Tile["FORWARD_1"]), int(Tile["FORWARD_2"])
_TL, _TR = int(Tile["TURN_LEFT"]), int(Tile["TURN_RIGHT"])
_LOAD, _UNLOAD = int(Tile["LOAD"]), int(Tile["UNLOAD"])
_ZAP_UNLOAD = ZapOrder(Tile["UNLOAD"])
_ZAP_LEFT = ZapOrder(Tile["TURN_LEFT"])
_PASS = Pass()


# -- navigation -------------------------------------------------------------------------------------


class Nav:
    """Fixed-board geometry: forward moves over ``(hex, facing)`` states and cached distance tables."""

    def __init__(self, board: Board) -> None:
        b = self.board = board
        self.hexes: list[Hex] = board_hexes(b.radius)
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        self.standable = [not b.solid(h) and h not in b.tele for h in self.hexes]
        n = len(self.hexes)
        self.fwd: list[int] = [-1] * (6 * n)
        rev: list[list[int]] = [[] for _ in range(6 * n)]
        for i, h in enumerate(self.hexes):
            if not self.standable[i]:
                continue
            for f in range(6):
                nxt = next_hex(b, h, f)
                if nxt is not None:
                    j = self.index[nxt] * 6 + f
                    self.fwd[i * 6 + f] = j
                    rev[j].append(i * 6 + f)
        self.rev = rev
        self._tables: dict[Hex, list[int]] = {}
        self._near: dict[Hex, list[int]] = {}

    def table(self, target: Hex) -> list[int]:
        """Orders needed from each ``(hex, facing)`` state to stand next to ``target`` facing it."""
        t = self._tables.get(target)
        if t is not None:
            return t
        t = [FAR] * len(self.fwd)
        queue: deque[int] = deque()
        for d in range(6):
            dq, dr = OFFSETS[d]
            i = self.index.get((target[0] - dq, target[1] - dr))
            if i is not None and self.standable[i]:
                t[i * 6 + d] = 0
                queue.append(i * 6 + d)
        rev = self.rev
        while queue:
            s = queue.popleft()
            c = t[s] + 1
            base = s - s % 6
            f = s % 6
            for p in (base + (f - 1) % 6, base + (f + 1) % 6, *rev[s]):
                if t[p] > c:
                    t[p] = c
                    queue.append(p)
        self._tables[target] = t
        return t

    def near(self, target: Hex) -> list[int]:
        """Per hex index: the fewest orders from that hex (best facing) to face ``target``."""
        m = self._near.get(target)
        if m is None:
            t = self.table(target)
            m = [min(t[i * 6 : i * 6 + 6]) for i in range(len(self.hexes))]
            self._near[target] = m
        return m


_NAVS: dict[tuple, Nav] = {}


def nav_for(st: TtbState) -> Nav:
    """The (cached) navigation of a state's board."""
    b = st.board
    key = (b.radius, b.bases, b.rocks, b.teleporters, b.mud)
    nav = _NAVS.get(key)
    if nav is None:
        if len(_NAVS) > 64:
            _NAVS.clear()
        nav = _NAVS[key] = Nav(b)
    return nav


# -- the position's value ---------------------------------------------------------------------------


class _Seating:
    """Per game set-up (cached): who is who and where each colour scores."""

    def __init__(self, st: TtbState, nav: Nav) -> None:
        ncol = len(st.colours)
        opts = st.options
        bases = st.board.bases
        self.team_play = bool(opts.get("team_play"))
        if self.team_play:
            homes = [[bases[o] for o in range(ncol) if st.team[o] == st.team[c]] for c in range(ncol)]
        else:
            homes = [[bases[c]] for c in range(ncol)]
        self.home_tables = [[nav.table(h) for h in hs] for hs in homes]
        self.home_cost_table = [_elementwise_min(t) for t in self.home_tables]
        self.home_dist_table = [_elementwise_min([nav.near(h) for h in hs]) for hs in homes]
        self.advanced = bool(opts.get("advanced_2p"))
        self.target = st.score_target()
        self.seat_cols = [st.seat_colours(s) for s in range(st.num_players)]


_SEATINGS: dict[tuple, _Seating] = {}


def _static(st: TtbState) -> tuple[Nav, _Seating]:
    """The cached navigation and seating of a state's game."""
    nav = nav_for(st)
    key = (id(nav), st.colours, st.team, st.controller, tuple(sorted(st.options.items(), key=str)))
    seating = _SEATINGS.get(key)
    if seating is None:
        if len(_SEATINGS) > 256:
            _SEATINGS.clear()
        seating = _SEATINGS[key] = _Seating(st, nav)
    return nav, seating


class Table:
    """What never changes during one decision: who is who, where each colour scores, protections."""

    def __init__(self, st: TtbState) -> None:
        self.nav, seating = _static(st)
        self.rp = rp = st.robots_per
        self.ncol = len(st.colours)
        self.team = st.team
        self.controller = st.controller
        self.nrob = len(st.rhex)
        self.home_tables = seating.home_tables
        self.home_cost_table = seating.home_cost_table
        self.home_dist_table = seating.home_dist_table
        self.advanced = seating.advanced
        self.target = seating.target
        self.team_play = seating.team_play
        self.seat_cols = seating.seat_cols
        self.num_players = st.num_players
        self.cache: dict[tuple, float] = {}
        self.board = st.board
        programs = st.programs
        lo = [(r % rp) * SLOTS_PER_ROBOT for r in range(self.nrob)]
        self.anti_zap = [_ANTI_ZAP in programs[r // rp][lo[r] : lo[r] + SLOTS_PER_ROBOT] for r in range(self.nrob)]
        self.anti_theft = [_ANTI_THEFT in programs[r // rp][lo[r] : lo[r] + SLOTS_PER_ROBOT] for r in range(self.nrob)]
        self.end_phase = st.end_phase
        # Late in the game a carried crystal may never get home: weigh the last point less.
        self.late = 0.5 if st.end_phase and st.countdown <= 1 else 1.0
        self.keep = 1.0 if st.end_phase else KEEP
        self.safe = (0.0,) * rp
        #: orders added to an idle empty robot's fetching (search's evaluator only: see :func:`evaluate`)
        self.idle_empty = 0
        self.order = st.order
        # the race for the track's next crystal: what it is worth to each colour from the centre
        self.centre = self.nav.index[CENTRE]
        self.centre_table = self.nav.table(CENTRE)
        nxt = st.track[0] if st.track else 0
        self.next_worth = (
            [NEXT_SHARE * FETCH * self.carried(nxt, self.home_dist_table[c][self.centre]) for c in range(self.ncol)]
            if nxt
            else None
        )

    def carried(self, value: int, cost: int) -> float:
        """A crystal of ``value`` carried ``cost`` orders away from facing a Base where it scores."""
        near = GAMMA**cost
        return (value - 1) * (self.keep + (1 - self.keep) * near) + self.late * DELIVERY * near

    def after(self, colour: int) -> list[int]:
        """The other colours in turn order, from the one after ``colour``."""
        i = self.order.index(colour)
        n = len(self.order)
        return [self.order[(i + k) % n] for k in range(1, n)]

    def home_cost(self, c: int, state_index: int) -> int:
        """Orders robot state ``state_index`` needs to face a Base where colour ``c`` scores."""
        return self.home_cost_table[c][state_index]

    def home_cost_at(self, r: int, where: TtbState | Sim) -> int:
        """Orders robot ``r`` needs, where it stands in ``where``, to face a Base where it scores."""
        return self.home_cost_table[r // self.rp][self.nav.index[where.rhex[r]] * 6 + where.rface[r]]


def _elementwise_min(tables: list[list[int]]) -> list[int]:
    return tables[0] if len(tables) == 1 else [min(v) for v in zip(*tables, strict=True)]


def colour_points(
    tb: Table,
    rhex: list[Hex],
    rface: list[int],
    rcargo: list[int],
    ground: dict[Hex, int],
    delivered: list[int],
    exposed: Collection[int] = (),
    idle: Collection[int] = (),
) -> list[float]:
    """Each colour's expected points (see the module docstring), cached per decision.

    ``exposed``: the colours whose carriers other colours' robots move against before they move again
    (their crystals may be stolen); ``idle``: the carriers whose own program last left them where they
    stood (they need a programming change to go on)."""
    index = tb.nav.index
    rp = tb.rp
    ground_key = tuple(ground.items())
    carriers = tuple((rhex[o], rcargo[o]) for o in range(tb.nrob) if rcargo[o])
    states = [index[h] * 6 + f for h, f in zip(rhex, rface, strict=True)]
    out = []
    safe = tb.safe
    for c in range(tb.ncol):
        robots = range(c * rp, c * rp + rp)
        risks = (
            tuple(_steal_risk(tb, r, rhex, rcargo, states) if rcargo[r] else 0.0 for r in robots)
            if c in exposed and carriers
            else safe
        )
        mine = (
            tuple((states[r], rcargo[r], r in idle) for r in robots)
            if idle
            else tuple((states[r], rcargo[r], False) for r in robots)
        )
        key = (c, mine, risks, ground_key, carriers)
        v = tb.cache.get(key)
        if v is None:
            v = tb.cache[key] = _robots_worth(tb, c, mine, risks, ground, rhex, rcargo)
        out.append(delivered[c] + v)
    if tb.next_worth is not None:
        _race_for_next(tb, out, states, rcargo)
    return out


def _steal_risk(tb: Table, r: int, rhex: list[Hex], rcargo: list[int], states: list[int]) -> float:
    """The chance that carrier ``r`` loses its crystal to an opponent's empty robot near it."""
    team = tb.team[r // tb.rp]
    if tb.anti_theft[r]:
        return 0.0
    table = tb.nav.table(rhex[r])
    risk = 0.0
    for o in range(tb.nrob):
        if rcargo[o] or tb.team[o // tb.rp] == team:
            continue
        cost = table[states[o]]
        if cost < len(STEAL_RISK):
            risk = max(risk, STEAL_RISK[cost])
    return risk


def _race_for_next(tb: Table, points: list[float], states: list[int], rcargo: list[int]) -> None:
    """The next crystal of the track enters on the centre: the colour whose empty robot is nearest
    counts a share of it, the others a quarter of that (a robot on the centre has it next to it)."""
    centre, table, rp, worth = tb.centre, tb.centre_table, tb.rp, tb.next_worth
    if worth is None:  # no crystal left on the track
        return
    costs = []
    for c in range(tb.ncol):
        best = FAR
        for r in range(c * rp, c * rp + rp):
            if not rcargo[r]:
                s = states[r]
                cost = 1 if s // 6 == centre else table[s]
                if cost < best:
                    best = cost
        costs.append(best)
    for c, cost in enumerate(costs):
        if cost >= FAR:
            continue
        rival = min((costs[o] for o in range(tb.ncol) if tb.team[o] != tb.team[c]), default=FAR)
        share = 1.0 if cost < rival else 0.5 if cost == rival else 0.25
        points[c] += share * worth[c] * GAMMA**cost


def _robots_worth(
    tb: Table,
    c: int,
    mine: tuple[tuple[int, int, bool], ...],
    risks: tuple[float, ...],
    ground: dict[Hex, int],
    rhex: list[Hex],
    rcargo: list[int],
) -> float:
    """What a colour's robots are worth: cargo on its way home, crystals they may fetch."""
    index = tb.nav.index
    total = 0.0
    home_cost = tb.home_cost_table[c]
    home_dist = tb.home_dist_table[c]
    empty_scores: list[dict[Hex, float]] = []
    for (s, v, idle), risk in zip(mine, risks, strict=True):
        if v:
            cost = home_cost[s] + (IDLE_ORDERS if idle else 0)
            total += (1.0 - risk) * tb.carried(v, cost)
            continue
        extra = tb.idle_empty if idle else 0
        scores: dict[Hex, float] = {}
        for h, cv in ground.items():
            cost = tb.nav.table(h)[s] + extra
            if cost < FAR:
                scores[h] = FETCH * tb.carried(cv, home_dist[index[h]]) * GAMMA**cost
        for o in range(tb.nrob):
            ov = rcargo[o]
            if ov and tb.team[o // tb.rp] != tb.team[c] and not tb.anti_theft[o]:
                h = rhex[o]
                cost = tb.nav.table(h)[s] + extra
                if cost < FAR:
                    scores[h] = 0.5 * FETCH * tb.carried(ov, home_dist[index[h]]) * GAMMA**cost
        empty_scores.append(scores)
    if not empty_scores:
        return total
    if len(empty_scores) == 1:
        return total + max(empty_scores[0].values(), default=0.0)
    a, b = empty_scores
    best_a = max(a.items(), key=lambda kv: kv[1], default=None)
    best_b = max(b.items(), key=lambda kv: kv[1], default=None)
    if best_a is None or best_b is None or best_a[0] != best_b[0]:
        return total + (best_a[1] if best_a else 0.0) + (best_b[1] if best_b else 0.0)
    h = best_a[0]
    alt_b = max((v for k2, v in b.items() if k2 != h), default=0.0)
    alt_a = max((v for k2, v in a.items() if k2 != h), default=0.0)
    return total + max(best_a[1] + alt_b, best_b[1] + alt_a)


def seat_points(tb: Table, points: list[float]) -> list[float]:
    """Each seat's expected points (its team's in Team play)."""
    if tb.team_play:
        team_pts: dict[int, float] = {}
        for c, p in enumerate(points):
            team_pts[tb.team[c]] = team_pts.get(tb.team[c], 0.0) + p
        return [team_pts[tb.team[cols[0]]] for cols in tb.seat_cols]
    return [sum(points[c] for c in cols) for cols in tb.seat_cols]


def relative(values: list[float], seat: int) -> float:
    """A seat's value against the others: its points minus the strongest (and the mean) opponent's."""
    others = [v for s, v in enumerate(values) if s != seat]
    if not others:
        return values[seat]
    if len(others) == 1:
        return values[seat] - others[0]
    return values[seat] - 0.5 * max(others) - 0.5 * sum(others) / len(others)


def _victory(tb: Table, delivered: list[int]) -> int:
    """The seat that has reached the score victory, or -1."""
    if tb.target is None:
        return -1
    for s, cols in enumerate(tb.seat_cols):
        if sum(delivered[c] for c in cols) >= tb.target:
            return s
    return -1


def state_value(st: TtbState, seat: int, tb: Table | None = None, exposed: Collection[int] = ()) -> float:
    """The value of a real (engine) state for ``seat`` (``exposed``: see :func:`colour_points`)."""
    if st.phase == OVER:
        ranks = st.result().ranks
        mine = ranks[seat]
        beaten = sum(1 for s, r in enumerate(ranks) if s != seat and r > mine)
        lost = sum(1 for s, r in enumerate(ranks) if s != seat and r < mine)
        return 1000.0 * (beaten - lost)
    tb = tb or Table(st)
    delivered = [sum(d) for d in st.delivered]
    pts = colour_points(tb, st.rhex, st.rface, st.rcargo, st.ground, delivered, exposed)
    return relative(seat_points(tb, pts), seat)


# -- robot-only simulation --------------------------------------------------------------------------


class Sim:
    """A light copy of the moving parts, on which a colour's programs run with the engine's rules of
    movement, loading, unloading and zapping (:mod:`~robotable.games.twin_tin_bots.movement`,
    :mod:`~robotable.games.twin_tin_bots.crystals`, :mod:`~robotable.games.twin_tin_bots.zaps`), but
    without events, pending decisions or new crystals entering play. A Zap that hits an opponent's
    carrier earns a bonus in our own runs (the engine resolves our choice later) and, in other colours'
    runs (``reply``), makes it unload as the zapper would (unless it faces a Base of its own team).
    ``idle`` holds the carriers whose last run of their own program left them on the same hex, no
    nearer facing home."""

    __slots__ = ("bonus", "delivered", "ground", "idle", "occupied", "rcargo", "reply", "rface", "rhex", "stuck")

    rhex: list[Hex]
    rface: list[int]
    rcargo: list[int]
    ground: dict[Hex, int]
    delivered: list[int]
    occupied: dict[Hex, Thing]
    bonus: float
    idle: set[int]
    reply: bool
    stuck: set[int]

    def __init__(self, st: TtbState | Sim) -> None:
        self.rhex = st.rhex[:]
        self.rface = st.rface[:]
        self.rcargo = st.rcargo[:]
        self.ground = dict(st.ground)
        if isinstance(st, Sim):
            self.delivered = st.delivered[:]
            self.occupied = dict(st.occupied)
            self.bonus = st.bonus
            self.idle = set(st.idle)
        else:
            self.delivered = [sum(d) for d in st.delivered]
            self.occupied = {h: (ROBOT, r) for r, h in enumerate(st.rhex)}
            for h in st.ground:
                self.occupied[h] = (GROUND, h)
            for i, h in enumerate(st.blobs):
                self.occupied[h] = (BLOB_THING, i)
            self.bonus = 0.0
            self.idle = set()
        self.reply = False
        # the robots whose next Forward step Mud ignores (a colour's own are stuck again as its turn starts)
        self.stuck = set(st.stuck) if isinstance(st, Sim) else {r for r, s in enumerate(st.stuck) if s}

    def run(self, tb: Table, colour: int, programs: list[int], reply: bool = False) -> None:
        """Run ``colour``'s turn once (``programs``: its 6 slots): its robots in Mud are stuck at its start.
        ``reply``: another colour's turn after ours (its zaps on our carriers make them unload)."""
        rp = tb.rp
        flags = [r in self.stuck for r in range(tb.nrob)]
        own = range(colour * rp, (colour + 1) * rp)
        self.stuck = {r for r, stuck in enumerate(stuck_at_turn_start(tb.board, self.rhex, flags, own)) if stuck}
        self.reply = reply
        for k in range(rp):
            r = colour * rp + k
            lo = k * SLOTS_PER_ROBOT
            prog = programs[lo : lo + SLOTS_PER_ROBOT]
            cargo = self.rcargo[r]
            before = tb.home_cost_at(r, self) if cargo else 0
            start = self.rhex[r]
            for tile in prog:
                if tile < 0:
                    continue
                for op in O.TILE_OPS[tile]:
                    moved = self.op(tb, r, op, prog)
                    if not moved and tile in O.CHAINED_STEPS:
                        break
            if self.rhex[r] == start and (
                (cargo and self.rcargo[r] and tb.home_cost_at(r, self) >= before) or not (cargo or self.rcargo[r])
            ):
                self.idle.add(r)
            else:
                self.idle.discard(r)
        self.reply = False

    def _put(self, tb: Table, thing: Thing, frm: Hex, to: Hex) -> None:
        """Move a robot, crystal or Blob from ``frm`` to ``to`` (a robot entering Mud is stuck)."""
        del self.occupied[frm]
        kind, ref = thing
        if kind == ROBOT:
            self.rhex[ref] = to
            self.occupied[to] = thing
            if to in tb.board.mud:
                self.stuck.add(ref)
            else:
                self.stuck.discard(ref)
        elif kind == GROUND:
            self.ground[to] = self.ground.pop(frm)
            self.occupied[to] = (GROUND, to)
        else:
            self.occupied[to] = thing

    def op(self, tb: Table, r: int, op: int, prog: list[int]) -> bool:
        """One elementary operation of robot ``r`` (``prog``: its program); False if a step was blocked."""
        if op == O.FORWARD or op == O.BACK_UP:
            return self._step(tb, r, op, prog)
        if op in O.TURNS:
            self.rface[r] = turn(self.rface[r], O.TURNS[op])
        elif op == O.LOAD:
            self._load(tb, r)
        elif op == O.UNLOAD:
            self._unload(tb, r)
        elif op == O.ZAP or op == O.LONG_RANGE_ZAP:
            self._zap(tb, r, ZAP_RANGE if op == O.ZAP else UNLIMITED)
        elif op == O.JUMP:
            h = self.rhex[r]
            land = jump_landing(tb.board, h, self.rface[r])
            if land is not None and land not in self.occupied:
                self._put(tb, (ROBOT, r), h, land)
        return True

    def _step(self, tb: Table, r: int, op: int, prog: list[int]) -> bool:
        if r in self.stuck:
            self.stuck.discard(r)
            return True
        h, f = self.rhex[r], self.rface[r]
        d = f if op == O.FORWARD else opposite(f)
        line = push_line(tb.board, self.occupied.get, h, d, _DASH in prog)
        if line is None:
            return False
        things, hexes = line
        for i in range(len(things) - 1, -1, -1):
            self._put(tb, things[i], hexes[i], hexes[i + 1])
        self._put(tb, (ROBOT, r), h, hexes[0])
        return True

    def _front(self, r: int) -> Hex:
        h, (dq, dr) = self.rhex[r], OFFSETS[self.rface[r]]
        return (h[0] + dq, h[1] + dr)

    def _load(self, tb: Table, r: int) -> None:
        if self.rcargo[r]:
            return
        front = self._front(r)
        source = crystal_in_front(self.ground, self.occupied.get, self.rcargo, front)
        if source is None:
            return
        if source[0] == GROUND:
            self.rcargo[r] = self.ground.pop(front)
            del self.occupied[front]
            return
        o = source[1]
        if not theft_prevented(tb.team[o // tb.rp] != tb.team[r // tb.rp], tb.anti_theft[o]):
            self.rcargo[r], self.rcargo[o] = self.rcargo[o], 0

    def _unload(self, tb: Table, r: int) -> None:
        v = self.rcargo[r]
        if not v:
            return
        front = self._front(r)
        spot = unload_spot(tb.board, self.occupied.get, self.rcargo, front)
        if spot is None:
            return
        kind, ref = spot
        if kind == INTO_BASE:
            if not may_unload_in(tb.advanced, tb.controller, r // tb.rp, ref):
                return
            self.delivered[ref] += v
        elif kind == ONTO_GROUND:
            self.ground[front] = v
            self.occupied[front] = (GROUND, front)
        else:
            self.rcargo[ref] = v
        self.rcargo[r] = 0

    def _zap(self, tb: Table, r: int, reach: int) -> None:
        hit = zap_scan(tb.board, self.occupied.get, self.rhex[r], self.rface[r], reach)
        if hit is None or hit[1] is None or hit[1][0] != ROBOT:
            return
        o = hit[1][1]
        if tb.team[o // tb.rp] == tb.team[r // tb.rp] or zap_resisted(True, tb.anti_zap[o]) or not self.rcargo[o]:
            return
        if not self.reply:
            self.bonus += ZAP_BONUS * self.rcargo[o]
            return
        base = tb.board.base_at.get(self._front(o))
        if base is None or tb.team[base] != tb.team[o // tb.rp]:
            self._unload(tb, o)

    def value(self, tb: Table, seat: int, exposed: Collection[int] = ()) -> float:
        """The seat's value here (``exposed``: colours whose carriers others move against first)."""
        v = _victory(tb, self.delivered)
        if v >= 0:
            return 1000.0 if v == seat else -1000.0
        pts = colour_points(tb, self.rhex, self.rface, self.rcargo, self.ground, self.delivered, exposed, self.idle)
        return relative(seat_points(tb, pts), seat)


def changed_program(prog: list[int], action: Action) -> list[int] | None:
    """The 6 slots after a programming change (``None`` for Double Modification): the engine's rule."""
    return program_after(prog, action)


def program_value(
    tb: Table, start: Sim, st: TtbState, colour: int, seat: int, prog: list[int], twice: bool = True
) -> float:
    """Value of running ``prog`` this turn, then (``twice``) the other colours' programs as they stand
    and ours, unchanged, once more (see :func:`projection`)."""
    sim = Sim(start)
    sim.run(tb, colour, prog)
    if not twice:
        return sim.value(tb, seat, tb.seat_cols[seat]) + sim.bonus
    return projection(tb, sim, st.programs, colour, seat, prog)


def projection(tb: Table, sim: Sim, programs: list[list[int]], colour: int, seat: int, prog: list[int]) -> float:
    """Value of ``sim`` (``colour`` has just run) for ``seat``: a blend of now (our carriers exposed to
    the robots that move next), after every other colour's program has run as it stands (``programs``:
    every colour's slots) and after ``colour`` runs ``prog`` again (programs persist). A carrier whose
    run left it on the same hex is idle (:data:`IDLE_ORDERS`)."""
    mine = tb.seat_cols[seat]
    now = sim.value(tb, seat, mine) + sim.bonus
    if abs(now) >= 1000.0:
        return now
    sim.bonus = 0.0
    for c in tb.after(colour):
        sim.run(tb, c, programs[c], reply=True)
    reply = sim.value(tb, seat)
    if abs(reply) >= 1000.0:
        return NOW * now + (1 - NOW) * reply
    sim.run(tb, colour, prog)
    later = sim.value(tb, seat, mine) + sim.bonus
    return NOW * now + REPLY * reply + LATER * later


# -- deciding ---------------------------------------------------------------------------------------


def _dedupe_first_turn(st: TtbState, legal: Sequence[Action]) -> list[Action]:
    """On a robot with an empty program, one placement per tile (the slot does not matter now)."""
    out: list[Action] = []
    seen: set[tuple[int, int]] = set()
    prog = st.programs[st.active]
    for a in legal:
        if isinstance(a, Place):
            k = a.slot // SLOTS_PER_ROBOT
            lo = k * SLOTS_PER_ROBOT
            if all(t < 0 for t in prog[lo : lo + SLOTS_PER_ROBOT]):
                key = (k, int(a.tile))
                if key in seen:
                    continue
                seen.add(key)
        out.append(a)
    return out


def _rank_changes(
    st: TtbState, seat: int, legal: Sequence[Action], tb: Table, twice: bool = True
) -> list[tuple[float, Action]]:
    """Every change valued in the robot-only simulation, best first."""
    colour = st.active
    prog = st.programs[colour]
    start = Sim(st)
    scored: list[tuple[float, int, Action]] = []
    for i, a in enumerate(_dedupe_first_turn(st, legal)):
        p = changed_program(prog, a)
        if p is None:
            continue
        scored.append((program_value(tb, start, st, colour, seat, p, twice), -i, a))
    scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
    return [(v, a) for v, _, a in scored]


def _double_gain(st: TtbState, seat: int, ranked: list[tuple[float, Action]], tb: Table) -> float:
    """What the best change on each robot together add over the best single change."""
    colour = st.active
    prog = st.programs[colour]
    best: dict[int, Action] = {}
    for _, a in ranked:
        k = _robot_of(a)
        if k is not None and k not in best:
            best[k] = a
    if len(best) < 2:
        return 0.0
    p = changed_program(changed_program(prog, best[0]) or prog, best[1]) or prog
    both = program_value(tb, Sim(st), st, colour, seat, p)
    return both - ranked[0][0]


def _robot_of(a: Action) -> int | None:
    if isinstance(a, Place | Remove):
        return a.slot // SLOTS_PER_ROBOT
    if isinstance(a, Swap):
        return a.slot_a // SLOTS_PER_ROBOT
    if isinstance(a, Reset):
        return a.robot
    return None


def _finish_turn(sim: TtbState, seat: int, depth: int, tb: Table, before: TtbState) -> float:
    """Value once the turn begun in ``before`` is over, resolving our own pending decisions on copies
    of the engine."""
    if sim.phase in (ZAP, BLOB, CRYSTAL) and sim.to_act() == [seat]:
        legal = sim.legal_actions(seat)
        if depth <= 0:
            sim.apply_legal(seat, _quick_pending(sim, seat, legal))
            return _finish_turn(sim, seat, 0, tb, before)
        return max(_finish_turn(_applied(sim, seat, a), seat, depth - 1, tb, before) for a in legal)
    if sim.phase == OVER:
        return state_value(sim, seat, tb)
    return _projected(sim, seat, tb, before)


def _projected(sim: TtbState, seat: int, tb: Table, before: TtbState) -> float:
    """The end of the turn begun in ``before``, on the engine, valued as :func:`program_value` values a
    change (a carrier of the colour that ran and stayed on its hex is idle)."""
    colour = before.active
    start = Sim(sim)
    for r in range(colour * tb.rp, (colour + 1) * tb.rp):
        if sim.rhex[r] == before.rhex[r] and (
            (before.rcargo[r] and sim.rcargo[r] and tb.home_cost_at(r, sim) >= tb.home_cost_at(r, before))
            or not (before.rcargo[r] or sim.rcargo[r])
        ):
            start.idle.add(r)
    return projection(tb, start, sim.programs, colour, seat, sim.programs[colour])


def _applied(st: TtbState, seat: int, action: Action) -> TtbState:
    sim = st.clone()
    sim.apply_legal(seat, action)
    return sim


def _engine_value(st: TtbState, seat: int, action: Action, tb: Table) -> float:
    """Play ``action`` on a copy of the engine and value the end of the turn."""
    sim = _applied(st, seat, action)
    colour = st.active
    if (
        sim.phase == CHANGE
        and sim.active == colour
        and sim.to_act() == [seat]
        and (sim.round, sim.turn)
        == (
            st.round,
            st.turn,
        )
    ):
        # More changes to make this turn (first turn, Double Modification): run as the programs stand.
        probe = Sim(sim)
        probe.run(tb, colour, sim.programs[colour])
        return probe.value(tb, seat, tb.seat_cols[seat]) + probe.bonus
    return _finish_turn(sim, seat, 1, tb, st)


def _quick_pending(st: TtbState, seat: int, legal: Sequence[Action]) -> Action:
    """A cheap answer to a pending decision: unload an opponent's carrier, else turn; first choice else."""
    if st.phase == ZAP:
        victim = st.target
        zapper = st.active
        if st.rcargo[victim] and st.opponents(zapper, st.robot_colour(victim)):
            base = st.board.base_at.get(st.front(victim))
            if base is None or st.opponents(zapper, base):
                return _ZAP_UNLOAD
        return _ZAP_LEFT
    return legal[0]


def decide(
    st: TtbState, seat: int, legal: Sequence[Action], rng: Rng, verify: int = VERIFY, light: bool = False
) -> Action:
    """The heuristic's choice on a (determinized) state (``light``: one run, no engine check)."""
    if len(legal) == 1:
        return legal[0]
    if rng.random() < min(0.9, max(0.0, (st.round - STALL_ROUND) / 100)):
        return legal[rng.randrange(len(legal))]  # a long stalemate: shake it up
    tb = Table(st)
    if st.phase != CHANGE:
        best, best_v = legal[0], -math.inf
        for a in legal:
            v = _finish_turn(_applied(st, seat, a), seat, 1, tb, st)
            if v > best_v:
                best, best_v = a, v
        return best
    ranked = _rank_changes(st, seat, legal, tb, twice=not light)
    if light:
        return ranked[0][1] if ranked else legal[0]
    if any(isinstance(a, DoubleModification) for a in legal) and _double_gain(st, seat, ranked, tb) > 1.2:
        return next(a for a in legal if isinstance(a, DoubleModification))
    if verify <= 0 or not ranked:
        return ranked[0][1] if ranked else legal[0]
    top = [a for _, a in ranked[:verify]]
    pass_ = next((a for a in legal if isinstance(a, Pass)), None)
    if pass_ is not None and pass_ not in top:
        top.append(pass_)
    best, best_v = top[0], -math.inf
    for a in top:
        v = _engine_value(st, seat, a, tb)
        if v > best_v + 1e-9:
            best, best_v = a, v
    return best


def as_ttb(state: State) -> TtbState:
    """``state`` as Twin Tin Bots' state class, whose fields these heuristics read."""
    if not isinstance(state, TtbState):
        raise TypeError(f"a Twin Tin Bots heuristic was given a {type(state).__name__}")
    return state


def choose(decision: Decision, rng: Rng) -> Action:
    """The heuristic agent's choice, from a state sampled from what the seat knows."""
    if len(decision.legal) == 1:
        return decision.legal[0]
    st = decision.sample(rng)
    return decide(as_ttb(st), decision.seat, decision.legal, rng)


#: The opponent model's answers by position (see :func:`model`), at most this many kept.
MODEL_CACHE_SIZE = 4096
_MODEL_CACHE: dict[tuple, Action] = {}


def _model_key(st: TtbState, seat: int, legal: Sequence[Action]) -> tuple:
    """Everything the light heuristic reads in a programming phase: the board, where each robot stands
    and faces and what it carries, the crystals, programs, deliveries, the track's next crystal, the
    end phase, whose turn it is and the legal changes (they hold the mover's hand)."""
    b = st.board
    return (
        b.radius,
        b.bases,
        b.rocks,
        b.teleporters,
        b.mud,
        repr(st.options),
        st.controller,
        st.team,
        st.order,
        st.turn,
        seat,
        st.end_phase,
        st.countdown,
        st.track[0] if st.track else 0,
        tuple(st.rhex),
        tuple(st.rface),
        tuple(st.rcargo),
        tuple(st.ground.items()),
        tuple(map(tuple, st.delivered)),
        tuple(st.blobs),
        tuple(st.stuck),
        tuple(map(tuple, st.programs)),
        tuple(st.first_done),
        tuple(legal),
    )


def model(state: State, seat: int, legal: Sequence[Action], rng: Rng) -> Action:
    """The heuristic's choice read off a (determinized) state: how search expects others to play.

    A programming choice (before the stalemate breaker's random turns) depends only on the position,
    and search asks about the same positions again and again (the position after each of the root's
    candidates is the same in almost every sample: only hidden Special Orders differ), so the answers
    are remembered by position (:func:`_model_key`): the same answer, and the same draws from ``rng``,
    as without the memory, for about half the search's time."""
    st = as_ttb(state)
    if st.phase != CHANGE or st.round > STALL_ROUND or len(legal) <= 1:
        return decide(st, seat, legal, rng, light=True)
    key = _model_key(st, seat, legal)
    action = _MODEL_CACHE.get(key)
    if action is not None:
        rng.random()  # what :func:`decide` draws for the stalemate breaker: the same stream either way
        return action
    if len(_MODEL_CACHE) >= MODEL_CACHE_SIZE:
        _MODEL_CACHE.clear()
    action = _MODEL_CACHE[key] = decide(st, seat, legal, rng, light=True)
    return action


# -- search -----------------------------------------------------------------------------------------


def _ideal_tiles(nav: Nav, homes: list[list[int]], st: TtbState, r: int) -> list[int]:
    """The next three orders that bring robot ``r`` toward its goal (home if loaded, else a crystal)."""
    s = nav.index[st.rhex[r]] * 6 + st.rface[r]
    if st.rcargo[r]:
        table = min(homes, key=lambda t: t[s])
        final = _UNLOAD
    else:
        best, nearest = math.inf, None
        for h, v in st.ground.items():
            t = nav.table(h)
            cost = t[s] - 0.7 * v
            if cost < best:
                best, nearest = cost, t
        if nearest is None:
            return []
        table, final = nearest, _LOAD
    out: list[int] = []
    fwd = nav.fwd
    for _ in range(SLOTS_PER_ROBOT):
        cost = table[s]
        if cost == 0:
            out.append(final)
            break
        if cost >= FAR:
            break
        f = s % 6
        j = fwd[s]
        if j >= 0 and table[j] < cost:
            out.append(_F1)
            s = j
        elif table[s - f + (f + 1) % 6] < cost:
            out.append(_TL)
            s = s - f + (f + 1) % 6
        else:
            out.append(_TR)
            s = s - f + (f - 1) % 6
    return out


def rollout(state: State, seat: int, legal: Sequence[Action], rng: Rng) -> Action:
    """A cheap policy for search rollouts: write a robot's ideal next order where its program first
    differs from it (the earliest difference first, carriers first), else keep the programs."""
    st = as_ttb(state)
    if st.phase != CHANGE:
        return _quick_pending(st, seat, legal)
    if rng.random() < 0.1:
        return legal[rng.randrange(len(legal))]
    nav, seating = _static(st)
    colour = st.active
    prog = st.programs[colour]
    hand = st.hand(colour)
    rp = st.robots_per
    best: tuple[int, int, Action] | None = None
    for k in range(rp):
        r = colour * rp + k
        ideal = _ideal_tiles(nav, seating.home_tables[colour], st, r)
        lo = k * SLOTS_PER_ROBOT
        change: Action | None = None
        at = 0
        for i, tile in enumerate(ideal):
            if prog[lo + i] == tile or (tile == _F1 and prog[lo + i] == _F2):
                continue
            if hand.get(tile, 0) <= 0 and tile == _F1 and hand.get(_F2, 0) > 0:
                tile = _F2
            if hand.get(tile, 0) > 0:
                change, at = Place(lo + i, Tile(tile)), i
            break
        else:
            n = len(ideal)
            if ideal and n < SLOTS_PER_ROBOT and prog[lo + n] >= 0 and st.first_done[colour]:
                change, at = Remove(lo + n), n
        if change is not None and st.is_legal(seat, change):
            key = (at, 0 if st.rcargo[r] else 1, change)
            if best is None or key[:2] < best[:2]:
                best = key
    if best is not None:
        return best[2]
    if st.first_done[colour]:
        return _PASS
    return legal[rng.randrange(len(legal))]


def prune(state: State, seat: int, legal: Sequence[Action]) -> list[Action]:
    """One change per program it leads to, as the robots run it: empty slots are skipped, so placing a
    tile on any empty slot after the same tiles (or on either robot's slot in a first turn) is one
    choice, and search spends its samples on choices that differ (the first listed is kept)."""
    st = as_ttb(state)
    if st.phase != CHANGE:
        return list(legal)
    prog = st.programs[st.active]
    out: list[Action] = []
    seen: set[tuple[int, tuple[int, ...]]] = set()
    for a in legal:
        if type(a) is Place:
            k = a.slot // SLOTS_PER_ROBOT
            p = prog[k * SLOTS_PER_ROBOT : k * SLOTS_PER_ROBOT + SLOTS_PER_ROBOT]
            p[a.slot - k * SLOTS_PER_ROBOT] = int(a.tile)
        elif type(a) is Swap or type(a) is Remove:
            k = a.slot_a // SLOTS_PER_ROBOT if isinstance(a, Swap) else a.slot // SLOTS_PER_ROBOT
            p = (program_after(prog, a) or prog)[k * SLOTS_PER_ROBOT : k * SLOTS_PER_ROBOT + SLOTS_PER_ROBOT]
        else:
            out.append(a)
            continue
        key = (k, tuple(x for x in p if x >= 0))
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


def victory_threat(tb: Table, where: TtbState | Sim, delivered: list[int]) -> list[float]:
    """Per seat, how near it is to the delivery that wins the game (the score victory): GAMMA per order
    its nearest carrier of a crystal worth the points it still needs must take to face its Base; 0 if
    none carries enough, or the game has no score victory (Team play)."""
    out = [0.0] * len(tb.seat_cols)
    if tb.target is None:
        return out
    cargo, rp = where.rcargo, tb.rp
    for s, cols in enumerate(tb.seat_cols):
        needed = tb.target - sum(delivered[c] for c in cols)
        for c in cols:
            for r in range(c * rp, c * rp + rp):
                if cargo[r] and cargo[r] >= needed:
                    out[s] = max(out[s], GAMMA ** tb.home_cost_at(r, where))
    return out


def evaluate(state: State, scale: float = 2.0, race: float = 0.0) -> list[float]:
    """Expected rewards from expected points, half now and half after every colour's programs run once
    more unchanged (programs persist; their zaps make carriers unload): a soft pairwise comparison
    (``scale`` points ~ a clear edge; a level may set it as ``evaluate_scale``). The carriers of the
    colours that do not move next are exposed to steals; after the run, a carrier its program left on the
    same hex is idle. ``race`` (a level's ``evaluate_race``, hard's :data:`RACE`) adds the race to the
    score victory: :func:`victory_threat` now and after the run, times ``race`` points, and twice
    ``race`` for a seat that reaches the target in the run."""
    st = as_ttb(state)
    tb = Table(st)
    tb.idle_empty = IDLE_EMPTY_ORDERS
    delivered = [sum(d) for d in st.delivered]
    order = st.order
    first = st.turn if st.phase == CHANGE else st.turn + 1
    mover = st.controller[order[first % len(order)]]
    exposed = [c for c in range(tb.ncol) if st.controller[c] != mover]
    now = colour_points(tb, st.rhex, st.rface, st.rcargo, st.ground, delivered, exposed)
    sim = Sim(st)
    for i in range(first, first + len(order)):
        c = order[i % len(order)]
        sim.run(tb, c, st.programs[c], reply=True)
    later = colour_points(tb, sim.rhex, sim.rface, sim.rcargo, sim.ground, sim.delivered, exposed, sim.idle)
    totals = seat_points(tb, [(a + b) / 2 for a, b in zip(now, later, strict=True)])
    if race and tb.target is not None:
        threats = zip(victory_threat(tb, st, delivered), victory_threat(tb, sim, sim.delivered), strict=True)
        totals = [t + race * (a + b) / 2 for t, (a, b) in zip(totals, threats, strict=True)]
        for s, cols in enumerate(tb.seat_cols):
            if sum(sim.delivered[c] for c in cols) >= tb.target:  # it wins when the programs run again
                totals[s] += 2 * race
    n = len(totals)
    if n == 1:
        return [1.0]
    return [
        sum(1.0 / (1.0 + math.exp((totals[o] - totals[s]) / scale)) for o in range(n) if o != s) / (n - 1)
        for s in range(n)
    ]


#: Search budgets for this game (see ``robotable.ai.ismcts.LEVELS``): a Twin Tin Bots action is a whole
#: turn (a change and two programs run), so rollouts are shorter and iterations fewer than the defaults.
#: About 50 changes are legal each turn (about 35 once :func:`prune` keeps one per program). Hard
#: searches only the heuristic's choice and the best five others by the evaluator (``root_width``), so
#: each gets enough samples: that, not the iterations, is its strength (a medium of 60 iterations on 3
#: such candidates won 14 of 28 against it). Medium and easy search every change without that guide,
#: with 120 and 40 iterations: hard beat that medium 39 of 40 (seed 202671) and it beat easy 32 of 40
#: (seed 202672). ``seconds`` is about what ``iterations`` cost per decision here (``time.thread_time``,
#: median over 40 decisions against the heuristic: easy 0.019 s, hard 0.534 s; medium 0.08 s from
#: ``benchmarks/agents.py --budget iterations``). Since :func:`model` remembers its answers by position,
#: hard's 300 iterations take 0.22 s (median over 40 decisions; 0.53 s without the memory in the same
#: run, which played the same 40 moves); easy and medium, whose trees rarely meet a position twice, cost
#: what they did. Spending the time saved on 500 iterations did not make hard stronger against the
#: heuristic (9 of 15 games). ``benchmarks/level_iterations.py --game twin-tin-bots --decisions 100``
#: (2026-12-06, 2 players, seed 5): the seconds bought 52.5, 117 and 311.5 iterations for easy's 40,
#: medium's 120 and hard's 300, but at 4 players (``--players 4``) 0.015, 0.08 and 0.22 s bought 36, 94
#: and 116.5: so each ``seconds`` is now what its iterations cost at 4 players, the dearer count (a level
#: at a live table is never weaker than the level measured; at 2 players it thinks longer).
LEVELS: dict[str, dict[str, float]] = {
    "easy": {"iterations": 40, "seconds": 0.017, "rollout_depth": 2, "model_opponents": 0.5},
    "medium": {"iterations": 120, "seconds": 0.1, "rollout_depth": 2, "model_opponents": 0.5},
    "hard": {
        "iterations": 300,
        "seconds": 0.46,
        "rollout_depth": 4,
        "model_opponents": 0.7,
        "root_width": 6,
        "evaluate_race": RACE,
    },
}
