"""Reviews computed by real ``robotable worker`` processes (issue 30; docs/review.md): a finished table's
review starts when the table ends (nobody opened its replay), its progress is stored while it runs, the
worker keeps playing bot turns meanwhile, and an uploaded record's review is computed there too."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from people import bearer, guest_token, wait_for
from sqlalchemy import select
from test_server_api import BOT, HUMAN, play_out
from test_server_workers import cluster  # noqa: F401  (the fixture: a web process with --bots external)

from robotable.ai.review import Budget, review_record
from robotable.core import Record
from robotable.server.review_jobs import UPLOAD, ensure_table, reviews

#: The servers' and workers' review budget here (ROBOTABLE_REVIEW_ITERATIONS): the test checks where
#: and when the review runs, not the search's strength.
ITERATIONS = 4


def review_rows(server: Any, key: str) -> dict[str, Any] | None:
    storage = server.queue.storage
    ensure_table(storage.engine, storage.url, storage.schema)
    with storage.read() as conn:
        row = conn.execute(select(reviews).where(reviews.c.table_id == key)).mappings().first()
    return dict(row) if row is not None else None


def play_hotseat(http: httpx.Client, table: str, token: str) -> None:
    """Both seats of a hotseat table play their first legal move until the game is over."""
    for _ in range(1000):
        state = http.get(f"/api/tables/{table}/state", headers=bearer(token)).json()
        if state["result"] is not None:
            return
        seat = state["to_act"][0]
        legal = http.get(f"/api/tables/{table}/state", params={"seat": seat}, headers=bearer(token)).json()["legal"]
        res = http.post(f"/api/tables/{table}/moves", json={"seat": seat, "action": legal[0]}, headers=bearer(token))
        assert res.status_code == 200, res.text
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_a_worker_reviews_a_finished_table_unasked_and_an_uploaded_record_for_every_seat(
    cluster: Any,  # noqa: F811
    create_table: Any,
    monkeypatch: pytest.MonkeyPatch,
    db: str,
) -> None:
    monkeypatch.setenv("ROBOTABLE_REVIEW_ITERATIONS", str(ITERATIONS))  # the web process's and the workers'
    server = cluster(db)
    made = create_table(server, [HUMAN, HUMAN], hotseat=True)
    table, token = made["table"]["id"], made["tokens"][0]
    with httpx.Client(base_url=server.url, timeout=10) as http:
        play_hotseat(http, table, token)
        assert review_rows(server, table) is None  # the web process computes nothing
        server.worker()
        # nobody asks for the review: the worker finds the finished table and reviews it
        wait_for(lambda: (review_rows(server, table) or {}).get("status") == "done", "the worker's review", timeout=120)
        record = http.get(f"/api/tables/{table}/record", headers=bearer(token)).json()
        expected = review_record(Record.from_json(record), budget=Budget(iterations=ITERATIONS)).to_json()
        answer = http.get(f"/api/tables/{table}/review", headers=bearer(token))
        assert answer.status_code == 200, answer.text
        assert [{k: v for k, v in s.items() if k != "text"} for s in answer.json()["seats"]] == expected["seats"]
        assert review_rows(server, table)["worker"] is None

        # the same record uploaded by another account: reviewed by the worker, every seat
        uploader = guest_token(server, "Uploader")
        sent = http.post("/api/reviews", json={"record": record}, headers=bearer(uploader))
        assert sent.status_code == 202, sent.text
        review_id = sent.json()["id"]
        assert sent.json()["status"] == "queued" and sent.json()["total"] == len(record["moves"])
        got = wait_for(
            lambda: (r := http.get(f"/api/reviews/{review_id}", headers=bearer(uploader))).status_code == 200 and r,
            "the uploaded record's review",
            timeout=120,
        )
        body = got.json()
        assert body["id"] == review_id and body["table"] is None
        assert [{k: v for k, v in s.items() if k != "text"} for s in body["seats"]] == expected["seats"]
        assert [s["seat"] for s in body["seats"]] == [0, 1]  # a record holds every hand: every seat
        # only the uploader reads it
        other = http.get(f"/api/reviews/{review_id}", headers=bearer(guest_token(server, "Other")))
        assert other.status_code == 403 and other.json()["code"] == "app:errors.review_not_yours"
        # its search time counts against the uploader's bot quota
        account = http.get("/api/account", headers=bearer(uploader)).json()["account"]
        wait_for(lambda: server.queue.used(f"account:{account['id']}") > 0, "the review's time charged")
        assert review_rows(server, UPLOAD + review_id)["owner"] == account["id"]


def test_a_reviewing_worker_plays_bot_turns_shows_progress_and_hands_the_review_back_when_stopped(
    cluster: Any,  # noqa: F811
    create_table: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ROBOTABLE_REVIEW_ITERATIONS", "150")  # a review long enough to play beside
    server = cluster("sqlite")
    worker = server.worker()
    later = create_table(server, [HUMAN, BOT])  # a table against a bot, played while the review runs
    made = create_table(server, [HUMAN, BOT])
    table, token = made["table"]["id"], made["tokens"][0]
    with httpx.Client(base_url=server.url, timeout=10) as http:
        play_out(http, table, 0, token)  # the worker plays the bot's moves
        wait_for(lambda: (review_rows(server, table) or {}).get("done", 0) > 0, "the review under way")
        row = review_rows(server, table)
        assert row["status"] == "running" and row["worker"]  # claimed by the worker, by name
        # the player sees the progress
        shown = http.get(f"/api/tables/{table}/review", headers=bearer(token))
        assert shown.status_code == 202 and shown.json()["status"] == "running", shown.text
        assert 0 < shown.json()["done"] < shown.json()["total"]
        # the worker answers another table's bot turns between two decisions of the review
        other, other_token = later["table"]["id"], later["tokens"][0]

        def my_turn() -> dict[str, Any] | None:
            now = http.get(f"/api/tables/{other}/state", params={"seat": 0}, headers=bearer(other_token)).json()
            return now if now["legal"] else None

        for _ in range(6):
            now = wait_for(my_turn, "seat 0 to move (after the bot's reply)", timeout=60)
            body = {"seat": 0, "action": now["legal"][0], "after": now["moves"]}
            assert http.post(f"/api/tables/{other}/moves", json=body, headers=bearer(other_token)).status_code == 200
        played = wait_for(my_turn, "the bot's reply", timeout=60)["moves"]
        assert played - 6 >= 3, f"the bot moved {played - 6} times"
        assert review_rows(server, table)["status"] == "running", "the review ended before the bot turns were played"
        # and its progress is recorded as it goes (waited for: one decision's search may outlast the bot turns)
        wait_for(
            lambda: (review_rows(server, table) or {}).get("done", 0) > row["done"],
            "the review's progress to advance",
            timeout=120,
        )
        # a stopped worker hands its review back for another worker
        worker.proc.terminate()
        assert worker.proc.wait(timeout=30) == 0
        back = review_rows(server, table)
        assert back["status"] == "queued" and back["worker"] is None and back["done"] == 0


def test_a_killed_workers_review_is_taken_over_after_its_lease(
    cluster: Any,  # noqa: F811
    create_table: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ROBOTABLE_REVIEW_ITERATIONS", "40")
    server = cluster("postgresql")
    made = create_table(server, [HUMAN, HUMAN], hotseat=True)
    table, token = made["table"]["id"], made["tokens"][0]
    with httpx.Client(base_url=server.url, timeout=10) as http:
        play_hotseat(http, table, token)
        record = Record.from_json(http.get(f"/api/tables/{table}/record", headers=bearer(token)).json())
    first = server.worker()
    wait_for(lambda: (review_rows(server, table) or {}).get("done", 0) > 0, "the first worker's progress")
    first.kill()  # SIGKILL: it hands nothing back
    stuck = review_rows(server, table)
    assert stuck["status"] == "running" and stuck["worker"]
    server.worker("--review-lease", "3")
    wait_for(
        lambda: (r := review_rows(server, table))["worker"] not in (None, stuck["worker"]) or r["status"] == "done",
        "another worker taking the review over",
    )
    wait_for(
        lambda: review_rows(server, table)["status"] == "done", "the review done by the second worker", timeout=180
    )
    stored = review_rows(server, table)["review"]
    assert stored == review_record(record, budget=Budget(iterations=40)).to_json()  # the same review
