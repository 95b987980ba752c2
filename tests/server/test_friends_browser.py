"""Friends in Debian's chromium: Ann (English, desktop) and Bob (Japanese, a 390x844 phone) become friends
on the friends page, Ann invites Bob to her table's free seat from the table page, and Bob, on My tables,
gets the notice live and takes the seat from there."""

from __future__ import annotations

from pathlib import Path

from test_server_browser import browser as chromium
from test_server_browser import watch_errors

browser = chromium  # the fixture (Debian's chromium)
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PASSWORD = "correct horse battery"


def member(browser, server, username: str, **context_args):
    """A browser context signed up as ``username``, its page, and its CSRF token."""
    context = browser.new_context(**context_args)
    res = context.request.post(f"{server.url}/api/account/signup", data={"username": username, "password": PASSWORD})
    assert res.status == 201, res.text()
    page = context.new_page()
    return context, page, res.json()["csrf"]


def test_friends_invite_a_friend_to_a_seat_who_takes_it_from_my_tables(server_factory, browser) -> None:
    server = server_factory(bot_delay=0.0)
    errors: list[str] = []
    ann_context, ann, ann_csrf = member(browser, server, "ann", locale="en-US")
    bob_context, bob, _ = member(browser, server, "bob", locale="ja-JP", viewport={"width": 390, "height": 844})
    for page in (ann, bob):
        watch_errors(page, errors)

    # Ann asks by username; Bob accepts on his friends page (Japanese, on a phone)
    ann.goto(server.url + "/friends")
    ann.locator("#friend-username").fill("Bob")
    ann.locator("#friend-send").click()
    ann.locator("#friend-outgoing .friend-row").wait_for()
    bob.goto(server.url + "/friends")
    accept = bob.locator("#friend-incoming button", has_text="承認")
    accept.click()
    bob.locator("#friend-list .friend-row", has_text="ann").wait_for()
    ARTIFACTS.mkdir(exist_ok=True)
    bob.screenshot(path=str(ARTIFACTS / "friends-list-phone-ja.png"))

    # Bob waits on My tables; Ann invites him to seat 2 of her new table from the table page
    bob.goto(server.url + "/my")
    bob.locator("#my-tables p").wait_for()  # loaded: no tables yet
    body = {"game": "tf22-reload", "num_players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    res = ann_context.request.post(f"{server.url}/api/tables", data=body, headers={"X-CSRF-Token": ann_csrf})
    assert res.status == 201, res.text()
    table = res.json()["table"]["id"]
    ann.goto(f"{server.url}/table/{table}?seat=0")
    ann.locator("#invite-friend-1").click()
    ann.locator("#friend-choice-1").select_option(label="bob · online")
    ann.locator("#friend-send-1").click()

    # Bob's page shows the notice at once (the friends socket) and the offer above his tables
    bob.locator(".toast", has_text="annさんがTF22: RELOAD!の席2に招待しています").wait_for()
    offer = bob.locator(f"#friend-offers [data-table='{table}']")
    offer.wait_for()
    bob.screenshot(path=str(ARTIFACTS / "friends-offer-phone-ja.png"))
    offer.locator("button", has_text="席に着く").click()
    bob.wait_for_url(f"{server.url}/table/{table}?seat=1")
    seats = server.api("GET", f"/api/tables/{table}").json()["seats"]
    assert seats[1]["name"] == "bob" and seats[1]["account"] is not None
    bob.goto(server.url + "/my")
    bob.locator(f"#my-tables [data-table='{table}']").wait_for()  # now one of his tables
    assert bob.locator("#friend-offers [data-table]").count() == 0
    assert errors == []
    ann_context.close()
    bob_context.close()


def test_the_pages_buttons_wait_for_their_script(server_factory, browser) -> None:
    """Before a page's script has wired them, its forms cannot be sent natively (a GET that reloads the page
    and drops what was asked): the buttons come disabled and the script enables them."""
    server = server_factory(bot_delay=0.0)
    buttons = {"/friends": ["#friend-send"], "/": ["#play-bot-now", "#welcome-sign-up", "#create-button"]}
    no_script = browser.new_context(java_script_enabled=False)
    with_script = browser.new_context()
    try:
        for path, ids in buttons.items():
            bare, wired = no_script.new_page(), with_script.new_page()
            bare.goto(server.url + path)
            wired.goto(server.url + path)
            for button in ids:
                assert bare.locator(button).is_disabled(), (path, button)
                wired.wait_for_selector(f"{button}:not([disabled])", state="attached")
    finally:
        no_script.close()
        with_script.close()
