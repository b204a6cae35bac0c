"""Every test gets the markers of what it needs (pyproject.toml lists them), so a run can
choose, e.g. the quick tests on a laptop::

    .venv/bin/python -m pytest -m "not browser and not broker and not slow"

- ``browser``: a test given Chromium or Firefox (the ``browser``, ``page`` or ``firefox`` fixture);
- ``broker``: a test given Mosquitto or PostgreSQL (the ``broker``, ``watcher``, ``boards`` or
  ``postgres`` fixture); a test that starts one itself is marked where it is written;
- ``slow``: the robot's, the soak's and the faults' runs (:data:`SLOW`), and tests marked so
  where they are written (the computer's longest searches);
- ``daemon``: the daemon's tests that need nothing outside Python (:data:`DAEMON`: the folders
  mirroring firmware_host's packages, tests/net/ aside);
- ``docs``: the docs as tests (``tests/docs/``): every example and command of README.md and
  docs/ run against the product (with ``broker`` where they start Mosquitto);
- ``unit``: every other test and doctest.

A test may have several (a dashboard's page on a broker: ``browser`` and ``broker``).

This file stands at the root so that doctests collected on their own (``pytest engines``) get
their marker too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
#: Fixture -> the marker of the test that uses it.
NEEDS = {
    "browser": "browser",
    "page": "browser",
    "firefox": "browser",
    "broker": "broker",
    "watcher": "broker",
    "boards": "broker",
    "postgres": "broker",
}
#: Test files that run for a minute or more: the robot's machines (in the field too), the soak
#: and the faults (their long versions are bench scripts).
SLOW = {
    "tests/board/test_robot.py",
    "tests/net/mqtt/test_field.py",
    "tests/robustness/test_soak.py",
    "tests/robustness/test_faults.py",
}
#: The files whose tests run longest (--durations on 2 cores), longest first: collected first,
#: so that two workers share them from the start instead of one running the last of them alone
#: at the end (tests/run.sh: ``--dist worksteal`` then evens out the short rest).
FIRST = (
    "tests/board/test_robot.py",
    "tests/runtime/test_sound.py",
    "tests/robustness/test_noisy_sensors.py",
    "tests/net/mqtt/test_field.py",
    "tests/robustness/test_attacks.py",
    "tests/net/mqtt/test_remote_play.py",
    "tests/robustness/test_faults.py",
    "tests/test_markers.py",
    "tests/net/cafe/test_league_on_boards.py",
    "tests/net/web/test_web_setup.py",
    "tests/net/mqtt/test_commands_checked.py",
    "tests/net/cafe/test_cafe.py",
    "tests/robustness/test_whole_games.py",
    "tests/net/mqtt/test_paired_clocks.py",
    "tests/system/test_stop.py",
    "tests/engines/test_antipod.py",
    "tests/test_types.py",
)
#: The daemon's test folders (tests/net/'s are ``unit`` tests, or ``broker``/``browser``).
DAEMON = tuple(
    f"tests/{package}/" for package in ("actions", "board", "cli", "plan", "runtime", "store", "ui")
)
DOCS = "tests/docs/"
#: The markers that say what a test needs; a test with none of them is a ``unit`` test.
KINDS = ("browser", "broker", "slow", "daemon", "docs")


def kinds(path: str, fixtures: set[str], marked: set[str]) -> set[str]:
    """The markers a test at ``path`` (relative to the root) with ``fixtures`` and the markers
    ``marked`` already gets (tests/test_markers.py collects with each)."""
    found = {NEEDS[f] for f in fixtures if f in NEEDS} | (marked & set(KINDS))
    if path in SLOW:
        found.add("slow")
    if path.startswith(DAEMON):
        found.add("daemon")
    if path.startswith(DOCS):
        found.add("docs")
    return found or {"unit"}


def rank(path: str) -> int:
    """Where the tests of ``path`` (relative to the root) run: :data:`FIRST`'s in its order,
    then every other file in the order collected.

    >>> rank("tests/board/test_robot.py"), rank("tests/ui/test_menu.py") == len(FIRST)
    (0, True)
    """
    return FIRST.index(path) if path in FIRST else len(FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    where: dict[pytest.Item, str] = {}
    for item in items:
        path = Path(item.path).resolve()
        where[item] = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
        fixtures = set(getattr(item, "fixturenames", ()))
        marked = {mark.name for mark in item.iter_markers()}
        for name in sorted(kinds(where[item], fixtures, marked) - marked):
            item.add_marker(name)
    items.sort(key=lambda item: rank(where[item]))  # stable: a file's own order is kept
