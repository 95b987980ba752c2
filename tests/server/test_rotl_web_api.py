"""Robots on the Line over the HTTP API: the workbench's evaluation endpoint and the game data files.

The workbench's measures and sale values (``POST /api/tables/{id}/evaluate``) are checked against the
engine over many random finished robots (the assembly helper's robots for random hands, moved about
the grid) and broken variants of them: the measures equal the geometry module's, the problems equal
``assemble``'s, a sale is offered exactly when the engine accepts it, and the value shown is what the
seller's money goes up by when the engine plays the sale.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from people import bearer, guest_token, new_table

from robotable.games.robots_on_the_line import GAME, SellRobot
from robotable.games.robots_on_the_line.components import PART_IDS, PARTS
from robotable.games.robots_on_the_line.geometry import assemble, measure

NAME = "robots-on-the-line"


@pytest.fixture
def rotl_client(make_client, monkeypatch):
    monkeypatch.setenv("ROBOTABLE_ALLOW_POSITIONS", "1")
    return make_client()


def big_hand_position(seed: int, num_players: int, extra: int) -> dict[str, Any]:
    """A start position where seat 0 holds the top torso and ``extra`` more parts from the draw piles."""
    data = GAME.start(num_players=num_players, seed=seed).to_json()
    drawn = []
    for i in range(extra):
        pile = data["draw_piles"][i % 2]
        if pile:
            drawn.append(pile.pop())
    data["hands"][0] = sorted(data["hands"][0] + drawn)
    data["secret"][0] = sorted(set(data["secret"][0]) | {p for p in drawn if not p.startswith("magnet")})
    data["torsos"][0] = data["torso_stack"].pop()
    GAME.state_from_json(data)
    return data


def evaluate(client, table: str, token: str, query: dict[str, Any], seat: int = 0) -> Any:
    res = client.post(f"/api/tables/{table}/evaluate", json={"seat": seat, "query": query}, headers=bearer(token))
    assert res.status_code == 200, res.text
    return res.json()["evaluation"]


def engine_measures(layout: list[list[Any]], batteries: list[str]) -> dict[str, Any]:
    m = measure(assemble(layout), [PART_IDS[b] for b in batteries])
    return {
        "eyes": m.eyes,
        "heads": m.heads,
        "bases": m.bases,
        "hands": m.hands,
        "tall": m.tall,
        "wide": m.wide,
        "long_arm": m.long_arm,
        "symmetric": m.symmetric,
        "extenders": m.extenders,
        "splitters": m.splitters,
        "elbows": m.elbows,
        "wheels": m.wheels,
        "icons": sorted(m.icons),
        "pink_pairs": m.pink_pairs,
    }


def test_workbench_measures_and_values_equal_the_engines_over_random_robots(rotl_client) -> None:
    rng = random.Random(2024)
    robots = broken = 0
    for seed in range(24):
        players = 2 + seed % 3
        position = big_hand_position(seed, players, extra=8 + seed % 9)
        state = GAME.state_from_json(position)
        made = new_table(rotl_client, [{"kind": "human"}] * players, game=NAME, position=position, hotseat=True)
        table, token = made["table"]["id"], made["tokens"][0]
        first = evaluate(rotl_client, table, token, {"layout": [], "suggest": True})
        for sale in first["suggestions"]:
            dx, dy = rng.randint(-3, 3), rng.randint(-3, 3)  # the same robot elsewhere on the grid
            layout = [[n, x + dx, y + dy, r] for n, x, y, r in sale["layout"]]
            query = {"layout": layout, "batteries": sale["batteries"], "magnets": sale["magnets"]}
            ev = evaluate(rotl_client, table, token, query)
            assert ev["finished"] and ev["problems"] == [] and ev["open_ports"] == []
            assert ev["measures"] == engine_measures(layout, sale["batteries"])
            for b in ev["buyers"]:
                action = SellRobot(b["id"], tuple(map(tuple, layout)), tuple(sale["batteries"]), tuple(sale["magnets"]))
                assert b["sellable"] == state.is_legal(0, action), (b, state.why_illegal(0, action))
                if b["sellable"]:
                    after = state.clone()
                    after.apply(0, action)
                    assert b["value"]["total"] == after.money[0] - state.money[0]
                    assert after.robots[0] == state.robots[0] + 1
            assert next(b for b in ev["buyers"] if b["id"] == sale["buyer"])["sellable"]
            robots += 1
            # a broken variant: a part turned or taken away; problems and measures still the engine's
            variant = [list(item) for item in layout]
            i = rng.randrange(1, len(variant))
            if rng.random() < 0.5:
                variant[i][3] = (variant[i][3] + rng.randint(1, 3)) % 4
            else:
                del variant[i]
            ev = evaluate(rotl_client, table, token, {"layout": variant})
            robot = assemble(variant)
            assert ev["problems"] == robot.problems and ev["finished"] == (not robot.problems)
            assert ev["measures"] == engine_measures(variant, [])
            for b in ev["buyers"]:
                action = SellRobot(b["id"], tuple(map(tuple, variant)), (), ())
                assert b["sellable"] == state.is_legal(0, action)
            broken += 1
        # another seat's own question never shows seat 0's hand
        other = evaluate(rotl_client, table, made["tokens"][1], {"layout": [], "suggest": True}, seat=1)
        assert all(
            item[0] in state.to_json()["hands"][1] or item[0].startswith("torso")
            for s in other["suggestions"]
            for item in s["layout"]
        )
    assert robots >= 40 and broken == robots, (robots, broken)


def test_evaluate_refuses_bad_input_and_changes_nothing(rotl_client, create_table) -> None:
    made = create_table(rotl_client, [{"kind": "human"}, {"kind": "human"}], game=NAME, seed=3)
    table, token = made["table"]["id"], made["tokens"][0]
    url = f"/api/tables/{table}/evaluate"
    before = rotl_client.get(f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(token)).json()
    cases = [
        ({"layout": [["head-99", 0, 0, 0]]}, 400, "unknown tile 'head-99'"),
        ({"layout": [["head-01", 0, 0, 7]]}, 400, "rotation"),
        ({"layout": [["head-01", 0, 0]]}, 400, "layout[0] must be [tile id, x, y, rotation]"),
        ({"layout": "torso"}, 400, "layout must be a list"),
        ({"layout": [], "colour": 1}, 400, "unknown query field 'colour'"),
        ({"layout": [], "batteries": ["nope"]}, 400, "batteries: unknown part 'nope'"),
        ({"layout": [], "suggest": "yes"}, 400, "suggest must be true or false"),
    ]
    for query, status, words in cases:
        res = rotl_client.post(url, json={"seat": 0, "query": query}, headers=bearer(token))
        assert res.status_code == status and words in res.json()["detail"], (query, res.text)
    assert (
        rotl_client.post(url, json={"seat": 0, "query": {}}, headers=bearer(guest_token(rotl_client))).status_code
        == 403
    )
    assert rotl_client.post(url, json={"seat": 0}, headers=bearer(token)).status_code == 422
    assert (
        rotl_client.post(
            "/api/tables/nosuch/evaluate", json={"seat": 0, "query": {}}, headers=bearer(token)
        ).status_code
        == 404
    )
    after = rotl_client.get(f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(token)).json()
    assert after["moves"] == before["moves"] and after["view"] == before["view"]
    # a game without evaluations says so
    tf = create_table(rotl_client, [{"kind": "human"}, {"kind": "human"}], game="tf22-reload")
    res = rotl_client.post(
        f"/api/tables/{tf['table']['id']}/evaluate", json={"seat": 0, "query": {}}, headers=bearer(tf["tokens"][0])
    )
    assert res.status_code == 400 and "has no evaluations" in res.json()["detail"]


def test_game_data_files_are_served_and_nothing_else(rotl_client) -> None:
    res = rotl_client.get(f"/api/games/{NAME}/data/catalogue")
    assert res.status_code == 200
    assert len(res.json()["parts"]) == len(PARTS) and res.json()["parts"][0]["id"] == PARTS[0].id
    assert rotl_client.get(f"/api/games/{NAME}/data/engine").status_code == 200
    missing = rotl_client.get(f"/api/games/{NAME}/data/secrets")
    assert missing.status_code == 404 and "has no data file 'secrets'" in missing.json()["detail"]
    assert rotl_client.get(f"/api/games/{NAME}/data/Catalogue.JSON").status_code == 400
    assert rotl_client.get(f"/api/games/{NAME}/data/..%2F__init__").status_code in (400, 404)
    assert rotl_client.get("/api/games/no-such-game/data/catalogue").status_code == 404


@pytest.mark.parametrize("difficulty", ["random", "heuristic"])
def test_a_bot_answers_an_offer_made_to_it_during_a_persons_turn(make_client, create_table, difficulty):
    """Offers are public: the bot answers at once while the person's turn goes on (``State.answering``)."""
    client = make_client(bot_delay=0.0)
    made = create_table(client, [{"kind": "human"}, {"kind": "bot", "difficulty": difficulty}], game=NAME)
    table, token = made["table"]["id"], made["tokens"][0]

    def state() -> dict[str, Any]:
        res = client.get(f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(token))
        assert res.status_code == 200, res.text
        return res.json()

    deadline = time.monotonic() + 120  # a guard against a hang (generous: a busy machine)
    while state()["view"]["turn"] != 0 or any(a["type"] in ("accept", "decline") for a in state()["legal"]):
        now = state()
        answers = [a for a in now["legal"] if a["type"] == "decline"]
        if answers:  # the bot offered seat 0 something on its own turn: decline it
            client.post(f"/api/tables/{table}/moves", json={"seat": 0, "action": answers[0]}, headers=bearer(token))
        assert time.monotonic() < deadline, "seat 0's turn never came"
        time.sleep(0.02)
    now = state()
    part = now["view"]["players"][0]["hand"][0]
    offer = {"type": "offer", "to": 1, "give": [part], "take": [], "give_money": 0, "take_money": 1}
    res = client.post(f"/api/tables/{table}/moves", json={"seat": 0, "action": offer}, headers=bearer(token))
    assert res.status_code == 200, res.text
    made_at = res.json()["moves"]

    def answered(e: dict[str, Any]) -> bool:
        return (e["type"] == "declined" and e["seat"] == 1) or (e["type"] == "accepted" and e["to"] == 1)

    while not any(answered(e) and e["move"] > made_at for e in state()["log"]):
        assert time.monotonic() < deadline, "the bot never answered"
        time.sleep(0.02)
    after = state()
    assert after["moves"] > made_at
    assert after["view"]["turn"] == 0 and after["to_act"][-1] == 0  # still seat 0's turn
    assert all(o["from"] != 0 for o in after["view"]["offers"])  # seat 0's offer was answered
