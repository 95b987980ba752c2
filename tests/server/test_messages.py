"""The declared websocket messages (``messages.py``) and the check the websocket tests run on every message."""

from __future__ import annotations

import json

import pytest
from message_check import problems_of

from robotable.server import messages


def test_a_declared_message_passes_and_an_undeclared_or_malformed_one_is_named() -> None:
    assert problems_of([json.dumps({"type": "pong", "ref": 3})]) == []
    extra = json.dumps({"type": "pong", "ref": 3, "secret": 1})
    unknown = json.dumps({"type": "bogus"})
    missing = json.dumps({"type": "ack", "ref": None})
    bad = problems_of([extra, unknown, missing])
    assert len(bad) == 3
    assert "secret" in bad[0] and "bogus" in bad[1] and "moves" in bad[2]


def test_every_kind_of_the_docs_is_declared() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "websocket.md").read_text(encoding="utf-8")
    listed = {line.split("`")[1] for line in doc.splitlines() if line.startswith("| `") and "Message` |" in line}
    assert listed == set(messages.KINDS)


@pytest.mark.parametrize("kind", sorted(messages.KINDS))
def test_a_message_without_its_fields_is_refused(kind: str) -> None:
    with pytest.raises(ValueError, match="Field required"):
        messages.check({"type": kind})
