"""Issue 27, the lobby for someone who just arrived (Debian's chromium): signed out, the lobby says what
Robotable is, shows the three games with a picture and a link to each rules page, and "Play a bot now"
opens a table against a bot in one click; in English and in Japanese; it passes the contrast check."""

from __future__ import annotations

import pytest
from axe import assert_no_contrast_violations
from test_server_browser import ARTIFACTS, watch_errors
from test_server_browser import browser as chromium

browser = chromium  # the fixture (Debian's chromium)

RULES = ["tf22-reload", "twin-tin-bots", "robots-on-the-line"]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_newcomer_is_welcomed_and_plays_a_bot_in_one_click(server_factory, browser, size) -> None:
    server = server_factory(bot_delay=0.0)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server.url)
    page.wait_for_selector("#welcome:not([hidden])")
    assert "Robotable is the home of three robot board games" in page.inner_text("#welcome")
    links = page.eval_on_selector_all(
        ".welcome-games a:not([data-learn])", "links => links.map(a => a.getAttribute('href'))"
    )
    assert links == [f"/static/games/{g}-rules.html" for g in RULES]
    learn = page.eval_on_selector_all(".welcome-games a[data-learn]", "links => links.map(a => a.getAttribute('href'))")
    assert learn == [f"/tutorial/{g}" for g in RULES]  # each game's tutorial (issue 33)
    assert page.eval_on_selector_all(".welcome-games img", "imgs => imgs.every(i => i.complete && i.naturalWidth > 0)")
    assert_no_contrast_violations(page, "#welcome")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"welcome-{size[0]}.png"))
    for href in links:  # each rules page is there
        assert context.request.get(f"{server.url}{href}").status == 200
    page.click("#play-bot-now")  # one click: a guest, a table against a bot, and there
    page.wait_for_url("**/table/*?seat=0")
    page.wait_for_selector("#seats .tag.bot")
    page.wait_for_selector("[data-legal]")
    page.goto(server.url)
    page.wait_for_selector("#welcome[hidden]", state="attached")  # signed in now: the lobby as usual
    assert errors == []
    context.close()


def test_the_welcome_in_japanese(server_factory, browser) -> None:
    server = server_factory(bot_delay=0.0)
    context = browser.new_context(locale="ja-JP")
    page = context.new_page()
    page.goto(server.url)
    page.wait_for_selector("html[lang=ja]")
    page.wait_for_selector("#welcome:not([hidden])")
    assert "今すぐボットと遊ぶ" in page.inner_text("#play-bot-now")
    assert "Robotable は" in page.inner_text("#welcome")
    context.close()
