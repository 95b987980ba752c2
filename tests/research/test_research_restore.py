"""Restore across processes: a state saved in one process observes the same in another.

Memos keyed on anything a process hands out (a counter) must not travel with ``serialize()`` or pickle:
the consumer does exactly the producer's work on other games first, so a travelling key would name one of
its own states and return that state's observation.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(command: str, seed: int, stdin: str = "") -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "tests.research.restore_worker", command, str(seed)],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def exchange() -> tuple[dict, dict]:
    produced = _run("produce", 101)
    consumed = _run("consume", 202, json.dumps(produced))
    return produced, consumed


def test_research_restore_openspiel_in_another_process(exchange: tuple[dict, dict]) -> None:
    produced, consumed = exchange
    keys = [k for k in produced if k.startswith("openspiel ")]
    assert len(keys) >= 3
    for key in keys:
        assert produced[key], key
        for mine, theirs in zip(produced[key], consumed[key], strict=True):
            assert mine["obs"], key
            assert theirs["serialized"] == mine["obs"], f"{key}: deserialize_state in another process"
            assert theirs["pickled"] == mine["obs"], f"{key}: pickle in another process"


def test_research_restore_pettingzoo_in_another_process(exchange: tuple[dict, dict]) -> None:
    produced, consumed = exchange
    for key in [k for k in produced if k.startswith("pettingzoo ")]:
        assert [item["obs"] for item in produced[key]] == consumed[key], key


def test_research_restore_gymnasium_in_another_process(exchange: tuple[dict, dict]) -> None:
    produced, consumed = exchange
    for key in [k for k in produced if k.startswith("gymnasium ")]:
        assert any(item["next"] for item in produced[key]), key
        assert [item["next"] for item in produced[key]] == consumed[key], key
