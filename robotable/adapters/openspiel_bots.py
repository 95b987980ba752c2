"""The project's agents as OpenSpiel bots: ISMCTS levels (and the heuristic) for OpenSpiel's own tools.

:class:`RobotableBot` is a ``pyspiel.Bot`` for one player of a Robotable game loaded through
:mod:`robotable.adapters.openspiel` (any game, any form: simultaneous, the sequential form, with chance
draws), playing an agent spec of the project: ``ismcts:easy|medium|hard`` (the levels of docs/ai.md),
``heuristic`` or ``random``. It chooses from what its player may know, exactly as in the arena: the
agent sees the seat's view and legal actions, and the search samples the hidden rest (``determinize``),
never the true state. So it plays in OpenSpiel's evaluation loop next to OpenSpiel's bots:

>>> import numpy as np, pyspiel
>>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
>>> from robotable.adapters import openspiel
>>> game = openspiel.load_game("tf22-reload", players=2)
>>> bots = [level_bot(game, 0, "easy", seed=1), pyspiel.make_uniform_random_bot(1, 2)]
>>> returns = evaluate_bots(openspiel.seeded_state(game, 7), bots, np.random.RandomState(3))
>>> sum(returns)
1.0

Search levels think by ``budget="iterations"`` by default (the level's iteration count: the same seed
plays the same moves on any machine); ``budget="time"`` thinks as the server's bots do (the level's CPU
seconds per decision). Bad input (a game that is not a Robotable game, a player out of range, an unknown
spec, a state where the bot's player has nothing to choose) raises :class:`robotable.BadInput` naming
the problem.
"""

from __future__ import annotations

import pyspiel

from robotable.ai import make_agent
from robotable.core import BadInput

from .openspiel import RobotableSpielGame


class RobotableBot(pyspiel.Bot):
    """A Robotable agent (``ismcts:LEVEL``, ``heuristic``, ``random``) as the OpenSpiel bot of one player."""

    def __init__(
        self,
        game: pyspiel.Game,
        player_id: int,
        spec: str = "ismcts:medium",
        seed: int | None = None,
        budget: str = "iterations",
    ) -> None:
        pyspiel.Bot.__init__(self)
        if not isinstance(game, RobotableSpielGame):
            raise BadInput(f"RobotableBot plays Robotable games (robotable.adapters.openspiel), got {game}")
        players = game.num_players()
        if not isinstance(player_id, int) or isinstance(player_id, bool) or not 0 <= player_id < players:
            raise BadInput(f"player_id must be 0 to {players - 1}, got {player_id!r}")
        self._game = game.robotable
        self._player_id = player_id
        self.spec = spec
        self._agent = make_agent(spec, seed=seed, budget=budget)  # an unknown spec raises BadInput

    def player_id(self) -> int:
        return self._player_id

    def restart_at(self, state: pyspiel.State) -> None:
        """Nothing to do: the agents keep nothing between decisions (each search starts from the view)."""

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Nothing to do: the next decision reads the seat's view of the new state."""

    def provides_policy(self) -> bool:
        return False

    def step(self, state: pyspiel.State) -> int:
        """The action index this bot's player plays in ``state`` (a decision of that player)."""
        engine = getattr(state, "robotable_state", None)
        if engine is None or state.is_terminal() or state.is_chance_node():
            raise BadInput(f"{self.spec} bot of player {self._player_id}: not a decision node of this player")
        if not state.legal_actions(self._player_id):
            raise BadInput(f"{self.spec} bot of player {self._player_id}: the player has no legal action here")
        return self._game.action_index(self._agent.act(engine, self._player_id))


def level_bot(
    game: pyspiel.Game, player_id: int, level: str = "medium", seed: int | None = None, budget: str = "iterations"
) -> RobotableBot:
    """The ISMCTS level ``level`` (``easy``, ``medium``, ``hard``) as the OpenSpiel bot of ``player_id``."""
    return RobotableBot(game, player_id, f"ismcts:{level}", seed=seed, budget=budget)


__all__ = ["RobotableBot", "level_bot"]
