"""Robots on the Line heuristics: the hand estimate, sensible choices, and the search helpers."""

from __future__ import annotations

from robotable import games
from robotable.ai import Decision, make_agent
from robotable.ai.heuristics import robots_on_the_line as rotl
from robotable.core import Rng
from robotable.games.robots_on_the_line import (
    Accept,
    Decline,
    EndTurn,
    FlipSwitch,
    FlipSwitches,
    Offer,
    SellRobot,
    TakePart,
)
from robotable.games.robots_on_the_line.components import PART_IDS, REQUIREMENT_IDS, TORSO_IDS
from robotable.games.robots_on_the_line.line import EMPTY as pid_empty
from robotable.games.robots_on_the_line.line import pid

GAME = games.load("robots-on-the-line")


def parts(*names: str) -> list[int]:
    return sorted(PART_IDS[n] for n in names)


def test_missing_parts_counts_what_a_plain_robot_lacks():
    torso = TORSO_IDS["torso-07"]  # four segments: N, E, S, W
    full = parts("head-01", "base-07", "hand-16", "hand-20")
    assert rotl.missing_parts(full, torso, ()) == 0
    assert rotl.missing_parts(full[1:], torso, ()) == 1  # no head
    assert rotl.missing_parts(parts("head-01"), torso, ()) == 3  # a base and two more ends
    three_eyes = (REQUIREMENT_IDS["req-03"],)
    assert rotl.missing_parts(full, torso, three_eyes) == 1  # a one-eyed head cannot make 3 eyes
    assert rotl.missing_parts(parts("head-14", "base-07", "hand-16", "hand-20"), torso, three_eyes) == 0


def test_potential_rises_as_a_hand_nears_a_sale():
    state = GAME.start(2, seed=1)
    table = rotl.Table.from_state(state, 0)
    torso = TORSO_IDS["torso-07"]
    near = parts("head-01", "base-07", "hand-16")
    assert rotl.potential(near + parts("hand-20"), torso, table.buyers) >= rotl.potential(near, torso, table.buyers)
    assert rotl.potential(near, -1, table.buyers) == 0.0


def test_the_heuristic_sells_a_robot_it_can_sell():
    state = GAME.start(2, seed=1)
    agent = make_agent("heuristic", seed=1)
    for _ in range(400):
        if state.is_over():
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        action = agent.act(state, seat)
        if seat == state.turn and any(isinstance(a, SellRobot) for a in legal):
            assert isinstance(action, SellRobot)
            return
        state.apply(seat, action)
    raise AssertionError("no sale came up in a heuristic game")


def test_the_heuristic_takes_a_part_on_its_first_turn_and_ends_the_turn_later():
    state = GAME.start(2, seed=2)
    agent = make_agent("heuristic", seed=1)
    seen: list[object] = []
    while state.turn == 0 and not state.is_over():
        action = agent.act(state, 0)
        seen.append(action)
        state.apply(0, action)
    assert any(isinstance(a, TakePart) for a in seen) or any(a.type == "search_junk" for a in seen)
    assert isinstance(seen[-1], EndTurn)


def test_offers_are_accepted_only_when_they_gain_enough():
    state = GAME.start(2, seed=3)
    state.apply(0, next(a for a in state.legal_actions(0) if isinstance(a, TakePart)))  # seen by all
    state.apply(0, EndTurn())  # seat 1's turn: it makes seat 0 offers
    shown = [p for p in state.hands[0] if p not in state.secret[0]]
    assert shown
    answered = 0
    for give in state.hands[1]:
        for take in shown:
            offer = Offer(0, (pid(give),), (pid(take),), 0, 0)
            trial = state.clone()
            if not trial.is_legal(1, offer):
                continue
            trial.apply(1, offer)
            decision = Decision.of(trial, 0)
            answer = rotl.choose(decision, Rng(1))
            table = rotl.Table.from_view(decision.view, 0)
            gain = rotl._offer_gain(table, [take], [give], 0, 0)
            assert isinstance(answer, Accept if gain > rotl.ACCEPT_GAIN else Decline)
            answered += 1
    assert answered


def test_rollout_and_model_return_legal_actions_and_evaluate_is_a_reward():
    state = GAME.start(3, seed=4)
    rng = Rng(4)
    for _ in range(120):
        if state.is_over():
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        assert rotl.model(state, seat, legal, rng) in legal
        action = rotl.rollout(state, seat, legal, rng)
        assert action in legal
        state.apply(seat, action)
        rewards = rotl.evaluate(state)
        assert len(rewards) == 3 and all(0.0 <= r <= 1.0 for r in rewards)


def test_levels_override_every_difficulty():
    assert set(rotl.LEVELS) == {"easy", "medium", "hard"}
    known = {
        "iterations",
        "seconds",
        "max_wall",
        "rollout_depth",
        "model_opponents",
        "root_width",
        "guide_bias",
        "model_rollouts",
        "paired",
        "paired_z",
        "paired_gain",
        "tree_seconds",
    }
    for params in rotl.LEVELS.values():
        assert {"iterations", "seconds", "rollout_depth", "model_opponents"} <= set(params) <= known
    # a level that thinks longer is not given fewer iterations for it
    order = [rotl.LEVELS[name] for name in ("easy", "medium", "hard")]
    assert [p["seconds"] for p in order] == sorted(p["seconds"] for p in order)
    assert [p["iterations"] for p in order] == sorted(p["iterations"] for p in order)


def test_search_keeps_at_most_the_heuristics_switch_flip():
    """Flips are unlimited: search would flip back and forth (see ``prune``); it keeps one at most."""
    pruned_some = 0
    for seed in range(12):
        state = GAME.start(2, seed=seed)
        rng = Rng(seed)
        for _ in range(60):
            if state.is_over():
                break
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            flips = [a for a in legal if isinstance(a, FlipSwitches | FlipSwitch)]
            kept = rotl.prune(state, seat, legal)
            assert [a for a in legal if a not in flips] == [a for a in kept if a not in flips]
            kept_flips = [a for a in kept if a in flips]
            assert len(kept_flips) <= 1
            pruned_some += len(flips) > len(kept_flips)
            choice = rotl.model(state, seat, legal, rng)
            if choice in flips:  # the heuristic's own flip is the one search keeps
                assert kept_flips == [choice]
            state.apply(seat, choice)
    assert pruned_some


def _hand_for_evaluation(state, seat: int) -> None:
    """Seat ``seat`` holds a torso and a head (a robot 2+ parts away); the other seat the same head only."""
    state.torso[seat] = TORSO_IDS["torso-07"]
    for s in range(state.num_players):
        state.hands[s] = parts("head-01")
        state.money[s] = 10


def test_evaluate_counts_a_robot_only_while_there_are_turns_to_finish_it():
    """Early on, a torso with a head is worth more than the head alone; with no parts left to come, an
    unfinished robot is worth nothing more than its parts (fails on the old evaluator, which counted
    the potential whatever the time left)."""
    early = GAME.start(2, seed=5)
    _hand_for_evaluation(early, 0)
    assert rotl.turns_left(early, 0) > 3
    assert rotl.evaluate(early)[0] > 0.5
    late = early.clone()
    late.draw = [[], []]
    late.lines = [[pid_empty] * len(line) for line in late.lines]
    assert rotl.turns_left(late, 0) == 0
    assert rotl.evaluate(late)[0] == 0.5


def test_turns_left_shares_the_coming_parts_among_the_seats():
    state = GAME.start(3, seed=6)
    coming = sum(len(d) for d in state.draw) + sum(1 for line in state.lines for p in line if p >= 0)
    total = sum(rotl.turns_left(state, seat) for seat in range(3))
    assert total == coming // 2
    state.robots[1] = 3  # a sale may end the game
    assert all(rotl.turns_left(state, seat) <= 2 for seat in range(3))
