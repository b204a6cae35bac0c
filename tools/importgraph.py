"""The code's import graph, read from the source with ``ast``, and its picture.

    .venv/bin/python -m tools.importgraph     # writes docs/drawings/imports.svg

The picture shows the three layers, the daemon above the engines and the drivers, and the rooms
of each: a package's sub-packages and its modules outside them (``firmware_host.board``,
``hardware.sim``; the package's own ``__init__`` is the room named like the layer). An arrow
goes from a room to each room it imports; a room stands above the rooms of its layer it imports,
so every arrow inside a layer points down (one pointing up, red, closes a circle). Arrows into
another layer are blue.

Every ``import`` and ``from ... import`` counts, wherever it stands (inside a function, under
``if TYPE_CHECKING``): a circle a lazy import hides is still a circle to a reader. ``from package
import name`` is an edge to ``package.name`` where that is a module, else to ``package``; a
module's parent packages are not edges of their own (Python runs them first whatever the order).
tests/test_imports.py walks the same graph and checks the picture in the repository is what
this draws now.

>>> circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
[['a', 'b', 'c']]
>>> room("firmware_host.net.web.server"), room("hardware"), room("engines.core.state")
('firmware_host.net', 'hardware', 'engines.core')
"""

from __future__ import annotations

import ast
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
#: The layers, top first, and what each is.
LAYERS = {
    "firmware_host": "the daemon and the reedboard command: knows no game and no chip by name",
    "engines": "pure rules: no I/O, clocks or threads",
    "hardware": "drivers behind small interfaces, and the simulated board",
}
OUT = ROOT / "docs" / "drawings" / "imports.svg"

Edges = dict[str, set[str]]


# ------------------------------------------------------------------------------ the graph
def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(*packages: str) -> dict[str, Path]:
    """Module name -> its file, for every module of ``packages``."""
    return {
        module_name(path): path for package in packages for path in sorted((ROOT / package).rglob("*.py"))
    }


def imported(path: Path, name: str, known: set[str]) -> set[str]:
    """The modules the file at ``path`` (module ``name``) imports; ``known``: the modules that
    exist, to tell ``from package import module`` from ``from module import name``."""
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


def graph(*packages: str) -> Edges:
    """Module -> the modules of ``packages`` it imports."""
    paths = modules(*packages)
    known = set(paths)
    return {name: imported(path, name, known) & known for name, path in paths.items()}


def circles(edges: Edges) -> list[list[str]]:
    """Every strongly connected group of more than one node (or one importing itself), sorted
    (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
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
            if len(group) > 1 or node in edges.get(node, ()):
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def room(module: str) -> str:
    """The room a module is in: its layer's sub-package, or the module itself."""
    return ".".join(module.split(".")[:2])


def rooms(edges: Edges) -> Edges:
    """Room -> the other rooms its modules import."""
    found: Edges = {room(m): set() for m in edges}
    for module, targets in edges.items():
        found[room(module)] |= {room(t) for t in targets} - {room(module)}
    return found


# ---------------------------------------------------------------------------- the picture
BOX_H, ROW_GAP, BOX_GAP, CHAR_W, PAD, BAND_GAP = 18, 30, 8, 6.6, 14, 40


def _ranks(layer: list[str], edges: Edges) -> dict[str, int]:
    """Each room's row counted from the bottom: one above the highest room of its layer it
    imports (an edge that closes a circle is left out)."""
    ranks: dict[str, int] = {}
    on_path: set[str] = set()

    def rank(node: str) -> int:
        if node not in ranks:
            on_path.add(node)
            below = [rank(t) for t in sorted(edges[node]) if t in layer and t not in on_path]
            on_path.discard(node)
            ranks[node] = 1 + max(below, default=-1)
        return ranks[node]

    for node in layer:
        rank(node)
    return ranks


def _rows(layer: list[str], edges: Edges) -> list[list[str]]:
    """The layer's rooms in rows, top first; each row ordered by where the rooms importing it
    stand in the rows above (fewer crossings)."""
    ranks = _ranks(layer, edges)
    rows = [sorted(n for n in layer if ranks[n] == r) for r in range(max(ranks.values()), -1, -1)]
    where: dict[str, float] = {}
    for row in rows:

        def key(node: str) -> tuple[float, str]:
            above = [where[s] for s in sorted(edges) if node in edges[s] and s in where]
            return (sum(above) / len(above) if above else 0.5, node)

        row.sort(key=key)
        where.update({n: (i + 0.5) / len(row) for i, n in enumerate(row)})
    return rows


def _label(node: str) -> str:
    layer, _, rest = node.partition(".")
    return rest or "__init__"


def _place(
    layer: str, rows: list[list[str]], left: float, top: float, width: float, box_w: float
) -> dict[str, tuple[float, float]]:
    """The top-left corner of each room's box in the band at ``left``, ``top``."""
    at = {}
    for r, row in enumerate(rows):
        span = len(row) * box_w + (len(row) - 1) * BOX_GAP
        x0 = left + (width - span) / 2
        for i, node in enumerate(row):
            at[node] = (x0 + i * (box_w + BOX_GAP), top + 28 + r * (BOX_H + ROW_GAP))
    return at


def svg(edges: Edges) -> str:
    """The picture of the rooms' ``edges`` (:func:`rooms`) as an SVG document."""
    layers = {name: sorted(n for n in edges if n.split(".")[0] == name) for name in LAYERS}
    rows = {name: _rows(nodes, edges) for name, nodes in layers.items()}
    box_w = {name: max(len(_label(n)) for n in nodes) * CHAR_W + 12 for name, nodes in layers.items()}
    width = {
        name: max(len(r) for r in rows[name]) * (box_w[name] + BOX_GAP) - BOX_GAP + 2 * PAD for name in LAYERS
    }
    height = {name: 28 + len(rows[name]) * (BOX_H + ROW_GAP) - ROW_GAP + PAD for name in LAYERS}
    top, *below = LAYERS
    total_w = max(width[top], sum(width[b] for b in below) + BAND_GAP * (len(below) - 1))
    width[top] = total_w
    bands = {top: (0.0, 0.0)}
    x = (total_w - sum(width[b] for b in below) - BAND_GAP * (len(below) - 1)) / 2
    for name in below:
        bands[name] = (x, height[top] + BAND_GAP)
        x += width[name] + BAND_GAP
    total_h = height[top] + BAND_GAP + max(height[b] for b in below)
    at: dict[str, tuple[float, float]] = {}
    for name, (bx, by) in bands.items():
        at |= _place(name, rows[name], bx + PAD, by, width[name] - 2 * PAD, box_w[name])
    size = {n: box_w[n.split(".")[0]] for n in at}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{total_h:.0f}" '
        f'viewBox="0 0 {total_w:.0f} {total_h:.0f}" font-family="monospace" font-size="11">',
        "<title>reedboard: layers, rooms and imports (python -m tools.importgraph)</title>",
        '<defs><marker id="a" viewBox="0 0 6 6" refX="6" refY="3" markerWidth="6" '
        'markerHeight="6" orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="context-stroke"/>'
        "</marker></defs>",
    ]
    for name, (bx, by) in bands.items():
        out.append(
            f'<rect x="{bx:.1f}" y="{by:.1f}" width="{width[name]:.1f}" '
            f'height="{height[name]:.1f}" rx="6" fill="#f4f4f0" stroke="#999"/>'
        )
        out.append(
            f'<text x="{bx + 8:.1f}" y="{by + 16:.1f}" font-weight="bold">{name}/ '
            f'<tspan font-weight="normal" fill="#555">{escape(LAYERS[name])}</tspan></text>'
        )
    for source in sorted(edges):
        for target in sorted(edges[source]):
            (sx, sy), (tx, ty) = at[source], at[target]
            across = source.split(".")[0] != target.split(".")[0]
            colour = "#3a6fb0" if across else ("#c0392b" if ty <= sy else "#777")
            out.append(
                f'<line x1="{sx + size[source] / 2:.1f}" y1="{sy + BOX_H:.1f}" '
                f'x2="{tx + size[target] / 2:.1f}" y2="{ty:.1f}" stroke="{colour}" '
                f'stroke-opacity="{0.35 if across else 0.6}" marker-end="url(#a)"/>'
            )
    for node, (nx, ny) in sorted(at.items()):
        out.append(
            f'<g><title>{node}</title><rect x="{nx:.1f}" y="{ny:.1f}" '
            f'width="{size[node]:.1f}" height="{BOX_H}" rx="3" fill="white" stroke="#333"/>'
            f'<text x="{nx + 6:.1f}" y="{ny + 13:.1f}">{escape(_label(node))}</text></g>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def picture() -> str:
    """The picture of the code as it is now."""
    return svg(rooms(graph(*LAYERS)))


def main() -> None:
    OUT.write_text(picture())
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
