"""The markers choose the runs the README names: each test is collected under the markers of
what it needs (conftest.py at the root gives them), and the quick run leaves out every test
that needs a browser, a broker or minutes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
QUICK = "not browser and not broker and not slow"
#: A file or test of each kind, and the markers it must be collected under.
SAMPLES = {
    "tests/net/web/test_web_browser.py": {"browser"},
    "tests/net/web/test_web_server.py": {"unit"},
    "tests/net/mqtt/test_board_on_broker.py::test_state_events_and_availability": {"broker"},
    (
        "tests/net/mqtt/test_net_board.py::"
        "test_a_pairing_whose_acl_lacks_the_read_lines_is_seen_within_seconds"
    ): {"broker"},
    "tests/net/cafe/test_archive.py::test_names[postgresql]": {"broker"},
    "tests/net/cafe/test_archive.py::test_names[sqlite]": {"unit"},
    "tests/net/cafe/test_fleet.py": {"unit"},
    "tests/board/test_robot.py": {"daemon", "slow"},
    "tests/net/mqtt/test_field.py": {"broker", "slow"},
    "tests/ui/test_menu.py": {"daemon"},
    "tests/robustness/test_soak.py": {"slow"},
    "tests/robustness/test_faults.py": {"broker", "slow"},
    "engines/antipode/state.py": {"unit"},  # doctests
    "tests/docs/test_examples.py": {"docs"},
    "tests/docs/test_cafe.py": {"docs", "broker", "browser"},
}
MARKERS = ("unit", "daemon", "browser", "broker", "slow", "docs")


#: A collection of the arguments that prints each test's id and markers, one JSON line each.
MARKED = """
import json, sys, pytest

class Print:
    def pytest_collection_finish(self, session):
        for item in session.items:
            print("MARKED " + json.dumps([item.nodeid, sorted(m.name for m in item.iter_markers())]))

sys.exit(pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *sys.argv[1:]], [Print()]))
"""


def _marked(*args: str) -> dict[str, set[str]]:
    """The tests ``pytest args`` collects -> the markers each is collected under."""
    run = subprocess.run(
        [sys.executable, "-c", MARKED, *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode in (0, 5), run.stdout + run.stderr  # 5: none selected
    found = [
        json.loads(line.removeprefix("MARKED "))
        for line in run.stdout.splitlines()
        if line.startswith("MARKED ")
    ]
    return {nodeid: set(markers) for nodeid, markers in found}


@pytest.fixture(scope="session")  # once a worker, however its tests come
def marked() -> dict[str, set[str]]:
    """:data:`SAMPLES`' tests -> their markers (one collection for all the markers)."""
    return _marked(*SAMPLES)


@pytest.fixture(scope="session")  # once a worker, however its tests come
def quick() -> set[str]:
    """The ids of :data:`SAMPLES`' tests that ``-m`` :data:`QUICK` selects."""
    return set(_marked("-m", QUICK, *SAMPLES))


def _of(ids: set[str], sample: str) -> set[str]:
    """The ids of ``sample``'s tests (a file's, a test's or one case's)."""
    return {i for i in ids if i == sample or i.startswith((sample + "::", sample + "["))}


@pytest.mark.parametrize("sample", SAMPLES)
def test_each_test_is_collected_under_the_markers_of_what_it_needs(sample, marked):
    under = {m for m in MARKERS if any(m in marked[i] for i in _of(set(marked), sample))}
    assert under == SAMPLES[sample]


def test_the_quick_run_leaves_out_browsers_brokers_and_the_slow(quick):
    for sample, markers in SAMPLES.items():
        assert bool(_of(quick, sample)) == markers.isdisjoint({"browser", "broker", "slow"}), sample


def test_the_longest_files_are_collected_first(marked):
    """conftest.py's FIRST, in its order, before every other file (the two workers share the
    long files from the start; tests/run.sh)."""
    from conftest import FIRST

    files = list(dict.fromkeys(nodeid.split("::")[0] for nodeid in marked))
    longest = [path for path in FIRST if path in files]
    assert len(longest) >= 3 and files[: len(longest)] == longest
