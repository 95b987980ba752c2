"""Robots on the Line's animation speed in Debian's chromium (Playwright), issue 17: the help panel offers
Off and the same speeds as Twin Tin Bots (0.5x, 1x, 2x, 4x), keeps the choice in this browser across a
reload (Off is still the older switch's "rotl-animations" = "off"), and the choice scales the durations
the browser applies to the line's slide; a replay step slides the line at the speed chosen, and none
slides with Off."""

from __future__ import annotations

from people import finished_bot_table, new_table
from test_server_browser import signed_in_page, watch_errors

GAME = "robots-on-the-line"
BOT = {"kind": "bot", "difficulty": "random"}
SLID = ".rotl-spaces.slide .rotl-space .tile-svg"


def scale(page) -> str:
    return page.evaluate("getComputedStyle(document.querySelector('.rotl')).getPropertyValue('--anim-scale').trim()")


def open_help(page) -> None:
    page.click("#rotl-help-toggle")
    page.wait_for_selector("#rotl-speed")


def step_until_a_slide(page, steps: int = 60) -> str | None:
    """Step the replay on until a step slides a line; answer the slide's animation-duration (None: no slide)."""
    for _ in range(steps):
        page.click("#next")
        if page.locator(SLID).count():
            return page.evaluate(f"getComputedStyle(document.querySelector('{SLID}')).animationDuration")
    return None


def test_the_speed_control_at_the_table(server_factory, browser) -> None:
    server = server_factory(bot_delay=0.0)
    errors: list[str] = []
    page, me = signed_in_page(browser, server, viewport={"width": 390, "height": 844})
    watch_errors(page, errors)
    made = new_table(server, [{"kind": "human", "name": "Ada"}, BOT], game=GAME, creator=me)
    page.goto(server.url + made["links"]["0"])
    page.wait_for_selector("#board .rotl-lines")
    open_help(page)
    options = page.eval_on_selector_all("#rotl-speed option", "os => os.map(o => [o.value, o.textContent])")
    times = "\u00d7"  # the multiplication sign after each speed
    assert options == [["0", "Off"], *([v, v + times] for v in ("0.5", "1", "2", "4"))]
    assert page.input_value("#rotl-speed") == "1" and scale(page) == "1"
    page.select_option("#rotl-speed", "4")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'rotl-speed'")
    assert page.evaluate("[localStorage.getItem('rotl-speed'), localStorage.getItem('rotl-animations')]") == ["4", "on"]
    assert scale(page) == "0.25"
    page.reload()
    page.wait_for_selector("#board .rotl-lines")
    assert scale(page) == "0.25"
    open_help(page)
    assert page.input_value("#rotl-speed") == "4"
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    assert not errors, errors


def test_a_replay_step_slides_at_the_speed_chosen_and_not_when_off(server_factory, browser) -> None:
    server = server_factory(bot_delay=0.0)
    errors: list[str] = []
    page, me = signed_in_page(browser, server, viewport={"width": 1366, "height": 768})
    table = finished_bot_table(server, GAME, me)
    watch_errors(page, errors)
    page.goto(f"{server.url}/replay/{table}")
    page.wait_for_selector("#board .rotl-lines")
    open_help(page)
    assert step_until_a_slide(page) == "0.35s"  # 1x: the stylesheet's own duration
    page.select_option("#rotl-speed", "2")
    assert step_until_a_slide(page) == "0.175s"
    page.select_option("#rotl-speed", "0.5")
    assert step_until_a_slide(page) == "0.7s"
    page.select_option("#rotl-speed", "0")
    assert page.evaluate("localStorage.getItem('rotl-animations')") == "off"
    assert step_until_a_slide(page, 30) is None, "a line slid with the animations off"
    page.reload()
    page.wait_for_selector("#board .rotl-lines")
    open_help(page)
    assert page.input_value("#rotl-speed") == "0"
    page.select_option("#rotl-speed", "1")  # on again: the older switch's key says so
    assert page.evaluate("localStorage.getItem('rotl-animations')") == "on"
    assert not errors, errors
