"""The engine's fast paths agree with the plain rules: the compiled program run with
:func:`running.run`, the board's move tables with the movement and zap rules, the listed changes
with the legality checks, and ``apply`` with the generic checks of :meth:`State.apply`."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_ttb_properties import variant_options

from robotable import RobotableError
from robotable.core import Rng, State
from robotable.games.twin_tin_bots import GAME, TtbState, compiled, running
from robotable.games.twin_tin_bots.actions import ACTIONS, CHANGES
from robotable.games.twin_tin_bots.board import Board
from robotable.games.twin_tin_bots.components import TILE_NAMES, ZAP_RANGE, Tile
from robotable.games.twin_tin_bots.hexgrid import OFFSETS
from robotable.games.twin_tin_bots.movement import next_hex, push_line
from robotable.games.twin_tin_bots.phases import BLOB, CHANGE, CRYSTAL, RUN, ZAP
from robotable.games.twin_tin_bots.programs import legal_changes, legal_changes_listed, tile_counts
from robotable.games.twin_tin_bots.state import DISPATCH
from robotable.games.twin_tin_bots.zaps import zap_scan

TURNS = 30
EVERY_TILE = [t for t in range(len(TILE_NAMES)) if t != Tile.DOUBLE_MODIFICATION]


def random_position(players: int, seed: int, steps: int, options: dict[str, object]) -> TtbState:
    """A position ``steps`` random actions into a seeded game."""
    state = GAME.start(players, seed=seed, options=options)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over():
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    return state  # type: ignore[return-value]


def finish_turn(state: TtbState, run, rng: Rng) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    """Run the programs with ``run`` to the end of the turn, taking each pending decision at random."""
    events: list = []  # type: ignore[type-arg]
    run(state, events)
    while state.phase in (ZAP, BLOB, CRYSTAL):
        legal = state.legal_actions(state.to_act()[0])
        action = legal[rng.randrange(len(legal))]
        DISPATCH[type(action)][1](state, action, events)
        if state.phase == RUN:
            run(state, events)
    return [{**e.to_json(), "audience": e.audience} for e in events]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 300),
    options=variant_options(),
)
def test_the_compiled_run_and_the_plain_run_agree(players, seed, steps, options):
    """Turn after turn, the active colour gets any program (Special Orders included: the run does not
    ask who owns them) and robots random cargo; both runs give the same events and position."""
    state = random_position(players, seed, steps, options)
    rng = Rng(seed)
    for _ in range(TURNS):
        if state.is_over() or state.phase != CHANGE:
            return
        state.programs[state.active][:] = [rng.choice([*EVERY_TILE, -1]) for _ in range(6)]
        for rid in range(len(state.rcargo)):
            if rng.random() < 0.2:
                state.rcargo[rid] = rng.choice([0, 2, 3, 4])
        state.start_run([])
        plain = state.clone()
        decisions = rng.randrange(10**9)
        plain_events = finish_turn(plain, running.run, Rng(decisions))
        fast_events = finish_turn(state, compiled.run, Rng(decisions))
        assert fast_events == plain_events
        assert state.to_json() == plain.to_json()


@settings(max_examples=40, deadline=None)
@given(options=variant_options(), players=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_the_move_tables_agree_with_the_movement_and_zap_rules(options, players, seed):
    board: Board = GAME.start(players, seed=seed, options=options).board  # type: ignore[attr-defined]
    step_to, walled, line_of_fire, in_reach = board.tables
    nothing = {}.get
    for h in board.hexes:
        for d in range(6):
            n = (h[0] + OFFSETS[d][0], h[1] + OFFSETS[d][1])
            assert step_to[h][d] == (None if board.solid(n) or n in board.tele else n)
            if step_to[h][d] is not None:
                assert step_to[h][d] == next_hex(board, h, d)
            assert walled[h][d] == board.solid(n)
            if walled[h][d]:
                assert push_line(board, nothing, h, d, dash=True) is None
            crossed, stop = line_of_fire[h][d]
            for reach in (1, 2, 10**6):
                hit = zap_scan(board, nothing, h, d, reach)
                expected = (stop, None) if len(crossed) < reach and stop is not None else None
                assert hit == expected
            crossed, stop = in_reach[h][d]
            assert zap_scan(board, nothing, h, d, ZAP_RANGE) == ((stop, None) if stop is not None else None)
            assert len(crossed) <= ZAP_RANGE
            assert crossed == line_of_fire[h][d][0][:ZAP_RANGE]


@settings(max_examples=80, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6), steps=st.integers(0, 200), options=variant_options())
def test_the_listed_changes_are_exactly_the_legal_ones_in_order(players, seed, steps, options):
    state = random_position(players, seed, steps, options)
    if state.is_over() or state.phase != CHANGE:
        return
    seat = state.to_act()[0]
    listed = legal_changes(state)
    every_change = [a for a in ACTIONS if isinstance(a, CHANGES)]
    assert listed == [a for a in every_change if state.is_legal(seat, a)]
    assert len(set(listed)) == len(listed)


@settings(max_examples=80, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 200),
    options=variant_options(),
    dm_used=st.booleans(),
)
def test_the_listing_from_tables_agrees_with_the_rules_on_any_board(players, seed, steps, options, dm_used):
    """The listing from tables (a hand packed in one int, rows per hand, slot and tile there) gives the
    rules' listing and exactly the legal changes, on boards dealt at random from the colour's tiles."""
    state = random_position(players, seed, steps, options)
    if state.is_over() or state.phase != CHANGE:
        return
    rng = Rng(seed)
    c, seat = state.active, state.to_act()[0]
    for _ in range(10):
        owned = tile_counts([], state.specials[c], True)
        tiles = [t for t, n in enumerate(owned) for _ in range(n)]
        rng.shuffle(tiles)
        slots = len(state.programs[c])
        state.programs[c][:] = [tiles.pop() if tiles and rng.random() < 0.7 else -1 for _ in range(slots)]
        state.dm_used[c] = dm_used
        state.first_done[c] = rng.random() < 0.8
        listed = legal_changes(state)
        assert listed == legal_changes_listed(state)
        every_change = [a for a in ACTIONS if isinstance(a, CHANGES)]
        assert listed == [a for a in every_change if state.is_legal(seat, a)]


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 150),
    index=st.integers(0, len(ACTIONS) - 1),
    seat=st.sampled_from([0, 1, 2, 3, True, -1, 1.0]),
)
def test_apply_accepts_and_refuses_as_the_generic_checks_do(players, seed, steps, index, seat):
    state = random_position(players, seed, steps, {})
    generic = state.clone()
    action = ACTIONS[index]
    try:
        State.check(generic, seat, action)  # type: ignore[arg-type]
    except RobotableError as exc:
        before = state.to_json()
        with pytest.raises(type(exc)) as refused:
            state.apply(seat, action)  # type: ignore[arg-type]
        assert str(refused.value) == str(exc)
        assert state.to_json() == before
        return
    events = state.apply(seat, action)  # type: ignore[arg-type]
    assert [e.to_json() for e in events] == [e.to_json() for e in generic.apply_legal(seat, action)]  # type: ignore[arg-type]
    assert state.to_json() == generic.to_json()
