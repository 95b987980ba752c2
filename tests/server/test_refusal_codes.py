"""An engine's refusal reaches people in their language: the answer names the game's catalogue key
(``<game>:refusals.*``) with its params as people read them (seats and places numbered from 1, parts,
colours, tiles named by catalogue keys the client shows in the reader's language: ``core.errors.person_params``)
and keeps the engine's English ``detail``."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from people import bearer, guest_token

from robotable.core.i18n import lookup, translate

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
        if game != "twin-tin-bots":  # nothing converted in these: the engine's English
            assert translate(body["code"], lang="en", **body["params"]) == body["detail"]
        else:  # the player named by their colour, as the table names them
            colour = body["detail"].split("'")[0]  # the engine's id: "red"
            assert name_key(game, body["params"]["name"]) == f"{game}:names.Colour.{colour}"
            en, ja = (translate(f"{game}:names.Colour.{colour}", lang=lang) for lang in ("en", "ja"))
            assert translate(body["code"], lang="en", **body["params"]).startswith(f"{en}'s first turn")
            assert translate(body["code"], lang="ja", **body["params"]).startswith(f"{ja}の最初のターン")


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


def name_key(game: str, value: Any) -> str:
    """The catalogue key a named param is sent as (never the bare id)."""
    assert isinstance(value, dict) and set(value) == {"key", "params", "text"}, value
    assert value["key"].startswith(f"{game}:") and lookup(value["key"], "ja") is not None, value
    return value["key"]


def test_rotl_names_a_part_by_its_name_and_a_junk_pile_from_one(client: TestClient, create_table) -> None:
    made = create_table(client, [HUMAN, HUMAN], game="robots-on-the-line")
    table, tokens = made["table"]["id"], made["tokens"]
    view = client.get(f"/api/tables/{table}/state", params={"seat": 0}, headers=bearer(tokens[0])).json()["view"]
    part = view["lines"][0][0]  # on the line, so in no junk pile
    res = move(client, table, 0, tokens[0], {"type": "search_junk", "pile": 1, "part": part})
    assert res.status_code == 409, res.text
    body = res.json()
    assert body["code"] == "robots-on-the-line:refusals.junk.part_not_in_pile"
    assert body["detail"] == f"{part} is not in junk pile 1"  # the engine's English: the id, the pile's index
    assert body["params"]["pile"] == 2  # people count the junk piles from 1, as the table does
    assert name_key("robots-on-the-line", body["params"]["tile"]) == f"robots-on-the-line:names.parts.{part}"
    en, ja = (translate(f"robots-on-the-line:names.parts.{part}", lang=lang) for lang in ("en", "ja"))
    assert translate(body["code"], lang="en", **body["params"]) == f"{en} is not in junk pile 2"
    assert translate(body["code"], lang="ja", **body["params"]) == f"{ja}はジャンク置き場2にありません"
    assert part not in translate(body["code"], lang="ja", **body["params"])


def test_ttb_names_a_slot_as_the_table_labels_it(client: TestClient, create_table) -> None:
    body = refused(client, create_table, "twin-tin-bots", {"type": "place", "slot": 99, "tile": "forward_1"})
    assert body["code"] == "twin-tin-bots:refusals.slot_out_of_range"
    assert body["detail"] == "slots are numbered 0 to 5"
    assert name_key("twin-tin-bots", body["params"]["last"]) == "twin-tin-bots:names.slot"
    assert translate(body["code"], lang="en", **body["params"]) == "the slots are A1 to B3"
    assert translate(body["code"], lang="ja", **body["params"]) == "スロットはA1からB3までです"


def test_tf22_names_cards_colours_and_slots(client: TestClient, create_table) -> None:
    body = refused(client, create_table, "tf22-reload", {"type": "play", "value": 9}, seat=0)
    assert body["code"] == "tf22-reload:refusals.card_not_in_hand"
    assert body["detail"] == "RCU-9 is not in seat 0's hand (hand: [1, 2, 3, 4, 5, 6, 7])"
    cards = ", ".join(f"RCU-{v}" for v in range(1, 8))
    assert translate(body["code"], lang="en", **body["params"]) == f"RCU-9 is not in seat 1's hand (hand: {cards})"
    assert translate(body["code"], lang="ja", **body["params"]).endswith(f"（手札：{cards.replace(', ', '、')}）")
    body = refused(client, create_table, "tf22-reload", {"type": "r_buy", "colour": "red", "slot": 2}, seat=0)
    assert body["code"] == "tf22-reload:refusals.not_enough_chipcards"
    assert body["detail"] == "r_buy costs 3 chipcard(s); seat 0 has 0"
    action = body["params"]["action"]
    assert name_key("tf22-reload", action) == "tf22-reload:action.r_buy_short"
    assert action["params"]["slot"] == 3 and name_key("tf22-reload", action["params"]["colour"])
    en = translate(body["code"], lang="en", **body["params"])
    assert en == "buy a red container onto slot 3 costs 3 chipcard(s); seat 1 has 0"
    assert translate(body["code"], lang="ja", **body["params"]).startswith("「赤のコンテナを買ってスロット3に積む」")


def test_a_malformed_action_answers_with_the_cores_code(client: TestClient, create_table) -> None:
    made = create_table(client, [HUMAN, HUMAN], game="robots-on-the-line")
    table, tokens = made["table"]["id"], made["tokens"]
    res = move(client, table, 0, tokens[0], {"type": "fly"})
    assert res.status_code == 400, res.text
    body = res.json()
    assert body["code"] == "app:errors.action.unknown_type" and body["detail"].startswith("robots-on-the-line action")
    ja = translate(body["code"], lang="ja", **body["params"])
    assert ja.startswith("Robots on the Line の手：不明な種類 'fly' です"), ja
    res = move(client, table, 0, tokens[0], {"type": "take_part", "line": 1, "space": 9})
    assert res.status_code == 400, res.text
    body = res.json()
    assert body["code"] == "robots-on-the-line:refusals.malformed_input"
    assert body["params"]["problem"]["params"]["line"] == 2  # line 1 of the engine is the table's Line 2
    ja = translate(body["code"], lang="ja", **body["params"])
    assert ja.endswith("ラインは1〜2、マスは1〜6で指定してください（ライン2、マス9が指定されました）"), ja


def test_a_malformed_workbench_query_answers_with_the_games_code(client: TestClient, create_table) -> None:
    made = create_table(client, [HUMAN, HUMAN], game="robots-on-the-line")
    table, tokens = made["table"]["id"], made["tokens"]
    query = {"layout": [["nope", 0, 0, 0]]}
    res = client.post(f"/api/tables/{table}/evaluate", json={"seat": 0, "query": query}, headers=bearer(tokens[0]))
    assert res.status_code == 400, res.text
    body = res.json()
    assert body["code"] == "robots-on-the-line:refusals.workbench.malformed"
    assert body["detail"] == "workbench: layout[0]: unknown tile 'nope'"
    assert body["params"]["problem"]["key"] == "robots-on-the-line:refusals.malformed.layout_tile"
    ja = translate(body["code"], lang="ja", **body["params"])
    assert ja == "作業台：配置の項目0：不明なタイル 'nope' です", ja


def test_options_that_cannot_be_combined_are_refused_in_the_readers_language(client: TestClient) -> None:
    """Ticking both Family mode and the ON/OFF variant in the lobby: the game's own key, its name localized."""
    token = guest_token(client, "Ada")
    body = {"game": "robots-on-the-line", "num_players": 2, "seats": [HUMAN, HUMAN]}
    body["options"] = {"family": True, "on_off_variant": True}
    res = client.post("/api/tables", json=body, headers=bearer(token))
    assert res.status_code == 400, res.text
    answer = res.json()
    assert answer["code"] == "robots-on-the-line:refusals.options.family_on_off"
    assert answer["detail"].startswith("robots-on-the-line: family mode")
    ja = translate(answer["code"], lang="ja", **answer["params"])
    assert ja.startswith("Robots on the Line：ファミリーモードでは"), ja
    body["options"] = {"line_resets": 99}
    answer = client.post("/api/tables", json=body, headers=bearer(token)).json()
    assert answer["code"] == "app:errors.options.above_maximum", answer
    label = translate("robots-on-the-line:options.line_resets.label", lang="ja")
    assert f"オプション「{label}」の99は最大値" in translate(answer["code"], lang="ja", **answer["params"])
