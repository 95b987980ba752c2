"""Trading (the rulebook's "Trading"): offers between players, and trades with the junk piles.

"Players can trade at any time with another player, and it does not have to be their turn to initiate
the trade." Any player may make an offer at any time (those not otherwise asked to act are the state's
``optional_actors``); trades with the junk piles and the torso stack happen on one's own turn. An offer
names what its maker gives (parts, their torso, money) and what they ask (parts the other player is
known to hold, their torso, money); it happens when the other player accepts. So that offers cannot be
used to flood a player: each player has at most one open offer to each other player, and makes at most
``OFFERS_PER_TURN`` offers to each other player a turn (a declined offer can be improved twice). Open
offers are :class:`OpenOffer` tuples in the state; their numbers never share a remainder modulo
``OFFER_WINDOW`` (the action encoding's window).
"""

from __future__ import annotations

import functools
import operator
from typing import TYPE_CHECKING, Any, NamedTuple

from robotable.core import Action, Event, reason
from robotable.core.errors import Message

from .actions import OFFER_WINDOW, Accept, Decline, Offer, TradeJunk
from .components import JUNK_TRADES, LINES, MAGNETS, OFFERS_PER_TURN, PART_IDS, PARTS, TORSO_IDS, TORSOS, tile_name
from .line import pid
from .phases import OVER

if TYPE_CHECKING:
    from .state import RotlState

NO_TORSO = -1
MAX_SEATS = 6  # (tables for seat numbers; the game seats at most 4)
_PART_NAMES = [part.id for part in PARTS]  # (``pid`` of each part, looked up in C)
_OTHERS = [[[q for q in range(n) if q != p] for p in range(n)] for n in range(MAX_SEATS + 1)]  # [players][seat]
#: The junk trade of each part for each pile's top (``None`` for magnets: never traded with a junk pile).
_TRADE_JUNK = [[None if part.index in MAGNETS else TradeJunk(pile, part.id) for part in PARTS] for pile in range(LINES)]


class OpenOffer(NamedTuple):
    """An offer waiting for an answer: parts as sorted part ints, a torso int or ``NO_TORSO``."""

    number: int
    giver: int
    taker: int
    give: tuple[int, ...]
    give_torso: int
    take: tuple[int, ...]
    take_torso: int
    give_money: int
    take_money: int

    def to_json(self) -> dict[str, Any]:
        """The offer as views, events and state JSON show it (torsos listed after the parts)."""
        return {
            "offer": self.number,
            "from": self.giver,
            "to": self.taker,
            "give": [
                *map(_PART_NAMES.__getitem__, self.give),
                *([TORSOS[self.give_torso].id] if self.give_torso >= 0 else ()),
            ],
            "take": [
                *map(_PART_NAMES.__getitem__, self.take),
                *([TORSOS[self.take_torso].id] if self.take_torso >= 0 else ()),
            ],
            "give_money": self.give_money,
            "take_money": self.take_money,
        }


def two_torsos(holds_giver: int, holds_taker: int, give_torso: int, take_torso: int) -> str | None:
    """Which side a trade would leave with two torsos (one torso in hand at a time), if any."""
    if holds_giver >= 0 and give_torso < 0 and take_torso >= 0:
        return "giver"
    if holds_taker >= 0 and take_torso < 0 and give_torso >= 0:
        return "taker"
    return None


def feasible(s: RotlState, o: OpenOffer) -> bool:
    """Whether an open offer can still be carried out (the parts, torsos and money are all there)."""
    _, giver, taker, give, give_torso, take, take_torso, give_money, take_money = o  # (read once)
    hand_f, hand_t = s.hands[giver], s.hands[taker]
    for x in give:  # (loops: any() over a generator is slower, and this runs after most actions)
        if x not in hand_f:
            return False
    for x in take:
        if x not in hand_t:
            return False
    torso = s.torso
    if give_torso >= 0 and torso[giver] != give_torso:
        return False
    if take_torso >= 0 and torso[taker] != take_torso:
        return False
    if s.money[giver] < give_money or s.money[taker] < take_money:
        return False
    return two_torsos(torso[giver], torso[taker], give_torso, take_torso) is None


# -- 4. trade with another player ---------------------------------------------------------------------------


def may_offer(s: RotlState, p: int, q: int) -> str | None:
    """Why ``p`` may not make ``q`` an offer now (None if they may): the spam limits."""
    if any(o.giver == p and o.taker == q for o in s.offers):
        return reason(
            "refusals.trade.open_offer_waiting",
            "seat {seat} already has an open offer to seat {to_seat}: wait for the answer",
            seat=p,
            to_seat=q,
        )
    if s.offered.count((p, q)) >= OFFERS_PER_TURN:
        return reason(
            "refusals.trade.offers_per_turn",
            "seat {seat} has made seat {to_seat} {limit} offers this turn, the most a turn allows",
            seat=p,
            to_seat=q,
            limit=OFFERS_PER_TURN,
        )
    return None


def offer_actions(s: RotlState, p: int) -> list[Action]:
    """The canonical offers: one-for-one part trades with each player ``p`` has not made an offer to yet
    this turn. One canonical offer to each player a turn, so what chooses among ``legal_actions`` (bots,
    search, random play) never makes a declined offer again the same turn, nor presses a player with
    another; a player writing their own offers may still improve a declined one up to the limit
    (``OFFERS_PER_TURN``, checked by :func:`may_offer`).

    The seats ``p`` may make a canonical offer to are the others less those ``p`` has made an offer to
    this turn and those with an open offer from ``p`` (which :func:`may_offer` refuses; an open offer
    was made this turn, so it is one of the first); each one's offers are each part of ``p``'s hand
    (hand order) for each part seen in theirs (hand order), built once (:func:`_offers_for`)."""
    hand = s.hands[p]
    if not hand or s.phase == OVER:
        return []
    targets = _OTHERS[s.num_players][p]
    offered = s.offered
    if offered:
        targets = [q for q in targets if (p, q) not in offered]
    if s.offers:
        waiting = [o[2] for o in s.offers if o[1] == p]  # (o.taker of o.giver == p: indexing is faster)
        if waiting:
            targets = [q for q in targets if q not in waiting]
    actions: list[Action] = []
    hands, secrets = s.hands, s.secret
    for q in targets:
        known = hands[q]
        secret = secrets[q]
        if secret:
            known = [part for part in known if part not in secret]
        rows = _ROWS[q]
        if len(known) == 1:
            k = known[0]
            actions += [(rows[g] or _offers_for(q, g))[k] for g in hand]
        elif known:
            pick = operator.itemgetter(*known)
            for g in hand:
                actions += pick(rows[g] or _offers_for(q, g))
    return actions


def offering(s: RotlState) -> list[int]:
    """The seats that may make an offer now: "Players can trade at any time with another player, and it
    does not have to be their turn to initiate the trade." Every seat, while the game is on, that the
    limits (:func:`may_offer`) still let make an offer to some other seat; whether that seat has a
    canonical offer (:func:`offer_actions`: parts already seen) does not matter, any well-formed offer
    (its own parts, its torso, money) is accepted."""
    if s.phase == OVER:
        return []
    return [p for p in range(s.num_players) if _may_offer_to(s, p)]


def _may_offer_to(s: RotlState, p: int) -> list[int]:
    """The other seats ``p`` may make an offer to now, in seat order (``may_offer`` is None for each)."""
    blocked = [o[2] for o in s.offers if o[1] == p]  # o.taker of o.giver == p (indexing is faster)
    made = [q for giver, q in s.offered if giver == p]
    if len(made) >= OFFERS_PER_TURN:
        blocked += [q for q in set(made) if made.count(q) >= OFFERS_PER_TURN]
    others = _OTHERS[s.num_players][p]
    return [q for q in others if q not in blocked] if blocked else others


_ROWS: list[list[tuple[Offer, ...] | None]] = [[None] * len(PARTS) for _ in range(MAX_SEATS)]


def _offers_for(q: int, give: int) -> tuple[Offer, ...]:
    """Offers to ``q`` of ``give`` for each part (indexed by the part asked for), built on first use."""
    row = _ROWS[q][give] = tuple(Offer(q, (pid(give),), (part.id,), 0, 0) for part in PARTS)
    for part, offer in zip(PARTS, row):
        _CANONICAL[id(offer)] = (q, _ONE[give], _ONE[part.index], PARTS[give].id, part.id)
    return row


_ONE = [(part.index,) for part in PARTS]  # (each part as a side of an open offer, shared)


#: Each canonical offer in ``_ROWS`` by its ``id`` (those offers are kept for good, so no other object ever
#: has their ``id``): the seat it is made to, the parts given and taken as an open offer holds them, and
#: their ids.
_CANONICAL: dict[int, tuple[int, tuple[int], tuple[int], str, str]] = {}


def _bad_money(s: RotlState, p: int, a: Offer) -> str | None:
    """Why the offer's money or emptiness is refused: negative, nothing given or taken, more than a seat has."""
    if a.give_money < 0 or a.take_money < 0:
        return reason("refusals.trade.negative_money", "money in an offer cannot be negative")
    if not (a.give or a.give_money) or not (a.take or a.take_money):
        return reason("refusals.trade.gives_and_takes", "a trade gives something and takes something")
    if a.give_money > s.money[p]:
        return reason("refusals.trade.not_enough_money", "seat {seat} has only ${money}", seat=p, money=s.money[p])
    if a.take_money > s.money[a.to]:
        return reason(
            "refusals.trade.not_enough_money", "seat {seat} has only ${money}", seat=a.to, money=s.money[a.to]
        )
    return None


def check_offer(s: RotlState, p: int, a: Offer) -> str | None:
    if a.to not in range(s.num_players) or a.to == p:
        return reason("refusals.trade.not_another_player", "seat {seat} is not another player", seat=a.to)
    limit = may_offer(s, p, a.to)
    if limit:
        return limit
    money = _bad_money(s, p, a)
    if money:
        return money
    for name, names in (("give", a.give), ("take", a.take)):
        if len(set(names)) != len(names):
            return reason(
                "refusals.trade.tile_twice",
                "a tile appears twice in '{side}'",
                side=Message(name, f"refusals.trade.side.{name}"),
            )
    parsed = parse_offer(s, p, a)
    if isinstance(parsed, str):
        return parsed
    side = two_torsos(s.torso[p], s.torso[a.to], parsed.give_torso, parsed.take_torso)
    if side:
        return reason(
            "refusals.trade.two_torsos",
            "one torso in hand at a time: seat {seat} would hold two",
            seat=p if side == "giver" else a.to,
        )
    return None


def _side(s: RotlState, seat: int, names: tuple[str, ...], mine: bool) -> tuple[tuple[int, ...], int] | str:
    """One side of an offer as (sorted parts, torso); what ``seat`` gives must be in hand (``mine``),
    what is asked of them must have been seen in their hand."""
    parts_named, torsos_named = _names(tuple(names))
    hand, secret = s.hands[seat], s.secret[seat]
    if _holds(hand, () if mine else secret, parts_named) and torsos_named.count(s.torso[seat]) == len(torsos_named):
        return tuple(sorted(parts_named)), torsos_named[-1] if torsos_named else NO_TORSO  # (the usual case)
    visible = hand if mine else s.known(seat)
    parts: list[int] = []
    torso = NO_TORSO
    for name in names:
        if name in TORSO_IDS:
            if s.torso[seat] != TORSO_IDS[name]:
                return reason(
                    "refusals.trade.torso_not_held", "seat {seat} does not hold {tile}", seat=seat, tile=tile_name(name)
                )
            torso = TORSO_IDS[name]
        elif PART_IDS.get(name, -1) in visible:
            parts.append(PART_IDS[name])
        elif mine:
            return reason(
                "refusals.not_in_hand", "{tile} is not in seat {seat}'s hand", tile=tile_name(name), seat=seat
            )
        else:
            return reason(
                "refusals.trade.not_known_to_hold",
                "seat {seat} is not known to hold {tile} (ask only for parts seen in their hand)",
                seat=seat,
                tile=tile_name(name),
            )
    return tuple(sorted(parts)), torso


def _holds(hand: list[int], secret: list[int] | tuple[()], parts: tuple[int, ...]) -> bool:
    """Whether every one of ``parts`` is in ``hand`` and none is ``secret``."""
    for x in parts:  # noqa: SIM110 (a loop: all() over a generator is slower, and this runs per offer)
        if x not in hand or x in secret:
            return False
    return True


@functools.lru_cache(maxsize=8192)
def _names(names: tuple[str, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The parts and the torsos a side of an offer names, in its order (unknown names: part -1)."""
    parts = tuple(PART_IDS.get(name, -1) for name in names if name not in TORSO_IDS)
    return parts, tuple(TORSO_IDS[name] for name in names if name in TORSO_IDS)


def parse_offer(s: RotlState, p: int, a: Offer) -> OpenOffer | str:
    """The offer as it would stand open (numbered ``s.next_offer``), or why it cannot be made."""
    give = _side(s, p, a.give, True)
    if isinstance(give, str):
        return give
    take = _side(s, a.to, a.take, False)
    if isinstance(take, str):
        return take
    return OpenOffer(_number(s), p, a.to, give[0], give[1], take[0], take[1], a.give_money, a.take_money)


def _number(s: RotlState) -> int:
    """The next offer's number: the first from ``next_offer`` on whose remainder modulo ``OFFER_WINDOW``
    no open offer has (there is one: at most one open offer per ordered pair of seats, at most 12)."""
    number = s.next_offer
    if not s.offers:
        return number
    taken = {o.number % OFFER_WINDOW for o in s.offers}
    while number % OFFER_WINDOW in taken:
        number += 1
    return number


def apply_offer(s: RotlState, p: int, a: Offer, events: list[Event]) -> None:
    canonical = _CANONICAL.get(id(a))
    if canonical is not None:  # (a listed offer of one part for one part: all of it known from the table)
        to, give, take, shown_give, shown_take = canonical
        made = _open_offer((_number(s), p, to, give, NO_TORSO, take, NO_TORSO, 0, 0))
        s.next_offer = made[0] + 1
        s.offers = [*s.offers, made]
        s.offered = [*s.offered, (p, to)]
        if s.secret[p]:  # what is offered is shown
            s.secret[p] = [x for x in s.secret[p] if x not in give]
        shown = {
            "offer": made[0],
            "from": p,
            "to": to,
            "give": [shown_give],
            "take": [shown_take],
            "give_money": 0,
            "take_money": 0,
        }
        events.append(Event("offer", shown))
        return
    simple = _one_for_one(s, p, a)
    offer = simple or parse_offer(s, p, a)
    assert not isinstance(offer, str)
    s.next_offer = offer.number + 1
    s.offers = [*s.offers, offer]
    s.offered = [*s.offered, (p, a.to)]
    if s.secret[p]:  # what is offered is shown
        s.secret[p] = [x for x in s.secret[p] if x not in offer.give]
    if simple is None:
        events.append(Event("offer", offer.to_json()))
    else:  # (offer.to_json() of a part for a part, written out: the names are the action's own)
        shown = {
            "offer": offer.number,
            "from": p,
            "to": a.to,
            "give": [*a.give],
            "take": [*a.take],
            "give_money": 0,
            "take_money": 0,
        }
        events.append(Event("offer", shown))


def _one_for_one(s: RotlState, p: int, a: Offer) -> OpenOffer | None:
    """:func:`parse_offer` of a checked offer of one part for one part without money (the canonical
    offers): each side is that part and no torso. ``None`` for any other offer."""
    canonical = _CANONICAL.get(id(a))  # (a listed offer: its parts are known)
    if canonical is not None:
        return _open_offer((_number(s), p, canonical[0], canonical[1], NO_TORSO, canonical[2], NO_TORSO, 0, 0))
    if len(a.give) != 1 or len(a.take) != 1 or a.give_money or a.take_money:
        return None
    give, take = PART_IDS.get(a.give[0], -1), PART_IDS.get(a.take[0], -1)
    if give < 0 or take < 0:
        return None
    return _open_offer((_number(s), p, a.to, (give,), NO_TORSO, (take,), NO_TORSO, 0, 0))


#: ``OpenOffer(*fields)`` from a tuple of its fields, in one call to C (what a named tuple's ``__new__`` does).
_open_offer = functools.partial(tuple.__new__, OpenOffer)


def open_offer(s: RotlState, number: int) -> OpenOffer | None:
    return next((o for o in s.offers if o.number == number), None)


def answer_actions(s: RotlState, p: int) -> list[Action]:
    """Accept, then decline, each offer made to ``p``."""
    if not s.offers:
        return []
    mine = [o[0] for o in s.offers if o[2] == p]  # (o.number of o.taker == p: indexing is faster)
    if not mine:
        return []
    return [*map(_accept, mine), *map(_decline, mine)]


_accept = functools.lru_cache(maxsize=1024)(Accept)
_decline = functools.lru_cache(maxsize=1024)(Decline)


def check_answer(s: RotlState, p: int, a: Accept | Decline) -> str | None:
    offer = open_offer(s, a.offer)
    if offer is None:
        return reason("refusals.trade.no_such_offer", "there is no open offer number {offer}", offer=a.offer)
    if offer.taker != p:
        return reason(
            "refusals.trade.offer_to_another_seat",
            "offer {offer} was made to seat {taker_seat}, not to seat {seat}",
            offer=a.offer,
            taker_seat=offer.taker,
            seat=p,
        )
    return None


def apply_accept(s: RotlState, p: int, a: Accept, events: list[Event]) -> None:
    number = a.offer
    o = open_offer(s, number)
    assert o is not None
    _, giver, taker, give, give_torso, take, take_torso, give_money, take_money = o  # (read once)
    s.offers = [x for x in s.offers if x[0] != number]  # (x.number: indexing is faster)
    s.remove_from_hand(giver, give)
    s.remove_from_hand(taker, take)
    s.add_to_hand(taker, list(give))
    s.add_to_hand(giver, list(take))
    if give_torso >= 0:
        s.torso[giver] = NO_TORSO
    if take_torso >= 0:
        s.torso[taker] = NO_TORSO
    if give_torso >= 0:
        s.torso[taker] = give_torso
    if take_torso >= 0:
        s.torso[giver] = take_torso
    s.money[giver] += take_money - give_money
    s.money[taker] += give_money - take_money
    events.append(Event("accepted", o.to_json()))


def apply_decline(s: RotlState, p: int, a: Decline, events: list[Event]) -> None:
    s.offers = [o for o in s.offers if o.number != a.offer]
    events.append(Event("declined", {"seat": p, "offer": a.offer}))


def void_offers(s: RotlState, events: list[Event]) -> None:
    """Offers that can no longer be carried out (a part sold, a torso taken) are withdrawn."""
    if not s.offers:
        return
    keep = [o for o in s.offers if feasible(s, o)]
    if len(keep) != len(s.offers):
        for o in s.offers:
            if o not in keep:
                events.append(Event("offer_void", {"offer": o.number}))
        s.offers = keep


def lapse_offers(s: RotlState, events: list[Event]) -> None:
    """At the end of a turn, open offers lapse."""
    for o in s.offers:
        events.append(Event("offer_lapsed", {"offer": o.number}))
    s.offers = []
    s.offered = []


# -- 2. trade up to 2 tiles with the junk piles -------------------------------------------------------------


def junk_trade_actions(s: RotlState, p: int) -> list[TradeJunk]:
    if s.junk_trades >= JUNK_TRADES:
        return []
    actions: list[TradeJunk] = []
    for pile in range(LINES):
        if s.junk[pile] and s.junk[pile][-1] not in MAGNETS:
            actions += filter(None, map(_TRADE_JUNK[pile].__getitem__, s.hands[p]))  # (no magnets)
    return actions


def check_junk_trade(s: RotlState, p: int, a: TradeJunk) -> str | None:
    if s.junk_trades >= JUNK_TRADES:
        return reason("refusals.junk.trades_per_turn", "at most {limit} junk pile trades per turn", limit=JUNK_TRADES)
    if a.pile not in range(LINES):
        return reason("refusals.junk.no_such_pile", "there is no junk pile {pile} (0 or 1)", pile=a.pile)
    if not s.junk[a.pile]:
        return reason("refusals.junk.pile_empty", "junk pile {pile} is empty", pile=a.pile)
    if s.junk[a.pile][-1] in MAGNETS:
        return reason(
            "refusals.junk.magnet_on_top",
            "the top of junk pile {pile} is a magnet: magnets are never traded with a junk pile",
            pile=a.pile,
        )
    part = PART_IDS.get(a.part, -1)
    if part not in s.hands[p]:
        return reason("refusals.not_in_hand", "{tile} is not in seat {seat}'s hand", tile=tile_name(a.part), seat=p)
    if part in MAGNETS:
        return reason("refusals.junk.no_magnets", "magnets are never traded with a junk pile")
    return None


def apply_junk_trade(s: RotlState, p: int, a: TradeJunk, events: list[Event]) -> None:
    part = PART_IDS[a.part]
    top = s.junk[a.pile].pop()
    s.remove_from_hand(p, [part])
    s.junk[a.pile].append(part)
    s.add_to_hand(p, [top])
    s.junk_trades += 1
    events.append(Event("traded_junk", {"seat": p, "pile": a.pile, "gave": a.part, "took": pid(top)}))
