"""Fixtures of the web tests: the server tests' own (real server processes, in-process clients, accounts),
so a table test starts its server the way the server tests do; tests/server and tests/web are on the
path for their helpers (people, test_server_browser, axe, ...)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

WEB_TESTS = Path(__file__).resolve().parent
SERVER_TESTS = WEB_TESTS.parent / "server"
for folder in (SERVER_TESTS, WEB_TESTS):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
_spec = importlib.util.spec_from_file_location("server_test_fixtures", SERVER_TESTS / "conftest.py")
_fixtures = sys.modules.setdefault(_spec.name, importlib.util.module_from_spec(_spec))
if not hasattr(_fixtures, "server_factory"):
    _spec.loader.exec_module(_fixtures)
server_factory = _fixtures.server_factory  # real server processes on SQLite
make_client = _fixtures.make_client  # in-process clients
many_accounts = _fixtures.many_accounts  # (autouse: many guest accounts from one address)

from test_server_browser import browser  # noqa: E402, F401  (Debian's chromium through Playwright, for every web test)
