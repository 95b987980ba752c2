"""Ratings, leaderboards, profiles and "my tables", on SQLite and PostgreSQL: a rated table between two
accounts (and one against a bot) changes their OpenSkill ratings once; a hotseat table changes nothing;
the leaderboard lists people and bots (with their level); profiles count games and link replays."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from robotable.server import create_app

PASSWORD = "correct horse battery"
HUMAN = {"kind": "human"}
OPEN = {"kind": "open"}


@pytest.fixture
def make(database: tuple[str, str | None]) -> Iterator[Callable[..., TestClient]]:
    """In-process clients (each its own cookie jar) on one app over the parametrized database."""
    url, schema = database
    app = create_app(url, schema=schema, bot_delay=0)
    clients: list[TestClient] = []

    def new() -> TestClient:
        client = TestClient(app)
        client.__enter__()
        clients.append(client)
        return client

    yield new
    for client in reversed(clients):
        client.__exit__(None, None, None)


def sign_up(client: TestClient, username: str) -> dict[str, str]:
    """Sign up; answers the CSRF header the page would send with each change."""
    res = client.post("/api/account/signup", json={"username": username, "password": PASSWORD})
    assert res.status_code == 201, res.text
    client.headers["X-CSRF-Token"] = client.get("/api/account").json()["csrf"]
    return res.json()["account"]


def play_out(table: str, players: dict[int, TestClient]) -> dict[str, Any]:
    """Each seat's player (a signed-in client) plays its first legal action until the game is over."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        moved = False
        for seat, player in players.items():
            snap = player.get(f"/api/tables/{table}/state", params={"seat": seat}).json()
            if snap["result"]:
                return snap
            if snap["legal"]:
                body = {"seat": seat, "action": snap["legal"][0], "after": snap["moves"]}
                player.post(f"/api/tables/{table}/moves", json=body)
                moved = True
        if not moved:
            time.sleep(0.01)
    raise AssertionError("the game did not end")


def board(client: TestClient, game: str = "tf22-reload") -> dict[str, dict[str, Any]]:
    res = client.get(f"/api/leaderboard/{game}")
    assert res.status_code == 200, res.text
    return {e["entry"]: e for e in res.json()["entries"]}


def test_rated_tables_change_ratings_once_and_hotseat_tables_do_not(make) -> None:
    ann, bob = make(), make()
    ann_id, bob_id = sign_up(ann, "ann")["id"], sign_up(bob, "bob")["id"]
    assert board(ann) == {}

    # a hotseat table: Ann plays both seats; finished, it is not rated
    res = ann.post(
        "/api/tables", json={"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, HUMAN], "hotseat": True}
    )
    assert res.status_code == 201, res.text
    hot = res.json()
    assert hot["table"]["hotseat"] and not hot["table"]["rated"]
    assert hot["invites"] == {}
    play_out(hot["table"]["id"], {0: ann, 1: ann})
    assert board(ann) == {}
    assert ann.get(f"/api/tables/{hot['table']['id']}/ratings").json() == {
        "table": hot["table"]["id"],
        "rated": False,
        "changes": None,
    }

    # Ann against Bob, who takes the open seat: rated
    res = ann.post("/api/tables", json={"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, OPEN]})
    made = res.json()
    table = made["table"]["id"]
    claimed = bob.post(f"/api/tables/{table}/seats/1/claim", json={})
    assert claimed.status_code == 200, claimed.text
    assert ann.get(f"/api/tables/{table}/ratings").json()["rated"] is True
    final = play_out(table, {0: ann, 1: bob})
    ranks = final["result"]["ranks"]
    rows = board(ann)
    assert set(rows) == {f"account:{ann_id}", f"account:{bob_id}"}
    ann_row, bob_row = rows[f"account:{ann_id}"], rows[f"account:{bob_id}"]
    assert ann_row["games"] == bob_row["games"] == 1 and ann_row["kind"] == "account"
    assert ann_row["name"] == "ann" and ann_row["account"] == ann_id
    if ranks[0] < ranks[1]:
        assert ann_row["mu"] > 25 > bob_row["mu"] and ann_row["wins"] == 1 and bob_row["wins"] == 0
    elif ranks[1] < ranks[0]:
        assert bob_row["mu"] > 25 > ann_row["mu"]
    assert ann_row["sigma"] < 25 / 3 and bob_row["sigma"] < 25 / 3  # both are better known now
    assert [r["rank"] for r in sorted(rows.values(), key=lambda r: r["rank"])] == [1, 2]
    changes = ann.get(f"/api/tables/{table}/ratings").json()["changes"]
    assert [c["entry"] for c in changes] == [f"account:{ann_id}", f"account:{bob_id}"]
    assert changes[0]["after"]["mu"] == pytest.approx(ann_row["mu"])

    # rating the same table again changes nothing
    manager = ann.app.state.manager
    from robotable.server import ratings

    assert ratings.rate_table(manager.storage, manager.live[table].row, final["result"]) is None
    assert board(ann) == rows

    # Ann against a heuristic bot: the bot is rated as its own entry, named with its level
    res = ann.post(
        "/api/tables",
        json={"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, {"kind": "bot", "difficulty": "heuristic"}]},
    )
    bot_table = res.json()
    play_out(bot_table["table"]["id"], {0: ann})
    rows = board(ann)
    assert rows["heuristic"]["kind"] == "bot" and rows["heuristic"]["name"] == "heuristic"
    assert rows["heuristic"]["games"] == 1 and rows[f"account:{ann_id}"]["games"] == 2
    assert rows[f"account:{bob_id}"] == board(bob)[f"account:{bob_id}"]

    # the profile counts the rated and unrated games, links their replays and shows the rating
    profile = bob.get(f"/api/profiles/{ann_id}").json()
    assert profile["account"] == {"id": ann_id, "display_name": "ann", "guest": False}
    tf = profile["games"]["tf22-reload"]
    assert tf["played"] == 2 and tf["rating"]["games"] == 2  # the hotseat table is not a result
    assert tf["rating"]["mu"] == pytest.approx(rows[f"account:{ann_id}"]["mu"])
    recent = profile["recent"]
    assert [r["table"] for r in recent] == [bot_table["table"]["id"], table, hot["table"]["id"]]
    assert recent[2]["hotseat"] and recent[2]["seats"] == [0, 1]
    assert recent[1]["replay"] == f"/replay/{table}" and ann.get(recent[1]["replay"]).status_code == 200
    assert bob.get("/api/profiles/nobody").status_code == 404
    assert bob.get("/api/leaderboard/chess").status_code == 404
    assert bob.get(f"/profile/{ann_id}").status_code == 200 and bob.get("/leaderboard/tf22-reload").status_code == 200


def test_my_tables_lists_your_turn_first_and_the_lobby_filters_mine(make) -> None:
    ann, bob, guest = make(), make(), make()
    ann_id = sign_up(ann, "ann")["id"]
    sign_up(bob, "bob")
    assert guest.get("/api/my/tables").status_code == 401
    res = guest.get("/api/tables", params={"mine": "true"})
    assert res.status_code == 401 and "sign in" in res.json()["detail"]

    # TF22 starts with a simultaneous choice: Ann owes one at both tables until she plays at the first
    first = ann.post("/api/tables", json={"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, OPEN]}).json()
    second = ann.post("/api/tables", json={"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, OPEN]}).json()
    bobs = bob.post("/api/tables", json={"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, OPEN]}).json()
    for made in (first, second):
        assert bob.post(f"/api/tables/{made['table']['id']}/seats/1/claim", json={}).status_code == 200
    play = {"seat": 0, "action": {"type": "play", "value": 4}}
    assert ann.post(f"/api/tables/{first['table']['id']}/moves", json=play).status_code == 200
    mine = ann.get("/api/my/tables").json()
    assert [(t["id"], t["your_turn"], t["my_seats"]) for t in mine] == [
        (second["table"]["id"], True, [0]),
        (first["table"]["id"], False, [0]),
    ]
    listed = {t["id"] for t in ann.get("/api/tables", params={"mine": "true"}).json()}
    assert listed == {first["table"]["id"], second["table"]["id"]}
    assert bobs["table"]["id"] in {t["id"] for t in bob.get("/api/tables", params={"mine": "true"}).json()}
    assert all(any(s["account"] == ann_id for s in t["seats"]) for t in mine)
