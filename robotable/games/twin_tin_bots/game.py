"""Twin Tin Bots as a Robotable game: options (variants), setup, and loading states from JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from robotable.core import ActionEncoding, BadOptions, Game, Option, check_options, reason
from robotable.core.errors import Message

from . import serialize
from .actions import ACTION_TYPES, ACTIONS, action_from_index, action_index
from .chance import DEAL, DRAWS
from .components import TOKEN_LIMITS
from .cutoff import CUTOFF
from .observation import OBSERVATION
from .serialize import parse_hex
from .setup import setup
from .state import GAME_ID, TtbState


def _token_check(name: str) -> Any:
    limit = TOKEN_LIMITS[name]
    pairs = name == "teleporters"
    where = f"{GAME_ID}: option {name!r}"
    shape = "a list of pairs of hexes [[[q, r], [q, r]], ...]" if pairs else "a list of hexes [[q, r], ...]"

    def check(value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            if not 0 <= value <= limit:
                raise BadOptions(
                    reason(
                        "refusals.options.token_count",
                        "{game}: option {option}: a number from 0 to {limit}, got {value}",
                        game=Message(GAME_ID, "name"),
                        option=Message(repr(name), f"options.{name}.label"),
                        limit=limit,
                        value=value,
                    ),
                    game=GAME_ID,
                )
            return value
        if not isinstance(value, list | tuple):
            raise BadOptions(f"{where}: a number (0 to {limit}, placed at random) or {shape}, got {value!r}")
        if len(value) > limit:
            raise BadOptions(f"{where}: at most {limit}, got {len(value)}")
        if pairs:
            out = []
            for i, pair in enumerate(value):
                if not isinstance(pair, list | tuple) or len(pair) != 2:
                    raise BadOptions(f"{where}[{i}]: a pair of hexes [[q, r], [q, r]], got {pair!r}")
                out.append([list(parse_hex(h, f"{where}[{i}]", BadOptions)) for h in pair])
            return out
        return [list(parse_hex(h, f"{where}[{i}]", BadOptions)) for i, h in enumerate(value)]

    return check


class TwinTinBots(Game):
    """Twin Tin Bots for 2 to 6 players, every variant of the rulebook as an option.

    >>> state = GAME.start(num_players=4, seed=1)
    >>> [c["colour"] for c in state.view(None)["colours"]]     # clockwise from the top
    ['blue', 'yellow', 'red', 'green']
    >>> len(state.legal_actions(state.to_act()[0]))    # first turn: 7 Orders and 1 Special on 6 slots
    48
    """

    id = GAME_ID
    observation_encoder = OBSERVATION  # feature planes for the research adapters (observation.py)
    chance_draws = DRAWS  # the hidden Special Order stack, as chance nodes for research (chance.py)
    chance_deal = DEAL  # each colour's first Special Order, as draws (chance.py)
    round_limit = CUTOFF  # research adapters' max_rounds: a scored stop after N rounds (cutoff.py)
    name = "Twin Tin Bots"
    min_players = 2
    max_players = 6
    option_sets = (
        {},
        {"simplified": True, "teleporters": 1, "rocks": 1, "blobs": 1, "mud": 2},
        {"team_play": True},
        {"advanced_2p": True, "mud": 1},
    )
    free_form_actions = frozenset({"swap"})  # Swap(a, b) is also accepted as Swap(b, a)
    # Program changes stay undoable until the robots run (every run begins with ``run``); a decision
    # during a run, a crystal entering, a Special Order drawn and the next turn are never undone.
    undo_barriers = frozenset(
        {
            "run",
            "zap_order",
            "blob_moved",
            "blob_left",
            "crystal_choice",
            "crystal_enters",
            "draw_special",
            "special_drawn",
            "end_phase",
            "countdown",
            "turn_start",
            "game_over",
        }
    )
    hooks = {
        "preview": "robotable.games.twin_tin_bots:preview",
        "heuristics": "robotable.ai.heuristics.twin_tin_bots",
        "terminal": "robotable.terminal.twin_tin_bots",
        "web_data": "robotable.games.twin_tin_bots",
        "tutorial": "robotable.games.twin_tin_bots.tutorial",
    }
    options = (
        Option("simplified", False, "Simplified rules: one robot per colour and no Special Orders"),
        Option(
            "teleporters",
            0,
            "Teleporters: 0-3 pairs placed at random, or a list of pairs of hexes [[[q, r], [q, r]], ...]",
            check=_token_check("teleporters"),
        ),
        Option(
            "rocks", 0, "Rocks: 0-3 placed at random, or a list of hexes [[q, r], ...]", check=_token_check("rocks")
        ),
        Option(
            "blobs", 0, "Blobs: 0-3 placed at random, or a list of hexes [[q, r], ...]", check=_token_check("blobs")
        ),
        Option("mud", 0, "Mud: 0-3 placed at random, or a list of hexes [[q, r], ...]", check=_token_check("mud")),
        Option("advanced_2p", False, "Advanced 2-player variant: each player plays two colours on the 4-player board"),
        Option("team_play", False, "Team play: two teams, team totals, no score victory"),
    )
    action_types = ACTION_TYPES
    # the stable integer encoding of .actions, the same for every player count and option
    action_encoding = ActionEncoding(len(ACTIONS), action_index, action_from_index)

    def check_options(self, options: Mapping[str, Any] | None, num_players: int) -> dict[str, Any]:
        opts = check_options(self.id, self.options, options)
        if opts["advanced_2p"] and num_players != 2:
            raise BadOptions(
                reason(
                    "refusals.options.advanced_2p_players",
                    "{game}: the Advanced 2-player variant is for 2 players, not {players}",
                    game=Message(GAME_ID, "name"),
                    players=num_players,
                ),
                game=GAME_ID,
            )
        if opts["advanced_2p"] and opts["team_play"]:
            raise BadOptions(
                reason(
                    "refusals.options.advanced_and_teams",
                    "{game}: advanced_2p and team_play cannot be combined",
                    game=Message(GAME_ID, "name"),
                ),
                game=GAME_ID,
            )
        return opts

    def new_state(self, num_players: int, seed: int, options: dict[str, Any]) -> TtbState:
        state = TtbState(num_players, seed, options)
        setup(state)
        return state

    def state_from_json(self, data: object) -> TtbState:
        """Load a state written by ``to_json`` or by hand (see docs/games/twin-tin-bots.md)."""
        return serialize.read(self, data)


GAME = TwinTinBots()

TtbState.game = GAME
