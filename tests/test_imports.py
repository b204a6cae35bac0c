"""The import graph, read from the source with ``ast``: no module imports itself round a circle,
and the engines import nothing above them.

Every ``import`` and ``from ... import`` counts, wherever it stands (inside a function, under
``if TYPE_CHECKING``): a circle a lazy import hides is still a circle to a reader. ``from
package import name`` is an edge to ``package.name`` where that is a module, else to
``package``; a module's parent packages are not edges of their own (Python runs them first
whatever the order).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The packages whose import graphs are walked.
PACKAGES = ("engines",)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: str) -> dict[str, Path]:
    return {module_name(path): path for path in sorted((ROOT / package).rglob("*.py"))}


def imported(path: Path, name: str, known: set[str]) -> set[str]:
    """The modules the file at ``path`` (module ``name``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                child = f"{base}.{alias.name}"
                found.add(child if child in known else base)
    return found


def graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports."""
    paths = modules(package)
    known = set(paths)
    return {name: imported(path, name, known) & known for name, path in paths.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (or one importing itself), as a
    path round it (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in edges[node]:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_walk_finds_a_circle_and_the_edges_a_reader_sees():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"a"}, "b": set()}) == [["a"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    edges = graph("engines")
    assert "engines.antipode.board" in edges["engines.antipode.tactics"]
    assert "engines.ai.alphabeta" in edges["engines.ai"]  # from engines.ai import alphabeta


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circles(package):
    assert circles(graph(package)) == []


def test_the_engines_import_nothing_above_them_and_core_no_game():
    """engines/ is pure rules: it imports neither the daemon nor the drivers, and engines.core
    (what every game builds on) imports no game and not the computer opponent."""
    for name, path in modules("engines").items():
        everything = imported(path, name, set(modules("engines")))
        above = {m for m in everything if m.split(".")[0] in ("firmware_host", "hardware", "tests")}
        assert not above, (name, above)
        if name.startswith("engines.core"):
            outside = {m for m in everything if m.startswith("engines") and
                       not m.startswith("engines.core")}
            assert not outside, (name, outside)
