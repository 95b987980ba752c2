"""The newcomer's contract: what `make run` installs is enough for `robotable serve` and its bots.

`make test` installs more extras than `make run` (pytest, playwright, the research stack), so a package
that only they bring would let every other test pass while a newcomer's bot worker dies at start (it
happened: the worker imported httpx, which only the dev extra installed). Two checks:

- every third-party import reachable from the served entry points is installed by the run extras;
- a real ``robotable serve``, started as `make run` starts it (its console script, SQLite in the working
  folder, spawned bot workers) but unable to import anything the run extras do not install, answers a
  person's TF22 card with its bot's, and its bot workers never die.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import free_port
from tests.run_extras import (
    allowed_top_level_names,
    missing_from_run_extras,
    provided_by,
    requirement_closure,
    run_extras,
)

HERE = Path(__file__).resolve().parent


def test_every_package_the_served_code_imports_is_installed_by_make_run() -> None:
    missing = missing_from_run_extras()
    lines = [
        f"{top} (package {', '.join(provided_by(top)) or '?'}) is imported by {', '.join(sorted(users))}"
        for top, users in sorted(missing.items())
    ]
    extras = ",".join(run_extras())
    assert not missing, (
        f"`make run` installs robotable[{extras}] only, which does not bring:\n  "
        + "\n  ".join(lines)
        + "\nadd the package to one of those extras in pyproject.toml (or stop importing it)"
    )


def test_the_closure_follows_extras_and_markers() -> None:
    """The check can fail: the dev extra's own tools are outside the run extras, FastAPI's inside."""
    closure = requirement_closure(run_extras())
    assert {"fastapi", "starlette", "uvicorn", "sqlalchemy", "httpx"} <= closure
    assert "pytest" not in closure and "playwright" not in closure
    assert "pytest" in requirement_closure(["dev"])
    assert "_pytest" not in allowed_top_level_names(run_extras())


def _wait_for(check: Callable[[], bool], what: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout  # generous: the machine may be busy
    while not check():
        assert time.monotonic() < deadline, f"waited {timeout:.0f} s for {what}"
        time.sleep(0.1)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """``robotable serve`` as `make run` starts it, in an empty folder, blind to the test extras."""
    import importlib.metadata as md

    allowed = allowed_top_level_names(run_extras()) | {"robotable"}
    blocked = sorted(top for top in md.packages_distributions() if top not in allowed and not top.startswith("_"))
    assert "pytest" in blocked and "playwright" in blocked
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(HERE / "run_only"),
        "ROBOTABLE_BLOCKED_IMPORTS": ",".join(blocked),
    }
    for name in ("ROBOTABLE_BOTS", "ROBOTABLE_DATABASE"):
        env.pop(name, None)
    command = Path(sys.executable).parent / "robotable"
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(command), "serve", "--port", str(port)], cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}"

    def up() -> bool:
        assert proc.poll() is None, f"robotable serve exited: {log.read_text()}"
        try:
            return httpx.get(f"{url}/api/games", timeout=5).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        _wait_for(up, "robotable serve to answer")
        yield url, proc, log
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_a_newcomers_bot_answers_their_first_card(served: tuple[str, subprocess.Popen[bytes], Path]) -> None:
    url, _proc, log = served
    assert (log.parent / "robotable.db").exists()  # SQLite in the working folder, no set-up
    with httpx.Client(base_url=url, timeout=30) as http:
        csrf = http.post("/api/account/guest", json={"display_name": "Newcomer"}).json()["csrf"]
        http.headers["X-CSRF-Token"] = csrf
        body = {
            "game": "tf22-reload",
            "num_players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "difficulty": "random"}],
        }
        made = http.post("/api/tables", json=body)
        assert made.status_code == 201, made.text
        table = made.json()["table"]["id"]
        state = http.get(f"/api/tables/{table}/state", params={"seat": 0}).json()
        card = next(a for a in state["legal"] if a["type"] == "play")
        played = http.post(f"/api/tables/{table}/moves", json={"seat": 0, "action": card, "after": state["moves"]})
        assert played.status_code == 200, played.text

        def bot_answered() -> bool:
            log_lines = http.get(f"/api/tables/{table}/state", params={"seat": 0}).json()["log"]
            return any(e["type"] == "chose" and e["seat"] == 1 for e in log_lines)

        _wait_for(bot_answered, "the bot's card")
        status = http.get("/api/bots/status").json()
    text = log.read_text()
    assert status == {"running": True, "problem": None, "restarts": 0}, text
    assert "bot worker exited" not in text and "ModuleNotFoundError" not in text, text
