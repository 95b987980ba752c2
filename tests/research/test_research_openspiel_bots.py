"""robotable.adapters.openspiel_bots: the ISMCTS levels as pyspiel bots in OpenSpiel's own evaluation."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from robotable.adapters import openspiel
from robotable.adapters._common import encodable_games
from robotable.adapters.openspiel_bots import RobotableBot, level_bot
from robotable.core import BadInput

#: Short games for the games whose rules do not bound their length.
SHORT = {"twin-tin-bots": {"max_rounds": 2}, "robots-on-the-line": {"max_game_length": 40}}


def _match(game: pyspiel.Game, level: str, games: int) -> tuple[float, list[list[float]]]:
    """The level's points against OpenSpiel's uniform random bot over ``games`` games, seats alternating."""
    points, every = 0.0, []
    for g in range(games):
        seat = g % 2
        bots = [pyspiel.make_uniform_random_bot(p, 1000 + g) for p in range(game.num_players())]
        bots[seat] = level_bot(game, seat, level, seed=g)
        returns = evaluate_bots(openspiel.seeded_state(game, 500 + g), bots, np.random.RandomState(g))
        points += returns[seat]
        every.append(returns)
    return points, every


@pytest.mark.parametrize(
    ("level", "sequential"), [("easy", False), ("easy", True), ("medium", True)], ids=["easy", "easy-seq", "medium-seq"]
)
def test_research_bots_levels_beat_random_in_evaluate_bots(level: str, sequential: bool) -> None:
    """TF22 in both forms: a level bot against OpenSpiel's random bot, every game to its end."""
    game = openspiel.load_game("tf22-reload", players=2, sequential=sequential)
    points, every = _match(game, level, 20)
    assert all(sum(r) == pytest.approx(1.0) for r in every)
    # a bot no better than random reaches 14 of 20 with probability 6%; the levels score 15-19 here
    assert points >= 14, f"ismcts:{level} scored {points} of 20 against random"


@pytest.mark.parametrize("game_id", encodable_games())
def test_research_bots_every_game(game_id: str) -> None:
    """Every served game (cut short where the rules do not bound it), with chance draws where a move
    draws: OpenSpiel's loop samples those chance nodes and the bots play on."""
    game = openspiel.load_game(game_id, players=2, chance_draws=1, **SHORT.get(game_id, {}))
    _, every = _match(game, "easy", 2)
    assert all(len(r) == 2 and sum(r) == pytest.approx(1.0) for r in every)


def test_research_bots_heuristic_and_spec() -> None:
    game = openspiel.load_game("tf22-reload", players=3)
    bots = [RobotableBot(game, 0, "heuristic", seed=1), RobotableBot(game, 1, "random", seed=2), level_bot(game, 2)]
    assert [bot.player_id() for bot in bots] == [0, 1, 2] and bots[2].spec == "ismcts:medium"
    returns = evaluate_bots(openspiel.seeded_state(game, 3), bots, np.random.RandomState(0))
    assert sum(returns) == pytest.approx(1.0) and not bots[0].provides_policy()


def test_research_bots_choose_from_what_the_player_knows() -> None:
    """The bot's choice on a state equals its choice (same seed) on any state its player cannot tell
    from it: the hidden rest (the deck, the other hands) is resampled and the move stays the same."""
    game = openspiel.load_game("tf22-reload", players=2, sequential=True)
    state = openspiel.seeded_state(game, 11)
    rng = np.random.default_rng(0)
    compared = 0
    while not state.is_terminal() and compared < 30:
        player = state.current_player()
        if player >= 0:
            chosen = level_bot(game, player, "easy", seed=compared).step(state)
            for k in range(3):
                sample = state.resample_from_infostate(player, lambda k=k: (k + 0.5) / 4)
                assert level_bot(game, player, "easy", seed=compared).step(sample) == chosen
            compared += 1
            state.apply_action(int(rng.choice(state.legal_actions())))
        else:
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
    assert compared == 30


def test_research_bots_bad_input() -> None:
    game = openspiel.load_game("tf22-reload", players=2, sequential=True)
    with pytest.raises(BadInput, match="Robotable games"):
        RobotableBot(pyspiel.load_game("kuhn_poker"), 0)
    for bad in (2, -1, "0", True):
        with pytest.raises(BadInput, match="player_id must be 0 to 1"):
            RobotableBot(game, bad)
    with pytest.raises(BadInput, match="ismcts needs a level"):
        RobotableBot(game, 0, "ismcts:expert")
    with pytest.raises(BadInput, match="unknown agent"):
        RobotableBot(game, 0, "alphazero")
    bot = level_bot(game, 1, "easy")
    with pytest.raises(BadInput, match="not a decision node"):
        bot.step(game.new_initial_state())  # the seed's chance nodes
    state = openspiel.seeded_state(game, 5)
    assert state.current_player() == 0
    with pytest.raises(BadInput, match="no legal action"):
        bot.step(state)
