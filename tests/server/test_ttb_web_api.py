"""Twin Tin Bots over the HTTP API: the preview endpoint, tables from written positions, the setup view.

The preview is game-agnostic on the server (a game package's ``preview`` hook); these tests check that
what it answers is what the engine then does, over many random positions, and that it never changes the
table nor shows what the seat may not know.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from people import bearer, guest_token, new_table
from ttb_positions import ZAP

from robotable.games.twin_tin_bots.positions import complete
from robotable.server.table import POSITION_KEY

GAME = "twin-tin-bots"
HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}


def state_of(client: Any, table: str, seat: int, token: str) -> dict[str, Any]:
    res = client.get(f"/api/tables/{table}/state", params={"seat": seat}, headers=bearer(token))
    assert res.status_code == 200, res.text
    return res.json()


@pytest.fixture
def client(make_client, monkeypatch):
    """A test server's client: tables of several people may be given a seed (see docs/server.md)."""
    monkeypatch.setenv("ROBOTABLE_ALLOW_POSITIONS", "1")
    return make_client()


def preview(client: Any, table: str, seat: int, token: str, action: dict[str, Any]) -> Any:
    return client.post(f"/api/tables/{table}/preview", json={"seat": seat, "action": action}, headers=bearer(token))


def test_preview_answers_paths_and_changes_nothing(client, create_table) -> None:
    made = create_table(client, [HUMAN, HUMAN], game=GAME, seed=3)
    table, tokens = made["table"]["id"], made["tokens"]
    seat = made["table"]["to_act"][0]
    before = state_of(client, table, seat, tokens[seat])
    res = preview(client, table, seat, tokens[seat], {"type": "place", "slot": 0, "tile": "forward_2"})
    assert res.status_code == 200, res.text
    answer = res.json()
    assert answer["moves"] == 0
    p = answer["preview"]
    assert set(p) >= {"paths", "events", "pending", "complete", "over"}
    (name, steps), *_ = p["paths"].items()
    assert name.endswith("-A") and len(steps) == 3  # where it stood, then two Forward steps
    after = state_of(client, table, seat, tokens[seat])
    assert after["view"] == before["view"] and after["moves"] == 0 and after["legal"] == before["legal"]


@pytest.mark.parametrize(
    ("who", "action", "status", "words"),
    [
        ("active", {"type": "place", "slot": 9, "tile": "zap"}, 409, "slots are numbered 0 to 5"),
        ("active", {"type": "fly"}, 400, "fly"),
        ("active", {"type": "place", "slot": 0}, 400, "tile"),
        ("other", {"type": "pass"}, 409, "not to act"),
        ("stranger", {"type": "pass"}, 403, "is not yours"),
    ],
)
def test_bad_previews_are_refused_clearly(client, create_table, who, action, status, words) -> None:
    made = create_table(client, [HUMAN, HUMAN], game=GAME, seed=3)
    table, tokens = made["table"]["id"], made["tokens"]
    seat = made["table"]["to_act"][0]
    ask = seat if who != "other" else 1 - seat
    token = tokens[ask] if who != "stranger" else guest_token(client)
    res = preview(client, table, ask, token, action)
    assert res.status_code == status, res.text
    assert words in res.json()["detail"]
    assert state_of(client, table, seat, tokens[seat])["moves"] == 0


def test_games_without_previews_say_so(client, create_table) -> None:
    made = create_table(client, [HUMAN, HUMAN])  # TF22: RELOAD! has no preview hook
    res = preview(client, made["table"]["id"], 0, made["tokens"][0], {"type": "play", "value": 3})
    assert res.status_code == 400
    assert res.json()["detail"] == "TF22: RELOAD! has no previews"


def test_a_preview_never_shows_a_drawn_special_order(client, create_table) -> None:
    """A delivery of a blue crystal draws a Special Order: the preview says a tile is drawn, never which."""
    position = {
        "num_players": 2,
        "turn_order": ["red", "yellow"],
        "robots": {
            "red": [{"hex": [2, 0], "facing": "E", "cargo": "blue"}, {"hex": [-4, 3], "facing": "NE", "cargo": None}],
            "yellow": [{"hex": [4, -3], "facing": "SW", "cargo": None}, {"hex": [0, 4], "facing": "NW", "cargo": None}],
        },
        "programs": {"red": ["turn_left", None, None, "turn_left", None, None], "yellow": ["zap"] + [None] * 5},
    }
    made = _positional(client, complete(position))
    table, tokens = made["table"]["id"], made["tokens"]
    res = preview(client, table, 0, tokens[0], {"type": "place", "slot": 0, "tile": "unload"})
    assert res.status_code == 200, res.text
    events = res.json()["preview"]["events"]
    assert [e["type"] for e in events if e["type"] in ("deliver", "draw_special")] == ["deliver", "draw_special"]
    assert not [e for e in events if e["type"] == "special_drawn"]
    assert all("tile" not in e for e in events if e["type"] == "draw_special")


def _positional(client: Any, position: dict[str, Any], seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    client.app.state.manager.allow_positions = True  # what --allow-positions does on a test server
    return new_table(client, seats or [HUMAN, HUMAN], game=GAME, position=position)


def test_written_positions_only_on_servers_that_allow_them(make_client, tmp_path) -> None:
    production = make_client(database=f"sqlite:///{tmp_path / 'prod.db'}")
    body = {"game": GAME, "num_players": 2, "position": ZAP}
    res = production.post("/api/tables", json=body, headers=bearer(guest_token(production)))
    assert res.status_code == 403 and "written positions" in res.json()["detail"]

    testing = make_client(database=f"sqlite:///{tmp_path / 'test.db'}")
    made = _positional(testing, ZAP)
    testing.headers.update(bearer(made["creator"]))
    assert POSITION_KEY not in made["table"]["options"]  # the summary never shows the position
    view = state_of(testing, made["table"]["id"], 0, made["tokens"][0])["view"]
    assert {r["robot"]: r["hex"] for r in view["robots"]}["yellow-A"] == [0, 0]
    bad = testing.post(
        "/api/tables", json={**body, "position": {**ZAP, "crystals": [{"hex": [0, 9], "crystal": "blue"}]}}
    )
    assert bad.status_code == 400 and "off the board" in bad.json()["detail"]
    wrong = testing.post("/api/tables", json={**body, "num_players": 3})
    assert wrong.status_code == 400 and "2 players, not 3" in wrong.json()["detail"]
    both = testing.post("/api/tables", json={**body, "options": {"mud": 1}})
    assert both.status_code == 400 and "either options or a position" in both.json()["detail"]


def test_the_setup_view_checks_options(client) -> None:
    res = client.get(f"/api/games/{GAME}/setup", params={"num_players": 2, "options": '{"rocks": [[1, 1]]}'})
    assert res.status_code == 200 and res.json()["view"]["rocks"] == [[1, 1]]
    res = client.get(f"/api/games/{GAME}/setup", params={"num_players": 2, "options": '{"rocks": [[0, 0]]}'})
    assert res.status_code == 400 and "not an empty hex" in res.json()["detail"]
    res = client.get(f"/api/games/{GAME}/setup", params={"num_players": 2, "options": "{nope"})
    assert res.status_code == 400 and "not valid JSON" in res.json()["detail"]


def _public(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] != "special_drawn"]


def test_the_preview_equals_what_the_engine_then_does_over_many_random_positions(client) -> None:
    """Random games (every variant mixed in); before each move the preview is asked, then compared."""
    rng = random.Random(20261130)
    compared = complete = pending = 0
    for game_no in range(6):
        n = rng.choice([2, 2, 3, 4, 5, 6])
        options = {k: rng.randint(0, 2) for k in ("teleporters", "rocks", "blobs", "mud")}
        if n == 4 and rng.random() < 0.5:
            options["team_play"] = True
        if n == 2 and rng.random() < 0.4:
            options["advanced_2p"] = True
        made = new_table(client, [HUMAN] * n, game=GAME, seed=game_no, options=options)
        table, tokens = made["table"]["id"], made["tokens"]
        snap = state_of(client, table, 0, tokens[0])
        for _ in range(60):
            if not snap["to_act"]:
                break
            seat = snap["to_act"][0]
            if snap["seat"] != seat:
                snap = state_of(client, table, seat, tokens[seat])
            action = rng.choice(snap["legal"])
            shown = preview(client, table, seat, tokens[seat], action)
            assert shown.status_code == 200, shown.text
            p = shown.json()["preview"]
            done = client.post(
                f"/api/tables/{table}/moves", json={"seat": seat, "action": action}, headers=bearer(tokens[seat])
            )
            assert done.status_code == 200, done.text
            events = _public(done.json()["events"])
            snap_after = state_of(client, table, seat, tokens[seat])
            after = snap_after["view"]
            if after["changes_left"] > 0 and after["active"] == snap["view"]["active"] and after["phase"] == "change":
                # more changes to make (first turn, Double Modification): the preview ran the programs as
                # they would stand; the move itself only changed the board
                assert p["events"][: len(events)] == events
                snap = snap_after
                continue
            compared += 1
            assert p["events"] == events, (action, p["events"], events)
            robots = {r["robot"]: (r["hex"], r["facing"]) for r in after["robots"]}
            before = {r["robot"]: (r["hex"], r["facing"]) for r in snap["view"]["robots"]}
            for name, steps in p["paths"].items():
                assert steps[0] == list(before[name])
                if p["complete"]:
                    assert tuple(steps[-1]) == robots[name], name
            if p["complete"]:
                complete += 1
                assert all(robots[r] == before[r] for r in robots if r not in p["paths"]), "a robot moved unseen"
            else:
                pending += 1
                assert p["pending"] == after["pending"]
            snap = snap_after
    assert compared >= 150 and complete >= 100 and pending >= 5, (compared, complete, pending)
