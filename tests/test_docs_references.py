"""The docs a newcomer reads first name only what exists: every relative link resolves, and every
repository path and Python module file they cite is in the tree (so a refactor that moves a module
also updates docs/architecture.md and the others)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ["README.md", "CONTRIBUTING.md", "docs/architecture.md", "docs/adding-a-game.md", "docs/server.md"]
#: Files the docs may name that a game added by docs/adding-a-game.md would bring (its worked example).
EXAMPLE = ("scrap_race", "scrap-race")

LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
PATH = re.compile(r"(?<![\w./-])((?:robotable|tests|benchmarks|examples|docs)/(?:[\w./-]|<[^>\n]*>)*)")
MODULE = re.compile(r"`(\w+\.py)`")
#: Where the module files the docs name may live.
CODE = ("robotable", "tests", "benchmarks", "examples")


def broken_references(doc: Path, root: Path = ROOT) -> list[str]:
    """What ``doc`` cites that is not in the tree under ``root``: links, paths and module files."""
    text = doc.read_text(encoding="utf-8")
    problems = []
    for target in LINK.findall(text):
        if not re.match(r"[a-z]+:", target) and not (doc.parent / target).exists():
            problems.append(f"link {target}")
    for path in PATH.findall(LINK.sub("]", text)):  # link targets are relative to the doc: checked above
        path = path.rstrip(".")
        if "<" not in path and not any(e in path for e in EXAMPLE) and not (root / path).exists():
            problems.append(f"path {path}")
    modules = {p.name for top in CODE for p in (root / top).glob("**/*.py")}
    for name in MODULE.findall(text):
        if name not in modules:
            problems.append(f"module {name}")
    return problems


@pytest.mark.parametrize("doc", DOCS)
def test_the_docs_cite_only_what_exists(doc: str) -> None:
    assert broken_references(ROOT / doc) == []


def test_a_moved_module_or_a_dead_link_is_reported(tmp_path: Path) -> None:
    (tmp_path / "robotable" / "server").mkdir(parents=True)
    (tmp_path / "robotable" / "server" / "hub.py").write_text("")
    (tmp_path / "docs").mkdir()
    doc = tmp_path / "docs" / "a.md"
    doc.write_text(
        "See [b](b.md), [web](https://example.org), `robotable/server/hub.py`, `hub.py`,\n"
        "`robotable/server/tables.py`, `tables.py` and `robotable/games/<game>/data/`.\n"
    )
    assert broken_references(doc, tmp_path) == ["link b.md", "path robotable/server/tables.py", "module tables.py"]
