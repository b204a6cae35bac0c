"""The player robot in the field: the robot of :mod:`testbed.robot` (and the paired robots of
:mod:`testbed.pair`) playing real ``reedboard run --sim`` processes, configured as
docs/cafe.md writes a café's boards, on a real Mosquitto that has the docs' password file and
ACL, with the café dashboard (``reedboard cafe``, in this process) and Home Assistant's select
on the same broker.

A :class:`FieldBoard` is shaped as :class:`~testbed.board_under_test.BoardUnderTest`, so the robot plays
it unchanged: it reads the board from the simulator page's websocket (the lights' kinds, the
OLED's lines, the moves, what the sensors read) and makes its hand changes and button presses
through the page's messages or, on a board whose ``hands`` are ``stdin``, the daemon's stdin
(replay lines); its commands go through the page or the board's MQTT command topic. Time is the
wall clock. Besides the robot's own intentions, the field adds (:data:`FIELD_MIX`):

- ``switch <path>``: a new game of another game, from the page, the menu (Choose game), an MQTT
  ``new_game`` command, Home Assistant's select or the dashboard's New game;
- ``restart term|kill``: the daemon stopped by SIGTERM or killed, then started again with the
  same config and games file (on either board of a pair);
- ``broker``: Mosquitto stopped and started again on the same port;
- ``takeback again`` (paired): a takeback asked, refused, the asking board restarted, and
  asked again: the other board's players must be asked again.

Besides the robot's invariants (the record stored, the one held, the one meant; pieces and
faces as the game has them; paired boards holding the same record when idle), no daemon may
die or print a traceback (:meth:`Field.alive`).
"""

from __future__ import annotations

import asyncio
import io
import json
import random
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from dataclasses import field as default
from pathlib import Path
from typing import Any, Callable

from firmware_host.actions.commands import SEATS, side_named
from firmware_host.board.controller import Game
from firmware_host.board.playable import Playable
from firmware_host.store.config import Config, load_config, opponent_side
from firmware_host.store.storage import Storage
from testbed.board_under_test import SAME_LOOK
from testbed.broker import Board, Broker, Watcher
from testbed.pair import Paired
from testbed.robot import GAMES, MIX, Robot, Violated, Violation
from testbed.tools import free_port

DOCS = Path(__file__).resolve().parents[1] / "docs"
#: The robot's noise that a real board takes through its page or stdin: contact bounce, hovers,
#: bumps and slides are timed below the spacing the page keeps between one site's changes, and
#: the daemon restarts as an intention of its own.
FIELD_KINDS = ("pause", "rest", "order", "hold", "knock")
#: How a new game of another game reaches a board.
PATHS = ("page", "menu", "mqtt", "ha", "dashboard")
#: The field's intentions and their weights: the robot's own (without the computer), and more.
FIELD_MIX = {
    **{k: v for k, v in MIX.items() if not k.startswith("restart")},
    **{f"switch {path}": 2 for path in PATHS},
    "restart term": 2,
    "restart kill": 2,
    "broker": 1,
}
#: A pair's: no computer (a paired board has none), and takebacks asked again.
PAIR_FIELD_MIX = {**{k: v for k, v in FIELD_MIX.items() if not k.startswith("players")}, "takeback again": 3}
#: How long outputs must stay unchanged before a board counts as settled (ms of the wall
#: clock), and the longest wait for it.
STILL_MS, SETTLE_CAP_MS = 200, 10_000
#: How long a board may take to start, to switch to a new game, or to hear the other board (s).
START_S, WAIT_S = 30.0, 15.0


class Socket:
    """A websocket client in a thread of its own: each JSON message received goes to
    ``received`` (each of a list's, as the café feed sends what queued up); :meth:`send` sends
    one."""

    def __init__(self, url: str, received: Callable[[dict], None]) -> None:
        import aiohttp

        self._aiohttp, self._received = aiohttp, received
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True, name="field-ws")
        self.thread.start()
        self.ws = self._call(self._open(url))

    def _call(self, coroutine, timeout: float = 10.0):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    async def _open(self, url: str):
        self.session = self._aiohttp.ClientSession()
        ws = await self.session.ws_connect(url, heartbeat=5.0, max_msg_size=0)
        self.reader = asyncio.ensure_future(self._read(ws))
        return ws

    async def _read(self, ws) -> None:
        async for msg in ws:
            if msg.type == self._aiohttp.WSMsgType.TEXT:
                data = json.loads(msg.data)
                for message in data if isinstance(data, list) else [data]:
                    self._received(message)

    def send(self, message: dict[str, Any]) -> None:
        self._call(self.ws.send_str(json.dumps(message)), 5.0)

    def close(self) -> None:
        async def shut() -> None:
            await self.ws.close()
            await self.session.close()

        try:
            self._call(shut(), 5.0)
        except Exception:  # noqa: BLE001 - the daemon may be gone already
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


class Page:
    """The simulator page's state, as its websocket keeps it up to date (updates merged), the
    daemon's events and the errors it answered."""

    def __init__(self, port: int) -> None:
        self.lock = threading.Lock()
        self.state: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.changed = self.moved = time.monotonic()  # last change shown; of the pieces
        self.sent = 0  # the commands sent (each read by the daemon or refused: an error)
        self.games = 0  # the games begun as the page saw them (each new game's board is sent)
        self.socket = Socket(f"ws://127.0.0.1:{port}/ws", self._received)

    def _received(self, message: dict[str, Any]) -> None:
        with self.lock:
            kind = message.pop("type", None)
            if kind == "error":
                self.errors.append(message.get("error", ""))
            if kind != "update":
                return
            self.events += message.pop("events", [])
            self.state.update(message)
            self.games += "game" in message
            if set(message) - {"oled", "settings", "noise"}:
                self.changed = time.monotonic()
            if "pieces" in message:
                self.moved = self.changed

    def get(self, key: str, default: Any = None) -> Any:
        with self.lock:
            return self.state.get(key, default)

    def send(self, message: dict[str, Any]) -> None:
        with self.lock:
            self.sent += 1
        self.socket.send(message)

    def settled(self) -> bool:
        """The daemon has read every command sent (or refused it) and judged the board since:
        what the page shows is what it made of them (bridge.py's ``read`` and ``settled``)."""
        with self.lock:
            read = self.state.get("read", 0) + len(self.errors)
            return read == self.sent and self.state.get("settled") is True

    def close(self) -> None:
        self.socket.close()


class Daemon(Board):
    """``reedboard run --sim --config`` in a subprocess, what it says on stderr read while it
    runs."""

    def errors(self) -> str:
        """All it said on stderr so far (it goes on running)."""
        return self.journal.text(drained=self.proc.poll() is not None)


class FieldBoard:
    """A ``reedboard run --sim`` process with ``config`` (its board id ``board``), played as
    :class:`~testbed.board_under_test.BoardUnderTest` is: ``hands`` "page" (the page's messages; commands
    too) or "stdin" (replay lines on stdin; commands on MQTT, through ``cafe``, as the café
    network sends them). ``side``: the configured ``[opponent] side`` (None: not paired)."""

    def __init__(
        self, config: Path, board: str, cafe: "Cafe", hands: str = "page", side: str | None = None
    ) -> None:
        self.path, self.board, self.cafe, self.hands, self.side = config, board, cafe, hands, side
        self.config: Config = load_config(str(config))
        self.signal = signal.SIGTERM  # how the next restart stops the daemon
        #: How long the players wait for the computer's or the other board's move (ms): a
        #: daemon just restarted starts the computer's worker first, on a loaded machine too.
        self.opponent_ms = WAIT_S * 1000
        self.began = time.monotonic()
        self.lines: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.deaths: list[str] = []  # what a daemon said on stderr, each one that ended
        self.acted_at = 0.0
        self.speaker = None  # the robot checks no say events here (BoardUnderTest's speech)
        self._start()
        self._pieces, self._games = self._read(), self.page.games

    # ------------------------------------------------------------------ the process
    def _start(self) -> None:
        self.daemon = Daemon(self.path)
        try:
            self.daemon.wait_running()
            self.page = Page(self.config.web.port)
        except BaseException:
            self.daemon.stop(signal.SIGKILL)
            raise
        self.page.events = self.events  # one list over restarts
        shown = lambda: self.page.get("pieces") is not None and self.page.get("status") is not None  # noqa: E731
        if not _until(shown, START_S):
            self.close()
            raise AssertionError(f"{self.board}: the page never showed the board")

    def restart(self) -> None:
        """The daemon stopped (by :attr:`signal`) and started again with the same config and
        games file; the pieces stay where they stood (they are set so on the new simulated
        board, which starts with the game's position)."""
        self.lines.append({"t": self.now_ms, "restart": signal.Signals(self.signal).name})
        pieces = self._pieces
        self.page.close()
        status = self.daemon.stop(self.signal)
        if self.signal == signal.SIGTERM and status != 0 or "Traceback" in self.daemon.errors():
            self.deaths.append(f"exit {status}: {self.daemon.errors()[-2000:]}")
        self._start()
        for site in sorted(self._read() ^ pieces):
            self._hand(site, site in pieces)
        self._pieces, self._games = pieces, self.page.games
        self._acted()

    def alive(self) -> str | None:
        """Why the daemon is not well (it died, or printed a traceback), else None."""
        if self.deaths:
            return self.deaths[0]
        said = self.daemon.errors()
        if self.daemon.proc.poll() is not None:
            return f"{self.board} died (exit {self.daemon.proc.poll()}): {said[-2000:]}"
        if "Traceback" in said:
            return f"{self.board} printed a traceback: {said[-2000:]}"
        return None

    def close(self) -> None:
        self.page.close()
        self.daemon.stop()

    # ------------------------------------------------------------------ time
    @property
    def now_ms(self) -> float:
        return (time.monotonic() - self.began) * 1000

    def run(self, ms: float) -> None:
        time.sleep(ms / 1000)

    def settle(self) -> bool:
        """Wait as a player waits for the lights, until the page says the daemon is done with
        what it was sent: every command read and the board judged since (:meth:`Page.settled`;
        hands on stdin are counted by no page). Beside that word, as before it: the settle
        time since the last hand action and since the page last showed the pieces move, and
        the lights and screen still for :data:`STILL_MS`: ``settled`` is the debouncer's quiet,
        and the word alone let the robot check the record 0.1 s after carrying out the
        computer's move, which the daemon recorded about a second later (two runs in seven);
        and every change made shown by the page (its moves those saved).
        Then what the page reads is what stands. False if that never comes within
        :data:`SETTLE_CAP_MS`."""
        settle_ms = self.config.timing.settle_ms
        self.run(max(0.0, self.acted_at + settle_ms + 2 * STILL_MS - self.now_ms))
        begin = time.monotonic()
        while (time.monotonic() - begin) * 1000 < SETTLE_CAP_MS:
            now = time.monotonic()
            done = self.page.settled() and (now - self.page.changed) * 1000 >= STILL_MS
            done &= (now - self.page.moved) * 1000 >= settle_ms + 2 * STILL_MS
            if done and (self._read() == self._pieces or self.page.games != self._games):
                late = (now - begin) * 1000 >= SETTLE_CAP_MS - STILL_MS  # check_record says it
                if late or self.held() == self.stored():  # the page shows what the daemon saved
                    self._pieces, self._games = self._read(), self.page.games  # a new game's board
                    return True
            self.run(20)
        return False

    # ------------------------------------------------------------------ hands
    def _acted(self) -> None:
        self.acted_at = self.now_ms

    def _hand(self, site: str, on: bool) -> None:
        self.lines.append({"t": self.now_ms, "site": site, "on": on})
        if self.hands == "stdin":
            self.daemon.place(site, on)
        else:
            self.page.send({"type": "place" if on else "lift", "site": site})

    def place(self, site: str) -> None:
        self._hand(site, True)
        self._pieces |= {site}
        self._acted()

    def lift(self, site: str) -> None:
        self._hand(site, False)
        self._pieces -= {site}
        self._acted()

    def hover(self, site: str, seconds: float) -> None:
        self.place(site)
        self.run(1000 * seconds)
        self.lift(site)

    def slide(self, path: tuple[str, ...], seconds_per_site: float) -> None:
        self.lift(path[0])
        self.run(1000 * seconds_per_site * len(path))
        self.place(path[-1])

    def press(self, button: str, long: bool = False) -> None:
        self.lines.append({"t": self.now_ms, "button": button})
        if self.hands == "stdin":
            self.daemon.press(button)
        else:
            self.page.send({"type": "button", "button": button, "long": long})
        self._acted()

    def _read(self) -> frozenset[str]:
        return frozenset(self.page.get("pieces") or ())

    def occupied(self) -> frozenset[str]:
        """What stands on the board (the robot's hands put it there)."""
        return self._pieces

    # ------------------------------------------------------------------ what it shows
    def lit(self) -> dict[str, str]:
        """Site -> the kind of light it shows, as the page draws it."""
        return {site: SAME_LOOK.get(kind, kind) for site, kind in (self.page.get("lights") or {}).items()}

    def screen(self) -> tuple[str, ...]:
        return tuple((self.page.get("status") or {}).get("lines", ()))

    @property
    def game(self) -> Game:
        info = self.page.get("game") or {}
        return Game.of(info["name"], info.get("size"), info.get("variant"))

    # ------------------------------------------------------------------ the game
    def held(self) -> tuple[str, ...]:
        return tuple(item["move"] for item in self.page.get("history") or ())

    def _stored_games(self):
        storage = Storage(self.config.storage, read_only=True)
        try:
            return storage.games()
        finally:
            storage.close()

    def clocks(self) -> None:
        """The clocks to check: none, as the field's configs (docs' set-ups) have no ``[clock]``."""
        return None

    def timed_out(self) -> bool:
        """The game ended on a flag: the page's clocks show one, and the game it plays is over."""
        clock = self.page.get("clock") or {}
        games = self._stored_games() if clock.get("flag") is not None else []
        return bool(games) and games[-1].result is not None

    def stored(self) -> tuple[str, ...] | None:
        """The moves saved for the newest game in the board's games file (the one it plays)."""
        games = self._stored_games()
        return games[-1].moves if games else None

    def game_id(self) -> int:
        games = self._stored_games()
        return games[-1].id if games else 0

    def computer(self) -> str | None:
        """The side the computer plays (None: nobody), as the page's players say its seat."""
        seat = (self.page.get("game") or {}).get("computer")
        return self.game.new().sides[SEATS.index(seat)] if seat in SEATS else None

    def remote_side(self) -> str | None:
        return self.remote_side_in(self.game)

    def remote_side_in(self, game: Game) -> str | None:
        """The side the other board plays in ``game``: the seat its configured side names in
        the configured game, as the daemon reads it (``opponent_side``)."""
        if self.side is None:
            return None
        return side_named(opponent_side(self.config), game.new().sides)

    def token(self) -> str:
        moves = self.cafe.watcher.texts(f"reedboard/{self.board}/moves")
        return json.loads(moves[-1]).get("token", "") if moves and moves[-1] else ""

    # ------------------------------------------------------------------ commands
    def command(self, name: str, side: str | None = None) -> None:
        """``takeback``, ``new_game`` (of the same kind) or ``players`` (a new game, the
        computer at level 1 taking ``side``'s seat, the first or the second; None: nobody):
        from the page, or as the café network sends it when the hands are on stdin."""
        self.lines.append({"t": self.now_ms, "command": name, **({"side": side} if side else {})})
        g = self.game
        new = {"game": g.name, "size": g.size, "variant": g.variant}
        if name == "players":
            seat = SEATS[g.new().sides.index(side)] if side else None
            new.update(computer=seat, level=1)
            name = "new_game"
        if self.hands == "page":
            self.page.send({"type": "takeback"} if name == "takeback" else {"type": "new_game", **new})
        else:
            self.cafe.command(self.board, {"command": name, **(new if name == "new_game" else {})})
        self._acted()

    def dump(self) -> str:
        """What the robot did at this board, as replay lines (robot-only lines: ``command``,
        ``restart``), with the config it ran."""
        head = {"setup": "field", "config": self.path.read_text(), "hands": self.hands}
        return "".join(json.dumps(line) + "\n" for line in [head, *self.lines, {"t": self.now_ms}])


class Cafe:
    """The café's side of the broker: its login (the dashboard's, reading every board and
    sending commands), Home Assistant's login, and the dashboard itself, started in this
    process from a config written as docs/cafe.md shows it."""

    def __init__(self, broker: Broker, folder: Path, password: Callable[[str], Path]) -> None:
        from firmware_host.net.cafe.run import start

        self.watcher = Watcher(
            broker.port, "reedboard/#", username="cafe", password=password("cafe").read_text().strip()
        )
        self.home_assistant = Watcher(
            broker.port,
            "homeassistant/#",
            username="homeassistant",
            password=password("homeassistant").read_text().strip(),
        )
        toml = (
            docs_block("cafe.md", "[archive]", before="```toml")
            .replace('"broker.cafe.lan"', '"127.0.0.1"')
            .replace("/etc/reedboard/cafe-password", str(password("cafe")))
        )
        (folder / "cafe.toml").write_text(toml)
        settings = load_config(str(folder / "cafe.toml")).mqtt
        self.link, self.server = start(
            settings, "127.0.0.1", broker.port, "127.0.0.1", 0, None, out=io.StringIO()
        )
        self.journal: list[str] = []  # what the dashboard's link said (a message dropped, ...)
        say = self.link._say
        self.link._say = lambda text: (self.journal.append(text), say(text))  # type: ignore[method-assign]
        self.replies: list[dict[str, Any]] = []
        self.dashboard = Socket(self.server.url.replace("http", "ws") + "ws", self.replies.append)

    def command(self, board: str, command: dict[str, Any]) -> None:
        """``command`` on the board's command topic, as the café's login sends it."""
        self.watcher.publish(f"reedboard/{board}/command", json.dumps(command))

    def select(self, board: str, option: str) -> None:
        """Home Assistant's select Game choice set to ``option`` (one of its options), sent as
        its command template says."""
        config = json.loads(self.home_assistant.wait(f"homeassistant/select/reedboard_{board}/game/config"))
        assert option in config["options"], f"{option} is not among {config['options']}"
        payload = config["command_template"].replace("{{ value }}", option)
        self.home_assistant.publish(config["command_topic"], payload)

    def options(self, board: str) -> dict[tuple, str]:
        """Each game Home Assistant's select offers (game, size, variant) -> its title there:
        the titles of the board's ``games`` topic."""
        text = self.home_assistant.wait(f"homeassistant/select/reedboard_{board}/game/config")
        offered = set(json.loads(text)["options"])
        return {
            (p["game"], p["size"], p["variant"]): p["title"]
            for p in self.watcher.playable(board)
            if p["title"] in offered
        }

    def from_dashboard(self, board: str, command: dict[str, Any]) -> str | None:
        """The dashboard's New game for ``board``; the dashboard's refusal, if it refused
        until :data:`WAIT_S` passed (a board it still thinks offline after a broker restart)."""
        deadline = time.monotonic() + WAIT_S
        while True:
            begun = len(self.replies)
            self.dashboard.send({"type": "command", "board": board, "command": command})
            answered = lambda: [r for r in self.replies[begun:] if r.get("type") in ("sent", "error")]  # noqa: E731
            if not _until(lambda: bool(answered()), max(0.0, deadline - time.monotonic())):
                return "the dashboard never answered"
            answer = answered()[0]
            if answer["type"] == "sent":
                return None
            if time.monotonic() > deadline:
                return answer.get("error")
            time.sleep(1.0)

    def close(self) -> None:
        self.dashboard.close()
        self.link.stop()
        self.server.stop()
        self.watcher.close()
        self.home_assistant.close()


def docs_block(page: str, marker: str, before: str = "```") -> str:
    """The code block of docs/``page`` that holds ``marker`` (it opens with ``before``).

    >>> docs_block("cafe.md", "pattern write reedboard/%u/#").splitlines()[1]
    'pattern write reedboard/%u/#'
    """
    text = (DOCS / page).read_text(encoding="utf-8")
    at = text.index(marker)
    start = text.rindex(before, 0, at)
    start = text.index("\n", start) + 1
    return text[start : text.index("```", at)]


def pair_columns() -> tuple[str, str]:
    """docs/cafe.md's two paired boards' configs, side by side there: (home's, friend's).

    >>> home, friend = pair_columns()
    >>> 'board = "friend"' in home, 'board = "home"' in friend
    (True, True)
    """
    block = docs_block("cafe.md", '# board "home"', before="```toml")
    rows = [line.partition("#")[::2] for line in block.splitlines()[1:]]
    home = "".join(f"{left.strip()}\n" for left, _ in rows)
    return home, "".join(f"{right.strip()}\n" for _, right in rows)


class Field:
    """A café in ``folder``: Mosquitto with the docs' password file and ACL (retained messages
    kept over a restart, as Debian's), the café's logins and dashboard, and ``boards`` run
    from configs written as docs/cafe.md writes them: one board "table-7", or the pair "home"
    and "friend" (``paired``; ``side``: home's ``[opponent] side``, the other one's the other
    colour or seat) playing ``game``."""

    def __init__(self, folder: Path, game: tuple, paired: bool = False, side: str = "second") -> None:
        self.folder = folder
        names = ["home", "friend"] if paired else ["table-7"]
        users = [*names, "cafe", "homeassistant"]
        passwd = folder / "reedboard.passwd"
        for i, user in enumerate(users):
            create = ["-c"] if i == 0 else []
            subprocess.run(
                ["mosquitto_passwd", *create, "-b", str(passwd), user, f"{user}-secret"],
                check=True,
                capture_output=True,
            )
            self.password(user).write_text(f"{user}-secret\n")
        acl = docs_block("cafe.md", "pattern write reedboard/%u/#")
        if paired:
            acl += docs_block("cafe.md", "user home\n")
        (folder / "reedboard.acl").write_text(acl)
        conf = (
            docs_block("cafe.md", "acl_file /etc/mosquitto/reedboard.acl")
            .replace("/etc/mosquitto/", f"{folder}/")
            .replace("listener 1883\n", "")
        )
        other = {"black": "white", "white": "black", "first": "second", "second": "first"}
        if paired:
            home, friend = pair_columns()
            configs = [(home, "home", side, "page"), (friend, "friend", other[side], "stdin")]
        else:
            one = docs_block("cafe.md", 'board = "table-7"', before="```toml")
            configs = [(one, "table-7", None, "page")]
        self.broker = Broker(folder, conf, persist=True).start()
        self.boards: list[FieldBoard] = []
        try:
            self.cafe = Cafe(self.broker, folder, self.password)
        except BaseException:
            self.broker.stop()
            raise
        try:
            for text, board, s, hands in configs:
                self.boards.append(self._board(text, board, game, s, hands))
        except BaseException:
            self.close()  # nothing left running
            raise

    def password(self, user: str) -> Path:
        return self.folder / f"{user}-password"

    def _board(self, docs: str, board: str, game: tuple, side: str | None, hands: str) -> FieldBoard:
        """The docs' config for ``board``, host and paths adapted: the broker here, its login,
        its own games file and page port, and the game it starts with."""
        name, size, variant = game
        top = (
            f'game = "{name}"\n'
            + (f"size = {size}\n" if size else "")
            + (f'variant = "{variant}"\n' if variant else "")
        )
        top += f'storage = "{self.folder / (board + ".db")}"\n'
        text = re.sub(r'host = "[^"]+"', f'host = "127.0.0.1"\nport = {self.broker.port}', docs)
        if "username" not in text:
            text = text.replace(
                f'board = "{board}"\n',
                f'board = "{board}"\nusername = "{board}"\npassword_file = "/etc/reedboard/mqtt-password"\n',
                1,
            )
        text = text.replace("/etc/reedboard/mqtt-password", str(self.password(board)))
        if side is not None:
            text = re.sub(r'side = "\w+"', f'side = "{side}"', text)
        path = self.folder / f"{board}.toml"
        path.write_text(f"{top}{text}\n[web]\nport = {free_port()}\n")
        return FieldBoard(path, board, self.cafe, hands, side)

    # ------------------------------------------------------------------ what happens
    def games(self, path: str) -> list[tuple]:
        """The games a new game from ``path`` may start here: the menu's choices from the menu,
        the select's (defaults for size and variant) from Home Assistant, the robot's small
        ones otherwise; on a pair, only those of two sides."""
        if path == "menu":
            choices = [(c.game, c.size, c.variant) for c in Playable().choices()]
        elif path == "ha":
            choices = list(self.cafe.options(self.boards[0].board))
        else:
            choices = list(GAMES)
        return [g for g in choices if self.pairable(Game.of(*g))]

    def pairable(self, game: Game) -> bool:
        return len(self.boards) == 1 or len(game.new().sides) == 2

    def switch(
        self, board: FieldBoard, robot: Robot, path: str, rng: random.Random, name: str | None = None
    ) -> Game:
        """A new game of another game (``name``'s if given, else drawn) at ``board`` from
        ``path`` (:data:`PATHS`); the game once the board shows it."""
        now = board.game
        choices = [g for g in self.games(path) if g[0] != now.name and (name is None or g[0] == name)]
        choices = choices or [g for g in self.games(path) if g != (now.name, now.size, now.variant)]
        target = Game.of(*rng.choice(sorted(choices, key=str)))
        command = {"command": "new_game", "game": target.name, "size": target.size, "variant": target.variant}
        board.lines.append(
            {"t": board.now_ms, "switch": path, "game": [target.name, target.size, target.variant]}
        )
        if path == "page":
            board.page.send({"type": "new_game", **{k: v for k, v in command.items() if k != "command"}})
        elif path == "menu":
            robot.menu(*menu_items(target))
        elif path == "mqtt":
            self.cafe.command(board.board, command)
        elif path == "ha":
            self.cafe.select(
                board.board, self.cafe.options(board.board)[(target.name, target.size, target.variant)]
            )
        elif path != "dashboard":
            raise ValueError(f"no path {path!r} to a new game (one of {PATHS})")
        elif (refused := self.cafe.from_dashboard(board.board, command)) is not None:
            robot.fail("dashboard", f"the dashboard refused New game: {refused}")
        board._acted()
        if not _until(lambda: _same(board.game, target)):
            robot.fail(
                "new game unheard",
                f"{path}: asked for {target.title}, the board plays "
                f"{board.game.title}; page errors {board.page.errors[-3:]}",
            )
        return target

    def restart_broker(self, robot: Robot, down: float) -> None:
        """Mosquitto stopped for ``down`` seconds and started again on the same port; then
        until every board has said its state again (it reconnects within 30 s)."""
        topic = lambda board: f"reedboard/{board.board}/state"  # noqa: E731
        said = {b.board: len(self.cafe.watcher.texts(topic(b))) for b in self.boards}
        self.broker.restart(down)
        back = lambda: all(len(self.cafe.watcher.texts(topic(b))) > said[b.board] for b in self.boards)  # noqa: E731
        if not _until(back, 45.0):
            robot.fail("broker", "a board never said its state again after the broker restarted")

    def published(self, robots: list[Robot]) -> None:
        """The moves each board last published in its state (what the dashboard and Home
        Assistant read) are the ones its robot played."""
        for board, player in zip(self.boards, robots):
            state = lambda: self.cafe.watcher.texts(f"reedboard/{board.board}/state")[-1:]  # noqa: E731, B023
            said = lambda: [json.loads(text).get("moves") for text in state()]  # noqa: E731
            if not _until(lambda: said() == [player.moves], 5.0):  # noqa: B023
                player.fail("state", f"{board.board}'s state says moves {said()}, played {player.moves}")

    def alive(self, robot: Robot) -> None:
        """No daemon died or printed a traceback."""
        for board in self.boards:
            if (why := board.alive()) is not None:
                robot.fail("daemon", why)

    def close(self) -> None:
        for board in self.boards:
            board.close()
        self.cafe.close()
        self.broker.stop()


def menu_items(game: Game) -> list[str]:
    """What to pick in the menu for ``game``: Choose game, its title, its size and its variant
    where the menu offers several.

    >>> menu_items(Game.of("anti-grid", 8, "chain"))
    ['Choose game', 'Anti-Grid', 'Size 8', 'chain']
    """
    choices = [c for c in Playable().choices() if c.game == game.name]
    items = ["Choose game", choices[0].title]
    if len({c.size for c in choices}) > 1:
        items.append(f"Size {game.size}")
    if len([c for c in choices if c.size == game.size]) > 1:
        items.append(game.variant)
    return items


def _same(a: Game, b: Game) -> bool:
    return (a.name, a.size, a.variant) == (b.name, b.size, b.variant)


def _until(done: Callable[[], bool], timeout: float = WAIT_S) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done():
            return True
        time.sleep(0.05)
    return done()


class Quiet:
    """What travels between paired ``boards`` over the broker: idle once neither has
    published its moves for a second (loopback carries a message in milliseconds)."""

    def __init__(self, cafe: Cafe, boards: list[FieldBoard]) -> None:
        self.cafe, self.boards = cafe, boards
        self._count, self._since = -1, time.monotonic()

    def idle(self) -> bool:
        count = sum(len(self.cafe.watcher.texts(f"reedboard/{b.board}/moves")) for b in self.boards)
        if count != self._count:
            self._count, self._since = count, time.monotonic()
        return time.monotonic() - self._since >= 1.0


class Solo:
    """One board in the field and its robot."""

    def __init__(self, field: Field, rng: random.Random, kinds=FIELD_KINDS) -> None:
        self.field, self.rng = field, rng
        self.robot = Robot(field.boards[0], rng, kinds)
        self.robots = [self.robot]
        self.switches = 0

    def over(self) -> bool:
        return self.robot.state.outcome() is not None

    def act(self, intention: str) -> None:
        what, _, how = intention.partition(" ")
        robot, board = self.robot, self.field.boards[0]
        if what == "switch":  # the computer keeps its seat (the page's players show it)
            self.field.switch(board, robot, how, self.rng, rotation(self.switches))
            self.switches += 1
            robot.others = {s for s in (board.computer(),) if s}
            robot.new_belief()
        elif what == "restart":
            board.signal = signal.SIGKILL if how == "kill" else signal.SIGTERM
            robot.restart()
            if {s for s in (board.computer(),) if s} != robot.others:
                robot.fail(
                    "players",
                    f"after a restart the computer plays {board.computer()}, "
                    f"before it played {robot.others or 'nothing'}",
                )
        elif what == "broker":
            self.field.restart_broker(robot, self.rng.uniform(0.5, 3.0))
            robot.follow()
            robot.check()
        elif intention == "players command":  # the page and the café network name two seats
            robot.players(self.rng.choice([None, *robot.state.sides[: len(SEATS)]]), how)
        else:
            robot.act(intention)
        self.field.alive(robot)


class FieldPair(Paired):
    """The pair "home" and "friend" in the field and their robots."""

    def __init__(self, field: Field, rng: random.Random, kinds=FIELD_KINDS) -> None:
        self.field = field
        super().__init__(field.boards, Quiet(field.cafe, field.boards), rng, kinds)
        self.switches = 0

    def act(self, intention: str) -> None:
        what, _, how = intention.partition(" ")
        if what == "switch":
            self.switch(how)
        elif what == "restart":
            for board in self.boards:
                board.signal = signal.SIGKILL if how == "kill" else signal.SIGTERM
            super().act("restart")
        elif what == "broker":
            self.field.restart_broker(self.robots[0], self.rng.uniform(0.5, 3.0))
            self.check()
        elif intention == "takeback again":
            self.again()
        else:
            super().act(intention)
        self.field.alive(self.robots[0])

    def switch(self, path: str, name: str | None = None) -> None:
        """A new game of another game (``name``'s, if given) at one board; the other board
        follows."""
        robot = self.rng.choice(self.robots)
        other = self.robots[1 - self.robots.index(robot)]
        game_id = other.board.game_id()
        target = self.field.switch(robot.board, robot, path, self.rng, name)
        self.switches += 1
        robot.others = {robot.board.remote_side_in(target)}
        other.others = {other.board.remote_side_in(target)}
        robot.new_belief()
        if not _until(lambda: _same(other.board.game, target)):
            other.fail(
                "new game unheard", f"the other board plays {other.board.game.title}, not {target.title}"
            )
        self._joins(robot, other, game_id)
        self.check()

    def again(self) -> None:
        """A takeback asked at one board and refused at the other; the asking board restarts
        (SIGTERM or SIGKILL) and asks again: the other board's players are asked again."""
        robot = self.rng.choice(self.robots)
        other = self.robots[1 - self.robots.index(robot)]
        yes, other.yes = other.yes, 0.0
        try:
            asked = len(other.answered)
            self.take_back(robot, other, "menu")
            if len(other.answered) == asked:
                return  # nothing to take back, or nothing asked: no refusal to ask past
            robot.board.signal = self.rng.choice([signal.SIGTERM, signal.SIGKILL])
            robot.restart()
            self.check()
            other.yes = 1.0
            asked = len(other.answered)
            if robot._keep() is None:
                return
            try:
                self.take_back(robot, other, "menu")
            except Violated as exc:
                if exc.violation.invariant != "takeback unasked":
                    raise
            if len(other.answered) == asked:
                robot.fail(
                    "asked again",
                    "asked again after a refusal and a restart, the request "
                    f"was refused at once; the other board's players were never asked "
                    f"(OLED {robot.board.screen()})",
                )
        finally:
            other.yes = yes


def rotation(i: int) -> str:
    """The game the ``i``-th switch of one board goes to, so that a run visits all five.

    >>> [rotation(i) for i in range(6)]
    ['antipode', 'antipod', 'anti-grid', 'phalanx', 'antipalos', 'antipode']
    """
    names = ("antipode", "antipod", "anti-grid", "phalanx", "antipalos")
    return names[i % len(names)]


@dataclass
class FieldRun:
    """What a field episode did: the intentions done, the violation (None: none), the games
    played (titles, in turn) and what the dashboard's link said meanwhile."""

    done: int = 0
    violation: Violation | None = None
    games: list[str] = default(default_factory=list)
    journal: list[str] = default(default_factory=list)


def run_field(
    folder: Path, game: tuple, seed: int, intentions: list[str], paired: bool, side: str = "second"
) -> FieldRun:
    """One field episode: a fresh café in ``folder``, ``game`` to start with, the robot(s)
    seeded by ``seed`` doing ``intentions``."""
    from testbed import robot as rules

    rng = random.Random(seed)
    try:
        cafe = Field(folder, game, paired, side)
    except AssertionError as exc:  # a board that never started: said, with its stderr
        return FieldRun(violation=Violation("start", str(exc)[:2000], " ".join(map(str, game)), ""))
    table: Solo | FieldPair = FieldPair(cafe, rng) if paired else Solo(cafe, rng)
    run = FieldRun(journal=cafe.cafe.journal)
    try:
        for i, intention in enumerate(intentions):
            table.act(rules.intend(rng, seed, i, intention, table.over()))
            run.done = i + 1
            title = cafe.boards[0].game.title
            if not run.games or run.games[-1] != title:
                run.games.append(title)
        if paired:
            table.check()
        for robot in table.robots:
            robot.check()
        cafe.published(table.robots)
        cafe.alive(table.robots[0])
    except Violated as exc:
        run.violation = exc.violation
    except Exception as exc:  # noqa: BLE001 - the "no exception" invariant, the harness's too
        board = cafe.boards[0]
        run.violation = Violation("exception", f"{type(exc).__name__}: {exc}", board.game.title, board.dump())
    finally:
        cafe.close()
    return run
