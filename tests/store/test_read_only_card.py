"""A card that cannot be written (testbed.tools.Card: a loop-mounted ext4, read-only even for
root): mounted read-only at start, its games folder missing, or failing in the middle of a
game (ext4 remounts itself read-only after errors). The games go on from memory, every move in
order, the OLED, STATUS and the journal say "Cannot save: the card is read-only", and all is
saved once the card can be written again; a second daemon is still refused."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import threading

import pytest

from firmware_host.store.storage import READ_ONLY, Storage
from testbed.running import Lines, send
from testbed.tools import REEDBOARD, Card, NoCard, free_port, wait_for, wait_until
from tests.store.test_storage_faults import OnFile


@pytest.fixture
def card(tmp_path):
    try:
        made = Card(tmp_path)
    except NoCard as why:
        pytest.skip(str(why))
    yield made
    made.close()


def test_without_root_the_card_tests_skip_saying_why(tmp_path, monkeypatch):
    """A developer's machine (no root, so no loop mount): each card test here skips with this
    reason, and nothing is made."""
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(NoCard, match=r"^a read-only card needs root \(a loop-mounted ext4\)$"):
        Card(tmp_path)
    assert list(tmp_path.iterdir()) == []


def stored_moves(path) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT game_id, notation FROM moves ORDER BY game_id, ply").fetchall()


# ------------------------------------------------------------------ the games file alone
def test_a_card_read_only_at_start_keeps_the_games_in_memory_until_it_can_be_written(card):
    path = str(card.folder / "games.db")
    before = Storage(path)
    game = before.start("antipalos", 5, None)
    before.add_move(game, 1, "B2*")
    before.close()
    card.read_only()
    storage = Storage(path)
    assert storage.in_memory and storage.failure == READ_ONLY
    assert storage.unfinished().moves == ("B2*",)  # what the card holds is read
    storage.add_move(game, 2, "C3*")  # never refused
    storage.finish(game, "white wins by connection", "white")
    second = storage.start("antipalos", 5, None)
    storage.add_move(second, 1, "A1*")
    assert not storage.flush() and storage.failure == READ_ONLY
    storage.set_busy_ms(20)  # as the daemon does: the file opened again keeps it
    card.mend()
    assert storage.flush() and not storage.in_memory and storage.failure is None
    assert storage._db.execute("PRAGMA busy_timeout").fetchone() == (20,)
    storage.add_move(second, 2, "E5*")  # the file again, as ever
    storage.close()
    assert stored_moves(path) == [(1, "B2*"), (1, "C3*"), (2, "A1*"), (2, "E5*")]


def test_a_games_folder_missing_on_a_read_only_card_is_made_once_it_can_be(card):
    path = card.folder / "reedboard" / "games.db"
    card.read_only()
    storage = Storage(str(path))
    assert storage.in_memory and storage.failure == READ_ONLY and storage.unfinished() is None
    game = storage.start("antipod", 4, None)
    storage.add_move(game, 1, "b2")
    card.mend()
    assert storage.flush()
    storage.close()
    assert stored_moves(path) == [(1, "b2")]


def test_games_begun_in_memory_follow_those_a_late_file_holds(card):
    """A folder that was missing (a card mounted late) turns up holding earlier games: the
    games begun meanwhile are saved after them, and later writes follow them."""
    path = card.folder / "late" / "games.db"
    card.read_only()
    storage = Storage(str(path))
    game = storage.start("antipod", 4, None)  # id 1 here
    storage.add_move(game, 1, "b2")
    card.mend()
    (card.folder / "late").mkdir()
    other = Storage(str(path))
    for _ in range(2):
        other.finish(other.start("phalanx", None, None), "abandoned")
    other.close()
    assert storage.flush()
    storage.add_move(game, 2, "c3")
    storage.close()
    assert stored_moves(path) == [(3, "b2"), (3, "c3")]


# ------------------------------------------------------------------ the daemon
def test_a_card_that_fails_mid_game_plays_on_and_says_so_once(card, capsys):
    board = OnFile(str(card.folder / "games.db"))
    board.put("A1*")
    card.fail()  # as an SD card that reports errors: read-only from now on
    board.put("A3*")
    board.put("B2*")
    assert [e["move"] for e in board.events("move")] == ["A1*", "A3*", "B2*"]  # none refused
    assert board.screen[:2] == ["Cannot save", READ_ONLY]
    assert f"(cannot save: {READ_ONLY})" in board.daemon._status
    err = capsys.readouterr().err
    assert err.count(f"Cannot save: {READ_ONLY}") == 1 and "from memory" in err
    board.wait(2000)
    assert capsys.readouterr().err == ""  # said once
    card.mend()
    board.wait(1200)
    assert "can be saved again" in capsys.readouterr().err
    assert "cannot save" not in board.daemon._status
    board.put("C1*")
    board.daemon.close()
    assert [m for _, m in stored_moves(card.folder / "games.db")] == ["A1*", "A3*", "B2*", "C1*"]


def test_reedboard_run_on_a_read_only_card_plays_refuses_a_second_daemon_and_saves_later(
    tmp_path, card, notify_socket
):
    path, sock = notify_socket
    db = card.folder / "games.db"
    config = tmp_path / "config.toml"
    config.write_text(f'game = "antipalos"\nsize = 5\nstorage = "{db}"\n[web]\nport = {free_port()}\n')
    before = Storage(str(db))
    before.add_move(before.start("antipalos", 5, None), 1, "B2*")
    before.close()
    card.read_only()
    proc = subprocess.Popen(
        [*REEDBOARD, "run", "--sim", "--config", str(config)],
        env={"NOTIFY_SOCKET": path, "PATH": "/usr/bin:/bin"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[dict] = []
    reader = threading.Thread(target=lambda: lines.extend(map(json.loads, proc.stdout)))
    reader.start()
    journal = Lines(proc.stderr)  # drained meanwhile, read at the end
    try:
        ready = wait_for(sock, "READY=1")[-1]
        assert ready.endswith(f"black to move (cannot save: {READ_ONLY})")  # resumed
        assert wait_until(
            lambda: any(
                e["event"] == "display" and e["lines"][:2] == ["Cannot save", READ_ONLY] for e in lines
            )
        )
        send(proc, site="C3*", on=True)
        send(proc, button="ok")  # the notice read: the game's screen again
        assert wait_until(lambda: [e["move"] for e in lines if e["event"] == "move"] == ["C3*"])
        second = subprocess.run(
            [*REEDBOARD, "run", "--sim", "--config", str(config)],
            capture_output=True,
            text=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
        )
        assert second.returncode == 2 and second.stderr.splitlines() == [
            f"reedboard run: {db} is in use by another reedboard run (PID {proc.pid}); "
            "one daemon per database"
        ]
        card.mend()
        saved = "STATUS=Antipalos 5: white to move"  # no longer "(cannot save: ...)"
        while wait_for(sock, "STATUS=", timeout=5)[-1] != saved:
            pass
        send(proc, site="D4*", on=True)
        assert wait_until(lambda: len([e for e in lines if e["event"] == "move"]) == 2)
    finally:
        proc.terminate()
        code = proc.wait(5)
        reader.join(5)
    err = journal.text(drained=True)
    assert code == 0, err
    assert err.count(f"Cannot save: {READ_ONLY}") == 1 and "can be saved again" in err
    assert stored_moves(db) == [(1, "B2*"), (1, "C3*"), (1, "D4*")]
