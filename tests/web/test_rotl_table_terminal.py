"""The Robots on the Line terminal renderer through the message catalogue (issue 17), English and Japanese.

Random games (with the house rules) are drawn, every legal action labelled and every event logged in
both languages: no text is a missing key or has an unfilled ``{{variable}}``, no part, torso, buyer or
requirement appears by its id, seats count from 1, and the Japanese output has no English label left.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from robotable.core import Rng
from robotable.games.robots_on_the_line import GAME
from robotable.terminal import robots_on_the_line as term

IDS = re.compile(r"\b(?:head|base|hand|antenna|extender|elbow|splitter|battery|magnet|torso|buyer|req|bonus)-\d\d?\b")
ENGLISH = re.compile(r"\b(take the|junk pile|Buyers|Players|Seat \d|took|sold|offer)\b")


def check(text: str, lang: str) -> None:
    assert "robots-on-the-line:" not in text and "{{" not in text, text
    assert not IDS.search(text), IDS.search(text).group(0)
    assert "Seat 0" not in text and "0番席" not in text, text
    if lang == "ja":
        assert not ENGLISH.search(text), ENGLISH.search(text).group(0)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("options", [{}, {"three_new_tiles": True, "on_off_variant": True}])
def test_a_game_drawn_labelled_and_logged(lang: str, options: dict) -> None:
    state = GAME.start(3, seed=7, options=options)
    rng = Rng(7)
    seen: set[str] = set()
    for _ in range(400):
        if state.is_over():
            break
        seat = (state.to_act() or state.optional_actors())[0]
        console = Console(width=200, file=io.StringIO(), record=True)
        console.print(term.render(state.view(seat), lang=lang))
        check(console.export_text(), lang)
        legal = state.legal_actions(seat)
        for action in legal[:40]:
            check(term.describe(action.to_json(), lang=lang), lang)
        for event in state.apply(seat, legal[rng.randrange(len(legal))]):
            seen.add(event.type)
            check(term.log(event.to_json(), lang=lang), lang)
    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(term.render(state.view(None), lang=lang))
    check(console.export_text(), lang)
    assert {"took", "turn", "drawn", "to_junk"} <= seen


def test_the_language_comes_from_the_environment(monkeypatch) -> None:
    monkeypatch.delenv("ROBOTABLE_LANG", raising=False)
    monkeypatch.setenv("LC_ALL", "ja_JP.UTF-8")
    assert term.language() == "ja"
    assert term.describe({"type": "end_turn"}) == "手番を終える"
    monkeypatch.setenv("ROBOTABLE_LANG", "en")
    assert term.describe({"type": "end_turn"}) == "end the turn"
    monkeypatch.setenv("ROBOTABLE_LANG", "xx")
    monkeypatch.setenv("LC_ALL", "C")
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.delenv("LANG", raising=False)
    assert term.language() == "en"
