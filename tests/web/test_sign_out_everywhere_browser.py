"""Issue 28 in Debian's chromium: the account page's "Sign out everywhere" ends every session of the
account (this browser's and a second device's) and revokes its API token, in English and Japanese."""

from __future__ import annotations

import pytest
from people import bearer
from test_server_browser import browser as chromium
from test_server_browser import watch_errors

browser = chromium  # the fixture (Debian's chromium)


@pytest.mark.parametrize(
    ("locale", "label"), [("en-US", "Sign out everywhere"), ("ja-JP", "すべての端末からサインアウト")], ids=["en", "ja"]
)
def test_sign_out_everywhere_ends_every_session_and_the_token(server_factory, browser, locale, label):
    server = server_factory(bot_delay=0.0)
    laptop = browser.new_context(locale=locale)
    account = {"username": f"ada_{locale[:2]}", "password": "correct horse battery"}
    res = laptop.request.post(f"{server.url}/api/account/signup", data=account)
    assert res.status in (200, 201), res.text()
    res = laptop.request.post(f"{server.url}/api/account/token", headers={"X-CSRF-Token": res.json()["csrf"]})
    assert res.status == 200, res.text()
    token = res.json()["token"]
    page = laptop.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    # a second device signed in to the same account
    phone = browser.new_context(locale=locale)
    res = phone.request.post(f"{server.url}/api/account/signin", data=account)
    assert res.status == 200, res.text()
    assert phone.request.get(f"{server.url}/api/account").json()["account"]["username"] == account["username"]
    assert server.api("GET", "/api/account", headers=bearer(token)).json()["account"]["username"] == account["username"]

    page.goto(server.url + "/account")
    button = page.locator("#sign-out-everywhere-button")
    button.wait_for()
    assert button.inner_text() == label
    button.click()
    page.wait_for_url(server.url + "/")

    # this browser, the token and (if it had one) the second device are all signed out
    me = page.evaluate("fetch('/api/account').then(r => r.json())")
    assert me["account"] is None
    after = server.api("GET", "/api/account", headers=bearer(token))
    assert after.status_code == 401 or after.json()["account"] is None
    assert phone.request.get(f"{server.url}/api/account").json()["account"] is None
    assert errors == []
    laptop.close()
    phone.close()
