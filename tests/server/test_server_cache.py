"""Tables as a cache of the database: idle tables leave memory and come back on demand; nothing is
replayed at start-up but bot tables whose bots are to move; finished tables are listed a page at a time
from the database without rebuilding their states."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient
from people import bearer, new_table

from robotable.server import create_app

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}


def make_table(client: TestClient, seats: list[dict]) -> dict:
    made = new_table(client, seats)
    made["tokens"] = {str(k): v for k, v in made["tokens"].items()}
    return made


def move(client: TestClient, table: str, seat: int, token: str) -> int:
    state = client.get(f"/api/tables/{table}/state", params={"seat": seat}, headers=bearer(token)).json()
    body = {"seat": seat, "action": state["legal"][0], "after": state["moves"]}
    res = client.post(f"/api/tables/{table}/moves", json=body, headers=bearer(token))
    assert res.status_code == 200, res.text
    return res.json()["moves"]


def test_idle_tables_are_evicted_and_loaded_on_demand(tmp_path) -> None:
    database = f"sqlite:///{tmp_path / 'cache.db'}"
    with TestClient(create_app(database, bot_delay=0)) as client:
        manager = client.app.state.manager
        made = make_table(client, [HUMAN, HUMAN])
        table, tokens = made["table"]["id"], made["tokens"]
        assert move(client, table, 0, tokens["0"]) == 1
        before = client.get(f"/api/tables/{table}/state", params={"seat": 1}, headers=bearer(tokens["1"])).json()
        assert manager.cache.evict_idle(idle=0) == [table] and table not in manager.live
        after = client.get(f"/api/tables/{table}/state", params={"seat": 1}, headers=bearer(tokens["1"])).json()
        assert table in manager.live  # loaded again on demand, at the same position
        assert {k: after[k] for k in ("moves", "view", "legal", "log")} == {
            k: before[k] for k in ("moves", "view", "legal", "log")
        }
        assert move(client, table, 1, tokens["1"]) == 2
        with client.websocket_connect(f"/ws/tables/{table}") as ws:  # a watched table stays in memory
            assert ws.receive_json()["type"] == "snapshot"
            assert manager.cache.evict_idle(idle=0) == []
    with TestClient(create_app(database, bot_delay=0)) as client:  # a restart replays nothing up front
        manager = client.app.state.manager
        time.sleep(0.2)
        assert table not in manager.live
        assert client.get(f"/api/tables/{table}").json()["moves"] == 2


def test_finished_tables_are_listed_a_page_at_a_time_without_replaying(tmp_path) -> None:
    database = f"sqlite:///{tmp_path / 'pages.db'}"
    with TestClient(create_app(database, bot_delay=0)) as client:
        manager = client.app.state.manager
        ids = {make_table(client, [BOT, BOT])["table"]["id"] for _ in range(5)}
        deadline = time.monotonic() + 60
        while len(client.get("/api/tables", params={"status": "finished"}).json()) < 5:
            assert time.monotonic() < deadline, "the bot games did not finish"
            time.sleep(0.1)
        manager.cache.evict_idle(idle=0)
        assert not manager.live
        seen: list[dict] = []
        before = None
        while True:
            params = {"status": "finished", "limit": 2, **({"before": before} if before else {})}
            page = client.get("/api/tables", params=params).json()
            assert len(page) <= 2
            if not page:
                break
            seen += page
            before = page[-1]["id"]
        assert [t["id"] for t in seen if t["id"] in ids] == [t["id"] for t in seen]
        assert {t["id"] for t in seen} == ids and len(seen) == 5
        stamps = [t["updated_at"] for t in seen]
        assert stamps == sorted(stamps, reverse=True)  # most recent first, across pages
        assert all(t["status"] == "finished" and t["result"] and t["to_act"] == [] for t in seen)
        assert not manager.live  # summarised from the database, no table replayed
        assert client.get("/api/tables", params={"before": "nosuchtable"}).status_code == 400


def test_bot_tables_resume_at_start_up_and_people_tables_wait(tmp_path) -> None:
    database = f"sqlite:///{tmp_path / 'resume.db'}"
    with TestClient(create_app(database, bot_delay=30)) as client:  # bots wait: the table stays unfinished
        bots = make_table(client, [BOT, BOT])["table"]["id"]
        people = make_table(client, [HUMAN, HUMAN])["table"]["id"]
    with TestClient(create_app(database, bot_delay=0)) as client:
        manager = client.app.state.manager
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{bots}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bot table did not resume"
            time.sleep(0.1)
        assert people not in manager.live


def test_finished_tables_leave_memory_sooner_than_unfinished_ones(tmp_path, monkeypatch) -> None:
    """A busy server finishes many tables: each leaves memory soon after its last use (here at once),
    where an unfinished one waits for the longer idle time; a finished one comes back on demand."""
    from robotable.server.table import registry

    monkeypatch.setattr(registry, "FINISHED_IDLE_SECONDS", 0.0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'finished.db'}", bot_delay=0)) as client:
        manager = client.app.state.manager
        finished = make_table(client, [BOT, BOT])["table"]["id"]
        deadline = time.monotonic() + 60
        while (summary := client.get(f"/api/tables/{finished}").json())["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.05)
        made = make_table(client, [HUMAN, HUMAN])
        running = made["table"]["id"]
        assert move(client, running, 0, made["tokens"]["0"]) == 1
        time.sleep(0.01)
        manager.cache.evict_idle()
        assert finished not in manager.live and running in manager.live
        assert client.get(f"/api/tables/{finished}").json()["moves"] == summary["moves"]  # loaded on demand
