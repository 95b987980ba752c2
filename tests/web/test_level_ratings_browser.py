"""Issue 29 in Debian's chromium: the bot levels' arena ratings beside their names ("ISMCTS hard, rated 2690")
in the lobby's level choice (for the chosen game) and table list and on the table page, and the players'
page "How the bots think", reached from the lobby, in English and in Japanese."""

from __future__ import annotations

import json

import pytest
from axe import assert_no_contrast_violations
from people import new_table
from test_i18n_browser import english_left
from test_server_browser import ARTIFACTS, signed_in_page, watch_errors
from test_server_browser import browser as chromium

from robotable.server import levels
from robotable.server.rating_scale import display_rating

browser = chromium  # the fixture (Debian's chromium)

HUMAN = {"kind": "human", "name": "Ada"}


def rating(game: str, level: str) -> int:
    """The rating shown for a level in a game, from the shipped data file: mu - 3 sigma on the 1500-based
    scale (the levels have played far more than the provisional games)."""
    data = json.loads(levels.PATH.read_text(encoding="utf-8"))["games"]
    return display_rating(data[game]["levels"][level]["ordinal"])


def option_text(page, level: str) -> str:
    return page.inner_text(f"#seats-fields .seat-row >> nth=1 >> [name=difficulty] >> option[value='{level}']")


def wait_for_option(page, level: str, text: str) -> None:
    """Wait until the level choice offers ``level`` as ``text`` (it is redrawn when the game changes)."""
    options = "[...document.querySelectorAll(`[name=difficulty] option[value='${v}']`)]"
    found = f"([v, t]) => {options}.some(o => o.text === t)"
    page.wait_for_function(found, arg=[level, text])


@pytest.mark.parametrize(
    ("locale", "rated", "heading"),
    [
        ("en-US", "ISMCTS hard, rated {r}", "How the bots think"),
        ("ja-JP", "ISMCTS（強い）・レート{r}", "ボットの考え方"),
    ],
    ids=["en", "ja"],
)
def test_the_lobby_shows_each_levels_rating_and_the_bots_page_opens(server_factory, browser, locale, rated, heading):
    ARTIFACTS.mkdir(exist_ok=True)
    server = server_factory(bot_delay=0.0)
    errors: list[str] = []
    page, token = signed_in_page(browser, server, "Ada", locale=locale, viewport={"width": 1280, "height": 900})
    watch_errors(page, errors)
    made = new_table(server, [HUMAN, {"kind": "bot", "difficulty": "ismcts:hard"}], game="twin-tin-bots", creator=token)
    table = made["table"]["id"]

    # the level choice names each level's rating in the chosen game, and follows the game
    page.goto(server.url + "/")
    page.wait_for_selector("#seats-fields .seat-row >> nth=1")
    page.select_option("#game-select", "twin-tin-bots")
    wait_for_option(page, "ismcts:hard", rated.format(r=rating("twin-tin-bots", "ismcts:hard")))
    assert option_text(page, "ismcts:hard") == rated.format(r=rating("twin-tin-bots", "ismcts:hard"))
    page.select_option("#game-select", "tf22-reload")
    want = rated.format(r=rating("tf22-reload", "ismcts:hard"))
    wait_for_option(page, "ismcts:hard", want)
    assert option_text(page, "ismcts:hard") == want

    # the table list: the bot's badge carries its rating in that table's game
    badge = page.locator(f"[data-table='{table}'] .seat-badge.bot")
    badge.wait_for()
    assert rated.format(r=rating("twin-tin-bots", "ismcts:hard")) in badge.inner_text()

    # the page "How the bots think", from the lobby's seat choice
    page.click("#bots-help-link")
    page.wait_for_url("**/static/bots.html")
    page.wait_for_selector("#level-ratings")
    assert page.inner_text("#bots-title") == heading
    cell = page.locator("#level-ratings tr[data-level='ismcts:hard'] td[data-game='twin-tin-bots']")
    assert cell.inner_text() == str(rating("twin-tin-bots", "ismcts:hard"))
    for section in ("#level-random", "#level-heuristic", "#level-search", "#ratings"):
        assert page.locator(section).inner_text().strip()
    if locale == "ja-JP":
        assert english_left(page, "#bots-page") == []
        assert "サンプリング" in page.inner_text("#level-search")
    else:
        assert "never looks at the real hidden cards" in page.inner_text("#level-search")
    assert_no_contrast_violations(page, "#bots-page")
    page.screenshot(path=str(ARTIFACTS / f"bots-page-{locale}.png"), full_page=True)

    # the table page: the bot seat's tag
    page.goto(f"{server.url}/table/{table}?seat=0")
    tag = page.locator("#seats .tag.bot")
    tag.wait_for()
    assert rated.format(r=rating("twin-tin-bots", "ismcts:hard")) in tag.inner_text()
    assert errors == []
    page.context.close()
