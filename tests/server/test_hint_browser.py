"""Issue 30, in Debian's chromium: the table page's "Hint" button, on a table whose creator allowed hints,
shows the bots' best moves for the seat to move; a rated table has no such button."""

from __future__ import annotations

import httpx
from people import bearer
from test_server_api import BOT, HUMAN
from test_server_browser import browser, signed_in_page, watch_errors  # noqa: F401  (the browser fixture)


def test_the_hint_button_shows_the_bots_best_moves_only_where_allowed(server_factory, browser) -> None:  # noqa: F811
    server = server_factory(bot_delay=0.0)
    page, me = signed_in_page(browser, server, "Ada", viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    watch_errors(page, errors)
    tables = {}
    with httpx.Client(base_url=server.url, timeout=30) as http:
        for hints in (True, False):
            body = {"game": "tf22-reload", "num_players": 2, "seats": [HUMAN, BOT], "hints": hints}
            tables[hints] = http.post("/api/tables", json=body, headers=bearer(me)).json()["table"]
    assert tables[False]["rated"] and not tables[True]["rated"]
    page.goto(f"{server.url}/table/{tables[True]['id']}?seat=0")
    page.wait_for_selector("[data-legal]")
    page.locator("#hint-button").click()
    page.wait_for_selector(".hint-choice")
    choices = page.locator(".hint-choice")
    assert 1 <= choices.count() <= 3
    assert all("%" in choices.nth(i).inner_text() for i in range(choices.count()))
    page.goto(f"{server.url}/table/{tables[False]['id']}?seat=0")
    page.wait_for_selector("[data-legal]")
    assert page.locator("#hint-button").count() == 0  # rated: no button (and the server refuses hints)
    assert errors == []


def test_a_twin_tin_bots_hint_shows_each_choices_preview(server_factory, browser) -> None:  # noqa: F811
    """In a game with previews, each hinted move can show what it would do, drawn on the arena."""
    server = server_factory(bot_delay=0.0)
    page, me = signed_in_page(browser, server, "Ada", viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    watch_errors(page, errors)
    body = {"game": "twin-tin-bots", "num_players": 2, "seats": [HUMAN, BOT], "hints": True}
    with httpx.Client(base_url=server.url, timeout=30) as http:
        table = http.post("/api/tables", json=body, headers=bearer(me)).json()["table"]
    page.goto(f"{server.url}/table/{table['id']}?seat=0")
    page.wait_for_selector("#hint-button")
    page.locator("#hint-button").click()
    page.wait_for_selector(".hint-choice .hint-preview-button")
    page.locator(".hint-choice .hint-preview-button").first.click()
    figure = page.locator(".hint-choice .hint-preview .ttb-preview-figure").first
    figure.wait_for()
    assert figure.locator("svg").first.is_visible() and figure.locator(".preview-lines li").count() > 0
    assert errors == []
