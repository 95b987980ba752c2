"""Undo of a TF22 secret choice in the browser at a table of people (issue 17): the choice is taken back
with the Undo button while the other person has not chosen; once they choose, the cards are revealed and
Undo is refused (the button is off and the server says why)."""

from __future__ import annotations

from people import call, new_table
from test_server_browser import ARTIFACTS, browser, signed_in_page, watch_errors  # noqa: F401

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}


def test_undo_a_secret_choice_until_the_other_person_chooses(server_factory, browser) -> None:  # noqa: F811
    ARTIFACTS.mkdir(exist_ok=True)
    server = server_factory(bot_delay=0.0)
    page, me = signed_in_page(browser, server, viewport={"width": 390, "height": 844})
    errors: list[str] = []
    watch_errors(page, errors)
    made = new_table(server, [HUMAN, HUMAN, BOT], game="tf22-reload", creator=me)
    table, other = made["table"]["id"], made["tokens"][1]
    page.goto(server.url + made["links"]["0"])
    page.wait_for_selector(".rcu-card[data-legal]")
    assert page.is_disabled("#undo-button")

    page.locator(".rcu-card[data-legal][data-value='6']").click()
    page.wait_for_selector("text=Your secret choice: RCU-6")
    page.wait_for_selector("#undo-button:not([disabled])")  # the other person has not chosen: no race
    page.screenshot(path=str(ARTIFACTS / "tf22-undo-phone.png"))
    page.click("#undo-button")
    page.wait_for_selector(".rcu-card[data-legal][data-value='6']")
    assert page.evaluate("document.body.dataset.moves") == "0"

    page.locator(".rcu-card[data-legal][data-value='3']").click()
    page.wait_for_selector("#undo-button:not([disabled])")
    res = call(
        server, "POST", f"/api/tables/{table}/moves", other, json={"seat": 1, "action": {"type": "play", "value": 5}}
    )
    assert res.status_code == 200, res.text
    page.wait_for_selector(".reveal-item")  # the bot chose at once: everything is revealed
    page.wait_for_selector("#undo-button[disabled]")
    refused = call(server, "POST", f"/api/tables/{table}/undo", me, json={"seat": 0})
    assert refused.status_code == 409
    assert "RCU-3" in page.inner_text("#log")
    assert not errors, errors
