"""Twin Tin Bots in Debian's chromium (Playwright), issue 17: a game played to the end screen by keyboard
alone (Tab to a tile, Enter chooses it and moves the focus to a slot, Enter stages the change, Enter on
Commit runs it), on a laptop (1366x768) and a phone (390x844), with no page wider than the screen; tiles
and slots are buttons with labels, icons are drawn (no emoji), choosing a tile marks only one's own hand,
places are named as a person sees them (row letter and number, never axial coordinates), the score
victory is explained on the end screen, undo of a program change in the browser until the robots run.
Screenshots in test-artifacts/.
"""

from __future__ import annotations

import re

import pytest
from people import new_table
from test_server_browser import ARTIFACTS, browser, signed_in_page, watch_errors  # noqa: F401
from ttb_positions import ENDGAME

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}
PLAYABLE = ".colour-panel.mine [data-legal=tile], [data-change=pass]"
AXIAL = re.compile(r"\[-?\d+, -?\d+\]")


@pytest.fixture
def ttb_server(server_factory, monkeypatch):
    monkeypatch.setenv("ROBOTABLE_ALLOW_POSITIONS", "1")
    return server_factory(bot_delay=0.0)


def overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def moves(page) -> int:
    return int(page.evaluate("document.body.dataset.moves || '0'"))


def focused(page, selector: str) -> bool:
    return page.evaluate(
        "(sel) => !!document.activeElement && document.activeElement.matches(sel)",
        selector,
    )


def tab_to(page, selector: str) -> None:
    for _ in range(80):
        if focused(page, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def wait_turn_or_end(page) -> bool:
    """True when it is this seat's turn, False at the end screen."""
    page.wait_for_function(
        "() => document.querySelector('.change-panel') && !document.body.dataset.animating"
        " || !document.getElementById('end-screen').hidden",
    )
    return not page.is_visible("#end-screen:not([hidden])")


def one_turn_by_keyboard(page) -> None:
    before = moves(page)
    tab_to(page, PLAYABLE)
    if focused(page, "[data-legal=tile]"):
        page.keyboard.press("Enter")  # the tile is chosen; the focus goes to the first slot it may go on
        page.wait_for_function("() => document.activeElement && document.activeElement.matches('[data-legal=slot]')")
    page.keyboard.press("Enter")  # stage the change (or the Pass): the preview, the focus on Commit
    page.wait_for_selector(".preview-panel[data-preview=ready]")
    assert focused(page, "#commit")
    assert not AXIAL.search(page.inner_text("#preview-lines")), page.inner_text("#preview-lines")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")


WORDS = {"en": ("facing", "Commit and run", "Red"), "ja": ("向き", "確定して実行", "赤")}


@pytest.mark.parametrize(
    ("size", "language"),
    [((1366, 768), "en"), ((390, 844), "en"), ((1366, 768), "ja"), ((390, 844), "ja")],
    ids=["laptop-en", "phone-en", "laptop-ja", "phone-ja"],
)
def test_a_game_to_its_end_by_keyboard_without_horizontal_overflow(ttb_server, browser, size, language) -> None:  # noqa: F811
    ARTIFACTS.mkdir(exist_ok=True)
    width, height = size
    tag = ("phone" if width < 500 else "laptop") + ("" if language == "en" else f"-{language}")
    facing, commit_words, red = WORDS[language]
    errors: list[str] = []
    page, me = signed_in_page(browser, ttb_server, viewport={"width": width, "height": height})
    page.context.add_cookies([{"name": "lang", "value": language, "url": ttb_server.url}])
    watch_errors(page, errors)
    made = new_table(ttb_server, [HUMAN, BOT], game="twin-tin-bots", position=ENDGAME, creator=me)
    page.goto(ttb_server.url + made["links"]["0"])
    assert wait_turn_or_end(page)
    assert page.locator(".colour-panel.mine button.tile[data-legal=tile]").count() >= 1
    assert page.locator(".arena .row-label").count() == 2 * 4 + 1  # rows A to I on the 2-player board
    assert page.locator(".tile .tile-icon").count() >= 1 and "🔒" not in page.inner_text(".ttb")
    page.select_option("#ttb-speed", "2")  # the animation speed (kept in this browser, also for replays)
    assert page.evaluate("localStorage.getItem('ttb-speed')") == "2"

    # choosing a tile marks it in one's own hand only
    tile = page.locator(".colour-panel.mine [data-legal=tile]").first.get_attribute("data-tile")
    page.locator(f".colour-panel.mine [data-legal=tile][data-tile={tile}]").click()
    assert page.locator(".tile.selected").count() == 1
    assert page.locator(".colour-panel:not(.mine) .tile.selected").count() == 0
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('.tile.selected')")

    # tap-to-explain: a robot and a tile say what they are
    page.locator(".arena .robot").first.click(force=True)
    said = page.inner_text("#ttb-explain")
    assert facing in said and re.search(r"[A-I]\d+、| on [A-I]\d+, ", said), said
    page.locator(".colour-panel:not(.mine) .hand .tile").first.click()
    assert ":" in page.inner_text("#ttb-explain")
    page.click("#ttb-help-button")
    assert commit_words in page.inner_text("#ttb-help")
    page.click("#ttb-help-button")
    assert overflow(page) <= 0

    turns = 0
    while wait_turn_or_end(page):
        one_turn_by_keyboard(page)
        turns += 1
        assert turns < 12
        assert overflow(page) <= 0, f"the page is wider than the screen after turn {turns}"
        if turns == 1:
            page.screenshot(path=str(ARTIFACTS / f"ttb-keyboard-{tag}.png"), full_page=True)
    page.wait_for_selector("#end-screen .end-card")
    assert overflow(page) <= 0
    assert not AXIAL.search(page.inner_text("#log")), "the log names a place by axial coordinates"
    assert "seat 0" not in page.inner_text("#log").lower() and red in page.inner_text("#log")
    if language == "ja":
        assert " places " not in page.inner_text("#log") and "moves to" not in page.inner_text("#log")
    page.screenshot(path=str(ARTIFACTS / f"ttb-end-screen-{tag}.png"))

    assert overflow(page) <= 0
    assert not errors, errors


def test_score_victory_explained_and_undo_until_the_robots_run(ttb_server, browser) -> None:  # noqa: F811
    errors: list[str] = []
    page, me = signed_in_page(browser, ttb_server, viewport={"width": 1366, "height": 768})
    watch_errors(page, errors)
    made = new_table(ttb_server, [HUMAN, BOT], game="twin-tin-bots", creator=me)
    page.goto(ttb_server.url + made["links"]["0"])
    assert wait_turn_or_end(page)

    # the first turn's first placement is undone; once the robots ran, Undo is refused
    before = moves(page)
    page.locator(".colour-panel.mine [data-legal=tile]").first.click()
    page.locator("[data-legal=slot]").first.click()
    page.wait_for_selector(".preview-panel[data-preview=ready]")
    page.click("#commit")
    page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")
    page.wait_for_selector("#undo-button:not([disabled])")
    page.click("#undo-button")
    page.wait_for_function(f"() => Number(document.body.dataset.moves) === {before}")
    for _ in range(2):
        now = moves(page)
        page.locator(".colour-panel.mine [data-legal=tile]").first.click()
        page.locator("[data-legal=slot]").first.click()
        page.wait_for_selector(".preview-panel[data-preview=ready]")
        page.click("#commit")
        page.wait_for_function(f"() => Number(document.body.dataset.moves) > {now}")
    page.wait_for_selector("#undo-button[disabled]")

    # the end dialog's explanation of a score victory (7 points in Bases beat 8 points)
    text = page.evaluate(
        """async () => {
        const r = (await import('/static/games/twin-tin-bots.js')).default;
        const result = { reason: 'score victory: seat 1 has 7 points in Bases', winners: [1], ranks: [2, 1],
          scores: [8, 7], details: { colours: { red: { seat: 0, in_base: ['pink'], carried: ['pink', 'blue', 'blue'] },
          yellow: { seat: 1, in_base: ['blue', 'green', 'blue'], carried: [] } } } };
        const colours = [{ colour: 'red', seat: 0 }, { colour: 'yellow', seat: 1 }];
        const view = { colours, score_victory: 7, num_players: 2 };
        return r.renderResult(result, view, ['Ada', 'Bot 2']).innerText;
      }"""
    )
    assert "Bot 2 reached 7 points in Bases" in text and "ranks above Ada (8 points)" in text, text
    assert "seat 1" not in text
    assert not errors, errors


def test_rules_page_draws_every_tile_icon(ttb_server, browser) -> None:  # noqa: F811
    page, _ = signed_in_page(browser, ttb_server, viewport={"width": 390, "height": 844})
    page.goto(ttb_server.url + "/static/games/twin-tin-bots-rules.html")
    page.wait_for_function("() => document.querySelectorAll('.tile-row .tile-icon').length === 21")
    assert "🔒" not in page.inner_text("#rules") and overflow(page) <= 0
