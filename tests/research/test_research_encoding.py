"""The stable integer action encoding of the game contract (TF22: RELOAD!, Twin Tin Bots, Robots on the Line).

The rule (robotable.core.Game.num_distinct_actions): every action ``legal_actions`` can list has an
index below ``num_distinct_actions``, two actions listed at once never share one, and the action of an
index is the legal action with that index (``legal_by_index``); ``action_from_index`` decodes without a
state where the game can (TF22 and Twin Tin Bots: always).
"""

from __future__ import annotations

import pytest

from robotable import games
from robotable.adapters._common import encodable_games, legal_by_index
from robotable.core import Action, BadInput, Rng, State
from robotable.games.robots_on_the_line import Accept, Decline, EndTurn, Offer, SellRobot, TakePart
from robotable.games.robots_on_the_line.actions import NUM_ACTIONS, OFFER_WINDOW, describe_index, index_needs_state
from robotable.games.tf22_reload import Colour, PlayCard, RBuy
from robotable.games.twin_tin_bots import Pass

STATELESS = ["tf22-reload", "twin-tin-bots"]  # every index decodes without a state
ROTL = "robots-on-the-line"


def test_research_encoded_games() -> None:
    assert set(STATELESS) | {ROTL} <= set(encodable_games())


@pytest.mark.parametrize("game_id", STATELESS)
def test_research_encoding_is_a_bijection(game_id: str) -> None:
    game = games.load(game_id)
    assert game.has_action_encoding()
    n = game.num_distinct_actions(game.min_players, {})
    actions = [game.action_from_index(i) for i in range(n)]
    assert len(set(actions)) == n
    assert [game.action_index(a) for a in actions] == list(range(n))
    for a in actions:  # and through JSON
        assert game.action_index(game.action_from_json(a.to_json())) == game.action_index(a)


def test_research_rotl_encoding_blocks() -> None:
    """Every index either decodes without a state (and back) or says that it needs one."""
    game = games.load(ROTL)
    assert all(game.num_distinct_actions(n, {}) == NUM_ACTIONS == 19266 for n in (2, 3, 4))
    stateless = 0
    for i in range(NUM_ACTIONS):
        if index_needs_state(i):
            with pytest.raises(BadInput, match="depends on the state"):
                game.action_from_index(i)
            continue
        a = game.action_from_index(i)
        assert game.action_index(a) == i
        assert game.action_index(game.action_from_json(a.to_json())) == i
        stateless += 1
    # 8 buyers, 2 x 12 offer numbers and 136 x 136 part trades need the state
    assert NUM_ACTIONS - stateless == 8 + 2 * OFFER_WINDOW + 136 * 136
    assert describe_index(game.action_index(SellRobot("buyer-3", (), (), ()))) == "sell_robot to buyer-3"


def _prefer_sales(legal: list[Action], rng: Rng) -> Action:
    """Random play that sells a robot whenever it can (random play alone rarely does)."""
    sales = [a for a in legal if a.type in ("sell_robot", "take_torso", "pick_junk")]
    pool = sales if sales and rng.random() < 0.9 else legal
    return pool[rng.randrange(len(pool))]


def _check_legal(game, state: State, seat: int) -> list[Action]:
    n = game.num_distinct_actions(state.num_players, state.options)
    legal = state.legal_actions(seat)
    indices = [game.action_index(a) for a in legal]
    assert all(0 <= i < n for i in indices)
    assert len(set(indices)) == len(indices), "two legal actions share an index"
    assert legal_by_index(game, state, seat) == dict(zip(indices, legal))
    for i, a in zip(indices, legal):
        try:
            assert game.action_from_index(i) == a
        except BadInput:
            assert game.id == ROTL and index_needs_state(i)
    return legal


@pytest.mark.parametrize("game_id", encodable_games())
def test_research_every_legal_action_has_an_index(game_id: str) -> None:
    game = games.load(game_id)
    for players in range(game.min_players, game.max_players + 1):
        state = game.start(players, seed=players)
        rng = Rng(players)
        for _ in range(400):
            if state.is_over():
                break
            for seat in state.to_act():  # every seat the game waits for
                _check_legal(game, state, seat)
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            state.apply_legal(seat, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(
    "options", [{}, {"three_new_tiles": True}, {"on_off_variant": True}, {"family": True, "three_new_tiles": True}]
)
def test_research_rotl_every_kind_is_encoded(options: dict) -> None:
    """Games played to the end, selling robots when they can: every kind of action gets an index."""
    game = games.load(ROTL)
    kinds: set[str] = set()
    for seed in range(4):
        players = 2 + seed % 3
        state = game.start(players, seed=seed, options=options)
        rng = Rng(seed)
        while not state.is_over():
            for seat in state.to_act():
                kinds.update(a.type for a in _check_legal(game, state, seat))
            seat = state.to_act()[0]
            state.apply_legal(seat, _prefer_sales(state.legal_actions(seat), rng))
    expected = {"take_part", "search_junk", "trade_junk", "take_torso", "choose_torso", "swap_torso", "sell_part"}
    expected |= {"sell_robot", "offer", "accept", "decline", "end_turn"}
    if not options.get("family"):
        expected |= {"flip_switch"} if options.get("on_off_variant") else {"flip_switches"}
    expected |= {"pick_junk", "stop_picking"} if options.get("three_new_tiles") else set()
    assert expected <= kinds


def test_research_encoding_known_values() -> None:
    tf22 = games.load("tf22-reload")
    assert tf22.action_index(PlayCard(1)) == 0
    assert tf22.action_from_index(tf22.action_index(RBuy(Colour.RED, 2))) == RBuy(Colour.RED, 2)
    assert games.load("twin-tin-bots").action_index(Pass()) == 0
    rotl = games.load(ROTL)
    assert rotl.action_index(EndTurn()) == 0
    assert rotl.action_from_index(rotl.action_index(TakePart(1, 4))) == TakePart(1, 4)
    # A sale is indexed by its buyer, whatever the layout; an answer by its offer number modulo 12.
    layout = (("torso-01", 0, 0, 0), ("head-01", 0, -1, 0))
    sale = rotl.action_index(SellRobot("buyer-2", layout, (), ()))
    assert sale == rotl.action_index(SellRobot("buyer-2", (), (), ()))
    assert rotl.action_index(Accept(1)) == rotl.action_index(Accept(1 + OFFER_WINDOW)) != rotl.action_index(Decline(1))
    one_for_one = Offer(2, ("head-01",), ("hand-03",), 0, 0)
    assert rotl.action_index(one_for_one) == rotl.action_index(Offer(0, ("head-01",), ("hand-03",), 0, 0))


def test_research_rotl_decodes_through_the_state() -> None:
    """The index of a sale stands for the helper's robot in the state that lists it."""
    game = games.load(ROTL)
    rng = Rng(2)
    for seed in range(40):
        state = game.start(2, seed=seed)
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            sales = [a for a in legal if isinstance(a, SellRobot)]
            if sales:
                by_index = legal_by_index(game, state, seat)
                bare = SellRobot(sales[0].buyer, (), (), ())
                assert by_index[game.action_index(bare)] == sales[0]
                return
            state.apply_legal(seat, _prefer_sales(legal, rng))
    raise AssertionError("no sale found")


@pytest.mark.parametrize("game_id", [*STATELESS, ROTL])
@pytest.mark.parametrize("bad", [-1, 100_000, "3", True, 1.5])
def test_research_bad_index_is_a_clear_error(game_id: str, bad: object) -> None:
    with pytest.raises(BadInput, match="action index must be"):
        games.load(game_id).action_from_index(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game_id", "action"),
    [
        ("tf22-reload", PlayCard(9)),
        (ROTL, TakePart(0, 7)),
        (ROTL, Offer(1, ("head-01",), ("hand-03",), 1, 0)),  # money: not a listed offer
        (ROTL, Offer(1, ("head-01", "head-02"), ("hand-03",), 0, 0)),
        (ROTL, SellRobot("buyer-99", (), (), ())),
        (ROTL, PlayCard(1)),
    ],
)
def test_research_action_without_index_is_a_clear_error(game_id: str, action: Action) -> None:
    with pytest.raises(BadInput, match="no integer encoding"):
        games.load(game_id).action_index(action)


@pytest.mark.parametrize("game_id", encodable_games())
def test_research_legal_actions_sharing_an_index_are_refused(game_id: str) -> None:
    """An engine listing two legal actions with one index breaks the rule: decoding refuses it (also once
    its actions are remembered by the adapters' index memo)."""
    game = games.load(game_id)
    state = game.start(game.min_players, seed=3)
    seat = state.to_act()[0]
    first = state.legal_actions(seat)[0]
    assert legal_by_index(game, state, seat)  # the honest engine decodes (and its actions are remembered)

    class Twice(type(state)):  # an engine that lists its first legal action again
        __slots__ = ()

        def legal_actions(self, s: int) -> list[Action]:
            return [*super().legal_actions(s), first]

    state.__class__ = Twice
    with pytest.raises(BadInput, match=f"{game_id}: legal actions .* share the index {game.action_index(first)}"):
        legal_by_index(game, state, seat)
