"""Deliveries, new crystals, Special Order draws, score victory, the end phase, scoring and tie-breaks."""

from __future__ import annotations

import pytest
from ttb_helpers import crystals, position, run, types

from robotable.games.twin_tin_bots import GAME, Pass, PlaceCrystal
from robotable.games.twin_tin_bots.components import SCORE_VICTORY
from robotable.games.twin_tin_bots.game_end import ranking_key
from robotable.games.twin_tin_bots.hexgrid import neighbour, neighbours, opposite
from robotable.games.twin_tin_bots.positions import complete


def deliver_position(**kw: object):  # type: ignore[no-untyped-def]
    """Red robot A next to yellow's Base, carrying a crystal, program: Unload."""
    cargo = kw.pop("cargo", "blue")
    return position(robots={"red": [((-2, 0), "W", cargo)]}, programs={"red": ["unload"]}, **kw)  # type: ignore[arg-type]


def test_blue_delivery_draws_a_special_for_the_base_owner() -> None:
    state = deliver_position(specials={"yellow": ["jump"]})
    before = state.view(0)["colours"][1]["hidden_specials"]
    events = run(state)
    draws = [e for e in events if e.type in ("draw_special", "special_drawn")]
    assert [e.type for e in draws] == ["draw_special", "special_drawn"]
    assert draws[0].audience is None and draws[1].audience == (1,)
    drawn = draws[1].data["tile"]
    assert drawn in state.view(1)["colours"][1]["hand"]
    assert drawn not in state.view(0)["colours"][1]["hand"]
    assert state.view(0)["colours"][1]["hidden_specials"] == before + 1
    assert drawn not in str([e.to_json() for e in events if e.visible_to(0)])


def test_green_delivery_draws_nothing() -> None:
    state = deliver_position(cargo="green")
    events = run(state)
    assert "draw_special" not in types(events)


def test_new_crystal_enters_on_the_centre() -> None:
    state = deliver_position()
    run(state)
    assert crystals(state) == {(0, 0): "green"}
    assert state.view(None)["track"] == ["green", "green", "pink", "pink", "pink", "pink"]


def test_new_crystal_on_an_occupied_centre_is_placed_by_the_active_player() -> None:
    state = deliver_position(crystals=[((0, 0), "blue"), ((1, 0), "pink")])
    events = run(state)
    view = state.view(None)
    assert view["phase"] == "crystal" and state.to_act() == [0]
    expected = sorted(h for h in neighbours((0, 0)) if h != (1, 0))
    assert [tuple(a.hex) for a in state.legal_actions(0)] == expected
    assert "crystal_choice" in types(events)
    state.apply(0, PlaceCrystal((0, -1)))
    assert crystals(state) == {(0, 0): "blue", (1, 0): "pink", (0, -1): "green"}
    assert state.view(None)["active"] == "yellow"


def test_new_crystal_with_one_closest_free_hex_needs_no_choice() -> None:
    ring = [h for h in neighbours((0, 0)) if h != (0, 1)]
    state = deliver_position(
        crystals=[((0, 0), "blue")]
        + [(h, "pink") for h in ring[:2]]
        + [(h, "blue") for h in ring[2:4]]
        + [(ring[4], "green")]
    )
    run(state)
    assert crystals(state)[(0, 1)] == "green"


def active_next_to_own_base(n: int, seed: int = 3, **kw: object):  # type: ignore[no-untyped-def]
    """A game of ``n`` players whose active colour's robot A stands by its own Base with a crystal."""
    state = GAME.start(n, seed=seed, options=kw.pop("options", {}))  # type: ignore[arg-type]
    data = state.to_json()
    c = state.active
    name = state.colours[c]
    base = state.board.bases[c]
    for d in range(6):
        h = neighbour(base, d)
        if state.is_free(h):
            break
    data["robots"][name][0] = {
        "hex": list(h),
        "facing": ["E", "NE", "NW", "W", "SW", "SE"][opposite(d)],
        "cargo": kw.pop("cargo", "pink"),
    }
    data["programs"][name] = ["unload", None, None, None, None, None]
    data["first_turn_done"] = dict.fromkeys(state.colours, True)
    data["changes_left"] = 1
    del data["unused"]  # recomputed by complete()
    data.update(kw)
    return GAME.state_from_json(complete(data)), name


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_score_victory(n: int) -> None:
    target = SCORE_VICTORY[n]
    cargo = "green" if n == 4 else "pink"
    state, name = active_next_to_own_base(n, cargo=cargo)
    seat = state.controller[state.active]
    delivered = {c: [] for c in state.colours}
    delivered[name] = {11: ["pink", "green"], 10: ["green", "green"], 9: ["green", "green"], 8: ["pink"], 7: ["green"]}[
        target
    ]
    data = state.to_json()
    data["delivered"] = delivered
    data["track"] = ["pink"]
    del data["unused"]
    state = GAME.state_from_json(complete(data))
    assert sum(state.delivered[state.active]) + state.rcargo[state.active * 2] == target
    run(state)
    assert state.is_over()
    result = state.result()
    assert result.winners == (seat,)
    assert result.reason.startswith("score victory")


def test_one_point_short_is_no_victory() -> None:
    state, name = active_next_to_own_base(2, cargo="green")
    data = state.to_json()
    data["delivered"][name] = ["pink", "blue"]  # 6 + 3 = 9 < 11
    del data["unused"]
    state = GAME.state_from_json(complete(data))
    run(state)
    assert not state.is_over()


def last_crystal(first_player_delivers: bool):  # type: ignore[no-untyped-def]
    """2 players, one crystal left on the track; red or yellow delivers it in round 1."""
    programs = {"red": ["unload"], "yellow": ["turn_left"]}
    robots = {"red": [((-2, 0), "W", "green")]}
    if not first_player_delivers:
        programs = {"red": ["turn_left"], "yellow": ["unload"]}
        robots = {"yellow": [((2, 0), "E", "green")]}
    return position(robots=robots, programs=programs, track=["pink"])


@pytest.mark.parametrize("first", [True, False], ids=["during the first player's turn", "during another's turn"])
def test_end_phase_lasts_three_more_game_turns(first: bool) -> None:
    state = last_crystal(first)
    log = []
    while not state.is_over():
        view = state.view(None)
        log.append((view["round"], view["active"], view["countdown"], view["end_phase"]))
        state.apply(state.to_act()[0], Pass())
    # The last crystal enters in round 1; round 1 finishes, then rounds 2, 3 and 4 (counters 3-2-1).
    assert log == [
        (1, "red", 3, False),
        (1, "yellow", 3, first),
        (2, "red", 2, True),
        (2, "yellow", 2, True),
        (3, "red", 1, True),
        (3, "yellow", 1, True),
        (4, "red", 0, True),
        (4, "yellow", 0, True),
    ]
    assert state.result().reason.startswith("crystal attrition")


def over(delivered: dict[str, list[str]], cargo: dict[str, list[str | None]] | None = None):  # type: ignore[no-untyped-def]
    """A finished 2-player game."""
    cargo = cargo or {}
    robots = {
        c: [(h, f, cargo.get(c, [None, None])[k]) for k, (h, f) in enumerate(spec)]
        for c, spec in {"red": [((0, -4), "SE"), ((-4, 3), "NE")], "yellow": [((4, -3), "SW"), ((0, 4), "NW")]}.items()
    }
    return position(robots=robots, delivered=delivered, phase="over", end_reason="crystal attrition", track=[])


def test_carried_crystals_score_one_less() -> None:
    state = over({"red": ["blue"], "yellow": ["pink"]}, {"red": ["pink", "green"], "yellow": ["blue", None]})
    result = state.result()
    assert result.scores == (2 + 3 + 2, 4 + 1)


def test_tie_break_most_blue_crystals() -> None:
    result = over({"red": ["blue", "blue", "pink"], "yellow": ["pink", "pink"]}).result()
    assert result.scores == (8, 8) and result.winners == (0,)


def test_tie_break_most_green_crystals() -> None:
    result = over({"red": ["blue", "green", "green"], "yellow": ["blue", "green"]}, {"yellow": ["pink", None]}).result()
    assert result.scores == (8, 8) and result.winners == (0,)


def test_tie_break_highest_value_in_bases() -> None:
    # In the Advanced 2-player game a player has four robots: 10 points each, one blue each.
    red, yellow = ranking_key([4, 4, 2], []), ranking_key([], [4, 4, 4, 2])
    assert red[1:4] == yellow[1:4] == (10, 1, 0) and red > yellow


def test_the_third_tie_break_decides_a_standard_2_player_game() -> None:
    """Issue 27: red (Base: pink 4, carrying a blue) and yellow (Base: blue 2, carrying a pink) both have
    5 points and one blue, no green: the highest value in Bases (red's 4) decides. The game ends by crystal
    attrition at the end of the last round (yellow's turn, no Countdown counter left)."""
    state = position(
        robots={"red": [((0, -4), "SE", "blue")], "yellow": [((4, -3), "SW", "pink")]},
        programs={"red": ["turn_left"], "yellow": ["turn_left"]},
        delivered={"red": ["pink"], "yellow": ["blue"]},
        track=[],
        end_phase=True,
        countdown=0,
        turn=1,
    )
    assert not state.is_over()
    events = run(state)  # yellow's turn ends the last round
    assert "game_over" in types(events) and state.is_over()
    result = state.result()
    assert result.scores == (5, 5)
    assert [key[1:] for key in result.keys] == [(5, 1, 0, 4), (5, 1, 0, 2)]
    assert result.winners == (0,) and result.ranks == (1, 2)
    assert result.reason.startswith("crystal attrition")


def test_tie_break_counts_carried_crystals_as_harvested() -> None:
    # 5 points each: red has a pink in its Base and carries a blue, yellow a green in its Base and
    # carries a green. Blues harvested (in Bases and carried) come first: red wins. Counting only the
    # crystals in Bases, yellow's green would have won.
    result = over({"red": ["pink"], "yellow": ["green"]}, {"red": ["blue", None], "yellow": ["green", None]}).result()
    assert result.scores == (5, 5) and result.winners == (0,) and result.ranks == (1, 2)


def test_tie_break_shared_victory() -> None:
    result = over({"red": ["pink", "blue"], "yellow": ["blue", "pink"]}).result()
    assert result.winners == (0, 1) and result.ranks == (1, 1)


def test_result_before_the_end_is_refused() -> None:
    from robotable import IllegalAction

    with pytest.raises(IllegalAction):
        GAME.start(2, seed=1).result()
