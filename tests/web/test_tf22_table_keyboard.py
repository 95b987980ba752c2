"""TF22: RELOAD! in Debian's chromium (Playwright), issue 17: a whole game against a bot by keyboard alone
(Tab to a card, Enter to play it; the R card opens with Enter, its uses are buttons; a won container is
loaded with Enter), on a laptop (1366x768) and a phone (390x844) screen, with no page wider than the
screen at any move (document width == viewport width) nor on the end screen, whose dialog is centred and
shows the Total column. Tap-to-explain, the help panel and the rules page; screenshots in test-artifacts/.
"""

from __future__ import annotations

import pytest
from people import new_table
from test_server_browser import ARTIFACTS, browser, signed_in_page, watch_errors  # noqa: F401

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}
FOCUSED_LEGAL = (
    "() => { const a = document.activeElement; return !!a && !!a.closest('.tf22')"
    " && a.matches('[data-legal]:not([disabled]), [data-rcard]:not([disabled])'); }"
)


def overflow(page) -> int:
    """How much wider than the viewport the page is (0: it fits)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def moves(page) -> int:
    return int(page.evaluate("document.body.dataset.moves || '0'"))


def tab_to_a_legal_action(page) -> None:
    """Press Tab until the focus is on something playable in the table (the page may already be there)."""
    for _ in range(60):
        if page.evaluate(FOCUSED_LEGAL):
            return
        page.keyboard.press("Tab")
    info = page.evaluate(
        "() => [document.body.dataset.moves, document.activeElement && document.activeElement.outerHTML.slice(0, 120)]"
    )
    raise AssertionError(f"Tab never reached a playable card or action: {info}")


def play_one_move_by_keyboard(page) -> None:
    page.wait_for_function(
        "() => document.querySelector('.tf22 [data-legal]:not([disabled]), .tf22 [data-rcard]:not([disabled])')"
        " || !document.getElementById('end-screen').hidden",
    )
    if page.is_visible("#end-screen:not([hidden])"):
        return
    before = moves(page)
    tab_to_a_legal_action(page)
    if page.evaluate("document.activeElement.matches('[data-rcard]')"):
        page.keyboard.press("Enter")  # the R card opens its uses; the focus moves to the first
        page.wait_for_function("() => document.activeElement && document.activeElement.closest('.r-panel')")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => Number(document.body.dataset.moves) > {before} || !document.getElementById('end-screen').hidden",
    )


@pytest.mark.parametrize(
    ("size", "language"),
    [((1366, 768), "en"), ((390, 844), "en"), ((1366, 768), "ja"), ((390, 844), "ja")],
    ids=["laptop-en", "phone-en", "laptop-ja", "phone-ja"],
)
def test_a_whole_game_by_keyboard_without_horizontal_overflow(server_factory, browser, size, language) -> None:  # noqa: F811
    ARTIFACTS.mkdir(exist_ok=True)
    width, height = size
    tag = ("phone" if width < 500 else "laptop") + ("" if language == "en" else f"-{language}")
    server = server_factory(bot_delay=0.0)
    page, me = signed_in_page(browser, server, viewport={"width": width, "height": height})
    page.context.add_cookies([{"name": "lang", "value": language, "url": server.url}])
    errors: list[str] = []
    watch_errors(page, errors)
    made = new_table(server, [HUMAN, BOT], game="tf22-reload", creator=me)
    page.goto(server.url + made["links"]["0"])
    page.wait_for_selector(".rcu-card[data-legal]")

    # tap-to-explain: a container card says what it is (no hover needed)
    page.locator(".revealed .cc-card").first.click()
    words = {
        "en": ("container card, value", "Everyone chooses a card in secret"),
        "ja": ("コンテナカード", "全員が秘密で"),
    }
    assert words[language][0] in page.inner_text("#tf22-explain")
    page.locator("#tf22-help summary").click()
    assert words[language][1] in page.inner_text("#tf22-help")
    page.locator("#tf22-help summary").click()
    assert overflow(page) <= 0

    shots = 0
    for _ in range(200):
        if page.is_visible("#end-screen:not([hidden])"):
            break
        play_one_move_by_keyboard(page)
        assert overflow(page) <= 0, f"the page is wider than the screen at move {moves(page)}"
        if shots == 0 and page.locator(".reveal-item").count():
            page.screenshot(path=str(ARTIFACTS / f"tf22-keyboard-{tag}.png"), full_page=True)
            shots = 1
    page.wait_for_selector("#end-screen:not([hidden]) .end-card")
    assert overflow(page) <= 0
    card = page.locator(".end-card").bounding_box()
    assert card["x"] >= 0 and card["x"] + card["width"] <= width + 0.5
    assert abs(card["x"] - (width - card["x"] - card["width"])) <= 2  # centred
    total = page.locator(".end-card table.result th").nth(5).bounding_box()  # Total
    assert total["x"] + total["width"] <= card["x"] + card["width"]  # the Total column is on screen
    page.screenshot(path=str(ARTIFACTS / f"tf22-end-screen-{tag}.png"))
    if language == "ja":  # the table's own texts are Japanese: no English sentence left in the log
        log = page.inner_text("#log")
        assert "ラウンド" in log and "wins the battle" not in log and "has chosen" not in log
    assert not errors, errors


def test_the_rules_page_and_the_help_link(server_factory, browser) -> None:  # noqa: F811
    server = server_factory(bot_delay=0.0)
    page, _ = signed_in_page(browser, server, viewport={"width": 390, "height": 844})
    page.goto(server.url + "/static/games/tf22-reload-rules.html")
    assert "The R card" in page.inner_text("#rules")
    assert overflow(page) <= 0
