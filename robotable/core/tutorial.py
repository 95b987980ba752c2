"""Tutorials: each game's short lessons, played from written positions and checked by the engine.

A game that has a tutorial declares it with the ``"tutorial"`` hook (``Game.hooks``): a module with

- ``LESSONS``: the path of its lessons file (JSON, kept beside the game's package, not in its public
  ``data/`` folder: a lesson's position holds secrets, such as the cards an opponent will play);
- optionally ``complete(partial) -> dict``: every field of a state from a position that names only what
  matters (Twin Tin Bots' :func:`~robotable.games.twin_tin_bots.positions.complete`). Without it a
  partial position is laid over a new game with the same ``num_players``, ``seed`` and ``options``.

The lessons file::

    {"lessons": [
      {"id": "push",                      # lower case, digits, '-' (the lesson's URL)
       "seat": 0,                         # the seat the player plays
       "position": {"num_players": 2, ...partial state..., "moves": [[1, {...}], ...]},
       "steps": [
         {"id": "place_forward",
          "goal": [{"type": "place", "tile": "forward_1"}],   # one of these patterns
          "then": [[1, {"type": "pass"}]]},                    # the other seats' moves afterwards
         ...]}]}

``position`` is a written state (``moves`` left out: played from it, in order, before the lesson starts).
A step waits for one move of ``seat``: a legal move that matches one of the ``goal`` patterns (every field
a pattern names has that value in the action's JSON) completes the step, and then the ``then`` moves are
played for the other seats (an opponent's card, a pass). A legal move that matches no pattern is not
played: the player gets the step's hint. Texts are catalogue keys in the game's namespace, by the ids:
``tutorial.<lesson>.title`` and ``.intro``; per step ``tutorial.<lesson>.<step>.text`` (what to do, in the
rulebook's words), ``.hint`` (after a move that is not the goal) and ``.done`` (what just happened).

Nothing is kept between moves: :func:`replay` plays a lesson's moves so far again, checking each.

>>> from robotable.core import load
>>> lesson = tutorial_of(load("tf22-reload")).lesson("battle")
>>> walk = begin(load("tf22-reload"), lesson)
>>> walk.step, walk.state.to_act() == [lesson.seat]
(0, True)
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .actions import Action, Event, visible_events
from .errors import BadInput, RobotableError
from .game import Game, State

#: Lesson and step ids: lower case letters, digits, '-' and '_' (they are URLs and catalogue keys).
ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
#: The most steps a lesson may have (and so the most moves a request replays).
MAX_STEPS = 16


class TutorialError(RobotableError):
    """A lessons file that is not consistent (a bug of the data, found when it is loaded or checked)."""


@dataclass(frozen=True)
class Step:
    """One step of a lesson: the move it waits for, and the other seats' moves after it."""

    id: str
    goal: tuple[Mapping[str, Any], ...]
    then: tuple[tuple[int, Mapping[str, Any]], ...] = ()

    def matches(self, action: Action) -> bool:
        """Whether ``action`` is one the step waits for (it matches one of the goal's patterns)."""
        data = action.to_json()
        return any(all(data.get(k) == v for k, v in pattern.items()) for pattern in self.goal)

    @property
    def kinds(self) -> frozenset[str]:
        """The action types the goal names."""
        return frozenset(str(p["type"]) for p in self.goal)


@dataclass(frozen=True)
class Lesson:
    """A lesson: a written position, the seat the player plays there, and its steps."""

    id: str
    seat: int
    position: Mapping[str, Any]
    steps: tuple[Step, ...]

    def keys(self, namespace: str) -> list[str]:
        """Every catalogue key the lesson's texts use, in ``namespace``."""
        base = f"{namespace}:tutorial.{self.id}"
        out = [f"{base}.title", f"{base}.intro"]
        for step in self.steps:
            out += [f"{base}.{step.id}.{part}" for part in ("text", "hint", "done")]
        return out


@dataclass(frozen=True)
class Tutorial:
    """A game's lessons, in order."""

    game: str
    lessons: tuple[Lesson, ...]
    complete: Callable[[Mapping[str, Any]], dict[str, Any]] | None = field(default=None, compare=False)

    def lesson(self, lesson_id: str) -> Lesson:
        """The lesson ``lesson_id`` (:class:`BadInput` naming the lessons there are)."""
        for lesson in self.lessons:
            if lesson.id == lesson_id:
                return lesson
        names = ", ".join(x.id for x in self.lessons)
        raise BadInput(f"{self.game} has no lesson {lesson_id[:60]!r} (its lessons: {names})")

    def kinds(self) -> frozenset[str]:
        """Every action type some step of some lesson waits for."""
        return frozenset(k for lesson in self.lessons for step in lesson.steps for k in step.kinds)


def has_tutorial(game: Game) -> bool:
    """Whether ``game`` declares a tutorial (the ``"tutorial"`` hook)."""
    return game.hook("tutorial") is not None


def tutorial_of(game: Game) -> Tutorial:
    """The game's tutorial (:class:`BadInput` if it has none; :class:`TutorialError` if its file is
    malformed). Read once per game."""
    return _load(game.id, game)


@cache
def _load(game_id: str, game: Game) -> Tutorial:
    module = game.hook("tutorial")
    if module is None:
        raise BadInput(f"{game_id} has no tutorial")
    path = Path(module.LESSONS)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise TutorialError(f"{game_id} tutorial {path.name}: {exc}") from None
    return parse(game_id, data, getattr(module, "complete", None))


def parse(game_id: str, data: object, complete: Callable[..., dict[str, Any]] | None = None) -> Tutorial:
    """A tutorial from its JSON (:class:`TutorialError` naming the first problem of its form)."""
    where = f"{game_id} tutorial"
    if not isinstance(data, Mapping) or not isinstance(data.get("lessons"), list) or not data["lessons"]:
        raise TutorialError(f"{where}: expected {{'lessons': [...]}} with at least one lesson")
    lessons: list[Lesson] = []
    for i, item in enumerate(data["lessons"]):
        lessons.append(_lesson(item, f"{where} lessons[{i}]"))
    ids = [x.id for x in lessons]
    if len(set(ids)) != len(ids):
        raise TutorialError(f"{where}: two lessons share an id")
    return Tutorial(game_id, tuple(lessons), complete)


def _lesson(item: object, where: str) -> Lesson:
    if not isinstance(item, Mapping):
        raise TutorialError(f"{where}: expected an object")
    lesson_id = _id(item.get("id"), f"{where}.id")
    seat = item.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise TutorialError(f"{where}.seat: a seat number from 0")
    position = item.get("position")
    if not isinstance(position, Mapping) or not isinstance(position.get("num_players"), int):
        raise TutorialError(f"{where}.position: an object with num_players")
    steps_data = item.get("steps")
    if not isinstance(steps_data, list) or not 1 <= len(steps_data) <= MAX_STEPS:
        raise TutorialError(f"{where}.steps: a list of 1 to {MAX_STEPS} steps")
    steps = tuple(_step(s, f"{where}.steps[{k}]") for k, s in enumerate(steps_data))
    if len({s.id for s in steps}) != len(steps):
        raise TutorialError(f"{where}: two steps share an id")
    _moves(position.get("moves", []), f"{where}.position.moves")
    return Lesson(lesson_id, seat, position, steps)


def _step(item: object, where: str) -> Step:
    if not isinstance(item, Mapping):
        raise TutorialError(f"{where}: expected an object")
    goal = item.get("goal")
    if (
        not isinstance(goal, list)
        or not goal
        or not all(isinstance(p, Mapping) and isinstance(p.get("type"), str) for p in goal)
    ):
        raise TutorialError(f"{where}.goal: a list of patterns, each with its action 'type'")
    return Step(_id(item.get("id"), f"{where}.id"), tuple(goal), _moves(item.get("then", []), f"{where}.then"))


def _moves(value: object, where: str) -> tuple[tuple[int, Mapping[str, Any]], ...]:
    if not isinstance(value, list) or not all(
        isinstance(m, list) and len(m) == 2 and isinstance(m[0], int) and isinstance(m[1], Mapping) for m in value
    ):
        raise TutorialError(f"{where}: a list of [seat, action] pairs")
    return tuple((m[0], m[1]) for m in value)


def _id(value: object, where: str) -> str:
    if not isinstance(value, str) or not ID.match(value):
        raise TutorialError(f"{where}: lower case letters, digits, '-' and '_' (at most 40)")
    return value


# -- playing a lesson ---------------------------------------------------------------------------------


@dataclass
class Walk:
    """A lesson being played: the state, the step waiting for a move (``len(steps)`` when finished), the
    moves the player made, and the events since the last step began (every seat's, audience kept)."""

    game: Game
    lesson: Lesson
    state: State
    step: int = 0
    moves: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.step >= len(self.lesson.steps)

    @property
    def current(self) -> Step | None:
        """The step waiting for a move, or ``None`` when the lesson is finished."""
        return None if self.finished else self.lesson.steps[self.step]

    def seen_events(self) -> list[Event]:
        """The events since the last step began that the lesson's seat may see."""
        return visible_events(self.events, self.lesson.seat)

    def legal(self) -> list[Action]:
        """The lesson seat's legal moves now (none once the lesson is finished)."""
        if self.finished or self.state.is_over():
            return []
        return self.state.legal_actions(self.lesson.seat)

    def expected(self) -> list[Action]:
        """The legal moves that complete the current step."""
        step = self.current
        return [] if step is None else [a for a in self.legal() if step.matches(a)]

    def attempt(self, action: Action) -> bool:
        """Play ``action`` for the lesson's seat if it completes the current step (then the step's ``then``
        moves, and the walk moves on: True). A legal move that is not the goal changes nothing (False).
        An illegal or malformed one raises the game's error; nothing changes."""
        step = self.current
        if step is None:
            raise BadInput(f"lesson {self.lesson.id!r} is finished: start it again to replay it")
        self.state.check(self.lesson.seat, action)
        if not step.matches(action):
            return False
        events = list(self.state.apply_legal(self.lesson.seat, action))
        for seat, data in step.then:
            events += self.state.apply(seat, self.game.action_from_json(data))
        self.moves.append(action)
        self.events = events
        self.step += 1
        return True


def position(game: Game, lesson: Lesson, tutorial: Tutorial | None = None) -> State:
    """The lesson's written position, with its ``moves`` played (a new state each call)."""
    written = {k: v for k, v in lesson.position.items() if k != "moves"}
    complete = (tutorial or tutorial_of(game)).complete
    if complete is not None:
        data = complete(written)
    else:
        start = game.start(written["num_players"], seed=written.get("seed", 0), options=written.get("options"))
        data = {**start.to_json(), **written}
    state = game.state_from_json(data)
    for seat, action in lesson.position.get("moves", []):
        state.apply(seat, game.action_from_json(action))
    return state


def begin(game: Game, lesson: Lesson) -> Walk:
    """The lesson at its first step."""
    return Walk(game, lesson, position(game, lesson))


def replay(game: Game, lesson: Lesson, moves: Sequence[object]) -> Walk:
    """The lesson after the player's ``moves`` (action JSON), each checked again: :class:`BadInput` if one
    is malformed, illegal or not its step's goal (naming which), or if there are more than steps."""
    if len(moves) > len(lesson.steps):
        raise BadInput(f"lesson {lesson.id!r} has {len(lesson.steps)} steps, got {len(moves)} moves")
    walk = begin(game, lesson)
    for k, data in enumerate(moves):
        try:
            done = walk.attempt(game.action_from_json(data))
        except RobotableError as exc:
            raise BadInput(f"moves[{k}]: {exc}") from None
        if not done:
            raise BadInput(f"moves[{k}]: not the move step {k + 1} of lesson {lesson.id!r} waits for")
    return walk


def paths(game: Game, lesson: Lesson, limit: int = 2000) -> Iterable[Walk]:
    """Every way through the lesson (each step's goal moves among the legal ones, in turn), up to
    ``limit`` finished walks: what the consistency tests play."""
    count = 0
    todo = [begin(game, lesson)]
    while todo and count < limit:
        walk = todo.pop()
        if walk.finished:
            count += 1
            yield walk
            continue
        expected = walk.expected()
        if not expected:
            step = walk.current
            assert step is not None
            raise TutorialError(f"{game.id} lesson {lesson.id!r} step {step.id!r}: no legal move is the goal")
        for action in expected:
            nxt = Walk(game, lesson, walk.state.clone(), walk.step, list(walk.moves))
            if not nxt.attempt(action):  # pragma: no cover (expected moves match)
                raise TutorialError(f"{game.id} lesson {lesson.id!r}: {action.to_json()} refused")
            todo.append(nxt)
