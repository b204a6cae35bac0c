"""``reedboard run`` without the wall clock: the daemon's loop stepped on a virtual clock over
the simulated board, in this process, so a test can break a part (the games file, the panel,
the LED chain) between two scans and read what the loop says."""

from __future__ import annotations

import io
import json
import time
from typing import Any, Callable

from firmware_host.runtime.loop import Daemon, Hardware
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config
from firmware_host.store.storage import Storage
from hardware.sim import SimBoard

#: The loop's rate: 10 ms a scan.
SCAN_HZ = 100


class Stepped:
    """The daemon loop on ``config``'s game and ``storage``, over a simulated board of 64
    channels; its LEDs and display unless ``leds`` or ``display`` are given. ``pause``: seconds
    slept after each scan, so that the parts' threads get their turn."""

    def __init__(
        self, config: Config, storage: Storage, *, leds: Any = None, display: Any = None, pause: float = 0.0
    ) -> None:
        self.config, self.storage, self.pause = config, storage, pause
        self.controller = open_controller(config, storage, configured_game(config))
        self.sim, self.log = SimBoard(64), io.StringIO()
        hardware = Hardware(self.sim, leds or self.sim.leds, display or self.sim.display, self.sim.buttons)
        self.daemon = Daemon(self.controller, hardware, SCAN_HZ, log=self.log)
        self.t = 0.0

    def wait(self, ms: float) -> None:
        """Step the loop through ``ms`` of the virtual clock; each step must go on."""
        for _ in range(int(ms // 10)):
            self.t += 10
            assert self.daemon.step(self.t)
            if self.pause:
                time.sleep(self.pause)

    def put(self, site: str, on: bool = True) -> None:
        """Place (or lift) the piece on ``site``, then let the board settle."""
        channel = self.controller.layout.sensor[site]
        self.sim.place(channel) if on else self.sim.lift(channel)
        self.wait(300)

    def until(self, condition: Callable[[], bool]) -> None:
        """Step on until ``condition()`` (the parts' threads run on the real clock), and once more."""
        deadline = time.monotonic() + 5
        while not condition():
            assert time.monotonic() < deadline, "timed out"
            self.wait(50)
        self.wait(50)

    def events(self, kind: str) -> list[dict[str, Any]]:
        """The events of ``kind`` the loop wrote so far."""
        return [e for e in map(json.loads, self.log.getvalue().splitlines()) if e["event"] == kind]

    def moves(self) -> list[str]:
        return [e["move"] for e in self.events("move")]

    @property
    def screen(self) -> list[str]:
        return list(self.controller.screen().text_lines())
