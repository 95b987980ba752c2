"""The Robots on the Line table in Debian's chromium (Playwright), by keyboard alone (issue 17).

A whole game to the end screen at 1366x768 and 390x844, in English and Japanese: the table starts from a
written position close to the end (tests/server/rotl_positions.py: seat 0 has sold three robots and can
build a fourth once it takes the top torso; the bots' dealt parts lie on the junk piles, so they make
no offers). The person Tabs to a line space and confirms taking it, undoes that and takes it again,
takes the top torso (after which undo is refused: the next torso shows), opens the workbench, places
every part of the assembly helper's robot with Enter, the arrow keys and R, sells it (Confirm), ends
the turn and reads the end screen. Checked on every screen: the document is no wider than the viewport,
the focused control shows a focus ring, the texts come from the right catalogue (no part id, no
"You's", seats from 1). Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re

import pytest
from axe import axe_violations, describe
from people import finished_bot_table, new_table
from rotl_positions import quiet_sellable_position
from test_server_browser import ARTIFACTS, signed_in_page, watch_errors

GAME = "robots-on-the-line"
SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
PART_ID = re.compile(r"\b(?:head|base|hand|antenna|extender|elbow|splitter|battery|magnet|torso|buyer|req)-\d\d\b")
ENGLISH = re.compile(r"\b(End turn|Workbench|Confirm|Buyers|took)\b")
WORDS = {
    "en": {"end_turn": "End turn", "confirm": "Confirm", "score": "Score", "english": None},
    "ja": {"end_turn": "手番終了", "confirm": "確定", "score": "得点", "english": ENGLISH},
}
BOT = {"kind": "bot", "difficulty": "random"}


@pytest.fixture
def rotl_server(server_factory, monkeypatch):
    monkeypatch.setenv("ROBOTABLE_ALLOW_POSITIONS", "1")
    return server_factory(bot_delay=0.0)


def contrast(page, where: str) -> None:
    """axe-core (tests/web/axe.py): no WCAG AA colour-contrast violation on the whole page."""
    page.evaluate("() => document.getAnimations().forEach((a) => a.finish())")  # measure the final colours
    found = axe_violations(page)
    assert not found, f"{where}: WCAG AA contrast violations:\n{describe(found)}"


def moves(page) -> int:
    return int(page.evaluate("document.body.dataset.moves"))


def no_overflow(page, where: str) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"{where}: the document is {width[0]} px wide in a {width[1]} px viewport"


def tab_to(page, selector: str, limit: int = 400) -> None:
    """Press Tab until the focused element matches ``selector`` (keyboard alone), then check its ring."""
    for _ in range(limit):
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)", selector):
            ring = page.evaluate(
                "() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth]; }"
            )
            assert ring[0] != "none" and ring[1] != "0px", f"{selector}: no visible focus ring ({ring})"
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def press_and_wait(page, key: str = "Enter") -> None:
    before = moves(page)
    page.keyboard.press(key)
    page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")


def confirm(page) -> None:
    """The costly move waits: Confirm has the focus; Enter plays it."""
    page.wait_for_selector("#confirm-move")
    assert page.evaluate("document.activeElement.id") == "confirm-move"
    press_and_wait(page)


def check_texts(page, lang: str, over: bool = False) -> None:
    text = page.inner_text("#board") + page.inner_text("#log")
    assert not PART_ID.search(text), PART_ID.search(text).group(0)
    assert "You's" not in text and "Seat 0" not in text and "0番席" not in text
    assert over or WORDS[lang]["end_turn"] in text
    if WORDS[lang]["english"] is not None:
        assert not WORDS[lang]["english"].search(page.inner_text("#board")), WORDS[lang]["english"].search(text)


def place_by_keyboard(page, part: str, x: int, y: int, rot: int) -> None:
    """Tab to the tray part, Enter picks it up, the arrow keys move it to (x, y), R turns it, Enter places it."""
    tab_to(page, f"[data-tray='{part}']")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#bench-grid[data-carrying='{part}']")
    assert page.evaluate("document.activeElement.id") == "bench-grid"
    cx, cy = map(int, page.get_attribute("#bench-grid", "data-cursor").split(","))
    for key, n in (("ArrowRight", x - cx), ("ArrowLeft", cx - x), ("ArrowDown", y - cy), ("ArrowUp", cy - y)):
        for _ in range(max(0, n)):
            page.keyboard.press(key)
    assert page.get_attribute("#bench-grid", "data-cursor") == f"{x},{y}"
    for _ in range(rot):
        page.keyboard.press("r")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"[data-placed='{part}']")
    assert page.get_attribute("#bench-grid", "data-carrying") == ""


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_whole_game_by_keyboard_alone(rotl_server, browser, size: str, lang: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    shot = lambda name: page.screenshot(path=str(ARTIFACTS / f"rotl17-{size}-{lang}-{name}.png"), full_page=True)  # noqa: E731
    position, sale = quiet_sellable_position()
    errors: list[str] = []
    page, me = signed_in_page(browser, rotl_server, viewport=SIZES[size])
    page.context.add_cookies([{"name": "lang", "value": lang, "url": rotl_server.url}])
    seats = [{"kind": "human", "name": "Ada"}, BOT, BOT]
    made = new_table(rotl_server, seats, game=GAME, position=position, creator=me)
    watch_errors(page, errors)
    page.goto(f"{rotl_server.url}{made['links']['0']}")
    page.wait_for_selector("#end-turn")
    assert page.evaluate("document.documentElement.lang") == lang
    check_texts(page, lang)
    no_overflow(page, "table")
    contrast(page, "table")
    shot("table")

    # take a part from the line: Tab to it, Enter, and Confirm (the confirm box names the part and place)
    hand = page.locator("[data-hand]").count()
    tab_to(page, "[data-take]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#pending-move")
    assert not PART_ID.search(page.inner_text("#pending-move"))
    no_overflow(page, "confirm")
    contrast(page, "confirm")
    shot("confirm")
    confirm(page)
    assert page.locator("[data-hand]").count() > hand

    # undo it (the table's own Undo, reached by Tab), and take it again
    page.wait_for_selector("#rotl-undo:not([disabled])")
    tab_to(page, "#rotl-undo")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelectorAll('[data-hand]').length === {hand}")
    tab_to(page, "[data-take]")
    page.keyboard.press("Enter")
    confirm(page)

    # flip two switches for $1 (a switch, then its partner, then Confirm), and undo the flip
    money = int(page.get_attribute("[data-player='0'] .player-money", "data-money"))
    tab_to(page, ".rotl-switch:not([disabled])")
    page.keyboard.press("Enter")
    page.wait_for_selector(".rotl-switch.picked")
    tab_to(page, ".rotl-switch.partner")
    page.keyboard.press("Enter")
    confirm(page)
    assert int(page.get_attribute("[data-player='0'] .player-money", "data-money")) == money - 1
    page.wait_for_selector("#rotl-undo:not([disabled])")
    tab_to(page, "#rotl-undo")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.querySelector(\"[data-player='0'] .player-money\").dataset.money === '{money}'"
    )

    # the top torso: confirmed; the next torso shows, so undo is refused
    tab_to(page, "#take-torso")
    page.keyboard.press("Enter")
    confirm(page)
    page.wait_for_selector(".hand-torso .tile-svg")
    page.wait_for_selector("#rotl-undo[disabled]")
    assert page.locator("#undo-button").is_disabled()

    # the workbench: the helper's robot placed by keyboard; the help panel opens from the keyboard too
    tab_to(page, "#rotl-help-toggle")
    page.keyboard.press("Enter")
    page.wait_for_selector("#rotl-help")
    no_overflow(page, "help")
    contrast(page, "help")
    shot("help")
    page.keyboard.press("Enter")  # the toggle still has the focus: Enter closes the help
    page.wait_for_selector("#rotl-help", state="detached")
    tab_to(page, "#open-bench")
    page.keyboard.press("Enter")
    page.wait_for_selector("#bench-measures[data-state=ready]")
    torso = next(item for item in sale["layout"] if item[0].startswith("torso"))
    for name, x, y, rot in sale["layout"]:
        if name.startswith("torso"):
            continue
        place_by_keyboard(page, name, x - torso[1], y - torso[2], rot)
    for extra in sale["batteries"] + sale["magnets"]:
        tab_to(page, f"[data-extra='{extra}']")
        page.keyboard.press("Enter")
    buyer = sale["buyer"]
    page.wait_for_selector(f"[data-bench-buyer='{buyer}'] [data-sell]")
    check_texts(page, lang)
    no_overflow(page, "workbench")
    contrast(page, "workbench")
    shot("workbench")
    money = int(page.get_attribute("[data-player='0'] .player-money", "data-money"))
    value = int(page.get_attribute(f"[data-bench-buyer='{buyer}'] .value", "data-value"))
    tab_to(page, f"[data-bench-buyer='{buyer}'] [data-sell]")
    page.keyboard.press("Enter")
    confirm(page)
    assert int(page.get_attribute("[data-player='0'] .player-money", "data-money")) == money + value

    # the fourth robot ends the game at the end of the turn: the end screen fits, Score included
    tab_to(page, "#end-turn")
    page.keyboard.press("Enter")
    page.wait_for_selector("#end-screen:not([hidden])")
    end = page.inner_text("#end-screen")
    assert "Ada" in end and WORDS[lang]["score"] in end
    score = page.locator("table.rotl-result th").last.bounding_box()
    assert score["x"] + score["width"] <= SIZES[size]["width"], "the Score column is cut off"
    cell = page.locator("table.rotl-result tbody tr").first.locator("td.score").bounding_box()
    card = page.locator(".end-card").bounding_box()
    assert cell["x"] + cell["width"] <= card["x"] + card["width"]
    no_overflow(page, "end screen")
    contrast(page, "end screen")
    shot("end")
    check_texts(page, lang, over=True)

    assert not errors, errors


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_tap_to_explain_help_panel_and_rules_page_on_a_phone(rotl_server, browser, lang: str) -> None:
    """On a touch phone: "Explain" then a tap on a line space, a requirement, a switch explains it (and plays
    nothing); the help panel opens by touch; the rules page is in the page's language and fits."""
    position, _sale = quiet_sellable_position()
    errors: list[str] = []
    page, me = signed_in_page(browser, rotl_server, viewport=SIZES["phone"], has_touch=True, is_mobile=True)
    page.context.add_cookies([{"name": "lang", "value": lang, "url": rotl_server.url}])
    seats = [{"kind": "human", "name": "Ada"}, BOT, BOT]
    made = new_table(rotl_server, seats, game=GAME, position=position, creator=me)
    watch_errors(page, errors)
    page.goto(f"{rotl_server.url}{made['links']['0']}")
    page.wait_for_selector("#end-turn")
    before = moves(page)
    page.tap("#explain-toggle")
    page.wait_for_selector("#explain-toggle[aria-pressed='true']")
    for target in ("[data-take]", ".rotl-buyers [data-req]", ".rotl-switch:not([disabled])", "[data-hand]"):
        page.locator(target).first.tap()
        page.wait_for_selector("#explain-box")
        text = page.inner_text("#explain-box")
        assert len(text) > 20 and not PART_ID.search(text), (target, text)
        contrast(page, f"explained {target}")
        page.tap("#explain-close")
        page.wait_for_selector("#explain-box", state="detached")
    assert moves(page) == before and page.locator("#pending-move").count() == 0
    page.tap("#explain-toggle")
    page.tap("#rotl-help-toggle")
    page.wait_for_selector("#rotl-help #help-requirements")
    no_overflow(page, "help panel")
    contrast(page, "help panel")
    page.locator("#rotl-help").screenshot(path=str(ARTIFACTS / f"rotl17-phone-{lang}-help-panel.png"))

    page.goto(f"{rotl_server.url}/static/games/robots-on-the-line-rules.html")
    page.wait_for_selector("#rules #help-maintenance")
    assert page.evaluate("document.documentElement.lang") == lang
    heading = page.inner_text("#rules-title")
    assert heading == ("How to play Robots on the Line" if lang == "en" else "Robots on the Lineの遊び方")
    if lang == "ja":
        assert not ENGLISH.search(page.inner_text("#rules")) and "ラインリセット" in page.inner_text("#rules")
    no_overflow(page, "rules page")
    contrast(page, "rules page")
    page.screenshot(path=str(ARTIFACTS / f"rotl17-phone-{lang}-rules.png"), full_page=True)
    assert not errors, errors


def test_a_replay_draws_and_animates_the_lines(rotl_server, browser) -> None:
    """A game between two bots, replayed step by step: parts named, the lines slide as they move."""
    errors: list[str] = []
    page, me = signed_in_page(browser, rotl_server, viewport=SIZES["phone"])
    table = finished_bot_table(rotl_server, GAME, me)
    watch_errors(page, errors)
    page.goto(f"{rotl_server.url}/replay/{table}")
    page.wait_for_selector("#board .rotl-lines")
    slid = False
    for _ in range(40):
        page.click("#next")
        slid = slid or page.locator(".rotl-spaces.slide").count() > 0
    assert slid, "the lines never slid in the replay"
    assert not PART_ID.search(page.inner_text("#board") + page.inner_text("#log"))
    no_overflow(page, "replay")
    page.screenshot(path=str(ARTIFACTS / "rotl17-phone-replay.png"), full_page=True)
    assert not errors, errors
