"""Two boards paired through an in-memory bus (board-to-board play), each with its player robot
following it: the robots move in turn, each carrying out the other board's moves as its board
lights them; takebacks are asked of the other board and answered there; a new game on one board
starts it on both; either daemon may restart. Whenever both boards are idle and nothing is in
flight, they must hold the same record (the ``paired`` invariant).

>>> import random
>>> from firmware_host.board.controller import Game
>>> pair = Pair(Game.of("antipod", 4), random.Random(3), kinds=())
>>> for _ in range(4):
...     pair.act("move")
>>> pair.boards[0].held() == pair.boards[1].held() and len(pair.boards[0].held())
4
"""

from __future__ import annotations

import os
import random
import tempfile
from typing import Callable, Iterable, Protocol

from firmware_host.board.controller import Game
from firmware_host.net.mqtt.remote import Remote
from firmware_host.store.config import ClockConfig, Config, Mqtt, OpponentConfig
from testbed.board_under_test import BoardUnderTest, Table
from testbed.bus import Bus, Faults
from testbed.robot import KINDS, Robot

#: What the robots at a pair of boards intend, and how often (weights).
PAIR_MIX = {
    "move": 60,
    "correct": 5,
    "takeback menu": 5,
    "takeback command": 3,
    "takeback hands": 4,
    "new_game menu": 2,
    "new_game command": 1,
    "restart": 3,
    "knock": 3,
}
#: What the café changes at a pair of tables, joined to :data:`PAIR_MIX` in the bench: the
#: players named at one board (a process speaks one language; a league round is one board's).
PAIR_SEATING = {"names command": 2}
#: How long to wait for what the other board sends (ms of the virtual clock).
WAIT_MS = 8000


def paired_config(board: str, other: str, seat: str, clock: ClockConfig | None = None) -> Config:
    """Board ``board``'s config as docs/cafe.md pairs two boards: ``[opponent] kind =
    "remote"``, the ``other`` board taking ``seat`` ("first" or "second"); ``clock``: its
    ``[clock]`` (none: no clock)."""
    return Config(
        mqtt=Mqtt(host="broker.example", board=board),
        opponent=OpponentConfig("remote", seat, board=other),
        clock=clock or ClockConfig(),
    )


class Link(Protocol):
    """What carries the messages between two paired boards."""

    def idle(self) -> bool:
        """Nothing in flight between the boards."""


class Paired:
    """The robots at two paired ``boards`` (anything shaped as
    :class:`~testbed.board_under_test.BoardUnderTest`: in this process, or ``reedboard run`` processes,
    :mod:`testbed.field`) joined by ``link``; they draw from ``rng`` and add the noise
    ``kinds``."""

    #: How far apart the two boards' clocks may be (ms): the longest a message takes.
    slack_ms = 0.0
    #: How late a board may read what arrived (ms): a waiting board's longest wait.
    read_ms = 0.0

    def __init__(self, boards: list, link: Link, rng: random.Random, kinds: Iterable[str]) -> None:
        self.boards, self.link, self.rng = boards, link, rng
        self.robots = [Robot(b, rng, kinds, patient=False) for b in boards]

    def act(self, intention: str) -> None:
        """One intention of :data:`PAIR_MIX` by a robot at one of the boards."""
        what, _, source = intention.partition(" ")
        if what == "takeback" and any(b.timed_out() for b in self.boards):
            what, source = "new_game", "menu"  # a flag ended the game: the players begin another
        if what == "move":
            return self.move()
        robot = self.rng.choice(self.robots)
        other = self.robots[1 - self.robots.index(robot)]
        if what == "correct":
            robot.correct()
        elif what == "takeback":
            self.take_back(robot, other, source)
        elif what == "new_game":
            self.new_game(robot, other, source)
        elif what == "knock":
            next((r for r in self.robots if r.at_table()), robot).knock()
        elif what == "names":  # the players at one board named (a league round is one board's)
            robot.names()
        elif what == "restart":
            game_id, theirs = robot.board.game_id(), other.board.game_id()
            robot.restart()
            if robot.board.game_id() != game_id:  # the game was over: a new one began
                self._joins(robot, other, theirs)
        else:
            raise ValueError(f"unknown intention {intention!r}")
        self.check()

    def move(self) -> None:
        """The robot whose side is to move moves (once the other board's last move is carried
        out at its board)."""
        for _ in range(WAIT_MS // 500):
            for robot in self.robots:
                robot.follow()
            movers = [r for r in self.robots if r.at_table()]
            if movers:
                movers[0].move()
                return self.check()
            if self.over():
                return
            self.boards[0].run(500)
        self.robots[0].fail("pair stalled", "neither board's players are to move")

    def over(self) -> bool:
        """The game is over (at either board, as its robot believes)."""
        return any(r.over() for r in self.robots)

    def take_back(self, robot: Robot, other: Robot, source: str) -> None:
        """Asked at ``robot``'s board, answered at the other's."""
        begun = len(robot.board.events)
        keep = robot.take_back(source, ask=True)
        if keep is None:
            return
        asked = lambda: "Take back?" in other.board.screen()  # noqa: E731
        flagged = lambda: any(b.timed_out() for b in self.boards)  # noqa: E731
        if not self._until(lambda: asked() or _refused_at_once(robot.board.events[begun:]) or flagged()):
            robot.fail("takeback unasked", f"the other board never asked; OLED {robot.board.screen()}")
        if flagged() and not asked() and not self._until(asked):  # the flag ended the game:
            return robot.agreed(None)  # a request made as it fell is still put, else nothing is
        yes = asked() and (other.follow() or other.answered[-1])
        waiting = "Take back asked"  # until the answer, delayed or sent again, reaches the asker
        if not self._until(lambda: waiting not in " ".join(robot.board.screen()) and self.link.idle()):
            robot.fail("takeback unanswered", f"the answer never arrived; OLED {robot.board.screen()}")
        robot.agreed(keep if yes else None)
        other.check()

    def new_game(self, robot: Robot, other: Robot, source: str) -> None:
        """A new game at ``robot``'s board, then at the other (once it hears of it)."""
        game_id = other.board.game_id()
        robot.new_game(source)
        self._joins(robot, other, game_id)

    def _joins(self, robot: Robot, other: Robot, game_id: int) -> None:
        """The other board (playing ``game_id``) hears of the new game at ``robot``'s board and
        joins it."""
        joined = lambda: not other.board.held() and other.board.token() == robot.board.token()  # noqa: E731
        # a board whose game has no moves and no pairing yet may take the new game as its own
        if not self._until(lambda: other.board.game_id() != game_id or joined()):
            other.fail("new game unheard", "the other board never started the new game")
        other.board.run(other.board.config.timing.settle_ms)  # it reads the table before it asks
        other.new_belief()

    def check(self) -> None:
        """Both boards idle and nothing in flight: the same record (what one board's players
        did while following, e.g. a removal that is their whole turn, heard by the other)."""
        for _ in range(3):
            if not self._until(self.link.idle):
                self.robots[0].fail("bus", "messages still in flight")
            # what arrived last is taken in by the boards' next steps
            self.boards[0].run(max(100.0, self.read_ms))
            before = [board.held() for board in self.boards]
            for robot in self.robots:
                robot.follow()
            if [board.held() for board in self.boards] == before:
                break
        a, b = (board.held() for board in self.boards)
        if a != b and self.link.idle():
            self.robots[0].fail("paired", f"t1 holds {list(a)}, t2 holds {list(b)}")
        self.check_clocks()

    def check_clocks(self) -> None:
        """Both boards at the same position of a game going on: their clocks apart by no more
        than a message takes between them (``slack_ms``)."""
        one, two = self.boards
        c1, c2 = one.clocks(), two.clocks()
        if c1 is None or c2 is None or one.held() != two.held() or self.over() or one.token() != two.token():
            return
        now = one.now_ms
        a, b = c1.shown(now), c2.shown(now)
        if a.keys() == b.keys() and max(abs(a[s] - b[s]) for s in a) > self.slack_ms:
            self.robots[0].fail(
                "clocks apart", f"t1 shows {a}, t2 shows {b} (at most {self.slack_ms} ms apart)"
            )

    def _until(self, done: Callable[[], bool]) -> bool:
        for _ in range(WAIT_MS // 100):
            if done():
                return True
            self.boards[0].run(100)
        return done()

    def close(self) -> None:
        for board in self.boards:
            board.close()


class Pair(Paired):
    """``game`` (of two sides) on boards "t1" (the first seat) and "t2" in this process,
    joined by an in-memory bus with ``faults``, each configured as the docs pair two boards
    (``clock``: both with that ``[clock]``; ``waits``: scanned as the daemon's loop scans
    wakeable hardware, see :class:`~testbed.board_under_test.Table`), their SQLite files in
    ``folder`` (None: temporary files); ``speech``: the loop's ``say`` events too."""

    def __init__(
        self,
        game: Game,
        rng: random.Random,
        kinds: Iterable[str] = KINDS,
        faults: Faults = Faults(),
        clock: ClockConfig | None = None,
        waits: bool = False,
        folder: str | None = None,
        speech: bool = False,
    ) -> None:
        self.bus = Bus(faults, random.Random(rng.random()))
        table = Table(bus=self.bus, waits=waits)
        # a message lost is sent again when its board reconnects; a waiting board reads it up to
        # its wait and a scan late, and its clock turns at the step after
        self.slack_ms = faults.delay[1] + (self.bus.reconnect_ms if faults.dropped else 0.0)
        self.slack_ms += table.latency_ms + table.period_ms if waits else 0.0
        self.read_ms = table.latency_ms
        super().__init__(
            [
                BoardUnderTest(
                    game,
                    _database(folder),
                    table=table,
                    remote=self.bus.link("t1"),
                    config=paired_config("t1", "t2", "second", clock),
                    speech=speech,
                ),
                BoardUnderTest(
                    game,
                    _database(folder),
                    table=table,
                    remote=self.bus.link("t2"),
                    config=paired_config("t2", "t1", "first", clock),
                    speech=speech,
                ),
            ],
            self.bus,
            rng,
            kinds,
        )


def _database(folder: str | None) -> str | None:
    """A new SQLite file's path in ``folder`` (None: a temporary file's)."""
    if folder is None:
        return None
    handle, path = tempfile.mkstemp(suffix=".db", prefix="pair-", dir=folder)
    os.close(handle)
    os.unlink(path)
    return path


def _refused_at_once(events: list[dict]) -> bool:
    """The pieces set back by hand just after a refusal the board had not yet heard (the
    request was made from the menu): refused without asking, and guided back. (The line
    "The opponent refused the take back" may still be on the screen from the last request.)"""
    return any(e["event"] == "illegal" and e.get("reason") == Remote.REFUSED for e in events)
