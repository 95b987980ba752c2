"""The HTTP API: tables, moves, refusals that change nothing, undo, seats, play again, replays."""

from __future__ import annotations

import threading
import time
from typing import Any

from clock_helpers import timeless
from fastapi.testclient import TestClient
from people import bearer, guest_token, wait_for

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}


def state(client: TestClient, table: str, seat: int | None = None, token: str | None = None) -> dict[str, Any]:
    """The snapshot, without what only the passing of time changes (a running clock's time left)."""
    params = {} if seat is None else {"seat": seat}
    res = client.get(f"/api/tables/{table}/state", params=params, headers=bearer(token) if token else None)
    assert res.status_code == 200, res.text
    return timeless(res.json())


def move(client: TestClient, table: str, seat: int, token: str | None, action: Any, **extra: Any):
    headers = bearer(token) if token else None
    return client.post(f"/api/tables/{table}/moves", json={"seat": seat, "action": action, **extra}, headers=headers)


def load_phase_table(client: TestClient, create_table) -> tuple[str, dict[int, str]]:
    """Two people; seat 0 plays 7, seat 1 plays 2: seat 0 won and must decide where the container goes."""
    made = create_table(client, [HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    assert move(client, table, 0, tokens[0], {"type": "play", "value": 7}).status_code == 200
    assert move(client, table, 1, tokens[1], {"type": "play", "value": 2}).status_code == 200
    now = state(client, table, 0, tokens[0])
    assert now["to_act"] == [0] and now["view"]["phase"] == "load"
    return table, tokens


def test_games_difficulties_and_openapi(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert any(g["id"] == "tf22-reload" for g in games)
    difficulties = {d["difficulty"]: d for d in client.get("/api/difficulties").json()}
    assert difficulties["random"]["available"] is True
    for spec, d in difficulties.items():
        assert d["available"] or (d["agent"] == "random" and "not available yet" in d["note"]), spec
    schema = client.get("/openapi.json").json()
    for path in ("/api/tables", "/api/tables/{table_id}/moves", "/api/tables/{table_id}/undo", "/api/replays"):
        assert path in schema["paths"]


def test_pages_and_static_client(client: TestClient) -> None:
    for path in ("/", "/table/abc", "/replay", "/replay/abc"):
        res = client.get(path)
        assert res.status_code == 200 and "<!doctype html>" in res.text.lower()
    scripts = ("/static/js/table.js", "/static/games/tf22-reload.js", "/static/games/generic.js")
    for path in (*scripts, "/static/css/app.css"):
        assert client.get(path).status_code == 200, path


def test_create_table_plays_the_creators_seat_and_invites_the_others(client: TestClient, create_table) -> None:
    made = create_table(client, [HUMAN, BOT, {"kind": "bot", "difficulty": "ismcts:hard"}])
    table = made["table"]
    assert set(made["tokens"]) == {0} and made["invites"] == {}
    assert table["status"] == "running" and table["moves"] == 0 and table["to_act"] == [0, 1, 2]
    hard = table["seats"][2]
    assert hard["difficulty"] == "ismcts:hard" and hard["agent"] in ("ismcts:hard", "random")
    listed = client.get("/api/tables").text + client.get(f"/api/tables/{table['id']}").text
    assert made["tokens"][0] not in listed and "token" not in listed
    # a table with two people: the creator plays seat 0 and gets one invite link for seat 1
    creator = guest_token(client, "Ann")
    res = client.post(
        "/api/tables", json={"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, HUMAN]}, headers=bearer(creator)
    )
    assert res.status_code == 201, res.text
    two = res.json()
    assert list(two["invites"]) == ["1"] and two["invites"]["1"].startswith("/invite/")
    assert two["table"]["seats"][0]["name"] == "Ann" and two["table"]["seats"][1]["account"] is None
    assert two["invites"]["1"].rsplit("/", 1)[1] not in client.get("/api/tables").text


def test_only_signed_in_people_make_tables(client: TestClient) -> None:
    res = client.post("/api/tables", json={"game": "tf22-reload", "num_players": 2})
    assert res.status_code == 401 and "sign in" in res.json()["detail"]
    assert client.get("/api/tables").json() == []


def test_default_seats_are_you_against_random_bots(client: TestClient) -> None:
    made = client.post(
        "/api/tables", json={"game": "tf22-reload", "num_players": 3}, headers=bearer(guest_token(client))
    ).json()
    assert [s["kind"] for s in made["table"]["seats"]] == ["human", "bot", "bot"]


def test_bad_table_requests_say_what_is_wrong(client: TestClient) -> None:
    client.headers.update(bearer(guest_token(client)))
    cases = [
        ({"game": "chess", "num_players": 2}, 400, "unknown game 'chess'"),
        ({"game": "tf22-reload", "num_players": 7}, 400, "7 players is not supported"),
        ({"game": "tf22-reload", "num_players": 3, "seats": [HUMAN]}, 400, "seats lists 1 seats"),
        ({"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, {**BOT, "difficulty": "x"}]}, 400, "difficulty"),
        ({"game": "tf22-reload", "num_players": 2, "options": {"fast": True}}, 400, "unknown option 'fast'"),
        ({"game": "tf22-reload", "num_players": 2, "colour": "red"}, 422, "colour"),
        ({"game": "tf22-reload", "num_players": "two"}, 422, "num_players"),
        ({"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, {"kind": "robot"}]}, 422, "kind"),
    ]
    for body, status, words in cases:
        res = client.post("/api/tables", json=body)
        assert res.status_code == status, (body, res.text)
        assert words in res.json()["detail"], (body, res.json())
    res = client.post("/api/tables", content=b"{not json", headers={"Content-Type": "application/json"})
    assert res.status_code == 422 and "JSON" in res.json()["detail"]
    assert client.get("/api/tables", params={"status": "lost"}).status_code == 400
    assert client.get("/api/tables/nope").status_code == 404
    assert "no table 'nope'" in client.get("/api/tables/nope").json()["detail"]
    assert client.get("/api/tables").json() == []  # nothing was created by the refusals


def test_refused_moves_change_nothing(client: TestClient, create_table) -> None:
    table, tokens = load_phase_table(client, create_table)
    before = state(client, table, 0, tokens[0])
    spectator_before = state(client, table)
    legal_load = before["legal"][0]
    refusals = [
        (move(client, table, 0, "rt_wrong", legal_load), 401, "unknown or revoked API token"),
        (move(client, table, 0, tokens[1], legal_load), 403, "seat 1 is not yours"),
        (move(client, table, 0, None, legal_load), 401, "sign in"),
        (
            client.post(
                f"/api/tables/{table}/moves",
                json={"seat": 0, "token": tokens[0], "action": legal_load},
                headers=bearer(tokens[0]),
            ),
            422,
            "token",
        ),
        (move(client, table, 5, tokens[0], legal_load), 404, "seats 1 to 2"),
        (
            move(client, table, 1, tokens[1], {"type": "play", "value": 3}),
            409,
            "seat 2 is not to act (waiting for seat 1)",
        ),
        (move(client, table, 0, tokens[0], {"type": "play", "value": 3}), 409, "must decide where the container goes"),
        (move(client, table, 0, tokens[0], {"type": "load", "slot": 9}), 409, "loading rules"),
        (move(client, table, 0, tokens[0], {"type": "load"}), 400, "missing field 'slot'"),
        (move(client, table, 0, tokens[0], {"type": "load", "slot": "one"}), 400, "expected an integer"),
        (move(client, table, 0, tokens[0], {"type": "fly"}), 400, "unknown type 'fly'"),
        (move(client, table, 0, tokens[0], legal_load, after=0), 409, "stale move"),
        (move(client, table, 0, tokens[0], "load"), 422, "action"),
    ]
    for res, status, words in refusals:
        assert res.status_code == status, res.text
        assert words in res.json()["detail"], res.json()
    assert state(client, table, 0, tokens[0]) == before
    assert state(client, table) == spectator_before
    ok = move(client, table, 0, tokens[0], legal_load, after=before["moves"])
    assert ok.status_code == 200 and ok.json()["moves"] == before["moves"] + 1


def test_secret_choice_is_hidden_from_others_and_spectators(client: TestClient, create_table) -> None:
    made = create_table(client, [HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    answer = move(client, table, 0, tokens[0], {"type": "play", "value": 6}).json()
    assert {"type": "your_choice", "seat": 0, "choice": {"type": "play", "value": 6}} in answer["events"]
    mine = state(client, table, 0, tokens[0])
    assert mine["view"]["players"][0]["choice"] == {"type": "play", "value": 6}
    for other in (state(client, table, 1, tokens[1]), state(client, table)):
        assert "choice" not in other["view"]["players"][0]
        assert other["view"]["players"][0]["has_chosen"] is True
        assert all(e["type"] != "your_choice" for e in other["log"])
    assert state(client, table)["legal"] == []  # spectators are offered nothing


def test_undo_against_bots_until_the_reveal(make_client, create_table) -> None:
    client = make_client(bot_delay=30.0)  # the bots wait: the person's secret choice can be taken back
    made = create_table(client, [HUMAN, BOT, BOT])
    table, token = made["table"]["id"], made["tokens"][0]
    assert client.post(f"/api/tables/{table}/undo", json={"seat": 0}, headers=bearer(token)).status_code == 409
    move(client, table, 0, token, {"type": "play", "value": 4})
    assert state(client, table, 0, token)["can_undo"] is True
    other = guest_token(client, "Someone else")
    assert client.post(f"/api/tables/{table}/undo", json={"seat": 0}, headers=bearer(other)).status_code == 403
    res = client.post(f"/api/tables/{table}/undo", json={"seat": 0}, headers=bearer(token))
    assert res.status_code == 200 and res.json() == {"moves": 0, "undone": 1}
    after = state(client, table, 0, token)
    assert after["moves"] == 0 and "choice" not in after["view"]["players"][0]
    assert {"type": "play", "value": 4} in after["legal"]


def test_undo_never_past_a_reveal(make_client, create_table) -> None:
    client = make_client(bot_delay=0.0)
    made = create_table(client, [HUMAN, BOT])
    table, token = made["table"]["id"], made["tokens"][0]
    move(client, table, 0, token, {"type": "play", "value": 4})
    wait_for(lambda: state(client, table)["moves"] >= 2)
    res = client.post(f"/api/tables/{table}/undo", json={"seat": 0}, headers=bearer(token))
    assert res.status_code == 409 and "revealed" in res.json()["detail"]
    assert state(client, table, 0, token)["can_undo"] is False


def test_at_a_table_of_people_undo_takes_back_ones_own_move_until_another_person_moves(
    client: TestClient, create_table
) -> None:
    made = create_table(client, [HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    move(client, table, 0, tokens[0], {"type": "play", "value": 4})
    other = client.post(f"/api/tables/{table}/undo", json={"seat": 1}, headers=bearer(tokens[1]))
    assert other.status_code == 409 and "another player" in other.json()["detail"]  # not seat 1's move
    res = client.post(f"/api/tables/{table}/undo", json={"seat": 0}, headers=bearer(tokens[0]))
    assert res.status_code == 200 and res.json()["moves"] == 0, res.text
    assert state(client, table)["moves"] == 0
    move(client, table, 0, tokens[0], {"type": "play", "value": 5})
    move(client, table, 1, tokens[1], {"type": "play", "value": 3})  # the other person's choice reveals both
    late = client.post(f"/api/tables/{table}/undo", json={"seat": 0}, headers=bearer(tokens[0]))
    assert late.status_code == 409 and "cannot undo" in late.json()["detail"]
    assert state(client, table)["moves"] == 2


def test_open_seat_claim_hand_over_and_reclaim(client: TestClient, create_table, server_clock) -> None:
    made = create_table(client, [HUMAN, {"kind": "open"}], time_control={"kind": "live", "base": 60, "increment": 0})
    table, tokens = made["table"]["id"], made["tokens"]
    assert made["table"]["status"] == "open"
    token1 = guest_token(client, "Ann")
    assert client.post(f"/api/tables/{table}/seats/1/claim").status_code == 401  # signed out
    assert client.post(f"/api/tables/{table}/seats/0/claim", headers=bearer(token1)).status_code == 409
    # the creator already plays seat 0: one seat per account
    mine = client.post(f"/api/tables/{table}/seats/1/claim", headers=bearer(tokens[0]))
    assert mine.status_code == 409 and "already play seat 1" in mine.json()["detail"]
    claimed = client.post(f"/api/tables/{table}/seats/1/claim", headers=bearer(token1))
    assert claimed.status_code == 200, claimed.text
    assert "token" not in claimed.text
    assert client.post(f"/api/tables/{table}/seats/1/claim", headers=bearer(guest_token(client))).status_code == 409
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["status"] == "running" and summary["seats"][1]["name"] == "Ann"
    # Ann leaves; once her clock has run out, seat 0 hands her seat to a bot, which then plays for her
    stranger = guest_token(client, "Stranger")
    bad = client.post(f"/api/tables/{table}/seats/1/bot", json={"difficulty": "random"}, headers=bearer(stranger))
    assert bad.status_code == 403
    own = client.post(f"/api/tables/{table}/seats/0/bot", json={"difficulty": "random"}, headers=bearer(tokens[0]))
    assert own.status_code == 409
    body = {"difficulty": "random"}
    early = client.post(f"/api/tables/{table}/seats/1/bot", json=body, headers=bearer(tokens[0]))
    assert early.status_code == 409 and "cannot be handed to a bot yet" in early.json()["detail"]
    server_clock.advance(61)
    res = client.post(f"/api/tables/{table}/seats/1/bot", json=body, headers=bearer(tokens[0]))
    assert res.status_code == 200 and res.json()["seats"][1]["handed_to_bot"] is True
    assert move(client, table, 1, token1, {"type": "play", "value": 3}).status_code == 409
    move(client, table, 0, tokens[0], {"type": "play", "value": 5})
    wait_for(lambda: state(client, table)["moves"] >= 2)
    assert client.post(f"/api/tables/{table}/seats/1/reclaim", headers=bearer(tokens[0])).status_code == 403
    back = client.post(f"/api/tables/{table}/seats/1/reclaim", headers=bearer(token1))
    assert back.status_code == 200 and back.json()["seats"][1]["handed_to_bot"] is False


def play_out(client: TestClient, table: str, seat: int, token: str) -> dict[str, Any]:
    """Play the first legal action for ``seat`` until the game is over (bots move at once)."""
    for _ in range(2000):
        now = state(client, table, seat, token)
        if now["result"] is not None:
            return now
        if now["legal"]:
            res = move(client, table, seat, token, now["legal"][0], after=now["moves"])
            assert res.status_code in (200, 409), res.text
        else:
            time.sleep(0.005)
    raise AssertionError("the game did not end")


def test_full_game_replay_record_and_play_again(client: TestClient, make_client, create_table) -> None:
    made = create_table(client, [HUMAN, BOT, BOT])
    table, token = made["table"]["id"], made["tokens"][0]
    assert client.get(f"/api/tables/{table}/replay").status_code == 409  # not while running
    assert client.get(f"/api/tables/{table}/record", headers=bearer(token)).status_code == 409
    final = play_out(client, table, 0, token)
    assert final["table"]["status"] == "finished" and len(final["result"]["scores"]) == 3
    assert final["result"]["details"]["tie_breaks"]
    # a second server on the same database lists it as finished (summarised from storage)
    listed = make_client().get("/api/tables", params={"status": "finished"}).json()
    assert [(t["id"], t["status"], t["to_act"], t["result"]) for t in listed] == [
        (table, "finished", [], final["result"])
    ]
    # the replay: one step per move plus the start, filtered for the spectator
    replay = client.get(f"/api/tables/{table}/replay").json()
    assert len(replay["steps"]) == final["moves"] + 1 and replay["result"] == final["result"]
    assert all(e["type"] != "your_choice" for step in replay["steps"] for e in step["events"])
    as_seat = client.get(f"/api/tables/{table}/replay", params={"seat": 0}, headers=bearer(token)).json()
    assert any(e["type"] == "your_choice" for step in as_seat["steps"] for e in step["events"])
    assert client.get(f"/api/tables/{table}/replay", params={"seat": 1}, headers=bearer(token)).status_code == 403
    # the record, for its players only; it replays as an upload
    assert client.get(f"/api/tables/{table}/record").status_code == 401
    assert client.get(f"/api/tables/{table}/record", headers=bearer(guest_token(client))).status_code == 403
    record = client.get(f"/api/tables/{table}/record", headers=bearer(token)).json()
    assert len(record["moves"]) == final["moves"]
    uploaded = client.post("/api/replays", json={"record": record}).json()
    assert uploaded["steps"] == replay["steps"]
    broken = dict(record, moves=[*record["moves"][:3], [0, {"type": "load", "slot": 99}]])
    res = client.post("/api/replays", json={"record": broken})
    assert res.status_code == 400 and "move 3" in res.json()["detail"]
    assert client.post("/api/replays", json={"record": {"game": "tf22-reload"}}).status_code == 400
    # play again: same seats, the same people
    again = client.post(f"/api/tables/{table}/again", headers=bearer(token))
    assert again.status_code == 200
    new = again.json()
    assert new["id"] != table and [s["kind"] for s in new["seats"]] == ["human", "bot", "bot"]
    assert client.get(f"/api/tables/{table}").json()["next_table"] == new["id"]
    assert client.post(f"/api/tables/{table}/again", headers=bearer(token)).json()["id"] == new["id"]
    assert state(client, new["id"], 0, token)["legal"]


def test_every_registered_game_is_served_through_the_contract(client: TestClient) -> None:
    """The server knows no game: each registered one gets tables, views, legal moves and bots."""
    token = guest_token(client)
    for game in client.get("/api/games").json():
        n = game["min_players"]
        seats = [HUMAN] + [BOT] * (n - 1)
        made = client.post(
            "/api/tables", json={"game": game["id"], "num_players": n, "seats": seats}, headers=bearer(token)
        )
        assert made.status_code == 201, (game["id"], made.text)
        table = made.json()["table"]["id"]
        for _ in range(3):
            wait_for(lambda t=table, k=token: state(client, t, 0, k)["legal"] or state(client, t)["result"])
            now = state(client, table, 0, token)
            if now["result"]:
                break
            assert now["view"] and state(client, table)["view"], game["id"]
            res = move(client, table, 0, token, now["legal"][0], after=now["moves"])
            assert res.status_code == 200, (game["id"], res.text)


def test_after_refuses_only_moves_whose_decision_changed(client: TestClient, create_table) -> None:
    made = create_table(client, [HUMAN, HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    assert move(client, table, 1, tokens[1], {"type": "play", "value": 2}, after=0).status_code == 200
    # seat 0 chose while seat 1 did: a simultaneous choice, still the same decision
    assert move(client, table, 0, tokens[0], {"type": "play", "value": 5}, after=0).status_code == 200
    # a double click (or a click on an old position) is refused
    again = move(client, table, 0, tokens[0], {"type": "play", "value": 4}, after=1)
    assert again.status_code == 409 and "stale" in again.json()["detail"]
    assert move(client, table, 2, tokens[2], {"type": "play", "value": 3}, after=99).status_code == 409
    assert state(client, table)["moves"] == 2


def test_bots_think_in_threads_without_blocking_other_tables(make_client, create_table, monkeypatch) -> None:
    from robotable.server import bots

    real_choose = bots.choose_moves
    thinking, release, thought = threading.Event(), threading.Event(), threading.Event()

    def stuck(*args, **kwargs):
        """A bot that thinks until the test lets it go (at most 60 s, if a blocked loop kept the test out)."""
        thinking.set()
        release.wait(60)
        thought.set()
        return real_choose(*args, **kwargs)

    monkeypatch.setattr(bots, "choose_moves", stuck)
    client = make_client(bot_delay=0.0)
    create_table(client, [BOT, BOT])
    assert thinking.wait(60), "the bots never began to think"
    made = create_table(client, [HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    assert move(client, table, 0, tokens[0], {"type": "play", "value": 3}).status_code == 200
    assert client.get("/api/tables").status_code == 200
    assert not thought.is_set()  # all that while the bots were still thinking
    release.set()


def test_a_chosen_seed_is_only_for_one_person_against_bots(client: TestClient) -> None:
    """The seed fixes every shuffle: at a table of several people, whoever chose it could work out the
    others' hidden cards. Refused there (403, nothing stored); allowed against bots."""
    client.headers.update(bearer(guest_token(client)))
    before = len(client.get("/api/tables").json())
    body = {"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, {"kind": "open"}], "seed": 5}
    res = client.post("/api/tables", json=body)
    assert res.status_code == 403 and "chosen seed" in res.json()["detail"]
    assert len(client.get("/api/tables").json()) == before
    res = client.post("/api/tables", json={**body, "seats": [HUMAN, BOT]})
    assert res.status_code == 201, res.text
    assert res.json()["table"]["id"]
