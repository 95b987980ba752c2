"""Robots on the Line over websockets: a seat's unseen parts never reach another seat's browser.

Three people play from their own websockets (random legal moves, the turn ended often). A local copy
of the game follows every move; every message seats 1 and 2 receive, and every workbench evaluation
they ask for (with suggestions), is checked against the parts of the other hands nobody else has seen
and against the draw piles at that moment.
"""

from __future__ import annotations

import json
import random
from typing import Any

from message_check import received_messages_are_declared  # noqa: F401  (every message received is declared)
from people import bearer
from test_server_websocket import Client

import robotable

GAME = "robots-on-the-line"
SEED = 11


def hidden_from(state: Any, seat: int) -> set[str]:
    """Part ids ``seat`` may not know where they are: other hands' unseen parts and both draw piles."""
    data = state.to_json()
    out = {p for pile in data["draw_piles"] for p in pile}
    for other, secret in enumerate(data["secret"]):
        if other != seat:
            out |= set(secret)
    return out


def choose(rng: random.Random, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A random legal move that keeps the game moving (turns end often, offers are rare)."""
    kinds: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        kinds.setdefault(a["type"], []).append(a)
    if "end_turn" in kinds and rng.random() < 0.35:
        return kinds["end_turn"][0]
    if "decline" in kinds or "accept" in kinds:
        return rng.choice(kinds.get("accept", []) + kinds.get("decline", []))
    names = [k for k in kinds if k != "offer" or rng.random() < 0.1]
    return rng.choice(kinds[rng.choice(names)])


def test_unseen_parts_never_reach_another_seat(server_factory, create_table, monkeypatch) -> None:
    monkeypatch.setenv("ROBOTABLE_ALLOW_POSITIONS", "1")  # a test server: a seeded table of three people
    server = server_factory()
    human = {"kind": "human"}
    made = create_table(server, [human, human, human], game=GAME, seed=SEED)
    table, tokens = made["table"]["id"], made["tokens"]
    base = f"{server.ws_url}/ws/tables/{table}"
    clients = {s: Client(f"{base}?seat={s}", tokens[s]) for s in range(3)}
    game = robotable.games.load(GAME)
    mirror = game.start(3, seed=SEED)
    hidden_at = [{s: hidden_from(mirror, s) for s in range(3)}]
    evaluations: list[tuple[int, int, str]] = []
    rng = random.Random(5)
    try:
        snaps = {seat: c.until("snapshot") for seat, c in clients.items()}
        for _ in range(120):
            if mirror.is_over():
                break
            seat = rng.choice(mirror.to_act())
            snap = snaps[seat]
            assert snap["moves"] == len(hidden_at) - 1 and snap["legal"]
            action = choose(rng, snap["legal"])
            asker = (seat + 1) % 3
            answer = server.api(
                "POST",
                f"/api/tables/{table}/evaluate",
                json={"seat": asker, "query": {"layout": [], "suggest": True}},
                headers=bearer(tokens[asker]),
            )
            assert answer.status_code == 200, answer.text
            evaluations.append((asker, snap["moves"], answer.text))
            clients[seat].send({"type": "move", "action": action, "after": snap["moves"]})
            assert clients[seat].until("ack")["moves"] == snap["moves"] + 1
            mirror.apply(seat, game.action_from_json(action))
            hidden_at.append({s: hidden_from(mirror, s) for s in range(3)})
            for s, c in clients.items():
                snaps[s] = c.until("update") if s != seat else _latest_update(c, snap["moves"] + 1)
        assert len(hidden_at) > 60
    finally:
        for c in clients.values():
            c.close()

    checked = 0
    for seat in (1, 2):
        client = clients[seat]
        for text, msg in zip(client.raw, client.received, strict=True):
            if "moves" not in msg or "view" not in msg:
                continue
            for name in hidden_at[msg["moves"]][seat]:
                assert f'"{name}"' not in text, f"seat {seat} received the unseen {name} at move {msg['moves']}"
            for other in msg["view"]["players"]:
                if other["seat"] != seat:
                    assert not set(other["hand"]) & hidden_at[msg["moves"]][seat]
            checked += 1
    for asker, moves, text in evaluations:
        for name in hidden_at[moves][asker]:
            assert f'"{name}"' not in text, f"seat {asker}'s workbench answer showed the unseen {name}"
    assert checked > 100 and evaluations
    # the check can see them: seat 0 does receive its own unseen parts
    own = set(json.loads(clients[0].raw[0])["view"]["players"][0]["hand"])
    assert own and all(f'"{name}"' in clients[0].raw[0] for name in own)
    assert any(p["unknown_parts"] for p in json.loads(clients[1].raw[0])["view"]["players"] if p["seat"] != 1)


def _latest_update(client: Client, moves: int) -> dict[str, Any]:
    """The update for move ``moves`` (the ack may come before or after it)."""
    for msg in reversed(client.received):
        if msg["type"] == "update" and msg["moves"] == moves:
            return msg
    return client.until("update")
