"""Issue 27, in Debian's chromium: when an invited player takes their seat, the creator's open page shows
their name at once, on the board and in the scores as well as in the seat list (it said "Player 2" until
the next move), and says "waiting for players" until then; a run-out clock reads 0:00."""

from __future__ import annotations

import httpx
from people import bearer, guest_token
from test_server_browser import browser, signed_in_page, watch_errors  # noqa: F401  (the browser fixture)


def test_the_creators_board_names_the_invited_player_once_they_take_the_seat(server_factory, browser) -> None:  # noqa: F811
    server = server_factory(bot_delay=0.0)
    page, me = signed_in_page(browser, server, "Ada", viewport={"width": 1280, "height": 800})
    body = {"game": "tf22-reload", "num_players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    with httpx.Client(base_url=server.url, timeout=30) as http:
        made = http.post("/api/tables", json=body, headers=bearer(me)).json()
    table, code = made["table"]["id"], made["invites"]["1"].rsplit("/", 1)[1]
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(f"{server.url}/table/{table}?seat=0")
    page.wait_for_selector("#waiting-players")  # the clocks wait for the second player
    assert "Bea" not in page.locator("#board").inner_text()
    bea = guest_token(server, "Bea")
    with httpx.Client(base_url=server.url, timeout=30) as http:
        taken = http.post("/api/invites/accept", json={"code": code}, headers=bearer(bea))
    assert taken.status_code == 200, taken.text
    page.wait_for_function("() => document.getElementById('board').innerText.includes('Bea')")
    page.wait_for_selector("#waiting-players", state="detached")
    # a clock that has just run out reads 0:00 (it read "-0:00"); below zero it shows the sign
    shown = page.evaluate(
        "() => import('/static/js/turn.js').then((m) => [-400, -999, 0, -3000].map(m.formatDuration))"
    )
    assert shown == ["0:00", "0:00", "0:00", "-0:03"], shown
    assert "null" not in page.inner_text("#turn")  # (an empty part of the panel once read "null")
    assert errors == []
