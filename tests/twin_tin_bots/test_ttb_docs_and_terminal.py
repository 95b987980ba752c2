"""The rules page's hand-written position loads; the terminal renderer draws every kind of view."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from robotable.core import Rng
from robotable.games.twin_tin_bots import GAME, Pass
from robotable.games.twin_tin_bots.positions import complete
from robotable.terminal import describe_action, describe_event, render_view
from robotable.terminal.twin_tin_bots import describe, render

DOC = Path(__file__).resolve().parents[2] / "docs" / "games" / "twin-tin-bots.md"


def test_the_docs_position_loads_and_plays() -> None:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)
    positions = [json.loads(b) for b in blocks if '"num_players"' in b]
    assert positions
    for data in positions:
        state = GAME.state_from_json(complete(data))
        state.apply(state.to_act()[0], Pass())
    actions = [json.loads(line) for b in blocks if '"num_players"' not in b for line in b.splitlines() if line.strip()]
    assert {a["type"] for a in actions} == {t.type for t in GAME.action_types}
    for a in actions:
        assert GAME.action_from_json(a).to_json()["type"] == a["type"]


def text_of(view: dict) -> str:  # type: ignore[type-arg]
    console = Console(file=io.StringIO(), width=140, record=True, color_system=None)
    console.print(render(view))
    return console.export_text()


@pytest.mark.parametrize(
    ("n", "options"),
    [
        (2, {}),
        (4, {"teleporters": 1, "rocks": 1, "blobs": 2, "mud": 3}),
        (6, {"team_play": True}),
        (3, {"simplified": True}),
    ],
)
def test_render_board_tokens_and_pending_decisions(n: int, options: dict) -> None:
    state = GAME.start(n, seed=n, options=options)
    rng = Rng(n)
    seen_phases = set()
    for _ in range(3000):
        if state.is_over():
            break
        seat = state.to_act()[0]
        if state.phase not in seen_phases:  # the view of each phase's first decision, drawn
            seen_phases.add(state.phase)
            view = state.view(seat)
            text = text_of(view)
            assert f"Round {view['round']}" in text
            assert text.count("[") >= n
        legal = state.legal_actions(seat)
        for action in legal[:3]:
            assert describe(action.to_json())
        events = state.apply(seat, legal[rng.randrange(len(legal))])
        for e in events:
            assert describe_event("twin-tin-bots", e.to_json())
    if options.get("blobs"):
        assert "(@)" in text_of(state.view(None))


def test_render_game_over_and_dispatch() -> None:
    state = GAME.start(2, seed=3)
    rng = Rng(3)
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    assert "Game over" in text_of(state.view(0))
    render_view("twin-tin-bots", state.view(None))
    assert describe_action("twin-tin-bots", {"type": "reset", "robot": 1}) == "reset robot B"
