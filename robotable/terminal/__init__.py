"""Terminal rendering of game views (Rich), one module per game, declared by the game (its
``"terminal"`` hook in ``Game.hooks``).

A game module here exposes ``render(view) -> RenderableType`` and may expose ``describe(action_json)
-> str`` and ``log(event_json) -> str``; a game without them is shown as JSON.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

from rich.console import RenderableType
from rich.syntax import Syntax

from robotable.core import RobotableError, load


def _module(game_id: str) -> ModuleType | None:
    try:
        module = load(game_id).hook("terminal")
    except RobotableError:
        return None
    return module if isinstance(module, ModuleType) else None


def render_view(game_id: str, view: dict[str, Any]) -> RenderableType:
    """A Rich renderable of a seat's view."""
    module = _module(game_id)
    if module is not None and hasattr(module, "render"):
        return module.render(view)
    return Syntax(json.dumps(view, indent=1), "json")


def describe_action(game_id: str, action: dict[str, Any]) -> str:
    """A short human label for an action's JSON form."""
    module = _module(game_id)
    if module is not None and hasattr(module, "describe"):
        return module.describe(action)
    fields = " ".join(f"{k}={v}" for k, v in action.items() if k != "type")
    return f"{action['type']} {fields}".strip()


def describe_event(game_id: str, event: dict[str, Any]) -> str:
    """One line of the game log for an event's JSON form."""
    module = _module(game_id)
    if module is not None and hasattr(module, "log"):
        return module.log(event)
    data = {k: v for k, v in event.items() if k != "type"}
    return f"{event['type']}: {json.dumps(data)}"
