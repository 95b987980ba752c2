"""Per-game knowledge for agents: a heuristic policy on the seat's view, and for search a cheap rollout
policy and a position evaluator on (determinized) states.

A game declares its module (here, by convention) with its ``"heuristics"`` hook in ``Game.hooks``; the
module may define:

- ``choose(decision, rng) -> Action``: the heuristic agent's move, from the view and the legal actions;
- ``choose_optional(decision, rng) -> Action | None``: its move as a seat the game does not wait for
  (``State.optional_actors``), or ``None`` to pass;
- ``rollout(state, seat, legal, rng) -> Action``: a fast policy for search rollouts;
- ``evaluate(state) -> list[float]``: each seat's expected reward in [0, 1] from here (for rollouts that
  stop early);
- ``model(state, seat, legal, rng) -> Action``: the heuristic read off a (determinized) state, how search
  expects other seats to play (and, with ``model_rollouts``, how its rollouts play);
- ``prune(state, seat, legal) -> list[Action]``: the legal actions search considers (default: all);
- ``LEVELS``: this game's search budgets per difficulty (see ``robotable.ai.ismcts.LEVELS``).
"""

from __future__ import annotations

from types import ModuleType

from robotable.core import BadInput, RobotableError, load


def for_game(game_id: str) -> ModuleType | None:
    """The heuristics module a game declares, or ``None`` if it has none (or the game is unknown)."""
    try:
        module = load(game_id).hook("heuristics")
    except RobotableError:
        return None
    return module if isinstance(module, ModuleType) else None


def require(game_id: str) -> ModuleType:
    """The heuristics module of a game; :class:`BadInput` if there is none yet."""
    module = for_game(game_id)
    if module is None or not hasattr(module, "choose"):
        raise BadInput(f"no heuristic agent for {game_id!r} yet")
    return module
