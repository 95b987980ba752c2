"""The site shell in Japanese and English in Debian's chromium (Playwright), issue 17.

A browser whose language is Japanese (context locale ja-JP) gets the lobby and a table in Japanese
(`<html lang="ja">`, the catalogue's texts, the games' Japanese names and option labels); the header's
switch changes the language (a cookie) and the page follows. The lobby groups its tables (yours, open to
join, being played); a table with one person seat says it is ready without a stray "null"; the lobby is
no wider than the viewport at 1366x768 and 390x844; axe-core finds no WCAG AA contrast violation on the
lobby, the account, my-tables and leaderboard pages and the table's shell, in both languages.
Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re

import pytest
from axe import assert_no_contrast_violations
from people import new_table
from test_server_browser import ARTIFACTS, signed_in_page, watch_errors
from test_server_browser import browser as chromium

from robotable.core.i18n import translate

browser = chromium  # the fixture (Debian's chromium)

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
HUMAN = {"kind": "human", "name": "Ada"}
BOT = {"kind": "bot", "difficulty": "random"}


#: English that may stay on a Japanese page: names, titles, codes.
ALLOWED = ["Robotable", "API", "TF22: RELOAD!", "Robots on the Line", "ISMCTS", "ON/OFF", "Ada", "Plackett-Luce"]
ENGLISH = re.compile(r"[A-Za-z]{3,}(?:[ '-][A-Za-z]{2,})+")


def english_left(page, selector: str, ids: tuple[str, ...] = ()) -> list[str]:
    """Runs of English words in the text of ``selector`` (all matches), names and ids aside."""
    text = "\n".join(page.locator(selector).all_inner_texts())
    for word in [*ALLOWED, *ids]:
        text = text.replace(word, " ")
    return ENGLISH.findall(text)


def no_wider_than_the_viewport(page) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] == widths[1], f"document {widths[0]} px wide in a {widths[1]} px viewport"


def test_lobby_and_table_in_japanese_and_the_switch(server_factory, browser) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    server = server_factory(bot_delay=0.05)
    errors: list[str] = []
    page, token = signed_in_page(browser, server, "Ada", locale="ja-JP", viewport=SIZES["laptop"])
    watch_errors(page, errors)
    made = new_table(server, [HUMAN, BOT], game="twin-tin-bots", creator=token)
    table = made["table"]["id"]
    other = new_table(server, [{"kind": "open"}, BOT], game="tf22-reload")  # someone else's, a seat open

    # the lobby, in Japanese: header, form, the games' Japanese names, option labels from the catalogue
    page.goto(server.url + "/")
    page.wait_for_selector("#tables-list .table-row")
    assert page.get_attribute("html", "lang") == "ja"
    assert page.inner_text("#create-button") == "テーブルを作成"
    assert page.inner_text("#create-panel h2") == "新しいテーブル"
    assert page.title() == "Robotable：ロビー"
    assert "双子のブリキロボ" in page.inner_text("#game-select")
    page.select_option("#game-select", "robots-on-the-line")
    options = page.inner_text("#options-fields")
    assert "ON/OFFヴァリアント" in options and "on_off_variant" not in options
    assert "ファミリーモード" in options
    assert page.inner_text("#seats-fields .seat-row >> nth=0 >> .seat-no") == "1番席"

    # grouped: my table under "your tables", the other under "open tables to join"
    mine = page.locator("[data-group=mine]")
    assert "あなたのテーブル" in mine.inner_text()
    assert mine.locator(f"[data-table='{table}']").count() == 1
    open_group = page.locator("[data-group=open]")
    assert "参加できるテーブル" in open_group.inner_text()
    assert open_group.locator(f"[data-table='{other['table']['id']}']").count() == 1
    assert "1番席に着く" in open_group.inner_text()
    ids = (table, other["table"]["id"])
    assert english_left(page, "body", ids) == []
    page.screenshot(path=str(ARTIFACTS / "i18n-lobby-ja-laptop.png"), full_page=True)
    assert_no_contrast_violations(page)

    # the table page's shell in Japanese
    page.goto(server.url + f"/table/{table}?seat=0")
    page.wait_for_function("() => document.body.dataset.moves !== undefined")
    assert page.get_attribute("html", "lang") == "ja"
    assert page.inner_text(".log-panel h3") == "ゲームログ"
    assert page.inner_text("#seats").count("ボット") >= 1
    page.wait_for_selector("#turn .turn-text")
    assert page.inner_text("#connection") == "ライブ"
    turn = page.inner_text("#turn")
    assert "あなたの手番です。" in turn or "手番を待っています" in turn, turn
    assert "あなたはAda（1番席）です。" in turn
    shell = "header.topbar, #turn, #controls, #seats, .log-panel h3, #chat"
    assert english_left(page, shell, ids) == []
    page.screenshot(path=str(ARTIFACTS / "i18n-table-ja-laptop.png"), full_page=True)
    assert_no_contrast_violations(page, "#turn")

    # the switch: English, remembered for the next pages
    with page.expect_navigation():
        page.select_option("#language-switch", "en")
    page.wait_for_selector("#turn .turn-text")
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text(".log-panel h3") == "Game log"
    assert "You play Ada (seat 1)." in page.inner_text("#turn")
    page.goto(server.url + "/")
    page.wait_for_selector("#tables-list .table-row")
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text("#create-button") == "Create table"
    assert "Your tables" in page.inner_text("[data-group=mine]")
    with page.expect_navigation():
        page.select_option("#language-switch", "ja")
    page.wait_for_selector("html[lang=ja]")
    page.wait_for_selector("#create-button:text('テーブルを作成')")
    assert errors == []


def test_a_table_with_one_person_seat_is_ready_without_null(server_factory, browser) -> None:
    server = server_factory(bot_delay=0.05)
    for locale, ready in (("en-US", "is ready"), ("ja-JP", "の準備ができました")):
        page, _ = signed_in_page(browser, server, "Ada", locale=locale, viewport=SIZES["laptop"])
        page.goto(server.url + "/")
        page.wait_for_selector("#seats-fields .seat-row")
        page.select_option("#game-select", "tf22-reload")
        page.select_option("#players-select", "2")
        page.select_option("#seats-fields .seat-row >> nth=1 >> [name=kind]", "bot")
        page.click("#create-button")
        page.wait_for_selector("#created h3")
        text = page.inner_text("#created")
        assert ready in text and "null" not in text, text
        assert page.locator("#created .invite").count() == 0
        page.context.close()


@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_shell_pages_fit_the_screen_and_pass_the_contrast_check(server_factory, browser, size, locale) -> None:
    server = server_factory(bot_delay=0.05)
    page, token = signed_in_page(browser, server, "Ada", locale=locale, viewport=SIZES[size])
    errors: list[str] = []
    watch_errors(page, errors)
    new_table(server, [HUMAN, BOT], game="tf22-reload", creator=token)
    new_table(server, [{"kind": "open"}, BOT], game="robots-on-the-line")
    page.goto(server.url + "/")
    page.wait_for_selector("#tables-list .table-row")
    page.wait_for_selector("#seats-fields .seat-row")
    no_wider_than_the_viewport(page)
    page.screenshot(path=str(ARTIFACTS / f"i18n-lobby-{locale}-{size}.png"), full_page=True)
    assert_no_contrast_violations(page)
    pages = (("/account", "#account-page form"), ("/my", "#my-tables .table-row"), ("/leaderboard", "#board p"))
    for path, ready in pages:
        page.goto(server.url + path)
        page.wait_for_selector(ready)
        no_wider_than_the_viewport(page)
        assert_no_contrast_violations(page)
        if locale == "ja-JP":
            assert english_left(page, "body") == [], path
    assert errors == []


def test_a_refusal_toast_names_the_part_and_the_pile_in_japanese(server_factory, browser) -> None:
    """A refused move (over HTTP and over the table's websocket) reads in Japanese with the part's catalogue
    name and the junk pile counted from 1, as the Robots on the Line table names them (issue 17)."""
    server = server_factory(bot_delay=5.0)  # the bot waits: the position stays as the test reads it
    errors: list[str] = []
    page, token = signed_in_page(browser, server, "Ada", locale="ja-JP", viewport=SIZES["laptop"])
    watch_errors(page, errors)
    made = new_table(server, [HUMAN, BOT], game="robots-on-the-line", creator=token)
    table = made["table"]["id"]
    page.goto(server.url + f"/table/{table}?seat=0")
    page.wait_for_function("() => document.body.dataset.moves !== undefined")
    texts = page.evaluate(
        """async (table) => {
          const { api, socketUrl, toast } = await import("/static/js/api.js");
          const { errorText } = await import("/static/js/i18n.js");
          const state = await api(`/api/tables/${table}/state?seat=0`);
          const part = state.view.lines[0][0];  // on a line, so in no junk pile
          const action = { type: "search_junk", pile: 1, part };
          let http = null;
          try {
            await api(`/api/tables/${table}/moves`, { method: "POST", body: { seat: 0, action } });
          } catch (err) {
            http = err.message;
            toast(http);
          }
          const ws = new WebSocket(socketUrl(table, 0));
          const socket = await new Promise((resolve, reject) => {
            ws.onmessage = (event) => {
              const msg = JSON.parse(event.data);
              if (msg.type === "error") resolve(errorText({ code: msg.code, params: msg.params, detail: msg.message }));
              else if (msg.type === "snapshot") ws.send(JSON.stringify({ type: "move", action, after: msg.moves }));
            };
            ws.onerror = () => reject(new Error("the websocket failed"));
          });
          ws.close();
          return { part, http, socket };
        }""",
        table,
    )
    name = translate(f"robots-on-the-line:names.parts.{texts['part']}", lang="ja")
    expected = f"{name}はジャンク置き場2にありません"
    assert texts["http"] == expected, texts
    assert texts["socket"] == expected, texts
    toast = page.locator("#toasts .toast").last
    assert toast.inner_text() == expected
    assert texts["part"] not in toast.inner_text()  # never the engine's id
    page.screenshot(path=str(ARTIFACTS / "i18n-refusal-toast-ja.png"))
    assert [e for e in errors if "status of 409" not in e] == [], errors  # the refused POST is logged
