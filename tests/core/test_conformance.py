"""The conformance suite over every registered game, player count and declared option set, and proof
that it catches a broken game (a leaking view, a shallow clone, an engine that trusts its input, a
determinize that peeks, a JSON reader that fills in missing fields).

A new game gets all of this by registering: the cases below are built from ``registry.available()``.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotable.core import BadInput, registry
from robotable.core.testing import ConformanceError, check_game, option_sets

# Twin Tin Bots games are long (thousands of random actions): its deep checks are sparser.
SPARSE = {"twin-tin-bots": 200}
# Games whose state reader still fills in missing fields; each leaves this set when it adopts
# robotable.core.state_json (the suite then also checks that a missing field is refused).
FILLS_MISSING_FIELDS: set[str] = set()


def cases() -> list[tuple[str, int, dict[str, object]]]:
    """Every game at every player count with its default options, and each other declared option set at
    the fewest and the most seats that accept it (one random game each)."""
    out = []
    for game_id in registry.available():
        game = registry.load(game_id)
        counts = range(game.min_players, game.max_players + 1)
        for n in counts:
            for options in option_sets(game, n):
                accepted = [m for m in counts if options in option_sets(game, m)]
                if not options or n in (accepted[0], accepted[-1]):
                    out.append((game_id, n, options))
    return out


@pytest.mark.parametrize(("game_id", "players", "options"), cases(), ids=str)
def test_every_game_player_count_and_option_set_keeps_the_contract(game_id, players, options):
    summary = check_game(
        game_id,
        players,
        options,
        seeds=[players],
        dense_steps=25,
        every=SPARSE.get(game_id, 40),
        missing_fields=game_id not in FILLS_MISSING_FIELDS,
    )
    assert summary.games == 1 and summary.ended == [True]
    assert summary.checked_steps >= 20 and summary.refusals > 100


def test_every_game_declares_option_sets_that_it_accepts():
    for game_id in registry.available():
        game = registry.load(game_id)
        assert game.option_sets and {} in [dict(o) for o in game.option_sets]
        for options in game.option_sets:
            assert any(option_sets(game, n) for n in range(game.min_players, game.max_players + 1)), options


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None)
@given(game_id=st.sampled_from(registry.available()), data=JSONISH, kind=st.integers(0, 50))
def test_malformed_action_json_is_refused_naming_the_game_or_reads_back_exactly(game_id, data, kind):
    game = registry.load(game_id)
    if isinstance(data, dict) and kind < len(game.action_types):
        data = {**data, "type": game.action_types[kind].type}
    try:
        action = game.action_from_json(data)
    except BadInput as exc:
        assert f"{game_id} action" in str(exc)
    else:
        assert game.action_from_json(action.to_json()) == action


@settings(max_examples=100, deadline=None)
@given(game_id=st.sampled_from(registry.available()), data=JSONISH)
def test_malformed_state_json_is_refused(game_id, data):
    with pytest.raises(BadInput):
        registry.load(game_id).state_from_json(data)


# -- the suite fails on a broken game ----------------------------------------------------------------


def broken(monkeypatch, game_id: str, method: str, replacement) -> None:
    state_class = type(registry.load(game_id).start(2, seed=0))
    monkeypatch.setattr(state_class, method, replacement)


def test_a_view_that_shows_another_seats_hidden_parts_fails(monkeypatch):
    game = registry.load("robots-on-the-line")
    honest = type(game.start(2, seed=0)).view

    def leaky_view(self, player):
        view = honest(self, player)
        view["everyone_dealt"] = [sorted(s) for s in self.secret]
        return view

    broken(monkeypatch, "robots-on-the-line", "view", leaky_view)
    with pytest.raises(ConformanceError, match=r"determinize\(\d\) changed what seat \d sees"):
        check_game(game, 2, seeds=[0], dense_steps=3)


def test_a_spectator_view_that_shows_the_stack_fails(monkeypatch):
    game = registry.load("tf22-reload")
    honest = type(game.start(2, seed=0)).view

    def leaky_view(self, player):
        return {**honest(self, player), "next_cards": list(self.deck[-2:])}

    broken(monkeypatch, "tf22-reload", "view", leaky_view)
    with pytest.raises(ConformanceError, match="view"):
        check_game(game, 2, seeds=[0], dense_steps=3)


def test_a_shallow_clone_fails(monkeypatch):
    broken(monkeypatch, "tf22-reload", "clone", lambda self: copy.copy(self))
    with pytest.raises(ConformanceError, match="clone"):
        check_game("tf22-reload", 2, seeds=[0], dense_steps=3)


def test_an_engine_that_trusts_any_action_fails(monkeypatch):
    broken(monkeypatch, "tf22-reload", "is_legal", lambda self, player, action: True)
    with pytest.raises(ConformanceError, match="was accepted"):
        check_game("tf22-reload", 2, seeds=[0], dense_steps=3)


def test_a_determinize_that_keeps_the_hidden_stack_order_fails(monkeypatch):
    broken(monkeypatch, "tf22-reload", "determinize", lambda self, player, rng: self.clone())
    with pytest.raises(ConformanceError, match="depends on something seat"):
        check_game("tf22-reload", 2, seeds=[0], dense_steps=3)


def test_a_state_reader_that_fills_in_a_missing_field_fails(monkeypatch):
    game = registry.load("tf22-reload")
    honest = type(game).state_from_json

    def lenient(self, data):
        if isinstance(data, dict) and "winner" not in data:
            data = {**data, "winner": -1}
        return honest(self, data)

    monkeypatch.setattr(type(game), "state_from_json", lenient)
    with pytest.raises(ConformanceError, match="without its field 'winner'"):
        check_game(game, 2, seeds=[0], dense_steps=3)


def test_a_game_that_never_ends_fails(monkeypatch):
    broken(monkeypatch, "tf22-reload", "is_over", lambda self: False)
    with pytest.raises(ConformanceError):
        check_game("tf22-reload", 2, seeds=[0], dense_steps=1, cap=500)


def test_a_seat_listed_as_optional_that_is_also_to_act_fails(monkeypatch):
    broken(monkeypatch, "tf22-reload", "optional_actors", lambda self: list(self.to_act()))
    with pytest.raises(ConformanceError, match="optional_actors"):
        check_game("tf22-reload", 2, seeds=[0], dense_steps=3)


def test_legal_actions_for_a_seat_neither_to_act_nor_optional_fails(monkeypatch):
    game = registry.load("robots-on-the-line")  # its legal offers for seats not to act now break the contract
    broken(monkeypatch, "robots-on-the-line", "optional_actors", lambda self: [])
    with pytest.raises(ConformanceError, match="neither to act nor optional"):
        check_game(game, 2, seeds=[0], dense_steps=3)
