"""Every sentence the terminal prints for a move or an event is filled in: no ``{{placeholder}}`` is left
(the terminal once passed ``from``/``to`` where TF22's catalogue says ``from_slot``/``to_slot``)."""

from __future__ import annotations

import pytest

from robotable import games
from robotable.core.rng import Rng


@pytest.mark.parametrize("game_id", sorted(games.available()))
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_move_or_event_sentence_keeps_a_placeholder(game_id: str, lang: str) -> None:
    game = games.load(game_id)
    module = game.hook("terminal")  # the module the game declares for its terminal renderer
    assert module is not None, f"{game_id} declares no terminal renderer"
    seen_kinds: set[str] = set()
    for seed in range(3):
        num_players = game.min_players + seed % (game.max_players - game.min_players + 1)
        state = game.start(num_players, seed=seed)
        rng = Rng(seed)
        for _ in range(400):
            if state.is_over():
                break
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            for action in legal:
                data = action.to_json()
                label = module.describe(data, lang=lang)
                assert "{{" not in label, (data, label)
                seen_kinds.add(data["type"])
            for event in state.apply(seat, legal[rng.randrange(len(legal))]):
                line = module.log(event.to_json(), lang=lang)
                assert "{{" not in line, (event.to_json(), line)
    assert len(seen_kinds) >= 3  # the walk reached more than one kind of move
