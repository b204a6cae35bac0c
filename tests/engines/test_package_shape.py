"""Every game package is shaped alike, so a reader who knows one finds their way in the others:
``__init__.py`` defines INFO, SEARCH and ``new``; ``board.py`` holds the board's tables and
geometry; ``state.py`` the rules and the physical contract (its GameState)."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import engines
from engines.ai.profile import SearchProfile
from engines.core import GameInfo, GameState

ROOT = Path(engines.__file__).parent


def defined(path: Path) -> set[str]:
    """The names a module's own top level assigns or defines (not the ones it imports)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


@pytest.mark.parametrize("game", engines.GAME_NAMES)
def test_a_game_package_has_its_face_board_and_state(game):
    package = importlib.import_module(engines.MODULES[game])
    folder = ROOT / engines.MODULES[game].split(".")[-1]
    assert {"INFO", "SEARCH", "new"} <= defined(folder / "__init__.py")
    assert (folder / "board.py").is_file() and (folder / "state.py").is_file()
    assert isinstance(package.INFO, GameInfo) and package.INFO.name == game
    assert isinstance(package.SEARCH, SearchProfile)
    state = package.new()
    assert isinstance(state, GameState)
    assert type(state).__module__ == f"{engines.MODULES[game]}.state"
    assert set(dir(package)) >= set(package.__all__)


#: A fresh interpreter asks every game's info from many threads at once (as the daemon's page
#: lists the games while its loop opens one): nobody sees a game half imported.
RACE = """
import threading, engines
seen, errors = [], []
def ask():
    try:
        seen.extend(engines.game_info(n).title for n in engines.GAME_NAMES)
    except Exception as exc:
        errors.append(repr(exc))
threads = [threading.Thread(target=ask) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
print(len(seen), errors)
"""


def test_games_asked_from_many_threads_at_once_are_never_seen_half_imported():
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", RACE], capture_output=True, text=True, check=True)
        assert out.stdout.split(" ", 1) == [str(8 * len(engines.GAME_NAMES)), "[]\n"]
