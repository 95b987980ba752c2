"""Issue 33, in Debian's chromium: a newcomer does each game's tutorial to the end, signed out, from the
lobby's link, on a laptop and on a 390x844 phone (no page wider than the screen), in English and one
game in Japanese. Each step is played with the game's own controls, as a person would: the test asks
the API which move the step waits for (POST /api/tutorials/{game}/{lesson}/state with the moves made so
far) and makes it by clicking; one wrong move per game first gets the step's hint. The API's answers are
checked in tests/server/test_tutorial_api.py, every lesson's consistency in tests/core/test_tutorials.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from test_server_browser import ARTIFACTS, browser, watch_errors  # noqa: F401  (the browser fixture)

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}


def expected(server: Any, game: str, lesson: str, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The move the lesson's current step waits for, after ``moves`` (the first the server lists)."""
    answer = httpx.post(f"{server.url}/api/tutorials/{game}/{lesson}/state", json={"moves": moves}, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()["expected"][0]


def no_overflow(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide at {page.viewport_size['width']}"


# -- each game's controls, for one action --------------------------------------------------------------


def ttb_move(page, action: dict[str, Any]) -> None:
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
    ttb_move(page, {"type": "place", "slot": 0, "tile": "forward_2"})


MOVES: dict[str, Callable[[Any, dict[str, Any]], None]] = {"twin-tin-bots": ttb_move}
WRONG: dict[str, Callable[[Any], None]] = {"twin-tin-bots": ttb_wrong}


# -- a newcomer's tutorial --------------------------------------------------------------------------------


def do_tutorial(server: Any, page, game: str, shots: str) -> None:
    """From the signed-out lobby, the game's tutorial, lesson after lesson, to its last screen."""
    page.goto(server.url + "/")
    page.wait_for_selector("#welcome:not([hidden])")
    page.locator("#tutorial-link").click()  # the header's link: every game's tutorial
    page.wait_for_selector("body[data-ready='1']")
    no_overflow(page)
    page.locator(f"[data-start='{game}']").click()
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
            action = expected(server, game, lesson["id"], moves)
            MOVES[game](page, action)
            moves.append(action)
            page.wait_for_function(f"() => document.body.dataset.accepted === '{n + 1}'")
            page.wait_for_selector("#tutorial-done")
            page.wait_for_function("() => !document.body.dataset.animating")
            no_overflow(page)
        page.wait_for_selector("#tutorial-finished")
        if k == 0:
            page.screenshot(path=str(ARTIFACTS / f"{shots}-lesson-done.png"), full_page=True)
        page.locator("#tutorial-next").click()
    page.wait_for_selector("body[data-ready='1'] .tutorial-cards")  # the last lesson's button: every tutorial
    assert page.locator(f"[data-game='{game}'] li.done").count() == len(lessons)  # kept in this browser
    page.screenshot(path=str(ARTIFACTS / f"{shots}-all-done.png"), full_page=True)


@pytest.mark.parametrize("game", ["twin-tin-bots"])
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_newcomer_does_the_tutorial_to_the_end(server_factory, browser, game: str, viewport) -> None:  # noqa: F811
    ARTIFACTS.mkdir(exist_ok=True)
    server = server_factory()
    context = browser.new_context(viewport=viewport, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    do_tutorial(server, page, game, f"tutorial-{game}-{viewport['width']}")
    assert errors == [], json.dumps(errors)
