"""``python -m robotable.server.cluster``: two web processes and a bot worker on PostgreSQL + Redis."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time

import httpx
from conftest import PG_URL
from people import bearer

from tests.conftest import free_ports


def wait_until(check, timeout: float = 90.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = check()
            if value:
                return value
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise AssertionError("timed out")


def test_the_cluster_serves_one_table_from_both_processes_with_bots_on_the_worker(pg_schema: str) -> None:
    port = free_ports(2)  # its own two ports, whatever else runs beside it
    cmd = [sys.executable, "-m", "robotable.server.cluster", "--database", PG_URL, "--schema", pg_schema]
    cmd += ["--redis-prefix", f"rt-test-{secrets.token_hex(4)}:", "--port", str(port), "--bot-delay", "0"]
    proc = subprocess.Popen(cmd, env=dict(os.environ), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        a, b = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}"
        for url in (a, b):
            wait_until(lambda url=url: httpx.get(f"{url}/api/games", timeout=2).status_code == 200)
        body = {"game": "tf22-reload", "num_players": 2, "seats": [{"kind": "bot"}, {"kind": "bot"}]}
        with httpx.Client(base_url=a, timeout=10) as http:  # tables are made by accounts: a guest here
            guest = http.post("/api/account/guest", json={"display_name": "Operator"})
            assert guest.status_code == 201, guest.text
            token = http.post("/api/account/token", headers={"X-CSRF-Token": guest.json()["csrf"]}).json()["token"]
        made = httpx.post(f"{a}/api/tables", json=body, headers=bearer(token), timeout=10)
        assert made.status_code == 201, made.text
        table = made.json()["table"]["id"]
        # the worker plays both bots (web processes only queue their turns); B sees it from the database
        done = wait_until(lambda: httpx.get(f"{b}/api/tables/{table}", timeout=5).json()["moves"] >= 4)
        assert done
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode is not None
    text = out.decode()
    assert f"web1 :{port}" in text and f"web2 :{port + 1}" in text and "worker1" in text
    assert "postgres@" in text and "restarting" not in text  # nothing died on the way
