"""The terminal renderer draws every view of a game and labels every legal action."""

from __future__ import annotations

import io

from rich.console import Console

from robotable.core import Rng
from robotable.games.robots_on_the_line import GAME
from robotable.terminal import describe_action, describe_event, render_view


def test_render_and_describe_through_a_game():
    state = GAME.start(3, seed=11, options={"three_new_tiles": True})
    rng = Rng(11)
    console = Console(width=160, file=io.StringIO(), record=True)
    steps = 0
    while not state.is_over() and steps < 120:
        seat = state.to_act()[0]
        console.print(render_view(GAME.id, state.view(seat)))
        legal = state.legal_actions(seat)
        labels = [describe_action(GAME.id, a.to_json()) for a in legal]
        assert all(labels)
        if seat == state.turn and state.phase == "turn":
            assert labels[-1] == "end the turn"
        for event in state.apply(seat, legal[rng.randrange(len(legal))]):
            assert describe_event(GAME.id, event.to_json())
        steps += 1
    text = console.export_text()
    assert "Production line" in text and "Buyers" in text and "Players" in text
    console.print(render_view(GAME.id, state.view(None)))
