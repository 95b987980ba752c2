"""Every game the adapters serve (a new game with an integer action encoding joins automatically)."""

from __future__ import annotations

import warnings

import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from robotable import games
from robotable.adapters import openspiel as ros
from robotable.adapters._common import encodable_games
from robotable.adapters.gymnasium import RobotableEnv
from robotable.adapters.pettingzoo import aec_env

GAMES = encodable_games()


def test_research_served_games() -> None:
    assert {"tf22-reload", "twin-tin-bots"} <= set(GAMES)
    for game_id in GAMES:
        assert ros.short_name(game_id) in pyspiel.registered_names()


@pytest.mark.parametrize("game_id", GAMES)
def test_research_every_game_in_every_adapter(game_id: str) -> None:
    warnings.filterwarnings("ignore", category=UserWarning)
    players = games.load(game_id).max_players
    game = ros.load_game(game_id, players=players, max_game_length=150)
    pyspiel.random_sim_test(
        game, num_sims=1, serialize=True, verbose=False, mask_test=True, state_checker_fn=ros.check_round_trip
    )
    api_test(aec_env(game_id, players), num_cycles=100)
    check_env(RobotableEnv(game_id, players, seat=players - 1), skip_render_check=True)
