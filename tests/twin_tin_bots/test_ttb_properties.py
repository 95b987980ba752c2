"""Property tests over seeded random games of every player count and variant mix."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotable import BadInput, IllegalAction, RobotableError
from robotable.core import Match, Rng, replay, visible_events
from robotable.games.twin_tin_bots import GAME, Place, PlaceCrystal, Tile, TtbState
from robotable.games.twin_tin_bots.components import ALL_CRYSTALS, TILE_NAMES

CHECKED_STEPS = 400  # full checks on the first actions of each game, then every 25th


def variant_options() -> st.SearchStrategy[dict[str, object]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "simplified": st.booleans(),
            "teleporters": st.integers(0, 1),
            "rocks": st.integers(0, 2),
            "blobs": st.integers(0, 2),
            "mud": st.integers(0, 3),
            "team_play": st.booleans(),
        },
    )


def hidden_names(state: TtbState, seat: int) -> list[str]:
    """Quoted names of the Special Orders ``seat`` must not see."""
    mine = set(state.seat_colours(seat))
    return [
        f'"{TILE_NAMES[t]}"'
        for c in range(len(state.colours))
        if c not in mine
        for t in state.specials[c]
        if t not in state.revealed[c]
    ]


def check_step(state: TtbState, events: list, started_with_track: bool) -> None:  # type: ignore[type-arg]
    state.check_invariants()  # one thing per hex, tiles owned, each Special Order once...
    census = state.crystal_census()
    assert sum(census.values()) == ALL_CRYSTALS, census
    if state.track and not state.is_over():
        assert census["ground"] + census["carried"] + census["entering"] == len(state.colours) + 3, census
    for seat in range(state.num_players):
        secret = hidden_names(state, seat)
        if not secret:
            continue
        text = json.dumps(state.view(seat)) + json.dumps([e.to_json() for e in visible_events(events, seat)])
        for name in secret:
            assert name not in text, (seat, name)


def play(n: int, seed: int, options: dict[str, object], check_every: int = 1) -> Match:
    match = Match(GAME, n, seed=seed, options=options)
    rng = Rng(seed)
    steps = 0
    while not match.state.is_over():
        state = match.state
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        assert legal, state.view(None)
        events = match.apply(seat, legal[rng.randrange(len(legal))])
        steps += 1
        if steps <= CHECKED_STEPS or steps % 25 == 0:
            check_step(state, events, True)  # type: ignore[arg-type]
        assert steps < 200_000
    return match


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 6), seed=st.integers(0, 2**32), options=variant_options())
def test_random_games_end_conserve_crystals_hide_specials_and_replay(
    n: int, seed: int, options: dict[str, object]
) -> None:
    match = play(n, seed, options)
    state = match.state
    result = state.result()
    assert len(result.scores) == n and result.winners
    again = replay(match.record)
    assert again.to_json() == state.to_json()
    assert GAME.state_from_json(json.loads(json.dumps(state.to_json()))).to_json() == state.to_json()


@pytest.mark.parametrize(
    "options", [{"advanced_2p": True}, {"advanced_2p": True, "simplified": True, "teleporters": 1, "mud": 2}]
)
def test_random_advanced_2p_games(options: dict[str, object]) -> None:
    match = play(2, 11, options)
    assert replay(match.record).to_json() == match.state.to_json()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6), stop=st.integers(0, 300))
def test_illegal_and_malformed_actions_change_nothing(seed: int, n: int, stop: int) -> None:
    state = GAME.start(n, seed=seed, options={"blobs": 1})
    rng = Rng(seed)
    for _ in range(stop):
        if state.is_over():
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    if state.is_over():
        return
    before = state.to_json()
    seat = state.to_act()[0]
    other = (seat + 1) % n
    legal = state.legal_actions(seat)
    candidates = [Place(s, Tile(t)) for s in range(7) for t in range(len(TILE_NAMES))] + [
        PlaceCrystal((q, 9)) for q in range(3)
    ]
    for action in candidates:
        if action in legal:
            continue
        with pytest.raises(IllegalAction):
            state.apply(seat, action)
    if other not in state.to_act():
        with pytest.raises(IllegalAction):
            state.apply(other, legal[0])
    for bad in [
        {"type": "place", "slot": "x", "tile": "dash"},
        {"type": "pass", "extra": 1},
        "pass",
        None,
        {"type": "swap"},
    ]:
        with pytest.raises(BadInput):
            GAME.action_from_json(bad)
    with pytest.raises(RobotableError):
        state.apply(-1, legal[0])
    assert state.to_json() == before


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6), options=variant_options())
def test_is_legal_agrees_with_legal_actions(seed: int, n: int, options: dict[str, object]) -> None:
    from robotable.games.twin_tin_bots.actions import ACTIONS, Swap

    state = GAME.start(n, seed=seed, options=options)
    rng = Rng(seed)
    for _ in range(150):
        if state.is_over():
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        for action in ACTIONS:
            assert state.is_legal(seat, action) == (action in legal), action
            if isinstance(action, Swap):
                assert state.is_legal(seat, Swap(action.slot_b, action.slot_a)) == (action in legal)
        assert not any(state.is_legal((seat + 1) % n, a) for a in legal)
        state.apply(seat, legal[rng.randrange(len(legal))])


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6), options=variant_options())
def test_preview_matches_what_happens(seed: int, n: int, options: dict[str, object]) -> None:
    from robotable.games.twin_tin_bots import preview
    from robotable.games.twin_tin_bots.state import CHANGE

    state = GAME.start(n, seed=seed, options=options)
    rng = Rng(seed)
    compared = 0
    for _ in range(300):
        if state.is_over():
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        if state.phase == CHANGE and state.changes_left == 1 and action.type != "double_modification":
            before = state.to_json()
            p = preview(state, seat, action)
            assert state.to_json() == before
            real = state.clone()
            real.apply(seat, action)
            for name, steps in p.paths.items():
                r = [x["robot"] for x in real.view(None)["robots"]].index(name)
                if p.complete:
                    assert (real.rhex[r], ["E", "NE", "NW", "W", "SW", "SE"][real.rface[r]]) == steps[-1]
            compared += 1
        state.apply(seat, action)
    assert compared or state.is_over()


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6), options=variant_options())
def test_mud_slows_a_robot_at_the_start_of_its_own_turn_only(seed: int, n: int, options: dict[str, object]) -> None:
    """Only a robot in Mud is ever stuck; as a colour's turn starts its robots in Mud are stuck and its
    robots elsewhere are not, while the other colours' robots keep their flags (issue 27)."""
    state = GAME.start(n, seed=seed, options={**options, "mud": 3})
    rng = Rng(seed)
    for _ in range(300):
        if state.is_over():
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        before = state.stuck[:]
        events = state.apply(seat, legal[rng.randrange(len(legal))])
        mud = state.board.mud
        assert all(state.rhex[r] in mud for r, stuck in enumerate(state.stuck) if stuck)
        if events and events[-1].type == "turn_start":
            moved = {e.data["robot"] for e in events if e.type in ("move", "zap_order", "mud")}
            own = state.robots_of(state.active)
            for r in range(len(state.rhex)):
                if r in own:
                    assert state.stuck[r] == (state.rhex[r] in mud)
                elif state.names[r] not in moved:  # not moved, pushed, zapped or slowed: the flag it had
                    assert state.stuck[r] == before[r]
