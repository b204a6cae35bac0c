"""A timed game on two paired ``reedboard run --sim`` processes over a real Mosquitto, played
as the players at each board would: moves made and carried out on each board (home's through
its simulator page's websocket, friend's through stdin), a takeback asked on home's page and
accepted at friend, friend killed (a power cut) and started again mid-game (while its players
think, or while it shows the move to carry out), the game played on; then both boards'
``reedboard export`` read against the test's own stopwatch."""

from __future__ import annotations

import json
import re
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from testbed.broker import Board, Watcher, board_config, new_page_port
from testbed.field import Page
from testbed.tools import REEDBOARD

CONTROL, START_S, INCREMENT_S = "60+2", 60, 2
#: How long the test holds each turn before it moves (s).
HOLD_S = 0.5
#: A hang guard on each turn's time: the daemon's latency, the test's own, a loaded machine
#: (s). Not a timing assert: the lower bound (the time the test held the turn) cannot fail by load.
GUARD_S = 5.0
#: How long the killed board stays off (s): longer than the guard, so time charged for it shows.
DOWN_S = GUARD_S + 2
PAIR = (
    '[opponent]\nkind = "remote"\nboard = "{other}"\nside = "{seat}"\n[clock]\ncontrol = "' + CONTROL + '"\n'
)
#: Antipalos 5 placements far enough apart that none takes or turns another.
MOVES = ["A1*", "E5*", "A5*", "E1*", "C1*", "C5*", "A3*", "E3*"]


@dataclass
class Turn:
    """One kept move as the test timed it: ``held`` (s) the test held the turn after it saw
    the mover's clock running (a lower bound of its time), ``window`` (s) from when its turn may
    have begun to when the move was seen recorded (an upper bound)."""

    side: str
    site: str
    held: float
    window: float


@dataclass
class Table:
    """The two boards (``home`` plays White, ``friend`` Black) and what the test timed;
    ``page``: home's page."""

    watcher: Watcher
    configs: dict[str, Path]
    boards: dict[str, Board]
    page: Page
    #: When the side to move could begin its turn (the first: as both boards started).
    begun: float
    turns: list[Turn] = field(default_factory=list)
    #: Each board's clocks (ms left by side) when each ply was carried out there.
    carried: dict[tuple[str, int], dict[str, int]] = field(default_factory=dict)

    def seen(self, name: str) -> int:
        return len(self.watcher.texts(f"reedboard/{name}/state"))

    def state(self, name: str, test, since: int | None = None) -> dict:
        """The first state of ``name`` that passes ``test``: the latest or a later one
        (``since``: one after its first ``since``)."""
        since = max(0, self.seen(name) - 1) if since is None else since
        return self.watcher.newer(f"reedboard/{name}/state", since, test)

    def move(self, side: str, site: str, cut: bool = False) -> None:
        """The players of ``side`` hold the turn, move, and the other board carries it out
        (``cut``: after a power cut there while it shows the move to carry out)."""
        mover, other = ("home", "friend") if side == "white" else ("friend", "home")
        ply = len(self.turns)
        self.state(mover, lambda s: s["ply"] == ply and s["clock"]["running"] == side)
        held = self.hold(mover, site)
        done = self.state(mover, lambda s: s["ply"] == ply + 1)
        assert done["moves"][-1] == site, done["screen"]
        self.turns.append(Turn(side, site, held, time.monotonic() - self.begun))
        if cut:
            self.state(other, lambda s: any(f"plays {site}" in line for line in s["screen"]))
            self.power_cut(other)
        self.carry(other, site, ply + 1)

    def hold(self, name: str, site: str) -> float:
        """The turn held for :data:`HOLD_S`, then ``site`` placed; how long it was held."""
        seen = time.monotonic()
        time.sleep(HOLD_S)
        held = time.monotonic() - seen
        self.place(name, site)
        return held

    def carry(self, name: str, site: str, ply: int) -> None:
        """The other side's move, once lit on ``name``, carried out there."""
        self.state(name, lambda s: any(f"plays {site}" in line for line in s["screen"]))
        self.begun = time.monotonic()
        self.place(name, site)
        done = self.state(name, lambda s: s["ply"] == ply and not s["missing"] and not s["extra"])
        self.carried[name, ply] = done["clock"]["left"]

    def place(self, name: str, site: str, on: bool = True) -> None:
        """A piece set on (or lifted from) ``site`` of ``name``: on home's page, at friend's stdin."""
        if name == "home":
            self.page.send({"type": "place" if on else "lift", "site": site})
        else:
            self.boards[name].place(site, on)

    def take_back(self) -> None:
        """Home asks to take back two moves, friend's players say OK, both set the pieces back."""
        undone = [turn.site for turn in self.turns[-2:]]
        since = {name: self.seen(name) for name in self.boards}
        self.page.send({"type": "takeback"})
        self.state("friend", lambda s: any("Take back?" in line for line in s["screen"]), since["friend"])
        self.boards["friend"].press("ok")
        ply = len(self.turns) - 2
        for name in self.boards:
            self.state(name, lambda s: s["ply"] == ply, since[name])
            for site in undone:
                self.place(name, site, on=False)
        for name in self.boards:
            back = self.state(
                name, lambda s: s["ply"] == ply and not s["missing"] and not s["extra"], since[name]
            )
            # The clocks as they read at the position returned to: Black's, not running, exactly.
            assert back["clock"]["left"]["black"] == self.carried["home", ply]["black"], (name, back["clock"])
        self.begun = time.monotonic()
        del self.turns[-2:]

    def think_and_cut(self, name: str, side: str) -> None:
        """``name``'s players (``side``) think a while, then a power cut there."""
        ply = len(self.turns)
        self.state(name, lambda s: s["ply"] == ply and s["clock"]["running"] == side)
        time.sleep(HOLD_S)
        self.power_cut(name)
        self.state(name, lambda s: s["ply"] == ply and s["clock"]["running"] == side)

    def power_cut(self, name: str) -> None:
        """``name`` killed, off for :data:`DOWN_S`, started again."""
        self.boards[name].kill()
        time.sleep(DOWN_S)
        since = self.seen(name)
        new_page_port(self.configs[name])
        self.boards[name] = Board(self.configs[name])
        self.boards[name].wait_running()
        self.begun = time.monotonic()  # its start is time off too
        self.state(name, lambda _: True, since)  # its first state since


def _exports(configs: dict[str, Path]) -> dict[str, str]:
    """``reedboard export`` of each board (at once)."""
    runs = {
        name: subprocess.Popen(
            [*REEDBOARD, "export", "--config", str(path)], stdout=subprocess.PIPE, text=True
        )
        for name, path in configs.items()
    }
    exported = {name: run.communicate(timeout=30)[0] for name, run in runs.items()}
    assert all(run.returncode == 0 for run in runs.values()), exported
    return exported


def _clocks(pgn: str) -> list[int]:
    """Each move's ``%clk`` in the export, in seconds."""
    return [
        int(h) * 3600 + int(m) * 60 + int(s) for h, m, s in re.findall(r"\[%clk (\d+):(\d\d):(\d\d)\]", pgn)
    ]


@pytest.mark.broker
@pytest.mark.slow
@pytest.mark.parametrize("cut", ["thinking", "carrying"])
def test_a_timed_paired_game_with_a_takeback_and_a_power_cut_matches_the_stopwatch(
    cut, tmp_path, broker, watcher
):
    """Friend's board starts :data:`DOWN_S` after home's (home's White clock waits for it:
    nobody's time), and loses power while its players think (their time before it and the
    time off charged to nobody), or while it shows White's move to carry out (nobody's
    time)."""
    configs = {
        "home": board_config(tmp_path, broker.port, "home", extra=PAIR.format(other="friend", seat="second")),
        "friend": board_config(
            tmp_path, broker.port, "friend", extra=PAIR.format(other="home", seat="first")
        ),
    }
    boards = {"home": Board(configs["home"])}
    page = None
    try:
        boards["home"].wait_running()
        time.sleep(DOWN_S)  # friend still starting: charged to nobody
        spawned = time.monotonic()  # the first turn may begin from here on
        boards["friend"] = Board(configs["friend"])
        boards["friend"].wait_running()
        page = Page(int(re.search(r"(?m)^port = (\d+)$", configs["home"].read_text())[1]))  # [web]'s
        table = Table(watcher, configs, boards, page, spawned)
        for ply in range(4):
            table.move(("white", "black")[ply % 2], MOVES[ply])
        table.take_back()
        table.move("white", MOVES[4], cut=cut == "carrying")
        if cut == "thinking":
            table.think_and_cut("friend", "black")
        for ply in range(3, 6):
            table.move(("white", "black")[ply % 2], MOVES[ply + 2])
    finally:
        if page is not None:
            page.close()
        stopped = {name: board.stop() for name, board in boards.items()}
    assert stopped == {"home": 0, "friend": 0}
    exports = _exports(configs)
    for pgn in exports.values():
        assert f'[TimeControl "{CONTROL}"]' in pgn
    clocks = _clocks(exports["home"])
    assert clocks == _clocks(exports["friend"]) and len(clocks) == len(table.turns) == 6
    # Each turn's time as its board timed it (ms), sent with the move: the same on both boards.
    used_ms = [json.loads(watcher.texts(f"reedboard/{name}/moves")[-1])["used"] for name in configs]
    assert used_ms[0] == used_ms[1] and all(ms >= 1000 * t.held for ms, t in zip(used_ms[0], table.turns))
    for side in ("white", "black"):
        mine = [i for i, turn in enumerate(table.turns) if turn.side == side]
        left = [float(START_S)] + [clocks[i] for i in mine]
        for n, i in enumerate(mine):
            used = left[n] + INCREMENT_S - left[n + 1]  # %clk is whole seconds, down
            turn = table.turns[i]
            # Black's turn after the power cut: the time off (over DOWN_S) would break the bound.
            assert turn.held - 1 < used <= turn.window + GUARD_S + 1, (side, n, turn, used)
        spent = START_S + INCREMENT_S * len(mine) - clocks[mine[-1]]
        assert spent >= sum(table.turns[i].held for i in mine), (side, spent)
