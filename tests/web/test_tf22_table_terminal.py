"""TF22: RELOAD! in the terminal speaks the catalogue's languages (issue 17): the same sentences as the
browser, seats and slots counted from 1, no English left in Japanese, over a whole random game."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from robotable.games import load
from robotable.terminal import tf22_reload as term


def played_events(seed: int = 5):
    game = load("tf22-reload")
    state = game.start(num_players=3, seed=seed)
    rng = random.Random(seed)
    views, events = [], []
    while not state.is_over():
        seat = state.to_act()[0]
        views.append(state.view(seat))
        for e in state.apply(seat, rng.choice(state.legal_actions(seat))):
            events.append(e.to_json())
    views.append(state.view(0))
    return views, events


def test_log_and_actions_count_seats_and_slots_from_one() -> None:
    assert term.log({"type": "chose", "seat": 0}, lang="en") == "Seat 1 has chosen."
    assert term.describe({"type": "load", "slot": 0}, lang="en") == "load it on slot 1"
    line = term.log({"type": "r_reload", "seat": 2, "colour": "red", "from_slot": 0, "to_slot": 3}, lang="en")
    assert line == "Seat 3 pays 2 chips: moves a red container from slot 1 to slot 4."


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_whole_game_in_each_language(lang: str) -> None:
    views, events = played_events()
    lines = [term.log(e, lang=lang) for e in events]
    assert all(line and not line.startswith(e["type"] + ":") for line, e in zip(lines, events, strict=True))
    assert not any("seat 0" in line.lower() or "{{" in line for line in lines)
    console = Console(file=io.StringIO(), width=140, record=True, color_system=None)
    for view in views[::10]:
        console.print(term.render(view, lang=lang))
    text = console.export_text()
    if lang == "ja":
        english = ("has chosen", "wins the battle", "container", "Round", "Player", "Total")
        assert not any(word in line for line in lines for word in english), [w for w in english if w in str(lines)]
        assert "ラウンド" in text and "合計" in text and "Total" not in text
    else:
        assert "Round 1" in text and "Seat 1" in text
