"""Robots on the Line as a Robotable game: options, setup, and loading actions and states from JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from robotable.core import Action, BadInput, BadOptions, Game, Option, Rng
from robotable.core.actions import decode_value
from robotable.core.options import check_options

from .actions import ACTION_TYPES, NUM_ACTIONS, action_from_index, action_index, malformed
from .components import (
    BONUS_IDS,
    BUYER_IDS,
    BUYERS,
    HUNTER_KINDS,
    LINES,
    MAINTENANCE,
    PART_IDS,
    REQUIREMENT_IDS,
    SECTIONS,
    SPACES,
    TORSO_IDS,
)
from .observation import OBSERVATION
from .rules import EMPTY
from .state import GAME_ID, OVER, PHASES, PICK, RotlState

OPTIONS = (
    Option(
        "on_off_variant",
        False,
        "House rule 'ON/OFF variant': pay $1 to turn any one switch ON or OFF (all may end up ON, or OFF)",
    ),
    Option(
        "three_new_tiles",
        False,
        "House rule '3 new tiles': after selling a robot, pick up to 3 tiles from the tops of the junk piles",
    ),
    Option(
        "line_resets",
        MAINTENANCE.count("line_reset"),
        "House rule 'maintenance tiles': how many Line Reset tiles are used (0 removes them)",
        minimum=0,
        maximum=MAINTENANCE.count("line_reset"),
    ),
    Option(
        "switch_flips",
        MAINTENANCE.count("switch_flip"),
        "House rule 'maintenance tiles': how many ON/OFF Switch tiles are used",
        minimum=0,
        maximum=MAINTENANCE.count("switch_flip"),
    ),
    Option(
        "family",
        False,
        "Family mode (not official): no maintenance tiles, no magnets, every switch ON, no bonus tiles",
    ),
)


class RobotsOnTheLine(Game):
    """Robots on the Line for 2 to 4 players; rules page: docs/games/robots-on-the-line.md.

    >>> state = GAME.start(num_players=3, seed=1)
    >>> state.to_act(), len(state.view(0)["buyers"])
    ([0], 7)
    """

    id = GAME_ID
    name = "Robots on the Line"
    min_players = 2
    max_players = 4
    options = OPTIONS
    action_types = ACTION_TYPES
    observation_encoder = OBSERVATION  # feature planes for the research adapters (observation.py)

    def check_options(self, options: Mapping[str, Any] | None, num_players: int) -> dict[str, Any]:
        checked = check_options(self.id, self.options, options)
        if checked["family"]:
            if checked["on_off_variant"]:
                raise BadOptions(f"{self.id}: family mode keeps every switch ON; the ON/OFF variant does not apply")
            defaults = {o.name: o.default for o in self.options}
            if any(checked[k] != defaults[k] for k in ("line_resets", "switch_flips")):
                raise BadOptions(f"{self.id}: family mode has no maintenance tiles; do not set their counts")
        return checked

    def new_state(self, num_players: int, seed: int, options: dict[str, Any]) -> RotlState:
        state = RotlState(num_players, seed, options)
        state.setup()
        return state

    def action_from_json(self, data: object) -> Action:
        """Build an action; unknown tiles, buyers, lines or spaces raise :class:`BadInput` naming them."""
        action = super().action_from_json(data)
        problem = malformed(action)
        if problem:
            raise BadInput(f"{self.id} action {action.type!r}: {problem}")
        return action

    def state_from_json(self, data: object) -> RotlState:
        """Load a state written by ``to_json`` (see docs/games/robots-on-the-line.md)."""
        return _StateReader(self, data).read()

    # The stable integer encoding of :mod:`.actions` (the same for every player count and option). A
    # sale, an offer and an answer to an offer are indexed by kind and target; their indices stand for
    # the one such action ``legal_actions`` lists, so they decode through a state's legal actions.

    def num_distinct_actions(self, num_players: int, options: Mapping[str, Any] | None = None) -> int:
        """Every action ``legal_actions`` can list has an index below this (see :data:`.actions.NUM_ACTIONS`)."""
        return NUM_ACTIONS

    def action_index(self, action: Action) -> int:
        """See :func:`.actions.action_index`."""
        return action_index(action)

    def action_from_index(self, index: int) -> Action:
        """See :func:`.actions.action_from_index` (indices that need a state raise :class:`BadInput`)."""
        return action_from_index(index)


class _StateReader:
    """Reads a state's JSON field by field, naming the field in every error."""

    def __init__(self, game: RobotsOnTheLine, data: object) -> None:
        if not isinstance(data, Mapping):
            raise BadInput(f"{GAME_ID} state: expected a JSON object")
        self.game = game
        self.data = data

    def fail(self, message: str) -> BadInput:
        return BadInput(f"{GAME_ID} state: {message}")

    def get(self, key: str, tp: Any) -> Any:
        if key not in self.data:
            raise self.fail(f"missing field {key!r}")
        return decode_value(self.data[key], tp, f"{GAME_ID} state: field {key!r}")

    def part(self, name: object, where: str) -> int:
        if not isinstance(name, str) or name not in PART_IDS:
            raise self.fail(f"{where}: unknown part {name!r}")
        return PART_IDS[name]  # type: ignore[index]

    def parts(self, names: list[Any], where: str) -> list[int]:
        return [self.part(name, f"{where}[{i}]") for i, name in enumerate(names)]

    def torso(self, name: object, where: str) -> int:
        if name is None:
            return -1
        if not isinstance(name, str) or name not in TORSO_IDS:
            raise self.fail(f"{where}: unknown torso {name!r}")
        return TORSO_IDS[name]  # type: ignore[index]

    def per_seat(self, key: str, n: int, tp: Any) -> list[Any]:
        value = self.get(key, list[tp])
        if len(value) != n:
            raise self.fail(f"field {key!r} needs one entry per seat ({n}), got {len(value)}")
        return value

    def per_line(self, key: str, tp: Any) -> list[Any]:
        value = self.get(key, list[tp])
        if len(value) != LINES:
            raise self.fail(f"field {key!r} needs one entry per line ({LINES}), got {len(value)}")
        return value

    def read(self) -> RotlState:
        if self.data.get("game", GAME_ID) != GAME_ID:
            raise self.fail(f"this is a state of {self.data.get('game')!r}")
        n = self.get("num_players", int)
        if not self.game.min_players <= n <= self.game.max_players:
            raise self.fail(f"num_players must be 2 to 4, got {n}")
        try:
            options = self.game.check_options(self.get("options", dict[str, Any]), n)
        except BadOptions as exc:
            raise self.fail(f"field 'options': {exc}") from None
        state = RotlState(n, self.get("seed", int), options)
        state.rng = Rng.from_json(self.get("rng", int))
        state.phase = self.get("phase", str)
        if state.phase not in PHASES:
            raise self.fail(f"phase must be one of {', '.join(PHASES)}, got {state.phase!r}")
        state.end_reason = self.get("end_reason", str)
        state.turn = self.get("turn", int)
        state.turn_number = self.get("turn_number", int)
        lines = self.per_line("lines", list[Any])
        for i, line in enumerate(lines):
            if len(line) != SPACES:
                raise self.fail(f"lines[{i}] needs {SPACES} spaces, got {len(line)}")
            state.lines[i] = [EMPTY if x is None else self.part(x, f"lines[{i}]") for x in line]
        state.draw = [self.parts(p, f"draw_piles[{i}]") for i, p in enumerate(self.per_line("draw_piles", list[str]))]
        state.junk = [self.parts(p, f"junk_piles[{i}]") for i, p in enumerate(self.per_line("junk_piles", list[str]))]
        switches = self.per_line("switches", list[str])
        for i, line in enumerate(switches):
            if len(line) != len(SECTIONS) or any(s not in ("on", "off") for s in line):
                raise self.fail(f"switches[{i}] must be {len(SECTIONS)} of 'on' or 'off', got {line!r}")
        state.switches = [[s == "on" for s in line] for line in switches]
        state.maint = self.get("maintenance", list[str])
        state.maint_discard = self.get("maintenance_discard", list[str])
        for kind in state.maint + state.maint_discard:
            if kind not in MAINTENANCE:
                raise self.fail(f"unknown maintenance tile {kind!r}")
        state.torso_pile = [self.torso(t, "torso_stack") for t in self.get("torso_stack", list[str])]
        state.hands = [sorted(self.parts(h, f"hands[{s}]")) for s, h in enumerate(self.per_seat("hands", n, list[str]))]
        state.secret = [
            sorted(self.parts(h, f"secret[{s}]")) for s, h in enumerate(self.per_seat("secret", n, list[str]))
        ]
        state.torso = [self.torso(t, f"torsos[{s}]") for s, t in enumerate(self.per_seat("torsos", n, Any))]
        state.money = self.per_seat("money", n, int)
        state.bank = self.get("bank", int)
        state.robots = self.per_seat("robots_sold", n, int)
        buyers = self.get("buyers", list[dict[str, Any]])
        state.buyers, state.buyer_reqs, state.buyer_bonus, state.buyer_money = [], [], [], []
        for i, b in enumerate(buyers):
            where = f"buyers[{i}]"
            for key in ("id", "requirements", "bonus_tiles", "money"):
                if key not in b:
                    raise self.fail(f"{where}: missing field {key!r}")
            if not isinstance(b["id"], str) or b["id"] not in BUYER_IDS:
                raise self.fail(f"{where}: unknown buyer {b['id']!r}")
            reqs = decode_value(b["requirements"], list[str], f"{GAME_ID} state: {where}.requirements")
            bonus = decode_value(b["bonus_tiles"], list[str], f"{GAME_ID} state: {where}.bonus_tiles")
            for r in reqs:
                if r not in REQUIREMENT_IDS:
                    raise self.fail(f"{where}: unknown requirement tile {r!r}")
            for t in bonus:
                if t not in BONUS_IDS:
                    raise self.fail(f"{where}: unknown bonus tile {t!r}")
            state.buyers.append(BUYER_IDS[b["id"]])
            state.buyer_reqs.append([REQUIREMENT_IDS[r] for r in reqs])
            state.buyer_bonus.append([BONUS_IDS[t] for t in bonus])
            state.buyer_money.append(decode_value(b["money"], int, f"{GAME_ID} state: {where}.money"))
        if state.buyers != sorted(set(state.buyers)) or any(
            BUYERS[b].id != buyers[i]["id"] for i, b in enumerate(state.buyers)
        ):
            raise self.fail("buyers must be distinct, in catalogue order")
        state.featured = self.get("featured", str)
        if state.featured not in HUNTER_KINDS:
            raise self.fail(f"featured must be one of {', '.join(HUNTER_KINDS)}, got {state.featured!r}")
        state.gone = self.parts(self.get("out_of_game", list[str]), "out_of_game")
        state.gone_torsos = [self.torso(t, "out_of_game_torsos") for t in self.get("out_of_game_torsos", list[str])]
        state.boxed = self.parts(self.get("boxed", list[str]), "boxed")
        state.sales = [self.sale(x, f"sales[{i}]", n) for i, x in enumerate(self.get("sales", list[dict[str, Any]]))]
        turn = self.get("this_turn", dict[str, Any])
        try:
            state.acquired = decode_value(turn["part_taken"], bool, "this_turn.part_taken")
            state.junk_trades = decode_value(turn["junk_trades"], int, "this_turn.junk_trades")
            state.torso_done = decode_value(turn["torso_stack_used"], bool, "this_turn.torso_stack_used")
            state.picks = decode_value(turn["picks_left"], int, "this_turn.picks_left")
        except KeyError as exc:
            raise self.fail(f"this_turn: missing field {exc.args[0]!r}") from None
        except BadInput as exc:
            raise self.fail(str(exc)) from None
        state.offers = [
            self.offer(o, f"offers[{i}]", n) for i, o in enumerate(self.get("offers", list[dict[str, Any]]))
        ]
        offered = self.get("offered", list[tuple[int, int]])
        state.offered = [(a, b) for a, b in offered]
        state.next_offer = self.get("next_offer", int)
        if state.phase == PICK and state.picks <= 0:
            raise self.fail("phase 'pick' needs picks_left above 0")
        if state.phase == OVER and not state.end_reason:
            raise self.fail("a finished game needs its end_reason")
        problems = state.check_invariants()
        if problems:
            raise self.fail(problems[0])
        return state

    def sale(self, x: dict[str, Any], where: str, n: int) -> dict[str, Any]:
        """A robot sold, as the ``sold_robot`` event shows it (checked enough for views to draw it)."""
        try:
            seat = decode_value(x["seat"], int, where)
            buyer = decode_value(x["buyer"], str, where)
            layout = decode_value(x["layout"], list[list[Any]], where)
            batteries = decode_value(x["batteries"], list[str], where)
            magnets = decode_value(x["magnets"], list[str], where)
            paid = decode_value(x["paid"], dict[str, Any], where)
        except KeyError as exc:
            raise self.fail(f"{where}: missing field {exc.args[0]!r}") from None
        if seat not in range(n):
            raise self.fail(f"{where}: seat must be 0 to {n - 1}, got {seat}")
        if buyer not in BUYER_IDS:
            raise self.fail(f"{where}: unknown buyer {buyer!r}")
        for item in layout:
            if not item or not isinstance(item[0], str) or (item[0] not in PART_IDS and item[0] not in TORSO_IDS):
                raise self.fail(f"{where}: layout entries start with a part or torso id, got {item!r}")
        for name in batteries + magnets:
            self.part(name, where)
        return {
            "seat": seat,
            "buyer": buyer,
            "layout": layout,
            "batteries": batteries,
            "magnets": magnets,
            "paid": paid,
        }

    def offer(self, o: dict[str, Any], where: str, n: int) -> Any:
        try:
            number = decode_value(o["offer"], int, where)
            frm = decode_value(o["from"], int, where)
            to = decode_value(o["to"], int, where)
            give = decode_value(o["give"], list[str], where)
            take = decode_value(o["take"], list[str], where)
            give_money = decode_value(o["give_money"], int, where)
            take_money = decode_value(o["take_money"], int, where)
        except KeyError as exc:
            raise self.fail(f"{where}: missing field {exc.args[0]!r}") from None
        if frm not in range(n) or to not in range(n) or frm == to:
            raise self.fail(f"{where}: 'from' and 'to' must be two different seats")

        def side(names: list[str]) -> tuple[tuple[int, ...], int]:
            torsos = [self.torso(x, where) for x in names if x in TORSO_IDS]
            parts = [self.part(x, where) for x in names if x not in TORSO_IDS]
            if len(torsos) > 1:
                raise self.fail(f"{where}: at most one torso per side")
            return tuple(sorted(parts)), (torsos[0] if torsos else -1)

        g, gt = side(give)
        t, tt = side(take)
        return (number, frm, to, g, gt, t, tt, give_money, take_money)


GAME = RobotsOnTheLine()
RotlState.game = GAME
