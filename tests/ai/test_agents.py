"""Agents: always legal, reproducible, and blind to what their seat may not know."""

from __future__ import annotations

import pytest

from robotable import games
from robotable.ai import Decision, HeuristicAgent, ISMCTSAgent, RandomAgent, heuristics, make_agent
from robotable.ai.ismcts import rank_rewards
from robotable.core import BadInput, Match, Rng

GAMES = games.available()
#: Games whose heuristics (agent, rollout policy, evaluator) exist; search needs them to finish rollouts.
SEARCHABLE = [g for g in GAMES if heuristics.for_game(g) is not None]
#: Games still waiting for their heuristics (issue: AI opponents). Shrinks to nothing as they land.
PENDING_HEURISTICS: set[str] = set()
#: The game whose searches also run rollouts to the very end (the other games' random rollouts last thousands
#: of actions, so their searches always stop rollouts early).
FULL = "tf22-reload"


def test_only_the_known_pending_games_lack_heuristics():
    assert set(GAMES) - set(SEARCHABLE) <= PENDING_HEURISTICS


def small_agents(seed: int) -> dict[str, object]:
    """One of each kind, with search budgets small enough for tests."""
    return {
        "random": RandomAgent(seed),
        "heuristic": HeuristicAgent(seed),
        "ismcts": ISMCTSAgent(seed, iterations=12, rollout_depth=6),
        "ismcts-full-rollouts": ISMCTSAgent(seed, iterations=4, evaluator=None),
        # the guided root (hard levels of Twin Tin Bots and Robots on the Line): the heuristic's
        # choice first, a few candidates, heuristic rollouts
        "ismcts-guided": ISMCTSAgent(
            seed, iterations=8, rollout_depth=3, root_width=3, guide_bias=1.0, model_rollouts=0.5, model_opponents=0.5
        ),
    }


def play(game_id: str, players: int, seed: int, agents: list, moves: int | None = None) -> Match:
    """A game of ``agents`` (to its end, or its first ``moves`` moves)."""
    match = Match(game_id, players, seed=seed)
    while not match.state.is_over() and (moves is None or len(match.record.moves) < moves):
        seat = match.state.to_act()[0]
        action = agents[seat].act(match.state, seat)
        assert action in match.state.legal_actions(seat), (seat, action)
        match.apply(seat, action)
    return match


def _counts(game_id: str) -> range:
    game = games.load(game_id)
    return range(game.min_players, game.max_players + 1)


def _search_count(kind: str, game_id: str) -> int:
    """The player count of the whole game a search kind plays in test_every_agent_plays_only_legal_actions."""
    counts = _counts(game_id)
    return max(counts) if kind == "ismcts" else min(counts)


# one test per game, agent and player count (a game each), so parallel test workers share them
@pytest.mark.parametrize(
    ("game_id", "kind", "players"),
    [
        (g, k, n)
        for g, k in [(g, "random") for g in GAMES]
        + [(g, k) for g in SEARCHABLE for k in ("heuristic", "ismcts", "ismcts-guided")]
        # rollouts to the very end: one game is enough for this code path (search on Twin Tin Bots and
        # Robots on the Line always stops rollouts early: their random rollouts last thousands of actions)
        + [(FULL, "ismcts-full-rollouts")]
        for n in _counts(g)
        # each search plays one whole game: the plain one at the most seats, the guided one (and full
        # rollouts) at the fewest, so a game's smallest and largest tables both see a search to the end; every
        # search kind is asked at other counts by test_agents_answer_every_reachable_decision_of_random_games
        if not k.startswith("ismcts") or n == _search_count(k, g)
    ],
)
def test_every_agent_plays_only_legal_actions_to_the_end(game_id, kind, players):
    # a tiny search plays nearly at random: it takes seat 0, heuristics the others, so games end
    kinds = [kind] + [kind if not kind.startswith("ismcts") else "heuristic"] * (players - 1)
    agents = [small_agents(players * 10 + seat)[k] for seat, k in enumerate(kinds)]
    match = play(game_id, players, seed=players, agents=agents)
    assert match.state.result().winners


# one test per game and seed (a random game each), so parallel test workers share them
@pytest.mark.parametrize(("game_id", "seed"), [(g, seed) for g in SEARCHABLE for seed in range(4)])
def test_agents_answer_every_reachable_decision_of_random_games(game_id, seed):
    """Random games reach every kind of situation; each agent is asked at every step of them."""
    game = games.load(game_id)
    agents = small_agents(5)
    players = game.min_players + seed % (game.max_players - game.min_players + 1)
    match = Match(game_id, players, seed=seed)
    rng = Rng(seed)
    # full rollouts on TF22 only: see test_every_agent_plays_only_legal_actions_to_the_end
    searches = [k for k in agents if k.startswith("ismcts") and (k != "ismcts-full-rollouts" or game_id == FULL)]
    step = 0
    while not match.state.is_over() and step < 400:  # random games of some games run to thousands
        waiting = match.state.to_act()
        for seat in waiting:  # every seat the game waits for, simultaneous choices included
            legal = match.state.legal_actions(seat)
            for kind, agent in agents.items():
                # search is slower: one search kind at every seventh step, the kinds in turn
                if kind.startswith("ismcts") and (step % 7 or kind != searches[step // 7 % len(searches)]):
                    continue
                assert agent.act(match.state, seat) in legal, kind
        seat = waiting[rng.randrange(len(waiting))]
        legal = match.state.legal_actions(seat)
        match.apply(seat, legal[rng.randrange(len(legal))])
        step += 1


@pytest.mark.parametrize(
    ("game_id", "spec"),
    [(g, "random") for g in GAMES] + [(g, s) for g in SEARCHABLE for s in ("heuristic", "ismcts:easy")],
)
def test_the_same_seed_gives_the_same_game(game_id, spec):
    game = games.load(game_id)
    n = game.min_players
    moves = 30 if spec.startswith("ismcts") else None  # a search's first 30 moves (whole games: 30 s and more)
    first = play(game_id, n, 3, [make_agent(spec, seed=s) for s in range(n)], moves)
    again = play(game_id, n, 3, [make_agent(spec, seed=s) for s in range(n)], moves)
    assert first.record.moves == again.record.moves
    assert len(first.record.moves) == moves or first.state.is_over()


def _hidden_variants(state, seat, seed):
    """States ``seat`` cannot tell from ``state``: other hidden parts resampled from another seat's view."""
    others = [o for o in range(state.num_players) if o != seat]
    for k, other in enumerate(others):
        variant = state.determinize(other, Rng(seed + k))  # reshuffles what `other` does not know
        if variant.view(seat) == state.view(seat):
            yield variant


@pytest.mark.parametrize(
    ("game_id", "kind"),
    [(g, "random") for g in GAMES] + [(g, k) for g in SEARCHABLE for k in ("heuristic", "ismcts", "ismcts-guided")],
)
def test_an_agent_never_reads_hidden_information(game_id, kind):
    game = games.load(game_id)
    checked = 0
    for seed in range(6):
        state = game.start(game.min_players + seed % 2 if game.max_players > game.min_players else 2, seed=seed)
        rng = Rng(seed)
        for _ in range(rng.randrange(40)):
            if state.is_over():
                break
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            state.apply_legal(seat, legal[rng.randrange(len(legal))])
        if state.is_over():
            continue
        seat = state.to_act()[-1]
        expected = small_agents(seed)[kind].act(state, seat)
        for variant in _hidden_variants(state, seat, seed):
            assert small_agents(seed)[kind].act(variant, seat) == expected
            checked += 1
    assert checked > 0


def test_agent_specs_and_their_errors():
    assert make_agent("ismcts:hard").name == "ismcts:hard"
    assert make_agent("heuristic").name == "heuristic"
    for bad, message in [
        ("genius", "unknown agent 'genius'"),
        ("ismcts", "ismcts needs a level"),
        ("ismcts:impossible", "ismcts needs a level"),
        ("random:hard", "takes no level"),
    ]:
        with pytest.raises(BadInput, match=message):
            make_agent(bad)
    with pytest.raises(ValueError):
        ISMCTSAgent(iterations=None, seconds=None)


def test_search_with_a_time_budget_returns_a_legal_action():
    state = games.load(GAMES[0]).start(2, seed=1)
    seat = state.to_act()[0]
    agent = ISMCTSAgent(seed=1, iterations=None, seconds=0.05)
    assert agent.act(state, seat) in state.legal_actions(seat)


def test_rank_rewards_split_ties_and_order_places():
    state = games.load("tf22-reload").start(3, seed=2)
    robotable_rng = Rng(2)
    from robotable.core import play_random

    play_random(state, robotable_rng)
    rewards = rank_rewards(state)
    ranks = state.result().ranks
    for a in range(3):
        for b in range(3):
            if ranks[a] < ranks[b]:
                assert rewards[a] > rewards[b]
    assert all(0.0 <= r <= 1.0 for r in rewards)


def test_decision_carries_no_state_but_the_sampler():
    state = games.load("tf22-reload").start(2, seed=4)
    decision = Decision.of(state, 0)
    assert decision.game == "tf22-reload" and decision.view == state.view(0)
    sample = decision.sample(Rng(1))
    assert sample is not state and sample.view(0) == state.view(0)


def test_search_reopens_other_seats_secret_choices_instead_of_guessing_them():
    state = games.load("tf22-reload").start(3, seed=4)
    state.apply(0, state.legal_actions(0)[-1])
    sample = Decision.of(state, 1).sample(Rng(2))
    assert sample.to_act() == [1, 2]
    sample.reopen_choices(1)
    assert sample.to_act() == [0, 1, 2]  # seat 0 chooses again inside the search
    assert state.to_act() == [1, 2]  # the real game is untouched


def _busy_decision(game_id: str, seed: int) -> Decision:
    """A decision with many legal actions, reached by heuristic play."""
    state = games.load(game_id).start(2, seed=seed)
    agent = HeuristicAgent(seed)
    for _ in range(200):
        if state.is_over():
            break
        seat = state.to_act()[0]
        if len(state.legal_actions(seat)) >= 8:
            return Decision.of(state, seat)
        state.apply(seat, agent.act(state, seat))
    raise AssertionError(f"no decision with 8 or more actions in {game_id}")


@pytest.mark.parametrize("game_id", SEARCHABLE)
def test_the_root_candidates_start_with_the_heuristics_choice_and_bound_the_search(game_id):
    decision = _busy_decision(game_id, 3)
    ranker = ISMCTSAgent(7, iterations=20, rollout_depth=2, root_width=2)
    ranker._bind(game_id)
    ranked = ranker.candidates(decision)
    assert ranked[0] == HeuristicAgent(7).choose(decision)
    assert sorted(map(repr, ranked)) == sorted(map(repr, set(ranked)))  # no action twice
    assert set(ranked) <= set(decision.legal)
    # same seed, same candidates: the search keeps to the first two
    assert ISMCTSAgent(7, iterations=20, rollout_depth=2, root_width=2).choose(decision) in ranked[:2]


@pytest.mark.parametrize("game_id", SEARCHABLE)
def test_a_strong_guide_bias_plays_the_heuristics_choice(game_id):
    decision = _busy_decision(game_id, 4)
    # every searched action is tried once, then the bias keeps the search on the guide's
    guided = ISMCTSAgent(9, iterations=30, rollout_depth=2, root_width=4, guide_bias=1000.0).choose(decision)
    assert guided == HeuristicAgent(9).choose(decision)
