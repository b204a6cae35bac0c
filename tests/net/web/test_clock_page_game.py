"""A timed game against the computer on the simulated board's page, as a player sets it up and
plays it: ``reedboard run --sim`` with a ``[clock]`` as docs/config.md writes it and the
computer as opponent, the page open in Chromium, the player's moves and the computer's carried
out by clicking the page's sites, a takeback from the page, the board stopped (SIGTERM) and
started again in the middle of the player's turn, and the player's flag left to fall; then the
page's export read against the test's own stopwatch (``time.monotonic`` around its clicks)."""

from __future__ import annotations

import json
import re
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from engines.ai import LIMITS
from engines.ai.clocked import seconds_for
from firmware_host.actions.limits import NEW_GAME_SECONDS
from firmware_host.store.timecontrol import Clocks, TimeControl
from testbed.field import Page
from testbed.stopping import stop
from testbed.tools import REEDBOARD, wait_until, write_config
from tests.net.web.web_tools import OUTPUT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CONTROL, START_MS, INCREMENT_MS = "15+1", 15_000, 1_000
#: The game as docs/config.md sets one up: the computer begins (White), the player is Black,
#: so the player's clock first runs once the page is open and the computer's move carried out.
CONFIG = f"""game = "antipalos"
size = 5
[opponent]
kind = "computer"
side = "first"
level = 1
[clock]
control = "{CONTROL}"
"""
COMPUTER, PLAYER = "white", "black"
#: How long the player thinks before each move, and waits before carrying out the computer's (s).
HOLD_S, CARRY_S = 0.6, 0.5
#: How long the board stays off when it is stopped mid-turn (s).
DOWN_S = 1.5
#: The squares the player places on, in order (one the computer took is passed over). The
#: computer has four pieces on the board at most, one too few to connect two borders.
SQUARES = ["A1", "E5", "A5", "E1", "C1", "C5", "A3", "E3", "B2", "D4"]
SHOTS = OUTPUT / "clock-page"
#: The page is connected and shows ``side``'s clock running.
RUNNING = "(side) => document.getElementById('conn').dataset.state === 'live'" + (
    " && document.querySelector('#clocks .clock.running')?.dataset.side === side"
)
COMPUTER_PLAYS = "() => (view.status?.lines || []).find((l) => l.startsWith('Computer plays'))"


class Daemon:
    """``reedboard run --sim`` started as a player starts it: the events it prints
    (``events``), the first read at ``first`` (its loop and its clocks run by then); what it
    says, in ``said``."""

    def __init__(self, config: Path, said: Path) -> None:
        self.started = time.monotonic()
        with open(said, "a") as err:
            self.proc = subprocess.Popen(
                [*REEDBOARD, "run", "--sim", "--config", str(config)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
            )
        self.events: list[dict] = []
        self.first = 0.0
        self.running = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        assert wait_until(lambda: self.proc.poll() is not None or "is running" in said.read_text(), 30)
        assert self.proc.poll() is None, said.read_text()

    def _read(self) -> None:
        for line in self.proc.stdout:
            if not self.events:
                self.first = time.monotonic()
                self.running.set()
            self.events.append(json.loads(line))

    def begun(self) -> Span:
        """When its loop began: after it was started, before its first event was read."""
        assert self.running.wait(30)
        return Span(self.started, self.first)

    def clocks(self, since: int = 0) -> list[dict]:
        """Its ``clock`` events (from its ``since``-th event on)."""
        return [e for e in self.events[since:] if e["event"] == "clock"]


@dataclass
class Span:
    """When something happened, as the test's stopwatch bounds it (s, ``time.monotonic``):
    not before ``lo`` (the test's action began), not after ``hi`` (the page showed it)."""

    lo: float
    hi: float


@dataclass
class Turn:
    """A side's turn: ``begun`` (when its time could start running) and ``done`` (when the
    change that completed it was made, or the computer answered)."""

    side: str
    begun: Span
    done: Span

    def used(self) -> tuple[float, float]:
        """The least and the most (ms) the turn can have used, by the stopwatch."""
        return max(0.0, 1000 * (self.done.lo - self.begun.hi)), 1000 * (self.done.hi - self.begun.lo)


@dataclass
class Player:
    """The player at the page, the board's process, and the test's stopwatch."""

    page: object
    daemon: Daemon
    turns: list[Turn] = field(default_factory=list)
    #: When the player's turn under way could have begun.
    begun: Span = field(default_factory=lambda: Span(0, 0))
    #: The sites of the moves kept, in order.
    moves: list[str] = field(default_factory=list)
    #: Each side's clock (ms) as the board told it when the player's turn began after ply N.
    left: dict[int, dict[str, float]] = field(default_factory=dict)

    def seen(self, expr: str, arg=None, timeout: float = 30_000) -> float:
        """Once the page shows ``expr`` true: the time it was seen (``timeout``: a hang guard)."""
        try:  # asked again while the page is still loading (no view yet), never thrown
            self.page.wait_for_function(
                f"(a) => {{ try {{ return ({expr})(a); }} catch {{ return false; }} }}",
                arg=arg,
                timeout=timeout,
            )
        except PlaywrightError:
            shown = self.page.evaluate("() => [view.history.map((h) => h.move), view.status, view.clock]")
            told = [e for e in self.daemon.events if e["event"] not in ("say", "display")][-12:]
            raise AssertionError(f"the page never showed {expr}: it shows {shown}; the board told {told}")
        return time.monotonic()

    def click(self, site: str) -> float:
        """``site`` clicked on the page (a piece put on it, or lifted): when the click began."""
        at = time.monotonic()
        self.page.locator(f'g[data-site="{site}"] > *').first.click()
        return at

    def play(self) -> None:
        """The player thinks :data:`HOLD_S`, places on a free square, then carries out the
        computer's answer."""
        ply = len(self.moves)
        taken = {site.strip("*") for site in self.moves}
        site = next(f"{square}*" for square in SQUARES if square not in taken)
        time.sleep(HOLD_S)
        clicked = self.click(site)
        recorded = self.seen("(n) => view.history.length === n", ply + 1)
        self.turns.append(Turn(PLAYER, self.begun, Span(clicked, recorded)))
        self.moves.append(site)
        self.answer(Span(clicked, recorded))  # told the move once it was recorded

    def answer(self, told: Span) -> None:
        """The computer's move, once the screen names it, carried out after :data:`CARRY_S`
        (nobody's time); its clock ran from when it was ``told`` to its answer."""
        named = self.seen(COMPUTER_PLAYS)
        move = re.match(r"Computer plays (\S+):", self.page.evaluate(COMPUTER_PLAYS))[1]
        self.charged(move)
        self.turns.append(Turn(COMPUTER, told, Span(told.lo, named)))
        time.sleep(CARRY_S)
        since = len(self.daemon.events)
        clicked = self.click(move)
        carried = self.seen(RUNNING, PLAYER)
        self.moves.append(move)
        self.begun = Span(clicked, carried)
        # the page can show it before the test has read the daemon's own line of it
        assert wait_until(lambda: self.daemon.clocks(since)), "no clock event after the computer's move"
        self.left[len(self.moves)] = self.daemon.clocks(since)[-1]["left"]

    def charged(self, move: str) -> None:
        """The computer charged the time from when its clock started (told the players' move,
        or the game began) to its answer ``move``, by the board's own times of the two."""
        assert wait_until(
            lambda: [e["move"] for e in self.daemon.events if e["event"] == "expect"][-1:] == [move]
        )
        clocks = self.daemon.clocks()
        at = max(i for i, c in enumerate(clocks) if c["running"] == COMPUTER)
        ran, answered = clocks[at], next(c for c in clocks[at:] if c["running"] is None)
        used = ran["left"][COMPUTER] + INCREMENT_MS - answered["left"][COMPUTER]
        assert abs(used - (answered["t"] - ran["t"] + ran["elapsed"])) <= 2, (ran, answered)

    def take_back(self) -> None:
        """After :data:`HOLD_S`, Take back on the page (the computer's move and the player's
        before it), then the two pieces lifted as the page shows them to; the clocks are as
        they read at the position returned to, the player's running from the last lift."""
        time.sleep(HOLD_S)
        since, ply = len(self.daemon.events), len(self.moves) - 2
        self.page.click("#takeback")
        self.seen("(n) => view.history.length === n", ply)
        for site in reversed(self.moves[ply:]):
            lifted = self.click(site)
        restored = self.seen(RUNNING, PLAYER)
        assert wait_until(lambda: [c["running"] for c in self.daemon.clocks(since)][-1:] == [PLAYER])
        back = self.daemon.clocks(since)
        assert back[0]["left"] == self.left[ply] and back[0]["running"] is None, back  # set back, exactly
        assert back[-1]["left"] == self.left[ply] and back[-1]["running"] == PLAYER, back
        del self.moves[ply:], self.turns[ply:]
        self.begun = Span(lifted, restored)

    def restart(self, config: Path, said: Path) -> None:
        """After :data:`HOLD_S` of the player's turn, the board stopped by SIGTERM, off for
        :data:`DOWN_S`, and started again: the clocks as they read after the last move."""
        time.sleep(HOLD_S)
        assert stop(self.daemon.proc) == 0
        self.seen("() => document.getElementById('conn').dataset.state === 'down'")
        time.sleep(DOWN_S)
        self.daemon = Daemon(config, said)
        self.begun = self.daemon.begun()
        first = self.daemon.clocks()[0]  # as stored after the last move, running from the start
        assert (first["t"], first["elapsed"], first["running"]) == (0, 0, PLAYER), first
        assert first["left"] == self.left[len(self.moves)], first
        self.seen(RUNNING, PLAYER)  # the page reconnects by itself


def _clocks(pgn: str) -> list[int]:
    """Each move's ``%clk`` in a record, in seconds."""
    found = re.findall(r"\[%clk (\d+):(\d\d):(\d\d)\]", pgn)
    return [int(h) * 3600 + int(m) * 60 + int(s) for h, m, s in found]


def _clock(page, side: str) -> str:
    return page.locator(f'#clocks .clock[data-side="{side}"]').inner_text()


def test_a_timed_game_against_the_computer_on_the_page_matches_the_stopwatch(tmp_path, page):
    SHOTS.mkdir(exist_ok=True)
    config, said = write_config(tmp_path, CONFIG), tmp_path / "said.txt"
    url = "http://127.0.0.1:{}/".format(re.search(r"(?m)^port = (\d+)$", config.read_text())[1])
    player = Player(page, Daemon(config, said))
    try:
        page.goto(url)
        player.seen("() => view.clock")
        assert page.locator("#clocks .clock").count() == 2 and _clock(page, PLAYER) == "Black 0:15"
        player.answer(player.daemon.begun())  # the computer's clock ran from the start
        assert re.fullmatch(r"▶ Black 0:1\d", _clock(page, PLAYER))  # marked as it runs
        assert not _clock(page, COMPUTER).startswith("▶")
        for _ in range(3):
            player.play()
        player.take_back()
        player.restart(config, said)
        player.play()  # the computer's fourth piece: too few to connect
        # The player's last turn: its clock in tenths in its last 10 s, then its flag.
        left_s = player.left[len(player.moves)][PLAYER] / 1000
        player.seen(r"() => /^▶ \S+ \d\.\d$/.test(document.querySelector('#clocks .running').innerText)")
        page.screenshot(path=str(SHOTS / "tenths.png"))
        fell = player.seen(
            "() => document.getElementById('result').textContent === 'White wins: time'",
            timeout=1000 * left_s + 10_000,
        )
        assert fell - player.begun.lo >= left_s  # not before its time was out
        assert _clock(page, PLAYER) == "⚑ Black 0.0" and page.locator("#clocks .running").count() == 0
        page.screenshot(path=str(SHOTS / "flag.png"))
        pgn = page.request.get(url + "games.txt").text()  # the page's Stored games: every record
    finally:
        assert stop(player.daemon.proc) == 0, said.read_text()
    over = [e for e in player.daemon.events if e["event"] == "game_over"]
    assert [(e["winner"], e["result"]) for e in over] == [(COMPUTER, "time")]
    flag = [c for c in player.daemon.clocks() if c["flag"]][-1]  # the clocks as the flag fell
    assert flag["flag"] == PLAYER and flag["left"][PLAYER] <= 0 and flag["running"] is None, flag
    assert f'[TimeControl "{CONTROL}"]' in pgn and '[Result "white wins by time"]' in pgn, pgn
    clocks = _clocks(pgn)
    assert len(clocks) == len(player.moves) == len(player.turns), pgn
    for side in (COMPUTER, PLAYER):
        plies = [i for i, turn in enumerate(player.turns) if turn.side == side]
        least = most = 0.0
        for n, i in enumerate(plies, 1):
            lo, hi = player.turns[i].used()
            least, most = least + lo, most + hi
            # Its time left after its n-th move: the start and n increments less what the
            # stopwatch says its turns took (%clk is whole seconds, down).
            low, high = START_MS + n * INCREMENT_MS - most, START_MS + n * INCREMENT_MS - least
            told = player.left[i + 1 + (side == PLAYER)][side]  # as the board told it, in ms
            assert low // 1000 <= clocks[i] <= high // 1000 and low <= told <= high, (
                side,
                n,
                low,
                told,
                high,
            )


#: The computer at its strongest level, with a search long enough to be cut short by a clock.
BUDGET_CONFIG = """game = "antipode"
[opponent]
kind = "computer"
side = "first"
level = 5
[clock]
control = "300+3"
"""


def _thinks(daemon: Daemon, since: int, control: str) -> float:
    """The time (ms) the computer's clock ran for its first move after the ``since``-th event,
    on ``control``, as the board told it: its clock's drop, the increment given back."""
    assert wait_until(lambda: any(e["event"] == "expect" for e in daemon.events[since:]), 60)
    clocks = daemon.clocks(since)
    start, answered = clocks[0], next(c for c in clocks if c["running"] is None)
    side = start["running"]  # the computer's, the side that begins, from the game's start
    assert side is not None and start["elapsed"] == 0, start
    increment = TimeControl.parse(control).stages[0].increment
    return start["left"][side] + 1000 * increment - answered["left"][side]


@pytest.mark.slow
def test_the_computer_on_a_clock_gives_its_search_less_time_with_less_left(tmp_path):
    """Its first move of a game on 5 minutes, then of one on 6 s (new games from the page, its
    worker running by then): with 6 s left it answers sooner, its search cut at its budget (a
    share of the time left, docs/ai.md), not given its level's limit; its thinking time read
    from the clock the board told (not timed here)."""
    config, said = write_config(tmp_path, BUDGET_CONFIG), tmp_path / "said.txt"
    daemon = Daemon(config, said)
    page = Page(int(re.search(r"(?m)^port = (\d+)$", config.read_text())[1]))
    try:
        _thinks(daemon, 0, "300+3")  # its worker started meanwhile: no measure
        thought = {}
        for control in ("300+3", "6"):
            time.sleep(NEW_GAME_SECONDS)  # a board starts one new game a second
            since = len(daemon.events)
            page.send({"type": "new_game", "game": "antipode", "control": control})
            thought[control] = _thinks(daemon, since, control)
    finally:
        page.close()
        assert stop(daemon.proc) == 0, said.read_text()
    budgets = {
        c: seconds_for(LIMITS[4], *Clocks.start(TimeControl.parse(c), ("blue",)).ahead("blue"))
        for c in thought
    }
    # On 5 minutes its level's own search, longer than 6 s allow, which the budget cuts short.
    assert budgets == {"300+3": LIMITS[4], "6": pytest.approx(6 / 30)}
    assert 1000 * budgets["6"] < thought["300+3"] and thought["6"] < thought["300+3"], thought
