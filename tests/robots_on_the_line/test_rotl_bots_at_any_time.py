"""Issue 18, Robots on the Line with bots: bots sell robots in family games (the magnet requirement is no
longer dealt and the helper finds robots that need a loop), and bots make trade offers outside their
turn ("Players can trade at any time with another player, and it does not have to be their turn to
initiate the trade").

The games are played as a server plays them: the seat the game waits for chooses, then every other
seat that has an offer among its legal actions is asked whether to make one (``Agent.choose_optional``).
"""

from __future__ import annotations

import pytest

from robotable.ai import Decision, make_agent
from robotable.games.robots_on_the_line import GAME, Offer


def play(kind: str, num_players: int, seed: int, family: bool, max_moves: int = 4000):
    """Play a game of bots of ``kind`` to its end; returns (robots sold, offers made out of turn)."""
    agents = [make_agent(kind, seed * 10 + seat) for seat in range(num_players)]
    state = GAME.start(num_players, seed=seed, options={"family": family})
    sold = out_of_turn = 0
    for _ in range(max_moves):
        if state.is_over():
            break
        seat = state.to_act()[0]
        events = state.apply(seat, agents[seat].choose(Decision.of(state, seat)))
        sold += sum(e.type == "sold_robot" for e in events)
        for other in range(num_players):
            if state.is_over() or other in state.to_act() or not state.legal_actions(other):
                continue
            action = agents[other].choose_optional(Decision.of(state, other))
            if action is not None:
                assert isinstance(action, Offer), action
                turn = state.view(None)["turn"]
                state.apply(other, action)  # accepted although the game was not waiting for this seat
                assert turn != other
                out_of_turn += 1
    assert state.is_over(), f"{kind} seed {seed}: not over after {max_moves} moves"
    return sold, out_of_turn


@pytest.mark.parametrize(("num_players", "seed"), [(2, 0), (3, 1), (4, 0), (4, 1)])
def test_heuristic_bots_sell_robots_and_offer_trades_out_of_turn_in_family_games(num_players, seed):
    sold, out_of_turn = play("heuristic", num_players, seed, family=True)
    assert sold >= 2, f"heuristic bots sold {sold} robots in a {num_players}-player family game"
    assert out_of_turn >= 1, "the heuristic bots made no offer outside their turn"


@pytest.mark.parametrize("family", [False, True])
def test_random_bots_offer_trades_out_of_turn(family):
    _, out_of_turn = play("random", 4, 2, family=family)
    assert out_of_turn >= 20, f"random bots made {out_of_turn} offers outside their turn"
