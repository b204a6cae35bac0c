"""The import graph, read from the source with ``ast`` (tools/importgraph.py: every import counts,
lazy or under ``TYPE_CHECKING``): no module imports itself round a circle in any layer, the
layers point one way (the daemon above the engines and the drivers, which import neither each
other nor it), the helpers the tests and the bench share import neither of them, and the
picture of it all in docs/ is what the code draws now."""

from __future__ import annotations

import pytest

from tools.importgraph import LAYERS, OUT, circles, graph, imported, modules, picture, room, rooms

#: What each top-level package may import of the others (the layers, and the test helpers).
MAY_IMPORT = {
    "engines": set(),
    "hardware": set(),
    "firmware_host": {"engines", "hardware"},
    "testbed": {"engines", "firmware_host", "hardware"},
    "bench": {"engines", "firmware_host", "hardware", "testbed"},
    "tools": set(),
}
ALL = ("engines", "firmware_host", "hardware", "testbed", "bench", "tests", "tools")


def test_the_walk_finds_a_circle_and_the_edges_a_reader_sees():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"a"}, "b": set()}) == [["a"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    edges = graph("engines", "firmware_host")
    assert "engines.antipode.board" in edges["engines.antipode.tactics"]
    assert "engines.ai.alphabeta" in edges["engines.ai"]  # from engines.ai import alphabeta
    assert "engines" in edges["firmware_host.board.game"]  # across layers
    assert "firmware_host.board.controller" in edges["firmware_host.runtime.session"]  # lazy counts


@pytest.mark.parametrize("package", ["engines", "firmware_host", "hardware", "testbed", "bench"])
def test_no_import_circles(package):
    assert circles(graph(package)) == []


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_each_package_imports_only_what_is_below_it(package):
    """engines/ is pure rules and hardware/ the drivers: neither imports the other nor the
    daemon; nothing but the tests imports tests/ (the bench runs through testbed/)."""
    known = set(modules(*ALL))
    for name, path in modules(package).items():
        others = {m.split(".")[0] for m in imported(path, name, known)} & set(ALL) - {package}
        assert others <= MAY_IMPORT[package], (name, others - MAY_IMPORT[package])


def test_engines_core_imports_no_game_nor_the_computer():
    """engines.core, what every game builds on, imports no game and not the computer opponent."""
    for name, targets in graph("engines").items():
        if name.startswith("engines.core"):
            assert all(t.startswith("engines.core") for t in targets), (name, targets)


def test_the_rooms_of_the_picture_are_each_layer_s_packages_and_modules():
    found = rooms(graph(*LAYERS))
    assert {"firmware_host.net", "firmware_host.board", "engines.core", "hardware.sim", "engines"} <= set(
        found
    )
    assert "engines.core" in found["engines.antipode"] and "firmware_host" not in found["engines"]
    assert room("engines.antipode.state") == "engines.antipode"
    assert room("firmware_host.net.web.server") == "firmware_host.net"


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_the_rooms_of_each_layer_import_each_other_one_way(layer):
    """A room stands above the rooms it imports (no arrow in the picture points up): the
    daemon's rooms read cli > net > runtime > board > ui > actions and store, plan beside."""
    assert circles(rooms(graph(layer))) == []


def test_the_picture_in_docs_is_what_the_code_draws_now():
    """docs/architecture.md shows docs/drawings/imports.svg; after moving code, redraw it with
    ``python -m tools.importgraph``."""
    assert OUT.read_text() == picture(), "run: .venv/bin/python -m tools.importgraph"
