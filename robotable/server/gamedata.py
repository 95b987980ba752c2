"""Game-specific helpers that stay game-agnostic on the server: a game's public data files, and
``evaluate`` queries (a seat asking its game a question about its own position, such as what a robot
on the Robots on the Line workbench measures). See docs/server.md.

A game offers evaluations by declaring an ``"evaluate"`` hook (``Game.hooks``), ``evaluate(state, seat,
query)`` (for Robots on the Line: :func:`robotable.games.robots_on_the_line.evaluate`); it must leave the
state untouched and answer only what the seat may know. The server runs it on a clone of the table's
state, for the seat played by the asking account. Public data files are the JSON files of the folder a game declares
with its ``"web_data"`` hook (``Game.data_folder()``: the component catalogue, map layouts): they hold
nothing hidden.
"""

from __future__ import annotations

import asyncio
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from robotable import games
from robotable.core import RobotableError

from .accounts import Account
from .errors import ApiError, NotFound, from_game_error, quoted
from .previews import game_hook
from .table import TableManager

DATA_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def data_dir(game_id: str) -> Path:
    """The folder of a game's public data files (404 for an unknown game or one without data files)."""
    try:
        game = games.load(game_id)
    except RobotableError:
        raise NotFound(f"no game {quoted(game_id)} (one of: {', '.join(games.available())})") from None
    folder = game.data_folder()
    if folder is None:
        raise NotFound(f"{game_id} has no data files")
    return folder


@lru_cache(maxsize=32)
def _read(path: Path, mtime: float) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def game_data(game_id: str, name: str) -> Any:
    """The public data file ``name`` (without ``.json``) of a game: 404 if there is none."""
    folder = data_dir(game_id)
    if not DATA_NAME.match(name):
        raise ApiError(f"data file names are lowercase letters, digits, '-' and '_', got {quoted(name)}")
    path = folder / f"{name}.json"
    if not path.is_file():
        have = sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []
        raise NotFound(f"{game_id} has no data file {quoted(name)}" + (f" (it has: {', '.join(have)})" if have else ""))
    return _read(path, path.stat().st_mtime)


async def evaluate(
    manager: TableManager, table_id: str, seat: int, account: Account | None, query: object
) -> dict[str, Any]:
    """Answer ``query`` for ``seat`` (asked by its own account) with the game's ``evaluate`` hook, on a copy.

    Any seat of the table may ask at any time (it learns only about its own position); games without
    the hook answer 400; malformed queries answer 400 naming the problem; nothing at the table changes.
    """
    live = await manager.get(table_id)
    manager.check_seat(live, seat, account)
    hook = game_hook(live.game, "evaluate")
    if hook is None:
        raise ApiError(f"{live.game.name} has no evaluations")
    state, moves = live.state, len(live.moves)  # states are replaced, never changed in place
    try:
        data = await asyncio.to_thread(hook, state.clone(), seat, query)
    except RobotableError as exc:
        raise from_game_error(exc) from None
    return {"moves": moves, "evaluation": data}
