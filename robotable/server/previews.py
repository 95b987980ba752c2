"""Program previews: a game-agnostic hook that asks a game what a candidate action would do.

A game offers previews by declaring a ``"preview"`` hook (``Game.hooks``), a ``preview(state, seat,
action)`` function (for Twin Tin Bots: :func:`robotable.games.twin_tin_bots.preview`). The function must
leave ``state`` untouched (it works on a copy) and may return anything with a ``to_json()`` method or a
JSON-safe dict. The server runs it on a clone of the table's state, and
only the seat to act may ask, with its token; the answer's ``events`` are filtered for that seat like
every other event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from robotable.core import Action, Event, Game, State, visible_events

PreviewHook = Callable[[State, int, Action], Any]


def preview_hook(game: Game) -> PreviewHook | None:
    """The game's declared ``preview`` hook, or None if the game offers no previews."""
    return game_hook(game, "preview")


def game_hook(game: Game, name: str) -> Callable[..., Any] | None:
    """The game's declared hook ``name`` (``preview``, ``evaluate``; see ``Game.hooks``), or None."""
    hook = game.hook(name)
    return hook if callable(hook) else None


def preview_json(hook: PreviewHook, state: State, seat: int, action: Action) -> dict[str, Any]:
    """Run ``hook`` on a clone of ``state`` and answer its JSON, events filtered for ``seat``."""
    result = hook(state.clone(), seat, action)
    raw_events = getattr(result, "events", None)
    data = result.to_json() if hasattr(result, "to_json") else dict(result)
    if isinstance(raw_events, list) and all(isinstance(e, Event) for e in raw_events):
        data["events"] = [e.to_json() for e in visible_events(raw_events, seat)]
    return data
