"""What `make run` installs, and what `robotable serve` imports: the newcomer's contract, checked.

`make run` installs ``robotable[<RUN_EXTRAS>]`` (the Makefile's ``RUN_EXTRAS``); `make test` installs more.
So a test environment hides a package the served code needs but the run extras do not bring. Two checks
use this module:

- :func:`third_party_imports` walks, with :mod:`ast`, every module reachable from the served entry points
  and lists the third-party top-level names it imports (imports guarded by ``except ImportError`` or
  ``if TYPE_CHECKING`` do not count);
- :func:`allowed_top_level_names` is what the run extras install: the transitive requirements of
  ``robotable[<RUN_EXTRAS>]`` (markers evaluated), as import names.

``python tests/run_extras.py`` prints the names outside the run extras (none, when all is well).
"""

from __future__ import annotations

import ast
import importlib.metadata as md
import re
import sys
import tomllib
from collections.abc import Iterable
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "robotable"
#: The modules `robotable serve` runs: the command, the web app, its bot workers (their bots, games, ai).
ENTRY_POINTS = ("robotable.cli", "robotable.server.__main__", "robotable.server.app", "robotable.server.worker")


def run_extras() -> list[str]:
    """The extras `make run` installs (the Makefile's ``RUN_EXTRAS``)."""
    found = re.search(r"^RUN_EXTRAS\s*\?=\s*(\S+)", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert found, "the Makefile names no RUN_EXTRAS"
    return found.group(1).split(",")


def requirement_closure(extras: Iterable[str], dist: str = "robotable") -> set[str]:
    """Canonical names of the distributions ``dist[extras]`` installs, itself included."""
    seen: set[str] = set()
    todo: list[tuple[str, frozenset[str]]] = [(dist, frozenset(extras))]
    while todo:
        name, wanted = todo.pop()
        key = (canonicalize_name(name), wanted)
        if f"{key[0]}|{sorted(wanted)}" in seen:
            continue
        seen.add(f"{key[0]}|{sorted(wanted)}")
        seen.add(key[0])
        try:
            requires = _pyproject_requires() if name == dist == "robotable" else md.requires(name) or []
        except md.PackageNotFoundError:
            continue  # a requirement not installed here cannot be what the code imports
        for text in requires:
            req = Requirement(text)
            if req.marker is not None:
                envs = [{**default_environment(), "extra": e} for e in (*wanted, "")]
                if not any(req.marker.evaluate(env) for env in envs):
                    continue
            todo.append((req.name, frozenset(req.extras)))
    return {s for s in seen if "|" not in s}


def _pyproject_requires() -> list[str]:
    """The project's own requirements as pyproject.toml states them now (installed metadata may lag)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = list(project.get("dependencies", []))
    for extra, reqs in project.get("optional-dependencies", {}).items():
        for req in reqs:
            base, _, marker = req.partition(";")
            found.append(f"{base}; ({marker}) and extra == {extra!r}" if marker else f"{base}; extra == {extra!r}")
    return found


def allowed_top_level_names(extras: Iterable[str]) -> set[str]:
    """The top-level import names that the distributions of ``robotable[extras]`` provide."""
    closure = requirement_closure(extras)
    return {
        top for top, dists in md.packages_distributions().items() if any(canonicalize_name(d) in closure for d in dists)
    }


def provided_by(top: str) -> list[str]:
    """The distributions that provide the import name ``top`` (empty: none known)."""
    return md.packages_distributions().get(top, [])


def _module_path(module: str) -> Path | None:
    rel = Path(*module.split("."))
    for path in (ROOT / rel.with_suffix(".py"), ROOT / rel / "__init__.py"):
        if path.is_file():
            return path
    return None


def _guarded(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether an import sits under ``try: ... except ImportError`` or ``if TYPE_CHECKING:``."""
    child, parent = node, parents.get(node)
    while parent is not None:
        if isinstance(parent, ast.Try) and child in parent.body:
            for handler in parent.handlers:
                names = [n for n in ast.walk(handler.type) if isinstance(n, ast.Name)] if handler.type else []
                if any(n.id in ("ImportError", "ModuleNotFoundError") for n in names):
                    return True
        if isinstance(parent, ast.If) and "TYPE_CHECKING" in ast.unparse(parent.test) and child in parent.body:
            return True
        child, parent = parent, parents.get(parent)
    return False


def _imports(module: str, path: Path) -> Iterable[str]:
    """Absolute names of what ``module`` (at ``path``) imports, unguarded imports only."""
    tree = ast.parse(path.read_text(), str(path))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and not _guarded(node, parents):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not _guarded(node, parents):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module or ""
            yield stem
            yield from (f"{stem}.{alias.name}" for alias in node.names)  # "from . import bots": a module


def third_party_imports(entry_points: Iterable[str] = ENTRY_POINTS) -> dict[str, set[str]]:
    """Third-party top-level names imported by the modules reachable from ``entry_points``, each with
    the project modules that import it."""
    found: dict[str, set[str]] = {}
    seen: set[str] = set()
    todo = list(entry_points)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = _module_path(module)
        if path is None:
            continue
        parts = module.split(".")
        for i in range(1, len(parts)):  # importing a.b.c runs a/__init__ and a/b/__init__ first
            todo.append(".".join(parts[:i]))
        for name in _imports(module, path):
            top = name.split(".")[0]
            if top == "robotable":
                todo.append(name)
            elif top and top not in sys.stdlib_module_names and top != "__future__":
                found.setdefault(top, set()).add(module)
    return found


def missing_from_run_extras() -> dict[str, set[str]]:
    """Third-party names the served code imports that `make run`'s extras do not install."""
    allowed = allowed_top_level_names(run_extras())
    return {top: users for top, users in third_party_imports().items() if top not in allowed}


if __name__ == "__main__":
    for top, users in sorted(missing_from_run_extras().items()):
        print(f"{top} ({', '.join(provided_by(top)) or 'unknown package'}): imported by {', '.join(sorted(users))}")
