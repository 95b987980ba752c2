"""Every game the adapters serve (a new game with an integer action encoding joins automatically)."""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test
from test_research_openspiel import CASES

from robotable import games
from robotable.adapters import openspiel as ros
from robotable.adapters._common import encodable_games
from robotable.adapters.gymnasium import RobotableEnv
from robotable.adapters.pettingzoo import aec_env

GAMES = encodable_games()
ADAPTERS = Path(ros.__file__).parent
#: (game, player count) pairs whose pyspiel conformance test already runs, on longer games, in
#: test_research_openspiel.py's random_sim_test cases (written there by hand; a new game is not yet).
SIMULATED = {(game_id, players) for game_id, players, options, *_ in CASES if options is None}


def _code_strings_and_imports(tree: ast.Module) -> list[str]:
    """String constants of the code (docstrings left out) and the modules it imports."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            out.append(node.value)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
        elif isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
    return out


def test_research_adapters_name_no_game() -> None:
    """The adapters read everything from the game's declared capabilities (robotable.core.Game): no game
    id or game package appears in their code (docstrings apart), and none imports a game's modules."""
    names = [n for gid in games.available() for n in (gid, gid.replace("-", "_"))]
    files = sorted(ADAPTERS.glob("*.py"))
    assert len(files) >= 6
    for path in files:
        for text in _code_strings_and_imports(ast.parse(path.read_text())):
            assert "robotable.games" not in text, f"{path.name} imports {text}"
            assert not [n for n in names if n in text], f"{path.name} names a game: {text!r}"


def test_research_served_games() -> None:
    assert {"tf22-reload", "twin-tin-bots"} <= set(GAMES)
    for game_id in GAMES:
        assert ros.short_name(game_id) in pyspiel.registered_names()


@pytest.mark.parametrize("game_id", GAMES)
def test_research_every_game_in_every_adapter(game_id: str) -> None:
    warnings.filterwarnings("ignore", category=UserWarning)
    players = games.load(game_id).max_players
    if (game_id, players) not in SIMULATED:
        game = ros.load_game(game_id, players=players, max_game_length=150)
        pyspiel.random_sim_test(
            game, num_sims=1, serialize=True, verbose=False, mask_test=True, state_checker_fn=ros.check_round_trip
        )
    api_test(aec_env(game_id, players), num_cycles=100)
    check_env(RobotableEnv(game_id, players, seat=players - 1), skip_render_check=True)
