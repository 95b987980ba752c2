"""Every message the server sends on a websocket, checked against its declared type (``messages.py``).

Import :func:`received_messages_are_declared` into a test module (an autouse fixture): for each test,
every text a websocket client receives (``websockets``' ``ClientConnection.recv`` against a real server
process, Starlette's ``WebSocketTestSession.receive`` in process) is parsed and validated; a message
that is not of a declared type fails the test, naming it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import WebSocketTestSession
from websockets.sync.client import ClientConnection

from robotable.server import messages


def problems_of(texts: list[str]) -> list[str]:
    """The messages of ``texts`` that do not validate, each with the reason."""
    out = []
    for text in texts:
        try:
            messages.check(json.loads(text))
        except ValueError as exc:  # pydantic's ValidationError is a ValueError
            out.append(f"{text[:300]}: {exc}")
    return out


@pytest.fixture(autouse=True)
def received_messages_are_declared(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    received: list[str] = []
    recv = ClientConnection.recv
    receive = WebSocketTestSession.receive

    def recording_recv(self: ClientConnection, *args: Any, **kwargs: Any) -> Any:
        data = recv(self, *args, **kwargs)
        if isinstance(data, str):
            received.append(data)
        return data

    def recording_receive(self: WebSocketTestSession) -> Any:
        message = receive(self)
        if message.get("type") == "websocket.send" and isinstance(message.get("text"), str):
            received.append(message["text"])
        return message

    monkeypatch.setattr(ClientConnection, "recv", recording_recv)
    monkeypatch.setattr(WebSocketTestSession, "receive", recording_receive)
    yield received
    bad = problems_of(received)
    count = f"{len(bad)} of {len(received)}"
    assert not bad, f"{count} websocket messages are not of a declared type: " + "; ".join(bad[:5])
