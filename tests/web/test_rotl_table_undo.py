"""Undo at a Robots on the Line table (issue 17): taking a part, switch flips and junk searches are taken
back until the turn ends; a move that showed something hidden (the next torso of the stack, the
stack's order, a dealt part given to a junk pile, a part drawn onto a line at the end of the turn) is
never undone.

Through the real server (in-process, SQLite) from a written position: the bots hold no parts, so they
have no trade offer to make while the person plays (an offer would itself be a barrier: it may show a
dealt part). A property test over random games holds the game's ``undo_barriers`` to the state: a move
without a barrier event changes nothing hidden (draw piles, maintenance stack, the torso stack's top,
anyone's unseen parts).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from people import bearer, new_table

from robotable.games.robots_on_the_line import GAME

HUMAN = {"kind": "human", "name": "Ada"}
BOT = {"kind": "bot", "difficulty": "random"}


def quiet_bots_position(seed: int = 3) -> dict[str, Any]:
    """A start in which the bots' dealt parts lie on the junk piles: they have nothing to offer."""
    data = GAME.start(num_players=3, seed=seed).to_json()
    for seat in (1, 2):
        data["junk_piles"][seat - 1] = data["junk_piles"][seat - 1] + data["hands"][seat]
        data["hands"][seat] = []
        data["secret"][seat] = []
    GAME.state_from_json(data)
    return data


@pytest.fixture
def table(make_client, monkeypatch):
    monkeypatch.setenv("ROBOTABLE_ALLOW_POSITIONS", "1")
    client = make_client(bot_delay=0.0)
    made = new_table(client, [HUMAN, BOT, BOT], game="robots-on-the-line", position=quiet_bots_position())
    return client, made["table"]["id"], made["tokens"][0]


def snapshot(client, table: str, token: str) -> dict[str, Any]:
    res = client.get(f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(token))
    assert res.status_code == 200, res.text
    return res.json()


def play(client, table: str, token: str, action: dict[str, Any]) -> dict[str, Any]:
    res = client.post(f"/api/tables/{table}/moves", json={"seat": 0, "action": action}, headers=bearer(token))
    assert res.status_code == 200, res.text
    return snapshot(client, table, token)


def undo(client, table: str, token: str):
    return client.post(f"/api/tables/{table}/undo", json={"seat": 0}, headers=bearer(token))


def first(snap: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(a for a in snap["legal"] if a["type"] == kind)


def table_face(snap: dict[str, Any]) -> dict[str, Any]:
    """What undo must restore: the whole view but the clock."""
    return {k: v for k, v in snap["view"].items() if k != "clock"}


def test_take_flip_and_junk_moves_are_undone_one_at_a_time(table) -> None:
    client, tid, token = table
    start = snapshot(client, tid, token)
    assert start["table"]["undo_supported"] is True and start["can_undo"] is False
    assert undo(client, tid, token).status_code == 409  # nothing to undo yet

    flipped = play(client, tid, token, first(start, "flip_switches"))
    assert flipped["view"]["players"][0]["money"] == 4 and flipped["can_undo"] is True
    searched = play(client, tid, token, first(flipped, "search_junk"))
    assert searched["view"]["this_turn"]["part_taken"] is True and searched["can_undo"] is True
    for before in (flipped, start):  # each undo takes back one move
        res = undo(client, tid, token)
        assert res.status_code == 200, res.text
        now = snapshot(client, tid, token)
        assert table_face(now) == table_face(before)
        assert now["legal"] == before["legal"]
    assert snapshot(client, tid, token)["can_undo"] is False

    took = play(client, tid, token, first(start, "take_part"))
    assert len(took["view"]["players"][0]["hand"]) > len(start["view"]["players"][0]["hand"])
    assert undo(client, tid, token).status_code == 200
    assert table_face(snapshot(client, tid, token)) == table_face(start)


def test_undo_is_refused_after_a_reveal(table) -> None:
    client, tid, token = table
    start = snapshot(client, tid, token)
    took = play(client, tid, token, first(start, "take_part"))
    dealt = start["view"]["players"][0]["hand"]
    give = next(a for a in took["legal"] if a["type"] == "trade_junk" and a["part"] in dealt)
    traded = play(client, tid, token, give)  # a part only its holder had seen goes face up on the pile
    assert traded["view"]["this_turn"]["junk_trades"] == 1 and traded["can_undo"] is False
    res = undo(client, tid, token)
    assert res.status_code == 409 and "revealed information (traded_junk)" in res.json()["detail"]
    torso = play(client, tid, token, first(traded, "take_torso"))  # shows the next torso of the stack
    assert torso["view"]["torso_stack"]["top"] != start["view"]["torso_stack"]["top"]
    assert torso["can_undo"] is False
    res = undo(client, tid, token)
    assert res.status_code == 409 and "revealed information (took_torso)" in res.json()["detail"]
    assert snapshot(client, tid, token)["moves"] == torso["moves"]

    # the end of the turn draws onto the lines (and the bots play on): never undone
    ended = play(client, tid, token, first(torso, "end_turn"))
    assert ended["can_undo"] is False
    res = undo(client, tid, token)
    assert res.status_code == 409 and "revealed information" in res.json()["detail"]


def test_choosing_a_torso_shows_the_stack_and_cannot_be_undone(table) -> None:
    client, tid, token = table
    start = snapshot(client, tid, token)
    chose = play(client, tid, token, first(start, "choose_torso"))
    assert any(e["type"] == "torso_stack_seen" for e in chose["log"])
    res = undo(client, tid, token)
    assert res.status_code == 409 and "torso_stack_seen" in res.json()["detail"]


def hidden(state, viewer: int) -> dict[str, Any]:
    """What ``viewer`` cannot see, as far as a move could show it."""
    v = state.view(viewer)
    return {
        "draw": v["draw_piles"],
        "maintenance": v["maintenance"]["stack"],
        "unknown": [p["unknown_parts"] for p in v["players"]],
    }


@pytest.mark.parametrize("seed", range(6))
def test_a_move_without_a_barrier_event_shows_nothing_hidden(seed: int) -> None:
    rng = random.Random(seed)
    barriers = GAME.undo_barriers
    state = GAME.start(num_players=3, seed=seed, options={"three_new_tiles": bool(seed % 2)})
    for _ in range(600):
        if state.is_over():
            break
        seats = state.to_act() or state.optional_actors()
        seat = seats[rng.randrange(len(seats))]
        legal = state.legal_actions(seat)
        if not legal:
            break
        action = legal[rng.randrange(len(legal))]
        before = {v: hidden(state, v) for v in range(3)}
        top = state.view(None)["torso_stack"]["top"]
        mine = state.view(seat)["players"][seat]["torso"]
        events = state.apply(seat, action)
        if {e.type for e in events} & barriers:
            continue
        for viewer in range(3):
            assert hidden(state, viewer) == before[viewer], (action, [e.type for e in events])
        assert state.view(None)["torso_stack"]["top"] in (top, mine), action
