"""The arena's JSON report: how it was made, on what machine, every game, and the summary.

The report is meant to be committed next to the claims it supports: ``command`` reruns it, and every
game in ``games`` reruns alone from ``(game, players, options, seed, agents)``.
"""

from __future__ import annotations

import json
import os
import platform
import shlex
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from .tournament import Outcome, Tournament

REPORT_FORMAT = 1


def machine() -> dict[str, Any]:
    """Where the tournament ran: OS, CPU, Python and the versions of the packages that matter."""
    versions: dict[str, str | None] = {}
    for package in ("robotable", "openskill", "matplotlib", "ray"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "packages": versions,
    }


def command_line(tournament: Tournament, out: str | Path | None = None) -> str:
    """The ``robotable arena`` command that plays this tournament again, every default spelled out."""
    args = ["robotable", "arena", "--game", tournament.game, "--agents", ",".join(tournament.agents)]
    args += ["--players", str(tournament.players), "--games", str(tournament.games), "--seed", str(tournament.seed)]
    if tournament.seats is not None:
        args += ["--seats", ",".join(map(str, tournament.seats))]
    args += ["--budget", tournament.budget]
    if tournament.options:
        args += ["--options", json.dumps(dict(tournament.options), separators=(",", ":"))]
    if tournament.workers > 1:
        args += ["--workers", str(tournament.workers)]
    if tournament.ray is not None:
        args += ["--ray", tournament.ray]
    if out is not None:
        args += ["--out", str(out)]
    return shlex.join(args)


def typed_command() -> str:
    """The command line as typed (``sys.argv``), for the record."""
    args = list(sys.argv)
    if args:
        args[0] = Path(args[0]).name
    return shlex.join(args)


def build_report(outcome: Outcome, command: str | None = None, started: datetime | None = None) -> dict[str, Any]:
    """The report as JSON-safe data; ``command`` defaults to :func:`command_line` of the tournament."""
    t = outcome.tournament
    seats = {"seats": list(t.seats)} if t.seats is not None else {}
    return {
        "format": REPORT_FORMAT,
        "kind": "robotable-arena",
        "command": command or command_line(t),
        "argv": typed_command(),
        "date": (started or datetime.now(UTC)).isoformat(timespec="seconds"),
        "tournament": {
            "game": t.game,
            "players": t.players,
            "agents": list(t.agents),
            "games": t.games,
            "seed": t.seed,
            "options": dict(t.options),
            "budget": t.budget,
            **seats,
        },
        "execution": {"mode": t.mode(), "seconds": round(outcome.seconds, 3)},
        "machine": machine(),
        "summary": outcome.summary,
        "games": [r.to_json() for r in outcome.results],
    }


def write_report(report: dict[str, Any], path: str | Path) -> Path:
    """Write the report as indented JSON (games one per line, to keep files readable); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    head = {k: v for k, v in report.items() if k != "games"}
    text = json.dumps(head, indent=2)[:-2]
    lines = ",\n    ".join(json.dumps(g, separators=(", ", ": ")) for g in report["games"])
    text += ',\n  "games": [\n    ' + lines + "\n  ]\n}\n" if report["games"] else ',\n  "games": []\n}\n'
    path.write_text(text)
    return path


def default_prefix(game: str, players: int, when: datetime | None = None) -> Path:
    """``reports/arena-<game>-<players>p-<UTC timestamp>`` (the .json and .png share it)."""
    stamp = (when or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    return Path("reports") / f"arena-{game}-{players}p-{stamp}"
