"""Issue 27's smaller findings, in Debian's chromium: the invite page's top bar is compact on a phone and
every page leads back (account and invite pages had no navigation); after muting the only writer, the chat
says the lines are hidden (it said "No messages yet."); the chat's placeholder fits its box."""

from __future__ import annotations

import httpx
from people import bearer, guest_token
from test_server_browser import ARTIFACTS, browser, signed_in_page, watch_errors  # noqa: F401  (the browser fixture)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def test_the_invite_page_is_compact_on_a_phone_and_every_page_leads_back(server_factory, browser) -> None:  # noqa: F811
    server = server_factory(bot_delay=0.0)
    creator = guest_token(server, "Ann")
    body = {"game": "tf22-reload", "num_players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    with httpx.Client(base_url=server.url, timeout=30) as http:
        made = http.post("/api/tables", json=body, headers=bearer(creator)).json()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(f"{server.url}{made['invites']['1']}")  # signed out, as an invited friend arrives
    page.wait_for_selector("#accept-invite")
    height = page.evaluate("() => document.querySelector('header.topbar').getBoundingClientRect().height")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "invite-phone.png"))
    assert height <= 0.25 * PHONE["height"], f"the invite page's top bar is {height:.0f} px tall"
    for path in ("/account", page.url):
        page.goto(path if path.startswith("http") else f"{server.url}{path}")
        lobby = page.locator("header.topbar nav a[href='/']")
        assert lobby.count() == 1, f"{path}: no way back to the lobby"
    lobby.click()
    page.wait_for_url(f"{server.url}/")
    assert errors == []
    context.close()


def test_muting_the_only_writer_says_the_lines_are_hidden(server_factory, browser, create_table) -> None:  # noqa: F811
    server = server_factory(bot_delay=0.0)
    page, ann = signed_in_page(browser, server, "Ann", viewport=DESKTOP)
    made = create_table(server, [{"kind": "human"}, {"kind": "human"}], creator=ann)
    table, bob = made["table"]["id"], made["tokens"][1]
    with httpx.Client(base_url=server.url, timeout=30) as http:
        said = http.post(f"/api/tables/{table}/chat", json={"text": "hello"}, headers=bearer(bob))
    assert said.status_code in (200, 201), said.text
    page.goto(f"{server.url}/table/{table}?seat=0")
    page.wait_for_selector("#chat-lines [data-mute]")
    text, room = page.evaluate(
        """() => {
          const input = document.getElementById('chat-input'), style = getComputedStyle(input);
          const pen = document.createElement('canvas').getContext('2d');
          pen.font = style.font;
          const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return [pen.measureText(input.placeholder).width, room];
        }"""
    )
    assert text <= room, f"the chat's placeholder is cut off ({text:.0f} px of text in {room:.0f} px)"
    page.locator("#chat-lines [data-mute]").first.click()
    page.wait_for_selector("#chat-empty")
    assert page.inner_text("#chat-empty") == "Messages from players you muted are hidden."
