"""An engine's refusal reaches people in their language: the answer names the game's catalogue key
(``<game>:refusals.*``) with its params, seats numbered from 1, and keeps the engine's English ``detail``."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from people import bearer

from robotable.core.i18n import translate

HUMAN = {"kind": "human"}


def move(client: TestClient, table: str, seat: int, token: str, action: Any):
    return client.post(f"/api/tables/{table}/moves", json={"seat": seat, "action": action}, headers=bearer(token))


def refused(client: TestClient, create_table, game: str, action: Any, seat: int | None = None) -> dict[str, Any]:
    """The 409 answer to ``action`` by ``seat`` (the first seat to act if None) at a new two-person table."""
    made = create_table(client, [HUMAN, HUMAN], game=game)
    table, tokens = made["table"]["id"], made["tokens"]
    if seat is None:
        seat = client.get(f"/api/tables/{table}/state").json()["to_act"][0]
    res = move(client, table, seat, tokens[seat], action)
    assert res.status_code == 409, res.text
    return res.json()


def test_a_refusal_names_the_game_key_with_seats_from_one(client: TestClient, create_table) -> None:
    offer_self = {"type": "offer", "to": 0, "give": [], "take": [], "give_money": 1, "take_money": 0}
    body = refused(client, create_table, "robots-on-the-line", offer_self, seat=0)
    assert body["code"] == "robots-on-the-line:refusals.trade.not_another_player"
    assert body["params"] == {"seat": 1}  # the engine's seat 0, as people number it
    assert body["detail"] == "seat 0 is not another player"  # the engine's English, as before
    assert translate(body["code"], lang="en", **body["params"]) == "seat 1 is not another player"
    assert translate(body["code"], lang="ja", **body["params"]) == "1番席は他のプレイヤーではありません"


def test_each_game_answers_with_its_own_key_in_both_languages(client: TestClient, create_table) -> None:
    cases = [
        ("tf22-reload", {"type": "load", "slot": 0}, "tf22-reload:refusals.choose_card_first"),
        ("twin-tin-bots", {"type": "pass"}, "twin-tin-bots:refusals.first_turn_place"),
        ("robots-on-the-line", {"type": "pick_junk", "pile": 0}, "robots-on-the-line:refusals.pick_only_after_sale"),
    ]
    for game, action, code in cases:
        body = refused(client, create_table, game, action)
        assert body["code"] == code, body
        for lang in ("en", "ja"):
            text = translate(body["code"], lang=lang, **body["params"])
            assert text != body["code"] and "{{" not in text, (lang, text)
        assert translate(body["code"], lang="en", **body["params"]) == body["detail"]  # no seat in these


def test_a_seat_the_game_waits_for_is_numbered_from_one(client: TestClient, create_table) -> None:
    """tf22: seat 0 won the battle and must place the container; playing a card instead names seat 1."""
    made = create_table(client, [HUMAN, HUMAN])
    table, tokens = made["table"]["id"], made["tokens"]
    assert move(client, table, 0, tokens[0], {"type": "play", "value": 7}).status_code == 200
    assert move(client, table, 1, tokens[1], {"type": "play", "value": 2}).status_code == 200
    res = move(client, table, 0, tokens[0], {"type": "play", "value": 3})
    assert res.status_code == 409
    body = res.json()
    assert body["code"] == "tf22-reload:refusals.must_place_container" and body["params"] == {"seat": 1}
    assert body["detail"].startswith("seat 0 won the battle")
    assert translate(body["code"], lang="ja", **body["params"]).startswith("1番席がバトルに勝ちました")
