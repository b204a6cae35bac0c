"""docs/cafe.md's two paired boards (``home`` and ``friend``, "Pairing two boards") as the tests
run them on this machine: their configs from the docs, started on a broker each (the same one,
or two cafés bridged), a game played across them, and the watcher's messages searched."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from testbed.broker import Board, Watcher, board_config
from testbed.tools import free_port

CAFE = Path(__file__).resolve().parents[1] / "docs" / "cafe.md"
#: Antipalos 3: White (home's players) wins by connection on the fifth move.
MOVES = ("A1*", "A3*", "B2*", "C1*", "C3*")


def docs_pair() -> dict[str, str]:
    """The two boards' config in docs/cafe.md's "Pairing two boards": home's on the left of
    the block, friend's in the comments beside it."""
    text = CAFE.read_text(encoding="utf-8")
    section = text[text.index("## Pairing two boards") :]
    start = section.index("```toml\n") + len("```toml\n")
    columns: dict[str, list[str]] = {"home": [], "friend": []}
    for line in section[start : section.index("```", start)].splitlines()[1:]:  # the heading comment
        home, _, friend = line.partition("#")
        columns["home"].append(home.strip())
        columns["friend"].append(friend.strip())
    return {board: "\n".join(lines) + "\n" for board, lines in columns.items()}


def on_this_machine(folder: Path, board: str, text: str, port: int) -> Path:
    """``text`` with the broker here (which takes anonymous clients: no log-in), and the board's
    own games file and page port (two boards share this machine)."""
    assert re.search(r'^host = ".+"$', text, re.M) and f'board = "{board}"' in text
    text = re.sub(r'^host = ".+"$', f'host = "127.0.0.1"\nport = {port}', text, flags=re.M)
    text = re.sub(r"^(username|password_file) = .*\n", "", text, flags=re.M)
    path = folder / f"{board}.toml"
    path.write_text(f'storage = "{folder / (board + ".db")}"\n[web]\nport = {free_port()}\n{text}')
    return path


def first(
    watcher: Watcher, topic: str, test: Callable[[dict], bool], since: int = 0, timeout: float = 15
) -> tuple[int, dict[str, Any]]:
    """The first message on ``topic`` after its first ``since`` that passes ``test``, and
    where it is."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for index, text in enumerate(watcher.texts(topic)[since:], since):
            if test(found := json.loads(text)):
                return index, found
        time.sleep(0.05)
    raise AssertionError(f"nothing on {topic} passed the test; last: {watcher.texts(topic)[-2:]}")


def latest(watcher: Watcher, topic: str, test: Callable[[dict], bool], since: int = 0) -> dict[str, Any]:
    """The first message on ``topic`` after its first ``since`` that passes ``test``."""
    return first(watcher, topic, test, since)[1]


def small_pair(folder: Path, boards: Callable[[Path], Board], ports: dict[str, int]) -> dict[str, Board]:
    """docs/cafe.md's pair playing Antipalos 3, each board on the broker at its port in
    ``ports`` (``home`` and ``friend``), started by ``boards`` (tests/net/conftest.py's
    fixture) and running."""
    configs, running = docs_pair(), {}
    for name, port in ports.items():
        path = on_this_machine(folder, name, configs[name], port)
        path.write_text("size = 3\n" + path.read_text())
        running[name] = boards(path)
    for board in running.values():
        board.wait_running()
    return running


def play_across(
    running: dict[str, Board],
    moves: Iterable[str],
    hears: Callable[[str], Watcher],
    moved: Callable[[str, int], None] = lambda name, ply: None,
) -> None:
    """``moves`` made by turns, home first: each at the mover's board, then, once the other
    board asks for it (its ``expect`` event, as ``hears(other)`` sees it), carried out there,
    and its state seen at that ply. ``moved(mover, ply)`` is called after each move is made."""
    for ply, move in enumerate(moves, 1):
        mover, other = ("home", "friend") if ply % 2 else ("friend", "home")
        running[mover].place(move)
        moved(mover, ply)
        asked = latest(
            hears(other),
            f"reedboard/{other}/events",
            lambda e, move=move: e.get("move") == move and e["event"] == "expect",
        )
        assert asked["move"] == move
        running[other].place(move)
        hears(other).state(other, lambda s, ply=ply: s["ply"] == ply)


#: A board's ``[opponent]`` table: paired with the board ``other``, which plays ``side``.
OPPONENT = '\n[opponent]\nkind = "remote"\nboard = "{other}"\nside = "{side}"\n'


def t1_and_t2(
    folder: Path, port: int, boards: Callable[[Path], Board], extra: str = ""
) -> tuple[Board, Board]:
    """Board t1 (White) paired with t2 (Black) on the broker at ``port``, ``extra`` in both
    configs, started by ``boards`` (tests/net/conftest.py's fixture); both running."""
    one = boards(board_config(folder, port, "t1", OPPONENT.format(other="t2", side="black") + extra))
    two = boards(board_config(folder, port, "t2", OPPONENT.format(other="t1", side="white") + extra))
    one.wait_running()
    two.wait_running()
    return one, two


def carried_out(
    watcher: Watcher, mover: tuple[str, Board], other: tuple[str, Board], move: str
) -> dict[str, Any]:
    """``move`` made at the board ``mover`` (its id and process), said at ``other`` ("Opponent
    plays ...") and carried out there: ``other``'s state once its record ends with it (both
    after the move is made: an earlier game may have had that move too)."""
    events = f"reedboard/{other[0]}/events"
    heard, since = len(watcher.texts(events)), watcher.seen(other[0])
    mover[1].place(move)
    watcher.wait(events, lambda t: f"Opponent plays {move}" in t, since=heard)
    other[1].place(move)
    return watcher.state(other[0], lambda s: s["moves"][-1:] == [move], since=since)
