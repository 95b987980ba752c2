"""The state of a game of TF22: RELOAD!: everything that changes, in plain ints and lists."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

from robotable.core import Action, BadInput, Event, IllegalAction, Result, Rng, State, reason
from robotable.core.errors import Message, Messages, name

from . import rules
from .actions import (
    Load,
    PlayCard,
    RBuy,
    RDiscard,
    Reload,
    ReturnContainer,
    RReload,
    RTakeBack,
)
from .components import (
    BATTLES_PER_ROUND,
    CARDS_PER_BATTLE,
    CHIPCARDS,
    COLOUR_NAMES,
    CONTAINERS_PER_COLOUR,
    DECK,
    MAX_SLOTS,
    NUM_COLOURS,
    RCU_VALUES,
    RELOAD_COSTS,
    ROUNDS,
    SLOTS_BY_PLAYERS,
    Colour,
    card_json,
)

GAME_ID = "tf22-reload"
CHOOSE, LOAD, OVER = 0, 1, 2
PHASES = ("choose", "load", "over")

# Every action a player can ever take, built once: legal_actions hands out these shared values.
_PLAY = {v: PlayCard(v) for v in RCU_VALUES}
_TAKE_BACK = RTakeBack()
_DISCARD = {s: RDiscard(s) for s in range(MAX_SLOTS)}
_RRELOAD = {(a, b): RReload(a, b) for a in range(MAX_SLOTS) for b in range(MAX_SLOTS) if a != b}
_BUY = {(c, s): RBuy(Colour(c), s) for c in range(NUM_COLOURS) for s in range(MAX_SLOTS)}
_LOAD = {s: Load(s) for s in range(MAX_SLOTS)}
_RELOAD = {(a, b): Reload(a, b) for a in range(MAX_SLOTS) for b in range(MAX_SLOTS) if a != b}
_RETURN = ReturnContainer()
# Their JSON forms, built once (events carry copies), by identity: the shared actions are looked up
# without hashing their fields.
_JSON = {
    id(a): (a, a.to_json())
    for a in (
        *_PLAY.values(),
        _TAKE_BACK,
        *_DISCARD.values(),
        *_RRELOAD.values(),
        *_BUY.values(),
        *_LOAD.values(),
        *_RELOAD.values(),
        _RETURN,
    )
}


def action_json(action: Action) -> dict[str, Any]:
    """``action.to_json()``, a fresh copy of the one built once for the shared actions."""
    known = _JSON.get(id(action))
    return dict(known[1]) if known is not None and known[0] is action else action.to_json()


class Tf22State(State):
    """A game of TF22: RELOAD! in progress.

    Seat 0 is the first player: R uses resolve and chipcards are handed out in seat order from it.
    """

    __slots__ = (
        "activated",
        "battle",
        "cc_piles",
        "chip_stock",
        "chips",
        "choices",
        "deck",
        "discards",
        "hands",
        "last_battle",
        "num_players",
        "options",
        "phase",
        "revealed",
        "rng",
        "round",
        "round_scores",
        "scores",
        "seed",
        "set_aside",
        "ships",
        "stock",
        "winner",
    )

    def __init__(self, num_players: int, seed: int, options: dict[str, Any]) -> None:
        self.num_players = num_players
        self.seed = seed
        self.options = options
        self.rng = Rng(seed)
        self.round = 1
        self.battle = 0  # battles begun this round
        self.deck: list[int] = []  # face down; the top card is the last one
        self.revealed: list[int] = []
        self.activated = -1  # colour of the activated container, -1 if the stock had none
        self.set_aside: list[int] = []
        self.cc_piles: list[list[int]] = [[] for _ in range(num_players)]
        self.hands: list[list[int]] = [list(RCU_VALUES) for _ in range(num_players)]
        self.discards: list[list[int]] = [[] for _ in range(num_players)]
        slots = SLOTS_BY_PLAYERS[num_players]
        self.ships: list[list[list[int]]] = [[[] for _ in range(slots)] for _ in range(num_players)]
        self.chips = [0] * num_players
        self.chip_stock = CHIPCARDS
        self.stock = [CONTAINERS_PER_COLOUR] * NUM_COLOURS
        self.choices: list[Action | None] = [None] * num_players
        self.phase = CHOOSE
        self.winner = -1  # the seat deciding where the won container goes
        self.scores = [[0, 0, 0] for _ in range(num_players)]  # round 1, round 2, bonus
        self.last_battle: dict[str, Any] | None = None
        self.round_scores: list[list[dict[str, Any]]] = []

    # -- the contract ---------------------------------------------------------------------------

    def to_act(self) -> list[int]:
        if self.phase == CHOOSE:
            return [p for p, choice in enumerate(self.choices) if choice is None]
        if self.phase == LOAD:
            return [self.winner]
        return []

    def legal_actions(self, player: int) -> list[Action]:
        if self.phase == CHOOSE:
            return self._battle_choices(player) if self.choices[player] is None else []
        if self.phase == LOAD and player == self.winner:
            return self._load_decisions(player)
        return []

    def _battle_choices(self, p: int) -> list[Action]:
        actions: list[Action] = [_PLAY[v] for v in self.hands[p]]
        actions.append(_TAKE_BACK)
        ship, chips = self.ships[p], self.chips[p]
        if chips >= RELOAD_COSTS["r_discard"]:
            actions += [_DISCARD[s] for s, stack in enumerate(ship) if stack]
        if chips >= RELOAD_COSTS["r_reload"]:
            actions += [_RRELOAD[m] for m in rules.reload_moves(ship, strict=self.options["strict_moves"])]
        if chips >= RELOAD_COSTS["r_buy"]:
            for colour in range(NUM_COLOURS):
                if self.stock[colour]:
                    actions += [_BUY[colour, s] for s in rules.load_slots(ship, colour)]
        return actions

    def _load_decisions(self, p: int) -> list[Action]:
        ship = self.ships[p]
        actions: list[Action] = []
        if self.activated >= 0:
            actions += [_LOAD[s] for s in rules.load_slots(ship, self.activated)]
        actions += [_RELOAD[m] for m in rules.reload_moves(ship, self.battle_colour(), self.options["strict_moves"])]
        actions.append(_RETURN)
        return actions

    def is_legal(self, player: int, action: Action) -> bool:
        """Same answer as ``action in legal_actions(player)``, without building the list."""
        if self.phase == CHOOSE:
            return self.choices[player] is None and self._is_battle_choice(player, action)
        if self.phase == LOAD and player == self.winner:
            return self._is_load_decision(player, action)
        return False

    def _is_battle_choice(self, p: int, action: Action) -> bool:
        ship, chips, kind = self.ships[p], self.chips[p], type(action)
        if kind is PlayCard:
            return action.value in self.hands[p]
        if kind is RTakeBack:
            return True
        if kind is RDiscard:
            return chips >= RELOAD_COSTS["r_discard"] and 0 <= action.slot < len(ship) and bool(ship[action.slot])
        if kind is RReload:
            strict = self.options["strict_moves"]
            return chips >= RELOAD_COSTS["r_reload"] and rules.can_move(
                ship, action.from_slot, action.to_slot, None, strict
            )
        if kind is RBuy:
            colour, slot = int(action.colour), action.slot
            return (
                chips >= RELOAD_COSTS["r_buy"]
                and self.stock[colour] > 0
                and 0 <= slot < len(ship)
                and rules.can_stack(ship[slot], colour)
            )
        return False

    def _is_load_decision(self, p: int, action: Action) -> bool:
        ship, kind = self.ships[p], type(action)
        if kind is Load:
            return (
                self.activated >= 0
                and 0 <= action.slot < len(ship)
                and rules.can_stack(ship[action.slot], self.activated)
            )
        if kind is Reload:
            colour, strict = self.battle_colour(), self.options["strict_moves"]
            return rules.can_move(ship, action.from_slot, action.to_slot, colour, strict)
        return kind is ReturnContainer

    def why_illegal(self, player: int, action: Action) -> str:
        """Why ``action`` is refused, as a coded ``Reason`` (docs/i18n.md): actions, colours and cards named as
        the table names them."""
        if self.phase == LOAD and not isinstance(action, Load | Reload | ReturnContainer):
            return reason(
                "refusals.must_place_container",
                "seat {seat} won the battle and must decide where the container goes (load, reload or return)",
                seat=player,
            )
        if self.phase == CHOOSE and isinstance(action, Load | Reload | ReturnContainer):
            return reason(
                "refusals.choose_card_first", "no battle has been won: choose a card (a number or R) for the battle"
            )
        if isinstance(action, PlayCard) and action.value not in self.hands[player]:
            return reason(
                "refusals.card_not_in_hand",
                "RCU-{value} is not in seat {seat}'s hand (hand: {hand})",
                value=action.value,
                seat=player,
                hand=Messages(
                    [Message(str(v), "names.rcu", {"value": v}) for v in self.hands[player]],
                    text=str(self.hands[player]),
                ),
            )
        cost = RELOAD_COSTS.get(action.type, 0)
        if cost > self.chips[player]:
            return reason(
                "refusals.not_enough_chipcards",
                "{action} costs {cost} chipcard(s); seat {seat} has {chips}",
                action=action_name(action, action.type),
                cost=cost,
                seat=player,
                chips=self.chips[player],
            )
        if isinstance(action, RBuy) and not self.stock[action.colour]:
            return reason(
                "refusals.stock_empty",
                "the stock has no {colour} container left",
                colour=name(COLOUR_NAMES[action.colour], "names.colour"),
            )
        return reason(
            "refusals.breaks_loading_rules",
            "{action} breaks the loading rules on seat {seat}'s ship ({ship})",
            action=action_name(action, str(action.to_json())),
            seat=player,
            ship=self._ship_json(player),
        )

    def apply_legal(self, player: int, action: Action) -> list[Event]:
        events: list[Event] = []
        if self.phase == CHOOSE:
            self.choices[player] = action
            events.append(Event("chose", {"seat": player}))
            events.append(Event("your_choice", {"seat": player, "choice": action_json(action)}, (player,)))
            if None not in self.choices:
                self._resolve_battle(events)
        else:
            self._decide_load(player, action, events)
        return events

    def is_over(self) -> bool:
        return self.phase == OVER

    def result(self) -> Result:
        if self.phase != OVER:
            raise IllegalAction("the game is not over")
        totals = [sum(s) for s in self.scores]
        # Highest total; then most chipcards; then fewest bonus points; then the victory is shared.
        keys = [(totals[p], self.chips[p], -self.scores[p][2]) for p in range(self.num_players)]
        details = {
            "round_1": [s[0] for s in self.scores],
            "round_2": [s[1] for s in self.scores],
            "bonus": [s[2] for s in self.scores],
            "chipcards": list(self.chips),
            "tie_breaks": "total, then most chipcards, then fewest bonus points",
        }
        return Result.from_keys(totals, keys, "end of round 2", details)

    # -- the battle -----------------------------------------------------------------------------

    def battle_colour(self) -> int:
        """The colour the two revealed container cards activate (-1 between battles)."""
        if len(self.revealed) < CARDS_PER_BATTLE:
            return -1
        return rules.activated_colour(self.revealed[0], self.revealed[1])

    def _activate(self, events: list[Event]) -> None:
        """Reveal the next two container cards; they activate one container of the winning colour."""
        self.revealed = [self.deck.pop() for _ in range(CARDS_PER_BATTLE)]
        self.battle += 1
        colour = self.battle_colour()
        if self.stock[colour]:
            self.stock[colour] -= 1
            self.activated = colour
        else:
            self.activated = -1
        events.append(
            Event(
                "activate",
                {
                    "round": self.round,
                    "battle": self.battle,
                    "cards": [card_json(c) for c in self.revealed],
                    "colour": COLOUR_NAMES[colour],
                    "container": self.activated >= 0,
                },
            )
        )

    def _resolve_battle(self, events: list[Event]) -> None:
        choices = [c for c in self.choices if c is not None]
        self.choices = [None] * self.num_players
        shown = [action_json(c) for c in choices]
        events.append(Event("reveal", {"choices": shown}))
        for seat, choice in enumerate(choices):
            if isinstance(choice, PlayCard):
                self.hands[seat].remove(choice.value)
                self.discards[seat].append(choice.value)
        for seat, choice in enumerate(choices):
            if not isinstance(choice, PlayCard):
                self._use_r(seat, choice, events)
        plays = {seat: c.value for seat, c in enumerate(choices) if isinstance(c, PlayCard)}
        outcome = rules.battle(plays)
        self.last_battle = {
            "round": self.round,
            "battle": self.battle,
            "cards": [card_json(c) for c in self.revealed],
            "choices": shown,
            "winner": outcome.winner,
            "tied": list(outcome.tied),
            "neutralized": list(outcome.neutralized),
        }
        events.append(Event("battle", dict(self.last_battle)))
        for seat in outcome.tied:
            self._give_chip(seat, events)
        if outcome.winner is None:
            self._absolute_tie(events)
            return
        self.winner = winner = outcome.winner
        self.cc_piles[winner].extend(self.revealed)
        events.append(Event("won_cards", {"seat": winner, "cards": [card_json(c) for c in self.revealed]}))
        if self._has_load_decision(winner):
            self.phase = LOAD
        else:  # nothing to load or reload: the only choice is to return the container
            self._decide_load(winner, _RETURN, events)

    def _has_load_decision(self, seat: int) -> bool:
        """Whether the battle's winner has more than one answer (returning is always one)."""
        ship, colour = self.ships[seat], self.activated
        if colour >= 0 and any(rules.can_stack(stack, colour) for stack in ship):
            return True
        return bool(rules.reload_moves(ship, self.battle_colour(), self.options["strict_moves"]))

    def _use_r(self, seat: int, choice: Action, events: list[Event]) -> None:
        """The R card's four uses; the R card itself goes straight back to hand."""
        ship = self.ships[seat]
        if isinstance(choice, RTakeBack):
            taken = self.discards[seat]
            self.hands[seat] = sorted(self.hands[seat] + taken)
            self.discards[seat] = []
            events.append(Event("r_take_back", {"seat": seat, "cards": taken}))
        elif isinstance(choice, RDiscard):
            self._pay(seat, RELOAD_COSTS["r_discard"])
            colour = ship[choice.slot].pop()
            self.stock[colour] += 1
            events.append(Event("r_discard", {"seat": seat, "slot": choice.slot, "colour": COLOUR_NAMES[colour]}))
        elif isinstance(choice, RReload):
            self._pay(seat, RELOAD_COSTS["r_reload"])
            colour = ship[choice.from_slot].pop()
            ship[choice.to_slot].append(colour)
            events.append(
                Event(
                    "r_reload",
                    {
                        "seat": seat,
                        "from_slot": choice.from_slot,
                        "to_slot": choice.to_slot,
                        "colour": COLOUR_NAMES[colour],
                    },
                )
            )
        elif isinstance(choice, RBuy):
            colour = int(choice.colour)
            if not self.stock[colour]:  # an earlier buyer took the last one: cancelled, nothing paid
                events.append(Event("r_buy_cancelled", {"seat": seat, "colour": COLOUR_NAMES[colour]}))
                return
            self._pay(seat, RELOAD_COSTS["r_buy"])
            self.stock[colour] -= 1
            ship[choice.slot].append(colour)
            events.append(Event("r_buy", {"seat": seat, "colour": COLOUR_NAMES[colour], "slot": choice.slot}))

    def _pay(self, seat: int, chips: int) -> None:
        """Chipcards paid for an R use go back to the common stock."""
        self.chips[seat] -= chips
        self.chip_stock += chips

    def _give_chip(self, seat: int, events: list[Event]) -> None:
        if self.chip_stock:
            self.chip_stock -= 1
            self.chips[seat] += 1
            events.append(Event("chipcard", {"seat": seat}))
        else:
            events.append(Event("chipcard_stock_empty", {"seat": seat}))

    def _absolute_tie(self, events: list[Event]) -> None:
        """The two cards are put aside for the rest of the round; the container goes back."""
        self.set_aside.extend(self.revealed)
        events.append(Event("set_aside", {"cards": [card_json(c) for c in self.revealed]}))
        self._return_activated(events)
        self._next_battle(events)

    def _decide_load(self, seat: int, action: Action, events: list[Event]) -> None:
        ship = self.ships[seat]
        if isinstance(action, Load):
            ship[action.slot].append(self.activated)
            events.append(Event("load", {"seat": seat, "slot": action.slot, "colour": COLOUR_NAMES[self.activated]}))
            self.activated = -1
        else:
            if isinstance(action, Reload):
                colour = ship[action.from_slot].pop()
                ship[action.to_slot].append(colour)
                events.append(
                    Event(
                        "reload",
                        {
                            "seat": seat,
                            "from_slot": action.from_slot,
                            "to_slot": action.to_slot,
                            "colour": COLOUR_NAMES[colour],
                        },
                    )
                )
            self._return_activated(events)
        self.winner = -1
        self._next_battle(events)

    def _return_activated(self, events: list[Event]) -> None:
        if self.activated >= 0:
            self.stock[self.activated] += 1
            events.append(Event("container_returned", {"colour": COLOUR_NAMES[self.activated]}))
            self.activated = -1

    def _next_battle(self, events: list[Event]) -> None:
        self.revealed = []
        self.phase = CHOOSE
        if self.deck:
            self._activate(events)
        else:
            self._end_round(events)

    # -- rounds and points ------------------------------------------------------------------------

    def setup(self) -> list[Event]:
        """Shuffle the container cards and reveal the first two (called once, by the game)."""
        self.deck = list(DECK)
        self.rng.shuffle(self.deck)
        events = [Event("round_start", {"round": 1})]
        self._activate(events)
        return events

    def _end_round(self, events: list[Event]) -> None:
        breakdown = rules.score_round(self.ships, self.cc_piles)
        for seat, part in enumerate(breakdown):
            self.scores[seat][self.round - 1] = part["total"]
        self.round_scores = [*self.round_scores, breakdown]  # a new list: clones share the old one
        events.append(Event("round_scored", {"round": self.round, "scores": breakdown}))
        if self.round < ROUNDS:
            self._start_round_2(events)
            return
        for seat, ship in enumerate(self.ships):
            self.scores[seat][2] = rules.bonus(ship)
        self.phase = OVER
        events.append(Event("game_over", {"result": self.result().to_json()}))

    def _start_round_2(self, events: list[Event]) -> None:
        """Ships and hands carry over; all 28 container cards are shuffled into a new stack."""
        self.round += 1
        self.battle = 0
        self.deck = [c for pile in self.cc_piles for c in pile] + self.set_aside
        self.cc_piles = [[] for _ in range(self.num_players)]
        self.set_aside = []
        self.rng.shuffle(self.deck)
        events.append(Event("round_start", {"round": self.round}))
        self._activate(events)

    # -- copies, views and JSON -------------------------------------------------------------------

    def clone(self) -> Tf22State:
        new = Tf22State.__new__(Tf22State)
        new.num_players = self.num_players
        new.seed = self.seed
        new.options = self.options
        new.rng = Rng(self.rng.state)
        new.round = self.round
        new.battle = self.battle
        new.deck = self.deck[:]
        new.revealed = self.revealed[:]
        new.activated = self.activated
        new.set_aside = self.set_aside[:]
        new.cc_piles = [p[:] for p in self.cc_piles]
        new.hands = [h[:] for h in self.hands]
        new.discards = [d[:] for d in self.discards]
        new.ships = [[s[:] for s in ship] for ship in self.ships]
        new.chips = self.chips[:]
        new.chip_stock = self.chip_stock
        new.stock = self.stock[:]
        new.choices = self.choices[:]
        new.phase = self.phase
        new.winner = self.winner
        new.scores = [s[:] for s in self.scores]
        new.last_battle = self.last_battle  # never mutated, only replaced
        new.round_scores = self.round_scores  # never mutated, only replaced
        return new

    def determinize(self, player: int, rng: Rng) -> Tf22State:
        """Shuffle the unseen container cards; resample other seats' unrevealed choices.

        The sample depends only on what ``player`` knows and on ``rng``: the stack is sorted before it is
        shuffled, and the state's own generator (which fixes future shuffles) and seed are replaced.
        """
        new = self.clone()
        new.seed = 0
        new.deck.sort()
        rng.shuffle(new.deck)
        new.rng = rng.fork()
        if new.phase == CHOOSE:
            for seat in range(new.num_players):
                if seat != player and new.choices[seat] is not None:
                    new.choices[seat] = None
                    options = new._battle_choices(seat)
                    new.choices[seat] = options[rng.randrange(len(options))]
        return new

    def reopen_choices(self, player: int) -> None:
        if self.phase == CHOOSE:
            self.choices = [c if seat == player else None for seat, c in enumerate(self.choices)]

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` sees: everything on the table but the stack order and others' choices."""
        players = []
        for seat in range(self.num_players):
            choice = self.choices[seat]
            entry: dict[str, Any] = {
                "seat": seat,
                "hand": list(self.hands[seat]),
                "discard": list(self.discards[seat]),
                "chipcards": self.chips[seat],
                "ship": self._ship_json(seat),
                "cc_pile": [card_json(c) for c in self.cc_piles[seat]],
                "scores": {
                    "round_1": self.scores[seat][0],
                    "round_2": self.scores[seat][1],
                    "bonus": self.scores[seat][2],
                    "total": sum(self.scores[seat]),
                },
                "has_chosen": choice is not None,
            }
            if seat == player and choice is not None:
                entry["choice"] = choice.to_json()
            players.append(entry)
        colour = self.battle_colour()
        return {
            "game": GAME_ID,
            "seat": player,
            "num_players": self.num_players,
            "round": self.round,
            "battle": self.battle,
            "battles_per_round": BATTLES_PER_ROUND,
            "phase": PHASES[self.phase],
            "to_act": self.to_act(),
            "deck_count": len(self.deck),
            "revealed": [card_json(c) for c in self.revealed],
            "battle_colour": COLOUR_NAMES[colour] if colour >= 0 else None,
            "activated": COLOUR_NAMES[self.activated] if self.activated >= 0 else None,
            "winner": self.winner if self.phase == LOAD else None,
            "set_aside": [card_json(c) for c in self.set_aside],
            "stock": {COLOUR_NAMES[c]: self.stock[c] for c in range(NUM_COLOURS)},
            "chipcard_stock": self.chip_stock,
            "players": players,
            "last_battle": self.last_battle,
            "round_scores": self.round_scores,
        }

    def _ship_json(self, seat: int) -> list[list[str]]:
        return [[COLOUR_NAMES[c] for c in stack] for stack in self.ships[seat]]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME_ID,
            "num_players": self.num_players,
            "seed": self.seed,
            "options": dict(self.options),
            "rng": self.rng.to_json(),
            "round": self.round,
            "battle": self.battle,
            "phase": PHASES[self.phase],
            "deck": [card_json(c) for c in self.deck],
            "revealed": [card_json(c) for c in self.revealed],
            "activated": COLOUR_NAMES[self.activated] if self.activated >= 0 else None,
            "set_aside": [card_json(c) for c in self.set_aside],
            "cc_piles": [[card_json(c) for c in pile] for pile in self.cc_piles],
            "hands": [list(h) for h in self.hands],
            "discards": [list(d) for d in self.discards],
            "ships": [self._ship_json(seat) for seat in range(self.num_players)],
            "chipcards": list(self.chips),
            "chipcard_stock": self.chip_stock,
            "stock": {COLOUR_NAMES[c]: self.stock[c] for c in range(NUM_COLOURS)},
            "choices": [c.to_json() if c is not None else None for c in self.choices],
            "winner": self.winner,
            "scores": [list(s) for s in self.scores],
            "last_battle": self.last_battle,
            "round_scores": self.round_scores,
        }

    def check_invariants(self) -> None:
        """Raise :class:`BadInput` if a component is not conserved or a rule is broken."""
        for problem in self._problems():
            raise BadInput(f"tf22-reload state: {problem}")

    def _problems(self) -> Iterator[str]:
        yield from self._component_problems()
        n = self.num_players
        if self.phase == OVER:
            return
        if len(self.revealed) != CARDS_PER_BATTLE:
            yield f"{CARDS_PER_BATTLE} container cards are revealed during a battle, not {len(self.revealed)}"
        elif self.activated not in (-1, self.battle_colour()):
            yield "the activated container is not of the battle's colour"
        if len(self.deck) % CARDS_PER_BATTLE or self.battle != BATTLES_PER_ROUND - len(self.deck) // CARDS_PER_BATTLE:
            yield f"battle {self.battle} does not match {len(self.deck)} cards left in the stack"
        if self.phase == LOAD and not 0 <= self.winner < n:
            yield "a load decision needs the winning seat"
        if self.phase == CHOOSE and all(c is not None for c in self.choices):
            yield "every seat has chosen but the battle is not resolved"

    def _component_problems(self) -> Iterator[str]:
        """Every card, container, chipcard and RC card is somewhere, exactly once."""
        n = self.num_players
        # Once a battle is won, the revealed cards are already in the winner's CC pile.
        shown = self.revealed if self.phase == CHOOSE else []
        pool = self.deck + shown + self.set_aside + [c for pile in self.cc_piles for c in pile]
        if sorted(pool) != sorted(DECK):
            yield f"the {len(DECK)} container cards are not all there exactly once ({len(pool)} found)"
        on_ships = [0] * NUM_COLOURS
        for seat, ship in enumerate(self.ships):
            if len(ship) != SLOTS_BY_PLAYERS[n]:
                yield f"seat {seat}'s ship has {len(ship)} slots; {n} players have {SLOTS_BY_PLAYERS[n]}"
            for stack in ship:
                if any(a >= b for a, b in pairwise(stack)):
                    yield f"seat {seat}'s stack {[COLOUR_NAMES[c] for c in stack]} breaks the loading rules"
                for c in stack:
                    on_ships[c] += 1
        for c in range(NUM_COLOURS):
            held = self.stock[c] + on_ships[c] + (self.activated == c)
            if self.stock[c] < 0 or held != CONTAINERS_PER_COLOUR:
                name, total = COLOUR_NAMES[c], CONTAINERS_PER_COLOUR
                yield f"{name} containers: stock, ships and activated add up to {held}, not {total}"
        if min(*self.chips, self.chip_stock) < 0 or self.chip_stock + sum(self.chips) != CHIPCARDS:
            yield f"chipcards: stock and players add up to {self.chip_stock + sum(self.chips)}, not {CHIPCARDS}"
        for seat in range(n):
            if sorted(self.hands[seat] + self.discards[seat]) != list(RCU_VALUES):
                yield f"seat {seat}'s hand and RC discard pile are not the cards 1 to 7 once each"


#: The catalogue's short name of each action type, where the table has one (``action.*``).
_SHORT = {"r_discard": "r_discard_short", "r_reload": "r_reload_short", "r_buy": "r_buy_short"}


def action_name(action: Action, text: str) -> Message:
    """``action`` in a refusal as the table names it (``text`` is the engine's English for it): its
    ``action.*`` message, slots as places counted from 0 and its colour by name."""
    params: dict[str, Any] = {}
    for field in ("value", "slot", "from_slot", "to_slot"):
        if hasattr(action, field):
            params[field] = getattr(action, field)
    if hasattr(action, "colour"):
        params["colour"] = name(COLOUR_NAMES[action.colour], "names.colour")
    return Message(text, f"action.{_SHORT.get(action.type, action.type)}", params)
