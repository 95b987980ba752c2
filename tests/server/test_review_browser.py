"""Issue 30, in Debian's chromium: a finished table's replay shows its player's review (progress while the
server computes it, then the chart of the seat's value and its largest losses); clicking a loss or a
point of the chart shows that position in the replay, and a loss its move played and the better move; a
spectator sees every seat's review as a spectator may."""

from __future__ import annotations

import httpx
from people import bearer
from test_server_api import BOT, HUMAN, play_out
from test_server_browser import browser, signed_in_page, watch_errors  # noqa: F401  (the browser fixture)

#: A tiny review budget (the server's ROBOTABLE_REVIEW_ITERATIONS): the test checks the page, not the search.
SMALL_REVIEW = {"ROBOTABLE_REVIEW_ITERATIONS": "3"}


def test_the_replay_shows_the_review_and_jumps_to_a_loss(server_factory, browser, tmp_path) -> None:  # noqa: F811
    server = server_factory(bot_delay=0.0, env=SMALL_REVIEW)
    page, me = signed_in_page(browser, server, "Ada", viewport={"width": 1280, "height": 900})
    # a fixed deal, one whose review lists losses for seat 0 (a random deal sometimes has none to click)
    body = {"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, BOT], "seed": 7}
    with httpx.Client(base_url=server.url, timeout=30) as http:
        table = http.post("/api/tables", json=body, headers=bearer(me)).json()["table"]["id"]
        play_out(http, table, 0, me)  # a short game, seat 0 playing its first legal move each time
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(f"{server.url}/replay/{table}")
    page.wait_for_selector("#review[data-ready='1']")
    with httpx.Client(base_url=server.url, timeout=30) as http:
        review = http.get(f"/api/tables/{table}/review", params={"seat": 0}, headers=bearer(me)).json()
    (seat,) = review["seats"]
    # one point a decision, and the outcome; the turning points and losses marked
    points = page.locator("#review-chart circle.review-point")
    assert points.count() == len(seat["moments"]) + 1
    assert page.locator("#review-chart circle.turning").count() == len(seat["turning_points"]) > 0
    losses = page.locator(".review-loss")
    assert [losses.nth(i).inner_text() for i in range(losses.count())] == seat["text"]["largest_losses"]
    assert seat["largest_losses"], "a player of first legal moves loses somewhere"
    # a loss shows the position before its move, and its two moves in the game's own words
    moment = seat["moments"][seat["largest_losses"][-1]]
    losses.last.click()
    page.wait_for_function(f"() => document.body.dataset.step === '{moment['index']}'")
    assert page.locator("#slider").input_value() == str(moment["index"])
    position = page.locator(f"#review-position[data-step='{moment['index']}'][data-ready='1']")
    position.wait_for()
    assert page.locator("#board .tf22").is_visible()  # the board, drawn by the game's renderer
    played = position.locator(".review-move.played").inner_text()
    better = position.locator(".review-move.better").inner_text()
    words = page.evaluate(
        "async ([a, b]) => { const r = (await import('/static/games/tf22-reload.js')).default;"
        " return [r.describeAction(a), r.describeAction(b)]; }",
        [moment["played"], moment["best"]],
    )
    assert words[0] in played and words[1] in better and f"{round(moment['before'] * 100)}%" in better
    assert f"{round(moment['after'] * 100)}%" in played
    # the board offers those two moves as at the table (nothing else); playing one points at its card
    assert page.evaluate("document.body.dataset.marked") == "1"
    assert page.locator("#board .legal, #board [data-legal]").count() >= 1
    if moment["best"]["type"] == "play":
        page.locator(f"#board .hand [data-legal='play'][data-value='{moment['best']['value']}']").click()
        position.locator(".review-move.better.chosen").wait_for()
    page.screenshot(path=str(tmp_path / "review-panel.png"), full_page=True)
    position.locator("#review-after").click()  # the position after the move played
    page.wait_for_function(f"() => document.body.dataset.step === '{moment['index'] + 1}'")
    exercise_href = position.locator("#review-exercise").get_attribute("href")
    assert exercise_href == f"/exercise/{table}.0.{moment['index']}"
    # and a turning point of the chart, its own
    turning = seat["moments"][seat["turning_points"][0]]
    page.locator(f"#review-chart circle.turning[data-step='{turning['index']}']").first.click()
    page.wait_for_function(f"() => document.body.dataset.step === '{turning['index']}'")
    # "find the better move" on the player's own profile: the largest loss, its answer, its position
    with httpx.Client(base_url=server.url, timeout=30) as http:
        account = http.get("/api/account", headers=bearer(me)).json()["account"]["id"]
    largest = max(seat["moments"][i]["loss"] for i in seat["largest_losses"])
    page.goto(f"{server.url}/profile/{account}")
    if largest >= 0.10:  # the profile's threshold (EXERCISE_LOSS)
        exercise = page.locator(".exercise").first
        exercise.get_by_role("button").click()
        assert exercise.locator(".exercise-answer").is_visible()
        step = exercise.get_attribute("data-move")
        exercise.locator("a.exercise-see").click()
        page.wait_for_function(f"() => document.body.dataset.step === '{step}'")
    else:
        page.wait_for_selector("#profile-recent li")
        assert page.locator("#profile-exercises").is_hidden()
    assert errors == []


def test_the_review_panel_in_japanese_on_a_phone(server_factory, browser, tmp_path) -> None:  # noqa: F811
    """The panel speaks the page's language and its chart fits a phone's width."""
    server = server_factory(bot_delay=0.0, env=SMALL_REVIEW)
    page, me = signed_in_page(browser, server, "Ada", locale="ja-JP", viewport={"width": 390, "height": 844})
    # the fixed deal of the test above: its review lists losses for seat 0 (a random deal may have none)
    body = {"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, BOT], "seed": 7}
    with httpx.Client(base_url=server.url, timeout=30) as http:
        table = http.post("/api/tables", json=body, headers=bearer(me)).json()["table"]["id"]
        play_out(http, table, 0, me)
    page.goto(f"{server.url}/replay/{table}")
    page.wait_for_function("() => /振り返り/.test(document.getElementById('review').innerText)")
    page.wait_for_selector("#review[data-ready='1']")
    assert "手目" in page.locator(".review-turns").inner_text()
    chart = page.locator("#review-chart").bounding_box()
    assert chart is not None and 0 < chart["width"] <= 390
    # a turning point of the chart shows its position; a loss its position and both moves, on the phone
    with httpx.Client(base_url=server.url, timeout=30) as http:
        (seat,) = http.get(f"/api/tables/{table}/review", params={"seat": 0}, headers=bearer(me)).json()["seats"]
    turning = seat["moments"][seat["turning_points"][0]]
    page.locator(f"#review-chart circle.turning[data-step='{turning['index']}']").first.click()
    page.wait_for_function(f"() => document.body.dataset.step === '{turning['index']}'")
    assert page.locator("#board .tf22").is_visible()
    moment = seat["moments"][seat["largest_losses"][0]]
    page.locator(".review-loss").first.click()
    page.wait_for_function(f"() => document.body.dataset.step === '{moment['index']}'")
    position = page.locator("#review-position[data-ready='1']")
    position.wait_for()
    assert "探索のよりよい手" in position.locator(".review-move.better").inner_text()
    for kind in ("played", "better"):
        box = position.locator(f".review-move.{kind}").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.screenshot(path=str(tmp_path / "review-phone.png"), full_page=True)


def test_a_twin_tin_bots_loss_shows_both_moves_previews(server_factory, browser, tmp_path) -> None:  # noqa: F811
    """In a game with previews, a loss's two moves are drawn on the arena: what each would do."""
    server = server_factory(bot_delay=0.0, env=SMALL_REVIEW)
    page, me = signed_in_page(browser, server, "Ada", viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    watch_errors(page, errors)
    heuristic = {"kind": "bot", "difficulty": "heuristic"}  # (against a random bot the game does not end)
    body = {"game": "twin-tin-bots", "num_players": 2, "seats": [HUMAN, heuristic], "seed": 7}
    with httpx.Client(base_url=server.url, timeout=30) as http:
        table = http.post("/api/tables", json=body, headers=bearer(me)).json()["table"]["id"]
        play_out(http, table, 0, me)
    page.goto(f"{server.url}/replay/{table}")
    page.wait_for_selector("#review[data-ready='1']")
    assert page.locator(".review-loss").count() > 0, "a player of first legal moves loses somewhere"
    page.locator(".review-loss").first.click()
    position = page.locator("#review-position[data-ready='1']")
    position.wait_for()
    for kind in ("played", "better"):  # each move's preview: the arena, the robots' paths and their lines
        figure = position.locator(f".review-move.{kind} .ttb-preview-figure")
        assert figure.locator("svg").first.is_visible()
        assert figure.locator(".preview-lines li").count() > 0
    assert page.locator("#board .ttb").is_visible()
    page.screenshot(path=str(tmp_path / "review-ttb.png"), full_page=True)
    # a spectator of the public replay: every seat's review from a spectator's view, a loss its position
    watcher, _ = signed_in_page(browser, server, "Bea", viewport={"width": 1280, "height": 900})
    watch_errors(watcher, errors)
    watcher.goto(f"{server.url}/replay/{table}")
    watcher.wait_for_selector("#review[data-ready='1']")
    assert watcher.locator("#review-spectator-note").is_visible()
    assert watcher.locator(".review-seat").count() == 2 and watcher.locator(".review-chart").count() == 2
    turning = watcher.locator("#review-chart circle.turning").first
    step = turning.get_attribute("data-step")
    turning.click()
    watcher.wait_for_function(f"() => document.body.dataset.step === '{step}'")
    watcher.screenshot(path=str(tmp_path / "review-ttb-spectator.png"), full_page=True)
    assert errors == []
