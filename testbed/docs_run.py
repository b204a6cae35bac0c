"""Running the docs' examples (testbed/docs.py reads them) as a user would, in a
:class:`Sandbox`: a folder that stands for the machine's ``/etc/reedboard``, ``/etc/mosquitto``,
``/var/lib/reedboard``, ``/dev/serial`` and home folder, with a working folder whose
``.venv/bin`` is the suite's. A config from the docs is adapted only in its host, ports and
paths (:meth:`Sandbox.config`); a command only in its paths and the page's port
(:meth:`Sandbox.command`).

What the suite does not run, and why, is :data:`NOT_RUN`, in one place.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import tomli_w

from firmware_host.store.layout import default_layout_toml
from testbed.docs import words
from testbed.serial_ends import PythonEnd
from testbed.stopping import HANG_SECONDS
from testbed.tools import REEDBOARD, free_port

#: Commands the docs show that the suite does not run: pattern -> why.
NOT_RUN = {
    r"^(sudo )?apt(-get)? ": "installs Debian packages (tests/run.sh installs what the suite needs)",
    r"^(sudo )?(systemd/install\.sh|systemctl|journalctl)|^git |^cd reedboard$": (
        "sets up or watches the service on a Raspberry Pi (tests/system/ checks the unit and its installer)"
    ),
    r"^sudo -u reedboard ": "the service's user and venv exist on a Pi only; `reedboard doctor` "
    "runs from docs/build.md",
    r"^python3 -m venv |^\.venv/bin/pip install ": "the install: the suite runs in the venv "
    "tests/run.sh makes this way",
    r"^bash tests/run\.sh|^\.venv/bin/python -m pytest": "the test suite itself",
    r"^\.venv/bin/python -m tools\.importgraph": "redraws docs/drawings/imports.svg: "
    "tests/test_imports.py checks it is current",
    r"^(bench/run|(\.venv/bin/)?python -m bench\.)": "benchmarks run for minutes: the suite runs "
    "their short versions (tests/robustness/, tests/board/test_robot.py, tests/net/mqtt/)",
    r"^cd firmware$|^make( |$)": "the firmware's build and flashing: tests/firmware/ builds it "
    "with this Makefile; flashing needs an Arduino on USB",
    r"^reedboard firmware flash\b": "writes an Arduino's flash over USB: "
    "tests/system/test_firmware_flash.py runs it without one",
    r"^reedboard setup$": "without --config the wizard's page takes the built-in port 8080 "
    "(no config to move it to a free one); docs/build.md's "
    "`reedboard setup --config ...` runs",
}
#: Commands that need the café's broker: run by tests/docs/test_cafe.py.
CAFE = r"^(sudo )?mosquitto_(passwd|pub|sub) |^reedboard cafe\b"
#: The ``reedboard`` commands that serve a page until stopped.
SERVING = ("run", "cafe", "setup")
#: The machine's folders a sandbox stands for.
MAPPED = ("/etc/reedboard", "/etc/mosquitto", "/var/lib/reedboard", "/dev/serial")
#: Host names the docs use for the café's machines (all of them this machine here).
HOSTS = re.compile(r"\b[\w-]+\.(cafe\.lan|example|lan)\b")


def not_run(command: str) -> str | None:
    """Why the suite does not run ``command`` (None: it does).

    >>> not_run("sudo systemctl restart mosquitto")[:30]
    'sets up or watches the service'
    >>> not_run("reedboard games") is None
    True
    """
    return next((why for pattern, why in NOT_RUN.items() if re.search(pattern, command)), None)


def password(user: str) -> str:
    """The password the suite gives a login the docs create."""
    return f"doc-test-{user}"


class Sandbox:
    """The machine's folders under ``root`` (see the module's docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.work = root / "work"
        for folder in (self.home, self.work, *(self.mapped(p) for p in MAPPED)):
            folder.mkdir(parents=True, exist_ok=True)
        (self.work / ".venv").mkdir()
        (self.work / ".venv" / "bin").symlink_to(Path(sys.executable).parent)
        self.broker_port: int | None = None
        self.ends: dict[str, PythonEnd] = {}

    def mapped(self, path: str) -> Path:
        """Where a machine's path is here (a path outside :data:`MAPPED` stays)."""
        return Path(self.text(path))

    def text(self, text: str) -> str:
        """``text`` with the machine's folders and the café's host names mapped here."""
        for folder in MAPPED:
            text = re.sub(rf"(?<![\w/]){re.escape(folder)}(?=/|\b)", str(self.root) + folder, text)
        return HOSTS.sub("127.0.0.1", text)

    def env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("STATE_DIRECTORY", "XDG_STATE_HOME", "NOTIFY_SOCKET", "REEDBOARD_TOKEN")
        }
        bin_ = str(Path(sys.executable).parent)
        return {
            **env,
            "HOME": str(self.home),
            "PATH": f"{bin_}:{env.get('PATH', '')}",
            "PYTHONUNBUFFERED": "1",
        }

    # ------------------------------------------------------------------------------- configs
    def config(self, text: str, name: str, base: dict[str, Any] | None = None) -> Path:
        """The docs' config ``text`` written as ``name`` (a machine's path, or a name in the
        working folder), merged into ``base``: its paths and host mapped, the page on a free
        port, the broker's port this sandbox's; the files it names that a user makes first
        (the layout, the simulated board's wiring, the password) made, and a serial board it
        names plugged in (the simulated microcontroller)."""
        data = merged(base or {}, self._adapted(tomllib.loads(text)))
        data.setdefault("web", {})["port"] = free_port()
        if "host" in data.get("mqtt", {}) and self.broker_port:
            data["mqtt"]["port"] = self.broker_port
        path = self.mapped(name) if name.startswith("/") else self.work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        self._files_named(data, path.parent)
        path.write_text(tomli_w.dumps(data), encoding="utf-8")
        return path

    def _adapted(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: self._adapted(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._adapted(v) for v in value]
        return self.text(value) if isinstance(value, str) else value

    def _files_named(self, data: dict[str, Any], folder: Path) -> None:
        def sites() -> str:
            return default_layout_toml(data.get("game", "antipalos"), data.get("size"), data.get("variant"))

        layout = data.get("layout")
        if layout and not (folder / layout).exists():
            (folder / layout).write_text(sites())
        wiring = data.get("sensors", {}).get("wiring")
        if wiring and not (folder / wiring).exists():
            (folder / wiring).write_text(shuffled(sites()))
        mqtt = data.get("mqtt", {})
        if mqtt.get("password_file") and not (folder / mqtt["password_file"]).exists():
            (folder / mqtt["password_file"]).write_text(password(mqtt.get("username", "")) + "\n")
        for table in ("sensors", "leds"):
            port = data.get(table, {}).get("port")
            if data.get(table, {}).get("backend") == "serial" and port not in self.ends:
                Path(port).parent.mkdir(parents=True, exist_ok=True)
                channels = data["sensors"].get("channels", 64)
                self.ends[port] = PythonEnd(port, channels, data["leds"].get("count", channels), False, 0.2)

    # ------------------------------------------------------------------------------ commands
    def command(self, command: str) -> tuple[str, int | None]:
        """``command`` as run here, and the port of the page it serves (None: a one-shot)."""
        command = self.text(command)
        said = words(command)
        if said and said[0].endswith("reedboard") and len(said) > 1 and said[1] in SERVING:
            if said[1] == "setup":
                return command, self._config_port(said)
            port = free_port()
            if "--port" in said:
                return re.sub(r"--port \d+", f"--port {port}", command), port
            return re.sub(rf"(reedboard {said[1]})", rf"\1 --port {port}", command, count=1), port
        return command, None

    def _config_port(self, said: list[str]) -> int:
        """The page's port of the config a ``reedboard setup`` names."""
        name = said[said.index("--config") + 1]
        path = Path(name) if name.startswith("/") else self.work / name
        return tomllib.loads(path.read_text())["web"]["port"]

    def start(self, command: str, stdin: int | None = subprocess.DEVNULL) -> subprocess.Popen:
        return subprocess.Popen(
            ["bash", "-c", command],
            cwd=self.work,
            env=self.env(),
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )

    def run(self, command: str, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["bash", "-c", command],
            cwd=self.work,
            env=self.env(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def close(self) -> None:
        for end in self.ends.values():
            end.close()


def merged(base: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
    """``more``'s keys over ``base``'s, table by table.

    >>> merged({"web": {"port": 1, "host": "h"}}, {"web": {"port": 2}})
    {'web': {'port': 2, 'host': 'h'}}
    """
    out = dict(base)
    for key, value in more.items():
        out[key] = (
            merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
        )
    return out


def shuffled(layout: str) -> str:
    """A layout file's sensor channels shuffled (a board wired in no particular order).

    >>> text = "".join(f'"s{i}" = {{ sensor = {i}, led = {i} }}\\n' for i in range(8))
    >>> channels = [int(c) for c in re.findall(r"sensor = (\\d+)", shuffled(text))]
    >>> sorted(channels) == list(range(8)) and channels != list(range(8))
    True
    """
    channels = re.findall(r"sensor = (\d+)", layout)
    random.Random(7).shuffle(channels)
    order = iter(channels)
    return re.sub(r"sensor = \d+", lambda _: f"sensor = {next(order)}", layout)


def dashboard(config: Path, port: int, state: Path) -> subprocess.Popen:
    """``reedboard cafe`` with ``config`` on ``port`` keeping its league in ``state``, in a
    process group of its own (which :func:`stop` ends)."""
    return subprocess.Popen(
        [*REEDBOARD, "cafe", "--config", str(config), "--port", str(port), "--state", str(state)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def serves(proc: subprocess.Popen, port: int, path: str = "/", timeout: float = 30) -> int:
    """The HTTP status of ``path`` on ``port`` once the process answers there (0: it stopped
    first, or did not answer within ``timeout``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as answer:
                return answer.status
        except urllib.error.HTTPError as e:
            return e.code
        except OSError:
            time.sleep(0.1)
    return 0


def stop(proc: subprocess.Popen) -> tuple[str, str]:
    """SIGTERM to the command's process group (a pipeline's every process), then what it said
    once all of them have ended. One still running (or holding its output open) after
    :data:`~testbed.stopping.HANG_SECONDS` fails the test, with what the command said; the
    group is killed first."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        return proc.communicate(timeout=HANG_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        raise AssertionError(
            f"{proc.args!r} hung: still running {HANG_SECONDS:g} s after SIGTERM; it said: {err[-2000:]}"
        ) from None
