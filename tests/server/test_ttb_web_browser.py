"""Twin Tin Bots in Debian's chromium (Playwright): programming by click and drag, previews, animated
runs, a zap decision, a game to its end, the lobby's variant map, and screenshots in test-artifacts/.

Positions that random play rarely reaches (a zap on a robot, the end phase) are set up as written
positions on a test server (``ROBOTABLE_ALLOW_POSITIONS=1``; production servers refuse them).
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from people import new_table
from test_server_browser import ARTIFACTS, browser, signed_in_page, watch_errors  # noqa: F401  (the browser fixture)
from ttb_positions import BLOB, CRYSTAL, ENDGAME, ZAP

from robotable.ai import make_agent
from robotable.core.record import Match

GAME = "twin-tin-bots"
BOT = {"kind": "bot", "difficulty": "random"}
HUMAN = {"kind": "human"}


@pytest.fixture
def ttb_server(server_factory, monkeypatch):
    """A test server that accepts written positions; bots wait a little so moves can be watched."""
    monkeypatch.setenv("ROBOTABLE_ALLOW_POSITIONS", "1")
    return server_factory(bot_delay=0.05)


def create(server, seats: list[dict[str, Any]], creator: str, **extra: Any) -> dict[str, Any]:
    """A table made by ``creator`` (an API token of the account the page is signed in as)."""
    return new_table(server, seats, game=GAME, creator=creator, **extra)


def moves(page) -> int:
    return int(page.evaluate("document.body.dataset.moves"))


def stage_place(page, tile: str | None = None, slot: int | None = None) -> None:
    """Click a tile in hand (the given one, else the first legal), then a highlighted slot."""
    sel = f"[data-legal=tile][data-tile={tile}]" if tile else "[data-legal=tile]"
    page.locator(sel).first.click()
    target = f"[data-legal=slot][data-slot='{slot}']" if slot is not None else "[data-legal=slot]"
    page.locator(target).first.click()
    page.wait_for_selector(".preview-panel[data-preview=ready]")


def commit(page) -> None:
    before = moves(page)
    page.click("#commit")
    page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")


def wait_my_turn(page) -> None:
    page.wait_for_selector(".change-panel, .pending-panel.mine, #end-screen:not([hidden])")


def test_program_by_click_and_drag_preview_commit_and_watch_the_robot_move(ttb_server, browser) -> None:  # noqa: F811
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    page, _me = signed_in_page(browser, ttb_server, viewport={"width": 1366, "height": 900})
    watch_errors(page, errors)

    # the lobby: Twin Tin Bots for two, me against a random bot
    page.goto(ttb_server.url + "/")
    page.wait_for_selector("#seats-fields .seat-row")
    page.select_option("#game-select", GAME)
    page.select_option("#players-select", "2")
    page.select_option("#seats-fields .seat-row >> nth=1 >> [name=kind]", "bot")
    page.select_option("#seats-fields .seat-row >> nth=1 >> [name=difficulty]", "random")
    page.wait_for_selector("#options-editor .arena")  # the variant map is offered for this game
    page.click("#create-button")
    page.click("#go-table")
    page.wait_for_selector(".ttb .arena")
    wait_my_turn(page)
    assert page.locator(".arena .robot").count() == 4 and page.locator(".arena .base").count() == 2
    # the bot's unrevealed Special Orders are face down (as many as the spectator view counts; the bot
    # may already have revealed its one by playing it, when it had the first turn)
    table_id = page.url.rstrip("/").split("/table/")[1].split("?")[0].split("#")[0]
    with urllib.request.urlopen(f"{ttb_server.url}/api/tables/{table_id}/state") as answer:
        colours = json.load(answer)["view"]["colours"]
    hidden = sum(c["hidden_specials"] for c in colours if c["seat"] != 0)
    assert page.locator("[data-colour-panel] .tile.hidden-special").count() == hidden

    # first turn: one placement on each robot, each previewed before it is confirmed
    stage_place(page, "forward_2", 0)
    ghost = page.locator(".arena [data-ghost]").first
    assert ghost.count() == 1 and page.locator(".arena .path").count() >= 1
    robot = ghost.get_attribute("data-ghost")
    final_hex, final_facing = ghost.get_attribute("data-hex"), ghost.get_attribute("data-facing")
    assert "ends on" in page.inner_text("#preview-lines")
    page.screenshot(path=str(ARTIFACTS / "ttb-preview.png"))
    commit(page)
    page.wait_for_selector("[data-legal=tile]")
    stage_place(page, "turn_left", 3)
    commit(page)
    # the run is animated from the events; then the robot stands where the preview said
    page.wait_for_function("() => !document.body.dataset.animating")
    moved = page.locator(f".arena [data-robot='{robot}']")
    assert (moved.get_attribute("data-hex"), moved.get_attribute("data-facing")) == (final_hex, final_facing)
    assert "Red places" in page.inner_text("#log") or "Yellow places" in page.inner_text("#log")

    # next turn: drag a tile from the hand onto a slot, then cancel; swap by clicking two slots
    wait_my_turn(page)
    page.locator("[data-legal=tile]").first.drag_to(page.locator(".colour-panel.mine [data-slot='1']"))
    page.wait_for_selector(".preview-panel")
    page.click("#cancel-stage")
    page.locator(".colour-panel.mine [data-slot='0']").click()  # select A1 ...
    page.locator(".colour-panel.mine [data-slot='2']").click()  # ... and swap it with the empty A3
    page.wait_for_selector(".preview-panel[data-preview=ready]")
    assert "swap A1 and A3" in page.inner_text(".preview-panel")
    commit(page)
    # watch the bot move, then pass by the button with its preview
    wait_my_turn(page)
    page.click("[data-change=pass]")
    page.wait_for_selector(".preview-panel[data-preview=ready]")
    commit(page)
    wait_my_turn(page)
    assert "moves to" in page.inner_text("#log")
    page.screenshot(path=str(ARTIFACTS / "ttb-midgame-2p.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(ARTIFACTS / "ttb-midgame-2p-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 900})

    # the rules page is reachable from the table
    with page.context.expect_page() as rules_page:
        page.click("#rules-link")
    rules = rules_page.value
    rules.wait_for_selector("#specials")
    assert "Long Range Zap" in rules.inner_text("#specials") and "Double Modif" in rules.inner_text("#orders")
    assert not errors, errors


def test_answer_a_zap_decision_in_the_browser(ttb_server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page, me = signed_in_page(browser, ttb_server, viewport={"width": 1366, "height": 900})
    made = create(ttb_server, [HUMAN, BOT], position=ZAP, creator=me)
    watch_errors(page, errors)
    page.goto(ttb_server.url + made["links"]["0"])
    wait_my_turn(page)
    stage_place(page, "zap", 0)
    assert "stops at a decision: what yellow-A does" in page.inner_text("#preview-lines")
    commit(page)
    page.wait_for_selector(".pending-panel.mine [data-legal=zap]")
    assert page.locator(".arena .zap-ring").count() == 1
    assert page.locator("[data-legal=zap]").count() == 5
    page.screenshot(path=str(ARTIFACTS / "ttb-zap-decision.png"))
    page.click("[data-legal=zap][data-order=turn_left]")
    page.wait_for_selector(".preview-panel[data-preview=ready]")
    commit(page)
    page.wait_for_function("() => document.getElementById('log').innerText.includes('zapped into Turn Left')")
    page.wait_for_function("() => !document.body.dataset.animating")
    assert page.locator(".arena [data-robot='yellow-A']").get_attribute("data-facing") == "SW"
    assert not errors, errors


def test_move_a_zapped_blob_and_place_a_new_crystal(ttb_server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page, me = signed_in_page(browser, ttb_server, viewport={"width": 1366, "height": 900})
    watch_errors(page, errors)
    made = create(ttb_server, [HUMAN, BOT], position=BLOB, creator=me)
    page.goto(ttb_server.url + made["links"]["0"])
    wait_my_turn(page)
    stage_place(page, "zap", 0)
    assert "where the zapped Blob goes" in page.inner_text("#preview-lines")
    commit(page)
    page.wait_for_selector(".arena [data-legal=blob-arrow]")
    assert page.locator(".arena [data-legal=blob-arrow]").count() == 6  # and "leave it" as a button
    assert page.locator("[data-legal=blob][data-direction=none]").count() == 1
    page.screenshot(path=str(ARTIFACTS / "ttb-blob-decision.png"))
    page.click(".arena [data-legal=blob-arrow][data-direction=w]")
    page.wait_for_selector(".preview-panel[data-preview=ready]")
    commit(page)
    page.wait_for_function("() => document.getElementById('log').innerText.includes('A Blob moves to D3')")
    assert page.locator(".arena .blob[data-blob='-1,-1']").count() == 1

    made = create(ttb_server, [HUMAN, BOT], position=CRYSTAL, creator=me)
    page.goto(ttb_server.url + made["links"]["0"])
    wait_my_turn(page)
    stage_place(page, "unload", 0)
    assert "where the new crystal enters" in page.inner_text("#preview-lines")
    commit(page)
    page.wait_for_selector(".arena .target-ring")
    assert page.locator(".arena .target-ring").count() == 4
    page.screenshot(path=str(ARTIFACTS / "ttb-crystal-decision.png"))
    page.click(".arena .target-ring[data-target='1,0']")
    page.wait_for_selector(".preview-panel[data-preview=ready]")
    commit(page)
    page.wait_for_function("() => document.getElementById('log').innerText.includes('crystal enters play on E6')")
    assert page.locator(".arena .crystal.green[data-hex='1,0']").count() == 1
    assert not errors, errors


def test_play_a_game_to_its_end(ttb_server, browser) -> None:  # noqa: F811
    """From the end phase (two Countdown counters left): deliver, then play on until the end screen."""
    errors: list[str] = []
    page, me = signed_in_page(browser, ttb_server, viewport={"width": 1366, "height": 900})
    made = create(ttb_server, [HUMAN, BOT], position=ENDGAME, creator=me)
    watch_errors(page, errors)
    page.goto(ttb_server.url + made["links"]["0"])
    wait_my_turn(page)
    assert "end phase" in page.inner_text(".ttb-bar")
    stage_place(page, "unload", 0)
    assert "delivers a pink crystal" in page.inner_text("#preview-lines")
    assert page.locator(".arena .deliver-ring").count() == 1
    commit(page)
    page.wait_for_function("() => document.getElementById('log').innerText.includes('delivers a pink crystal')")
    turns = 0
    while not page.locator("#end-screen").is_visible():
        wait_my_turn(page)
        if page.locator("#end-screen").is_visible():
            break
        page.click("[data-change=pass]")
        page.wait_for_selector(".preview-panel[data-preview=ready]")
        commit(page)
        turns += 1
        assert turns < 10
    page.wait_for_selector("#end-screen .end-card")
    text = page.inner_text("#end-screen")
    assert "Game over" in text and "Red" in text and "Player 1 wins" in text
    page.screenshot(path=str(ARTIFACTS / "ttb-end-screen.png"))
    assert not errors, errors


@pytest.mark.parametrize("players", [2, 4, 6])
def test_arena_screenshots(ttb_server, browser, players) -> None:  # noqa: F811
    errors: list[str] = []
    page, me = signed_in_page(browser, ttb_server, viewport={"width": 1366, "height": 900})
    made = create(ttb_server, [HUMAN] + [BOT] * (players - 1), seed=11, creator=me)
    watch_errors(page, errors)
    page.goto(ttb_server.url + made["links"]["0"])
    page.wait_for_selector(".ttb .arena")
    # the bots before seat 0 have moved: the arena is drawn for good
    page.wait_for_function("() => document.body.dataset.yourTurn === '1'")
    assert page.locator(".arena .base").count() == players
    assert page.locator(".arena .robot").count() == 2 * players
    page.locator(".arena-wrap").screenshot(path=str(ARTIFACTS / f"ttb-arena-{players}p.png"))
    page.screenshot(path=str(ARTIFACTS / f"ttb-table-{players}p.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(ARTIFACTS / f"ttb-table-{players}p-phone.png"), full_page=True)
    assert not errors, errors


def test_every_variant_element_from_the_lobby(ttb_server, browser) -> None:  # noqa: F811
    """Team play for four with a random Teleporter pair and Mud, plus a Rock and a Blob chosen on the map."""
    errors: list[str] = []
    page, _me = signed_in_page(browser, ttb_server, viewport={"width": 1366, "height": 1000})
    watch_errors(page, errors)
    page.goto(ttb_server.url + "/")
    page.wait_for_selector("#seats-fields .seat-row")
    page.select_option("#game-select", GAME)
    page.select_option("#players-select", "4")
    page.check("[data-option=team_play]")
    page.fill("[data-option=teleporters]", "1")
    page.fill("[data-option=mud]", "2")
    page.wait_for_selector("#options-editor .arena")
    page.click("#options-editor [data-tool=rocks]")
    page.click("#options-editor .cell[data-hex='0,-2']")
    page.wait_for_selector("#options-editor .rock")
    page.click("#options-editor [data-tool=blobs]")
    page.click("#options-editor .cell[data-hex='0,2']")
    page.wait_for_selector("#options-editor .blob")
    page.click("#options-editor .cell[data-hex='-2,0']")  # next to a Base: refused with the reason
    page.wait_for_selector("#options-editor .error")
    assert "blobs" in page.inner_text("#options-editor .error")
    page.click("#options-editor .cell[data-hex='-2,0']")  # a second click takes it away again
    page.wait_for_function("() => !document.querySelector('#options-editor .error')")
    page.locator("#options-editor").screenshot(path=str(ARTIFACTS / "ttb-lobby-map.png"))
    for i in (1, 2, 3):
        page.select_option(f"#seats-fields .seat-row >> nth={i} >> [name=kind]", "bot")
    page.click("#create-button")
    page.click("#go-table")
    page.wait_for_selector(".ttb .arena")
    assert page.locator(".arena .rock[data-rock='0,-2']").count() == 1
    table_id = page.url.split("/table/")[1].split("?")[0]
    options = ttb_server.api("GET", f"/api/tables/{table_id}").json()["options"]
    assert options["blobs"] == [[0, 2]] and options["rocks"] == [[0, -2]] and options["team_play"] is True
    assert page.locator(".arena .blob").count() == 1  # (a bot may have pushed it already)
    assert page.locator(".arena .teleporter").count() == 2 and page.locator(".arena .mud").count() == 2
    assert "team 1" in page.inner_text(".ttb-side")
    page.locator(".arena-wrap").screenshot(path=str(ARTIFACTS / "ttb-arena-variants.png"))
    page.screenshot(path=str(ARTIFACTS / "ttb-table-variants.png"), full_page=True)
    refused = [e for e in errors if "status of 400" in e]  # the browser logs the refused map (Blob by a Base)
    assert len(refused) == 1 and len(errors) == 1, errors


def test_replay_an_uploaded_record(ttb_server, browser, tmp_path) -> None:  # noqa: F811
    """The replay viewer draws Twin Tin Bots with the same renderer, step by step (a spectator here)."""
    match = Match(GAME, num_players=3, seed=4, options={"mud": 2, "blobs": 1})
    for i in range(40):
        seat = match.state.to_act()[0]
        match.apply(seat, make_agent("random", seed=i).act(match.state, seat))
    record = tmp_path / "ttb-record.json"
    record.write_text(json.dumps(match.record.to_json()))
    errors: list[str] = []
    page, _me = signed_in_page(browser, ttb_server, viewport={"width": 1366, "height": 900})
    watch_errors(page, errors)
    page.goto(ttb_server.url + "/replay")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#step-controls:not([hidden])")
    page.wait_for_selector(".ttb .arena")
    page.click("#next")
    page.click("#last")
    assert page.evaluate("document.body.dataset.step") == "40"
    assert page.locator(".arena .robot").count() == 6 and page.locator(".arena .mud").count() == 2
    assert page.locator(".change-panel, .preview-panel, [data-legal]").count() == 0  # nothing to play here
    assert "null" not in page.inner_text("#log")
    assert not errors, errors
