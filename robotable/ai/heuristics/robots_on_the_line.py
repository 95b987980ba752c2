"""Robots on the Line knowledge for agents.

Everything rests on one cheap estimate, the **potential** of a hand with a torso: for every buyer still
buying, how many parts are missing before the hand can sell it a robot (counted from the buyer's
requirements: a head and a base, one end per torso segment and per splitter, the exact eyes or hands,
the connector kinds asked for, extenders for tall, wide and long-arm robots, magnets, mirrored pairs for
symmetry), and what the sale would pay (the buyer's money, the $5 requirement tiles, the bonus tiles
whose icons the hand and torso show). A buyer is worth its sale value times ``DECAY`` per missing part;
when nothing seems missing, the assembly helper confirms (geometry may still forbid it). The potential
is the best buyer's worth; parts also keep their Bargain Hunter price (what they fetch at the end).

The heuristic agent (:func:`choose`) reads only its seat's view and legal actions, and each decision
takes the first of these that applies:

1. **Offers made to it**: accept when the trade raises its potential plus money by at least $2, else
   decline.
2. **Sell a robot**: the legal actions list the helper's best robot per buyer it can satisfy; sell the
   highest-paying one (when it pays more than its parts would fetch from the Bargain Hunter).
3. **Torso**: with none in hand, take the stack's top for free, or pay $1 for the stack's torso that
   fits the hand clearly better; with one, trade it for the top when the top fits clearly better.
4. **Junk trades** (free, two a turn): give a part for a pile's top when the hand gains.
5. **One part a turn**: every unit on an ON section and every part of the junk piles ($1) is scored by
   the potential it adds plus its Bargain Hunter price, minus its cost and $1 per magnet; a part behind
   an OFF switch is worth a $1 flip when it beats the best reachable part by more than the flip.
6. **Bargain Hunter**: sell parts that add nothing when the hand grows past ``KEEP`` parts, featured
   parts ($4) that add less than $4, and everything at the end (draw piles empty, or a sale that ends
   the game, or an opponent on three robots): parts in hand are worth nothing when the game ends.
7. **Offers** (rarely, ``OFFER_RATE`` of turns): a one-for-one trade of a part it does not need for a
   known part of another hand that raises its potential by at least ``OFFER_GAIN``.
8. End the turn.

For search: :func:`rollout` is a fast policy on a determinized state (sell the best-paying robot, take
a torso, take the part its hand lacks most, else the featured kind, else any part; decline offers; end
the turn). :func:`evaluate` turns money, minus magnets, plus a share of each hand's potential and its
Bargain Hunter price into expected rewards by a soft pairwise comparison. :func:`model` is the
heuristic read off a determinized state (ISMCTS's opponent model). ``LEVELS`` gives this game's search
budgets: a turn is several actions and the assembly helper runs in every ``legal_actions``, so
iterations are fewer than the defaults.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from robotable.core import Action, Rng, State
from robotable.games.robots_on_the_line import (
    Accept,
    ChooseTorso,
    Decline,
    EndTurn,
    FlipSwitch,
    FlipSwitches,
    Offer,
    PickJunk,
    SearchJunk,
    SellPart,
    SellRobot,
    StopPicking,
    SwapTorso,
    TakePart,
    TakeTorso,
    TradeJunk,
    sale,
)
from robotable.games.robots_on_the_line import line as L
from robotable.games.robots_on_the_line.components import (
    BONUS_IDS,
    BONUS_TILES,
    BUYER_IDS,
    BUYERS,
    HUNTER_FEATURED,
    MAGNET_PENALTY,
    MAGNETS,
    PART_IDS,
    PARTS,
    REQUIREMENT_IDS,
    REQUIREMENTS,
    ROBOTS_TO_END,
    TORSO_IDS,
    TORSOS,
    E,
    W,
)
from robotable.games.robots_on_the_line.helper import best_robot, subset_sizes

from ..base import Decision

#: Worth kept per missing part of a robot.
DECAY = 0.45
#: Share of bonus-tile money counted when the hand's icons could earn it.
BONUS_SHARE = 0.6
#: The hand is trimmed (parts that add nothing sold to the Bargain Hunter) above this many parts.
KEEP = 9
#: Share of turns on which the agent looks for a one-for-one trade to offer.
OFFER_RATE = 0.1
#: What an offered trade must add to the agent's potential.
OFFER_GAIN = 4.0
#: What an accepted trade must add (potential plus money).
ACCEPT_GAIN = 2.0
#: Dollars per step of the soft pairwise comparison in :func:`evaluate`.
SCALE = 4.0

#: Buyers still buying, as (buyer, requirement tiles, bonus tiles).
Buyers = tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]
#: Offers made to a seat by number: (parts it gives, parts it gets, money it gives, money it gets, torso?).
Offers = dict[int, tuple[list[int], list[int], int, int, bool]]

_END = EndTurn()
_TAKE_TORSO = TakeTorso()
_SWAP = SwapTorso()


# -- what a seat sees ---------------------------------------------------------------------------------


@dataclass
class Table:
    """What one seat knows, as plain ints (read from a view or from a state)."""

    seat: int
    num_players: int
    turn: int
    hand: list[int]
    torso: int
    money: list[int]
    robots: list[int]
    known: list[list[int]]  # each seat's parts everyone has seen (the seat's own: its whole hand)
    lines: list[list[int]]
    switches: list[list[bool]]
    junk: list[list[int]]
    torso_top: int
    torso_stack: list[int]
    buyers: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]  # buying buyers: (buyer, reqs, bonus)
    featured: str
    acquired: bool
    junk_trades: int
    torso_done: bool
    draw_left: int
    torsos_held: list[int]
    offered_to: list[int]  # the seats this seat made an offer to this turn

    @classmethod
    def from_view(cls, view: dict[str, Any], seat: int) -> Table:
        players = view["players"]

        def part_list(names: list[str]) -> list[int]:
            return sorted(PART_IDS[x] for x in names if x in PART_IDS)

        buyers = tuple(
            (
                BUYER_IDS[b["id"]],
                tuple(REQUIREMENT_IDS[r["id"]] for r in b["requirements"]),
                tuple(BONUS_IDS[t["id"]] for t in b["bonus_tiles"]),
            )
            for b in view["buyers"]
            if b["buying"]
        )
        stack = view["torso_stack"]
        turn = view["this_turn"]
        return cls(
            seat=seat,
            num_players=view["num_players"],
            turn=view["turn"],
            hand=part_list(players[seat]["hand"]),
            torso=TORSO_IDS[players[seat]["torso"]] if players[seat]["torso"] else -1,
            money=[p["money"] for p in players],
            robots=[p["robots_sold"] for p in players],
            known=[part_list(p["hand"]) for p in players],
            lines=[[PART_IDS[x] if x else L.EMPTY for x in line] for line in view["lines"]],
            switches=[[s == "on" for s in line] for line in view["switches"]],
            junk=[[PART_IDS[x] for x in pile] for pile in view["junk_piles"]],
            torso_top=TORSO_IDS[stack["top"]] if stack["top"] else -1,
            torso_stack=sorted(TORSO_IDS[t] for t in stack["torsos"]),
            buyers=buyers,
            featured=view["bargain_hunter"]["featured"],
            acquired=turn["part_taken"],
            junk_trades=turn["junk_trades"],
            torso_done=turn["torso_stack_used"],
            draw_left=sum(view["draw_piles"]),
            torsos_held=[TORSO_IDS[p["torso"]] if p["torso"] else -1 for p in players],
            offered_to=[made[1] for made in turn.get("offers_made", ()) if made[0] == seat],
        )

    @classmethod
    def from_state(cls, state: Any, seat: int) -> Table:
        s = state
        buyers = tuple(
            (b, tuple(s.buyer_reqs[slot]), tuple(s.buyer_bonus[slot]))
            for slot, b in enumerate(s.buyers)
            if sale.buying(s, slot)
        )
        return cls(
            seat=seat,
            num_players=s.num_players,
            turn=s.turn,
            hand=list(s.hands[seat]),
            torso=s.torso[seat],
            money=list(s.money),
            robots=list(s.robots),
            known=[list(h) for h in s.hands],  # a determinized state: every hand is "known"
            lines=s.lines,
            switches=s.switches,
            junk=s.junk,
            torso_top=s.torso_pile[-1] if s.torso_pile else -1,
            torso_stack=sorted(s.torso_pile),
            buyers=buyers,
            featured=s.featured,
            acquired=s.acquired,
            junk_trades=s.junk_trades,
            torso_done=s.torso_done,
            draw_left=len(s.draw[0]) + len(s.draw[1]),
            torsos_held=list(s.torso),
            offered_to=[taker for giver, taker in s.offered if giver == seat],
        )


# -- the potential of a hand ------------------------------------------------------------------------


def hunter_price(part: int, featured: str) -> int:
    """What a part is worth as money: the Bargain Hunter's price (a magnet: minus its penalty)."""
    return sale.hunter_price(part, featured) - (MAGNET_PENALTY if part in MAGNETS else 0)


@functools.cache
def _torso_shape(t: int) -> tuple[int, int, bool, bool]:
    """Height, width, and whether the torso has an E and a W port."""
    torso = TORSOS[t]
    ys = [y for _, y in torso.cells]
    xs = [x for x, _ in torso.cells]
    sides = {side for _, side, _ in torso.ports}
    return max(ys) - min(ys) + 1, max(xs) - min(xs) + 1, E in sides, W in sides


@dataclass(frozen=True, slots=True)
class Tally:
    """What a hand holds, counted once per hand: the heads' eyes, bases (all, and those without wheels),
    1- and 2-hand tiles, the other kinds, and the icons its parts show."""

    heads: tuple[int, ...]
    bases: int
    wheelless_bases: int
    hand1: int
    hand2: int
    antenna: int
    extender: int
    elbow: int
    splitter: int
    magnet: int
    icons: frozenset[str]


@dataclass(frozen=True, slots=True)
class Asks:
    """What a buyer with some requirement tiles asks of a robot on one torso, worked out once per pair."""

    no_wheels: bool
    extender: bool  # connector kinds asked for
    splitter: bool
    elbow: bool
    geometry: int  # extenders or splitters needed for tall, wide and long arms
    enders_needed: int  # arm ends needed (wide, long arm)
    segments: int
    eye_target: int  # exact eyes (-1: any)
    two_heads: bool
    hand_target: int  # exact hands (-1: any)
    magnets: bool
    symmetry: bool
    has_e: bool
    has_w: bool


def tally(hand: tuple[int, ...]) -> Tally:
    """Count ``hand``'s parts by what :func:`missing_parts` asks of them (an antenna head counts as a
    head here: it helps wide only a little)."""
    heads: list[int] = []
    n = dict.fromkeys(("hand1", "hand2", "antenna", "extender", "elbow", "splitter", "magnet"), 0)
    bases = wheelless = 0
    icons: frozenset[str] = frozenset()
    for p in hand:
        part = PARTS[p]
        icons |= part.icons
        k = part.kind
        if k == "head":
            heads.append(part.eyes)
        elif k == "base":
            bases += 1
            wheelless += not part.wheels
        elif k == "hand":
            n["hand2" if part.hands >= 2 else "hand1"] += 1
        elif k in n:
            n[k] += 1
    return Tally(heads=tuple(heads), bases=bases, wheelless_bases=wheelless, icons=icons, **n)


@functools.cache
def asks(torso: int, reqs: tuple[int, ...]) -> Asks:
    """What requirement tiles ``reqs`` ask of a robot on ``torso``: extenders for tall (beyond the torso's
    height and a head and base), wide (five tiles, both sides) and long arms (two), arm ends for wide and
    long arms, and the exact counts."""
    rq = [REQUIREMENTS[r] for r in reqs]
    kinds = {r.kind for r in rq}
    height, width, has_e, has_w = _torso_shape(torso)
    need_v = max(0, max((r.min_tiles for r in rq if r.kind == "tall"), default=0) - height - 2)
    need_h = 0
    enders_needed = 0
    if "wide" in kinds:
        need_h = max(0, 5 - width - 2)
        enders_needed = 2
        if not (has_e and has_w):
            need_h += 2
    if "long_arm" in kinds:
        need_h = max(need_h, 2)
        enders_needed = max(enders_needed, 1)
    return Asks(
        no_wheels="no_wheels" in kinds,
        extender="extender" in kinds,
        splitter="splitter" in kinds,
        elbow="elbow" in kinds,
        geometry=need_v + need_h,
        enders_needed=enders_needed,
        segments=TORSOS[torso].segments,
        eye_target=next((r.eyes for r in rq if r.kind == "eyes"), -1),
        two_heads="two_heads" in kinds,
        hand_target=next((r.count for r in rq if r.kind == "hands"), -1),
        magnets="magnets" in kinds,
        symmetry="symmetry" in kinds,
        has_e=has_e,
        has_w=has_w,
    )


def missing_parts(hand: Sequence[int], torso: int, reqs: Sequence[int]) -> int:
    """An estimate of how many more parts ``hand`` needs to sell ``torso`` to a buyer with ``reqs``."""
    return missing(tally(tuple(hand)), asks(torso, tuple(reqs)))


def missing(t: Tally, a: Asks) -> int:
    """:func:`missing_parts` from a hand's tally and what the buyer asks: a connector of each kind asked
    for, extenders or splitters for the shape, heads, a base, exact hands, an end per segment and per
    splitter, magnets, mirrored pairs for symmetry."""
    miss = 0
    extender, splitter = t.extender, t.splitter
    if a.extender and not extender:
        miss += 1
        extender = 1
    if a.splitter and not splitter:
        miss += 1
        splitter = 1
    if a.elbow and not t.elbow:
        miss += 1
    geometry = a.geometry
    miss += max(0, geometry - (extender + splitter))
    splitters_used = max(1 if a.splitter else 0, min(splitter, max(0, geometry - extender)))
    ends_needed = a.segments + splitters_used
    head_miss, heads_used, flex_heads = _heads(t.heads, a.eye_target, a.two_heads)
    bases = t.wheelless_bases if a.no_wheels else t.bases
    miss += head_miss + (0 if bases else 1)
    hand_miss, hand_ends = _hands(a.hand_target, t.hand1, t.hand2)
    miss += hand_miss
    enders = hand_ends + t.antenna
    if enders < a.enders_needed:
        miss += a.enders_needed - enders
        enders = a.enders_needed
    have = heads_used + 1 + flex_heads + max(0, bases - 1) + enders
    if have < ends_needed:
        miss += ends_needed - have
    if a.magnets and t.magnet < 2:
        miss += 2 - t.magnet
    if a.symmetry:
        if not (a.has_e and a.has_w):
            miss += 3
        elif t.hand1 < 2 and t.antenna < 2 and t.hand2 < 2:
            miss += 1
    return miss


@functools.lru_cache(maxsize=1 << 12)
def _heads(heads: tuple[int, ...], eye_target: int, two_heads: bool) -> tuple[int, int, int]:
    """Heads missing, heads used and spare heads (which may end segments)."""
    if eye_target >= 0:
        sizes = subset_sizes(heads, eye_target)
        if two_heads:
            sizes &= {2}
        if sizes:
            return 0, min(sizes), 0
        used = 2 if two_heads else 1
        return (max(1, used - len(heads)) if two_heads else 1), used, 0
    if two_heads:
        return max(0, 2 - len(heads)), 2, 0
    return (0 if heads else 1), 1, max(0, len(heads) - 1)


@functools.lru_cache(maxsize=1 << 12)
def _hands(hand_target: int, hands1: int, hands2: int) -> tuple[int, int]:
    """Hands missing for an exact hand count, and the hand tiles that end segments."""
    if hand_target < 0:
        return 0, hands1 + hands2
    options = []
    for twos in range(hands2 + 1):
        ones = hand_target - 2 * twos
        if ones >= 0:
            options.append((max(0, ones - hands1), twos + ones))
    if hands2 == 0 and hand_target >= 2:
        options.append((1 + max(0, hand_target - 2 - hands1), 1 + hand_target - 2))
    short, hand_ends = min(options) if options else (hand_target, hand_target)
    return short, min(hand_ends, hands1 + hands2 + short)


@functools.lru_cache(maxsize=1 << 14)
def _sale_estimate(
    icons: frozenset[str], torso: int, buyer: int, reqs: tuple[int, ...], bonus: tuple[int, ...]
) -> float:
    """What a sale to ``buyer`` would pay: its money, the requirement tiles' bonus and a share of the bonus
    tiles whose icons the hand's ``icons`` and the torso show."""
    icons = icons | TORSOS[torso].icons
    extra = sum(BONUS_TILES[t].value for t in bonus if BONUS_TILES[t].icons <= icons)
    return BUYERS[buyer].pay + sum(REQUIREMENTS[r].bonus for r in reqs) + BONUS_SHARE * extra


def _confirmed_worth(
    hand: tuple[int, ...], torso: int, buyer: int, reqs: tuple[int, ...], bonus: tuple[int, ...]
) -> tuple[float, int]:
    """(worth, missing parts) of selling to one buyer when the estimate finds nothing missing: the
    assembly helper's best robot, or one part missing after all (geometry may forbid it)."""
    found = best_robot(hand, torso, [REQUIREMENTS[r] for r in reqs], [BONUS_TILES[t] for t in bonus], BUYERS[buyer].pay)
    if found is not None:
        return float(found.value), 0
    return _sale_estimate(tally(hand).icons, torso, buyer, reqs, bonus) * DECAY, 1


def potential(hand: Sequence[int], torso: int, buyers: Buyers, horizon: int | None = None) -> float:
    """What the hand and torso are worth toward the best buyer (0 without a torso or a buyer); with a
    ``horizon``, only buyers the hand lacks at most that many parts for count (one part a turn)."""
    if torso < 0 or not buyers:
        return 0.0
    return _potential(tuple(sorted(hand)), torso, buyers, horizon)


@functools.lru_cache(maxsize=65536)
def _potential(key: tuple[int, ...], torso: int, buyers: Buyers, horizon: int | None) -> float:
    t = tally(key)
    best = 0.0
    for b, reqs, bonus in buyers:
        miss = missing(t, asks(torso, reqs))
        if miss == 0:
            worth, miss = _confirmed_worth(key, torso, b, reqs, bonus)
        else:
            worth = _sale_estimate(t.icons, torso, b, reqs, bonus) * DECAY**miss
        if (horizon is None or miss <= horizon) and worth > best:
            best = worth
    return best


def hand_value(table: Table, hand: Sequence[int], torso: int) -> float:
    """The potential, with a torso assumed from the stack's top if there is none (a little less)."""
    if torso < 0:
        if table.torso_top < 0:
            return 0.0
        return 0.8 * potential(hand, table.torso_top, table.buyers)
    return potential(hand, torso, table.buyers)


# -- the heuristic agent ------------------------------------------------------------------------------


def _endgame(table: Table) -> bool:
    """Whether parts in hand should be turned into money now."""
    if table.draw_left == 0:
        return True
    if table.robots[table.seat] >= ROBOTS_TO_END:
        return True
    return any(r >= ROBOTS_TO_END - 1 for s, r in enumerate(table.robots) if s != table.seat) and table.draw_left < 30


def _sale_value(table: Table, action: SellRobot) -> float:
    b = BUYER_IDS[action.buyer]
    entry = next((e for e in table.buyers if e[0] == b), None)
    if entry is None:
        return 0.0
    found = best_robot(
        table.hand,
        table.torso,
        [REQUIREMENTS[r] for r in entry[1]],
        [BONUS_TILES[t] for t in entry[2]],
        BUYERS[b].pay,
    )
    return float(found.value) if found is not None else float(BUYERS[b].pay)


def _sold_parts(action: SellRobot) -> list[int]:
    names = [item[0] for item in action.layout] + list(action.batteries) + list(action.magnets)
    return [PART_IDS[n] for n in names if n in PART_IDS]


def _offer_gain(table: Table, give: list[int], take: list[int], give_money: int, take_money: int) -> float:
    """What a trade adds for the seat: potential and Bargain Hunter prices, plus money."""
    hand = list(table.hand)
    for p in give:
        if p not in hand:
            return -math.inf
        hand.remove(p)
    hand += take
    before = hand_value(table, table.hand, table.torso)
    after = hand_value(table, hand, table.torso)
    f = table.featured
    liquid = sum(hunter_price(p, f) for p in take) - sum(hunter_price(p, f) for p in give)
    return after - before + 0.8 * liquid + take_money - give_money


def _answer(table: Table, legal: Sequence[Action], offers: Offers) -> Action | None:
    """Accept the best offer made to the seat if it gains enough, else decline one."""
    best: tuple[float, Action | None] = (ACCEPT_GAIN, None)
    decline: Action | None = None
    for a in legal:
        if isinstance(a, Accept) and a.offer in offers:
            give, take, give_money, take_money, torso_trade = offers[a.offer]
            if torso_trade:
                continue
            gain = _offer_gain(table, give, take, give_money, take_money)
            if gain > best[0]:
                best = (gain, a)
        elif isinstance(a, Decline) and decline is None:
            decline = a
    return best[1] or decline


def _unit_parts(table: Table, line: int, space: int) -> list[int]:
    row = table.lines[line]
    return [row[s - 1] for s in L.magnet_unit(row, space) if row[s - 1] != L.EMPTY]


def _gain_of(table: Table, base: float, parts: list[int], cost: int) -> float:
    hand = table.hand + parts
    liquid = sum(hunter_price(p, table.featured) for p in parts)
    return hand_value(table, hand, table.torso) - base + 0.8 * liquid - cost


def decide(table: Table, legal: Sequence[Action], rng: Rng, offers: dict[int, Any]) -> Action:
    """The heuristic's choice for ``table``'s seat among ``legal`` (see the module docstring)."""
    if any(isinstance(a, Accept | Decline) for a in legal):
        answer = _answer(table, legal, offers)
        if answer is not None:
            return answer
    if table.turn != table.seat:
        return legal[0]
    picks = [a for a in legal if isinstance(a, PickJunk)]
    if picks or any(isinstance(a, StopPicking) for a in legal):
        if picks:
            return max(picks, key=lambda a: _gain_of(table, 0.0, [table.junk[a.pile][-1]], 0))
        return next(a for a in legal if isinstance(a, StopPicking))
    sale_action = _robot_sale(table, legal)  # 2.
    if sale_action is not None:
        return sale_action
    endgame = _endgame(table)
    base = hand_value(table, table.hand, table.torso)
    for step in (_torso_step, _junk_trade_step, _take_step):  # 3. to 5.
        chosen = step(table, legal, base, endgame)
        if chosen is not None:
            return chosen
    sells = [a for a in legal if isinstance(a, SellPart)]  # 6.
    if sells:
        choice = _hunter_sale(table, base, sells, endgame)
        if choice is not None:
            return choice
    if not endgame and rng.random() < OFFER_RATE:  # 7. offers, rarely
        offer = _best_offer(table, legal)
        if offer is not None:
            return offer
    return _END if _END in legal else legal[-1]


def _robot_sale(table: Table, legal: Sequence[Action]) -> Action | None:
    """2. The best-paying robot sale, when it pays more than its parts would fetch from the Bargain Hunter."""
    sales = [a for a in legal if isinstance(a, SellRobot)]
    if not sales:
        return None
    best = max(sales, key=lambda a: _sale_value(table, a))
    parts = _sold_parts(best)
    if _sale_value(table, best) > sum(hunter_price(p, table.featured) for p in parts) + 1:
        return best
    return None


def _torso_step(table: Table, legal: Sequence[Action], base: float, endgame: bool) -> Action | None:
    """3. Take the top torso or choose one for $1; trade ours for the top one when it fits clearly better."""
    if table.torso_done or not table.torso_stack or endgame:
        return None
    if table.torso < 0:
        top = next((a for a in legal if isinstance(a, TakeTorso)), None)
        options: list[tuple[float, Action]] = []
        if top is not None and table.torso_top >= 0:
            options.append((potential(table.hand, table.torso_top, table.buyers) + 0.5, top))
        for a in legal:
            if isinstance(a, ChooseTorso):
                options.append((potential(table.hand, TORSO_IDS[a.torso], table.buyers) - 1.5, a))
        return max(options, key=lambda o: o[0])[1] if options else None
    if (
        any(isinstance(a, SwapTorso) for a in legal)
        and table.torso_top >= 0
        and potential(table.hand, table.torso_top, table.buyers) > base + 2.0
    ):
        return _SWAP
    return None


def _junk_trade_step(table: Table, legal: Sequence[Action], base: float, endgame: bool) -> Action | None:
    """4. Give a part for a junk pile's top when the hand gains."""
    if table.junk_trades >= 2 or endgame:
        return None
    f = table.featured
    best_trade: tuple[float, Action | None] = (0.75, None)
    for a in legal:
        if isinstance(a, TradeJunk):
            give = PART_IDS[a.part]
            top = table.junk[a.pile][-1]
            hand = list(table.hand)
            hand.remove(give)
            hand.append(top)
            liquid = hunter_price(top, f) - hunter_price(give, f)
            gain = hand_value(table, hand, table.torso) - base + 0.8 * liquid
            if gain > best_trade[0]:
                best_trade = (gain, a)
    return best_trade[1]


def _take_step(table: Table, legal: Sequence[Action], base: float, endgame: bool) -> Action | None:
    """5. One part a turn: the best to take, or a $1 flip that reaches a clearly better one."""
    if table.acquired:
        return None
    best_take = _best_take(table, legal, base, endgame)
    flips = [a for a in legal if isinstance(a, FlipSwitches | FlipSwitch)]
    if flips and not endgame:
        flip = _best_flip(table, base, flips, best_take[0])
        if flip is not None:
            return flip
    return best_take[1] if best_take[0] > 0 else None


def _best_offer(table: Table, legal: Sequence[Action]) -> Action | None:
    """The listed one-for-one trade that raises the seat's potential most, by at least ``OFFER_GAIN``,
    to a seat not offered anything yet this turn: one offer to each seat a turn, so a declined offer is
    not made again (nor pressed with another) the same turn."""
    best: tuple[float, Action | None] = (OFFER_GAIN, None)
    for a in legal:
        if isinstance(a, Offer) and not a.give_money and not a.take_money and a.to not in table.offered_to:
            give = [PART_IDS[x] for x in a.give if x in PART_IDS]
            take = [PART_IDS[x] for x in a.take if x in PART_IDS]
            if len(give) != len(a.give) or len(take) != len(a.take):
                continue
            gain = _offer_gain(table, give, take, 0, 0)
            if gain > best[0]:
                best = (gain, a)
    return best[1]


def _best_take(table: Table, legal: Sequence[Action], base: float, endgame: bool) -> tuple[float, Action]:
    """The best part to take this turn (from the line, or from a junk pile for $1) and what it adds."""
    scored: list[tuple[float, Action]] = []
    for a in legal:
        if isinstance(a, TakePart):
            scored.append((_gain_of(table, base, _unit_parts(table, a.line, a.space), 0), a))
        elif isinstance(a, SearchJunk) and not endgame:
            scored.append((_gain_of(table, base, [PART_IDS[a.part]], 1), a))
    return max(scored, key=lambda s: s[0], default=(-math.inf, _END))


def _best_flip(table: Table, base: float, flips: Sequence[Action], reachable: float) -> Action | None:
    """A $1 flip that turns ON a section holding a part clearly better than any reachable one."""
    best_sec: dict[tuple[int, int], float] = {}
    for line in range(len(table.lines)):
        for space in range(1, len(table.lines[line]) + 1):
            if table.lines[line][space - 1] == L.EMPTY:
                continue
            sec = (line, L.section(space))
            gain = _gain_of(table, base, _unit_parts(table, line, space), 0)
            best_sec[sec] = max(best_sec.get(sec, -math.inf), gain)
    target: tuple[int, int] | None = None
    margin = max(reachable, 0.0) + 2.5
    for sec, gain in best_sec.items():
        if not table.switches[sec[0]][sec[1]] and gain > margin:
            margin, target = gain, sec
    if target is None:
        return None
    for pair in sorted(
        (a for a in flips if isinstance(a, FlipSwitches) and a.on == target),
        key=lambda a: best_sec.get(a.off, -math.inf),
    ):
        return pair
    for a in flips:
        if isinstance(a, FlipSwitch) and (a.line, a.section) == target:
            return a
    return None


def _hunter_sale(table: Table, base: float, sells: list[SellPart], endgame: bool) -> Action | None:
    """Sell to the Bargain Hunter: everything at the end, else useless parts of a big hand or featured ones."""
    f = table.featured
    best: tuple[float, Action | None] = (-math.inf, None)
    for a in sells:
        part = PART_IDS[a.part]
        price = hunter_price(part, f)
        if endgame:
            return a
        hand = list(table.hand)
        hand.remove(part)
        loss = base - hand_value(table, hand, table.torso)
        score = price - loss
        if price >= HUNTER_FEATURED and loss < 0.5 * price:
            score += 10
        elif len(table.hand) > KEEP and loss < 0.25:
            score += 5
        else:
            continue
        if score > best[0]:
            best = (score, a)
    return best[1]


def _offers_from_view(view: dict[str, Any]) -> dict[int, tuple[list[int], list[int], int, int, bool]]:
    """Offers made to the seat: what it would receive, what it would give, and the money."""
    out: dict[int, tuple[list[int], list[int], int, int, bool]] = {}
    for o in view["offers"]:
        torso = any(x in TORSO_IDS for x in o["give"] + o["take"])
        receive = [PART_IDS[x] for x in o["give"] if x in PART_IDS]
        give = [PART_IDS[x] for x in o["take"] if x in PART_IDS]
        out[o["offer"]] = (give, receive, o["take_money"], o["give_money"], torso)
    return out


def _offers_from_state(state: Any) -> dict[int, tuple[list[int], list[int], int, int, bool]]:
    out: dict[int, tuple[list[int], list[int], int, int, bool]] = {}
    for o in state.offers:
        torso = o.give_torso >= 0 or o.take_torso >= 0
        out[o.number] = (list(o.take), list(o.give), o.take_money, o.give_money, torso)
    return out


def choose(decision: Decision, rng: Rng) -> Action:
    """The heuristic agent's choice, from the seat's view and its legal actions only."""
    table = Table.from_view(decision.view, decision.seat)
    return decide(table, decision.legal, rng, _offers_from_view(decision.view))


def choose_optional(decision: Decision, rng: Rng) -> Action | None:
    """Out of turn (trading at any time): offer the one-for-one trade that raises the potential most, if
    it raises it by at least ``OFFER_GAIN``; else pass."""
    table = Table.from_view(decision.view, decision.seat)
    return _best_offer(table, decision.legal)


def model(state: State, seat: int, legal: Sequence[Action], rng: Rng) -> Action:
    """The heuristic's choice read off a (determinized) state: how search expects others to play."""
    return decide(Table.from_state(state, seat), legal, rng, _offers_from_state(state))


# -- search helpers -----------------------------------------------------------------------------------


def prune(state: State, seat: int, legal: Sequence[Action]) -> list[Action]:
    """The actions search considers: every legal action, except that of the switch flips only the one
    the heuristic would make (if any) is kept.

    Flips are not limited and any setting of the switches is two flips away, so a search free to flip
    flips back and forth: each flip costs only $1 and puts every choice one step deeper, where noisy
    estimates look better than they are (measured: a search spent $120 on flips in one turn)."""
    flips = [a for a in legal if isinstance(a, FlipSwitches | FlipSwitch)]
    if not flips:
        return list(legal)
    keep: Action | None = None
    table = Table.from_state(state, seat)
    if not table.acquired and table.turn == seat and not _endgame(table):
        base = hand_value(table, table.hand, table.torso)
        keep = _best_flip(table, base, flips, _best_take(table, legal, base, False)[0])
    return [a for a in legal if a is keep or not isinstance(a, FlipSwitches | FlipSwitch)]


def _quick_need(hand: Sequence[int], torso: int) -> set[str]:
    """The kinds a hand lacks most for any robot: a head, a base, ends for the torso's segments."""
    heads = bases = ends = 0
    for p in hand:
        kind = PARTS[p].kind
        heads += kind == "head"
        bases += kind == "base"
        ends += kind in ("head", "base", "hand", "antenna")
    need: set[str] = set()
    if not heads:
        need.add("head")
    if not bases:
        need.add("base")
    if ends < (TORSOS[torso].segments if torso >= 0 else 4):
        need |= {"hand", "antenna"}
    return need


def rollout(state: State, seat: int, legal: Sequence[Action], rng: Rng) -> Action:
    """A fast policy for search rollouts: sell, take a torso once the hand is nearly ready, take a part
    the hand lacks (or of the featured kind), decline offers, end the turn.

    Parts that add nothing are left on the line: a smaller hand keeps the assembly helper (run by every
    ``legal_actions``) cheap, and the line moves on just as fast."""
    s: Any = state
    if seat != s.turn:
        return next((a for a in legal if isinstance(a, Decline)), legal[0])
    take: list[TakePart] = []
    best_sale: SellRobot | None = None
    pay = -1
    for a in legal:
        if isinstance(a, SellRobot):
            p = BUYERS[BUYER_IDS[a.buyer]].pay
            if p > pay:
                best_sale, pay = a, p
        elif isinstance(a, TakePart):
            take.append(a)
        elif isinstance(a, PickJunk | StopPicking):
            return a
    if best_sale is not None:
        return best_sale
    hand = s.hands[seat]
    need = _quick_need(hand, s.torso[seat])
    if s.torso[seat] < 0 and not s.torso_done and s.torso_pile and len(need) <= 1:
        return _TAKE_TORSO
    if take and (need or len(hand) < 6):
        best = _rollout_take(s, take, need, rng)
        if best is not None:
            return best
    if not s.draw[0] and not s.draw[1]:
        for a in legal:
            if isinstance(a, SellPart):
                return a
    return _END


def _rollout_take(s: Any, take: list[TakePart], need: set[str], rng: Rng) -> TakePart | None:
    """The unit worth most to the rollout (kinds the hand lacks, the featured kind; magnets count
    against), with a little noise; None if none is worth taking."""
    best: TakePart | None = None
    score = 0.5
    for a in take:
        line = s.lines[a.line]
        value = 0.0
        for sp in L.magnet_unit(line, a.space):
            part = line[sp - 1]
            kind = PARTS[part].kind
            value += (3.0 if kind in need else 0.0) + (2.0 if kind == s.featured else 0.0)
            value -= 2.0 if part in MAGNETS else 0.0
        value += rng.random()
        if value > score:
            best, score = a, value
    return best


def turns_left(state: Any, seat: int) -> int:
    """The turns ``seat`` can still count on: the parts still to come down the lines (draw piles and
    lines, two a turn) shared among the seats, and no more than two once a sale may end the game (a
    seat holds three robots)."""
    coming = sum(len(d) for d in state.draw) + sum(1 for line in state.lines for p in line if p != L.EMPTY)
    turns = (coming // 2 + state.num_players - 1 - (seat - state.turn) % state.num_players) // state.num_players
    if max(state.robots) >= ROBOTS_TO_END - 1:
        turns = min(turns, 2)
    return max(0, turns)


def _worth(state: Any, seat: int, buyers: Buyers) -> float:
    """Money, plus the hand at Bargain Hunter prices, plus a share of its potential toward the buyers
    the seat can still finish a robot for before the game ends (one part a turn)."""
    hand = state.hands[seat]
    torso = state.torso[seat]
    liquid = sum(hunter_price(p, state.featured) for p in hand)
    pot = potential(hand, torso, buyers, turns_left(state, seat)) if torso >= 0 else 0.0
    # parts keep their full Bargain Hunter price, so selling one to him is neutral and only a robot's
    # potential beyond that is a gamble (counted at 0.6)
    return state.money[seat] + 0.6 * pot + liquid  # a magnet's price is its penalty


def evaluate(state: State) -> list[float]:
    """Expected rewards: money less magnets plus a share of each hand's worth, compared pairwise."""
    s: Any = state
    buyers = tuple(
        (b, tuple(s.buyer_reqs[slot]), tuple(s.buyer_bonus[slot]))
        for slot, b in enumerate(s.buyers)
        if sale.buying(s, slot)
    )
    n = s.num_players
    worth = [_worth(s, seat, buyers) for seat in range(n)]
    return [
        sum(1.0 / (1.0 + math.exp((worth[o] - worth[me]) / SCALE)) for o in range(n) if o != me) / (n - 1)
        for me in range(n)
    ]


#: Search budgets for this game (see ``robotable.ai.ismcts.LEVELS``): a turn is several actions and
#: ``legal_actions`` runs the assembly helper for every buyer, so iterations are fewer than the defaults.
#: A decision lists 30-50 actions: medium and hard search only the heuristic's choice and the best few
#: others (``root_width``). Hard leaves the heuristic's choice only for a clearly better one
#: (``guide_bias``) and plays its rollouts with the heuristic itself (``model_rollouts``), over two or
#: three turns: fewer, truer samples. Measured, 2 players against the heuristic (``--seed 11``, the same
#: 20 games each time): 150 iterations with cheap rollouts of 3 actions, 6 candidates: 11 won; switch
#: flips pruned: 12; biased to the guide: 13; then 60 iterations of heuristic rollouts of 10 actions: 16.
#: Searching every action had won 2 of 6. That hard still played the heuristic's move almost always (2
#: deviations in 40 decisions): 10-14 visits per candidate cannot tell moves a few dollars apart. So hard's
#: root is a paired comparison (``paired``): its 6 candidates are played on the same determinizations
#: with the same rollout seeds, the weaker half dropped after 5 samples, and the heuristic's move left
#: only for a candidate better by 2 standard errors of the paired differences (16 games, seed 290001:
#: mean lead over the heuristic 33.9 points against 7.8 for the tree, 14 of 16 won against 11 of 14).
#: ``seconds`` is what the ``iterations`` cost here, so a level playing by time (people's tables) is the
#: level measured by iterations (the ladder, the ratings): ``benchmarks/level_iterations.py --game
#: robots-on-the-line --decisions 100`` (2026-12-06, 2 players, seed 5) found the old seconds buying
#: 24, 71.5 and 220.5 iterations for easy's 16, medium's 50 and hard's 60, now that the heuristic counts
#: a hand's potential once (and hard's paired root is cheaper than the tree it was timed with); each
#: ``seconds`` is now the old one times iterations over iterations bought (they buy 15, 47 and 56.5 in
#: the same command); at 4 players a decision costs more (they bought 13, 34 and 42 there), so each
#: is now what its iterations cost at 4 players, the dearer count. Hard with 240 iterations was
#: no stronger on the same deals: 13 of 19 against 16.5 of 19 with 60 at 2 players (seed 3120610), 7 of
#: 24 seats against 10 of 24 at 4 players against three heuristics (seed 3120611). ``tree_seconds`` is
#: what hard's iterations cost in the tree search a review runs (the paired root is cheaper), for the
#: review's budget. Hard's rollouts were 10 actions deep, which at 4 players barely reaches the seat's
#: next turn, so the evaluator's guess of a hand decided; 30 actions play about a round of every seat
#: with the heuristic (2026-12-06, docs/ai.md "Deeper rollouts for Robots on the Line's hard"): on the
#: same 12 four-player deals hard won 11 seats against 3.5 with 10 (60 actions: 6.5), at 4 times the CPU.
#: Its costs at 30 (``level_iterations.py``, seed 5): 0.47 s median for 60 iterations at 4 players, 0.73 s
#: in the tree at 2 players. A rollout's step (the heuristic, the assembly helper on a new hand) can take
#: tens of milliseconds, several times that on a loaded machine, and the cap is checked between steps: at
#: 1.8 s a loaded live table's decision took 2.26 s at p95 (``think_load.py``), so hard's cap is 1.4 s.
LEVELS: dict[str, dict[str, float]] = {
    "easy": {"iterations": 16, "seconds": 0.0082, "rollout_depth": 4, "model_opponents": 0.5},
    "medium": {"iterations": 50, "seconds": 0.041, "rollout_depth": 6, "model_opponents": 0.7, "root_width": 4},
    "hard": {
        "iterations": 60,
        "seconds": 0.47,
        "max_wall": 1.4,
        "tree_seconds": 0.73,
        "rollout_depth": 30,
        "model_opponents": 0.7,
        "root_width": 6,
        "guide_bias": 2.0,
        "model_rollouts": 1.0,
        "paired": 5,
    },
}
