"""Ratings, leaderboards, profiles and "my tables", on SQLite and PostgreSQL: a rated table between two
accounts (and one against a bot) changes their OpenSkill ratings once; a hotseat table changes nothing;
the leaderboard lists people and bots (with their level); profiles count games and link replays."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from people import Browsers, bearer, browser_guest, guest_token, wait_for
from test_server_browser import browser, watch_errors  # noqa: F401  (the browser fixture)

from robotable.server import create_app

PASSWORD = "correct horse battery"
HUMAN = {"kind": "human"}
OPEN = {"kind": "open"}


@pytest.fixture
def make(database: tuple[str, str | None]) -> Iterator[Callable[..., TestClient]]:
    """In-process clients (each its own cookie jar) on one app over the parametrized database."""
    url, schema = database
    browsers = Browsers(create_app(url, schema=schema, bot_delay=0))
    yield browsers.new
    browsers.close()


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
    # the 1500-based scale people see (rating_scale.py): a newcomer at 1500, 30 points per unit of
    # mu - 3 sigma, provisional for the first games; the old fields stay
    for r in (ann_row, bob_row):
        assert r["display_rating"] == round(1500 + 30 * r["ordinal"]) and r["provisional"] is True
    assert changes[0]["before"]["display_rating"] == 1500 and changes[0]["before"]["games"] == 0
    assert changes[0]["after"]["display_rating"] == ann_row["display_rating"] and changes[0]["after"]["games"] == 1

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
    assert tf["rating"]["display_rating"] == rows[f"account:{ann_id}"]["display_rating"]
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


@pytest.fixture
def page_server(server_factory):
    """A server for the pages, on SQLite: the pages do not see the database, and the ratings, hotseat and
    "my tables" queries behind them run on both databases above (in-process, through the API)."""
    return server_factory(bot_delay=0.0)


def api_play_out(server: Any, table: str, tokens: dict[int, str]) -> None:
    """Each listed seat plays its first legal action (over the API, as a script would) until the game ends."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for seat, token in tokens.items():
            snap = server.api("GET", f"/api/tables/{table}/state", params={"seat": seat}, headers=bearer(token)).json()
            if snap["result"]:
                return
            if snap["legal"]:
                body = {"seat": seat, "action": snap["legal"][0], "after": snap["moves"]}
                server.api("POST", f"/api/tables/{table}/moves", json=body, headers=bearer(token))
        time.sleep(0.02)
    raise AssertionError("the game did not end")


def test_profile_leaderboard_my_tables_lobby_filters_and_api_token_pages(page_server, browser) -> None:  # noqa: F811
    """The pages in a browser: the profile counts games per game with replay links, the leaderboard lists
    the account and the bot with its level, My tables puts your move first, the lobby's filters, and the API
    token made on the account page (reached from the profile page) works as a header and is in no URL."""
    server = page_server
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    urls: list[str] = []
    ctx.on("request", lambda req: urls.append(req.url))
    ann = browser_guest(ctx, server.url, "Ann")
    ann_id = server.api("GET", "/api/account", headers=bearer(ann)).json()["account"]["id"]
    bob = guest_token(server, "Bob")

    def make(token: str, seats: list[dict[str, Any]]) -> str:
        res = server.api(
            "POST", "/api/tables", headers=bearer(token), json={"game": "tf22-reload", "num_players": 2, "seats": seats}
        )
        assert res.status_code == 201, res.text
        return res.json()["table"]["id"]

    finished = make(ann, [HUMAN, {"kind": "bot", "difficulty": "random"}])
    api_play_out(server, finished, {0: ann})
    my_move = make(ann, [HUMAN, OPEN])  # TF22 opens with Ann's secret choice: her move
    # Bob takes its open seat: the table is full, so its clocks run (a table waiting for players runs none)
    assert server.api("POST", f"/api/tables/{my_move}/seats/1/claim", headers=bearer(bob)).status_code == 200
    waiting = make(ann, [HUMAN, OPEN])  # made later and moved in last, but it waits for the open seat
    play = {"seat": 0, "action": {"type": "play", "value": 4}}
    assert server.api("POST", f"/api/tables/{waiting}/moves", json=play, headers=bearer(ann)).status_code == 200
    bobs = make(bob, [HUMAN, OPEN])
    errors: list[str] = []
    page = ctx.new_page()
    watch_errors(page, errors)

    # the profile: games per game, the rating, recent tables with a replay link that plays
    page.goto(f"{server.url}/profile/{ann_id}")
    row = page.locator("#games-table tr[data-game='tf22-reload']")
    row.wait_for()
    cells = row.locator("td").all_inner_texts()
    assert cells[1] == "1" and cells[4] != "unrated", cells
    recent = page.locator(f"#profile-recent li[data-table='{finished}']")
    assert "rated" in recent.inner_text()
    recent.locator("a", has_text="replay").click()
    page.wait_for_url(f"**/replay/{finished}")
    page.wait_for_selector("#board svg, #board .board, #board *")

    # the leaderboard: Ann and the random bot, marked as a bot with its level
    page.goto(f"{server.url}/leaderboard/tf22-reload")
    page.wait_for_selector("#leaderboard")
    assert page.locator(f"#leaderboard tr[data-entry='account:{ann_id}'] a").inner_text() == "Ann"
    bot = page.locator("#leaderboard tr[data-entry='random']")
    assert "bot-entry" in (bot.get_attribute("class") or "") and "random" in bot.inner_text()

    # My tables: the table waiting for Ann first, though the other moved last
    page.goto(f"{server.url}/my")
    page.wait_for_selector("#my-tables .table-row")
    order = page.locator("#my-tables .table-row").evaluate_all("rows => rows.map(r => r.dataset.table)")
    assert order == [my_move, waiting], order
    assert "your-turn" in (page.locator("#my-tables .table-row").first.get_attribute("class") or "")
    # Ann's clock ticks where it runs (her move) and stands still where it does not
    clock_of = "#my-tables .table-row[data-table='{}'] .tag.clock".format
    running, stopped = page.locator(clock_of(my_move)), page.locator(clock_of(waiting))
    before = running.inner_text(), stopped.inner_text()
    # the clock on My tables ticks (however late a busy machine runs the page's timers)
    ticked = "([sel, was]) => document.querySelector(sel).innerText !== was"
    page.wait_for_function(ticked, arg=[clock_of(my_move), before[0]])
    assert stopped.inner_text().split(" · ")[0] == before[1].split(" · ")[0]  # (its grace, "away", may tick)

    # the lobby's filters: mine hides Bob's table, finished shows the finished one, game and open seats
    page.goto(f"{server.url}/")
    page.wait_for_selector(f"[data-table='{bobs}']")
    assert page.locator(f"[data-table='{finished}']").count() == 0  # finished tables only when asked
    page.check("#filter-mine")
    page.wait_for_selector(f"[data-table='{bobs}']", state="detached")
    assert page.locator(f"[data-table='{my_move}']").count() == 1
    page.check("#show-finished")
    page.wait_for_selector(f"[data-table='{finished}']")
    page.check("#filter-open-seats")
    page.wait_for_selector(f"[data-table='{finished}']", state="detached")
    assert page.locator(f"[data-table='{waiting}']").count() == 1
    page.select_option("#filter-game", "twin-tin-bots")
    page.wait_for_selector(f"[data-table='{waiting}']", state="detached")

    # the API token, from the profile page's account link: shown once, works as a header, in no URL
    page.goto(f"{server.url}/profile/{ann_id}")
    page.click("#account-name")
    page.wait_for_url("**/account")
    page.click("#new-token")
    token = page.inner_text("#token-value").strip()
    assert token and token != ann
    me = server.api("GET", "/api/account", headers=bearer(token)).json()["account"]
    assert me["id"] == ann_id
    assert server.api("GET", "/api/account", headers=bearer(ann)).status_code == 401  # the new one replaced it
    assert server.api("GET", f"/api/account?token={token}").json()["account"] is None
    assert not any(token in url for url in urls), [u for u in urls if token in u]

    # someone signed out takes the open seat of Bob's table from the lobby: a guest made on the spot
    carl = browser.new_context().new_page()
    watch_errors(carl, errors)
    carl.goto(f"{server.url}/")
    carl.locator(f"[data-table='{bobs}'] button", has_text="Take seat 2").click()
    carl.fill("#guest-name", "Carl")
    carl.click("#guest-go")
    carl.wait_for_url(f"**/table/{bobs}?seat=1")
    carl.wait_for_selector("[data-legal]")
    seats = server.api("GET", f"/api/tables/{bobs}").json()["seats"]
    assert seats[1]["kind"] == "human" and seats[1]["name"] == "Carl" and seats[1]["account"]
    errors = [e for e in errors if "the server responded with a status of 4" not in e]
    assert not errors, errors
    ctx.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def fast_clocks(request, make_client, monkeypatch, pg_url) -> TestClient:
    monkeypatch.setenv("ROBOTABLE_CLOCK_TICK", "0.1")
    monkeypatch.setenv("ROBOTABLE_GRACE_SECONDS", "600")
    if request.param == "sqlite":
        return make_client()
    return make_client(database=pg_url, schema=request.getfixturevalue("pg_schema"))


def test_a_seat_handed_to_a_bot_is_rated_for_its_account(fast_clocks, create_table, server_clock) -> None:
    """Leaving does not avoid a loss: the bot that took over a timed-out seat plays for its account."""
    client = fast_clocks
    made = create_table(client, [HUMAN, HUMAN], time_control={"kind": "live", "base": 60, "increment": 0})
    table, tokens = made["table"]["id"], made["tokens"]
    accounts = [s["account"] for s in made["table"]["seats"]]
    server_clock.advance(61)
    summary = f"/api/tables/{table}"
    wait_for(lambda: client.get(summary).json()["clock"]["seats"][1]["can_hand_over"], "seat 2's clock to run out")
    res = client.post(f"/api/tables/{table}/seats/1/bot", json={"difficulty": "random"}, headers=bearer(tokens[0]))
    assert res.status_code == 200, res.text
    deadline = time.monotonic() + 120
    while True:  # Ann plays on (her own clock ran out too, but nobody hands her seat over)
        assert time.monotonic() < deadline, "the game did not end"
        snap = client.get(f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(tokens[0])).json()
        if snap["result"]:
            break
        if snap["legal"]:
            body = {"seat": 0, "action": snap["legal"][0], "after": snap["moves"]}
            client.post(f"/api/tables/{table}/moves", json=body, headers=bearer(tokens[0]))
        else:
            time.sleep(0.01)
    changes = client.get(f"/api/tables/{table}/ratings").json()["changes"]
    assert [c["entry"] for c in changes] == [f"account:{a}" for a in accounts]
    rows = board(client)
    assert set(rows) == {f"account:{a}" for a in accounts}  # no bot entry for the seat it took over
    assert all(row["games"] == 1 for row in rows.values())


def test_hotseat_from_the_lobby_is_marked_played_from_one_page_and_unrated(page_server, browser) -> None:  # noqa: F811
    """Hotseat is chosen in the lobby's form: no invite, both seats on one page (the seat buttons), the table
    marked in the lobby and on the profile, and its result changes no rating."""
    server = page_server
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ann = browser_guest(ctx, server.url, "Ann")
    ann_id = server.api("GET", "/api/account", headers=bearer(ann)).json()["account"]["id"]
    errors: list[str] = []
    page = ctx.new_page()
    watch_errors(page, errors)
    page.goto(server.url + "/")
    page.wait_for_selector("#seats-fields .seat-row")
    page.select_option("#game-select", "tf22-reload")
    page.select_option("#players-select", "2")
    page.select_option("#seats-fields .seat-row >> nth=1 >> [name=kind]", "human")
    page.check("#hotseat")
    page.click("#create-button")
    page.wait_for_selector("#go-table")
    assert page.locator("#created .invite").count() == 0  # nobody to invite: both seats are Ann's
    page.click("#go-table")
    page.wait_for_selector("[data-legal]")
    table = page.url.split("/table/")[1].split("?")[0]
    summary = server.api("GET", f"/api/tables/{table}").json()
    assert summary["hotseat"] is True and summary["rated"] is False
    assert [s["account"] for s in summary["seats"]] == [ann_id, ann_id]
    # one page plays both seats: seat 1 chooses, then the seat button for seat 2 shows its choice
    moves = page.evaluate("() => document.body.dataset.moves")
    page.locator("[data-legal]").first.click()
    page.wait_for_function(f"() => document.body.dataset.moves !== '{moves}'")
    assert page.locator("#seat-switch .seat-tab").count() == 3  # seat 1, seat 2, spectator
    page.locator("#seat-switch .seat-tab").nth(1).click()
    page.wait_for_url(f"**/table/{table}?seat=1")
    page.wait_for_selector("[data-legal]")

    api_play_out(server, table, {0: ann, 1: ann})
    page.goto(server.url + "/")
    page.check("#show-finished")
    page.wait_for_selector(f"[data-table='{table}'] .tag.hotseat")
    assert server.api("GET", f"/api/tables/{table}/ratings").json()["rated"] is False
    assert server.api("GET", "/api/leaderboard/tf22-reload").json()["entries"] == []
    page.goto(f"{server.url}/profile/{ann_id}")
    page.wait_for_selector(f"#profile-recent li[data-table='{table}']")
    assert "hotseat" in page.inner_text(f"#profile-recent li[data-table='{table}']")
    errors = [e for e in errors if "the server responded with a status of 4" not in e]
    assert not errors, errors
    ctx.close()
