"""Issue 33, in Debian's chromium: a newcomer does each game's tutorial to the end, signed out, from the
lobby's links, on a laptop in English and on a 390x844 phone in Japanese (no page wider than the
screen; every step's text the catalogue's, in the page's language). Each step is played with the game's
own controls, as a person would: the test asks the API which move the step waits for (POST
/api/tutorials/{game}/{lesson}/state with the moves made so far) and makes it by clicking; one wrong
move per game first gets the step's hint. The API's answers are checked in
tests/server/test_tutorial_api.py, every lesson's consistency in tests/core/test_tutorials.py, that the
lessons play every kind of move in tests/core/test_tutorial_coverage.py.

One server and one browser for the module (the tutorials keep nothing on the server; each test has its
own browser context, so its own progress in localStorage).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from conftest import LOG_TAIL, ServerProcess
from test_server_browser import ARTIFACTS, launched_browser, watch_errors

from robotable.core.i18n import translate
from tests.web.axe import assert_no_contrast_violations


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    """One real server process for the module's tests (its bots think in a thread: ``--bots inline``)."""
    folder = tmp_path_factory.mktemp("tutorial-server")
    process = ServerProcess(f"sqlite:///{folder / 'robotable.db'}", 0.0, bots="inline")
    failed_before = request.session.testsfailed
    try:
        yield process.start()
    finally:
        if request.session.testsfailed > failed_before and process.log is not None and process.log.exists():
            lines = process.log.read_text(errors="replace").splitlines()
            print(f"--- the last {min(len(lines), LOG_TAIL)} lines of {process.url}'s log ---")
            print("\n".join(lines[-LOG_TAIL:]))
        process.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Debian chromium for the module; its contexts and pages wait for conditions (WAIT_MS at most)."""
    yield from launched_browser()


PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}


def lesson_state(server: Any, game: str, lesson: str, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The lesson after ``moves``, as the server answers it (``expected``: the moves the step waits for)."""
    answer = httpx.post(f"{server.url}/api/tutorials/{game}/{lesson}/state", json={"moves": moves}, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()


def answers(page) -> tuple[int, int]:
    """How many moves the page has had accepted, and how many hints it has shown."""
    return page.evaluate("[Number(document.body.dataset.accepted || 0), Number(document.body.dataset.hints || 0)]")


def confirm_if_asked(page, before: tuple[int, int]) -> None:
    """Robots on the Line asks to confirm a costly move: press Confirm when it does (or the move is in)."""
    accepted, hints = before
    body = "document.body.dataset"
    page.wait_for_function(
        f"() => Number({body}.accepted || 0) > {accepted} || Number({body}.hints || 0) > {hints}"
        " || !!document.getElementById('confirm-move')"
    )
    if page.locator("#confirm-move").count():
        page.locator("#confirm-move").click()


def wait_text(page, selector: str, text: str) -> None:
    """Wait until the element's text is ``text`` (the page translates itself once its catalogue is in)."""
    page.wait_for_function(
        "([sel, text]) => document.querySelector(sel)?.textContent.trim() === text", arg=[selector, text]
    )


def no_overflow(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide at {page.viewport_size['width']}"


# -- each game's controls, for one action --------------------------------------------------------------


def ttb_move(page, action: dict[str, Any], state: dict[str, Any]) -> None:
    """Make a Twin Tin Bots move with the table's controls: stage it (its preview appears), then confirm."""
    mine = ".colour-panel.mine"
    kind = action["type"]
    if kind == "place":
        page.locator(f"{mine} [data-legal=tile][data-tile={action['tile']}]").click()
        page.locator(f"{mine} [data-legal=slot][data-slot='{action['slot']}']").click()
    elif kind == "swap":
        page.locator(f"{mine} [data-slot='{action['slot_a']}']").click()
        page.locator(f"{mine} [data-slot='{action['slot_b']}']").click()
    elif kind == "remove":
        page.locator(f"{mine} [data-slot='{action['slot']}']").click()
        page.locator("[data-change=remove]").click()
    elif kind == "reset":
        page.locator(f"{mine} [data-reset='{action['robot']}']").click()
    elif kind in ("pass", "double_modification"):
        page.locator(f"[data-change={kind}]").click()
    elif kind == "zap_order":
        page.locator(f"[data-legal=zap][data-order={action['order']}]").click()
    elif kind == "move_blob":
        page.locator(f".arena [data-legal=blob-arrow][data-direction={action['direction']}]").click()
    elif kind == "place_crystal":
        q, r = action["hex"]
        page.locator(f".arena .target-ring[data-target='{q},{r}']").click()
    else:
        raise AssertionError(f"no control for {action}")
    page.wait_for_selector(".preview-panel[data-preview=ready]")
    page.locator("#commit").click()


def ttb_wrong(page) -> None:
    """A legal move that is not the first lesson's goal: Forward 2x on A1 (the step asks for Forward 1x)."""
    ttb_move(page, {"type": "place", "slot": 0, "tile": "forward_2"}, {})


def tf22_move(page, action: dict[str, Any], state: dict[str, Any]) -> None:
    """Make a TF22 move with the table's controls: a card of the hand, the R card's uses, the load choices."""
    kind = action["type"]
    if kind == "play":
        page.locator(f".hand [data-legal='play'][data-value='{action['value']}']").click()
    elif kind.startswith("r_"):
        page.locator("[data-rcard]").click()
        k = [a for a in state["legal"] if a["type"] == kind].index(action)
        page.locator(f".r-panel [data-focus='r:{kind}:{k}']").click()
    elif kind == "load":
        page.locator(f".load-area [data-focus='load-btn:{action['slot']}']").click()
    elif kind == "reload":
        k = [a for a in state["legal"] if a["type"] == kind].index(action)
        page.locator(f".load-area [data-focus='reload:{k}']").click()
    elif kind == "return":
        page.locator(".load-area [data-focus='return']").click()  # with other choices open it asks once more
        page.locator(".load-area [data-legal='return']").click()
    else:
        raise AssertionError(f"no control for {action}")


def tf22_wrong(page) -> None:
    """A legal card that is not the first lesson's goal: the 1, which loses to the opponent's 4."""
    page.locator(".hand [data-legal='play'][data-value='1']").click()


#: Robots on the Line's controls for each kind of move: the selectors clicked in turn (filled in from the action).
ROTL_CLICKS: dict[str, list[str]] = {
    "take_part": ["[data-take='{line}-{space}']"],
    "flip_switch": ["[data-switch='{line}-{section}']"],
    "search_junk": ["[data-show-pile='{pile}']", "[data-pile-list='{pile}'] [data-search='{part}']"],
    "trade_junk": ["[data-trade-pile='{pile}']", "[data-hand='{part}'].legal"],
    "take_torso": ["#take-torso"],
    "swap_torso": ["#swap-torso"],
    "choose_torso": ["#choose-torso", "[data-choose='{torso}']"],
    "sell_part": ["[data-hand='{part}']", "[data-sell-part='{part}']"],
    "accept": ["[data-accept='{offer}']"],
    "decline": ["[data-decline='{offer}']"],
    "stop_picking": ["[data-pick='stop_picking']"],
    "end_turn": ["#end-turn"],
}


#: The robots built by hand on the workbench, as the lesson's step says ("put the head above the torso, the
#: base below and the hand on the right"): each part of the tray, then its cell (x right, y down; the
#: torso at 0,0). The other lessons' robots are built with the Suggest button.
BUILD: dict[str, list[tuple[str, int, int]]] = {"sell": [("head-02", 0, -1), ("base-10", 0, 1), ("hand-20", 1, 0)]}


def build(page, parts: list[tuple[str, int, int]]) -> None:
    """Pick each part up from the workbench's tray and put it down on its cell, with a person's clicks."""
    for part, x, y in parts:
        page.locator(f"#bench-tray [data-tray='{part}']").click()
        page.wait_for_selector(f"#bench-grid[data-carrying='{part}']")
        page.locator(f"#bench-grid [data-cell='{x},{y}']").click()  # scrolled to, and what a click there hits
        page.wait_for_selector(f"#bench-grid [data-placed='{part}']")
    page.wait_for_selector("#bench-measures[data-state=ready][data-finished='1']")


def rotl_move(page, action: dict[str, Any], state: dict[str, Any]) -> None:
    """Make a Robots on the Line move with the table's controls (and its Confirm for costly moves)."""
    kind = action["type"]
    before = answers(page)
    if kind in ROTL_CLICKS:
        for selector in ROTL_CLICKS[kind]:
            page.locator(selector.format(**action)).click()
    elif kind == "flip_switches":
        for line, section in (action["on"], action["off"]):
            page.locator(f"[data-switch='{line}-{section}']").click()
    elif kind == "sell_robot":  # the workbench: built by hand as the step says, or the helper's suggestion
        page.locator("#open-bench").click()
        page.wait_for_selector("#bench-measures[data-state=ready]")
        page.wait_for_function("() => document.body.dataset.evaluating !== '1'")
        if state["lesson"] in BUILD:
            build(page, BUILD[state["lesson"]])
        else:
            page.locator("#suggest").click()
            page.locator(f"[data-suggestion='{action['buyer']}']").click()
        page.locator(f"[data-bench-buyer='{action['buyer']}'] [data-sell]").click()
    elif kind == "offer":
        page.locator(f"[data-offer-to='{action['to']}']").click()
        for side, parts in ((0, action["give"]), (1, action["take"])):
            for part in parts:
                page.locator(".offer-side").nth(side).locator(f"[data-pick='{part}']").click()
        page.locator("#send-offer").click()
    elif kind == "pick_junk":
        k = [a for a in state["legal"] if a["type"] == kind].index(action)
        page.locator("[data-pick='pick_junk']").nth(k).click()
    else:
        raise AssertionError(f"no control for {action}")
    confirm_if_asked(page, before)


def rotl_wrong(page) -> None:
    """A legal move that is not the first lesson's goal: taking the top torso (the step asks for a part)."""
    before = answers(page)
    page.locator("#take-torso").click()
    confirm_if_asked(page, before)


MOVES: dict[str, Callable[[Any, dict[str, Any], dict[str, Any]], None]] = {
    "twin-tin-bots": ttb_move,
    "tf22-reload": tf22_move,
    "robots-on-the-line": rotl_move,
}
WRONG: dict[str, Callable[[Any], None]] = {
    "twin-tin-bots": ttb_wrong,
    "tf22-reload": tf22_wrong,
    "robots-on-the-line": rotl_wrong,
}


# -- a newcomer's tutorial --------------------------------------------------------------------------------


def do_tutorial(server: Any, page, game: str, shots: str, lang: str = "en", via: str = "list") -> None:
    """From the signed-out lobby, the game's tutorial, lesson after lesson, to its last screen: through the
    welcome's 'Learn to play' and the list of games (``via="list"``), or the game's own tutorial link
    beside its rules (``via="game"``)."""
    page.goto(server.url + "/")
    page.wait_for_selector("#welcome:not([hidden])")
    if via == "list":
        wait_text(page, "#welcome-learn", translate("app:welcome.learn", lang=lang))
        page.locator("#welcome-learn").click()
        page.wait_for_selector("body[data-ready='1'] #tutorial-games h1")
        wait_text(page, "#tutorial-games h1", translate("app:tutorial.title", lang=lang))
        no_overflow(page)
        assert_no_contrast_violations(page, "#tutorial-games")
        page.locator(f"[data-start='{game}']").click()
    else:
        page.locator(f"#welcome [data-learn='{game}']").click()
    page.wait_for_selector("body[data-ready='1'] #tutorial-text")
    lessons = httpx.get(f"{server.url}/api/tutorials/{game}", timeout=30).json()["lessons"]
    wrong_tried = False
    for k, lesson in enumerate(lessons):
        page.wait_for_function(f"() => location.search.includes('lesson={lesson['id']}')")
        page.wait_for_selector("body[data-ready='1'] #tutorial-text")
        assert page.locator("#tutorial-lesson-title").inner_text().strip()
        moves: list[dict[str, Any]] = []
        if not wrong_tried:  # a legal move that is not the step's: not played, the step's hint instead
            WRONG[game](page)
            page.wait_for_selector("#tutorial-hint")
            assert page.evaluate("document.body.dataset.step") == "0"
            wrong_tried = True
        for n in range(len(lesson["steps"])):
            text = page.locator("#tutorial-text").inner_text()
            assert text and "tutorial." not in text, text  # a catalogue text, not a key
            key = f"{game}:tutorial.{lesson['id']}.{lesson['steps'][n]}.text"
            assert text == translate(key, lang=lang), (text, key)
            state = lesson_state(server, game, lesson["id"], moves)
            action = state["expected"][0]
            MOVES[game](page, action, state)
            moves.append(action)
            page.wait_for_function(f"() => document.body.dataset.accepted === '{n + 1}'")
            page.wait_for_selector("#tutorial-done")
            page.wait_for_function("() => !document.body.dataset.animating")
            no_overflow(page)
        page.wait_for_selector("#tutorial-finished")
        page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
        if k == 0:
            page.screenshot(path=str(ARTIFACTS / f"{shots}-lesson-done.png"), full_page=True)
            assert_no_contrast_violations(page, "#tutorial-guide")
        page.locator("#tutorial-next").click()
    page.wait_for_selector("body[data-ready='1'] .tutorial-cards")  # the last lesson's button: every tutorial
    assert page.locator(f"[data-game='{game}'] li.done").count() == len(lessons)  # kept in this browser
    page.screenshot(path=str(ARTIFACTS / f"{shots}-all-done.png"), full_page=True)


@pytest.mark.parametrize("game", ["twin-tin-bots", "tf22-reload", "robots-on-the-line"])
@pytest.mark.parametrize(
    ("viewport", "locale", "via"),
    [(LAPTOP, "en-US", "game"), (PHONE, "ja-JP", "list")],
    ids=["laptop-en", "phone-ja"],
)
def test_a_newcomer_does_the_tutorial_to_the_end(server, browser, game: str, viewport, locale: str, via: str) -> None:
    """The page's language is the browser's: English on the laptop, Japanese on the phone (the steps'
    texts, the table and the buttons)."""
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport=viewport, locale=locale)
    try:
        page = context.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        lang = locale[:2]
        do_tutorial(server, page, game, f"tutorial-{game}-{viewport['width']}-{lang}", lang=lang, via=via)
        assert page.evaluate("document.documentElement.lang") == lang
        assert errors == [], json.dumps(errors)
    finally:
        context.close()
