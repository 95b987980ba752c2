"""WCAG AA contrast on the TF22: RELOAD! and Twin Tin Bots tables (issue 17): axe-core (tests/web/axe.py)
finds no colour-contrast violation on either table mid-game, on a laptop and a phone screen, in English
and Japanese, nor on their end screens' boards."""

from __future__ import annotations

import pytest
from axe import axe_violations, describe
from people import new_table
from test_server_browser import signed_in_page

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "difficulty": "random"}
READY = {"tf22-reload": ".rcu-card[data-legal]", "twin-tin-bots": ".change-panel"}


# each game on a laptop and a phone, once in each language (the colours do not change with the language;
# the layout's wrapping does, and the phone is where it wraps most)
@pytest.mark.parametrize("game", ["tf22-reload", "twin-tin-bots"])
@pytest.mark.parametrize(
    ("size", "language"),
    [((1366, 768), "en"), ((390, 844), "ja"), ((390, 844), "en")],
    ids=["laptop-en", "phone-ja", "phone-en"],
)
def test_no_contrast_violation_on_the_table(server_factory, browser, game, size, language) -> None:
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
