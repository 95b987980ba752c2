"""Twin Tin Bots over websockets: a second seat never receives another colour's unrevealed Special Orders.

Two people play a game (random legal moves sent over their own websockets) from a written position in
which red delivers a blue crystal at once and so draws a secret Special Order. A local copy of the game
follows every move; every message yellow's browser receives, and every preview yellow asks for, is checked
against red's hidden Special Orders at that moment.
"""

from __future__ import annotations

import random
from typing import Any

from message_check import received_messages_are_declared  # noqa: F401  (every message received is declared)
from people import bearer, new_table
from test_server_websocket import Client

import robotable
from robotable.games.twin_tin_bots.positions import complete

GAME = "twin-tin-bots"
SPECIAL_NAMES = (
    "turn_2_left",
    "turn_2_right",
    "anti_zap",
    "u_turn",
    "forward_3",
    "forward_then_load",
    "forward_then_zap",
    "dash",
    "jump",
    "back_up",
    "double_zap",
    "anti_theft",
    "long_range_zap",
)
POSITION: dict[str, Any] = complete(
    {
        "num_players": 2,
        "turn_order": ["red", "yellow"],
        "robots": {
            "red": [{"hex": [2, 0], "facing": "E", "cargo": "blue"}, {"hex": [-4, 3], "facing": "NE", "cargo": None}],
            "yellow": [{"hex": [4, -3], "facing": "SW", "cargo": None}, {"hex": [0, 4], "facing": "NW", "cargo": None}],
        },
        "programs": {"red": ["turn_left", None, None, "turn_left", None, None], "yellow": ["zap"] + [None] * 5},
    }
)


def hidden_of(state: Any, colour: str) -> set[str]:
    """The Special Orders ``colour`` holds and has never shown (from the full state)."""
    data = state.to_json()
    return set(data["specials"][colour]) - set(data["revealed"][colour])


def test_yellow_never_receives_reds_unrevealed_special_orders(server_factory, monkeypatch) -> None:
    monkeypatch.setenv("ROBOTABLE_ALLOW_POSITIONS", "1")  # the test-only written positions
    server = server_factory()
    made = new_table(server, [{"kind": "human"}, {"kind": "human"}], game=GAME, position=POSITION)
    table, tokens = made["table"]["id"], made["tokens"]
    base = f"{server.ws_url}/ws/tables/{table}"
    red, yellow = Client(f"{base}?seat=0", tokens[0]), Client(f"{base}?seat=1", tokens[1])
    clients = {0: red, 1: yellow}
    game = robotable.games.load(GAME)
    mirror = game.state_from_json(POSITION)
    hidden_at = [hidden_of(mirror, "red")]  # red's hidden Special Orders after each number of moves
    previews: list[tuple[int, str]] = []
    try:
        snaps = {seat: c.until("snapshot") for seat, c in clients.items()}
        rng = random.Random(7)
        first = True
        for _ in range(80):
            if mirror.is_over():
                break
            seat = mirror.to_act()[0]
            snap = snaps[seat]
            assert snap["moves"] == len(hidden_at) - 1 and snap["legal"]
            if first:
                action = {"type": "place", "slot": 0, "tile": "unload"}  # red delivers the blue crystal
                first = False
            else:
                action = rng.choice(snap["legal"])
            if seat == 1:
                answer = server.api(
                    "POST",
                    f"/api/tables/{table}/preview",
                    json={"seat": 1, "action": action},
                    headers=bearer(tokens[1]),
                )
                assert answer.status_code == 200, answer.text
                previews.append((snap["moves"], answer.text))
            clients[seat].send({"type": "move", "action": action, "after": snap["moves"]})
            assert clients[seat].until("ack")["moves"] == snap["moves"] + 1
            mirror.apply(seat, game.action_from_json(action))
            hidden_at.append(hidden_of(mirror, "red"))
            for s, c in clients.items():
                snaps[s] = c.until("update") if s != seat else _latest_update(c, snap["moves"] + 1)
        assert len(hidden_at) > 40
    finally:
        red.close()
        yellow.close()

    drew = [
        m for m in yellow.received if m["type"] == "update" and any(e["type"] == "draw_special" for e in m["events"])
    ]
    assert drew, "red's delivery of a blue crystal draws a Special Order"
    assert len(hidden_at[1]) == 2, "red holds its first Special Order and the one it drew, both hidden"
    checked = 0
    for text, msg in zip(yellow.raw, yellow.received, strict=True):
        if "moves" not in msg or "view" not in msg:
            continue
        secret = hidden_at[msg["moves"]]
        for name in secret:
            assert f'"{name}"' not in text, f"yellow received red's hidden {name} at move {msg['moves']}"
        red_view = next(c for c in msg["view"]["colours"] if c["colour"] == "red")
        assert red_view["hidden_specials"] == len(secret)
        assert not set(red_view["hand"]) & secret
        assert not any(e["type"] == "special_drawn" for e in msg.get("events", msg.get("log", [])))
        checked += 1
    for moves, text in previews:
        for name in hidden_at[moves]:
            assert f'"{name}"' not in text, f"yellow's preview showed red's hidden {name}"
    assert checked > 40 and previews
    # red itself does see what it drew
    assert any(e["type"] == "special_drawn" for m in red.received if m["type"] == "update" for e in m["events"])
    assert all(any(f'"{name}"' in t for t in red.raw) for name in hidden_at[1])  # the check can see them


def _latest_update(client: Client, moves: int) -> dict[str, Any]:
    """The update for move ``moves`` (the ack may come before or after it)."""
    for msg in reversed(client.received):
        if msg["type"] == "update" and msg["moves"] == moves:
            return msg
    return client.until("update")
