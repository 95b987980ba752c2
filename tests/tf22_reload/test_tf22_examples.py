"""Every worked example of the TF22: RELOAD! rulebook, each test named after its example."""

from __future__ import annotations

import pytest

from robotable.games.tf22_reload import Load, PlayCard, Reload, ReturnContainer
from robotable.games.tf22_reload.components import Colour, card
from robotable.games.tf22_reload.rules import activated_colour, battle

from .positions import BUZZ, JURI, NEIL, VALENTINA, play_all, position

# -- Activate a Container: examples ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ((Colour.GREEN, 0), (Colour.RED, 2), Colour.GREEN),  # Green 0 beats Red 2
        ((Colour.BLUE, 2), (Colour.YELLOW, 1), Colour.BLUE),  # Blue 2 beats Yellow 1
        ((Colour.RED, 2), (Colour.RED, 2), Colour.RED),  # Red 2 equals Red 2
    ],
    ids=["green_0_beats_red_2", "blue_2_beats_yellow_1", "red_2_equals_red_2"],
)
def test_activation_examples(first, second, expected):
    assert activated_colour(card(*first), card(*second)) == expected
    assert activated_colour(card(*second), card(*first)) == expected  # order of the two cards is irrelevant


def test_activation_example_in_play_activates_one_green_container():
    state = position(2, (("green", 0), ("red", 2)))
    assert state.view(0)["activated"] == "green"
    assert state.view(0)["stock"]["green"] == 9


def test_activation_colour_strength_rules():
    # Green beats Blue or Red; Blue beats Red or Yellow; Red only beats Yellow; Yellow only beats Green.
    y, r, b, g = (card(c, 1) for c in (Colour.YELLOW, Colour.RED, Colour.BLUE, Colour.GREEN))
    assert [activated_colour(g, x) for x in (b, r)] == [Colour.GREEN] * 2
    assert [activated_colour(b, x) for x in (r, y)] == [Colour.BLUE] * 2
    assert activated_colour(r, y) == Colour.RED
    assert activated_colour(y, g) == Colour.YELLOW


# -- Battle: examples a to g ---------------------------------------------------------------------------

BATTLE_EXAMPLES = {
    "a": ((7, 1, 4), VALENTINA),
    "b": ((6, 1, 4), BUZZ),
    "c": ((6, 3, 6), NEIL),
    "d": ((7, 1, 1), BUZZ),
    "e": ((7, 1, 4, 5), JURI),
    "f": ((7, 1, 4, 4), NEIL),
    "g": ((6, 1, 4, 4), BUZZ),
}


@pytest.mark.parametrize("example", sorted(BATTLE_EXAMPLES))
def test_battle_example(example):
    cards, winner = BATTLE_EXAMPLES[example]
    assert battle(dict(enumerate(cards))).winner == winner
    # and the same battle played at the table: the winner takes both cards and decides on the container
    state = position(len(cards))
    play_all(state, *(PlayCard(v) for v in cards))
    assert state.last_battle["winner"] == winner
    assert len(state.cc_piles[winner]) == 2
    assert state.to_act() == [winner]


def test_battle_example_a_neutralization_earns_no_chipcard():
    state = position(3)
    play_all(state, PlayCard(7), PlayCard(1), PlayCard(4))
    assert state.chips == [0, 0, 0]
    assert state.last_battle["neutralized"] == [BUZZ]


def test_battle_example_d_two_ones_tie_and_earn_chipcards():
    outcome = battle({BUZZ: 7, NEIL: 1, VALENTINA: 1})
    assert outcome.tied == (NEIL, VALENTINA)
    assert outcome.neutralized == ()
    state = position(3)
    play_all(state, PlayCard(7), PlayCard(1), PlayCard(1))
    assert state.chips == [0, 1, 1]


# -- Tie & Tie Currency: examples ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "tied", "winner"),
    [
        ((6, 1, 4, 4), (VALENTINA, JURI), BUZZ),  # the two 4s tie; 6 beats 1
        ((6, 6, 6, 4), (BUZZ, NEIL, VALENTINA), JURI),  # the three 6s tie; 4 remains
        ((6, 1, 6, 4), (BUZZ, VALENTINA), JURI),  # the two 6s tie; 4 beats 1
    ],
    ids=["two_fours_tie", "three_sixes_tie", "two_sixes_tie"],
)
def test_tie_examples(cards, tied, winner):
    state = position(4)
    play_all(state, *(PlayCard(v) for v in cards))
    assert tuple(state.last_battle["tied"]) == tied
    assert state.last_battle["winner"] == winner
    assert state.chips == [1 if seat in tied else 0 for seat in range(4)]


# -- Absolute Tie: both examples -----------------------------------------------------------------------


def _absolute_tie(num_players, cards):
    state = position(num_players, (("red", 3), ("yellow", 0)))
    assert state.view(None)["stock"]["red"] == 9  # a red container is activated
    play_all(state, *(PlayCard(v) for v in cards))
    return state


def test_absolute_tie_example_with_three_players():
    state = _absolute_tie(3, (6, 6, 6))
    assert state.last_battle["winner"] is None
    assert sorted(state.set_aside) == sorted([card(Colour.RED, 3), card(Colour.YELLOW, 0)])
    assert state.view(None)["stock"]["red"] == 10  # the container went back to the stock
    assert state.chips == [1, 1, 1]
    assert all(pile == [] for pile in state.cc_piles)
    assert state.to_act() == [0, 1, 2]  # and the next battle begins


def test_absolute_tie_example_with_four_players():
    state = _absolute_tie(4, (5, 5, 4, 4))
    assert state.last_battle["winner"] is None
    assert state.last_battle["tied"] == [BUZZ, NEIL, VALENTINA, JURI]
    assert state.chips == [1, 1, 1, 1]
    assert len(state.set_aside) == 2


# -- Bluff: example ------------------------------------------------------------------------------------


def test_bluff_example():
    # Buzz wins a battle for a blue container but reloads an existing blue one instead ...
    ships = [[["yellow", "blue"], ["red"], [], [], []], [[], [], [], [], []]]
    state = position(2, (("blue", 1), ("red", 0)), ships=ships, next_cards=[("blue", 3), ("yellow", 2)])
    play_all(state, PlayCard(5), PlayCard(2))
    assert state.to_act() == [BUZZ]
    assert Reload(0, 1) in state.legal_actions(BUZZ)
    events = state.apply(BUZZ, Reload(0, 1))
    assert [e.type for e in events][:2] == ["reload", "container_returned"]
    assert state.ships[BUZZ][:2] == [[Colour.YELLOW], [Colour.RED, Colour.BLUE]]
    assert events[1].data == {"colour": "blue"}  # the new container went back to the stock
    assert state.view(None)["stock"]["blue"] == 8  # 10 less the one on his ship and the next one activated
    assert len(state.cc_piles[BUZZ]) == 2  # he still gets the two container cards
    # ... right after, he wins another battle for a blue container and reloads it back to its old spot.
    assert state.view(None)["battle_colour"] == "blue"
    play_all(state, PlayCard(6), PlayCard(3))
    state.apply(BUZZ, Reload(1, 0))
    assert state.ships[BUZZ][:2] == [[Colour.YELLOW, Colour.BLUE], [Colour.RED]]
    assert len(state.cc_piles[BUZZ]) == 4


def test_bluff_only_with_the_battle_winning_colour():
    ships = [[["yellow", "red"], [], [], [], []], [[], [], [], [], []]]
    state = position(2, (("blue", 1), ("red", 0)), ships=ships)
    play_all(state, PlayCard(5), PlayCard(2))
    legal = state.legal_actions(BUZZ)
    assert not any(isinstance(a, Reload) for a in legal)  # the top container is red, the battle blue
    assert Load(0) in legal and ReturnContainer() in legal


# -- Points: the scoring example (Buzz 14, Neil 16, Valentina 12) -------------------------------------


def test_scoring_example_buzz_14_neil_16_valentina_12():
    """The three players' piles and ships at the end of round 1, exactly as the rulebook describes."""
    g, b, r, y = "green", "blue", "red", "yellow"
    piles = [
        [(g, 2), (g, 3), (b, 0), (b, 1), (b, 2), (b, 3), (r, 1), (r, 3)],  # Buzz
        [(b, 1), (b, 2), (b, 3), (r, 2), (y, 1), (y, 1), (y, 2), (y, 3), (g, 1), (g, 2)],  # Neil
        [(y, 0), (y, 2), (y, 3), (r, 0), (r, 1), (r, 2), (r, 3), (g, 0), (g, 1), (g, 3)],  # Valentina
    ]
    ships = [
        [[r, b, g], [g], [], []],  # Buzz: majority green, minority red and blue, 4 containers
        [[y, r, b], [y, r, b], [], []],  # Neil: majority blue, ties red and yellow, 6 containers
        [[y, r, g], [y, r], [], []],  # Valentina: ties red and yellow, minority green, 5 containers
    ]
    # The last battle of the round: Neil has just won green 1 and green 2 and decides on the container.
    state = position(3, ((g, 1), (g, 2)), ships=ships, cc_piles=piles, deck=[], phase="load", winner=NEIL)
    events = state.apply(NEIL, ReturnContainer())
    scored = next(e for e in events if e.type == "round_scored")
    assert [s["total"] for s in scored.data["scores"]] == [14, 16, 12]
    assert [s[0] for s in state.scores] == [14, 16, 12]
    buzz, neil, valentina = scored.data["scores"]
    assert [c["points"] for c in buzz["colours"]] == [0, 2, 3, 5]  # yellow, red, blue, green
    assert [c["points"] for c in neil["colours"]] == [3, 1, 6, 0]  # his green cards are worthless
    assert [c["points"] for c in valentina["colours"]] == [2, 3, 0, 2]
    assert state.round == 2
