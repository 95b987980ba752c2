"""The state of a game of Robots on the Line: everything that changes, in plain ints and lists, and the
game contract over it.

Parts are ints (see :mod:`.components`); a line is a list of 6 entries, space 1 first; piles have their
top last. Hidden: the draw piles, the maintenance stack, the torso stack below its top, and each
player's dealt parts (``secret``) until they are shown.

The rules live in one module per part of the rulebook (:mod:`.line`, :mod:`.trade`, :mod:`.torsos`,
:mod:`.sale`, :mod:`.turn`); :data:`RULES` maps each action type to its check and its effect there.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import repeat
from operator import is_
from typing import Any, NamedTuple

from robotable.core import Action, Event, IllegalAction, Result, Rng, State, reason

from . import line, sale, torsos, trade, turn
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
from .components import BANK, BONUS_TILES, BUYERS, LINES, MAGNET_PENALTY, MAGNETS, REQUIREMENTS, SECTIONS, SPACES
from .helper import best_robot, robot_sales
from .invariants import problems
from .line import EMPTY
from .phases import OVER, PICK, TURN
from .serialize import to_json
from .view import view

_END_TURN = EndTurn()
# Actions after which every open offer can still be carried out: they change no hand, torso or money (a
# new offer is checked to be feasible when it is made), so the offers need no second look.
_KEEP_OFFERS = frozenset({Offer, Decline})


class Rule(NamedTuple):
    """How one action type is checked and applied, and who may take it when.

    ``when`` is ``"answer"`` (trade offers, by anyone at any time, and answers to them), ``"turn"``
    (the seat whose turn it is, outside the 3 new tiles pick) or ``"pick"`` (that seat, while picking).
    """

    check: Callable[[Any, int, Any], str | None]
    apply: Callable[[Any, int, Any, list[Event]], None]
    when: str


RULES: dict[type[Action], Rule] = {
    TakePart: Rule(line.check_take, line.apply_take, "turn"),
    SearchJunk: Rule(line.check_search, line.apply_search, "turn"),
    TradeJunk: Rule(trade.check_junk_trade, trade.apply_junk_trade, "turn"),
    TakeTorso: Rule(torsos.check_take_torso, torsos.apply_take_torso, "turn"),
    ChooseTorso: Rule(torsos.check_choose_torso, torsos.apply_choose_torso, "turn"),
    SwapTorso: Rule(torsos.check_swap_torso, torsos.apply_swap_torso, "turn"),
    FlipSwitches: Rule(line.check_flip_switches, line.apply_flip_switches, "turn"),
    FlipSwitch: Rule(line.check_flip_switch, line.apply_flip_switch, "turn"),
    SellPart: Rule(sale.check_sell_part, sale.apply_sell_part, "turn"),
    SellRobot: Rule(sale.check_sell_robot, sale.apply_sell_robot, "turn"),
    Offer: Rule(trade.check_offer, trade.apply_offer, "answer"),
    Accept: Rule(trade.check_answer, trade.apply_accept, "answer"),
    Decline: Rule(trade.check_answer, trade.apply_decline, "answer"),
    PickJunk: Rule(sale.check_pick, sale.apply_pick, "pick"),
    StopPicking: Rule(sale.check_stop_picking, sale.apply_stop_picking, "pick"),
    EndTurn: Rule(turn.check_end_turn, turn.apply_end_turn, "turn"),
}

#: Each action type's effect (``RULES[kind].apply``, looked up once).
_EFFECTS: dict[type[Action], Callable[[Any, int, Any, list[Event]], None]] = {
    kind: rule.apply for kind, rule in RULES.items()
}


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
        "listed",
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
        "sales_memo",
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
        self.offers: list[trade.OpenOffer] = []
        self.offered: list[tuple[int, int]] = []  # (from, to) offers made this turn
        self.next_offer = 1
        self.phase = TURN
        self.end_reason = ""
        # the assembly helper's sales by (hand, torso) for the buyers still buying (see robot_sales)
        self.sales_memo: tuple[list[int], Any, dict[Any, Any]] | None = None
        # the seat and the actions of the last legal_actions, until an action is applied (see apply)
        self.listed: tuple[int, tuple[Action, ...]] | None = None

    # -- money and hands -------------------------------------------------------------------------------

    def pay_from_bank(self, seat: int, amount: int) -> None:
        self.bank -= amount
        self.money[seat] += amount

    def pay_to_bank(self, seat: int, amount: int) -> None:
        self.money[seat] -= amount
        self.bank += amount

    def add_to_hand(self, seat: int, parts: list[int]) -> None:
        self.hands[seat] = sorted(self.hands[seat] + parts)

    def remove_from_hand(self, seat: int, parts: list[int] | tuple[int, ...]) -> None:
        hand = self.hands[seat][:]
        for part in parts:
            hand.remove(part)
        self.hands[seat] = hand
        if self.secret[seat]:
            self.secret[seat] = [x for x in self.secret[seat] if x not in parts]

    def known(self, seat: int) -> list[int]:
        """The parts of ``seat``'s hand that everyone has seen."""
        hidden = set(self.secret[seat])
        return [part for part in self.hands[seat] if part not in hidden]

    def magnets(self, seat: int) -> int:
        """How many magnets ``seat`` holds."""
        return sum(1 for x in self.hands[seat] if x in MAGNETS)

    # -- the contract ----------------------------------------------------------------------------------

    def to_act(self) -> list[int]:
        if self.phase == OVER:
            return []
        offers = self.offers
        if not offers:
            return [self.turn]
        # the takers of the open offers in the order they were made, each once, then the turn's seat
        if len(offers) == 1:  # (the usual case)
            taker = offers[0][2]  # (o.taker: indexing is faster)
            return [taker] if taker == self.turn else [taker, self.turn]
        seats = list(dict.fromkeys([o[2] for o in offers]))
        if self.turn not in seats:
            seats.append(self.turn)
        return seats

    def answering(self) -> list[int]:
        """The seats offers were made to (not the seat whose turn it is): each answers when it likes."""
        if self.phase == OVER:
            return []
        return sorted({offer.taker for offer in self.offers} - {self.turn})

    def optional_actors(self) -> list[int]:
        """The seats not waited for that may make a trade offer now ("trade at any time")."""
        waiting = self.to_act()
        return [p for p in trade.offering(self) if p not in waiting]

    def legal_actions(self, player: int) -> list[Action]:
        """The turn's actions (or the picks), the offers, the answers to offers, then ending the turn for
        the seat whose turn it is; the offers and the answers for another seat (none for a seat not in
        the game, none after the end). Remembered until an action is applied (see :meth:`apply`)."""
        if player != self.turn or self.phase == OVER:
            if self.phase == OVER or player not in range(self.num_players):
                actions: list[Action] = []
            else:
                actions = trade.offer_actions(self, player)
                if self.offers:
                    actions += trade.answer_actions(self, player)
        elif self.phase == PICK:
            actions = sale.pick_actions(self)
            actions += trade.offer_actions(self, player)
            actions += trade.answer_actions(self, player)
        else:
            actions = self._turn_actions(player)
            actions += trade.offer_actions(self, player)
            if self.offers:
                actions += trade.answer_actions(self, player)
            actions.append(_END_TURN)
        self.listed = (player, tuple(actions))
        return actions

    def _turn_actions(self, p: int) -> list[Action]:
        """The rulebook's actions on one's own turn, in its order (trades with players come apart)."""
        actions: list[Action] = []
        if not self.acquired:
            actions += line.take_actions(self)
            actions += line.search_actions(self, p)
        actions += trade.junk_trade_actions(self, p)
        actions += torsos.torso_actions(self, p)
        actions += line.switch_actions(self, p)
        actions += sale.hunter_actions(self, p)
        actions += robot_sales(self, p)
        return actions

    def helper(self, seat: int, buyer_slot: int) -> SellRobot | None:
        """The assembly helper's best sale of ``seat`` to the buyer in play at ``buyer_slot``, if any."""
        if self.torso[seat] < 0 or not sale.buying(self, buyer_slot):
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

    def is_legal(self, player: int, action: Action) -> bool:
        return self._problem(player, action) is None

    def why_illegal(self, player: int, action: Action) -> str:
        return self._problem(player, action) or reason("refusals.legal", "{action} is legal", action=action.to_json())

    def _problem(self, p: int, a: Action) -> str | None:
        """Why seat ``p`` may not take ``a`` now, in players' words; ``None`` if it may."""
        if self.phase == OVER:
            return reason("refusals.game_over", "the game is over")
        wrong = malformed(a)
        if wrong:
            return reason("refusals.malformed_action", "malformed {type} action: {problem}", type=a.type, problem=wrong)
        rule = RULES.get(type(a))
        if rule is None:
            return reason("refusals.not_an_action", "{action} is not an action of this game", action=a.to_json())
        if not isinstance(a, Offer) and p not in self.to_act():
            return reason(
                "refusals.not_to_act",
                "seat {seat} is not to act (waiting for seats {waiting_seats}); trade offers may be made any time",
                seat=p,
                waiting_seats=self.to_act(),
            )
        return self._when_problem(p, rule.when) or rule.check(self, p, a)

    def _when_problem(self, p: int, when: str) -> str | None:
        """Whether seat ``p`` may take an action of this kind now (see :class:`Rule`)."""
        if when == "answer":
            return None
        if p != self.turn:
            return reason(
                "refusals.not_your_turn",
                "it is seat {turn_seat}'s turn: seat {seat} may only answer or make trade offers",
                turn_seat=self.turn,
                seat=p,
            )
        if self.phase == PICK and when != "pick":
            return reason(
                "refusals.pick_first",
                "seat {seat} sold a robot and picks up to {picks} more tile(s) from the junk pile tops first",
                seat=p,
                picks=self.picks,
            )
        if self.phase != PICK and when == "pick":
            return reason(
                "refusals.pick_only_after_sale",
                "tiles are picked from the junk piles only after a sale, with the 3 new tiles house rule",
            )
        return None

    def apply(self, player: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``player``, checked; an action this state itself listed in its last
        ``legal_actions`` for ``player`` (the very object, nothing applied since) is known legal and is
        not checked again. The state changes only through ``apply`` and ``apply_legal``: code that edits
        its fields directly (tests building a position) does so before asking for legal actions."""
        listed = self.listed
        if (
            listed is not None
            and type(player) is int
            and player == listed[0]
            and any(map(is_, repeat(action), listed[1]))  # (the very object, compared in C without ids)
        ):
            return self.apply_legal(player, action)
        return super().apply(player, action)

    def apply_legal(self, player: int, action: Action) -> list[Event]:
        self.listed = None
        events: list[Event] = []
        kind = type(action)
        _EFFECTS[kind](self, player, action, events)
        if kind not in _KEEP_OFFERS:
            trade.void_offers(self, events)
        return events

    # -- the end ---------------------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[int]:
        """Money minus $1 for each magnet held."""
        return [self.money[p] - MAGNET_PENALTY * self.magnets(p) for p in range(self.num_players)]

    def result(self) -> Result:
        if self.phase != OVER:
            raise IllegalAction("the game is not over")
        scores = self.scores()
        details = {
            "money": list(self.money),
            "magnets": [self.magnets(p) for p in range(self.num_players)],
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
        new.sales_memo = self.sales_memo  # answers that depend only on their key: shared
        new.listed = None
        return new

    def determinize(self, player: int | None, rng: Rng) -> RotlState:
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
        pool = new._redeal(others, pool)
        sizes = [len(pile) for pile in new.draw]
        new.draw = [pool[: sizes[0]], pool[sizes[0] :]]
        new.maint.sort()
        rng.shuffle(new.maint)
        if len(new.torso_pile) > 1:
            below = sorted(new.torso_pile[:-1])
            rng.shuffle(below)
            new.torso_pile = [*below, new.torso_pile[-1]]
        return new

    def _redeal(self, others: list[int], pool: list[int]) -> list[int]:
        """Deal each of ``others`` as many unseen parts from ``pool`` as they hold; what is left of it."""
        for q in others:  # dealt parts are never magnets
            k = len(self.secret[q])
            known = [x for x in self.hands[q] if x not in set(self.secret[q])]
            fresh = [x for x in pool if x not in MAGNETS][:k]
            taken = set(fresh)
            pool = [x for x in pool if x not in taken]
            self.secret[q] = sorted(fresh)
            self.hands[q] = sorted(known + fresh)
        return pool

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` sees: the table, every hand's seen parts, their own hand whole."""
        return view(self, player)

    def to_json(self) -> dict[str, Any]:
        return to_json(self)

    def check_invariants(self) -> list[str]:
        """Every broken invariant in players' words ([] when the state is sound)."""
        return list(problems(self))
