"""Robots on the Line as a Robotable game: options, setup, and loading actions and states from JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from robotable.core import Action, ActionEncoding, BadInput, BadOptions, Game, Option, reason
from robotable.core.errors import Message
from robotable.core.options import check_options

from . import serialize
from .actions import ACTION_TYPES, NUM_ACTIONS, action_from_index, action_index, malformed
from .chance import DEAL, DRAWS
from .components import MAINTENANCE
from .observation import OBSERVATION
from .setup import setup
from .state import RotlState
from .structured import STRUCTURED
from .view import GAME_ID

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
    # the stable integer encoding of .actions, the same for every player count and option: a sale, an
    # offer and an answer are indexed by kind and target, standing for the one such action legal_actions
    # lists (they decode through a state's legal actions)
    action_encoding = ActionEncoding(NUM_ACTIONS, action_index, action_from_index)
    observation_encoder = OBSERVATION  # feature planes for the research adapters (observation.py)
    chance_draws = DRAWS  # the hidden draw piles and maintenance stack, as chance nodes (chance.py)
    chance_deal = DEAL  # the junk, the seats' parts and the lines' parts, as draws (chance.py)
    structured_actions = STRUCTURED  # offers as sub-decisions, for the research adapters (structured.py)
    option_sets = (
        {},
        {"three_new_tiles": True, "on_off_variant": True},
        {"family": True},
        {"line_resets": 1, "switch_flips": 0},
    )
    # any robot layout, any trade offer; any space of a magnet unit takes the whole unit
    free_form_actions = frozenset({"sell_robot", "offer", "take_part"})
    # Undo (docs/server.md "Undo"): taking a part, switch flips and junk searches may be taken back until
    # the turn ends; never a move that showed something hidden: a part drawn onto a line (drawn), a
    # maintenance tile (maintenance, line_cleared), the torso stack's order or its next top
    # (torso_stack_seen, took_torso), a hand's part others may not have seen (traded_junk, sold_part,
    # sold_robot, accepted, and an offer, which shows the parts it names), nor the end of the turn
    # (line_advanced, turn, game_over). Barriers are event types, so a junk trade is never undone, even
    # of a part everyone has seen.
    undo_barriers = frozenset(
        {
            "drawn",
            "maintenance",
            "line_cleared",
            "torso_stack_seen",
            "took_torso",
            "traded_junk",
            "sold_part",
            "sold_robot",
            "buyer_done",
            "offer",
            "accepted",
            "line_advanced",
            "turn",
            "game_over",
        }
    )
    hooks = {
        "evaluate": "robotable.games.robots_on_the_line:evaluate",
        "heuristics": "robotable.ai.heuristics.robots_on_the_line",
        "terminal": "robotable.terminal.robots_on_the_line",
        "web_data": "robotable.games.robots_on_the_line",
        "tutorial": "robotable.games.robots_on_the_line.tutorial",
    }

    def check_options(self, options: Mapping[str, Any] | None, num_players: int) -> dict[str, Any]:
        checked = check_options(self.id, self.options, options)
        if checked["family"]:
            if checked["on_off_variant"]:
                raise BadOptions(
                    reason(
                        "refusals.options.family_on_off",
                        "{game}: family mode keeps every switch ON; the ON/OFF variant does not apply",
                        game=Message(self.id, "name"),
                    ),
                    game=self.id,
                )
            defaults = {o.name: o.default for o in self.options}
            if any(checked[k] != defaults[k] for k in ("line_resets", "switch_flips")):
                raise BadOptions(
                    reason(
                        "refusals.options.family_maintenance",
                        "{game}: family mode has no maintenance tiles; do not set their counts",
                        game=Message(self.id, "name"),
                    ),
                    game=self.id,
                )
        return checked

    def new_state(self, num_players: int, seed: int, options: dict[str, Any]) -> RotlState:
        state = RotlState(num_players, seed, options)
        setup(state)
        return state

    def action_from_json(self, data: object) -> Action:
        """Build an action; unknown tiles, buyers, lines or spaces raise :class:`BadInput` naming them."""
        action = super().action_from_json(data)
        problem = malformed(action)
        if problem:
            raise BadInput(
                reason(
                    "refusals.malformed_input",
                    "{game} action {type}: {problem}",
                    game=Message(self.id, "name"),
                    type=repr(action.type),
                    problem=problem,
                ),
                game=self.id,
            )
        return action

    def state_from_json(self, data: object) -> RotlState:
        """Load a state written by ``to_json`` (see docs/games/robots-on-the-line.md)."""
        return serialize.from_json(self, data)


GAME = RobotsOnTheLine()
RotlState.game = GAME
