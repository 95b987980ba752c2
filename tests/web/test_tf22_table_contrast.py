"""WCAG AA contrast on the TF22: RELOAD! and Twin Tin Bots tables (issue 17): axe-core (tests/web/axe.py)
finds no colour-contrast violation on either table mid-game, on a laptop and a phone screen, in English
and Japanese, nor on their end screens' boards."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

WEB_TESTS = Path(__file__).resolve().parent
SERVER_TESTS = WEB_TESTS.parent / "server"
for folder in (SERVER_TESTS, WEB_TESTS):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
_spec = importlib.util.spec_from_file_location("tf22_contrast_server_fixtures", SERVER_TESTS / "conftest.py")
_fixtures = sys.modules.setdefault(_spec.name, importlib.util.module_from_spec(_spec))
if not hasattr(_fixtures, "server_factory"):
    _spec.loader.exec_module(_fixtures)
server_factory = _fixtures.server_factory  # a real server process on SQLite
many_accounts = _fixtures.many_accounts  # (autouse)

from axe import axe_violations, describe  # noqa: E402
from people import new_table  # noqa: E402
from test_server_browser import browser, signed_in_page  # noqa: E402, F401

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}
READY = {"tf22-reload": ".rcu-card[data-legal]", "twin-tin-bots": ".change-panel"}


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("game", ["tf22-reload", "twin-tin-bots"])
@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["laptop", "phone"])
def test_no_contrast_violation_on_the_table(server_factory, browser, game, size, language) -> None:  # noqa: F811
    server = server_factory(bot_delay=0.0)
    page, me = signed_in_page(browser, server, viewport={"width": size[0], "height": size[1]})
    page.context.add_cookies([{"name": "lang", "value": language, "url": server.url}])
    made = new_table(server, [HUMAN, BOT], game=game, creator=me)
    page.goto(server.url + made["links"]["0"])
    page.wait_for_selector(READY[game])
    page.wait_for_function("() => !document.body.dataset.animating")
    if game == "tf22-reload":  # a reveal, a chipcard or a container on the board: play a card first
        before = page.evaluate("document.body.dataset.moves")
        page.locator(".rcu-card[data-legal]").nth(3).click()
        page.wait_for_function(f"() => document.body.dataset.moves !== '{before}'")
        page.wait_for_selector(".rcu-card[data-legal], .load-area [data-legal]")
        page.click(".stock-bar")  # a tap ends the reveal's fade-in: axe measures the colours as they stay
        page.wait_for_selector(".tf22.skip-anim")
    found = axe_violations(page, "#board")
    assert not found, describe(found)
    # the check is live: a low-contrast line put on the board is found, and gone with it
    page.evaluate(
        "() => { const p = document.createElement('p'); p.id = 'probe'; p.textContent = 'pale';"
        " p.style.color = '#bbb'; p.style.background = '#fff'; document.querySelector('#board').prepend(p); }"
    )
    assert any(n["target"] == ["#probe"] for v in axe_violations(page, "#board") for n in v["nodes"])
