"""Undo at Twin Tin Bots and TF22: RELOAD! tables (issue 17), through the real server (in-process, SQLite).

Twin Tin Bots: a program change is taken back until the robots run (the first turn's first placement,
a Double Modification's first change); once they ran (``run``) it never is. TF22: a secret choice is
taken back until everyone has chosen, also at a table of people (no other person moved after it), never
after the reveal. At a table of people, undo is refused once another person moved after one's move.
"""

from __future__ import annotations

from typing import Any

from people import bearer, new_table

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}


def snapshot(client, table: str, seat: int, token: str) -> dict[str, Any]:
    res = client.get(f"/api/tables/{table}/state", params={"seat": seat}, headers=bearer(token))
    assert res.status_code == 200, res.text
    return res.json()


def play(client, table: str, seat: int, token: str, action: dict[str, Any]) -> dict[str, Any]:
    res = client.post(f"/api/tables/{table}/moves", json={"seat": seat, "action": action}, headers=bearer(token))
    assert res.status_code == 200, res.text
    return snapshot(client, table, seat, token)


def undo(client, table: str, seat: int, token: str):
    return client.post(f"/api/tables/{table}/undo", json={"seat": seat}, headers=bearer(token))


def face(snap: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in snap["view"].items() if k != "clock"}


def wait_turn(client, table: str, seat: int, token: str) -> dict[str, Any]:
    for _ in range(200):
        snap = snapshot(client, table, seat, token)
        if snap["legal"]:
            return snap
    raise AssertionError("the seat never got to act")


def place(snap: dict[str, Any], robot: int) -> dict[str, Any]:
    return next(a for a in snap["legal"] if a["type"] == "place" and a["slot"] // 3 == robot)


def test_ttb_program_changes_are_undone_until_the_robots_run(make_client) -> None:
    client = make_client(bot_delay=0.0)
    made = new_table(client, [HUMAN, BOT], game="twin-tin-bots")
    tid, token = made["table"]["id"], made["tokens"][0]
    start = wait_turn(client, tid, 0, token)
    assert start["table"]["undo_supported"] is True and start["can_undo"] is False
    first = play(client, tid, 0, token, place(start, 0))  # the first turn: one placement of two
    assert first["can_undo"] is True and first["view"]["changes_left"] == 1
    res = undo(client, tid, 0, token)
    assert res.status_code == 200, res.text
    again = snapshot(client, tid, 0, token)
    assert face(again) == face(start) and again["legal"] == start["legal"]

    first = play(client, tid, 0, token, place(start, 1))
    ran = play(client, tid, 0, token, place(first, 0))  # the second placement: the robots run
    assert ran["can_undo"] is False
    res = undo(client, tid, 0, token)
    assert res.status_code == 409 and "revealed information" in res.json()["detail"] and "run" in res.json()["detail"]


def test_ttb_people_table_undo_of_ones_own_change_until_another_person_moves(make_client) -> None:
    client = make_client(bot_delay=0.0)
    made = new_table(client, [HUMAN, HUMAN], game="twin-tin-bots")
    tid, tokens = made["table"]["id"], made["tokens"]
    seat = snapshot(client, tid, 0, tokens[0])["to_act"][0]
    other = 1 - seat
    start = snapshot(client, tid, seat, tokens[seat])
    first = play(client, tid, seat, tokens[seat], place(start, 0))
    assert first["can_undo"] is True
    assert undo(client, tid, other, tokens[other]).status_code == 409  # the other has nothing to undo
    assert undo(client, tid, seat, tokens[seat]).status_code == 200
    first = play(client, tid, seat, tokens[seat], place(start, 0))
    play(client, tid, seat, tokens[seat], place(first, 1))  # the robots run; the other person's turn
    nxt = snapshot(client, tid, other, tokens[other])
    play(client, tid, other, tokens[other], place(nxt, 0))
    res = undo(client, tid, seat, tokens[seat])  # the turn has passed to the other person, who moved
    assert res.status_code == 409 and f"seat {other + 1} is to play now" in res.json()["detail"]


def test_tf22_people_table_secret_choice_undone_until_the_reveal(make_client) -> None:
    client = make_client(bot_delay=0.0)
    made = new_table(client, [HUMAN, HUMAN, BOT], game="tf22-reload")
    tid, tokens = made["table"]["id"], made["tokens"]
    start = snapshot(client, tid, 0, tokens[0])
    chose = play(client, tid, 0, tokens[0], {"type": "play", "value": 5})
    assert chose["can_undo"] is True  # seat 2 (the other person) has not chosen: the bot waits too
    assert undo(client, tid, 0, tokens[0]).status_code == 200
    assert face(snapshot(client, tid, 0, tokens[0])) == face(start)
    play(client, tid, 0, tokens[0], {"type": "play", "value": 3})
    play(client, tid, 1, tokens[1], {"type": "play", "value": 6})  # the bot chooses: the reveal
    for _ in range(200):
        if snapshot(client, tid, 0, tokens[0])["view"]["last_battle"]:
            break
    after = snapshot(client, tid, 0, tokens[0])
    assert after["can_undo"] is False
    res = undo(client, tid, 0, tokens[0])
    assert res.status_code == 409
    assert "another player's move" in res.json()["detail"] or "revealed" in res.json()["detail"]
