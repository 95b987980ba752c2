"""The edge of the server (issue 28, findings 3 and 7): every path and query parameter is checked before
any route, on SQLite and PostgreSQL alike; refusals never quote the input; every answer the app makes
(and the transport-level 400/414/431 below it) carries the security headers; HEAD works wherever GET
does; the numbers docs/server.md states are the code's.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from conftest import ServerProcess
from test_security_sessions import Person
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from robotable.server import auth, chat, limits, serving
from robotable.server.headers import COMMON

BAD = {"nul": "%00", "surrogate": "%ED%A0%80", "not-utf8": "%FF", "control": "%1B", "long": "a" * 201}
SECURITY = [name.decode() for name, _ in COMMON] + ["content-security-policy"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server(database, tmp_path: Path) -> Iterator[ServerProcess]:
    """One real server on SQLite, then on PostgreSQL (a schema of its own)."""
    url, schema = database
    process = ServerProcess(url, 0.0, schema=schema)
    process.start()
    yield process
    process.stop()


def routes_with_path_parameters(server: ServerProcess) -> list[tuple[str, str]]:
    """(method, path template) of every API route with a path parameter (from /openapi.json)."""
    spec = server.api("GET", "/openapi.json").json()
    out = []
    for path, methods in spec["paths"].items():
        if "{" in path:
            out += [(method.upper(), path) for method in methods]
    return sorted(out)


def assert_security_headers(res: httpx.Response) -> None:
    missing = [h for h in SECURITY if h not in res.headers]
    assert not missing, f"{res.status_code} {res.request.method} {res.request.url} lacks {missing}"


def test_bad_characters_in_every_path_parameter_are_400_on_every_database(server: ServerProcess) -> None:
    person = Person(server).sign_up("sam")
    routes = routes_with_path_parameters(server)
    assert any("/api/profiles/" in p for _, p in routes) and any("mutes" in p for _, p in routes)
    for method, template in routes:
        for kind, bad in BAD.items():
            path = re.sub(r"\{[^}]+\}", bad, template)
            body = {} if method != "GET" else None
            res = person.http.request(method, path, json=body, headers={"X-CSRF-Token": person.csrf or ""})
            assert res.status_code == 400, f"{kind}: {method} {template} -> {res.status_code} {res.text}"
            assert_security_headers(res)
            assert bad not in res.text and "\\u0000" not in res.text


def test_the_auditors_two_requests(server: ServerProcess) -> None:
    person = Person(server).sign_up("tess")
    assert person.http.get("/api/profiles/%00").status_code == 400
    assert person.http.delete("/api/account/mutes/%00", headers={"X-CSRF-Token": person.csrf or ""}).status_code == 400


def test_bad_characters_in_query_parameters_are_400(server: ServerProcess) -> None:
    for query in ("before=%00", "game=%ED%A0%80", "status=%FF", "mine=%00"):
        res = server.api("GET", f"/api/tables?{query}")
        assert res.status_code == 400, (query, res.text)


def test_a_websocket_to_a_bad_path_is_refused(server: ServerProcess) -> None:
    with pytest.raises(InvalidStatus), connect(f"{server.ws_url}/ws/tables/%00", open_timeout=10):
        pass


MARK = "zz'<b>mark&"


def test_refusals_never_quote_the_input(server: ServerProcess) -> None:
    person = Person(server).sign_up("uma")
    quoted = MARK.replace("&", "%26")
    answers = [
        person.http.get(f"/api/tables?status={quoted}"),
        person.http.get(f"/api/tables?game={quoted}"),
        person.http.get(f"/api/tables?before={quoted}"),
        person.http.get(f"/api/tables/{quoted}"),
        person.http.get(f"/api/profiles/{quoted}"),
        person.http.get(f"/api/games/{quoted}/data/x"),
        person.http.get(f"/api/games/tf22-reload/data/{quoted}"),
        person.post("/api/account/mutes", {"account": MARK}),
    ]
    unmute = person.http.delete(f"/api/account/mutes/{quoted}", headers={"X-CSRF-Token": person.csrf or ""})
    assert unmute.status_code == 200 and "mark" not in unmute.text  # unmuting nobody is fine
    for res in answers:
        assert 400 <= res.status_code < 500, (res.request.url, res.status_code, res.text)
        assert "mark" not in res.text, (res.request.url, res.text)
        assert_security_headers(res)


def test_head_works_wherever_get_does(server: ServerProcess) -> None:
    for path in ("/", "/api/games", "/account", "/static/js/api.js"):
        get = server.api("GET", path)
        head = server.api("HEAD", path)
        assert get.status_code == 200 and head.status_code == 200, path
        assert head.content == b"" and head.headers.get("content-length") == get.headers.get("content-length")
        assert_security_headers(head)


def raw(server: ServerProcess, request: bytes) -> bytes:
    """Send bytes as they are; the whole answer."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(request)
        out = b""
        while chunk := conn.recv(65536):
            out += chunk
    return out


def test_transport_level_refusals_carry_the_security_headers(server: ServerProcess) -> None:
    answers = {
        400: raw(server, b"NOT HTTP AT ALL\r\n\r\n"),
        414: raw(server, b"GET /" + b"a" * (serving.MAX_URL + 10) + b" HTTP/1.1\r\nHost: x\r\n\r\n"),
        431: raw(server, b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * (serving.MAX_HEAD + 10) + b"\r\n\r\n"),
    }
    for status, answer in answers.items():
        head = answer.split(b"\r\n\r\n", 1)[0].decode().lower()
        assert head.startswith(f"http/1.1 {status}"), head
        for name in SECURITY:
            assert f"\r\n{name}: " in head, (status, name, head)


def test_every_refusal_of_the_app_carries_the_security_headers(server: ServerProcess) -> None:
    person = Person(server).sign_up("vic")
    answers = [
        server.api("GET", "/api/tables/nope"),  # 404
        server.api("GET", "/api/account/mutes"),  # 401
        person.http.post("/api/account/name", json={"display_name": "x"}),  # 403 (no CSRF token)
        server.api("POST", "/api/tables", content=b"{" * 70000, headers={"content-type": "application/json"}),  # 413
        server.api("POST", "/api/tables", json={"game": 1}),  # 401 or 422
        server.api("DELETE", "/api/games"),  # 405
        server.api("GET", "/no/such/page"),  # 404
    ]
    for res in answers:
        assert res.status_code >= 400
        assert_security_headers(res)


def docs_rows() -> dict[str, str]:
    """The "Limits and hygiene" and rate-limit tables of docs/server.md: first cell -> second cell."""
    rows = {}
    for line in (ROOT / "docs" / "server.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 2:
            rows[cells[0]] = cells[1]
    return rows


def test_the_numbers_in_the_docs_are_the_codes() -> None:
    rows = docs_rows()
    plain = {name: re.sub(r"\s*\(.*", "", value).strip("` ") for name, value in rows.items()}
    defaults = limits.Limits()
    expected = {
        "sign-in attempts per username and address": auth.SIGN_IN_PER_USERNAME,
        "sign-in attempts per address": auth.SIGN_IN_PER_ADDRESS,
        "new accounts per address": auth.ACCOUNTS_PER_ADDRESS,
        "chat lines per account and table": chat.RATE.replace(" per ", "/"),
        'tables created per address (`POST /api/tables`, "play again")': defaults.create_rate,
        "open websockets per address": str(defaults.websockets_per_ip),
        "websockets opened per address": defaults.websocket_rate,
    }
    for name, value in expected.items():
        assert name in plain, f"docs/server.md has no row {name!r}"
        assert plain[name] == value, f"docs say {plain[name]!r} for {name!r}, the code {value!r}"
