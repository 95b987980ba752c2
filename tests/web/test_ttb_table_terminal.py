"""Twin Tin Bots in the terminal speaks the catalogue's languages (issue 17): the browser's sentences,
places by row letter and number (never axial coordinates), seats and slots counted from 1, no English
left in Japanese, over whole random games."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from robotable.games import load
from robotable.terminal import twin_tin_bots as term

AXIAL = re.compile(r"\[-?\d+, -?\d+\]")


def played(seed: int):
    game = load("twin-tin-bots")
    state = game.start(num_players=2, seed=seed)
    rng = random.Random(seed)
    views, events = [], []
    for _ in range(400):
        if state.is_over():
            break
        seat = state.to_act()[0]
        views.append(state.view(seat))
        events.extend(e.to_json() for e in state.apply(seat, rng.choice(state.legal_actions(seat))))
    views.append(state.view(0))
    return views, events


def test_slots_seats_and_places_as_people_read_them() -> None:
    assert term.log({"type": "place", "colour": "red", "slot": 3, "tile": "zap"}, lang="en") == "Red places Zap on B1."
    assert term.log({"type": "swap", "colour": "red", "slot_a": 0, "slot_b": 2}, lang="en") == "Red swaps A1 and A3."
    over = {"type": "game_over", "result": {"reason": "score victory: seat 1 has 11 points in Bases"}}
    assert term.log(over, lang="en") == "Game over: score victory: Seat 2 has 11 points in Bases and wins at once."


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_whole_games_in_each_language(lang: str) -> None:
    for seed in (1, 2):
        views, events = played(seed)
        lines = [term.log(e, lang=lang) for e in events]
        assert all(line and not line.startswith(f"{e['type']}:") for line, e in zip(lines, events, strict=True))
        assert not any(AXIAL.search(line) or "{{" in line or "seat 0" in line.lower() for line in lines)
        console = Console(file=io.StringIO(), width=160, record=True, color_system=None)
        for view in views[::25]:
            term.render(view, lang=lang)
            console.print(term.render(view, lang=lang))
        text = console.export_text()
        if lang == "ja":
            english = (" places ", " moves to ", " turns to face ", "Round", " crystal")
            assert not any(w in line for line in lines for w in english)
            assert "ラウンド" in text and "Round" not in text
        else:
            assert "Round 1" in text
