"""The bot levels' arena ratings in the API: the difficulty list, bot seats and the leaderboards' bots carry
them (from the package data file); a missing or broken file logs a warning and shows no rating."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from people import new_table
from sqlalchemy import insert

from robotable.server import levels
from robotable.server.ratings import ratings_table
from robotable.server.schemas import DIFFICULTIES
from robotable.server.storage import now

HUMAN = {"kind": "human"}


def shipped() -> dict[str, Any]:
    """The data file the server ships, read here independently of the server's reader."""
    return json.loads(levels.PATH.read_text(encoding="utf-8"))["games"]


def shown(rating: dict[str, Any]) -> int:
    return round(rating["mu"] - 3 * rating["sigma"])


@pytest.fixture
def no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "level_ratings.json"
    monkeypatch.setattr(levels, "PATH", path)
    return path


def test_every_level_has_its_rating_per_game(client: TestClient) -> None:
    data = shipped()
    answer = {d["difficulty"]: d for d in client.get("/api/difficulties").json()}
    assert set(answer) == set(DIFFICULTIES)
    assert data, "the shipped file rates no game"
    for level in DIFFICULTIES:
        games = {game for game, entry in data.items() if level in entry["levels"]}
        assert set(answer[level]["ratings"]) == games, level
        for game in games:
            want = data[game]["levels"][level]
            got = answer[level]["ratings"][game]
            assert got["rating"] == round(want["ordinal"]) and got["games"] == want["games"]
            assert abs(got["rating"] - shown(want)) <= 1  # the old field: mu - 3 sigma
            # the 1500-based scale people see (rating_scale.py), settled after this many games
            assert got["display_rating"] == round(1500 + 30 * want["ordinal"]) and not got["provisional"]


def test_a_bot_seat_carries_its_rating_in_this_game_and_a_person_none(client: TestClient) -> None:
    data = shipped()
    made = new_table(client, [HUMAN, {"kind": "bot", "difficulty": "ismcts:hard"}], game="twin-tin-bots")
    table = made["table"]
    want = data["twin-tin-bots"]["levels"]["ismcts:hard"]
    assert table["seats"][0]["level_rating"] is None
    assert table["seats"][1]["level_rating"]["rating"] == round(want["ordinal"])
    listed = {t["id"]: t for t in client.get("/api/tables", params={"status": ["open", "running"]}).json()}
    assert listed[table["id"]]["seats"][1]["level_rating"] == table["seats"][1]["level_rating"]
    state = client.get(f"/api/tables/{table['id']}/state").json()
    assert state["table"]["seats"][1]["level_rating"] == table["seats"][1]["level_rating"]


def test_the_leaderboards_bot_entries_carry_the_level_rating(client: TestClient) -> None:
    storage = client.app.state.manager.storage
    with storage.transaction() as conn:
        for entry, kind in (("heuristic", "bot"), ("account:someone", "account")):
            values = {"game": "tf22-reload", "entry": entry, "kind": kind, "label": entry, "mu": 25.0, "sigma": 5.0}
            conn.execute(insert(ratings_table).values(**values, games=3, wins=1, updated_at=now()))
    entries = {e["entry"]: e for e in client.get("/api/leaderboard/tf22-reload").json()["entries"]}
    want = shipped()["tf22-reload"]["levels"]["heuristic"]
    assert entries["heuristic"]["level_rating"]["rating"] == round(want["ordinal"])
    assert entries["account:someone"]["level_rating"] is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (None, "is missing"),
        ("{not json", "unreadable"),
        ('{"kind": "something else"}', "not a level ratings file"),
        ('{"kind": "robotable-level-ratings", "format": 1, "games": {"tf22-reload": {"levels": {"random": 3}}}}',
         "not an object"),
    ],
)  # fmt: skip
def test_without_a_usable_file_the_server_runs_and_shows_no_rating(
    client: TestClient, no_file: Path, caplog: pytest.LogCaptureFixture, text: str | None, words: str
) -> None:
    if text is not None:
        no_file.write_text(text)
    with caplog.at_level(logging.WARNING, logger="robotable.server"):
        res = client.get("/api/difficulties")
    assert res.status_code == 200
    assert [d["ratings"] for d in res.json()] == [{} for _ in DIFFICULTIES]
    assert any(words in r.getMessage() and r.levelno == logging.WARNING for r in caplog.records), caplog.text
    made = new_table(client, [HUMAN, {"kind": "bot", "difficulty": "ismcts:easy"}])
    assert made["table"]["seats"][1]["level_rating"] is None
    assert client.get(f"/api/tables/{made['table']['id']}/state").status_code == 200
