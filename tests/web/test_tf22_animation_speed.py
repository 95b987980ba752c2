"""TF22: RELOAD!'s animation speed in Debian's chromium (Playwright), issue 17: the table offers the same
speeds as Twin Tin Bots (0.5x, 1x, 2x, 4x), keeps the choice in this browser across a reload, and the
choice scales the durations the browser applies to the card flips; a replay step flips the revealed
cards too, at the speed chosen there."""

from __future__ import annotations

from people import finished_bot_table, new_table
from test_server_browser import signed_in_page, watch_errors

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}
FLIPPED = ".tf22.anim-flip .revealed .cc-card"


def scale(page) -> str:
    return page.evaluate("getComputedStyle(document.querySelector('.tf22')).getPropertyValue('--anim-scale').trim()")


def step_until_a_flip(page) -> str:
    """Step the replay on until a step flips the revealed cards; answer the flip's animation-duration."""
    for _ in range(40):
        page.click("#next")
        if page.locator(FLIPPED).count():
            return page.evaluate(f"getComputedStyle(document.querySelector('{FLIPPED}')).animationDuration")
    raise AssertionError("no replay step flipped the revealed cards")


def test_the_speed_control_is_kept_and_scales_the_table(server_factory, browser) -> None:
    server = server_factory(bot_delay=0.0)
    errors: list[str] = []
    page, me = signed_in_page(browser, server, viewport={"width": 390, "height": 844})
    watch_errors(page, errors)
    made = new_table(server, [HUMAN, BOT], game="tf22-reload", creator=me)
    page.goto(server.url + made["links"]["0"])
    page.wait_for_selector(".rcu-card[data-legal]")
    options = page.eval_on_selector_all("#tf22-speed option", "os => os.map(o => o.value)")
    assert options == ["0.5", "1", "2", "4"]
    assert page.input_value("#tf22-speed") == "1" and scale(page) == "1"
    assert page.inner_text("label.speed-control").startswith("Animation speed")
    page.select_option("#tf22-speed", "2")
    assert page.evaluate("localStorage.getItem('tf22-speed')") == "2"
    assert scale(page) == "0.5"  # applied at once, without waiting for the next view
    page.reload()
    page.wait_for_selector(".rcu-card[data-legal]")
    assert page.input_value("#tf22-speed") == "2" and scale(page) == "0.5"
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    assert not errors, errors


def test_a_replay_step_animates_at_the_speed_chosen(server_factory, browser) -> None:
    server = server_factory(bot_delay=0.0)
    errors: list[str] = []
    page, me = signed_in_page(browser, server, viewport={"width": 1366, "height": 768})
    table = finished_bot_table(server, "tf22-reload", me)
    watch_errors(page, errors)
    page.goto(f"{server.url}/replay/{table}")
    page.wait_for_selector("#board .tf22")
    assert step_until_a_flip(page) == "0.45s"  # 1x: the stylesheet's own duration
    page.select_option("#tf22-speed", "2")
    assert step_until_a_flip(page) == "0.225s"
    page.select_option("#tf22-speed", "0.5")
    assert step_until_a_flip(page) == "0.9s"
    page.reload()
    page.wait_for_selector("#board .tf22")
    assert page.input_value("#tf22-speed") == "0.5"
    assert not errors, errors
