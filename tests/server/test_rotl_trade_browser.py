"""Robots on the Line in Debian's chromium (Playwright): trading at any time.

A person plays against a random bot. During the person's own turn the bot, which the game is not
waiting for, makes a trade offer (``State.optional_actors``): it shows up with Accept and Decline while
the person's End turn is still there, and accepting it changes the person's hand. A screenshot goes to
test-artifacts/.
"""

from __future__ import annotations

import pytest
from people import new_table
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_server_browser import ARTIFACTS, browser, signed_in_page, watch_errors  # noqa: F401  (the browser fixture)

GAME = "robots-on-the-line"


@pytest.fixture
def trade_server(server_factory):
    return server_factory(bot_delay=0.0)


def moves(page) -> int:
    return int(page.evaluate("document.body.dataset.moves"))


def act(page, selector: str) -> None:
    """Click something that plays a move, and wait until the table has moved."""
    before = moves(page)
    page.locator(selector).first.click()
    # a costly move waits for Confirm (issue 17): press it when the table asks
    page.wait_for_function(
        f"() => Number(document.body.dataset.moves) > {before} || !!document.getElementById('confirm-move')",
    )
    if page.locator("#confirm-move").count():
        page.click("#confirm-move")
    page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")


def hand(page) -> list[str]:
    return page.eval_on_selector_all("[data-hand]", "nodes => nodes.map(n => n.dataset.hand)")


@pytest.mark.parametrize("viewport", [(1366, 900), (390, 844)], ids=["desktop", "phone"])
def test_a_bots_offer_arrives_during_the_persons_turn(trade_server, browser, viewport) -> None:  # noqa: F811
    ARTIFACTS.mkdir(exist_ok=True)
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "difficulty": "random"}]
    width, height = viewport
    page, me = signed_in_page(browser, trade_server, "Ada", viewport={"width": width, "height": height})
    made = new_table(trade_server, seats, game=GAME, creator=me, seed=2)
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(f"{trade_server.url}{made['links']['0']}")
    page.wait_for_selector(".rotl .rotl-lines")
    offer = None
    for _ in range(12):  # the person plays on; after each move the bot may offer a trade
        page.wait_for_selector("#end-turn")
        try:  # the bot answers within moments, if it offers at all
            page.wait_for_selector("[data-accept]", timeout=4_000)
        except PlaywrightTimeout:
            act(page, "[data-take]" if page.locator("[data-take]").count() else "#end-turn")
            continue
        offer = page.locator("[data-accept]").first.get_attribute("data-accept")
        break
    assert offer is not None, "the bot never made an offer during the person's turn"
    assert page.locator("#end-turn").count() == 1  # still the person's turn
    text = page.locator(f"[data-offer='{offer}']").inner_text()
    assert "→" in text and text.index("Ada") > text.index("→"), text  # from the bot to the person
    # issue 27: seen and answered where the person is, without scrolling, on every screen size
    box = page.evaluate(
        f"() => {{ const r = document.querySelector(\"[data-accept='{offer}']\").getBoundingClientRect();"
        " return [r.top, r.bottom, innerHeight]; }"
    )
    assert box[0] >= 0 and box[1] <= box[2], box
    assert page.locator(f".rotl-incoming [data-offer='{offer}']").count() == 1
    page.screenshot(path=str(ARTIFACTS / f"rotl-offer-during-turn-{width}.png"), full_page=False)
    before = hand(page)
    act(page, f"[data-accept='{offer}']")
    page.wait_for_function(f"() => !document.querySelector(\"[data-offer='{offer}']\")")
    assert hand(page) != before
    assert page.locator("#end-turn").count() == 1
    assert errors == []


def test_a_person_not_to_act_writes_an_offer_at_the_start_of_the_game(trade_server, browser) -> None:  # noqa: F811
    """Issue 27: the offer builder is there for every seat, turn or not, also before anything of the other
    hands is known (all dealt parts secret): the person gives a part of their own for $1."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bea"}]
    page, me = signed_in_page(browser, trade_server, "Ada", viewport={"width": 390, "height": 844})
    made = new_table(trade_server, seats, game=GAME, creator=me)
    table, bea = made["table"]["id"], made["tokens"][1]
    ended = trade_server.api(
        "POST",
        f"/api/tables/{table}/moves",
        json={"seat": 0, "action": {"type": "end_turn"}},
        headers={"Authorization": f"Bearer {me}"},
    )
    assert ended.status_code == 200, ended.text  # Bea's turn now: Ada is not to act
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(f"{trade_server.url}{made['links']['0']}")
    page.wait_for_selector(".rotl .rotl-lines")
    assert page.locator("#end-turn").count() == 0
    page.locator("[data-offer-to='1']").click()
    page.locator(".offer-builder [data-pick]").first.click()
    page.locator(".offer-builder input.money-input").nth(1).fill("1")
    before = moves(page)
    page.locator("#send-offer").click()
    page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")
    state = trade_server.api(
        "GET", f"/api/tables/{table}/state", params={"seat": 1}, headers={"Authorization": f"Bearer {bea}"}
    ).json()
    assert [o["from"] for o in state["view"]["offers"]] == [0], state["view"]["offers"]
    assert errors == []
