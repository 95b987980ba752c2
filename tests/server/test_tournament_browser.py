"""A tournament in Debian's chromium: Ann (English, desktop) makes an 8-player Swiss TF22 tournament with
short clocks on the tournaments page, she and Bob (Japanese, a 390x844 phone) sign up there, six more
sign up through the API, Ann starts it, and it runs three rounds to its standings with one no-show who
forfeits each game when the clock runs out. The server runs in this process (uvicorn in a thread), so its
clock is the injectable one of the clock tests: the no-show's time runs out at once, nobody waits."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from clock_helpers import wait_for_running_clock
from conftest import free_port
from people import bearer, browser_guest, guest_token, wait_for
from test_server_browser import browser as chromium
from test_server_browser import watch_errors

from robotable.server import create_app

browser = chromium  # the fixture (Debian's chromium)
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
BLITZ = 180  # the form's short live clock: 3 min + 2 s


class LocalServer:
    """The app served by uvicorn in a thread of this process (so ``server_clock`` moves its time)."""

    def __init__(self, database: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            create_app(database, bot_delay=0.0), host="127.0.0.1", port=self.port, log_level="warning"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="uvicorn", daemon=True)
        self.http = httpx.Client(base_url=self.url, timeout=30)  # one connection kept for the many moves

    def start(self) -> LocalServer:
        self.thread.start()
        wait_for(lambda: self.server.started, "the server to start")
        return self

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(timeout=30)

    def api(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        return self.http.request(method, path, **kwargs)


@pytest.fixture
def local_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalServer]:
    monkeypatch.setenv("ROBOTABLE_CLOCK_TICK", "0.05")
    monkeypatch.setenv("ROBOTABLE_GRACE_SECONDS", "3600")
    server = LocalServer(f"sqlite:///{tmp_path / 'tournament.db'}").start()
    yield server
    server.stop()


def play_to_the_end(server: LocalServer, table: str, tokens: dict[int, str], rng: random.Random) -> None:
    """The people at ``table`` play random legal moves until the game is over."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        moved = False
        for seat, token in tokens.items():
            snap = server.api("GET", f"/api/tables/{table}/state", params={"seat": seat}, headers=bearer(token)).json()
            if snap["result"]:
                return
            if snap["legal"]:
                body = {"seat": seat, "action": rng.choice(snap["legal"]), "after": snap["moves"]}
                server.api("POST", f"/api/tables/{table}/moves", json=body, headers=bearer(token))
                moved = True
        if not moved:
            time.sleep(0.01)
    raise AssertionError(f"table {table} did not end")


def test_an_eight_player_swiss_runs_to_its_standings_with_a_no_show(local_server, browser, server_clock) -> None:
    server = local_server
    rng = random.Random(22)
    errors: list[str] = []
    ann_context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    bob_context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    tokens = {
        "Ann": browser_guest(ann_context, server.url, "Ann"),
        "Bob": browser_guest(bob_context, server.url, "Bob"),
    }
    ann, bob = ann_context.new_page(), bob_context.new_page()
    for page in (ann, bob):
        watch_errors(page, errors)

    # Ann makes the tournament on the tournaments page (linked from the lobby) and signs up
    ann.goto(server.url + "/")
    ann.locator("#tournaments-link").click()
    ann.wait_for_url(server.url + "/tournaments")
    ann.locator("#t-name").fill("Friday Swiss")
    ann.locator("#t-game").select_option(value="tf22-reload")
    ann.locator("#t-rounds").fill("3")
    ann.locator("#t-clock").select_option(value="blitz")
    ann.locator("#t-create").click()
    ann.wait_for_url(f"{server.url}/tournaments/t*")
    tid = ann.url.rsplit("/", 1)[1]
    ann.locator("#t-enter").click()
    ann.locator("#t-withdraw").wait_for()
    # Bob finds it in the lobby on his phone, in Japanese, and signs up; six more sign up through the API
    bob.goto(server.url + "/")  # the lobby lists the tournaments open for sign-up
    bob.locator(f"#lobby-tournaments [data-tournament='{tid}'] a").click()
    bob.wait_for_url(f"{server.url}/tournaments/{tid}")
    bob.locator("#t-enter", has_text="参加する").click()
    bob.locator("#t-withdraw", has_text="参加を取り消す").wait_for()
    for name in ("Cat", "Dan", "Eve", "Fay", "Gus", "Hal"):
        tokens[name] = guest_token(server, name)
        res = server.api("POST", f"/api/tournaments/{tid}/entries", headers=bearer(tokens[name]))
        assert res.status_code == 200, res.text
    ids = {
        n: server.api("GET", "/api/account", headers=bearer(tok)).json()["account"]["id"] for n, tok in tokens.items()
    }
    token_of = {ids[n]: tok for n, tok in tokens.items()}
    no_show = ids["Dan"]  # signed up, never comes to a table
    ann.reload()
    ann.locator("#tournament-entrants .seat-badge").nth(7).wait_for()
    ann.locator("#t-start").click()
    ann.locator("#tournament-status[data-status='running']").wait_for()

    for number in (1, 2, 3):
        data = wait_for(
            lambda n=number: (
                (t := server.api("GET", f"/api/tournaments/{tid}").json())["tournament"]["round"] == n
                and all(x["table"] for x in t["rounds"][n - 1]["tables"])
                and t
            ),
            f"round {number} and its tables",
        )
        tables = data["rounds"][number - 1]["tables"]
        assert len(tables) == 4  # 8 entrants, tables of 2: no bye
        waiting = None
        for t in tables:
            seats = {s["seat"]: s["entry"] for s in t["seats"]}
            if no_show in seats.values():
                waiting = (t["table"], next(s for s, e in seats.items() if e != no_show), seats)
                continue
            play_to_the_end(server, t["table"], {s: token_of[e] for s, e in seats.items()}, rng)
        assert waiting is not None  # the no-show is paired every round
        table, seat, seats = waiting  # its opponent makes TF22's secret choice and waits
        absent = next(s for s, e in seats.items() if e == no_show)
        wait_for_running_clock(lambda table=table: server.api("GET", f"/api/tables/{table}").json(), absent)
        token = token_of[seats[seat]]
        snap = server.api("GET", f"/api/tables/{table}/state", params={"seat": seat}, headers=bearer(token)).json()
        move = {"seat": seat, "action": snap["legal"][0], "after": snap["moves"]}
        assert server.api("POST", f"/api/tables/{table}/moves", json=move, headers=bearer(token)).status_code == 200
        if number == 1:  # Bob's phone shows the round being played, a link to each table
            bob.locator(".tournament-round[data-round='1'] .tournament-table a.button").nth(3).wait_for()
            assert bob.locator(".tournament-round[data-round='1'] .tournament-table.mine").count() == 1  # his own
            ARTIFACTS.mkdir(exist_ok=True)
            bob.screenshot(path=str(ARTIFACTS / "tournament-round-phone-ja.png"), full_page=True)
        server_clock.advance(BLITZ + 1)  # the no-show's clock runs out: a forfeit
        wait_for(
            lambda n=number: all(
                x["outcome"] != "playing"
                for x in server.api("GET", f"/api/tournaments/{tid}").json()["rounds"][n - 1]["tables"]
            ),
            f"every table of round {number} over",
        )

    # both pages show the finished tournament: three rounds, the standings, the no-show's forfeits
    ann.locator("#tournament-status[data-status='finished']").wait_for()
    assert ann.locator("#tournament-standings tbody tr").count() == 8
    assert ann.locator(".tournament-table[data-outcome='forfeit']").count() == 3
    assert ann.locator(".seat-badge.forfeit", has_text="Dan").count() == 3
    final = server.api("GET", f"/api/tournaments/{tid}").json()
    shown = [row.split("\t") for row in ann.locator("#tournament-standings tbody tr").all_inner_texts()]
    assert [r[1].strip() for r in shown] == [s["name"] for s in final["standings"]]
    points = {s["entry"]: s["points"] for s in final["standings"]}
    assert points[no_show] == 0 == min(points.values())  # three forfeits lost
    pairs = [frozenset(s["entry"] for s in t["seats"]) for r in final["rounds"] for t in r["tables"]]
    assert len(pairs) == len(set(pairs)) == 12  # no rematch in three rounds of eight
    ann.screenshot(path=str(ARTIFACTS / "tournament-standings-desktop-en.png"), full_page=True)
    bob.locator("#tournament-status[data-status='finished']", has_text="終了").wait_for()
    bob.locator(".seat-badge.forfeit", has_text="不戦敗").first.wait_for()
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    bob.screenshot(path=str(ARTIFACTS / "tournament-standings-phone-ja.png"), full_page=True)
    # a table link opens that table
    first = final["rounds"][0]["tables"][0]["table"]
    bob.locator(".tournament-round[data-round='1'] .tournament-table[data-board='0'] a.button").click()
    bob.wait_for_url(f"{server.url}/table/{first}")
    assert errors == []
    ann_context.close()
    bob_context.close()
