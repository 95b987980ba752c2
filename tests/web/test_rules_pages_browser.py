"""The Twin Tin Bots and TF22: RELOAD! rules pages in Debian's chromium (Playwright), issue 17: each is in
the language the app chose (the `lang` cookie, as the header's switch sets it), every text from the
game's catalogue: in Japanese no raw key and no English left (names aside), on a phone (390x844) no wider
than the screen, with no WCAG AA contrast violation. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re

import pytest
from axe import axe_violations, describe
from test_server_browser import ARTIFACTS, signed_in_page, watch_errors

PHONE = {"width": 390, "height": 844}
PAGES = {
    "twin-tin-bots": {
        "path": "/static/games/twin-tin-bots-rules.html",
        "ready": "() => document.querySelectorAll('#rules .tile-row .tile-icon').length === 21",
        "heading": {"en": "Twin Tin Bots: how to play", "ja": "双子のブリキロボの遊び方"},
        "title": {"en": "Twin Tin Bots: rules · Robotable", "ja": "双子のブリキロボ：ルール · Robotable"},
        "words": {
            "en": ["Long Range Zap", "Double Modif.", "Commit and run", "Advanced 2 players"],
            "ja": ["長距離攻撃!", "二重調整", "確定して実行", "特殊命令タイル", "2人用上級ヴァリアント", "泥"],
        },
    },
    "tf22-reload": {
        "path": "/static/games/tf22-reload-rules.html",
        "ready": "() => true",
        "heading": {"en": "TF22: RELOAD!: how to play", "ja": "TF22: RELOAD!の遊び方"},
        "title": {"en": "TF22: RELOAD!: rules · Robotable", "ja": "TF22: RELOAD!：ルール · Robotable"},
        "words": {
            "en": ["The R card", "Strict moves", "never onto an empty slot", "Undo"],
            "ja": ["Rカード", "厳密な移動", "空きスロットには置けません", "元に戻す", "チップカード"],
        },
    },
}
RAW_KEY = re.compile(r"\b(?:app|twin-tin-bots|tf22-reload|robots-on-the-line):[\w.]+")
# Latin words a Japanese rules page may show: names (the site, the game, RCU cards, the Zap tile) and keys.
LATIN_IN_JAPANESE = {"Robotable", "TF", "RELOAD", "RCU", "Zap", "Tab", "Enter"}
# The text a person reads, without <code> (a file path reads the same in every language) and the language
# switch (each language named in itself).
READ_TEXT = """() => {
  const body = document.body.cloneNode(true);
  body.querySelectorAll("code, kbd, script, style, .language-switch").forEach((n) => n.remove());
  const walk = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
  const parts = [];
  while (walk.nextNode()) parts.push(walk.currentNode.data);
  return parts.join(" ");
}"""


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", list(PAGES))
def test_rules_page_in_the_apps_language(server_factory, browser, game: str, lang: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    spec = PAGES[game]
    server = server_factory(bot_delay=0.0)
    errors: list[str] = []
    page, _ = signed_in_page(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    watch_errors(page, errors)
    page.goto(server.url + spec["path"])
    page.wait_for_selector("header.topbar #language-switch")  # i18n.js has translated the page
    page.wait_for_function(spec["ready"])

    assert page.evaluate("document.documentElement.lang") == lang
    assert page.input_value("#language-switch") == lang
    assert page.inner_text("header.topbar .title") == spec["heading"][lang]
    assert page.title() == spec["title"][lang]
    text = page.evaluate(READ_TEXT)
    assert not RAW_KEY.findall(text)
    for words in spec["words"][lang]:
        assert words in text, words
    if lang == "ja":
        latin = set(re.findall(r"[A-Za-z]{2,}", text)) - LATIN_IN_JAPANESE
        assert not latin, f"English left on the Japanese page: {sorted(latin)}"
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"the page is {widths[0]} px wide in a {widths[1]} px viewport"
    found = axe_violations(page)
    assert not found, f"WCAG AA contrast violations:\n{describe(found)}"
    page.screenshot(path=str(ARTIFACTS / f"rules-{game}-phone-{lang}.png"), full_page=True)
    assert not errors, errors
