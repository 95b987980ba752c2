"""The engine's fast paths give what the plain computation gives (issue 29 item 6).

- the assembly helper's early refusal of hands that would need a loop they cannot turn
  (``loop_turns_missing``) never refuses a hand the full search sells;
- the helper's per-buyer part table equals the rule written out part by part;
- ``apply`` trusting an action the state just listed leaves the same state and events as the checked
  path, and an action not listed (another seat's, an equal copy, one listed before a move) is checked;
- the listing's shortcuts (seats to act, junk searches and trades, switch pairs, Bargain Hunter sales,
  canonical offers) list what the rules written out list, and a listed offer stands open as parsed.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotable.core import IllegalAction, NotYourTurn, Rng
from robotable.games.robots_on_the_line import GAME, EndTurn, helper, sale, trade
from robotable.games.robots_on_the_line import line as line_rules
from robotable.games.robots_on_the_line.actions import FlipSwitches, Offer, SearchJunk, SellPart, TradeJunk
from robotable.games.robots_on_the_line.components import (
    BONUS_TILES,
    CONNECTORS,
    ENDS,
    HUNTER_NEVER,
    JUNK_TRADES,
    MAGNETS,
    PARTS,
    REQUIREMENTS,
    TORSOS,
)
from robotable.games.robots_on_the_line.line import pid
from robotable.games.robots_on_the_line.part_tables import ONE_PORT, TURNS
from robotable.games.robots_on_the_line.phases import OVER

ONE_PORT_PARTS = [p.index for p in PARTS if len(p.ports) == 1]
CONNECTOR_PARTS = [p.index for p in PARTS if p.kind in CONNECTORS]
OTHER_PARTS = [p.index for p in PARTS if p.kind not in CONNECTORS + ENDS]


@st.composite
def loop_hands(draw):
    """A torso, and a hand with few one-port tiles for its ports (the hands that need a loop)."""
    torso = draw(st.integers(0, len(TORSOS) - 1))
    ports = len(TORSOS[torso].ports)
    ones = draw(st.lists(st.sampled_from(ONE_PORT_PARTS), min_size=2, max_size=max(2, ports), unique=True))
    connectors = draw(st.lists(st.sampled_from(CONNECTOR_PARTS), min_size=0, max_size=5, unique=True))
    others = draw(st.lists(st.sampled_from(OTHER_PARTS), max_size=2, unique=True))
    reqs = draw(st.lists(st.integers(0, len(REQUIREMENTS) - 1), max_size=2, unique=True))
    return torso, tuple(sorted(ones + connectors + others)), tuple(reqs)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(loop_hands())
def test_the_quick_refusals_never_refuse_a_hand_the_full_search_sells(case):
    torso, hand, reqs = case
    if helper.may_end(hand, torso, helper.buyer_of(reqs, ())):
        return
    run = helper.Search(hand, torso, [REQUIREMENTS[r] for r in reqs], [], 20, helper.NODE_LIMIT)
    assert run.run() is None


def test_the_loop_refusal_refuses_some_hands_and_not_others():
    """(the property above is not vacuous: hands that need a loop are refused when they cannot turn one)"""
    ones, elbows = ONE_PORT_PARTS[:2], [p.index for p in PARTS if p.kind == "elbow"]
    outcomes = set()
    for torso in TORSOS:
        for turning in (elbows[:1], elbows[:3]):
            hand = ones + turning
            outcomes.add(helper.loop_turns_missing(torso, sum(ONE_PORT[p] for p in hand), sum(TURNS[p] for p in hand)))
    assert outcomes == {True, False}


def plain_keys(reqs: tuple[int, ...], bonuses: tuple[int, ...]) -> list:
    """The helper's per-part table written out part by part (what ``_buyer`` computes faster)."""
    rq = [REQUIREMENTS[r] for r in reqs]
    kinds = {r.kind for r in rq}
    eye_target = next((r.eyes for r in rq if r.kind == "eyes"), -1)
    hand_target = next((r.count for r in rq if r.kind == "hands"), -1)
    arms = any(r.kind in ("wide", "long_arm") and r.min_tiles for r in rq)
    icons = sorted({i for b in bonuses for i in BONUS_TILES[b].icons})
    bit = {icon: 1 << k for k, icon in enumerate(icons)}
    keys = []
    for part in PARTS:
        usable = part.kind in CONNECTORS + ENDS
        usable = usable and not ("no_wheels" in kinds and part.wheels)
        usable = usable and not (eye_target >= 0 and part.eyes > eye_target)
        usable = usable and not (hand_target >= 0 and part.hands > hand_target)
        if not usable:
            keys.append(None)
            continue
        keys.append(
            (
                part.kind,
                part.eyes if eye_target >= 0 else 0,
                part.hands if kinds & {"hands", "symmetry"} else 0,
                sum(bit.get(i, 0) for i in part.icons),
                part.antenna if arms else False,
                part.ports,
            )
        )
    return keys


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, len(REQUIREMENTS) - 1), max_size=3, unique=True),
    st.lists(st.integers(0, len(BONUS_TILES) - 1), max_size=3, unique=True),
)
def test_the_buyer_part_table_is_the_rule_part_by_part(reqs, bonuses):
    assert list(helper.buyer_of(tuple(reqs), tuple(bonuses)).keys) == plain_keys(tuple(reqs), tuple(bonuses))


def _checked_copy(state):
    """A copy that remembers no listed actions: ``apply`` checks everything on it."""
    copy = state.clone()
    assert copy.listed is None
    return copy


def _random_moves(players, seed, steps):
    """A random game (seeded): for up to ``steps`` actions, the state, the seat to act and a random legal
    action of it, which the caller applies."""
    state = GAME.start(players, seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over():
            return
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        yield state, seat, legal[rng.randrange(len(legal))]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([2, 3, 4]))
def test_trusted_apply_matches_the_checked_path(seed, players):
    for state, seat, action in _random_moves(players, seed, 150):
        checked = _checked_copy(state)
        events = state.apply(seat, action)
        assert [e.to_json() for e in checked.apply(seat, action)] == [e.to_json() for e in events]
        assert checked.to_json() == state.to_json()


def test_an_action_listed_for_one_seat_is_checked_for_another():
    state = GAME.start(2, seed=3)
    listed = state.legal_actions(0)
    end = next(a for a in listed if isinstance(a, EndTurn))
    with pytest.raises((NotYourTurn, IllegalAction)):  # seat 1 may only make offers now
        state.apply(1, end)


def test_an_action_listed_before_a_move_is_checked_again():
    state = GAME.start(2, seed=3)
    listed = state.legal_actions(0)
    take = next(a for a in listed if a.type == "take_part")
    other = next(a for a in listed if a.type == "take_part" and a != take)
    state.apply(0, take)
    with pytest.raises(IllegalAction):  # one part per turn: the second take is refused
        state.apply(0, other)


def test_an_equal_action_that_was_not_listed_is_checked():
    state = GAME.start(2, seed=3)
    listed = state.legal_actions(0)
    take = next(a for a in listed if a.type == "take_part")
    copy = type(take)(take.line, take.space)
    assert copy == take and copy is not take
    state.acquired = True  # a position edited by hand after listing: the copy is checked against it
    with pytest.raises(IllegalAction):
        state.apply(0, copy)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.just(line_rules.EMPTY),
            st.integers(0, len(PARTS) - 1),
            st.sampled_from(sorted(MAGNETS)),
        ),
        min_size=6,
        max_size=6,
    ),
    st.lists(st.booleans(), min_size=2, max_size=2),
)
def test_take_actions_from_space_kinds_equal_those_from_the_parts(parts, switches):
    """``take_actions`` looks a line up by the kind of each space (empty, part, magnet): the same units
    and the same first ON space as the line's own parts give."""
    kinds = tuple(line_rules._SPACE_KIND[x] for x in parts)
    plain = []
    for unit in line_rules.magnet_units(parts):
        space = next((sp for sp in unit if switches[line_rules.section(sp)]), 0)
        if space:
            plain.append(line_rules.TakePart(1, space))
    assert list(line_rules._takes(1, kinds, tuple(switches))) == plain


class _SearchEverything(helper.Search):
    """The helper's search without its refusal of hopeless hands."""

    def _hopeless(self) -> bool:
        return False


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.integers(0, len(PARTS) - 1), min_size=3, max_size=9, unique=True),
    st.integers(0, len(TORSOS) - 1),
    st.lists(st.integers(0, len(REQUIREMENTS) - 1), max_size=2, unique=True),
)
def test_a_hopeless_hand_is_one_the_full_search_sells_nothing_from(hand, torso, reqs):
    hand = tuple(sorted(hand))
    if not helper.hopeless(hand, helper.buyer_of(tuple(reqs), ())):
        return
    assert _SearchEverything(hand, torso, [REQUIREMENTS[r] for r in reqs], [], 20, 20_000).run() is None


def _plain_offers(state, p):
    """The canonical offers written out from the rules: for each other seat that the spam limits let ``p``
    make an offer to and that ``p`` has made none to this turn, each part of ``p``'s hand for each part
    seen in theirs."""
    if state.phase == OVER:
        return []
    out = []
    for q in range(state.num_players):
        if q == p or trade.may_offer(state, p, q) or (p, q) in state.offered:
            continue
        for g in state.hands[p]:
            out += [Offer(q, (pid(g),), (pid(k),), 0, 0) for k in state.known(q)]
    return out


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([2, 3, 4]))
def test_the_listed_offers_are_the_canonical_offers_written_out(seed, players):
    """``offer_actions`` (kept per hands, targets in one pass) lists what the rules give, in their order."""
    for state, seat, action in _random_moves(players, seed, 200):
        for p in range(players):
            assert trade.offer_actions(state, p) == _plain_offers(state, p)
        state.apply(seat, action)


def _plain_to_act(state):
    """The rule written out: the takers of the open offers in the order the offers were made, each once,
    then the seat whose turn it is (nobody after the end)."""
    if state.phase == OVER:
        return []
    seats = []
    for offer in state.offers:
        if offer.taker not in seats:
            seats.append(offer.taker)
    return seats + ([] if state.turn in seats else [state.turn])


def _plain_turn_listing(state, p):
    """Going through a junk pile, junk trades, switch flips and Bargain Hunter sales written out from the
    rules, part by part."""
    search = [SearchJunk(pile, pid(x)) for pile in range(2) for x in state.junk[pile]]
    junk = []
    if state.junk_trades < JUNK_TRADES:
        for pile in range(2):
            if state.junk[pile] and state.junk[pile][-1] not in MAGNETS:
                junk += [TradeJunk(pile, pid(x)) for x in state.hands[p] if x not in MAGNETS]
    cells = [(line, sec) for line in range(2) for sec in range(2)]
    offs = [c for c in cells if not state.switches[c[0]][c[1]]]
    ons = [c for c in cells if state.switches[c[0]][c[1]]]
    flips = [FlipSwitches(a, b) for a in offs for b in ons]
    hunter = [SellPart(pid(x)) for x in state.hands[p] if PARTS[x].kind not in HUNTER_NEVER]
    return search, junk, flips, hunter


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([2, 3, 4]))
def test_the_listing_shortcuts_equal_the_rules_written_out(seed, players):
    """``to_act``, the junk searches and trades, the switch pairs (a table per setting) and the Bargain
    Hunter's sales (tables per part) give what the rules written out give, in the same order; a listed
    one-for-one offer stands open as :func:`trade.parse_offer` makes it, with its JSON as event."""
    for state, seat, action in _random_moves(players, seed, 200):
        assert state.to_act() == _plain_to_act(state)
        p = state.turn
        rich = state.clone()
        rich.money[p] = 10  # (the searches and the flips are listed only for a seat that can pay)
        search, junk, flips, hunter = _plain_turn_listing(rich, p)
        assert line_rules.search_actions(rich, p) == search
        assert trade.junk_trade_actions(rich, p) == junk
        assert line_rules.switch_actions(rich, p) == flips
        assert sale.hunter_actions(rich, p) == hunter
        for q in range(players):
            for offer in trade.offer_actions(state, q):
                assert trade._one_for_one(state, q, offer) == trade.parse_offer(state, q, offer)
                # (a listed offer's parts come from a table by its id; an equal copy is parsed from its names)
                copy = Offer(offer.to, offer.give, offer.take, offer.give_money, offer.take_money)
                assert trade._one_for_one(state, q, copy) == trade.parse_offer(state, q, offer)
        for q in range(players):  # a listed offer's event is the open offer's JSON (written out for one-for-one)
            for offer in trade.offer_actions(state, q)[:3]:
                copy = Offer(offer.to, offer.give, offer.take, offer.give_money, offer.take_money)
                for made in (offer, copy):  # (the listed offer from its table by id, an equal copy by its names)
                    events = []
                    after = state.clone()
                    trade.apply_offer(after, q, made, events)
                    assert [e.to_json() for e in events] == [
                        {"type": "offer", **trade.parse_offer(state, q, offer).to_json()}
                    ]
                    assert after.offers == [*state.offers, trade.parse_offer(state, q, offer)]
                    assert after.offered == [*state.offered, (q, offer.to)]
                    assert after.secret[q] == [x for x in state.secret[q] if pid(x) not in offer.give]
        state.apply(seat, action)


_BY_KIND = {kind: [p.index for p in PARTS if p.kind == kind] for kind in {p.kind for p in PARTS}}
#: How many parts of each kind :func:`kind_hands` draws: a head and a base at least, so that most hands
#: get past ``may_end`` and the other counts decide.
_HOW_MANY = {"head": (1, 3), "base": (1, 2), "hand": (0, 3), "antenna": (0, 3), "magnet": (0, 3)}


#: Requirements that ask for a count or a size (most of the refusals' comparisons are about them).
_COUNTS_AND_SIZES = [
    r.index for r in REQUIREMENTS if r.kind in ("eyes", "two_heads", "hands", "tall", "wide", "long_arm")
]


@st.composite
def kind_hands(draw):
    """A hand with a few parts of each kind (so that every count the refusals compare is near its limit):
    about one of each kind, or up to a few."""
    hand = []
    many = draw(st.booleans())
    for kind, parts in sorted(_BY_KIND.items()):
        low, high = _HOW_MANY.get(kind, (0, 2))
        hand += draw(st.lists(st.sampled_from(parts), min_size=low, max_size=high if many else max(low, 1)))
    return tuple(sorted(hand))


def requirement_lists():
    """One to three requirement tiles, often only those that ask for a count or a size."""
    return st.lists(st.integers(0, len(REQUIREMENTS) - 1), min_size=1, max_size=3, unique=True) | st.lists(
        st.sampled_from(_COUNTS_AND_SIZES), min_size=1, max_size=3, unique=True
    )


@settings(max_examples=1500, deadline=None)
@given(
    kind_hands(),
    st.integers(0, len(TORSOS) - 1),
    requirement_lists(),
    st.lists(st.integers(0, len(BONUS_TILES) - 1), max_size=2, unique=True),
)
def test_the_one_sum_refusal_is_the_refusals_written_out(hand, torso, reqs, bonuses):
    """``refused`` (one sum of the buyer's packed tally) refuses exactly the hands that ``may_end``,
    ``hopeless`` and ``too_small`` (written out part by part) refuse, for any hand, torso and buyer."""
    buyer = helper.buyer_of(tuple(reqs), tuple(bonuses))
    written_out = (
        not helper.may_end(hand, torso, buyer) or helper.hopeless(hand, buyer) or helper.too_small(hand, torso, buyer)
    )
    assert helper.refused(hand, torso, buyer) == written_out


def test_the_one_sum_refusal_is_the_refusals_written_out_at_every_small_count():
    """The same on every small count of heads, hands, antennas and connectors, every torso and every
    requirement that asks for a count or a size (the counts at each refusal's limit, which random hands
    reach seldom)."""
    checked = refusals = 0
    for heads, hands, antennas, extenders, elbows, splitters in itertools.product(
        range(1, 3), range(3), range(2), range(3), range(2), range(2)
    ):
        counts = {"head": heads, "base": 1, "hand": hands, "antenna": antennas}
        counts |= {"extender": extenders, "elbow": elbows, "splitter": splitters}
        k = heads + 3 * hands + 5 * extenders  # (varied parts: other eyes, hands, icons)
        hand = tuple(
            sorted(_BY_KIND[kind][(k + i) % len(_BY_KIND[kind])] for kind, n in counts.items() for i in range(n))
        )
        for torso in range(len(TORSOS)):
            for req in _COUNTS_AND_SIZES:
                buyer = helper.buyer_of((req,), ())
                written_out = (
                    not helper.may_end(hand, torso, buyer)
                    or helper.hopeless(hand, buyer)
                    or helper.too_small(hand, torso, buyer)
                )
                assert helper.refused(hand, torso, buyer) == written_out, (hand, torso, req)
                checked += 1
                refusals += written_out
    assert 0 < refusals < checked
