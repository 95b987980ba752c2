"""A state as JSON and back (``state.to_json``, ``GAME.state_from_json``): every field checked, the bad
one named; a state whose parts, torsos or money are not conserved, whose offers cannot be carried out or
whose switches break the rules is refused."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from robotable.core import BadInput, BadOptions, Game, Rng
from robotable.core.actions import decode_value

from .components import (
    BONUS_IDS,
    BONUS_TILES,
    BUYER_IDS,
    BUYERS,
    HUNTER_KINDS,
    LINES,
    MAINTENANCE,
    PART_IDS,
    REQUIREMENT_IDS,
    REQUIREMENTS,
    SECTIONS,
    SPACES,
    TORSO_IDS,
    TORSOS,
)
from .line import EMPTY, pid
from .phases import OVER, PHASES, PICK
from .torsos import tid
from .trade import NO_TORSO, OpenOffer
from .view import GAME_ID, lines_json, switches_json, this_turn_json

if TYPE_CHECKING:
    from .state import RotlState


def to_json(s: RotlState) -> dict[str, Any]:
    """The whole state, RNG included (see the rules page's "State" table)."""
    return {
        "game": GAME_ID,
        "num_players": s.num_players,
        "seed": s.seed,
        "options": dict(s.options),
        "rng": s.rng.to_json(),
        "phase": s.phase,
        "end_reason": s.end_reason,
        "turn": s.turn,
        "turn_number": s.turn_number,
        "lines": lines_json(s),
        "draw_piles": _part_ids(s.draw),
        "junk_piles": _part_ids(s.junk),
        "switches": switches_json(s),
        "maintenance": list(s.maint),
        "maintenance_discard": list(s.maint_discard),
        "torso_stack": [TORSOS[t].id for t in s.torso_pile],
        "hands": _part_ids(s.hands),
        "secret": _part_ids(s.secret),
        "torsos": [tid(t) for t in s.torso],
        "money": list(s.money),
        "bank": s.bank,
        "robots_sold": list(s.robots),
        "buyers": buyers_json(s),
        "featured": s.featured,
        "out_of_game": [pid(x) for x in s.gone],
        "out_of_game_torsos": [TORSOS[t].id for t in s.gone_torsos],
        "boxed": [pid(x) for x in s.boxed],
        "sales": list(s.sales),
        "this_turn": this_turn_json(s),
        "offers": [o.to_json() for o in s.offers],
        "offered": [list(pair) for pair in s.offered],
        "next_offer": s.next_offer,
    }


def _part_ids(groups: list[list[int]]) -> list[list[str]]:
    """Piles or hands of part ints as part ids."""
    return [[pid(x) for x in group] for group in groups]


def buyers_json(s: RotlState) -> list[dict[str, Any]]:
    """The buyers in play, slot by slot: id, requirement and bonus tiles, money left."""
    return [
        {
            "id": BUYERS[b].id,
            "requirements": [REQUIREMENTS[r].id for r in s.buyer_reqs[slot]],
            "bonus_tiles": [BONUS_TILES[t].id for t in s.buyer_bonus[slot]],
            "money": s.buyer_money[slot],
        }
        for slot, b in enumerate(s.buyers)
    ]


def from_json(game: Game, data: object) -> RotlState:
    """Read a state written by :func:`to_json`; :class:`BadInput` names the first bad field."""
    return StateReader(game, data).read()


class StateReader:
    """Reads a state's JSON field by field, naming the field in every error."""

    def __init__(self, game: Game, data: object) -> None:
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
        return PART_IDS[name]

    def parts(self, names: list[Any], where: str) -> list[int]:
        return [self.part(name, f"{where}[{i}]") for i, name in enumerate(names)]

    def torso(self, name: object, where: str) -> int:
        if name is None:
            return -1
        if not isinstance(name, str) or name not in TORSO_IDS:
            raise self.fail(f"{where}: unknown torso {name!r}")
        return TORSO_IDS[name]

    def per_seat(self, key: str, n: int, tp: Any) -> list[Any]:
        value: list[Any] = self.get(key, list[tp])
        if len(value) != n:
            raise self.fail(f"field {key!r} needs one entry per seat ({n}), got {len(value)}")
        return value

    def per_line(self, key: str, tp: Any) -> list[Any]:
        value: list[Any] = self.get(key, list[tp])
        if len(value) != LINES:
            raise self.fail(f"field {key!r} needs one entry per line ({LINES}), got {len(value)}")
        return value

    def read(self) -> RotlState:
        state = self.identity()
        self.table(state)
        self.players(state)
        self.buyers(state)
        self.turn(state)
        problems = state.check_invariants()
        if problems:
            raise self.fail(problems[0])
        return state

    def identity(self) -> RotlState:
        """The game, player count, seed, options and RNG."""
        if self.data.get("game", GAME_ID) != GAME_ID:
            raise self.fail(f"this is a state of {self.data.get('game')!r}")
        n = self.get("num_players", int)
        if not self.game.min_players <= n <= self.game.max_players:
            raise self.fail(f"num_players must be 2 to 4, got {n}")
        try:
            options = self.game.check_options(self.get("options", dict[str, Any]), n)
        except BadOptions as exc:
            raise self.fail(f"field 'options': {exc}") from None
        from .state import RotlState  # (the state module imports this one)

        state = RotlState(n, self.get("seed", int), options)
        state.rng = Rng.from_json(self.get("rng", int))
        state.phase = self.get("phase", str)
        if state.phase not in PHASES:
            raise self.fail(f"phase must be one of {', '.join(PHASES)}, got {state.phase!r}")
        state.end_reason = self.get("end_reason", str)
        state.turn = self.get("turn", int)
        state.turn_number = self.get("turn_number", int)
        return state

    def table(self, state: RotlState) -> None:
        """The lines, piles, switches, maintenance tiles and torso stack."""
        for i, line in enumerate(self.per_line("lines", list[Any])):
            if len(line) != SPACES:
                raise self.fail(f"lines[{i}] needs {SPACES} spaces, got {len(line)}")
            state.lines[i] = [EMPTY if x is None else self.part(x, f"lines[{i}]") for x in line]
        state.draw = [self.parts(p, f"draw_piles[{i}]") for i, p in enumerate(self.per_line("draw_piles", list[str]))]
        state.junk = [self.parts(p, f"junk_piles[{i}]") for i, p in enumerate(self.per_line("junk_piles", list[str]))]
        state.switches = self.switches()
        state.maint = self.get("maintenance", list[str])
        state.maint_discard = self.get("maintenance_discard", list[str])
        for kind in state.maint + state.maint_discard:
            if kind not in MAINTENANCE:
                raise self.fail(f"unknown maintenance tile {kind!r}")
        state.torso_pile = [self.torso(t, "torso_stack") for t in self.get("torso_stack", list[str])]

    def switches(self) -> list[list[bool]]:
        """Each line's switches, section by section (True: on)."""
        switches = self.per_line("switches", list[str])
        for i, line in enumerate(switches):
            if len(line) != len(SECTIONS) or any(s not in ("on", "off") for s in line):
                raise self.fail(f"switches[{i}] must be {len(SECTIONS)} of 'on' or 'off', got {line!r}")
        return [[s == "on" for s in line] for line in switches]

    def players(self, state: RotlState) -> None:
        """Hands, unseen parts, torsos, money, the bank and robots sold."""
        n = state.num_players
        state.hands = [sorted(self.parts(h, f"hands[{s}]")) for s, h in enumerate(self.per_seat("hands", n, list[str]))]
        state.secret = [
            sorted(self.parts(h, f"secret[{s}]")) for s, h in enumerate(self.per_seat("secret", n, list[str]))
        ]
        state.torso = [self.torso(t, f"torsos[{s}]") for s, t in enumerate(self.per_seat("torsos", n, Any))]
        state.money = self.per_seat("money", n, int)
        state.bank = self.get("bank", int)
        state.robots = self.per_seat("robots_sold", n, int)

    def buyers(self, state: RotlState) -> None:
        """The buyers in play, the Bargain Hunter, the parts out of the game and the sales."""
        buyers = self.get("buyers", list[dict[str, Any]])
        state.buyers, state.buyer_reqs, state.buyer_bonus, state.buyer_money = [], [], [], []
        for i, b in enumerate(buyers):
            self.buyer(state, b, f"buyers[{i}]")
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
        n = state.num_players
        state.sales = [self.sale(x, f"sales[{i}]", n) for i, x in enumerate(self.get("sales", list[dict[str, Any]]))]

    def buyer(self, state: RotlState, b: dict[str, Any], where: str) -> None:
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

    def turn(self, state: RotlState) -> None:
        """This turn's counts and the offers."""
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
        n = state.num_players
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

    def offer(self, o: dict[str, Any], where: str, n: int) -> OpenOffer:
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
            return tuple(sorted(parts)), (torsos[0] if torsos else NO_TORSO)

        g, gt = side(give)
        t, tt = side(take)
        return OpenOffer(number, frm, to, g, gt, t, tt, give_money, take_money)
