"""Multiplayer search counts every opponent: each seat is searched as playing for its own result (max^n),
not as one coalition against the searching seat (paranoid).

A tiny 3-player game of perfect information, built here as a game tree: seat 0 chooses *ahead* or
*safe*. After *ahead*, seat 1 chooses between finishing first itself (seat 0 second) and a spiteful
line that drops seat 0 to last but costs seat 1 its win. After *safe*, seat 2 chooses and seat 0 ends
tied for second whatever it does. A paranoid search assumes the spite (it is the worst case for seat 0)
and plays *safe*; max^n expects seat 1 to take its win and plays *ahead*, which is right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from robotable.ai import ISMCTSAgent
from robotable.ai.ismcts import rank_rewards
from robotable.core import Action, Event, Game, Result, Rng, State

#: A node is (seat to choose, {choice: child}); a leaf is the seats' final scores.
Tree = Any
AHEAD, SAFE = 0, 1
TREE: Tree = (
    0,
    {
        AHEAD: (1, {0: (5, 9, 1), 1: (1, 5, 9)}),  # seat 1 wins with 0; with 1 it spites seat 0 (and comes 2nd)
        SAFE: (2, {0: (3, 3, 9), 1: (3, 9, 3)}),  # seat 0 ties one seat and trails the other either way
    },
)


@dataclass(frozen=True, slots=True)
class Pick(Action):
    type: ClassVar[str] = "pick"
    choice: int


class TreeGame(Game):
    id = "maxn-test-tree"
    name = "A game tree"
    min_players = max_players = 3
    action_types = (Pick,)

    def __init__(self, tree: Tree) -> None:
        super().__init__()
        self.tree = tree

    def new_state(self, num_players: int, seed: int, options: dict[str, Any]) -> State:
        return TreeState(self, self.tree, seed)

    def state_from_json(self, data: object) -> State:
        raise NotImplementedError


class TreeState(State):
    num_players = 3

    def __init__(self, game: TreeGame, node: Tree, seed: int = 0) -> None:
        self.game = game  # type: ignore[misc]  (one game object per tree)
        self.node, self.seed, self.options, self.rng = node, seed, {}, Rng(seed)

    def _leaf(self) -> bool:
        return len(self.node) == 3 and all(isinstance(x, int) for x in self.node)

    def to_act(self) -> list[int]:
        return [] if self._leaf() else [self.node[0]]

    def legal_actions(self, player: int) -> list[Action]:
        return [Pick(c) for c in self.node[1]] if player in self.to_act() else []

    def apply_legal(self, player: int, action: Action) -> list[Event]:
        self.node = self.node[1][action.choice]  # type: ignore[attr-defined]
        return [Event("picked", {"seat": player, "choice": action.choice})]  # type: ignore[attr-defined]

    def view(self, player: int | None) -> dict[str, Any]:
        return {"node": repr(self.node)}

    def is_over(self) -> bool:
        return self._leaf()

    def result(self) -> Result:
        return Result.from_keys(self.node, [(s,) for s in self.node], "the tree's end")

    def clone(self) -> State:
        return TreeState(self.game, self.node, self.seed)  # type: ignore[arg-type]

    def to_json(self) -> dict[str, Any]:
        return {"node": repr(self.node)}

    def determinize(self, player: int, rng: Rng) -> State:
        return self.clone()  # perfect information


def rewards_at(leaf: tuple[int, ...]) -> list[float]:
    state = TreeState(TreeGame(leaf), leaf)
    return rank_rewards(state)


def maxn(node: Tree) -> list[float]:
    """Every seat plays for its own reward."""
    if isinstance(node[1], dict):
        seat, children = node
        return max((maxn(child) for child in children.values()), key=lambda r: r[seat])
    return rewards_at(node)


def paranoid(node: Tree, me: int) -> float:
    """``me`` maximises its reward; every other seat minimises it, as one opponent."""
    if isinstance(node[1], dict):
        seat, children = node
        values = [paranoid(child, me) for child in children.values()]
        return max(values) if seat == me else min(values)
    return rewards_at(node)[me]


def best_root(choose: Any) -> int:
    _seat, children = TREE
    return max(children, key=lambda c: choose(children[c]))


class ParanoidSearch(ISMCTSAgent):
    """The same search with a paranoid backup: the other seats' edges get 1 - the searching seat's reward."""

    def _iterate(self, state, roots, me, allowed=None, guided=None):  # type: ignore[no-untyped-def]
        self._me = me
        super()._iterate(state, roots, me, allowed, guided)

    def _finish(self, state):  # type: ignore[no-untyped-def]
        mine = super()._finish(state)[self._me]
        return [mine if seat == self._me else 1.0 - mine for seat in range(state.num_players)]


def test_the_tree_separates_max_n_from_paranoid():
    assert best_root(lambda node: maxn(node)[0]) == AHEAD
    assert best_root(lambda node: paranoid(node, 0)) == SAFE


@pytest.mark.parametrize("seed", range(5))
def test_search_plays_the_max_n_choice_and_a_paranoid_backup_would_not(seed):
    state = TreeGame(TREE).start(3, seed=seed)
    agent = ISMCTSAgent(seed=seed, iterations=400)
    assert agent.act(state, 0) == Pick(AHEAD)
    assert ParanoidSearch(seed=seed, iterations=400).act(state, 0) == Pick(SAFE)  # the test can tell


def test_each_seat_learns_its_own_reward_in_its_own_tree():
    """After the search, seat 1's edges in its tree hold seat 1's rewards (winning is worth 1, the
    spiteful line 0.5), so seat 1's most visited choice is its own best, not the worst for seat 0."""
    state = TreeGame(TREE).start(3, seed=1)
    agent = ISMCTSAgent(seed=1, iterations=400)
    roots: dict = {}
    for _ in range(400):
        agent._bind(state.game.id)
        agent._iterate(state.clone(), roots, 0)
    (after_ahead,) = [n for obs, n in roots[1].observed.items() if "'choice': 0" in repr(obs)]
    edges = after_ahead.actions
    win, spite = edges[Pick(0)], edges[Pick(1)]
    assert win.total / win.visits == pytest.approx(1.0) and spite.total / spite.visits == pytest.approx(0.5)
    assert win.visits > spite.visits
