"""A smaller, structured action space for research: trade offers built as short sequences of sub-decisions.

The flat encoding (:mod:`.actions`) gives every one-for-one part trade its own index (136 x 136 of its
19,266) and cannot express offers with money, several parts or a torso. Here an offer is a *draft*
built one sub-decision at a time, and every legal move is expressible in 1,054 indices:

- ``0 .. 769``: every action of the flat encoding but offers, with the same index (end turn, picks,
  parts, switches, torsos, sales, answers to offers, part sales, junk searches and trades);
- ``770 + q``: start an offer to seat ``q`` (4);
- ``774 + g``: add part ``g`` of your hand to what you give (136, catalogue order);
- ``910 + t``: add part ``t`` seen in the recipient's hand to what you ask for (136);
- ``1046`` / ``1047``: add your torso / ask for the recipient's torso;
- ``1048`` / ``1049``: give $1 / $5 more; ``1050`` / ``1051``: ask $1 / $5 more;
- ``1052``: propose the draft (the offer is made); ``1053``: drop the draft.

While a draft is open only its sub-decisions are legal; "propose" is legal exactly when the engine would
accept the offer (``state.is_legal``), "drop" always. Nothing about a draft changes the game: it lives
beside the state (the research adapters keep it per game and show it in the observation, see
:meth:`StructuredActions.draft_features`), and only "propose" applies an action.

>>> from robotable.games.robots_on_the_line import GAME
>>> state = GAME.start(num_players=2, seed=3)
>>> legal = STRUCTURED.legal(state, 0, None)
>>> STRUCTURED.size, OFFER_TO + 1 in legal, max(legal) < STRUCTURED.size
(1054, True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from robotable.core import Action
from robotable.core.observation import scaled

from .actions import NUM_ACTIONS, Offer, action_index
from .components import PART_IDS, PARTS, TORSO_IDS, TORSOS
from .phases import OVER
from .trade import may_offer

if TYPE_CHECKING:
    from .state import RotlState

MAX_SEATS = 4
_P = len(PARTS)
#: The flat encoding's indices below this are every action but offers (kept as they are).
BASE = NUM_ACTIONS - _P * _P
OFFER_TO = BASE
GIVE_PART = OFFER_TO + MAX_SEATS
TAKE_PART = GIVE_PART + _P
GIVE_TORSO = TAKE_PART + _P
TAKE_TORSO = GIVE_TORSO + 1
GIVE_MONEY = TAKE_TORSO + 1  # + 0: $1, + 1: $5
TAKE_MONEY = GIVE_MONEY + 2
PROPOSE = TAKE_MONEY + 2
DROP = PROPOSE + 1
SIZE = DROP + 1
STEPS = (1, 5)
#: Money in a draft is shown divided by this.
MAX_MONEY = 250
_PART_NAMES = tuple(p.id for p in PARTS)


@dataclass(frozen=True)
class Draft:
    """An offer being built: to seat ``to``, what is given and asked (part and torso ids), money."""

    to: int
    give: tuple[str, ...] = ()
    take: tuple[str, ...] = ()
    give_money: int = 0
    take_money: int = 0

    def offer(self) -> Offer:
        return Offer(self.to, self.give, self.take, self.give_money, self.take_money)


#: What a structured index leads to: an action to apply, a new draft, or ``None`` (the draft dropped).
Outcome = Action | Draft | None


class StructuredActions:
    """The structured action space of Robots on the Line (see the module docstring)."""

    size = SIZE
    #: Observation planes of the draft (name, size, description), appended by the adapters.
    planes = (
        ("draft_to", MAX_SEATS, "an offer is being drafted to the relative seat"),
        ("draft_give", _P + len(TORSOS), "parts and torso the draft gives"),
        ("draft_take", _P + len(TORSOS), "parts and torso the draft asks for"),
        ("draft_money", 2, f"money the draft gives, asks / {MAX_MONEY}"),
    )
    draft_size = sum(n for _, n, _ in planes)

    def legal(self, state: RotlState, seat: int, draft: Draft | None) -> dict[int, Outcome]:
        """``seat``'s legal structured indices and what each leads to."""
        if draft is not None:
            return self._draft_moves(state, seat, draft)
        out: dict[int, Outcome] = {}
        for action in state.legal_actions(seat):
            if not isinstance(action, Offer):
                out[action_index(action)] = action
        if state.phase != OVER:  # offers at any time, within the engine's limits (see .trade)
            for q in range(state.num_players):
                if q != seat and may_offer(state, seat, q) is None and self._can_trade(state, seat, q):
                    out[OFFER_TO + q] = Draft(q)
        return out

    @staticmethod
    def _can_trade(state: RotlState, p: int, q: int) -> bool:
        """Some offer from ``p`` to ``q`` could be legal: each has something to give or to be asked for."""
        gives = bool(state.hands[p]) or state.money[p] > 0 or state.torso[p] >= 0
        asked = bool(state.known(q)) or state.money[q] > 0 or state.torso[q] >= 0
        return gives and asked

    def _draft_moves(self, state: RotlState, p: int, draft: Draft) -> dict[int, Outcome]:
        q = draft.to
        out: dict[int, Outcome] = {DROP: None}
        for part in state.hands[p]:
            name = _PART_NAMES[part]
            if name not in draft.give:
                out[GIVE_PART + part] = replace(draft, give=(*draft.give, name))
        for part in state.known(q):
            name = _PART_NAMES[part]
            if name not in draft.take:
                out[TAKE_PART + part] = replace(draft, take=(*draft.take, name))
        mine, theirs = state.torso[p], state.torso[q]
        if mine >= 0 and TORSOS[mine].id not in draft.give:
            out[GIVE_TORSO] = replace(draft, give=(*draft.give, TORSOS[mine].id))
        if theirs >= 0 and TORSOS[theirs].id not in draft.take:
            out[TAKE_TORSO] = replace(draft, take=(*draft.take, TORSOS[theirs].id))
        for j, step in enumerate(STEPS):
            if draft.give_money + step <= state.money[p]:
                out[GIVE_MONEY + j] = replace(draft, give_money=draft.give_money + step)
            if draft.take_money + step <= state.money[q]:
                out[TAKE_MONEY + j] = replace(draft, take_money=draft.take_money + step)
        offer = draft.offer()
        if state.is_legal(p, offer):
            out[PROPOSE] = offer
        return out

    def draft_features(self, draft: Draft | None, seat: int, num_players: int) -> dict[int, float]:
        """The draft planes (offsets from 0, in the order of :attr:`planes`)."""
        if draft is None:
            return {}
        width = _P + len(TORSOS)
        give_at, take_at, money_at = MAX_SEATS, MAX_SEATS + width, MAX_SEATS + 2 * width
        out = {(draft.to - seat) % num_players: 1.0}
        for at, names in ((give_at, draft.give), (take_at, draft.take)):
            for name in names:
                out[at + (PART_IDS[name] if name in PART_IDS else _P + TORSO_IDS[name])] = 1.0
        for j, money in enumerate((draft.give_money, draft.take_money)):
            if money:
                out[money_at + j] = scaled(money, MAX_MONEY)
        return out

    def sequence(self, state: RotlState, seat: int, action: Action) -> list[int]:
        """The structured indices that play ``action`` (a legal action, an offer of any shape)."""
        if not isinstance(action, Offer):
            return [action_index(action)]
        steps = [OFFER_TO + action.to]
        for side, part_at, torso_at in (("give", GIVE_PART, GIVE_TORSO), ("take", TAKE_PART, TAKE_TORSO)):
            for name in getattr(action, side):
                steps.append(part_at + PART_IDS[name] if name in PART_IDS else torso_at)
        for money, at in ((action.give_money, GIVE_MONEY), (action.take_money, TAKE_MONEY)):
            steps += [at + 1] * (money // STEPS[1]) + [at] * (money % STEPS[1])
        return [*steps, PROPOSE]

    def describe(self) -> Mapping[str, Any]:
        """The blocks, for docs and tools."""
        return {
            "flat_actions_but_offers": [0, BASE - 1],
            "offer_to_seat": OFFER_TO,
            "give_part": GIVE_PART,
            "take_part": TAKE_PART,
            "give_torso": GIVE_TORSO,
            "take_torso": TAKE_TORSO,
            "give_money_1_5": GIVE_MONEY,
            "take_money_1_5": TAKE_MONEY,
            "propose": PROPOSE,
            "drop": DROP,
            "size": SIZE,
        }


STRUCTURED = StructuredActions()
