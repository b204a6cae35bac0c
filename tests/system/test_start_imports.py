"""What a board loads to start: only what its configuration asks for (docs/performance.md).

A real ``reedboard run`` under ``python -X importtime`` (which logs each module as it loads):
a board on the hardware backends (the serial link to a simulated microcontroller, a dummy OLED)
without its page, the café network or sound loads no web server, no MQTT client, no computer
search, no sound players and no other game's engine; the simulated board's page loads its web
server only after READY; a hardware board's page loads no simulated board before READY.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Callable

from firmware_host.runtime.notify import READY_MARK
from hardware.mcu_sim import SimMcu
from hardware.sim import SimBoard
from testbed.stopping import stop
from testbed.tools import free_port, wait_for

CHANNELS = 50  # Antipalos 5: 50 sites
#: A module's line of ``-X importtime``; its own time is negative when another thread's imports
#: ran meanwhile (the interpreter counts them in, then takes them out of the module around).
_IMPORT = re.compile(r"import time:\s+-?\d+ \|\s+-?\d+ \| *(\S+)")


def started(
    config: Path,
    notify: tuple[str, object],
    *flags: str,
    until: Callable[[], object] = lambda: time.sleep(1.0),
) -> tuple[set[str], set[str]]:
    """The modules ``reedboard run`` loaded before READY (above the line READY writes in the
    log) and after it, until ``until`` returns (by default a second: the first screen drawn)."""
    path, sock = notify
    log = config.with_suffix(".log")
    with open(log, "w") as errors:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-X",
                "importtime",
                "-m",
                "firmware_host.cli.main",
                "run",
                "--config",
                str(config),
                *flags,
            ],
            env={"NOTIFY_SOCKET": path, "PATH": "/usr/bin:/bin"},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
        try:
            assert wait_for(sock, "READY=1")
            until()
        finally:
            stop(proc)
    text = log.read_text()
    Path("test-output", f"importtime-{config.parent.name}.log").write_text(text)  # to read a failure
    before, mark, after = text.partition(READY_MARK)
    assert mark, "no READY line in the log"
    return set(_IMPORT.findall(before)), set(_IMPORT.findall(after))


def served(url: str, timeout: float = 30) -> None:
    """Wait until the page at ``url`` answers."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def serial_board(tmp_path: Path, web: str) -> tuple[Path, SimMcu]:
    """A config for an Antipalos board on a serial link (its firmware simulated on a pty) with
    the dummy OLED, its ``[web]`` table holding ``web``; the config and the firmware."""
    port = str(tmp_path / "board")
    mcu = SimMcu(SimBoard(CHANNELS, leds=CHANNELS), port, interval=0.005)
    config = tmp_path / "config.toml"
    config.write_text(
        f'game = "antipalos"\nsize = 5\nstorage = "{tmp_path / "games.db"}"\n'
        f'[sensors]\nbackend = "serial"\nport = "{port}"\nchannels = {CHANNELS}\n'
        f'[leds]\nbackend = "serial"\nport = "{port}"\ncount = {CHANNELS}\n'
        f'[display]\nbackend = "dummy"\n[web]\n{web}\n'
    )
    return config, mcu


def test_a_hardware_board_without_page_or_network_loads_only_what_it_plays(tmp_path, notify_socket):
    config, mcu = serial_board(tmp_path, "enabled = false")
    try:
        before, after = started(config, notify_socket)
    finally:
        mcu.close()
    loaded = before | after
    assert {"hardware.serial_link", "engines.antipalos.state", "luma.core.device"} <= loaded
    unwanted = {
        "aiohttp",
        "firmware_host.net.web",
        "paho",
        "firmware_host.net.mqtt",
        "engines.ai.mcts",
        "engines.ai.alphabeta",
        "engines.ai.clocked",  # no computer: nothing asks how long it may think
        "firmware_host.board.worker",
        "engines.phalanx.state",
        "engines.antipode.state",
        "hashlib",
        "firmware_host.plan",
        "hardware.sound",  # no [sound]: no buzzer, audio or voice
        "subprocess",
        "wave",
        "logging",  # the OLED's frames compared without Image.tobytes (PIL.ImageFile loads it)
        "argparse",  # `run --config FILE` read without the full parser (cli/daemon_cli.py)
        "gettext",  # argparse's messages' (and a language other than English's)
        "tomllib",  # a plain config read without it (store/plaintoml.py)
        "inspect",  # dataclasses' stand-in, never asked (cli/starting.py)
        "engines.antipalos.match",  # no match play, no record read
        "tokenize",  # inspect's
    }
    assert not unwanted & loaded


def test_a_hardware_boards_page_loads_no_simulated_board_before_ready(tmp_path, notify_socket):
    web = free_port()
    config, mcu = serial_board(tmp_path, f"port = {web}")
    try:
        before, _ = started(config, notify_socket, until=lambda: served(f"http://127.0.0.1:{web}/"))
    finally:
        mcu.close()
    assert "firmware_host.net.web.bridge" in before  # its address bound before READY
    unwanted = {"hardware.sim", "aiohttp", "tomllib", "encodings.idna", "argparse", "inspect"}
    assert not unwanted & before, unwanted & before


def test_the_simulated_boards_page_loads_its_web_server_after_ready(tmp_path, notify_socket):
    config, port = tmp_path / "config.toml", free_port()
    config.write_text(
        f'game = "antipalos"\nsize = 5\nstorage = "{tmp_path / "games.db"}"\n[web]\nport = {port}\n'
    )
    before, after = started(config, notify_socket, "--sim", until=lambda: served(f"http://127.0.0.1:{port}/"))
    assert "firmware_host.net.web" in before  # its address bound before READY
    assert "secrets" not in before  # a page on loopback needs no token
    assert "aiohttp" not in before, "aiohttp loaded before READY"
    assert "argparse" not in before  # `run --sim --config FILE` read without the full parser
    assert "tomllib" not in before  # a plain config
    assert "encodings.idna" not in before  # an address in ASCII bound without the IDNA codec
    assert "inspect" not in before  # dataclasses' stand-in (cli/starting.py)
    assert "aiohttp" in after, "the page served without aiohttp loaded after READY"
    assert "engines.phalanx.state" not in before  # the games it offers: listed after READY
