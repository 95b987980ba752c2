"""Robots on the Line over the HTTP API: trading "at any time" (``State.optional_actors``).

A person who is not taking their turn and has no offer to answer gets trade offers among their legal
moves and may make one; a bot makes offers during a person's turn; junk-pile trades stay on one's own
turn.
"""

from __future__ import annotations

import time
from typing import Any

from people import bearer

NAME = "robots-on-the-line"


def reader(client, table: str, token: str, seat: int):
    def state() -> dict[str, Any]:
        res = client.get(f"/api/tables/{table}/state", params={"seat": seat}, headers=bearer(token))
        assert res.status_code == 200, res.text
        return res.json()

    return state


def move(client, table: str, seat: int, token: str, action: dict[str, Any]):
    return client.post(f"/api/tables/{table}/moves", json={"seat": seat, "action": action}, headers=bearer(token))


def test_a_person_offers_a_trade_during_another_persons_turn(make_client, create_table):
    client = make_client(bot_delay=0.0)
    made = create_table(client, [{"kind": "human"}, {"kind": "human"}], game=NAME)
    table, tokens = made["table"]["id"], made["tokens"]
    seat1 = reader(client, table, tokens[1], 1)
    assert seat1()["legal"] == []  # seat 0's dealt parts are unseen: nothing to ask for yet
    take = next(a for a in reader(client, table, tokens[0], 0)()["legal"] if a["type"] == "take_part")
    assert move(client, table, 0, tokens[0], take).status_code == 200
    now = seat1()
    assert now["to_act"] == [0] and now["legal"] and {a["type"] for a in now["legal"]} == {"offer"}
    offer = {**now["legal"][0], "take_money": 0, "give_money": 1}
    res = move(client, table, 1, tokens[1], offer)
    assert res.status_code == 200, res.text
    view = reader(client, table, tokens[0], 0)()
    assert view["view"]["turn"] == 0 and [o["from"] for o in view["view"]["offers"]] == [1]
    assert any(a["type"] == "accept" for a in view["legal"])
    junk = {"type": "trade_junk", "pile": 0, "part": now["view"]["players"][1]["hand"][0]}
    res = move(client, table, 1, tokens[1], junk)
    assert res.status_code == 409 and "not to act" in res.text  # junk trades: on one's own turn only


def test_a_bot_makes_an_offer_during_a_persons_turn(make_client, create_table):
    client = make_client(bot_delay=0.0)
    made = create_table(client, [{"kind": "human"}, {"kind": "bot", "difficulty": "random"}], game=NAME, seed=7)
    table, token = made["table"]["id"], made["tokens"][0]
    state = reader(client, table, token, 0)
    deadline = time.monotonic() + 120  # a guard against a hang (generous: a busy machine)
    while True:
        now = state()
        mine = [o for o in now["view"]["offers"] if o["from"] == 1 and o["to"] == 0]
        if mine and now["view"]["turn"] == 0:
            break
        assert time.monotonic() < deadline, "the bot never made an offer during seat 0's turn"
        takes = [a for a in now["legal"] if a["type"] in ("take_part", "sell_part", "decline", "end_turn")]
        if now["view"]["turn"] == 0 and takes:
            move(client, table, 0, token, takes[0])
        time.sleep(0.02)
    accept = next(a for a in now["legal"] if a["type"] == "accept" and a["offer"] == mine[0]["offer"])
    before = now["view"]["players"][0]["hand"]
    assert move(client, table, 0, token, accept).status_code == 200
    after = state()["view"]["players"][0]["hand"]
    assert after != before and all(p in after for p in mine[0]["give"])
