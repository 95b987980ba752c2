"""Every game's tutorial is consistent (issue 33; robotable/core/tutorial.py): each lesson's written
position loads and replays, every way through it (each goal move the engine lists, in turn) reaches its
end with the lesson's seat to act at each step, every other legal move is refused without a change, the
lessons make the player play every kind of action the game has, and every text is in both catalogues."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotable import games
from robotable.core import BadInput, Game
from robotable.core.i18n import lookup
from robotable.core.tutorial import (
    MAX_STEPS,
    TutorialError,
    Walk,
    begin,
    has_tutorial,
    parse,
    paths,
    position,
    replay,
    tutorial_of,
)

GAMES = [g for g in games.available() if has_tutorial(games.load(g))]
LESSONS = [(g, lesson.id) for g in GAMES for lesson in tutorial_of(games.load(g)).lessons]


def test_every_game_has_a_tutorial() -> None:
    assert games.available() == GAMES


def lesson_of(game_id: str, lesson_id: str) -> tuple[Game, Any]:
    game = games.load(game_id)
    return game, tutorial_of(game).lesson(lesson_id)


@pytest.mark.parametrize(("game_id", "lesson_id"), LESSONS)
def test_every_way_through_the_lesson_reaches_its_end(game_id: str, lesson_id: str) -> None:
    game, lesson = lesson_of(game_id, lesson_id)
    start = begin(game, lesson)
    assert start.state.to_act() == [lesson.seat] or lesson.seat in start.state.optional_actors()
    finished = 0
    for walk in paths(game, lesson):
        finished += 1
        assert walk.finished and len(walk.moves) == len(lesson.steps)
        assert not walk.legal() and not walk.expected()
        # the moves replay from their JSON, as the server replays what a browser sends
        again = replay(game, lesson, [a.to_json() for a in walk.moves])
        assert again.state.to_json() == walk.state.to_json()
    assert finished >= 1


@pytest.mark.parametrize(("game_id", "lesson_id"), LESSONS)
def test_at_each_step_the_seat_acts_and_only_the_goal_is_played(game_id: str, lesson_id: str) -> None:
    game, lesson = lesson_of(game_id, lesson_id)
    walk = begin(game, lesson)
    while not walk.finished:
        assert lesson.seat in walk.state.to_act(), f"step {walk.current}: seat {lesson.seat} is not to act"
        legal = walk.legal()
        goal = walk.expected()
        assert goal, f"step {walk.current}: no legal move is the goal"
        before = walk.state.to_json()
        for action in legal:
            if action not in goal:
                assert walk.attempt(action) is False
                assert walk.state.to_json() == before and not walk.moves[walk.step :]
        assert walk.attempt(goal[0]) is True


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_walks_through_any_lesson(data: st.DataObject) -> None:
    """Any sequence of legal moves: the goal ones move the lesson on, the others change nothing."""
    game_id, lesson_id = data.draw(st.sampled_from(LESSONS))
    game, lesson = lesson_of(game_id, lesson_id)
    walk = begin(game, lesson)
    for _ in range(3 * MAX_STEPS):
        if walk.finished:
            break
        action = data.draw(st.sampled_from(walk.legal()))
        step, before = walk.step, walk.state.to_json()
        if walk.current is not None and walk.current.matches(action):
            assert walk.attempt(action) and walk.step == step + 1
        else:
            assert not walk.attempt(action) and walk.state.to_json() == before and walk.step == step


def test_the_lessons_play_every_kind_of_action() -> None:
    for game_id in GAMES:
        game = games.load(game_id)
        kinds = {cls.type for cls in game.action_types}
        assert tutorial_of(game).kinds() == kinds, (
            f"{game_id}: not played in a lesson: {kinds - tutorial_of(game).kinds()}"
        )


@pytest.mark.parametrize("game_id", GAMES)
def test_every_text_is_in_both_catalogues(game_id: str) -> None:
    tutorial = tutorial_of(games.load(game_id))
    for lang in ("en", "ja"):
        for lesson in tutorial.lessons:
            for key in lesson.keys(game_id):
                text = lookup(key, lang)
                assert isinstance(text, str) and text.strip(), f"{lang}: no text for {key}"
                assert not re.search(r"\{\{", text), f"{lang}: {key} has a placeholder"


def test_the_lessons_files_are_not_public_data() -> None:
    """A lesson's position holds secrets (the cards an opponent will play): not in the data folder the
    server serves (GET /api/games/{game}/data/{name})."""
    for game_id in GAMES:
        game = games.load(game_id)
        folder = game.data_folder()
        assert folder is not None
        assert not list(folder.rglob("tutorial*")), game_id


def test_a_malformed_lessons_file_is_refused_naming_the_problem() -> None:
    good = {"id": "a", "seat": 0, "position": {"num_players": 2}, "steps": [{"id": "s", "goal": [{"type": "pass"}]}]}
    cases: list[tuple[Any, str]] = [
        ([], "lessons"),
        ({"lessons": []}, "lessons"),
        ({"lessons": [{**good, "id": "Not an id"}]}, "lessons[0].id"),
        ({"lessons": [{**good, "seat": -1}]}, "lessons[0].seat"),
        ({"lessons": [{**good, "position": {}}]}, "lessons[0].position"),
        ({"lessons": [{**good, "steps": []}]}, "lessons[0].steps"),
        ({"lessons": [{**good, "steps": [{"id": "s", "goal": [{}]}]}]}, "steps[0].goal"),
        ({"lessons": [{**good, "steps": [{"id": "s", "goal": [{"type": "pass"}], "then": [[0]]}]}]}, "steps[0].then"),
        ({"lessons": [good, good]}, "share an id"),
        ({"lessons": [{**good, "steps": [good["steps"][0], good["steps"][0]]}]}, "share an id"),
        ({"lessons": [{**good, "steps": [{"id": "s", "goal": [{"type": "pass"}]}] * (MAX_STEPS + 1)}]}, "steps"),
    ]
    for data, named in cases:
        with pytest.raises(TutorialError, match=re.escape(named)):
            parse("twin-tin-bots", data)
    assert parse("twin-tin-bots", {"lessons": [good]}).lessons[0].id == "a"


def test_a_replay_refuses_moves_that_are_not_the_steps() -> None:
    game, lesson = lesson_of("twin-tin-bots", "push")
    with pytest.raises(BadInput, match="not the move step 1"):
        replay(game, lesson, [{"type": "pass"}])
    with pytest.raises(BadInput, match="moves\\[0\\]"):
        replay(game, lesson, [{"type": "place", "slot": 9, "tile": "load"}])
    with pytest.raises(BadInput, match="steps, got"):
        replay(game, lesson, [{"type": "pass"}] * (len(lesson.steps) + 1))
    finished = replay(game, lesson, [a.to_json() for a in next(iter(paths(game, lesson))).moves])
    with pytest.raises(BadInput, match="finished"):
        finished.attempt(game.action_from_json({"type": "pass"}))


def test_a_lesson_position_is_a_new_state_each_time() -> None:
    game, lesson = lesson_of("tf22-reload", "battle")
    one, two = position(game, lesson), position(game, lesson)
    assert one is not two and one.to_json() == two.to_json()
    walk = Walk(game, lesson, one)
    walk.attempt(walk.expected()[0])
    assert position(game, lesson).to_json() == two.to_json()


def test_the_secret_choice_of_a_lesson_stays_secret() -> None:
    """TF22's first lesson starts with the opponent's card chosen: the player's view does not show it."""
    game, lesson = lesson_of("tf22-reload", "battle")
    walk = begin(game, lesson)
    view = json.dumps(walk.state.view(lesson.seat))
    opponent = walk.state.view(lesson.seat)["players"][1]
    assert opponent["has_chosen"] is True and "choice" not in opponent
    assert '"value": 4' not in view
