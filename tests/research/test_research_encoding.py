"""The stable integer action encoding of the game contract (TF22: RELOAD!, Twin Tin Bots)."""

from __future__ import annotations

import pytest

from robotable import games
from robotable.core import BadInput, Rng
from robotable.games.tf22_reload import Colour, PlayCard, RBuy
from robotable.games.twin_tin_bots import Pass

ENCODED = ["tf22-reload", "twin-tin-bots"]


@pytest.mark.parametrize("game_id", ENCODED)
def test_research_encoding_is_a_bijection(game_id: str) -> None:
    game = games.load(game_id)
    assert game.has_action_encoding()
    n = game.num_distinct_actions(game.min_players, {})
    actions = [game.action_from_index(i) for i in range(n)]
    assert len(set(actions)) == n
    assert [game.action_index(a) for a in actions] == list(range(n))
    for a in actions:  # and through JSON
        assert game.action_index(game.action_from_json(a.to_json())) == game.action_index(a)


@pytest.mark.parametrize("game_id", ENCODED)
def test_research_every_legal_action_has_an_index(game_id: str) -> None:
    game = games.load(game_id)
    for players in range(game.min_players, game.max_players + 1):
        n = game.num_distinct_actions(players, {})
        state = game.start(players, seed=players)
        rng = Rng(players)
        for _ in range(400):
            if state.is_over():
                break
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            indices = [game.action_index(a) for a in legal]
            assert all(0 <= i < n for i in indices)
            assert len(set(indices)) == len(indices)
            assert all(game.action_from_index(i) == a for i, a in zip(indices, legal))
            state.apply_legal(seat, legal[rng.randrange(len(legal))])


def test_research_encoding_known_values() -> None:
    tf22 = games.load("tf22-reload")
    assert tf22.action_index(PlayCard(1)) == 0
    assert tf22.action_from_index(tf22.action_index(RBuy(Colour.RED, 2))) == RBuy(Colour.RED, 2)
    assert games.load("twin-tin-bots").action_index(Pass()) == 0


@pytest.mark.parametrize("game_id", ENCODED)
@pytest.mark.parametrize("bad", [-1, 10_000, "3", True, 1.5])
def test_research_bad_index_is_a_clear_error(game_id: str, bad: object) -> None:
    with pytest.raises(BadInput, match="action index must be"):
        games.load(game_id).action_from_index(bad)  # type: ignore[arg-type]


def test_research_action_without_index_is_a_clear_error() -> None:
    with pytest.raises(BadInput, match="no integer encoding"):
        games.load("tf22-reload").action_index(PlayCard(9))
