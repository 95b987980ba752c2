"""TF22: RELOAD! as feature planes, filled from a seat's view (see docs/research.md for the table).

Seats are relative: seat block 0 is the seat observing, 1 the next seat in seat order, and so on; blocks
of seats not in the game stay zero. Cards, colours and values are one-hot; counts are divided by their
maximum. Not encoded, because they follow from what is: the order of CC piles, discard piles and the
set-aside cards (the rules never read it), ``scores.total`` and the per-colour breakdown of past rounds
(``round_scores``; the round totals are encoded).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from robotable.core.observation import ObservationEncoder, scaled

from .actions import ACTIONS
from .components import (
    CARD_VALUES,
    CARDS_PER_BATTLE,
    CHIPCARDS,
    COLOUR_NAMES,
    CONTAINERS_PER_COLOUR,
    DECK,
    MAX_SLOTS,
    NUM_COLOURS,
    RCU_VALUES,
    ROUNDS,
)

MAX_SEATS = 4
BATTLES = len(DECK) // CARDS_PER_BATTLE
VALUES = max(CARD_VALUES) + 1  # container card face values 0..3
#: A card type (colour, face value) is held at most this often in one pile over a game.
MAX_COPIES = ROUNDS * max(CARD_VALUES.count(v) for v in set(CARD_VALUES))
#: Scores are divided by this (higher scores read as 1).
MAX_SCORE = 100
PHASES = ("choose", "load", "over")
_COLOUR = {name: i for i, name in enumerate(COLOUR_NAMES)}
_CHOICE = {tuple(a.to_json().values()): i for i, a in enumerate(ACTIONS)}


def _choice_index(choice: Mapping[str, Any]) -> int:
    """The action index of a choice's JSON (its fields in the order ``to_json`` writes them)."""
    return _CHOICE[tuple(choice.values())]


class Tf22Observation(ObservationEncoder):
    """The planes of TF22: RELOAD! (see the module docstring)."""

    def declare(self) -> None:
        n, s, c, v = MAX_SEATS, MAX_SLOTS, NUM_COLOURS, VALUES
        a = len(ACTIONS)
        self.seat_number = self.plane("seat_number", (n,), "the observing seat's own number (seat 0 plays first)")
        self.present = self.plane("seat_present", (n,), "1 if the relative seat plays")
        self.to_act = self.plane("seat_to_act", (n,), "1 if the game waits for the seat")
        self.hand = self.plane("hand", (n, len(RCU_VALUES)), "RCU card value 1..7 in the seat's hand")
        self.discard = self.plane("discard", (n, len(RCU_VALUES)), "RCU card value 1..7 in the seat's discard pile")
        self.chips = self.plane("chipcards", (n,), f"the seat's chipcards / {CHIPCARDS}")
        self.ship = self.plane("ship", (n, s, c), "a container of the colour on the ship's slot")
        self.cc = self.plane(
            "cc_pile", (n, c, v), f"container cards of (colour, face value) in the seat's CC pile / {MAX_COPIES}"
        )
        self.scores = self.plane("scores", (n, 3), f"round 1, round 2 and bonus points / {MAX_SCORE}")
        self.chosen = self.plane("has_chosen", (n,), "1 if the seat has made its battle choice")
        self.own_choice = self.plane("own_choice", (a,), "the observing seat's own secret choice (action index)")
        self.last_choice = self.plane("last_battle_choice", (n, a), "each seat's revealed choice in the last battle")
        self.last_role = self.plane(
            "last_battle_role", (n, 3), "in the last battle the seat won / tied / was neutralized"
        )
        self.last_cards = self.plane(
            "last_battle_cards", (CARDS_PER_BATTLE, c + v), "the last battle's cards: colour, face value"
        )
        self.round = self.plane("round", (ROUNDS,), "the round (one-hot)")
        self.battle = self.plane("battle", (BATTLES,), "the battle of the round (one-hot)")
        self.phase = self.plane("phase", (len(PHASES),), "choose / load / over")
        self.deck = self.plane("deck_count", (1,), f"container cards left in the deck / {len(DECK)}")
        self.revealed = self.plane(
            "revealed", (CARDS_PER_BATTLE, c + v), "this battle's revealed cards: colour, face value"
        )
        self.battle_colour = self.plane("battle_colour", (c,), "the battle's colour")
        self.activated = self.plane("activated", (c,), "the activated container's colour")
        self.winner = self.plane("winner", (n,), "the relative seat that won the battle and decides the load")
        self.set_aside = self.plane("set_aside", (c, v), f"set-aside cards of (colour, face value) / {MAX_COPIES}")
        self.stock = self.plane("stock", (c,), f"containers of the colour in the stock / {CONTAINERS_PER_COLOUR}")
        self.chip_stock = self.plane("chipcard_stock", (1,), f"chipcards in the stock / {CHIPCARDS}")

    def features(self, view: Mapping[str, Any], seat: int | None) -> dict[int, float]:
        num = view["num_players"]
        me = 0 if seat is None else seat
        out: dict[int, float] = {}
        for p in view["players"]:
            self._player(out, p, (p["seat"] - me) % num)
        if seat is not None:
            out[self.seat_number.offset + seat] = 1.0
        for s in view["to_act"]:
            out[self.to_act.offset + (s - me) % num] = 1.0
        if view.get("last_battle"):
            self._last_battle(out, view["last_battle"], me, num)
        self._table(out, view, me, num)
        return out

    def _player(self, out: dict[int, float], p: Mapping[str, Any], k: int) -> None:
        """The planes of one seat, ``k`` seats after the observing one."""
        nv = len(RCU_VALUES)
        out[self.present.offset + k] = 1.0
        at = self.hand.offset + k * nv - 1
        for value in p["hand"]:
            out[at + value] = 1.0
        at = self.discard.offset + k * nv - 1
        for value in p["discard"]:
            out[at + value] = 1.0
        if p["chipcards"]:
            out[self.chips.offset + k] = scaled(p["chipcards"], CHIPCARDS)
        for slot, stack in enumerate(p["ship"]):
            at = self.ship.offset + (k * MAX_SLOTS + slot) * NUM_COLOURS
            for colour in stack:
                out[at + _COLOUR[colour]] = 1.0
        self._counts(out, self.cc.offset + k * NUM_COLOURS * VALUES, p["cc_pile"])
        scores = p["scores"]
        for j, key in enumerate(("round_1", "round_2", "bonus")):
            if scores[key]:
                out[self.scores.offset + 3 * k + j] = scaled(scores[key], MAX_SCORE)
        if p["has_chosen"]:
            out[self.chosen.offset + k] = 1.0
        if k == 0 and p.get("choice"):
            out[self.own_choice.offset + _choice_index(p["choice"])] = 1.0

    def _last_battle(self, out: dict[int, float], last: Mapping[str, Any], me: int, num: int) -> None:
        """The last battle: each seat's revealed choice, who won, tied or was neutralized, its cards."""
        for s, choice in enumerate(last["choices"]):
            out[self.last_choice.offset + ((s - me) % num) * len(ACTIONS) + _choice_index(choice)] = 1.0
        role = self.last_role.offset
        if last.get("winner") is not None:
            out[role + 3 * ((last["winner"] - me) % num)] = 1.0
        for s in last.get("tied", []):
            out[role + 3 * ((s - me) % num) + 1] = 1.0
        for s in last.get("neutralized", []):
            out[role + 3 * ((s - me) % num) + 2] = 1.0
        self._cards(out, self.last_cards.offset, last["cards"])

    def _table(self, out: dict[int, float], view: Mapping[str, Any], me: int, num: int) -> None:
        """Round, battle, phase, the stack, this battle's cards and colours, set-aside cards, stocks."""
        out[self.round.offset + view["round"] - 1] = 1.0
        if 1 <= view["battle"] <= BATTLES:
            out[self.battle.offset + view["battle"] - 1] = 1.0
        out[self.phase.offset + PHASES.index(view["phase"])] = 1.0
        if view["deck_count"]:
            out[self.deck.offset] = scaled(view["deck_count"], len(DECK))
        self._cards(out, self.revealed.offset, view["revealed"])
        for plane, colour in ((self.battle_colour, view["battle_colour"]), (self.activated, view["activated"])):
            if colour is not None:
                out[plane.offset + _COLOUR[colour]] = 1.0
        if view["winner"] is not None:
            out[self.winner.offset + (view["winner"] - me) % num] = 1.0
        self._counts(out, self.set_aside.offset, view["set_aside"])
        for colour, count in view["stock"].items():
            if count:
                out[self.stock.offset + _COLOUR[colour]] = scaled(count, CONTAINERS_PER_COLOUR)
        if view["chipcard_stock"]:
            out[self.chip_stock.offset] = scaled(view["chipcard_stock"], CHIPCARDS)

    @staticmethod
    def _counts(out: dict[int, float], at: int, cards: list[Any]) -> None:
        """Cards counted by (colour, face value), each copy adding ``1 / MAX_COPIES``."""
        step = 1.0 / MAX_COPIES
        for colour, value in cards:
            i = at + _COLOUR[colour] * VALUES + value
            out[i] = out.get(i, 0.0) + step

    @staticmethod
    def _cards(out: dict[int, float], at: int, cards: list[Any]) -> None:
        """Cards in order, each as colour and face value one-hot."""
        for j, (colour, value) in enumerate(cards):
            out[at + j * (NUM_COLOURS + VALUES) + _COLOUR[colour]] = 1.0
            out[at + j * (NUM_COLOURS + VALUES) + NUM_COLOURS + value] = 1.0


OBSERVATION = Tf22Observation()
