"""GET /api/i18n and /api/i18n/{lang}/{namespace}: the catalogues the browser loads (docs/i18n.md)."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from robotable import games
from robotable.core import i18n


def test_the_list_names_languages_and_namespaces(client: TestClient) -> None:
    res = client.get("/api/i18n")
    assert res.status_code == 200
    assert res.json() == {"languages": ["en", "ja"], "namespaces": ["app", *games.available()]}


def test_a_catalogue_is_its_file_with_cache_headers_and_an_etag(client: TestClient) -> None:
    for lang in ("en", "ja"):
        for ns in ("app", *games.available()):
            res = client.get(f"/api/i18n/{lang}/{ns}")
            assert res.status_code == 200, (lang, ns, res.text)
            assert res.headers["content-type"].startswith("application/json")
            assert res.json() == json.loads(i18n.catalogue_path(lang, ns).read_text(encoding="utf-8"))
            assert "max-age=" in res.headers["cache-control"]
    res = client.get("/api/i18n/ja/twin-tin-bots")
    assert res.json()["name"] == "双子のブリキロボ"
    again = client.get("/api/i18n/ja/twin-tin-bots", headers={"If-None-Match": res.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    other = client.get("/api/i18n/en/twin-tin-bots")
    assert other.headers["etag"] != res.headers["etag"]


def test_unknown_languages_and_namespaces_are_a_clear_404(client: TestClient) -> None:
    res = client.get("/api/i18n/fr/app")
    assert res.status_code == 404
    assert res.json()["detail"] == "no language 'fr' (one of: en, ja)"
    res = client.get("/api/i18n/en/chess")
    assert res.status_code == 404
    assert "no namespace 'chess' (one of: app, " in res.json()["detail"]
    for bad in ("/api/i18n/en/..%2Fapp", "/api/i18n/EN/app", "/api/i18n/en/App"):
        assert client.get(bad).status_code == 404, bad
