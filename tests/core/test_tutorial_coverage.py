"""Issue 33: "a person finishing it has played every order/action kind once". The kinds come from each
game's own code (its ``action_types``; Twin Tin Bots' Order tiles from its components), never from a copy
here, and the tutorial is played through by every way the engine allows (each goal move of each step, in
turn): whichever moves a newcomer picks, every kind is played. A kind added to a game without a lesson
that plays it fails :func:`test_every_way_through_the_tutorial_plays_every_kind`.

What each way through also makes happen (the issue's list: a push, a zap, a delivery; a tie, a round's
majorities; a sale) is checked on the events the lessons' moves cause."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

import pytest

from robotable import games
from robotable.core import Action, Game
from robotable.core.i18n import lookup
from robotable.core.tutorial import Lesson, Walk, begin, has_tutorial, paths, tutorial_of
from robotable.games.twin_tin_bots.components import ORDER_COUNTS, SPECIALS, TILE_NAMES

GAMES = [g for g in games.available() if has_tutorial(games.load(g))]

#: Twin Tin Bots' tiles: each colour's Order tiles (Double Modification is played as its own action,
#: not placed) and the Special Orders, one kind ("used as normal Orders"; a player holds one, dealt at
#: random).
TTB_ORDERS = frozenset(TILE_NAMES[t] for t in ORDER_COUNTS)
TTB_SPECIALS = frozenset(TILE_NAMES[t] for t in SPECIALS)


def required_kinds(game_id: str, action_types: Iterable[type[Action]]) -> frozenset[str]:
    """Every kind a newcomer must play: the game's action types, and for Twin Tin Bots each Order tile
    placed (``place:<tile>``) and a Special Order placed (``place:special``)."""
    kinds = {cls.type for cls in action_types}
    if game_id == "twin-tin-bots":
        kinds |= {f"place:{t}" for t in TTB_ORDERS if t != "double_modification"} | {"place:special"}
    return frozenset(kinds)


def kinds_played(game_id: str, move: Mapping[str, Any]) -> set[str]:
    """The kinds one move (its JSON) plays."""
    kinds = {str(move["type"])}
    if game_id == "twin-tin-bots" and move["type"] == "place":
        tile = move["tile"]
        kinds.add("place:special" if tile in TTB_SPECIALS else f"place:{tile}")
    return kinds


def events_seen(game: Game, lesson: Lesson, walk: Walk) -> set[str]:
    """The types of every event the walk's moves caused (the other seats' replies included)."""
    again = begin(game, lesson)
    seen: set[str] = set()
    for action in walk.moves:
        assert again.attempt(action)
        seen |= {str(e.to_json()["type"]) for e in again.events}
    return seen


def covered(game: Game, lessons: Iterable[Lesson]) -> tuple[frozenset[str], frozenset[str]]:
    """The kinds, and the event types, that every way through each lesson plays (the union over lessons
    of the intersection over a lesson's ways)."""
    kinds: set[str] = set()
    events: set[str] = set()
    for lesson in lessons:
        lesson_kinds: set[str] | None = None
        lesson_events: set[str] | None = None
        for walk in paths(game, lesson):
            played = {k for a in walk.moves for k in kinds_played(game.id, a.to_json())}
            seen = events_seen(game, lesson, walk)
            lesson_kinds = played if lesson_kinds is None else lesson_kinds & played
            lesson_events = seen if lesson_events is None else lesson_events & seen
        assert lesson_kinds is not None and lesson_events is not None, f"{lesson.id}: no way through"
        kinds |= lesson_kinds
        events |= lesson_events
    return frozenset(kinds), frozenset(events)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_way_through_the_tutorial_plays_every_kind(game_id: str) -> None:
    game = games.load(game_id)
    need = required_kinds(game_id, game.action_types)
    kinds, _ = covered(game, tutorial_of(game).lessons)
    assert need - kinds == set(), f"{game_id}: no lesson makes the player play {sorted(need - kinds)}"
    # and every kind a lesson plays is one the game has (a typo in a goal would be caught here too)
    assert kinds <= need, sorted(kinds - need)


#: The issue's list, as the events the engines report: Twin Tin Bots' run, push, zap, load and delivery;
#: TF22's battle, tie, loading, majorities (a round scored) and the R card's uses; Robots on the Line's
#: part taken, switches, robot sold to a buyer, part sold, junk pile and player trades.
HAPPENS = {
    "twin-tin-bots": {"run", "crystal_pushed", "zap", "zap_order", "load", "deliver", "blob_moved"},
    "tf22-reload": {"battle", "set_aside", "chipcard", "load", "reload", "round_scored", "r_buy"},
    "robots-on-the-line": {"took", "switches", "switch", "sold_robot", "sold_part", "traded_junk", "accepted"},
}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_way_through_the_tutorial_shows_what_the_issue_lists(game_id: str) -> None:
    game = games.load(game_id)
    _, events = covered(game, tutorial_of(game).lessons)
    assert HAPPENS[game_id] - events == set(), sorted(HAPPENS[game_id] - events)


class _NewKind(Action):
    """A kind of move a game might gain: no lesson plays it."""

    type: ClassVar[str] = "brand_new_kind"


def test_a_kind_without_a_lesson_is_found() -> None:
    """The check can fail: a game with one more action type, or a tutorial missing a lesson, has a kind
    no lesson plays."""
    game = games.load("twin-tin-bots")
    lessons = tutorial_of(game).lessons
    kinds, _ = covered(game, lessons)
    assert required_kinds(game.id, (*game.action_types, _NewKind)) - kinds == {"brand_new_kind"}
    without_blob, _ = covered(game, [x for x in lessons if x.id != "blob"])
    assert "move_blob" in required_kinds(game.id, game.action_types) - without_blob
    without_deliver, _ = covered(game, [x for x in lessons if x.id != "deliver"])
    assert {"place:load", "place:unload"} <= required_kinds(game.id, game.action_types) - without_deliver


@pytest.mark.parametrize("game_id", GAMES)
def test_every_step_quotes_the_rulebook(game_id: str) -> None:
    """Each step explains its rule in the rulebook's words: its text quotes at least three words of it, in
    English ("...") and in Japanese (「...」); the quotes themselves were checked against the rulebooks
    when written (the rulebooks are not in the repository)."""
    for lesson in tutorial_of(games.load(game_id)).lessons:
        for step in lesson.steps:
            key = f"{game_id}:tutorial.{lesson.id}.{step.id}.text"
            en, ja = lookup(key, "en") or "", lookup(key, "ja") or ""
            assert any(len(q.split()) >= 3 for q in re.findall(r'"([^"]+)"', en)), f"en {key}: {en}"
            assert re.search(r"「[^」]{6,}」", ja), f"ja {key}: {ja}"
