"""The golden record digests: the first seeds of every stored (game, player count) still replay exactly.

The whole set (1000 games per game and player count) is checked by ``python -m robotable.core.golden
check``; this test checks a fast subset so ``make test`` catches a rules change nobody declared.
"""

from __future__ import annotations

import json

import pytest

from robotable.core import golden, registry

SUBSET = 30


def player_counts(game_id: str) -> range:
    game = registry.load(game_id)
    return range(game.min_players, game.max_players + 1)


@pytest.mark.parametrize("game_id", registry.available())
def test_every_player_count_has_its_golden_digests(game_id):
    stored = golden.load(game_id)
    assert sorted(stored, key=int) == [str(n) for n in player_counts(game_id)]
    assert all(len(digests) == golden.GAMES for digests in stored.values())


# one test per game and player count, so parallel test workers share the replays
@pytest.mark.parametrize(("game_id", "players"), [(g, n) for g in registry.available() for n in player_counts(g)])
def test_golden_digests_of_the_first_seeds_are_unchanged(game_id, players):
    expected = golden.load(game_id)[str(players)][:SUBSET]
    computed = golden.compute(game_id, [players], range(SUBSET))[str(players)]
    assert len(expected) == SUBSET and computed == expected  # each seed's "moves:states" digest


def test_a_changed_digest_is_reported_with_its_game_players_and_seed(tmp_path):
    golden.write("tf22-reload", games=2, directory=tmp_path)
    path = golden.path_of("tf22-reload", tmp_path)
    data = json.loads(path.read_text())
    moves, states = data["digests"]["3"][1].split(":")
    data["digests"]["3"][1] = f"{moves}:{'0' * len(states)}"
    path.write_text(json.dumps(data))
    assert golden.mismatches("tf22-reload", directory=tmp_path) == [
        f"tf22-reload players=3 seed=1: states only differ ({moves}:{'0' * len(states)} -> {moves}:{states})"
    ]
    assert golden.main(["check", "--game", "tf22-reload", "--dir", str(tmp_path)]) == 1
