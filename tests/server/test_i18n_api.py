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


def test_error_answers_carry_a_catalogue_code_and_params(client: TestClient) -> None:
    """Every refusal keeps its English detail and adds ``code`` (a key of the catalogue, in every language)
    and ``params`` that fill that key's variables."""
    answers = [
        client.get("/api/i18n/fr/app"),  # NotFound: the generic code with the detail
        client.post("/api/tables", json={"game": "tf22-reload", "num_players": 2}),  # not signed in
        client.post("/api/account/signin", json={"username": "nobody", "password": "wrong-password"}),
        client.post("/api/account/guest", json={"display_name": 7}),  # validation: 422
        client.get("/api/no-such-route"),  # the router's own 404
    ]
    codes = [(res.status_code, res.json()["code"]) for res in answers]
    assert codes == [
        (404, "app:errors.not_found"),
        (401, "app:errors.sign_in"),
        (401, "app:errors.wrong_password"),
        (422, "app:errors.invalid_request"),
        (404, "app:errors.http"),
    ]
    for res in answers:
        body = res.json()
        assert isinstance(body["detail"], str) and body["detail"]
        for lang in ("en", "ja"):
            text = i18n.translate(body["code"], lang=lang, **body["params"])
            assert text != body["code"] and "{{" not in text, (lang, body)
    assert answers[0].json()["params"] == {"detail": "no language 'fr' (one of: en, ja)"}
    assert i18n.translate("app:errors.wrong_password", lang="ja") == "ユーザー名またはパスワードが違います。"


def test_chat_and_websocket_refusals_are_coded(client: TestClient) -> None:
    from people import bearer, new_table

    made = new_table(client, [{"kind": "human"}, {"kind": "bot", "difficulty": "random"}])
    table, token = made["table"]["id"], made["tokens"][0]
    res = client.post(f"/api/tables/{table}/chat", json={"text": "x" * 501}, headers=bearer(token))
    assert res.status_code == 400
    assert res.json()["code"] == "app:errors.chat_too_long"
    assert res.json()["params"] == {"max": 500, "length": 501}
    assert i18n.translate(res.json()["code"], lang="ja", **res.json()["params"]) == (
        "チャットは500文字までです（このメッセージは501文字）。"
    )
    with client.websocket_connect(f"/ws/tables/{table}") as ws:  # a spectator
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_json({"type": "undo"})
        answer = ws.receive_json()
        while answer["type"] != "error":  # a bot's move may be published first
            answer = ws.receive_json()
    assert answer["type"] == "error" and answer["status"] == 403
    assert answer["code"] == "app:errors.spectators_cannot_play"
    assert answer["message"].startswith("spectators cannot play")


def test_table_refusals_name_their_catalogue_key(client: TestClient) -> None:
    from people import bearer, new_table

    made = new_table(client, [{"kind": "human"}, {"kind": "human"}])
    table, ann, bob = made["table"]["id"], made["tokens"][0], made["tokens"][1]
    res = client.get(f"/api/tables/{table}/state", params={"seat": 1}, headers=bearer(ann))
    assert (res.status_code, res.json()["code"], res.json()["params"]) == (403, "app:errors.not_your_seat", {"seat": 2})
    assert i18n.translate("app:errors.not_your_seat", lang="ja", **res.json()["params"]) == (
        "あなたは2番席のプレイヤーではありません。"
    )
    res = client.get("/api/tables/nope/state")
    answer = (res.status_code, res.json()["code"], res.json()["params"])
    assert answer == (404, "app:errors.no_table", {"table": "nope"})
    res = client.post(f"/api/tables/{table}/undo", json={"seat": 1}, headers=bearer(bob))
    assert res.status_code == 409 and res.json()["code"].startswith("app:errors.undo_"), res.json()
