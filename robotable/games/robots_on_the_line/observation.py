"""Robots on the Line as feature planes, filled from a seat's view (see docs/research.md for the table).

Seats are relative: seat block 0 is the seat observing, then the next seats in seat order. Every part and
torso tile has one row saying where it is (the catalogue order of ``components.PARTS`` and ``TORSOS``);
a part in another seat's hand shows only once the table has seen it, exactly as in the view. Buyers are
by their slot on the table. Not encoded, because they follow from what is or are bookkeeping: the magnet
units of the lines, scores (money minus magnets), the bank (money is conserved), the order of the junk
piles below their tops and of the Bargain Hunter's parts, and the layout and payment breakdown of sold
robots (the parts each seat sold and to which buyer are encoded).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from robotable.core.observation import ObservationEncoder, binary, scaled

from .components import (
    BONUS_IDS,
    BONUS_TILES,
    BUYER_IDS,
    BUYERS,
    HUNTER_KINDS,
    LINES,
    MAINTENANCE,
    MAINTENANCE_KINDS,
    OFFERS_PER_TURN,
    PART_IDS,
    PARTS,
    REQUIREMENT_IDS,
    REQUIREMENTS,
    ROBOTS_TO_END,
    SPACES,
    TORSO_IDS,
    TORSOS,
)

MAX_SEATS = 4
MAX_OFFERS = 12  # open offers never share their number modulo 12 (see the action encoding)
MAX_MONEY = 250
MAX_HAND = 20
MAX_PICKS = 3
TURN_BITS = 10
PHASES = ("turn", "pick", "over")
#: Where a part can be: a line space, a seat's hand, a junk pile (and its top), the Bargain Hunter, sold.
PART_PLACES = (
    [f"line {line} space {space}" for line in range(LINES) for space in range(SPACES)]
    + [f"hand of seat +{k}" for k in range(MAX_SEATS)]
    + [f"junk pile {j}" for j in range(LINES)]
    + [f"top of junk pile {j}" for j in range(LINES)]
    + ["Bargain Hunter"]
    + [f"sold in a robot by seat +{k}" for k in range(MAX_SEATS)]
)
TORSO_PLACES = [f"torso of seat +{k}" for k in range(MAX_SEATS)] + ["torso stack", "top of the torso stack"]
_HAND, _JUNK, _TOP = LINES * SPACES, LINES * SPACES + MAX_SEATS, LINES * SPACES + MAX_SEATS + LINES
_HUNTER, _SOLD = _TOP + LINES, _TOP + LINES + 1


class RotlObservation(ObservationEncoder):
    """The planes of Robots on the Line (see the module docstring)."""

    def declare(self) -> None:
        n, b = MAX_SEATS, len(BUYERS)
        parts, torsos = len(PARTS), len(TORSOS)
        self.part = self.plane("part_place", (parts, len(PART_PLACES)), "where each part is: " + "; ".join(PART_PLACES))
        self.torso = self.plane(
            "torso_place", (torsos, len(TORSO_PLACES)), "where each torso is: " + "; ".join(TORSO_PLACES)
        )
        self.switch = self.plane("switch_on", (LINES, 2), "the line's switch is on")
        self.draw = self.plane("draw_pile", (LINES,), f"tiles in the line's draw pile / {len(PARTS)}")
        self.maint = self.plane("maintenance_stack", (1,), f"maintenance tiles left / {len(MAINTENANCE)}")
        self.maint_used = self.plane(
            "maintenance_discard", (len(MAINTENANCE_KINDS),), "maintenance tiles of the kind used / 4"
        )
        self.featured = self.plane("featured_kind", (len(HUNTER_KINDS),), "the Bargain Hunter's featured kind")
        self.buyer = self.plane("buyer", (b, b), "the buyer in each buyer slot")
        self.buyer_money = self.plane("buyer_money", (b,), "the buyer's money / (robots x pay)")
        self.buying = self.plane("buying", (b,), "the buyer still buys")
        self.requirement = self.plane("requirement", (b, len(REQUIREMENTS)), "the buyer's requirement tiles")
        self.bonus = self.plane("bonus_tile", (b, len(BONUS_TILES)), "the buyer's bonus tiles")
        self.present = self.plane("seat_present", (n,), "the relative seat plays")
        self.money = self.plane("money", (n,), f"the seat's money / {MAX_MONEY}")
        self.unknown = self.plane(
            "unknown_parts", (n,), f"parts in the seat's hand the table has not seen / {MAX_HAND}"
        )
        self.magnets = self.plane("magnets", (n,), "magnets in the seat's hand / 4")
        self.sold = self.plane("robots_sold", (n,), f"robots the seat sold / {ROBOTS_TO_END}")
        self.sold_to = self.plane("sold_to", (n, b), f"robots the seat sold to the buyer in the slot / {ROBOTS_TO_END}")
        self.turn = self.plane("turn", (n,), "the relative seat whose turn it is")
        self.to_act = self.plane("seat_to_act", (n,), "the relative seat the game waits for")
        self.seat_number = self.plane("seat_number", (n,), "the observing seat's own number")
        self.phase = self.plane("phase", (len(PHASES),), "turn / pick / over")
        self.turn_number = self.plane("turn_number", (TURN_BITS,), "the turn number in binary, lowest bit first")
        self.this_turn = self.plane(
            "this_turn", (2 + 2 + MAX_PICKS + 1,), "part taken, torso stack used, junk trades 1/2, picks left 0..3"
        )
        self.offer_seats = self.plane(
            "offer_seats", (MAX_OFFERS, 2, n), "open offer numbered k (mod 12): relative seat from, to"
        )
        self.offer_give = self.plane("offer_give", (MAX_OFFERS, parts + torsos), "parts and torso offered")
        self.offer_take = self.plane("offer_take", (MAX_OFFERS, parts + torsos), "parts and torso asked for")
        self.offer_money = self.plane("offer_money", (MAX_OFFERS, 2), f"money offered, asked / {MAX_MONEY}")
        self.variant = self.plane(
            "variant", (5,), "ON/OFF switches, 3 new tiles, family mode, line resets / 4, switch flips / 4"
        )
        self.offers_made = self.plane(
            "offers_made", (n, n), f"offers made this turn from relative seat to relative seat / {OFFERS_PER_TURN}"
        )
        # flat positions, looked up by name: _part_at[place][part], _torso_at[place][torso]
        self._part_at = [
            {name: self.part.offset + i * len(PART_PLACES) + place for name, i in PART_IDS.items()}
            for place in range(len(PART_PLACES))
        ]
        self._torso_at = [
            {name: self.torso.offset + i * len(TORSO_PLACES) + place for name, i in TORSO_IDS.items()}
            for place in range(len(TORSO_PLACES))
        ]

    def features(self, view: Mapping[str, Any], seat: int | None) -> dict[int, float]:
        out: dict[int, float] = {}
        num = view["num_players"]
        me = 0 if seat is None else seat
        self._table_parts(out, view)
        for sale in view["sales"]:
            self._sale(out, sale, (sale["seat"] - me) % num)
        for p in view["players"]:
            self._player(out, p, (p["seat"] - me) % num)
        self._piles(out, view)
        self._buyers(out, view["buyers"])
        for s in view["to_act"]:
            out[self.to_act.offset + (s - me) % num] = 1.0
        if view["phase"] != "over":
            out[self.turn.offset + (view["turn"] - me) % num] = 1.0
        if seat is not None:
            out[self.seat_number.offset + seat] = 1.0
        out[self.phase.offset + PHASES.index(view["phase"])] = 1.0
        for b, bit in enumerate(binary(view["turn_number"], TURN_BITS)):
            if bit:
                out[self.turn_number.offset + b] = 1.0
        self._this_turn(out, view["this_turn"])
        self._offers(out, view["offers"], me, num)
        self._variant(out, view["options"])
        for giver, taker, count in view["this_turn"]["offers_made"]:
            out[self.offers_made.offset + ((giver - me) % num) * MAX_SEATS + (taker - me) % num] = (
                count / OFFERS_PER_TURN
            )
        return out

    def _parts(self, out: dict[int, float], names: list[str], place: int) -> None:
        """Parts ``names`` at ``place`` (one of ``PART_PLACES``)."""
        out.update(dict.fromkeys(map(self._part_at[place].__getitem__, names), 1.0))

    def _table_parts(self, out: dict[int, float], view: Mapping[str, Any]) -> None:
        """Parts on the lines, in the junk piles (and their tops) and with the Bargain Hunter; torsos in
        the stack (and its top)."""
        part_at = self._part_at
        for line, spaces in enumerate(view["lines"]):
            for space, name in enumerate(spaces):
                if name is not None:
                    out[part_at[line * SPACES + space][name]] = 1.0
        for j, pile in enumerate(view["junk_piles"]):
            if pile:
                self._parts(out, pile, _JUNK + j)
                out[part_at[_TOP + j][pile[-1]]] = 1.0
        self._parts(out, view["bargain_hunter_parts"], _HUNTER)
        stack = view["torso_stack"]
        out.update(dict.fromkeys(map(self._torso_at[MAX_SEATS].__getitem__, stack["torsos"]), 1.0))
        if stack["top"] is not None:
            out[self._torso_at[MAX_SEATS + 1][stack["top"]]] = 1.0

    def _sale(self, out: dict[int, float], sale: Mapping[str, Any], k: int) -> None:
        """A robot sold by the seat ``k`` after the observing one: its parts, and to which buyer."""
        self._parts(
            out,
            [n for n in [item[0] for item in sale["layout"]] + sale["batteries"] + sale["magnets"] if n in PART_IDS],
            _SOLD + k,
        )
        i = self.sold_to.offset + k * len(BUYERS) + BUYER_IDS[sale["buyer"]]
        out[i] = out.get(i, 0.0) + 1.0 / ROBOTS_TO_END

    def _player(self, out: dict[int, float], p: Mapping[str, Any], k: int) -> None:
        """The seat ``k`` after the observing one: hand (as far as the table has seen it), torso, money..."""
        self._parts(out, p["hand"], _HAND + k)
        if p["torso"] is not None:
            out[self._torso_at[k][p["torso"]]] = 1.0
        out[self.present.offset + k] = 1.0
        for plane, value, top in (
            (self.money, p["money"], MAX_MONEY),
            (self.unknown, p["unknown_parts"], MAX_HAND),
            (self.magnets, p["magnets"], 4),
            (self.sold, p["robots_sold"], ROBOTS_TO_END),
        ):
            if value:
                out[plane.offset + k] = scaled(value, top)

    def _piles(self, out: dict[int, float], view: Mapping[str, Any]) -> None:
        """Switches, draw piles, maintenance tiles and the Bargain Hunter's featured kind."""
        for line, switches in enumerate(view["switches"]):
            for j, state in enumerate(switches):
                if state == "on":
                    out[self.switch.offset + 2 * line + j] = 1.0
        for line, count in enumerate(view["draw_piles"]):
            if count:
                out[self.draw.offset + line] = scaled(count, len(PARTS))
        maintenance = view["maintenance"]
        if maintenance["stack"]:
            out[self.maint.offset] = scaled(maintenance["stack"], len(MAINTENANCE))
        for kind in maintenance["discard"]:
            i = self.maint_used.offset + MAINTENANCE_KINDS.index(kind)
            out[i] = out.get(i, 0.0) + 1.0 / MAINTENANCE.count(kind)
        featured = view["bargain_hunter"]["featured"]
        if featured in HUNTER_KINDS:
            out[self.featured.offset + HUNTER_KINDS.index(featured)] = 1.0

    def _variant(self, out: dict[int, float], options: Mapping[str, Any]) -> None:
        values = (
            options["on_off_variant"],
            options["three_new_tiles"],
            options["family"],
            scaled(options["line_resets"], 4),
            scaled(options["switch_flips"], 4),
        )
        for j, value in enumerate(values):
            if value:
                out[self.variant.offset + j] = float(value)

    def _buyers(self, out: dict[int, float], buyers: list[Mapping[str, Any]]) -> None:
        for slot, buyer in enumerate(buyers):
            out[self.buyer.offset + slot * len(BUYERS) + BUYER_IDS[buyer["id"]]] = 1.0
            if buyer["money"]:
                out[self.buyer_money.offset + slot] = scaled(buyer["money"], buyer["robots"] * buyer["pay"])
            if buyer["buying"]:
                out[self.buying.offset + slot] = 1.0
            for req in buyer["requirements"]:
                out[self.requirement.offset + slot * len(REQUIREMENTS) + REQUIREMENT_IDS[req["id"]]] = 1.0
            for tile in buyer["bonus_tiles"]:
                out[self.bonus.offset + slot * len(BONUS_TILES) + BONUS_IDS[tile["id"]]] = 1.0

    def _this_turn(self, out: dict[int, float], turn: Mapping[str, Any]) -> None:
        at = self.this_turn.offset
        if turn["part_taken"]:
            out[at] = 1.0
        if turn["torso_stack_used"]:
            out[at + 1] = 1.0
        trades = turn["junk_trades"]
        if trades:
            out[at + 1 + min(trades, 2)] = 1.0
        out[at + 4 + min(turn["picks_left"], MAX_PICKS)] = 1.0

    def _offers(self, out: dict[int, float], offers: list[Mapping[str, Any]], me: int, num: int) -> None:
        width = len(PARTS) + len(TORSOS)
        for offer in offers:
            k = offer["offer"] % MAX_OFFERS
            out[self.offer_seats.offset + (2 * k) * MAX_SEATS + (offer["from"] - me) % num] = 1.0
            out[self.offer_seats.offset + (2 * k + 1) * MAX_SEATS + (offer["to"] - me) % num] = 1.0
            for plane, names in ((self.offer_give, offer["give"]), (self.offer_take, offer["take"])):
                for name in names:
                    i = PART_IDS[name] if name in PART_IDS else len(PARTS) + TORSO_IDS[name]
                    out[plane.offset + k * width + i] = 1.0
            for j, key in enumerate(("give_money", "take_money")):
                if offer[key]:
                    out[self.offer_money.offset + 2 * k + j] = scaled(offer[key], MAX_MONEY)


OBSERVATION = RotlObservation()
