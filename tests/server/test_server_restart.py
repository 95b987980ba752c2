"""A server process killed in the middle of games resumes every table at its last accepted move."""

from __future__ import annotations

import time
from typing import Any

from clock_helpers import timeless
from people import bearer, wait_for

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}


def snapshot(server, table: str, seat: int | None = None, token: str | None = None) -> dict[str, Any]:
    params = {} if seat is None else {"seat": seat}
    res = server.api("GET", f"/api/tables/{table}/state", params=params, headers=bearer(token) if token else None)
    assert res.status_code == 200, res.text
    data = timeless(res.json())  # the clocks' deadlines stay: they survive the restart
    data["table"].pop("updated_at")
    for s in data["table"]["seats"]:
        s.pop("connected")
    return data


def play_first_legal(server, table: str, seat: int, token: str, times: int) -> None:
    """Seat plays its first legal action ``times`` times, waiting for its turn (bots move meanwhile)."""
    done = 0
    deadline = time.monotonic() + 120  # a guard against a hang (generous: a busy machine)
    while done < times and time.monotonic() < deadline:
        now = snapshot(server, table, seat, token)
        if now["legal"]:
            res = server.api(
                "POST",
                f"/api/tables/{table}/moves",
                json={"seat": seat, "action": now["legal"][0], "after": now["moves"]},
                headers=bearer(token),
            )
            assert res.status_code == 200, res.text
            done += 1
        else:
            time.sleep(0.02)
    assert done == times


def test_every_table_resumes_at_its_last_accepted_move(server_factory, create_table) -> None:
    server = server_factory(bot_delay=0.1, bots="spawn")  # as `robotable serve` runs: bots in a worker process
    # a hotseat table of two people: a battle, a load, and seat 0's secret choice pending
    hot = create_table(server, [HUMAN, HUMAN], hotseat=True)
    hot_id, hot_tokens = hot["table"]["id"], hot["tokens"]
    for seat, action in ((0, {"type": "play", "value": 7}), (1, {"type": "play", "value": 2})):
        body = {"seat": seat, "action": action}
        res = server.api("POST", f"/api/tables/{hot_id}/moves", json=body, headers=bearer(hot_tokens[seat]))
        assert res.status_code == 200, res.text
    play_first_legal(server, hot_id, 0, hot_tokens[0], 2)
    # a person against two bots
    solo = create_table(server, [HUMAN, BOT, BOT])
    solo_id, solo_token = solo["table"]["id"], solo["tokens"][0]
    play_first_legal(server, solo_id, 0, solo_token, 6)
    # bots only, playing on their own while the server dies
    bots = create_table(server, [BOT, BOT, BOT])
    bots_id = bots["table"]["id"]
    wait_for(lambda: snapshot(server, bots_id)["moves"] > 0, "the bots' first moves")

    hot_before = [snapshot(server, hot_id, s, hot_tokens[s]) for s in (0, 1)] + [snapshot(server, hot_id)]
    assert "choice" in hot_before[0]["view"]["players"][0]
    # the bots have answered; they now wait for the person
    wait_for(lambda: snapshot(server, solo_id, 0, solo_token)["legal"], "the person's turn at the solo table")
    solo_before = snapshot(server, solo_id, 0, solo_token)
    bots_seen = snapshot(server, bots_id)
    assert not bots_seen["result"] and bots_seen["moves"] > 0

    server.kill()
    # faster now, to finish the bots' game
    again = server_factory(bot_delay=0.02, database=server.database, bots="spawn")

    assert [snapshot(again, hot_id, s, hot_tokens[s]) for s in (0, 1)] + [snapshot(again, hot_id)] == hot_before
    assert snapshot(again, solo_id, 0, solo_token) == solo_before
    bots_after = snapshot(again, bots_id)
    assert bots_after["moves"] >= bots_seen["moves"]
    assert bots_after["log"][: len(bots_seen["log"])] == bots_seen["log"]
    # and play goes on where it stopped
    play_first_legal(again, hot_id, 1, hot_tokens[1], 1)
    assert snapshot(again, hot_id)["moves"] == hot_before[2]["moves"] + 1
    play_first_legal(again, solo_id, 0, solo_token, 1)
    wait_for(lambda: snapshot(again, bots_id)["result"], "the bots' game to end", timeout=120)
    assert snapshot(again, bots_id)["table"]["status"] == "finished"
