"""The server package imports without a loop, and no import hides in a function to dodge one.

The imports are read with ``ast`` from the source (module-level ones, those under ``if TYPE_CHECKING:``
and those inside functions), relative ones resolved; a cycle among the modules of ``robotable/server``
fails, naming the modules in it. An import of a package (``from . import table``, ``from .table import X``)
counts as an import of its ``__init__``; ``from .table.live import X`` only of ``table/live.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "robotable" / "server"
PACKAGE = "robotable.server"
#: Imports inside functions that are not about cycles: optional dependencies loaded only when used.
LAZY_OK = {"redis.asyncio", "uvicorn", "playwright", "psycopg", "psycopg2"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(SERVER.rglob("*.py"))}


def resolve(current: str, is_package: bool, node: ast.ImportFrom | ast.Import) -> list[str]:
    """The modules an import statement names (absolute), with ``from X import name`` naming ``X.name``
    when that is a module."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = current if is_package else current.rpartition(".")[0]
    for _ in range(node.level - 1):
        base = base.rpartition(".")[0]
    target = f"{base}.{node.module}" if node.module else base
    if node.level == 0:
        target = node.module or ""
    return [target] + [f"{target}.{a.name}" for a in node.names]


class Imports(ast.NodeVisitor):
    """Every import of a module, and those inside a function (with their line)."""

    def __init__(self) -> None:
        self.found: list[ast.Import | ast.ImportFrom] = []
        self.in_function: list[ast.Import | ast.ImportFrom] = []
        self._depth = 0

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._depth += 1
        self.generic_visit(node)
        self._depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Import(self, node: ast.Import) -> None:
        self.found.append(node)
        if self._depth:
            self.in_function.append(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self.visit_Import(node)  # type: ignore[arg-type]


def read(path: Path) -> Imports:
    imports = Imports()
    imports.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    return imports


def graph(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the server modules it imports (anywhere in its source)."""
    edges: dict[str, set[str]] = {}
    for name, path in mods.items():
        out: set[str] = set()
        for node in read(path).found:
            named = resolve(name, path.name == "__init__.py", node)
            if isinstance(node, ast.ImportFrom):
                target, *members = named
                hits = [m for m in members if m in mods]  # ``from . import clocks``: the module clocks
                if len(hits) < len(members) and target in mods:
                    hits.append(target)  # ``from .clocks import X``: the module clocks itself
                out.update(hits)
            else:
                out.update(t for t in named if t in mods)
        out.discard(name)
        out.discard(PACKAGE)  # every module's parent package (the app's entry point), not an edge
        edges[name] = out
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each as one loop through its
    first module (:func:`describe` names every module of it)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(path_through(sorted(component), edges))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return found


def path_through(component: list[str], edges: dict[str, set[str]]) -> list[str]:
    """One loop in ``component``: from its first module back to it (breadth-first)."""
    start, inside = component[0], set(component)
    previous: dict[str, str] = {}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges[v] & inside):
            if w == start:
                loop = [v]
                while loop[-1] != start:
                    loop.append(previous[loop[-1]])
                return [*reversed(loop), start]
            if w not in previous:
                previous[w] = v
                queue.append(w)
    return component


def components(edges: dict[str, set[str]]) -> list[set[str]]:
    """The modules of each loop (every module reachable from the loop's first and back)."""
    out = []
    for loop in cycles(edges):
        start = loop[0]
        ahead = reach(start, edges)
        out.append({m for m in ahead if start in reach(m, edges)} | {start})
    return out


def reach(start: str, edges: dict[str, set[str]]) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for w in edges.get(todo.pop(), ()):
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


def describe(edges: dict[str, set[str]]) -> list[str]:
    """Each loop as ``a -> b -> a (modules in it: a, b, c)``."""
    return [
        f"{' -> '.join(loop)} (modules in it: {', '.join(sorted(members))})"
        for loop, members in zip(cycles(edges), components(edges), strict=True)
    ]


def test_the_cycle_finder_names_a_loop() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c", "a"]]
    two = {"a": {"b", "c"}, "b": {"a"}, "c": {"a"}}
    assert describe(two) == ["a -> b -> a (modules in it: a, b, c)"]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_imports_are_resolved_like_python_does() -> None:
    tree = ast.parse("from ..storage import MoveRow\nfrom . import live\nfrom .live import LiveTable\n")
    nodes = [n for n in tree.body if isinstance(n, ast.ImportFrom)]
    mods = {"robotable.server.storage": Path(), "robotable.server.table.live": Path()}
    named = [resolve("robotable.server.table.moves", False, n) for n in nodes]
    assert named[0][0] == "robotable.server.storage"
    assert "robotable.server.table.live" in named[1]
    assert named[2][0] == "robotable.server.table.live"
    assert all(any(m in mods for m in n) for n in named)


def test_the_server_package_has_no_import_cycle() -> None:
    mods = modules()
    assert "robotable.server.table.manager" in mods and "robotable.server.app" in mods  # it read the tree
    found = describe(graph(mods))
    assert not found, "import cycles in robotable/server: " + "; ".join(found)


@pytest.mark.parametrize("name", sorted(modules()))
def test_no_import_inside_a_function_names_a_server_module(name: str) -> None:
    """An import inside a function is how a cycle is dodged: only optional third-party modules may be
    loaded that way (and the standard library)."""
    mods = modules()
    path = mods[name]
    hidden = []
    for node in read(path).in_function:
        named = resolve(name, path.name == "__init__.py", node)
        if any(n.startswith("robotable") for n in named):
            hidden.append(f"line {node.lineno}: {ast.unparse(node)}")
    assert not hidden, f"{path.relative_to(ROOT)} imports inside a function: {hidden}"
