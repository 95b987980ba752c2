"""Clocks and the hand-over policy, on SQLite and on PostgreSQL: a seat can be handed to a bot only once
its clock has run out or (live tables) its player has been away for the whole grace period; its player
takes it back; time controls are checked; the game's defaults come from its data file."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from people import bearer, guest_token, wait_for

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}


@pytest.fixture(params=["sqlite", "postgresql"])
def clocked(request, make_client, monkeypatch, pg_url) -> Callable[..., TestClient]:
    """``clocked(grace=...)``: an in-process client with a fast time-out tick, on either database."""

    def make(grace: float = 60.0) -> TestClient:
        monkeypatch.setenv("ROBOTABLE_GRACE_SECONDS", str(grace))
        monkeypatch.setenv("ROBOTABLE_CLOCK_TICK", "0.1")
        if request.param == "sqlite":
            return make_client()
        schema = request.getfixturevalue("pg_schema")
        return make_client(database=pg_url, schema=schema)

    return make


def summary(client: TestClient, table: str) -> dict[str, Any]:
    res = client.get(f"/api/tables/{table}")
    assert res.status_code == 200, res.text
    return res.json()


def hand(client: TestClient, table: str, target: int, seat: int, token: str):
    """``seat``'s player (API token ``token``) hands seat ``target`` to a bot."""
    return client.post(f"/api/tables/{table}/seats/{target}/bot", json={"difficulty": "random"}, headers=bearer(token))


def test_a_seat_is_handed_over_only_once_its_clock_runs_out(clocked, create_table, server_clock) -> None:
    client = clocked(grace=600.0)
    made = create_table(client, [HUMAN, HUMAN], time_control={"kind": "live", "base": 60, "increment": 1})
    table, tokens = made["table"]["id"], made["tokens"]
    clock = made["table"]["clock"]
    assert clock["control"] == {"kind": "live", "base": 60, "increment": 1, "label": "1 min + 1 s"}
    # TF22 opens with a simultaneous secret choice: both clocks run
    assert [c["running"] for c in clock["seats"]] == [True, True]
    with client.websocket_connect(f"/ws/tables/{table}?seat=0", headers=bearer(tokens[0])) as ws:
        assert ws.receive_json()["type"] == "snapshot"
        move = client.post(
            f"/api/tables/{table}/moves",
            json={"seat": 0, "action": {"type": "play", "value": 5}},
            headers=bearer(tokens[0]),
        )
        assert move.status_code == 200, move.text
        clock = summary(client, table)["clock"]
        # seat 0 chose: its clock stops with what it had left plus the increment; seat 1 still owes
        assert [c["running"] for c in clock["seats"]] == [False, True]
        assert clock["seats"][1]["left_ms"] + 1000 <= clock["seats"][0]["left_ms"] <= 61_000
        early = hand(client, table, 1, 0, tokens[0])
        assert early.status_code == 409, early.text
        assert "seat 2 cannot be handed to a bot yet" in early.json()["detail"]
        assert not summary(client, table)["seats"][1]["handed_to_bot"]
        # the clock runs out: the server fires the time-out once and notes it
        server_clock.advance(61)
        notes = wait_for(lambda: summary(client, table)["clock"]["notes"], "the time-out's note")
        assert [(n["seat"], n["kind"]) for n in notes] == [(1, "timeout")]
        seat1 = summary(client, table)["clock"]["seats"][1]
        assert seat1["timed_out"] and seat1["left_ms"] <= 0 and seat1["can_hand_over"]
        # a seat cannot hand itself over, and someone not at the table cannot either
        assert hand(client, table, 0, 0, tokens[0]).status_code == 409
        assert hand(client, table, 1, 0, guest_token(client, "Stranger")).status_code == 403
        res = hand(client, table, 1, 0, tokens[0])
        assert res.status_code == 200, res.text
        assert res.json()["seats"][1]["handed_to_bot"] is True
        assert hand(client, table, 1, 0, tokens[0]).status_code == 409  # already a bot's
        # the bot made the secret choice: the game goes on, and seat 1's clock no longer runs
        wait_for(lambda: summary(client, table)["moves"] >= 2, "the bot's choice")
        assert summary(client, table)["clock"]["seats"][1]["running"] is False
    # the player comes back and takes the seat back, with a minute (here its base time) on the clock
    back = client.post(f"/api/tables/{table}/seats/1/reclaim", json={"seat": 1}, headers=bearer(tokens[1]))
    assert back.status_code == 200, back.text
    after = back.json()
    assert after["seats"][1]["handed_to_bot"] is False
    assert after["clock"]["seats"][1]["left_ms"] >= 59_000
    kinds = [(n["seat"], n["kind"]) for n in after["clock"]["notes"]]
    assert kinds == [(1, "timeout"), (1, "handed_to_bot"), (1, "reclaimed")]
    assert "by seat 1" in after["clock"]["notes"][1]["detail"]
    # the time-out was fired once, however many ticks pass
    assert client.app.state.manager.clocks.fire_due() == []
    assert [n["kind"] for n in summary(client, table)["clock"]["notes"]].count("timeout") == 1


def test_live_tables_give_a_disconnected_player_a_grace_period(clocked, create_table, server_clock) -> None:
    client = clocked(grace=60)
    made = create_table(client, [HUMAN, HUMAN], time_control={"kind": "live", "base": 600, "increment": 0})
    table, tokens = made["table"]["id"], made["tokens"]
    with client.websocket_connect(f"/ws/tables/{table}?seat=0", headers=bearer(tokens[0])) as ws0:
        ws0.receive_json()
        with client.websocket_connect(f"/ws/tables/{table}?seat=1", headers=bearer(tokens[1])) as ws1:
            ws1.receive_json()
            seat1 = summary(client, table)["clock"]["seats"][1]
            assert seat1["away_ms"] is None and not seat1["can_hand_over"]
            connected = hand(client, table, 1, 0, tokens[0])
            assert connected.status_code == 409 and "connected" in connected.json()["detail"]
        # seat 1 left: the others see the grace counting down, and may not hand the seat over yet
        away = wait_for(lambda: summary(client, table)["clock"]["seats"][1]["away_ms"], "the grace countdown")
        assert 0 < away <= 60_000
        refused = hand(client, table, 1, 0, tokens[0])
        assert refused.status_code == 409 and "more to come back" in refused.json()["detail"]
        server_clock.advance(61)
        seat1 = summary(client, table)["clock"]["seats"][1]
        assert seat1["away_ms"] == 0 and seat1["can_hand_over"] and seat1["left_ms"] > 500_000
        assert hand(client, table, 1, 0, tokens[0]).status_code == 200
        notes = summary(client, table)["clock"]["notes"]
        assert [(n["seat"], n["kind"]) for n in notes] == [(1, "handed_to_bot")]


def play_to_the_end(client: TestClient, table: str, token: str) -> None:
    """Seat 0 plays its first legal action whenever it may move (its bot opponent moves at once)."""
    for _ in range(2000):
        now = client.get(f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(token)).json()
        if now["result"] is not None:
            return
        if now["legal"]:
            body = {"seat": 0, "action": now["legal"][0], "after": now["moves"]}
            res = client.post(f"/api/tables/{table}/moves", json=body, headers=bearer(token))
            assert res.status_code in (200, 409), res.text
        else:
            time.sleep(0.005)
    raise AssertionError("the game did not end")


def test_a_game_that_is_over_starts_no_grace_countdown(clocked, create_table) -> None:
    client = clocked(grace=60)
    made = create_table(client, [HUMAN, BOT], time_control={"kind": "live", "base": 600, "increment": 0})
    table, token = made["table"]["id"], made["tokens"][0]
    with client.websocket_connect(f"/ws/tables/{table}?seat=0", headers=bearer(token)) as ws:
        ws.receive_json()
        play_to_the_end(client, table, token)
    # the page closed once the game was over: nothing is stored for it, nobody is counted away
    time.sleep(0.3)
    assert client.app.state.manager.clocks.load(table).seats[0].away_deadline is None
    assert summary(client, table)["clock"]["seats"][0]["away_ms"] is None


def test_a_countdown_begun_during_the_game_ends_with_it(clocked, create_table) -> None:
    client = clocked(grace=60)
    made = create_table(client, [HUMAN, BOT], time_control={"kind": "live", "base": 600, "increment": 0})
    table, token = made["table"]["id"], made["tokens"][0]
    with client.websocket_connect(f"/ws/tables/{table}?seat=0", headers=bearer(token)) as ws:
        ws.receive_json()  # closed at once, while the server may still be recording that it came
    assert wait_for(lambda: summary(client, table)["clock"]["seats"][0]["away_ms"], "the countdown")  # away, plays on
    play_to_the_end(client, table, token)
    seat0 = summary(client, table)["clock"]["seats"][0]
    assert seat0["away_ms"] is None and not seat0["can_hand_over"]


def test_turn_based_tables_wait_for_the_clock_not_the_connection(clocked, create_table, server_clock) -> None:
    client = clocked(grace=60)
    made = create_table(client, [HUMAN, HUMAN], time_control={"kind": "turn", "days": 2})
    table, tokens = made["table"]["id"], made["tokens"]
    clock = made["table"]["clock"]
    assert clock["control"] == {"kind": "turn", "days": 2, "label": "2 days per move"}
    assert all(c["running"] and 2 * 86_400_000 - 5000 < c["left_ms"] <= 2 * 86_400_000 for c in clock["seats"])
    server_clock.advance(61)  # seat 1 never came, for longer than a grace period: on a turn-based table, normal
    res = hand(client, table, 1, 0, tokens[0])
    assert res.status_code == 409 and "1 d 23 h left" in res.json()["detail"], res.text
    # a move resets the mover's clock to a full two days for its next move
    client.post(
        f"/api/tables/{table}/moves",
        json={"seat": 0, "action": {"type": "play", "value": 4}},
        headers=bearer(tokens[0]),
    )
    seat0 = summary(client, table)["clock"]["seats"][0]
    assert seat0["running"] is False and seat0["left_ms"] == 2 * 86_400_000


def test_time_controls_are_checked_and_default_to_the_game(client: TestClient, create_table) -> None:
    for game, base, increment in (("tf22-reload", 300, 20), ("twin-tin-bots", 600, 45)):
        made = create_table(client, [HUMAN, BOT], game=game)
        assert made["table"]["clock"]["control"] == {
            "kind": "live",
            "base": base,
            "increment": increment,
            "label": f"{base // 60} min + {increment} s",
        }
    partial = create_table(client, [HUMAN, BOT], time_control={"kind": "live", "increment": 5})
    assert partial["table"]["clock"]["control"]["base"] == 300
    refusals = [
        ({"kind": "turn", "days": 4}, 422, "days"),
        ({"kind": "turn", "base": 60}, 400, "turn-based table takes days"),
        ({"kind": "live", "days": 1}, 400, "live table takes base and increment"),
        ({"kind": "live", "base": 0}, 422, "base"),
        ({"kind": "live", "increment": 100_000}, 422, "increment"),
        ({"kind": "blitz"}, 422, "kind"),
        ({"kind": "live", "bonus": 3}, 422, "bonus"),
    ]
    before = len(client.get("/api/tables").json())
    for spec, status, words in refusals:
        body = {"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, BOT], "time_control": spec}
        res = client.post("/api/tables", json=body, headers=bearer(made["creator"]))
        assert res.status_code == status, (spec, res.text)
        assert words in res.json()["detail"], (spec, res.json())
    assert len(client.get("/api/tables").json()) == before  # nothing was made


def test_a_bot_seat_and_a_person_against_bots(client: TestClient, create_table) -> None:
    """Bots have no clock; a person against bots has one running only while the game waits for them."""
    made = create_table(client, [HUMAN, BOT, BOT])
    seats = made["table"]["clock"]["seats"]
    assert [c["running"] for c in seats] == [True, False, False]
    assert not any(c["can_hand_over"] for c in seats)


def test_clock_settings_from_the_environment_are_checked(monkeypatch) -> None:
    from robotable.server.clocks import ClockSettings
    from robotable.server.expiry import ExpirySettings

    monkeypatch.setenv("ROBOTABLE_GRACE_SECONDS", "12.5")
    assert ClockSettings.from_env().grace == 12.5
    for name, value, make in (
        ("ROBOTABLE_GRACE_SECONDS", "soon", ClockSettings.from_env),
        ("ROBOTABLE_CLOCK_TICK", "0", ClockSettings.from_env),
        ("ROBOTABLE_OPEN_TABLE_TTL", "-5", ExpirySettings.from_env),
    ):
        monkeypatch.setenv(name, value)
        with pytest.raises(RuntimeError, match=name):
            make()
        monkeypatch.delenv(name)


def test_a_new_table_is_never_read_without_its_clocks(clocked, create_table, monkeypatch) -> None:
    """The table and its clocks are stored in one transaction: whoever reads the new table right after
    its row is stored (another process, or a request here) finds the chosen time control with the clock
    of the seat the game waits for running, not the game's default given to a table without clocks."""
    from robotable.server.clocks import Clocks
    from robotable.server.table.live import rebuild

    client = clocked()
    storage = client.app.state.manager.storage
    store = storage.create_table
    seen: list[dict[str, Any]] = []

    def create_and_read(row, *args, **kwargs) -> None:
        store(row, *args, **kwargs)
        elsewhere = Clocks(storage)  # another process: nothing cached, reads what is stored
        clock = elsewhere.of(rebuild(storage.load_table(row.id)))
        seen.append({"control": clock.control.label(), "running": [c.running for c in clock.seats]})

    monkeypatch.setattr(storage, "create_table", create_and_read)
    made = create_table(client, [HUMAN, BOT], time_control={"kind": "live", "base": 60, "increment": 0})
    assert seen == [{"control": "1 min + 0 s", "running": [True, False]}]
    assert summary(client, made["table"]["id"])["clock"]["control"]["base"] == 60
