"""Tournaments for people on SQLite and PostgreSQL (tournaments.py, tournament_api.py): bad settings and
out-of-turn requests are refused naming the problem; a Swiss tournament of five (byes, no rematches, a
no-show forfeiting when its clock runs out, the server's time injected) runs to its standings with
Buchholz, rated tables and its state kept over a restart; groups by standing for tables of 3 with bots."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from itertools import pairwise
from typing import Any

import pytest
from clock_helpers import wait_for_running_clock
from fastapi.testclient import TestClient
from people import bearer, guest_token, wait_for
from sqlalchemy import select, update

from robotable.server import tournament_api, tournaments
from robotable.server.storage.schema import mail_outbox_table, tournament_tables_table

LIVE = {"kind": "live", "base": 60, "increment": 0}


@pytest.fixture(params=["sqlite", "postgresql"])
def clocked(request, make_client, monkeypatch, pg_url) -> Callable[[], TestClient]:
    """``clocked()``: an in-process client with a fast tick, on either database (the same one each call)."""
    monkeypatch.setenv("ROBOTABLE_GRACE_SECONDS", "600")
    monkeypatch.setenv("ROBOTABLE_CLOCK_TICK", "0.05")
    schema = request.getfixturevalue("pg_schema") if request.param == "postgresql" else None

    def make() -> TestClient:
        if schema is None:
            return make_client()
        return make_client(database=pg_url, schema=schema)

    return make


def account_of(client: TestClient, token: str) -> str:
    return client.get("/api/account", headers=bearer(token)).json()["account"]["id"]


def tournament(client: TestClient, tid: str) -> dict[str, Any]:
    res = client.get(f"/api/tournaments/{tid}")
    assert res.status_code == 200, res.text
    return res.json()


def refused(res: Any, status: int, words: str) -> None:
    assert res.status_code == status, res.text
    assert words in res.json()["detail"], res.json()


def play_to_the_end(client: TestClient, table: str, tokens: dict[int, str], rng: random.Random) -> dict[str, Any]:
    """The people at ``table`` play random legal moves until the game is over."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        moved = False
        for seat, token in tokens.items():
            snap = client.get(f"/api/tables/{table}/state", params={"seat": seat}, headers=bearer(token)).json()
            if snap["result"]:
                return snap
            if snap["legal"]:
                body = {"seat": seat, "action": rng.choice(snap["legal"]), "after": snap["moves"]}
                client.post(f"/api/tables/{table}/moves", json=body, headers=bearer(token))
                moved = True
        if not moved:
            time.sleep(0.01)
    raise AssertionError(f"table {table} did not end")


def matching_without(players: list[str], met: set[frozenset[str]]) -> bool:
    """Whether ``players`` can be paired with no pair from ``met``."""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(frozenset((first, o)) not in met and matching_without([p for p in rest if p != o], met) for o in rest)


def test_bad_settings_and_requests_are_refused_naming_the_problem(clocked) -> None:
    client = clocked()
    org, other = guest_token(client, "Org"), guest_token(client, "Other")
    base = {"name": "Cup", "game": "tf22-reload", "table_size": 2, "rounds": 3}
    for change, status, words in (
        ({"table_size": 7}, 400, "table_size must be 2 to 6"),
        ({"table_size": 5}, 400, "not 5 per table"),  # TF22 is for 2 to 4
        ({"game": "chess"}, 400, "chess"),
        ({"rounds": 0}, 400, "rounds must be 1 to 20"),
        ({"max_entrants": 1}, 400, "max_entrants must be 2"),
        ({"name": "   "}, 400, "name must be"),
        ({"time_control": {"kind": "turn", "base": 5}}, 400, "turn-based table takes days"),
        ({"colour": "red"}, 422, "colour"),
    ):
        refused(client.post("/api/tournaments", json={**base, **change}, headers=bearer(org)), status, words)
    refused(client.post("/api/tournaments", json=base), 401, "sign")
    made = client.post("/api/tournaments", json=base, headers=bearer(org))
    assert made.status_code == 201, made.text
    tid = made.json()["tournament"]["id"]
    assert made.json()["tournament"]["format"] == "swiss" and made.json()["tournament"]["status"] == "signup"
    refused(client.get("/api/tournaments/nosuch"), 404, "no such tournament")
    refused(client.get("/api/tournaments", params={"status": "lost"}), 400, "status must be")
    refused(
        client.post(f"/api/tournaments/{tid}/bots", json={"difficulty": "random"}, headers=bearer(org)),
        409,
        "does not allow bots",
    )
    refused(client.post(f"/api/tournaments/{tid}/start", headers=bearer(other)), 403, "only the tournament's organiser")
    refused(
        client.post(f"/api/tournaments/{tid}/start", headers=bearer(org)), 409, "needs at least 2 entrants, it has 0"
    )
    assert client.post(f"/api/tournaments/{tid}/entries", headers=bearer(other)).status_code == 200
    refused(client.post(f"/api/tournaments/{tid}/entries", headers=bearer(other)), 409, "already entered")
    refused(
        client.delete(f"/api/tournaments/{tid}/entries/{account_of(client, other)}", headers=bearer(org)),
        403,
        "your own entry",
    )
    refused(client.delete(f"/api/tournaments/{tid}/entries/nobody", headers=bearer(org)), 404, "no such entry")
    assert client.post(f"/api/tournaments/{tid}/entries", headers=bearer(org)).status_code == 200
    # withdrawing and signing up again before the start is fine
    out = client.delete(f"/api/tournaments/{tid}/entries/{account_of(client, org)}", headers=bearer(org))
    assert out.status_code == 200 and [e["name"] for e in out.json()["entrants"]] == ["Other"]
    assert client.post(f"/api/tournaments/{tid}/entries", headers=bearer(org)).status_code == 200
    started = client.post(f"/api/tournaments/{tid}/start", headers=bearer(org))
    assert started.status_code == 200, started.text
    assert started.json()["tournament"]["status"] == "running" and len(started.json()["rounds"][0]["tables"]) == 1
    late = guest_token(client, "Late")
    refused(client.post(f"/api/tournaments/{tid}/entries", headers=bearer(late)), 409, "has started")
    refused(client.post(f"/api/tournaments/{tid}/start", headers=bearer(org)), 409, "already started")
    refused(
        client.delete(f"/api/tournaments/{tid}/entries/{account_of(client, org)}", headers=bearer(org)),
        409,
        "has started",
    )


def play_round(
    client: TestClient, tables: list[dict[str, Any]], tokens: dict[str, str], no_show: str, rng: random.Random
) -> bool:
    """Every table of a round without the no-show is played to the end; at the no-show's table its
    opponent makes TF22's secret choice and waits. Whether the no-show has a table this round."""
    waiting = False
    for t in tables:
        if t["outcome"] == "bye":
            continue
        seats = {s["seat"]: s["entry"] for s in t["seats"]}
        summary = client.get(f"/api/tables/{t['table']}").json()
        assert summary["rated"] and [s["account"] for s in summary["seats"]] == [seats[0], seats[1]]
        if no_show not in seats.values():
            play_to_the_end(client, t["table"], {s: tokens[e] for s, e in seats.items()}, rng)
            continue
        waiting = True
        absent = next(s for s, e in seats.items() if e == no_show)
        wait_for_running_clock(lambda table=t["table"]: client.get(f"/api/tables/{table}").json(), absent)
        seat = next(s for s, e in seats.items() if e != no_show)
        token = tokens[seats[seat]]
        snap = client.get(f"/api/tables/{t['table']}/state", params={"seat": seat}, headers=bearer(token)).json()
        move = {"seat": seat, "action": snap["legal"][0], "after": snap["moves"]}
        res = client.post(f"/api/tables/{t['table']}/moves", json=move, headers=bearer(token))
        assert res.status_code == 200, res.text
    return waiting


def still_playing(client: TestClient, tid: str, number: int) -> str:
    """Round ``number``'s tables still playing: each one's seats, status, moves and clocks (for a failure)."""
    lines = []
    for t in tournament(client, tid)["rounds"][number - 1]["tables"]:
        if t["outcome"] == "playing":
            summary = client.get(f"/api/tables/{t['table']}").json() if t["table"] else {}
            keep = ("status", "moves", "clock", "seats")
            lines.append(f"{t}\n  table: { ({k: summary.get(k) for k in keep}) }")
    return "\n".join(lines) or "(none: they ended just after the guard)"


def test_a_swiss_tournament_with_a_no_show_runs_to_its_standings(clocked, server_clock) -> None:
    client = clocked()
    rng = random.Random(7)
    names = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    tokens = {name: guest_token(client, name) for name in names}
    ids = {name: account_of(client, tokens[name]) for name in names}
    body = {"name": "Friday Swiss", "game": "tf22-reload", "table_size": 2, "rounds": 3, "time_control": LIVE}
    made = client.post("/api/tournaments", json=body, headers=bearer(tokens["Ann"]))
    assert made.status_code == 201, made.text
    tid = made.json()["tournament"]["id"]
    assert tid in [t["id"] for t in client.get("/api/tournaments").json()["tournaments"]]
    for name in names:
        assert client.post(f"/api/tournaments/{tid}/entries", headers=bearer(tokens[name])).status_code == 200
    assert client.post(f"/api/tournaments/{tid}/start", headers=bearer(tokens["Ann"])).status_code == 200
    no_show = ids["Dan"]  # signs up, never comes to a table: forfeits each game when the clock runs out
    for number in (1, 2, 3):
        now = wait_for(
            lambda n=number, c=client: (
                (t := tournament(c, tid))["tournament"]["round"] == n
                and all(x["table"] or x["outcome"] == "bye" for x in t["rounds"][n - 1]["tables"])
                and t
            ),
            f"round {number} with its tables",
        )
        tables = now["rounds"][number - 1]["tables"]
        assert len(tables) == 3 and sum(t["outcome"] == "bye" for t in tables) == 1  # 5 entrants: one bye
        if play_round(client, tables, {ids[n]: tokens[n] for n in names}, no_show, rng):
            server_clock.advance(61)  # the no-show's clock runs out: a forfeit
        if number == 2:  # the server restarts in the middle of the tournament: it goes on from the database
            client.__exit__(None, None, None)
            client = clocked()
        try:
            wait_for(
                lambda n=number, c=client: all(
                    x["outcome"] != "playing" for x in tournament(c, tid)["rounds"][n - 1]["tables"]
                ),
                f"every table of round {number} to be over",
            )
        except AssertionError as exc:  # say what was still playing (seen once beside a CPU hog, not explained)
            raise AssertionError(f"{exc}\n{still_playing(client, tid, number)}") from exc
        assert still_playing(client, tid, number).startswith("(none")
    final = wait_for(lambda: (t := tournament(client, tid))["tournament"]["status"] == "finished" and t, "the end")
    tables = [t for r in final["rounds"] for t in r["tables"]]
    # byes: one a round, never twice to one entrant, and the no-show's games are forfeits it lost
    byes = [t["seats"][0]["entry"] for t in tables if t["outcome"] == "bye"]
    assert len(byes) == 3 and len(set(byes)) == 3
    assert final["rounds"][0]["tables"][-1]["seats"][0]["name"] == "Eve"  # level at 0: the last by name
    met: set[frozenset[str]] = set()
    for r in final["rounds"]:  # a rematch only when no pairing of the round's players avoids one
        pairs = [frozenset(s["entry"] for s in t["seats"]) for t in r["tables"] if t["outcome"] != "bye"]
        if any(p in met for p in pairs):
            assert not matching_without(sorted(set().union(*pairs)), met), f"avoidable rematch in round {r['round']}"
        met |= set(pairs)
    for t in tables:
        if t["outcome"] == "bye":
            assert t["seats"][0]["points"] == 1.0 and t["table"] is None
            continue
        points = {s["entry"]: s["points"] for s in t["seats"]}
        assert sum(points.values()) == pytest.approx(1.0)  # a 2-player table shares one point
        if no_show in points:
            assert t["outcome"] == "forfeit" and points[no_show] == 0.0
            assert [s["forfeit"] for s in t["seats"] if s["entry"] == no_show] == [True]
            assert client.get(f"/api/tables/{t['table']}").json()["status"] == "expired"
        else:
            assert t["outcome"] == "finished"
        changes = client.get(f"/api/tables/{t['table']}/ratings").json()["changes"]
        assert changes and len(changes) == 2  # every table rated, forfeits included
    # the standings: points, then Buchholz (opponents' points), recomputed here from the tables
    total = {e: 0.0 for e in ids.values()}
    for t in tables:
        for s in t["seats"]:
            total[s["entry"]] += s["points"]
    line = {s["entry"]: s for s in final["standings"]}
    for entry in ids.values():
        assert line[entry]["points"] == pytest.approx(total[entry])
        opponents = [
            o["entry"]
            for t in tables
            if t["outcome"] != "bye"
            for o in t["seats"]
            if o["entry"] != entry and entry in {s["entry"] for s in t["seats"]}
        ]
        assert line[entry]["buchholz"] == pytest.approx(sum(total[o] for o in opponents), abs=1e-3)
    keys = [(s["points"], s["buchholz"]) for s in final["standings"]]
    assert all(a >= b for a, b in pairwise(keys))
    assert [s["place"] for s in final["standings"]] == [1, 2, 3, 4, 5]
    assert line[no_show]["points"] == line[no_show]["byes"] and line[no_show]["played"] == 3 - line[no_show]["byes"]
    # the server restarts (another app on the same database): the finished tournament reads the same
    again = clocked()
    assert tournament(again, tid)["standings"] == final["standings"]


def test_groups_of_three_with_bots_pair_by_standing_and_forfeits_hand_the_seat_to_a_bot(clocked, server_clock) -> None:
    client = clocked()
    org, ann, bob = guest_token(client, "Org"), guest_token(client, "Ann"), guest_token(client, "Bob")
    body = {
        "name": "Trio",
        "game": "tf22-reload",
        "table_size": 3,
        "rounds": 2,
        "bots_allowed": True,
        "time_control": LIVE,
    }
    tid = client.post("/api/tournaments", json=body, headers=bearer(org)).json()["tournament"]["id"]
    assert tournament(client, tid)["tournament"]["format"] == "groups"
    for token in (ann, bob):
        assert client.post(f"/api/tournaments/{tid}/entries", headers=bearer(token)).status_code == 200
    mail = {"email": "bob@example.org", "notify": True, "lang": "en"}
    assert client.put("/api/account/mail", json=mail, headers=bearer(bob)).status_code == 200
    refused(
        client.post(f"/api/tournaments/{tid}/bots", json={"difficulty": "random"}, headers=bearer(ann)),
        403,
        "organiser",
    )
    refused(
        client.post(f"/api/tournaments/{tid}/bots", json={"difficulty": "genius"}, headers=bearer(org)), 400, "genius"
    )
    for _ in range(4):
        assert (
            client.post(f"/api/tournaments/{tid}/bots", json={"difficulty": "random"}, headers=bearer(org)).status_code
            == 200
        )
    started = client.post(f"/api/tournaments/{tid}/start", headers=bearer(org)).json()
    tables = started["rounds"][0]["tables"]
    assert [len(t["seats"]) for t in tables] == [3, 3] and all(t["table"] for t in tables)
    # Ann and Bob sit at the top table (level at 0, then by name); Ann never comes: her clock runs out
    # and she forfeits, her seat goes to a bot and Bob plays on with the bots
    top = tables[0]
    seat_of = {s["entry"]: s["seat"] for s in top["seats"]}
    ann_id, bob_id = account_of(client, ann), account_of(client, bob)
    assert {ann_id, bob_id} <= set(seat_of)
    snap = client.get(f"/api/tables/{top['table']}/state", params={"seat": seat_of[bob_id]}, headers=bearer(bob)).json()
    move = {"seat": seat_of[bob_id], "action": snap["legal"][0], "after": snap["moves"]}
    assert client.post(f"/api/tables/{top['table']}/moves", json=move, headers=bearer(bob)).status_code == 200
    wait_for_running_clock(lambda: client.get(f"/api/tables/{top['table']}").json(), seat_of[ann_id])
    server_clock.advance(61)
    wait_for(
        lambda: client.get(f"/api/tables/{top['table']}").json()["seats"][seat_of[ann_id]]["handed_to_bot"],
        "Ann's seat handed to a bot",
    )
    # Ann comes back and takes her seat: the forfeit stands, and the runner gives the seat back to the bot
    taken = client.post(f"/api/tables/{top['table']}/seats/{seat_of[ann_id]}/reclaim", headers=bearer(ann))
    assert taken.status_code == 200, taken.text  # (the game waits for Bob: it cannot have ended)
    wait_for(
        lambda: client.get(f"/api/tables/{top['table']}").json()["seats"][seat_of[ann_id]]["handed_to_bot"],
        "Ann's seat handed to the bot again",
    )
    notes = client.get(f"/api/tables/{top['table']}").json()["clock"]["notes"]
    assert [n["kind"] for n in notes if n["seat"] == seat_of[ann_id]][-2:] == ["reclaimed", "handed_to_bot"]
    play_to_the_end(client, top["table"], {seat_of[bob_id]: bob}, random.Random(3))

    def round_one_over() -> bool:
        return all(t["outcome"] != "playing" for t in tournament(client, tid)["rounds"][0]["tables"])

    wait_for(round_one_over, "round 1 over (the bots play on)", timeout=180)
    now = tournament(client, tid)
    first = now["rounds"][0]["tables"][0]
    ann_line = next(s for s in first["seats"] if s["entry"] == ann_id)
    assert ann_line["forfeit"] and ann_line["points"] == 0.0 and first["outcome"] == "forfeit"
    assert sorted(s["points"] for s in first["seats"] if s["entry"] != ann_id) in ([0.5, 1.0], [0.75, 0.75])
    assert now["rounds"][0]["tables"][1]["outcome"] == "finished"  # the bots' table
    assert client.get(f"/api/tables/{top['table']}").json()["status"] == "finished"
    # e-mail when away: each round's pairing queued one "tournament" notice for Bob (who asked for e-mail), none
    # for Ann (who did not)
    o = mail_outbox_table.c
    with client.app.state.manager.storage.read() as conn:  # type: ignore[attr-defined]
        queued = conn.execute(select(o.account_id, o.key).where(o.kind == "tournament")).all()
    assert (account_of(client, bob), f"tournament:{tid}:1") in [tuple(r) for r in queued]
    assert ann_id not in {r.account_id for r in queued}
    # round 2 is cut from the standings: the three leaders of round 1 sit together at the top table
    round2 = wait_for(lambda: len((t := tournament(client, tid))["rounds"]) == 2 and t, "round 2")
    # (ratings, the last tie-break, move as tables finish: compare by points)
    points = {s["entry"]: s["points"] for s in round2["standings"]}
    top, second = ({s["entry"] for s in t["seats"]} for t in round2["rounds"][1]["tables"])
    assert len(top) == len(second) == 3 and min(points[e] for e in top) >= max(points[e] for e in second)
    assert points[ann_id] == 0.0 and ann_id in second


def test_a_table_claimed_but_never_made_is_made_by_the_runner_later(clocked, server_clock) -> None:
    """A process that claimed a round's table and stopped before making it: any process makes it later."""
    client = clocked()
    org, ann = guest_token(client, "Org"), guest_token(client, "Ann")
    body = {"name": "Ghost", "game": "tf22-reload", "table_size": 2, "rounds": 1, "time_control": LIVE}
    tid = client.post("/api/tournaments", json=body, headers=bearer(org)).json()["tournament"]["id"]
    for token in (org, ann):
        assert client.post(f"/api/tournaments/{tid}/entries", headers=bearer(token)).status_code == 200
    assert client.post(f"/api/tournaments/{tid}/start", headers=bearer(org)).status_code == 200
    storage = client.app.state.manager.storage  # type: ignore[attr-defined]
    c = tournament_tables_table.c
    with storage.transaction() as conn:  # as if the claim had gone to a process that then died
        conn.execute(update(tournament_tables_table).where(c.tournament_id == tid).values(table_id="ghost0001"))
    assert tournament(client, tid)["rounds"][0]["tables"][0]["table"] is None  # claimed, not made: no link
    server_clock.advance(tournament_api.REMAKE_AFTER + 1)
    wait_for(lambda: tournament(client, tid)["rounds"][0]["tables"][0]["table"] == "ghost0001", "the table made")
    entries = [s["entry"] for s in tournament(client, tid)["rounds"][0]["tables"][0]["seats"]]
    summary = client.get("/api/tables/ghost0001").json()
    assert [s["account"] for s in summary["seats"]] == entries and summary["rated"]


def test_pairing_rules() -> None:
    # Swiss: never a rematch where one can be avoided, even if the leader must go down the table for it
    met = {frozenset("ab"), frozenset("ac"), frozenset("bd")}
    pairs, byes = tournaments.pair_swiss(list("abcd"), met, {})
    assert byes == [] and {frozenset(p) for p in pairs} == {frozenset("ad"), frozenset("bc")}
    # an unavoidable rematch is played rather than leaving someone out
    pairs, _ = tournaments.pair_swiss(list("ab"), {frozenset("ab")}, {})
    assert pairs == [("a", "b")]
    # the bye goes to the lowest placed without one
    assert tournaments.pair_swiss(list("abcde"), set(), {"e": 1, "d": 1})[1] == ["c"]
    # groups: a remainder too small for a table of the game gets byes
    assert tournaments.group_tables(list("abcde"), 4, 3, {}) == ([("a", "b", "c", "d")], ["e"])
    # points at a table of 4 with a forfeit: the forfeited seat is last whatever the game said
    assert tournaments.table_points([0, 1, 2, 3], forfeited=[0]) == pytest.approx([0.0, 1.0, 2 / 3, 1 / 3])
    assert tournaments.table_points([0, 0], forfeited=[0, 1]) == [0.0, 0.0]  # two no-shows: both lose
    # standings: points, then Buchholz, then rating
    played = [
        tournaments.Played(1, 0, ("a", "b"), (1.0, 0.0), "finished"),
        tournaments.Played(1, 1, ("c", "d"), (1.0, 0.0), "finished"),
        tournaments.Played(2, 0, ("b", "d"), (1.0, 0.0), "finished"),
    ]
    # a, b and c have 1 point; a's and b's opponents scored 1, c's none; b is rated higher than a
    order = tournaments.standings([(e, e.upper(), "account") for e in "abcd"], played, {"b": 1600, "c": 1700})
    assert [s.entry for s in order] == ["b", "a", "c", "d"]
    assert [s.buchholz for s in order] == [1.0, 1.0, 0.0, 2.0]
