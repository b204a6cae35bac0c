"""A real Mosquitto on a loopback port, a subscriber that records what it sees, and
``reedboard run --sim`` on the broker in a subprocess."""

from __future__ import annotations

import getpass
import json
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from testbed.online import wait_online
from testbed.running import Lines
from testbed.stopping import HANG_SECONDS, stop
from testbed.tools import REEDBOARD, free_port, require

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


class Broker:
    """``mosquitto -c <conf>`` on 127.0.0.1:``port``; ``extra`` lines go into the conf;
    ``persist``: retained messages are kept in ``folder`` over a restart (as Debian's
    Mosquitto keeps them); ``tls``: a listener's lines (``listener 8883`` ...: a TLS listener of
    its own, on :attr:`tls_port`; the first listener then takes anonymous clients alone)."""

    def __init__(self, folder: Path, extra: str = "", persist: bool = False, tls: str = "") -> None:
        require(Path(MOSQUITTO).exists(), "mosquitto")
        self.port = free_port()
        self.conf = folder / "mosquitto.conf"
        auth = "" if "password_file" in extra else "allow_anonymous true\n"
        kept = f"persistence true\npersistence_location {folder}/\n" if persist else "persistence false\n"
        self.tls_port = free_port() if tls else None
        head = "per_listener_settings true\n" if tls else ""
        if tls:
            tls = re.sub(r"^listener \d+$", f"listener {self.tls_port} 127.0.0.1", tls, flags=re.M)
        # As root, mosquitto would drop to its own user, who cannot read the test's files.
        self.conf.write_text(
            f"{head}listener {self.port} 127.0.0.1\n{auth}{kept}user {getpass.getuser()}\n{tls}{extra}"
        )
        self.proc: subprocess.Popen | None = None

    def start(self) -> "Broker":
        self.proc = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.02)
        raise AssertionError(f"mosquitto did not start: {self.proc.stderr.read()}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(5)

    def restart(self, down: float = 0.0) -> None:
        """Stopped, ``down`` seconds away, and started again on the same port."""
        self.stop()
        time.sleep(down)
        self.start()


@contextmanager
def gone() -> Iterator[int]:
    """A port whose connections are neither taken nor refused, as a broker's whose machine is
    gone: its queue is full, so a client's connect waits until its own timeout."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(0)
        queued = [socket.socket() for _ in range(4)]
        try:
            for one in queued:
                one.setblocking(False)
                one.connect_ex(listening.getsockname())
            yield listening.getsockname()[1]
        finally:
            for one in queued:
                one.close()


class Watcher:
    """A client subscribed to ``topics`` that records (topic, text, retained) as it comes."""

    def __init__(self, port: int, *topics: str, **auth: str) -> None:
        self.messages: list[tuple[str, str, bool]] = []
        self._seen = threading.Condition()
        self.client = paho.Client(CallbackAPIVersion.VERSION2)
        if auth:
            self.client.username_pw_set(auth["username"], auth["password"])
        self.client.on_message = self._on_message
        self._connections = 0
        self.client.on_connect = lambda *_: self._subscribe(topics, again=True)
        self.client.connect("127.0.0.1", port)
        self._subscribe(topics)
        self.client.loop_start()

    def _subscribe(self, topics: tuple[str, ...], again: bool = False) -> None:
        """Subscribed at once, and again after each reconnection (a broker restarted)."""
        if again:
            self._connections += 1
            if self._connections == 1:
                return  # the first connection's subscriptions are made
        for topic in topics:
            self.client.subscribe(topic, qos=1)

    def _on_message(self, client, userdata, msg) -> None:
        with self._seen:
            self.messages.append((msg.topic, msg.payload.decode(errors="replace"), bool(msg.retain)))
            self._seen.notify_all()

    def wait(
        self, topic: str, test: Callable[[str], bool] = lambda _: True, timeout: float = 15, since: int = 0
    ) -> str:
        """The first text on ``topic`` that passes ``test`` (seen before or arriving; with
        ``since``, one after the first ``since`` on it: ``len(texts(topic))`` before an action)."""
        deadline = time.monotonic() + timeout
        with self._seen:
            while True:
                for text in [t for name, t, _ in self.messages if name == topic][since:]:
                    if test(text):
                        return text
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [m for m in self.messages if m[0] == topic][-3:]
                    after = f" after the first {since}" if since else ""
                    raise AssertionError(f"nothing on {topic}{after} passed the test; last: {seen}")
                self._seen.wait(left)

    def newer(
        self, topic: str, since: int, test: Callable[[dict], bool], timeout: float = 15
    ) -> dict[str, Any]:
        """The first JSON message on ``topic`` after its first ``since`` that passes ``test``."""
        return json.loads(self.wait(topic, lambda t: test(json.loads(t)), timeout, since))

    def seen(self, board: str) -> int:
        """How many states of ``board`` have come so far: ``since`` for :meth:`state`."""
        return len(self.texts(f"reedboard/{board}/state"))

    def state(
        self, board: str, test: Callable[[dict], bool] = lambda _: True, since: int | None = None
    ) -> dict[str, Any]:
        """The first state of ``board`` that passes ``test``, of all it ever sent: a state an
        action brings is waited for with ``since``, :meth:`seen` before the action (the first
        one after that many that passes), or a state from before the action would meet it."""
        if since is not None:
            return self.newer(f"reedboard/{board}/state", since, test)
        return json.loads(self.wait(f"reedboard/{board}/state", lambda t: test(json.loads(t))))

    def cleared(
        self, board: str, test: Callable[[dict], bool] = lambda _: True, since: int | None = None
    ) -> dict[str, Any]:
        """The first state of ``board`` that passes ``test`` with no piece left over (``extra``):
        the pieces lifted to clear its board have been read off, so one set down again on their
        sites is read as placed (a lift and a placement in one scan are never seen). ``since``:
        as :meth:`state` takes it."""
        return self.state(board, lambda s: not s["extra"] and test(s), since)

    def playable(self, board: str, test: Callable[[list], bool] = lambda _: True) -> list[dict]:
        """The first list of the games ``board`` plays (its ``games`` topic) that passes ``test``."""
        return json.loads(self.wait(f"reedboard/{board}/games", lambda t: test(json.loads(t)["playable"])))[
            "playable"
        ]

    def texts(self, topic: str) -> list[str]:
        with self._seen:
            return [text for name, text, _ in self.messages if name == topic]

    def publish(self, topic: str, payload: str) -> None:
        self.client.publish(topic, payload, qos=1).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def board_config(
    folder: Path,
    port: int,
    board: str = "t1",
    extra: str = "",
    top: str = "",
    size: int = 5,
    game: str = "antipalos",
) -> Path:
    """A config for ``game`` (Antipalos) on the broker at ``port`` (its own games file and page
    port); ``top``: more top-level keys, ``extra``: more of the [mqtt] table."""
    folder.mkdir(exist_ok=True)
    path = folder / f"{board}.toml"
    path.write_text(
        f'game = "{game}"\nsize = {size}\nstorage = "{folder / (board + ".db")}"\n{top}'
        f"[web]\nport = {free_port()}\n"
        f'[mqtt]\nhost = "127.0.0.1"\nport = {port}\nboard = "{board}"\n{extra}'
    )
    return path


def new_page_port(config: Path) -> None:
    """The page of ``config`` moved to a port free now: a board started again long after its
    first start may find its old port taken by another program's connection meanwhile (the
    first ``port`` line: [web]'s, as :func:`board_config` writes it)."""
    config.write_text(re.sub(r"(?m)^port = \d+$", f"port = {free_port()}", config.read_text(), count=1))


def layout_file(folder: Path, game: str, size: int) -> Path:
    """The layout ``reedboard layout`` writes for one game and size: a board wired for it."""
    path = folder / f"{game}-{size}.layout.toml"
    with path.open("w") as out:
        subprocess.run([*REEDBOARD, "layout", game, "--size", str(size)], stdout=out, check=True)
    return path


def wired_for(folder: Path, *games: tuple[str, int]) -> Path:
    """One layout file, as docs/config.md shows, for a board wired for several games (each a
    name and size): every site they name, once, its sensor and LED channel its place in the list."""
    from engines import new_game

    labels = dict.fromkeys(site.label for game, size in games for site in new_game(game, size).sites())
    path = folder / "layout.toml"
    path.write_text(
        "[sites]\n"
        + "".join(f"{json.dumps(label)} = {{ sensor = {i}, led = {i} }}\n" for i, label in enumerate(labels))
    )
    return path


class Board:
    """``reedboard run --sim --config`` in a subprocess; stdin moves its pieces. Its stderr is
    drained from the start (testbed/running.py's :class:`Lines`): a board that says much (each
    bad message refused) never blocks on a full pipe."""

    def __init__(self, config: Path) -> None:
        self.config = config
        self.proc = subprocess.Popen(
            [*REEDBOARD, "run", "--sim", "--config", str(config)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.journal = Lines(self.proc.stderr)

    def wait_running(self, online: bool = True) -> None:
        """Until the loop has begun (it says so after its first scan: a piece placed from now
        on is a move) and, with ``online``, the board is online on its broker (testbed/online.py)."""
        while (line := self.journal.next(HANG_SECONDS)) and "is running" not in line:
            pass
        assert line, f"the board did not start: {self.errors()}"  # (a port taken meanwhile, ...)
        if online and wait_online(self.config) is False:
            raise AssertionError(f"the board is running but never said it is online: {self.errors()}")

    def place(self, site: str, on: bool = True) -> None:
        self.proc.stdin.write(json.dumps({"site": site, "on": on}) + "\n")
        self.proc.stdin.flush()

    def lift(self, site: str) -> None:
        self.place(site, on=False)

    def press(self, button: str) -> None:
        self.proc.stdin.write(json.dumps({"button": button}) + "\n")
        self.proc.stdin.flush()

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """``sig``, and its exit status once it has ended (testbed/stopping.py)."""
        return stop(self.proc, sig)

    def kill(self) -> None:
        """A power cut: SIGKILL, nothing saved on the way out."""
        self.proc.kill()
        self.proc.wait(5)

    def errors(self) -> str:
        """All it said on stderr, once stopped."""
        self.stop()
        return self.journal.text(drained=True)
