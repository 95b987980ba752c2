"""The state of a game of Robots on the Line: everything that changes, in plain ints and lists.

Parts are ints (see :mod:`.components`); a line is a list of 6 entries, space 1 first; piles have their
top last. Hidden: the draw piles, the maintenance stack, the torso stack below its top, and each
player's dealt parts (``secret``) until they are shown.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from robotable.core import Action, Event, IllegalAction, Result, Rng, State

from . import rules
from .actions import (
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
    malformed,
)
from .assembly import best_robot
from .components import (
    BANK,
    BONUS_TILES,
    BUYER_IDS,
    BUYERS,
    BUYERS_IN_PLAY,
    CATALOGUE,
    COSTS,
    HUNTER_ANY,
    HUNTER_FEATURED,
    HUNTER_KINDS,
    HUNTER_NEVER,
    JUNK_START,
    JUNK_TRADES,
    LINES,
    MAGNET_PENALTY,
    MAGNETS,
    NEW_TILES_AFTER_SALE,
    PART_IDS,
    PARTS,
    REQUIREMENTS,
    ROBOTS_TO_END,
    SECTIONS,
    SPACES,
    START_MONEY,
    START_PARTS,
    TORSO_IDS,
    TORSOS,
)
from .geometry import assemble, measure, meets, shortfall
from .rules import EMPTY

GAME_ID = "robots-on-the-line"
TURN, PICK, OVER = "turn", "pick", "over"
PHASES = (TURN, PICK, OVER)

_END_TURN = EndTurn()
_TAKE_TORSO = TakeTorso()
_SWAP_TORSO = SwapTorso()
_STOP_PICKING = StopPicking()

# An open trade offer: (number, from seat, to seat, give (part ints), give torso (-1: none),
# take (part ints), take torso, give money, take money).
OfferT = tuple[int, int, int, tuple[int, ...], int, tuple[int, ...], int, int, int]


def pid(part: int) -> str:
    """A part's catalogue id."""
    return PARTS[part].id


def tid(torso: int) -> str | None:
    """A torso's catalogue id (``None`` for no torso)."""
    return TORSOS[torso].id if torso >= 0 else None


class RotlState(State):
    """A game of Robots on the Line in progress. Seat 0 plays first, then seats in order."""

    __slots__ = (
        "acquired",
        "bank",
        "boxed",
        "buyer_bonus",
        "buyer_money",
        "buyer_reqs",
        "buyers",
        "draw",
        "end_reason",
        "featured",
        "gone",
        "gone_torsos",
        "hands",
        "junk",
        "junk_trades",
        "lines",
        "maint",
        "maint_discard",
        "money",
        "next_offer",
        "num_players",
        "offered",
        "offers",
        "options",
        "phase",
        "picks",
        "rng",
        "robots",
        "sales",
        "secret",
        "seed",
        "switches",
        "torso",
        "torso_done",
        "torso_pile",
        "turn",
        "turn_number",
    )

    def __init__(self, num_players: int, seed: int, options: dict[str, Any]) -> None:
        self.num_players = num_players
        self.seed = seed
        self.options = options
        self.rng = Rng(seed)
        self.lines: list[list[int]] = [[EMPTY] * SPACES for _ in range(LINES)]
        self.draw: list[list[int]] = [[] for _ in range(LINES)]
        self.junk: list[list[int]] = [[] for _ in range(LINES)]
        self.switches: list[list[bool]] = [[on for _, on in SECTIONS] for _ in range(LINES)]
        self.maint: list[str] = []
        self.maint_discard: list[str] = []
        self.torso_pile: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(num_players)]
        self.secret: list[list[int]] = [[] for _ in range(num_players)]  # parts only their holder has seen
        self.torso = [-1] * num_players
        self.money = [0] * num_players
        self.bank = BANK
        self.robots = [0] * num_players
        self.buyers: list[int] = []  # buyer boards in play
        self.buyer_reqs: list[list[int]] = []
        self.buyer_bonus: list[list[int]] = []
        self.buyer_money: list[int] = []
        self.featured = ""
        self.gone: list[int] = []  # parts out of the game: sold robots and the Bargain Hunter's
        self.gone_torsos: list[int] = []
        self.boxed: list[int] = []  # parts left in the box (family mode's magnets)
        self.sales: list[dict[str, Any]] = []
        self.turn = 0
        self.turn_number = 1
        self.acquired = False
        self.junk_trades = 0
        self.torso_done = False
        self.picks = 0
        self.offers: list[OfferT] = []
        self.offered: list[tuple[int, int]] = []  # (from, to) offers made this turn
        self.next_offer = 1
        self.phase = TURN
        self.end_reason = ""

    # -- setup -----------------------------------------------------------------------------------------

    def setup(self) -> None:
        """Set up the table (called once, by the game): lines, piles, buyers, hunter, players."""
        opts = self.options
        rng = self.rng
        parts = list(range(len(PARTS)))
        if opts["family"]:
            self.boxed = sorted(MAGNETS)
            parts = [p for p in parts if p not in MAGNETS]
        rng.shuffle(parts)
        half = len(parts) // 2
        self.draw = [parts[:half], parts[half:]]
        for line in range(LINES):
            for _ in range(JUNK_START):
                self.junk[line].append(self.draw[line].pop())
        self._deal_players()
        for line in range(LINES):
            for space in range(SPACES, 0, -1):
                if self.draw[line]:
                    self.lines[line][space - 1] = self.draw[line].pop()
        if opts["family"]:
            self.switches = [[True] * len(SECTIONS) for _ in range(LINES)]
        else:
            counts = {"line_reset": opts["line_resets"], "switch_flip": opts["switch_flips"]}
            for tile in CATALOGUE["maintenance_tiles"]:
                if counts.get(tile["kind"], 0) > 0:
                    counts[tile["kind"]] -= 1
                    self.maint.append(tile["kind"])
            rng.shuffle(self.maint)
        self.torso_pile = list(range(len(TORSOS)))
        rng.shuffle(self.torso_pile)
        self._deal_buyers()
        self.featured = rng.choice(HUNTER_KINDS)

    def _deal_players(self) -> None:
        """$5 and five parts each, never a magnet (a dealt magnet goes back into the pile at random)."""
        dealt = 0
        for seat in range(self.num_players):
            self._pay_from_bank(seat, START_MONEY)
            for _ in range(START_PARTS):
                pile = self.draw[dealt % LINES]
                if all(p in MAGNETS for p in pile):
                    pile = self.draw[(dealt + 1) % LINES]
                dealt += 1
                part = pile.pop()
                while part in MAGNETS:
                    pile.insert(self.rng.randrange(len(pile) + 1), part)
                    part = pile.pop()
                self.hands[seat].append(part)
            self.hands[seat].sort()
            self.secret[seat] = list(self.hands[seat])

    def _deal_buyers(self) -> None:
        """Buyers at random; requirement tiles (contradictions redrawn) and bonus tiles at random."""
        rng = self.rng
        chosen = list(range(len(BUYERS)))
        rng.shuffle(chosen)
        self.buyers = sorted(chosen[: BUYERS_IN_PLAY[self.num_players]])
        reqs = list(range(len(REQUIREMENTS)))
        rng.shuffle(reqs)
        bonus = list(range(len(BONUS_TILES)))
        rng.shuffle(bonus)
        for b in self.buyers:
            buyer = BUYERS[b]
            mine: list[int] = []
            aside: list[int] = []
            while len(mine) < buyer.requirement_slots and reqs:
                tile = reqs.pop()
                if rules.contradicts(REQUIREMENTS[tile], [REQUIREMENTS[t] for t in mine]):
                    aside.append(tile)
                else:
                    mine.append(tile)
            reqs[:0] = aside  # redrawn tiles go back under the pile
            self.buyer_reqs.append(mine)
            if self.options["family"]:
                self.buyer_bonus.append([])
            else:
                self.buyer_bonus.append([bonus.pop() for _ in range(min(buyer.bonus_slots, len(bonus)))])
            money = buyer.robots * buyer.pay
            self.bank -= money
            self.buyer_money.append(money)

    def _pay_from_bank(self, seat: int, amount: int) -> None:
        self.bank -= amount
        self.money[seat] += amount

    def _pay_to_bank(self, seat: int, amount: int) -> None:
        self.money[seat] -= amount
        self.bank += amount

    # -- the contract ----------------------------------------------------------------------------------

    def to_act(self) -> list[int]:
        if self.phase == OVER:
            return []
        seats: list[int] = []
        for offer in self.offers:
            if offer[2] not in seats:
                seats.append(offer[2])
        if self.turn not in seats:
            seats.append(self.turn)
        return seats

    def answering(self) -> list[int]:
        """The seats offers were made to (not the seat whose turn it is): each answers when it likes."""
        if self.phase == OVER:
            return []
        return sorted({offer[2] for offer in self.offers} - {self.turn})

    def legal_actions(self, player: int) -> list[Action]:
        if player not in self.to_act():
            return []
        actions: list[Action] = []
        if player == self.turn and self.phase == PICK:
            actions += [PickJunk(pile) for pile in range(LINES) if self.junk[pile]]
            actions.append(_STOP_PICKING)
        elif player == self.turn:
            actions += self._turn_actions(player)
        if self.phase == TURN:
            actions += self._canonical_offers(player)
        actions += [Accept(o[0]) for o in self.offers if o[2] == player]
        actions += [Decline(o[0]) for o in self.offers if o[2] == player]
        if player == self.turn and self.phase == TURN:
            actions.append(_END_TURN)
        return actions

    def _turn_actions(self, p: int) -> list[Action]:
        actions: list[Action] = []
        money = self.money[p]
        if not self.acquired:
            for line in range(LINES):
                for unit in rules.magnet_units(self.lines[line]):
                    space = next((s for s in unit if self.switches[line][rules.section(s)]), 0)
                    if space:
                        actions.append(TakePart(line, space))
            if money >= COSTS["search_junk"]:
                actions += [SearchJunk(pile, pid(part)) for pile in range(LINES) for part in self.junk[pile]]
        if self.junk_trades < JUNK_TRADES:
            for pile in range(LINES):
                if self.junk[pile] and self.junk[pile][-1] not in MAGNETS:
                    actions += [TradeJunk(pile, pid(part)) for part in self.hands[p] if part not in MAGNETS]
        if not self.torso_done and self.torso_pile:
            if self.torso[p] < 0:
                actions.append(_TAKE_TORSO)
                if money >= COSTS["choose_torso"]:
                    actions += [ChooseTorso(TORSOS[t].id) for t in sorted(self.torso_pile)]
            else:
                actions.append(_SWAP_TORSO)
        if not self.options["family"] and money >= COSTS["flip_switches"]:
            cells = [(line, sec) for line in range(LINES) for sec in range(len(SECTIONS))]
            if self.options["on_off_variant"]:
                actions += [FlipSwitch(line, sec) for line, sec in cells]
            else:
                offs = [c for c in cells if not self.switches[c[0]][c[1]]]
                ons = [c for c in cells if self.switches[c[0]][c[1]]]
                actions += [FlipSwitches(a, b) for a in offs for b in ons]
        actions += [SellPart(pid(part)) for part in self.hands[p] if PARTS[part].kind not in HUNTER_NEVER]
        for b in range(len(self.buyers)):
            sale = self.helper(p, b)
            if sale is not None:
                actions.append(sale)
        return actions

    def helper(self, seat: int, buyer_slot: int) -> SellRobot | None:
        """The assembly helper's best sale of ``seat`` to the buyer in play at ``buyer_slot``, if any."""
        if self.torso[seat] < 0 or self.buyer_money[buyer_slot] < BUYERS[self.buyers[buyer_slot]].pay:
            return None
        b = self.buyers[buyer_slot]
        found = best_robot(
            self.hands[seat],
            self.torso[seat],
            [REQUIREMENTS[r] for r in self.buyer_reqs[buyer_slot]],
            [BONUS_TILES[t] for t in self.buyer_bonus[buyer_slot]],
            BUYERS[b].pay,
        )
        if found is None:
            return None
        return SellRobot(BUYERS[b].id, found.layout, found.batteries, found.magnets)

    def _canonical_offers(self, p: int) -> list[Action]:
        """One-for-one part trades with each player p has not made an offer to this turn."""
        actions: list[Action] = []
        for q in range(self.num_players):
            if q == p or (p, q) in self.offered:
                continue
            known = self._known(q)
            for g in self.hands[p]:
                actions += [Offer(q, (pid(g),), (pid(k),), 0, 0) for k in known]
        return actions

    def _known(self, seat: int) -> list[int]:
        """The parts of ``seat``'s hand that everyone has seen."""
        hidden = set(self.secret[seat])
        return [part for part in self.hands[seat] if part not in hidden]

    def is_legal(self, player: int, action: Action) -> bool:
        return self._problem(player, action) is None

    def why_illegal(self, player: int, action: Action) -> str:
        return self._problem(player, action) or f"{action.to_json()} is legal"

    def _problem(self, p: int, a: Action) -> str | None:
        """Why seat ``p`` may not take ``a`` now, in players' words; ``None`` if it may."""
        if self.phase == OVER:
            return "the game is over"
        wrong = malformed(a)
        if wrong:
            return f"malformed {a.type} action: {wrong}"
        if p not in self.to_act():
            return f"seat {p} is not to act (waiting for seats {self.to_act()})"
        if isinstance(a, Accept | Decline):
            offer = next((o for o in self.offers if o[0] == a.offer), None)
            if offer is None:
                return f"there is no open offer number {a.offer}"
            if offer[2] != p:
                return f"offer {a.offer} was made to seat {offer[2]}, not to seat {p}"
            return None
        if isinstance(a, Offer):
            return self._offer_problem(p, a)
        if p != self.turn:
            return f"it is seat {self.turn}'s turn: seat {p} may only answer or make trade offers"
        if self.phase == PICK:
            if isinstance(a, StopPicking):
                return None
            if isinstance(a, PickJunk):
                if a.pile not in range(LINES):
                    return f"there is no junk pile {a.pile} (0 or 1)"
                return None if self.junk[a.pile] else f"junk pile {a.pile} is empty"
            return f"seat {p} sold a robot and picks up to {self.picks} more tile(s) from the junk pile tops first"
        if isinstance(a, PickJunk | StopPicking):
            return "tiles are picked from the junk piles only after a sale, with the 3 new tiles house rule"
        if isinstance(a, EndTurn):
            return None
        if isinstance(a, TakePart):
            return self._take_problem(a)
        if isinstance(a, SearchJunk):
            return self._search_problem(p, a)
        if isinstance(a, TradeJunk):
            return self._junk_trade_problem(p, a)
        if isinstance(a, TakeTorso | ChooseTorso | SwapTorso):
            return self._torso_problem(p, a)
        if isinstance(a, FlipSwitches | FlipSwitch):
            return self._switch_problem(p, a)
        if isinstance(a, SellPart):
            part = PART_IDS.get(a.part, -1)
            if part not in self.hands[p]:
                return f"{a.part} is not in seat {p}'s hand"
            if PARTS[part].kind in HUNTER_NEVER:
                return f"the Bargain Hunter never buys a {PARTS[part].kind}"
            return None
        if isinstance(a, SellRobot):
            return self._sale_problem(p, a)
        return f"{a.to_json()} is not an action of this game"

    def _take_problem(self, a: TakePart) -> str | None:
        if self.acquired:
            return "one part per turn: this turn's part has already been taken (from the line or a junk pile)"
        if a.line not in range(LINES) or a.space not in range(1, SPACES + 1):
            return f"there is no space {a.space} on line {a.line} (lines 0-1, spaces 1-{SPACES})"
        if self.lines[a.line][a.space - 1] == EMPTY:
            return f"space {a.space} of line {a.line} is empty"
        if not self.switches[a.line][rules.section(a.space)]:
            spaces = SECTIONS[rules.section(a.space)][0]
            return f"the switch of line {a.line}, spaces {spaces[0]}-{spaces[-1]} is OFF"
        return None

    def _search_problem(self, p: int, a: SearchJunk) -> str | None:
        if self.acquired:
            return "one part per turn: this turn's part has already been taken (from the line or a junk pile)"
        if a.pile not in range(LINES):
            return f"there is no junk pile {a.pile} (0 or 1)"
        if self.money[p] < COSTS["search_junk"]:
            return f"going through a junk pile costs ${COSTS['search_junk']}; seat {p} has ${self.money[p]}"
        if PART_IDS.get(a.part, -1) not in self.junk[a.pile]:
            return f"{a.part} is not in junk pile {a.pile}"
        return None

    def _junk_trade_problem(self, p: int, a: TradeJunk) -> str | None:
        if self.junk_trades >= JUNK_TRADES:
            return f"at most {JUNK_TRADES} junk pile trades per turn"
        if a.pile not in range(LINES):
            return f"there is no junk pile {a.pile} (0 or 1)"
        if not self.junk[a.pile]:
            return f"junk pile {a.pile} is empty"
        if self.junk[a.pile][-1] in MAGNETS:
            return f"the top of junk pile {a.pile} is a magnet: magnets are never traded with a junk pile"
        part = PART_IDS.get(a.part, -1)
        if part not in self.hands[p]:
            return f"{a.part} is not in seat {p}'s hand"
        if part in MAGNETS:
            return "magnets are never traded with a junk pile"
        return None

    def _torso_problem(self, p: int, a: Action) -> str | None:
        if self.torso_done:
            return "the torso stack has already been used this turn"
        if not self.torso_pile:
            return "the torso stack is empty"
        if isinstance(a, SwapTorso):
            return None if self.torso[p] >= 0 else f"seat {p} has no torso to trade"
        if self.torso[p] >= 0:
            return f"one torso in hand at a time: seat {p} holds {tid(self.torso[p])}"
        if isinstance(a, ChooseTorso):
            if self.money[p] < COSTS["choose_torso"]:
                return f"choosing a torso costs ${COSTS['choose_torso']}; seat {p} has ${self.money[p]}"
            if TORSO_IDS.get(a.torso, -1) not in self.torso_pile:
                return f"{a.torso} is not in the torso stack"
        return None

    def _switch_problem(self, p: int, a: FlipSwitches | FlipSwitch) -> str | None:
        if self.options["family"]:
            return "family mode: every switch stays ON"
        if self.money[p] < COSTS["flip_switches"]:
            return f"flipping switches costs ${COSTS['flip_switches']}; seat {p} has ${self.money[p]}"
        sections = range(len(SECTIONS))
        if isinstance(a, FlipSwitch):
            if not self.options["on_off_variant"]:
                return "turning one switch over alone is the ON/OFF house rule, which is not in play"
            if a.line not in range(LINES) or a.section not in sections:
                return f"there is no switch ({a.line}, {a.section})"
            return None
        if self.options["on_off_variant"]:
            return "with the ON/OFF house rule, switches are turned over one at a time (flip_switch)"
        for line, sec in (a.on, a.off):
            if line not in range(LINES) or sec not in sections:
                return f"there is no switch ({line}, {sec}) (lines 0-1, sections 0-1)"
        if self.switches[a.on[0]][a.on[1]]:
            return f"switch {list(a.on)} is already ON"
        if not self.switches[a.off[0]][a.off[1]]:
            return f"switch {list(a.off)} is already OFF"
        return None

    def _sale_problem(self, p: int, a: SellRobot) -> str | None:
        slot = self._buyer_slot(a.buyer)
        if slot < 0:
            return f"{a.buyer} is not a buyer in play"
        buyer = BUYERS[self.buyers[slot]]
        if self.buyer_money[slot] < buyer.pay:
            return f"{buyer.name} has no money left and buys no more robots"
        if self.torso[p] < 0:
            return f"seat {p} has no torso"
        hand = set(self.hands[p])
        torso_id = TORSOS[self.torso[p]].id
        names = [item[0] for item in a.layout] + list(a.batteries) + list(a.magnets)
        if len(set(names)) != len(names):
            return "a tile appears twice in the sale"
        for name in names:
            if name == torso_id:
                continue
            if name in TORSO_IDS:
                return f"{name} is not seat {p}'s torso ({torso_id})"
            if PART_IDS.get(name, -1) not in hand:
                return f"{name} is not in seat {p}'s hand"
        if torso_id not in [item[0] for item in a.layout]:
            return f"the layout does not place seat {p}'s torso {torso_id}"
        for name in a.batteries:
            if PARTS[PART_IDS[name]].kind != "battery":
                return f"{name} is not a battery (only batteries are sold alongside a robot)"
        for name in a.magnets:
            if PART_IDS[name] not in MAGNETS:
                return f"{name} is not a magnet"
        reqs = [REQUIREMENTS[r] for r in self.buyer_reqs[slot]]
        if a.magnets and not any(r.kind == "magnets" for r in reqs):
            return f"{buyer.name} has no magnet requirement: magnets are not handed over"
        robot = assemble(a.layout)
        if robot.problems:
            return "the robot is not finished: " + "; ".join(robot.problems[:3])
        m = measure(robot, [PART_IDS[b] for b in a.batteries])
        short = [shortfall(r, m, len(a.magnets)) for r in reqs if not meets(r, m, len(a.magnets))]
        if short:
            return f"{buyer.name}'s requirements are not met: " + "; ".join(short)
        return None

    def _buyer_slot(self, buyer_id: str) -> int:
        b = BUYER_IDS.get(buyer_id, -1)
        return self.buyers.index(b) if b in self.buyers else -1

    def _offer_problem(self, p: int, a: Offer) -> str | None:
        if self.phase != TURN:
            return "no trade offers while tiles are picked from the junk piles"
        if a.to not in range(self.num_players) or a.to == p:
            return f"seat {a.to} is not another player"
        if (p, a.to) in self.offered:
            return f"seat {p} has already made seat {a.to} an offer this turn"
        if a.give_money < 0 or a.take_money < 0:
            return "money in an offer cannot be negative"
        if not (a.give or a.give_money) or not (a.take or a.take_money):
            return "a trade gives something and takes something"
        if a.give_money > self.money[p]:
            return f"seat {p} has only ${self.money[p]}"
        if a.take_money > self.money[a.to]:
            return f"seat {a.to} has only ${self.money[a.to]}"
        for name, names in (("give", a.give), ("take", a.take)):
            if len(set(names)) != len(names):
                return f"a tile appears twice in '{name}'"
        parsed = self._parse_offer(p, a)
        if isinstance(parsed, str):
            return parsed
        _, give_torso, _, take_torso = parsed
        if self.torso[p] >= 0 and give_torso < 0 and take_torso >= 0:
            return f"one torso in hand at a time: seat {p} would hold two"
        if self.torso[a.to] >= 0 and take_torso < 0 and give_torso >= 0:
            return f"one torso in hand at a time: seat {a.to} would hold two"
        return None

    def _parse_offer(self, p: int, a: Offer) -> tuple[tuple[int, ...], int, tuple[int, ...], int] | str:
        sides: list[tuple[tuple[int, ...], int]] = []
        for seat, names, visible in ((p, a.give, self.hands[p]), (a.to, a.take, self._known(a.to))):
            parts: list[int] = []
            torso = -1
            for name in names:
                if name in TORSO_IDS:
                    if self.torso[seat] != TORSO_IDS[name]:
                        return f"seat {seat} does not hold {name}"
                    torso = TORSO_IDS[name]
                elif PART_IDS.get(name, -1) in visible:
                    parts.append(PART_IDS[name])
                elif seat == p:
                    return f"{name} is not in seat {p}'s hand"
                else:
                    return f"seat {seat} is not known to hold {name} (ask only for parts seen in their hand)"
            sides.append((tuple(sorted(parts)), torso))
        return sides[0][0], sides[0][1], sides[1][0], sides[1][1]

    # -- applying actions ------------------------------------------------------------------------------

    def apply_legal(self, player: int, action: Action) -> list[Event]:
        events: list[Event] = []
        a = action
        if isinstance(a, TakePart):
            self._take_part(player, a, events)
        elif isinstance(a, SearchJunk):
            self._search_junk(player, a, events)
        elif isinstance(a, TradeJunk):
            self._trade_junk(player, a, events)
        elif isinstance(a, TakeTorso | ChooseTorso | SwapTorso):
            self._torso_action(player, a, events)
        elif isinstance(a, FlipSwitches):
            self._pay_to_bank(player, COSTS["flip_switches"])
            for line, sec in (a.on, a.off):
                self.switches[line][sec] = not self.switches[line][sec]
            events.append(Event("switches", {"seat": player, "on": list(a.on), "off": list(a.off)}))
        elif isinstance(a, FlipSwitch):
            self._pay_to_bank(player, COSTS["flip_switches"])
            self.switches[a.line][a.section] = not self.switches[a.line][a.section]
            events.append(Event("switch", {"seat": player, "line": a.line, "section": a.section}))
        elif isinstance(a, SellPart):
            self._sell_part(player, a, events)
        elif isinstance(a, SellRobot):
            self._sell_robot(player, a, events)
        elif isinstance(a, Offer):
            self._offer(player, a, events)
        elif isinstance(a, Accept):
            self._accept(a.offer, events)
        elif isinstance(a, Decline):
            self.offers = [o for o in self.offers if o[0] != a.offer]
            events.append(Event("declined", {"seat": player, "offer": a.offer}))
        elif isinstance(a, PickJunk):
            part = self.junk[a.pile].pop()
            self._add_to_hand(player, [part])
            self.picks -= 1
            events.append(Event("picked", {"seat": player, "pile": a.pile, "part": pid(part)}))
            if not self.picks or not any(self.junk):
                self.picks = 0
                self.phase = TURN
        elif isinstance(a, StopPicking):
            self.picks = 0
            self.phase = TURN
            events.append(Event("stopped_picking", {"seat": player}))
        elif isinstance(a, EndTurn):
            self._end_turn(events)
        self._void_offers(events)
        return events

    def _add_to_hand(self, seat: int, parts: list[int]) -> None:
        self.hands[seat] = sorted(self.hands[seat] + parts)

    def _remove_from_hand(self, seat: int, parts: list[int] | tuple[int, ...]) -> None:
        hand = self.hands[seat][:]
        for part in parts:
            hand.remove(part)
        self.hands[seat] = hand
        if self.secret[seat]:
            self.secret[seat] = [s for s in self.secret[seat] if s not in parts]

    def _take_part(self, p: int, a: TakePart, events: list[Event]) -> None:
        line = self.lines[a.line]
        unit = rules.magnet_unit(line, a.space)
        parts = [line[s - 1] for s in unit]
        for s in unit:
            line[s - 1] = EMPTY
        self._add_to_hand(p, parts)
        self.acquired = True
        events.append(Event("took", {"seat": p, "line": a.line, "spaces": unit, "parts": [pid(x) for x in parts]}))

    def _search_junk(self, p: int, a: SearchJunk, events: list[Event]) -> None:
        self._pay_to_bank(p, COSTS["search_junk"])
        part = PART_IDS[a.part]
        self.junk[a.pile] = [x for x in self.junk[a.pile] if x != part]  # the rest keeps its order
        self._add_to_hand(p, [part])
        self.acquired = True
        events.append(Event("searched_junk", {"seat": p, "pile": a.pile, "part": a.part}))

    def _trade_junk(self, p: int, a: TradeJunk, events: list[Event]) -> None:
        part = PART_IDS[a.part]
        top = self.junk[a.pile].pop()
        self._remove_from_hand(p, [part])
        self.junk[a.pile].append(part)
        self._add_to_hand(p, [top])
        self.junk_trades += 1
        events.append(Event("traded_junk", {"seat": p, "pile": a.pile, "gave": a.part, "took": pid(top)}))

    def _torso_action(self, p: int, a: Action, events: list[Event]) -> None:
        self.torso_done = True
        if isinstance(a, SwapTorso):
            mine = self.torso[p]
            self.torso[p] = self.torso_pile.pop()
            self.torso_pile.append(mine)
            events.append(Event("swapped_torso", {"seat": p, "gave": tid(mine), "took": tid(self.torso[p])}))
        elif isinstance(a, ChooseTorso):
            self._pay_to_bank(p, COSTS["choose_torso"])
            events.append(Event("torso_stack_seen", {"order": [tid(t) for t in self.torso_pile]}, (p,)))
            t = TORSO_IDS[a.torso]
            self.torso_pile.remove(t)
            self.torso[p] = t
            events.append(Event("chose_torso", {"seat": p, "torso": a.torso}))
        else:
            self.torso[p] = self.torso_pile.pop()
            events.append(Event("took_torso", {"seat": p, "torso": tid(self.torso[p])}))

    def _sell_part(self, p: int, a: SellPart, events: list[Event]) -> None:
        part = PART_IDS[a.part]
        price = HUNTER_FEATURED if PARTS[part].kind == self.featured else HUNTER_ANY
        self._remove_from_hand(p, [part])
        self.gone.append(part)
        self._pay_from_bank(p, price)
        events.append(Event("sold_part", {"seat": p, "part": a.part, "price": price}))

    def _sell_robot(self, p: int, a: SellRobot, events: list[Event]) -> None:
        slot = self._buyer_slot(a.buyer)
        buyer = BUYERS[self.buyers[slot]]
        reqs = [REQUIREMENTS[r] for r in self.buyer_reqs[slot]]
        bonus = [BONUS_TILES[t] for t in self.buyer_bonus[slot]]
        robot = assemble(a.layout)
        m = measure(robot, [PART_IDS[b] for b in a.batteries])
        paid = rules.sale_breakdown(buyer.pay, reqs, bonus, m)
        parts = [PART_IDS[name] for name, *_ in a.layout if name in PART_IDS]
        parts += [PART_IDS[name] for name in a.batteries + a.magnets]
        self._remove_from_hand(p, parts)
        self.gone.extend(parts)
        self.gone_torsos.append(self.torso[p])
        self.torso[p] = -1
        self.buyer_money[slot] -= buyer.pay
        self.money[p] += buyer.pay
        self._pay_from_bank(p, paid["total"] - buyer.pay)
        self.robots[p] += 1
        sale = {
            "seat": p,
            "buyer": buyer.id,
            "layout": [list(item) for item in a.layout],
            "batteries": list(a.batteries),
            "magnets": list(a.magnets),
            "paid": paid,
        }
        self.sales = [*self.sales, sale]
        events.append(Event("sold_robot", sale))
        if self.buyer_money[slot] < buyer.pay:
            events.append(Event("buyer_done", {"buyer": buyer.id}))
        if self.options["three_new_tiles"] and any(self.junk):
            self.picks = NEW_TILES_AFTER_SALE
            self.phase = PICK

    def _offer(self, p: int, a: Offer, events: list[Event]) -> None:
        parsed = self._parse_offer(p, a)
        assert not isinstance(parsed, str)
        give, give_torso, take, take_torso = parsed
        number = self.next_offer
        self.next_offer += 1
        self.offers = [*self.offers, (number, p, a.to, give, give_torso, take, take_torso, a.give_money, a.take_money)]
        self.offered = [*self.offered, (p, a.to)]
        if self.secret[p]:  # what is offered is shown
            self.secret[p] = [s for s in self.secret[p] if s not in give]
        events.append(Event("offer", self._offer_json(self.offers[-1])))

    def _offer_feasible(self, o: OfferT) -> bool:
        _, frm, to, give, give_torso, take, take_torso, give_money, take_money = o
        hand_f, hand_t = self.hands[frm], self.hands[to]
        if any(x not in hand_f for x in give) or any(x not in hand_t for x in take):
            return False
        if give_torso >= 0 and self.torso[frm] != give_torso:
            return False
        if take_torso >= 0 and self.torso[to] != take_torso:
            return False
        if self.money[frm] < give_money or self.money[to] < take_money:
            return False
        if self.torso[frm] >= 0 and give_torso < 0 and take_torso >= 0:
            return False
        return not (self.torso[to] >= 0 and take_torso < 0 and give_torso >= 0)

    def _accept(self, number: int, events: list[Event]) -> None:
        o = next(o for o in self.offers if o[0] == number)
        self.offers = [x for x in self.offers if x[0] != number]
        _, frm, to, give, give_torso, take, take_torso, give_money, take_money = o
        self._remove_from_hand(frm, give)
        self._remove_from_hand(to, take)
        self._add_to_hand(to, list(give))
        self._add_to_hand(frm, list(take))
        if give_torso >= 0:
            self.torso[frm] = -1
        if take_torso >= 0:
            self.torso[to] = -1
        if give_torso >= 0:
            self.torso[to] = give_torso
        if take_torso >= 0:
            self.torso[frm] = take_torso
        self.money[frm] += take_money - give_money
        self.money[to] += give_money - take_money
        events.append(Event("accepted", self._offer_json(o)))

    def _void_offers(self, events: list[Event]) -> None:
        """Offers that can no longer be carried out (a part sold, a torso taken) are withdrawn."""
        if not self.offers:
            return
        keep = [o for o in self.offers if self._offer_feasible(o)]
        if len(keep) != len(self.offers):
            for o in self.offers:
                if o not in keep:
                    events.append(Event("offer_void", {"offer": o[0]}))
            self.offers = keep

    def _offer_json(self, o: OfferT) -> dict[str, Any]:
        number, frm, to, give, give_torso, take, take_torso, give_money, take_money = o
        return {
            "offer": number,
            "from": frm,
            "to": to,
            "give": [pid(x) for x in give] + ([TORSOS[give_torso].id] if give_torso >= 0 else []),
            "take": [pid(x) for x in take] + ([TORSOS[take_torso].id] if take_torso >= 0 else []),
            "give_money": give_money,
            "take_money": take_money,
        }

    # -- the end of a turn and the line ----------------------------------------------------------------

    def _end_turn(self, events: list[Event]) -> None:
        for o in self.offers:
            events.append(Event("offer_lapsed", {"offer": o[0]}))
        self.offers = []
        self.offered = []
        for line in range(LINES):
            left = rules.advance(self.lines[line], self.junk[line])
            if left != EMPTY:
                events.append(Event("to_junk", {"line": line, "part": pid(left)}))
        events.append(Event("line_advanced", {"turn": self.turn_number, "seat": self.turn}))
        if max(self.robots) >= ROBOTS_TO_END:
            self._game_over(f"a player sold {ROBOTS_TO_END} robots", events)
            return
        if not self._parts_on_line():
            self._game_over("no robot parts left on the line", events)
            return
        self.turn = (self.turn + 1) % self.num_players
        self.turn_number += 1
        self.acquired = False
        self.junk_trades = 0
        self.torso_done = False
        events.append(Event("turn", {"seat": self.turn, "turn": self.turn_number}))
        self._start_turn(events)

    def _parts_on_line(self) -> bool:
        return any(self.draw) or any(x != EMPTY for line in self.lines for x in line)

    def _start_turn(self, events: list[Event]) -> None:
        """Each line's space 1, if empty, receives the top of its draw pile."""
        for line in range(LINES):
            if self.lines[line][0] == EMPTY and self.draw[line]:
                self._place(line, 1, events)

    def _place(self, line: int, space: int, events: list[Event]) -> str:
        """Draw onto a space; an extender with the maintenance icon then draws a maintenance tile."""
        part = self.draw[line].pop()
        self.lines[line][space - 1] = part
        events.append(Event("drawn", {"line": line, "space": space, "part": pid(part)}))
        if PARTS[part].maintenance and not self.options["family"]:
            return self._maintenance(events)
        return ""

    def _maintenance(self, events: list[Event]) -> str:
        if not self.maint:
            events.append(Event("maintenance", {"tile": None}))
            return ""
        kind = self.maint.pop()
        self.maint_discard.append(kind)
        events.append(Event("maintenance", {"tile": kind}))
        if kind == "switch_flip":
            self.switches = [[not on for on in line] for line in self.switches]
        elif kind == "line_reset":
            self._line_reset(events)
        return kind

    def _line_reset(self, events: list[Event]) -> None:
        """Both lines to their junk piles, nearest first; then refill alternately (resets may chain)."""
        for line in range(LINES):
            moved = rules.clear_line(self.lines[line], self.junk[line])
            events.append(Event("line_cleared", {"line": line, "parts": [pid(x) for x in moved]}))
        for line, space in rules.refill_order(LINES, SPACES):
            refill = self.draw[line] and self.lines[line][space - 1] == EMPTY
            if refill and self._place(line, space, events) == "line_reset":
                return  # the new reset refilled the lines

    def _game_over(self, reason: str, events: list[Event]) -> None:
        self.phase = OVER
        self.end_reason = reason
        self.offers = []
        events.append(Event("game_over", {"reason": reason, "result": self.result().to_json()}))

    # -- the end ---------------------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[int]:
        """Money minus $1 for each magnet held."""
        return [self.money[p] - MAGNET_PENALTY * self._magnets(p) for p in range(self.num_players)]

    def _magnets(self, seat: int) -> int:
        return sum(1 for x in self.hands[seat] if x in MAGNETS)

    def result(self) -> Result:
        if self.phase != OVER:
            raise IllegalAction("the game is not over")
        scores = self.scores()
        details = {
            "money": list(self.money),
            "magnets": [self._magnets(p) for p in range(self.num_players)],
            "robots_sold": list(self.robots),
            "tie_breaks": [],
        }
        return Result.from_keys(scores, [(s,) for s in scores], self.end_reason, details)

    # -- copies, views and JSON ------------------------------------------------------------------------

    def clone(self) -> RotlState:
        new = RotlState.__new__(RotlState)
        new.num_players = self.num_players
        new.seed = self.seed
        new.options = self.options
        new.rng = Rng(self.rng.state)
        new.lines = [line[:] for line in self.lines]
        new.draw = [pile[:] for pile in self.draw]
        new.junk = [pile[:] for pile in self.junk]
        new.switches = [s[:] for s in self.switches]
        new.maint = self.maint[:]
        new.maint_discard = self.maint_discard[:]
        new.torso_pile = self.torso_pile[:]
        new.hands = [h[:] for h in self.hands]
        new.secret = [s[:] for s in self.secret]
        new.torso = self.torso[:]
        new.money = self.money[:]
        new.bank = self.bank
        new.robots = self.robots[:]
        new.buyers = self.buyers  # never changes after setup
        new.buyer_reqs = self.buyer_reqs
        new.buyer_bonus = self.buyer_bonus
        new.buyer_money = self.buyer_money[:]
        new.featured = self.featured
        new.gone = self.gone[:]
        new.gone_torsos = self.gone_torsos[:]
        new.boxed = self.boxed
        new.sales = self.sales  # replaced, never mutated
        new.turn = self.turn
        new.turn_number = self.turn_number
        new.acquired = self.acquired
        new.junk_trades = self.junk_trades
        new.torso_done = self.torso_done
        new.picks = self.picks
        new.offers = self.offers  # replaced, never mutated
        new.offered = self.offered  # replaced, never mutated
        new.next_offer = self.next_offer
        new.phase = self.phase
        new.end_reason = self.end_reason
        return new

    def determinize(self, player: int, rng: Rng) -> RotlState:
        """Resample what ``player`` has not seen: draw piles, others' dealt parts, the stacks' order.

        The sample depends only on what ``player`` knows and on ``rng``: every unseen pile is sorted
        before it is shuffled, and the state's own generator and seed are replaced.
        """
        new = self.clone()
        new.rng = rng.fork()
        new.seed = 0
        others = [q for q in range(self.num_players) if q != player and new.secret[q]]
        pool = sorted([x for pile in new.draw for x in pile] + [x for q in others for x in new.secret[q]])
        rng.shuffle(pool)
        for q in others:  # dealt parts are never magnets
            k = len(new.secret[q])
            known = [x for x in new.hands[q] if x not in set(new.secret[q])]
            fresh = [x for x in pool if x not in MAGNETS][:k]
            taken = set(fresh)
            pool = [x for x in pool if x not in taken]
            new.secret[q] = sorted(fresh)
            new.hands[q] = sorted(known + fresh)
        sizes = [len(pile) for pile in new.draw]
        new.draw = [pool[: sizes[0]], pool[sizes[0] :]]
        new.maint.sort()
        rng.shuffle(new.maint)
        if len(new.torso_pile) > 1:
            below = sorted(new.torso_pile[:-1])
            rng.shuffle(below)
            new.torso_pile = [*below, new.torso_pile[-1]]
        return new

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` sees: the table, every hand's seen parts, their own hand whole."""
        players = []
        for seat in range(self.num_players):
            shown = self.hands[seat] if seat == player else self._known(seat)
            players.append(
                {
                    "seat": seat,
                    "money": self.money[seat],
                    "torso": tid(self.torso[seat]),
                    "hand": [pid(x) for x in shown],
                    "unknown_parts": len(self.hands[seat]) - len(shown),
                    "magnets": self._magnets(seat),
                    "robots_sold": self.robots[seat],
                    "score": self.scores()[seat],
                }
            )
        out: dict[str, Any] = {
            "game": GAME_ID,
            "seat": player,
            "num_players": self.num_players,
            "options": dict(self.options),
            "phase": self.phase,
            "turn": self.turn,
            "turn_number": self.turn_number,
            "to_act": self.to_act(),
            "lines": [[pid(x) if x != EMPTY else None for x in line] for line in self.lines],
            "switches": [["on" if on else "off" for on in line] for line in self.switches],
            "units": [rules.magnet_units(line) for line in self.lines],
            "draw_piles": [len(pile) for pile in self.draw],
            "junk_piles": [[pid(x) for x in pile] for pile in self.junk],
            "maintenance": {"stack": len(self.maint), "discard": list(self.maint_discard)},
            "torso_stack": {
                "top": tid(self.torso_pile[-1]) if self.torso_pile else None,
                "count": len(self.torso_pile),
                "torsos": sorted(TORSOS[t].id for t in self.torso_pile),
            },
            "bargain_hunter": {"featured": self.featured, "any_part": HUNTER_ANY, "featured_part": HUNTER_FEATURED},
            "buyers": [self._buyer_json(slot) for slot in range(len(self.buyers))],
            "players": players,
            "offers": [self._offer_json(o) for o in self.offers],
            "this_turn": {
                "part_taken": self.acquired,
                "junk_trades": self.junk_trades,
                "torso_stack_used": self.torso_done,
                "picks_left": self.picks,
            },
            "sales": list(self.sales),
            "bargain_hunter_parts": [pid(x) for x in self.gone if x not in self._sold_in_robots()],
            "bank": self.bank,
        }
        if self.phase == OVER:
            out["result"] = self.result().to_json()
        return out

    def _sold_in_robots(self) -> set[int]:
        sold: set[int] = set()
        for sale in self.sales:
            for name in [item[0] for item in sale["layout"]] + sale["batteries"] + sale["magnets"]:
                if name in PART_IDS:
                    sold.add(PART_IDS[name])
        return sold

    def _buyer_json(self, slot: int) -> dict[str, Any]:
        buyer = BUYERS[self.buyers[slot]]
        return {
            "id": buyer.id,
            "name": buyer.name,
            "robots": buyer.robots,
            "pay": buyer.pay,
            "money": self.buyer_money[slot],
            "buying": self.buyer_money[slot] >= buyer.pay,
            "requirements": [
                {"id": r.id, "kind": r.kind, "text": r.text(), "bonus": r.bonus}
                for r in (REQUIREMENTS[i] for i in self.buyer_reqs[slot])
            ],
            "bonus_tiles": [
                {"id": t.id, "icons": sorted(t.icons), "value": t.value}
                for t in (BONUS_TILES[i] for i in self.buyer_bonus[slot])
            ],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME_ID,
            "num_players": self.num_players,
            "seed": self.seed,
            "options": dict(self.options),
            "rng": self.rng.to_json(),
            "phase": self.phase,
            "end_reason": self.end_reason,
            "turn": self.turn,
            "turn_number": self.turn_number,
            "lines": [[pid(x) if x != EMPTY else None for x in line] for line in self.lines],
            "draw_piles": [[pid(x) for x in pile] for pile in self.draw],
            "junk_piles": [[pid(x) for x in pile] for pile in self.junk],
            "switches": [["on" if on else "off" for on in line] for line in self.switches],
            "maintenance": list(self.maint),
            "maintenance_discard": list(self.maint_discard),
            "torso_stack": [TORSOS[t].id for t in self.torso_pile],
            "hands": [[pid(x) for x in hand] for hand in self.hands],
            "secret": [[pid(x) for x in s] for s in self.secret],
            "torsos": [tid(t) for t in self.torso],
            "money": list(self.money),
            "bank": self.bank,
            "robots_sold": list(self.robots),
            "buyers": [
                {
                    "id": BUYERS[b].id,
                    "requirements": [REQUIREMENTS[r].id for r in self.buyer_reqs[slot]],
                    "bonus_tiles": [BONUS_TILES[t].id for t in self.buyer_bonus[slot]],
                    "money": self.buyer_money[slot],
                }
                for slot, b in enumerate(self.buyers)
            ],
            "featured": self.featured,
            "out_of_game": [pid(x) for x in self.gone],
            "out_of_game_torsos": [TORSOS[t].id for t in self.gone_torsos],
            "boxed": [pid(x) for x in self.boxed],
            "sales": list(self.sales),
            "this_turn": {
                "part_taken": self.acquired,
                "junk_trades": self.junk_trades,
                "torso_stack_used": self.torso_done,
                "picks_left": self.picks,
            },
            "offers": [self._offer_json(o) for o in self.offers],
            "offered": [list(pair) for pair in self.offered],
            "next_offer": self.next_offer,
        }

    # -- invariants ------------------------------------------------------------------------------------

    def check_invariants(self) -> list[str]:
        """Every broken invariant in players' words ([] when the state is sound)."""
        return list(self._problems())

    def _problems(self) -> Iterator[str]:
        n = self.num_players
        everywhere = (
            [x for pile in self.draw for x in pile]
            + [x for line in self.lines for x in line if x != EMPTY]
            + [x for pile in self.junk for x in pile]
            + [x for hand in self.hands for x in hand]
            + self.gone
            + self.boxed
        )
        if sorted(everywhere) != list(range(len(PARTS))):
            yield f"the {len(PARTS)} parts are not all there exactly once ({len(everywhere)} found)"
        torsos = self.torso_pile + [t for t in self.torso if t >= 0] + self.gone_torsos
        if sorted(torsos) != list(range(len(TORSOS))):
            yield f"the {len(TORSOS)} torsos are not all there exactly once ({len(torsos)} found)"
        total = self.bank + sum(self.money) + sum(self.buyer_money)
        if total != BANK:
            yield f"money: bank, players and buyers add up to ${total}, not ${BANK}"
        if min(self.money, default=0) < 0 or min(self.buyer_money, default=0) < 0:
            yield "no player or buyer can hold negative money"
        for seat in range(n):
            if self.hands[seat] != sorted(self.hands[seat]):
                yield f"seat {seat}'s hand is not sorted"
            if not set(self.secret[seat]) <= set(self.hands[seat]):
                yield f"seat {seat}'s unseen parts are not in their hand"
            if any(x in MAGNETS for x in self.secret[seat]):
                yield f"seat {seat}'s unseen parts include a magnet, but dealt parts never are magnets"
        if not self.options["on_off_variant"]:
            on = sum(on for line in self.switches for on in line)
            default = LINES * sum(on for _, on in SECTIONS)
            if on != (LINES * len(SECTIONS) if self.options["family"] else default):
                yield f"{on} switches are ON; without the ON/OFF house rule {default} are (all in family mode)"
        if any(len(line) != SPACES for line in self.lines):
            yield f"each line has {SPACES} spaces"
        if len(self.buyers) != BUYERS_IN_PLAY[n]:
            yield f"{n} players play with {BUYERS_IN_PLAY[n]} buyers, not {len(self.buyers)}"
        if not 0 <= self.junk_trades <= JUNK_TRADES:
            yield f"0 to {JUNK_TRADES} junk trades per turn"
        if self.turn_number < 1:
            yield "turns are numbered from 1"
        if not 0 <= self.picks <= NEW_TILES_AFTER_SALE:
            yield f"0 to {NEW_TILES_AFTER_SALE} tiles are left to pick"
        if self.picks and not self.options["three_new_tiles"]:
            yield "tiles are picked after a sale only with the 'three new tiles' house rule"
        for seat in range(n):
            if not 0 <= self.robots[seat] <= ROBOTS_TO_END:
                yield f"seat {seat} has sold {self.robots[seat]} robots; 0 to {ROBOTS_TO_END} can be"
            if sum(sale["seat"] == seat for sale in self.sales) > self.robots[seat]:
                # (fewer is fine: a written position may say robots were sold without drawing them)
                yield f"seat {seat} has more sales listed than robots sold"
        if self.options["family"]:
            tiles: dict[str, int] = {}
        else:
            tiles = {"line_reset": self.options["line_resets"], "switch_flip": self.options["switch_flips"]}
        for kind in set(tiles) | set(self.maint) | set(self.maint_discard):
            if self.maint.count(kind) + self.maint_discard.count(kind) != tiles.get(kind, 0):
                yield f"the game has {tiles.get(kind, 0)} {kind} maintenance tiles (stack and discard)"
        for a, b in self.offered:
            if a not in range(n) or b not in range(n) or a == b:
                yield f"offers made this turn must name two different seats, got {(a, b)}"
        numbers = [o[0] for o in self.offers]
        if len(set(numbers)) != len(numbers) or any(not 0 < k < self.next_offer for k in numbers):
            yield "offers need distinct numbers below next_offer"
        if not 0 <= self.turn < n:
            yield f"turn must be a seat from 0 to {n - 1}"
        if self.phase == PICK and self.picks <= 0:
            yield "picking tiles from the junk piles with none left to pick"
        for o in self.offers:
            number, frm, to, give, _gt, take, _tt, give_money, take_money = o
            if not self._offer_feasible(o):
                yield f"offer {number} can no longer be carried out"
            if give_money < 0 or take_money < 0:
                yield f"offer {number} has negative money"
            if set(give) & set(self.secret[frm]) or set(take) & set(self.secret[to]):
                yield f"offer {number} names a part nobody has seen"
        for r in range(len(REQUIREMENTS)):
            if sum(reqs.count(r) for reqs in self.buyer_reqs) > 1:
                yield f"requirement tile {REQUIREMENTS[r].id} is on two buyers"
        for t in range(len(BONUS_TILES)):
            if sum(b.count(t) for b in self.buyer_bonus) > 1:
                yield f"bonus tile {BONUS_TILES[t].id} is on two buyers"
