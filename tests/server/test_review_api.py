"""GET /api/tables/{id}/review on the real app: a finished table's review, computed in a background
process, stored, shown to each player for their own seats, and to spectators only where every deciding
seat knew no more than a spectator (elsewhere a review from a spectator's view); uploaded records' reviews."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from people import bearer, guest_token, wait_for
from test_server_api import BOT, HUMAN, play_out

from robotable.ai import make_agent
from robotable.ai.review import Budget, review_record
from robotable.ai.review.spectator import spectator_review
from robotable.core import Match, Record

#: A tiny budget: the test checks the endpoint, not the search's strength.
BUDGET = Budget(iterations=3, seed=5)


def review(client: TestClient, table: str, token: str | None, **params: Any):
    return client.get(f"/api/tables/{table}/review", params=params, headers=bearer(token) if token else None)


def test_a_finished_tables_review_is_computed_in_the_background_and_shown_to_its_player(
    make_client, database, create_table
) -> None:
    """On SQLite and on PostgreSQL (in a schema of its own): the background process writes there too."""
    url, schema = database
    client = make_client(database=url, schema=schema)
    client.app.state.review_budget = BUDGET
    made = create_table(client, [HUMAN, BOT])
    table, token = made["table"]["id"], made["tokens"][0]
    assert review(client, table, token).status_code == 409  # not while the game is played
    play_out(client, table, 0, token)

    first = review(client, table, token)
    assert first.status_code == 202, first.text
    record = Record.from_json(client.get(f"/api/tables/{table}/record", headers=bearer(token)).json())
    assert first.json()["status"] == "running" and first.json()["total"] == len(record.moves)
    assert 0 <= first.json()["done"] <= first.json()["total"]

    done = wait_for(lambda: (r := review(client, table, token, lang="ja")).status_code == 200 and r, "the review")
    body = done.json()
    assert body["table"] == table and body["game"] == "tf22-reload" and body["moves"] == len(record.moves)
    assert [s["seat"] for s in body["seats"]] == [0]  # the player's own seat, not the bot's
    # the stored review is the review of the record from seat 0's view, with the server's budget
    expected = review_record(record, budget=BUDGET).seat(0).to_json()
    (mine,) = body["seats"]
    assert {k: v for k, v in mine.items() if k != "text"} == expected
    assert len(mine["text"]["largest_losses"]) == len(expected["largest_losses"])
    assert all("手目" in line for line in mine["text"]["turning_points"] + mine["text"]["largest_losses"])
    assert mine["final"] in (0.0, 0.5, 1.0) and mine["moments"]
    # asked again: the stored review, at once, in English this time
    again = review(client, table, token, seat=0, lang="en")
    assert again.status_code == 200
    assert all("move " in line for line in again.json()["seats"][0]["text"]["largest_losses"])


def test_a_tf22_review_is_shown_to_spectators_and_other_seats_players(client: TestClient, create_table) -> None:
    """In TF22 a deciding seat knows no more than a spectator (robotable/ai/review/spectator.py): its
    finished table's review may be seen by anyone signed in, every seat."""
    client.app.state.review_budget = BUDGET
    made = create_table(client, [HUMAN, BOT])
    table, token = made["table"]["id"], made["tokens"][0]
    other = guest_token(client, "Spectator")
    assert review(client, table, other).status_code == 409  # not while the game is played
    play_out(client, table, 0, token)
    assert review(client, table, None).status_code == 401  # a spectator, signed out
    seen = wait_for(lambda: (r := review(client, table, other)).status_code == 200 and r.json(), "the review")
    assert seen["spectator"] is True and [s["seat"] for s in seen["seats"]] == [0, 1]
    bots_seat = review(client, table, token, seat=1)  # the player asking about the bot's seat
    assert bots_seat.status_code == 200 and [s["seat"] for s in bots_seat.json()["seats"]] == [1]
    assert bots_seat.json()["spectator"] is False
    assert review(client, table, token, seat=5).status_code == 400
    assert review(client, "no-such-table", token).status_code == 404


def test_the_review_endpoint_is_in_the_openapi_schema(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    get = schema["paths"]["/api/tables/{table_id}/review"]["get"]
    assert {"200", "202", "401", "403", "409"} <= set(get["responses"])
    assert get["responses"]["202"]["content"]["application/json"]["schema"]["$ref"].endswith("ReviewProgress")
    assert get["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("ReviewOut")
    assert {p["name"] for p in get["parameters"]} == {"table_id", "seat", "lang"}


def test_find_the_better_move_lists_the_players_largest_losses_from_stored_reviews(client: TestClient, create_table):
    client.app.state.review_budget = BUDGET
    made = create_table(client, [HUMAN, BOT], seed=7)  # a fixed deal: a random one may review with no loss
    table, token = made["table"]["id"], made["tokens"][0]
    none_yet = client.get("/api/account/exercises", headers=bearer(token))
    assert none_yet.status_code == 200 and none_yet.json() == []  # no review stored yet
    play_out(client, table, 0, token)
    stored = wait_for(lambda: (r := review(client, table, token)).status_code == 200 and r.json(), "the review")
    (seat,) = stored["seats"]
    losses = sorted(
        ((m["loss"], m["index"]) for m in seat["moments"] if m["loss"] >= 0.01), key=lambda x: (-x[0], x[1])
    )
    assert losses, "a player of first legal moves loses somewhere"
    answer = client.get("/api/account/exercises", params={"min_loss": 0.01, "limit": 5}, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    got = answer.json()
    assert [(e["loss"], e["move"]) for e in got] == losses[:5]
    assert all(e["table"] == table and e["seat"] == 0 and e["played"] != e["better"] for e in got)
    assert all(e["played_text"] and e["better_text"] and str(e["move"] + 1) in e["where"] for e in got)
    # another account sees none of them; signed out, refused
    assert client.get("/api/account/exercises", headers=bearer(guest_token(client, "Other"))).json() == []
    assert client.get("/api/account/exercises").status_code == 401
    assert client.get("/api/account/exercises", params={"min_loss": 2}, headers=bearer(token)).status_code == 422


def upload(client: TestClient, token: str | None, body: Any):
    return client.post("/api/reviews", json=body, headers=bearer(token) if token else None)


def test_an_uploaded_records_review_covers_every_seat_for_its_uploader_only(make_client, create_table) -> None:
    """Without bot workers the web process's review process computes it (with workers: test_review_workers.py)."""
    client = make_client()
    client.app.state.review_budget = BUDGET
    made = create_table(client, [HUMAN, BOT])
    table, token = made["table"]["id"], made["tokens"][0]
    play_out(client, table, 0, token)
    record = client.get(f"/api/tables/{table}/record", headers=bearer(token)).json()
    uploader = guest_token(client, "Uploader")
    sent = upload(client, uploader, {"record": record})
    assert sent.status_code == 202, sent.text
    review_id = sent.json()["id"]
    assert sent.json()["status"] == "running" and sent.json()["total"] == len(record["moves"])
    done = wait_for(
        lambda: (r := client.get(f"/api/reviews/{review_id}", headers=bearer(uploader))).status_code == 200 and r,
        "the uploaded record's review",
    )
    body = done.json()
    expected = review_record(Record.from_json(record), budget=BUDGET).to_json()
    assert body["id"] == review_id and body["table"] is None and body["moves"] == len(record["moves"])
    assert [{k: v for k, v in s.items() if k != "text"} for s in body["seats"]] == expected["seats"]
    assert [s["seat"] for s in body["seats"]] == [0, 1]  # the bot's seat too: a record holds every hand
    refused = client.get(f"/api/reviews/{review_id}", headers=bearer(token))  # the table's player, not the uploader
    assert refused.status_code == 403 and refused.json()["code"] == "app:errors.review_not_yours"
    assert client.get(f"/api/reviews/{review_id}").status_code == 401
    missing = client.get("/api/reviews/0123456789abcdef", headers=bearer(uploader))
    assert missing.status_code == 404 and missing.json()["code"] == "app:errors.review_not_found"
    # the search time is the uploader's, in the bot quota's hourly window
    account = client.get("/api/account", headers=bearer(uploader)).json()["account"]
    wait_for(lambda: client.app.state.bot_queue.used(f"account:{account['id']}") > 0, "the review's time charged")


def test_bad_uploads_are_refused_naming_the_problem(client: TestClient, create_table) -> None:
    client.app.state.review_budget = BUDGET
    token = guest_token(client, "Uploader")
    good = {"game": "tf22-reload", "num_players": 2, "seed": 3, "options": {}, "moves": []}
    cases = [
        ({"record": {"game": "tf22-reload"}}, 400, "missing field 'num_players'"),
        ({"record": {**good, "game": "chess"}}, 400, "chess"),
        ({"record": {**good, "num_players": 9}}, 400, "9"),
        ({"record": {**good, "moves": [[0, {"type": "play", "value": 99}]]}}, 400, "move 0"),
        ({"record": {**good, "moves": [[7, {"type": "play", "value": 1}]]}}, 400, "move 0"),
        ({"record": good}, 400, "no moves"),
        ({"record": {**good, "moves": [[0, {"type": "play", "value": 1}]] * 1001}}, 400, "1001 moves"),
        ({"record": good, "seat": 0}, 422, "seat"),
        ({}, 422, "record"),
    ]
    for body, status, words in cases:
        answer = upload(client, token, body)
        assert answer.status_code == status, (body, answer.text)
        assert words in answer.text, (words, answer.text)
    huge = {"record": {**good, "meta": {"notes": "x" * 70_000}}}
    too_big = upload(client, token, huge)
    assert too_big.status_code == 413 and "bytes" in too_big.json()["detail"]
    assert upload(client, None, {"record": good}).status_code == 401


def test_uploads_are_rate_limited_like_hints_and_refused_over_the_bot_quota(make_client, create_table, monkeypatch):
    monkeypatch.setenv("ROBOTABLE_HINT_RATE", "1/minute")
    client = make_client()
    client.app.state.review_budget = BUDGET
    made = create_table(client, [HUMAN, BOT])
    play_out(client, made["table"]["id"], 0, made["tokens"][0])
    record = client.get(f"/api/tables/{made['table']['id']}/record", headers=bearer(made["tokens"][0])).json()
    token = guest_token(client, "Uploader")
    assert upload(client, token, {"record": record}).status_code == 202
    limited = upload(client, token, {"record": record})
    assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1
    monkeypatch.setenv("ROBOTABLE_BOT_SECONDS", "0")
    monkeypatch.setenv("ROBOTABLE_HINT_RATE", "100/minute")
    over = make_client()
    refused = upload(over, guest_token(over, "Uploader"), {"record": record})
    assert refused.status_code == 429 and "bot quota" in refused.json()["detail"]


def test_where_seats_held_cards_of_their_own_spectators_get_a_spectators_review(client, create_table) -> None:
    """A Twin Tin Bots table (each colour's secret Special Orders): a seat's review would tell them, so a
    spectator gets every seat's review made from a spectator's view, and a player no other seat's."""
    client.app.state.review_budget = BUDGET
    client.app.state.manager.allow_positions = True  # a test server: a chosen seed, to replay a game here
    match = Match("twin-tin-bots", 2, seed=4)
    agents = [make_agent("heuristic", seed=4 + s) for s in range(2)]
    made = create_table(client, [HUMAN, HUMAN], game="twin-tin-bots", seed=4)
    table, tokens = made["table"]["id"], made["tokens"]
    while not match.state.is_over():
        seat = match.state.to_act()[0]
        action = agents[seat].act(match.state, seat)
        match.apply(seat, action)
        played = client.post(
            f"/api/tables/{table}/moves", json={"seat": seat, "action": action.to_json()}, headers=bearer(tokens[seat])
        )
        assert played.status_code == 200, played.text
    assert client.get(f"/api/tables/{table}/replay").status_code == 200  # the replay is public
    spectator = guest_token(client, "Spectator")
    seen = wait_for(lambda: (r := review(client, table, spectator)).status_code == 200 and r.json(), "the review")
    assert seen["spectator"] is True and seen["spectator_view"] is True
    expected = spectator_review(match.record, BUDGET).to_json()["seats"]
    assert [{k: v for k, v in s.items() if k != "text"} for s in seen["seats"]] == expected
    not_mine = review(client, table, tokens[0], seat=1)
    assert not_mine.status_code == 403 and not_mine.json()["code"] == "app:errors.not_your_seat"
    assert review(client, table, tokens[0], seat=0).status_code in (200, 202)  # one's own: yes


def test_the_upload_endpoints_are_in_the_openapi_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    post, get = paths["/api/reviews"]["post"], paths["/api/reviews/{review_id}"]["get"]
    assert {"202", "400", "401", "413", "429"} <= set(post["responses"])
    assert post["responses"]["202"]["content"]["application/json"]["schema"]["$ref"].endswith("ReviewProgress")
    assert {"200", "202", "401", "403", "404"} <= set(get["responses"])
    assert get["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("ReviewOut")
    assert post["tags"] == ["reviews"] and get["tags"] == ["reviews"]
