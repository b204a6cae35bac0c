"""A board that does not answer: a serial port that is absent, a pty whose other end never
answers, a board unplugged and plugged back (the simulated microcontroller on a real pty). The
OLED says "Board not connected" (no guidance about pieces nobody can see), the journal and STATUS
say it once, and again when it is back; the board is then judged again."""

from __future__ import annotations

import io
import json
import os
import time

from firmware_host.runtime.loop import SILENT_SECONDS, Daemon, Hardware
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config, Timing
from firmware_host.store.storage import Storage
from hardware.mcu_sim import SimMcu
from hardware.serial_link import SerialLink, SerialScanner
from hardware.sim import SimBoard

TIMING = Timing(settle_ms=100, debounce_scans=2)


class Rig:
    """The daemon loop on the wall clock over a serial scanner at ``url``."""

    def __init__(self, url: str) -> None:
        config = Config(game="phalanx", timing=TIMING)  # its start position has pieces
        self.controller = open_controller(config, Storage(":memory:"), configured_game(config))
        self.link = SerialLink(
            url, self.controller.layout.sensor_channels, reopen_interval=0.05, stale_after=1.0
        )
        self.sim = SimBoard(self.link.channels)
        self.log = io.StringIO()
        self.daemon = Daemon(
            self.controller,
            Hardware(SerialScanner(self.link), self.sim.leds, self.sim.display, self.sim.buttons),
            100,
            log=self.log,
        )
        self.began = time.monotonic()

    def run(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            assert self.daemon.step((time.monotonic() - self.began) * 1000)
            time.sleep(0.01)

    def kinds(self) -> list[str]:
        return [json.loads(line)["event"] for line in self.log.getvalue().splitlines()]

    @property
    def screen(self) -> tuple[str, ...]:
        return self.controller.screen().text_lines()

    def close(self) -> None:
        self.link.close()


def test_absent_then_plugged_then_unplugged(tmp_path, capsys):
    path = str(tmp_path / "board")
    rig = Rig(path)
    try:
        rig.run(SILENT_SECONDS + 0.5)
        assert "Board not connected" in rig.screen and "out_of_sync" not in rig.kinds()
        assert f"(Board not connected: cannot open {path} (No such file or directory))" in rig.daemon._status
        err = capsys.readouterr().err
        assert err.count("Board not connected") == 1
        board = SimBoard(rig.link.channels)
        for site in rig.controller.expected:  # the pieces are where they should be
            board.place(rig.controller.layout.sensor[site])
        mcu = SimMcu(board, path, heartbeat=0.2)
        rig.run(0.8)
        assert "Board not connected" not in rig.screen and "out_of_sync" not in rig.kinds()
        assert "Board not connected" not in rig.daemon._status
        assert capsys.readouterr().err.splitlines() == ["reedboard run: the board is connected again"]
        mcu.unplug()
        rig.run(SILENT_SECONDS + 0.5)
        assert "Board not connected" in rig.screen and "out_of_sync" not in rig.kinds()
        assert capsys.readouterr().err.count("Board not connected") == 1
        empty = sorted(set(rig.controller.layout.sensor) - rig.controller.expected)[0]
        board.place(rig.controller.layout.sensor[empty])
        mcu.plug()
        rig.run(0.8)  # judged again: a piece put down while it was away
        assert rig.kinds().count("out_of_sync") == 1
        assert "the board is connected again" in capsys.readouterr().err
        mcu.close()
    finally:
        rig.close()


def test_a_pty_whose_other_end_never_answers(capsys):
    master, slave = os.openpty()
    try:
        rig = Rig(os.ttyname(slave))
        rig.run(SILENT_SECONDS + 1.5)  # past the link's stale time: it reopens, still silent
        assert "Board not connected" in rig.screen and "out_of_sync" not in rig.kinds()
        assert rig.daemon._status.endswith(
            f"(Board not connected: no answer on {os.ttyname(slave)}: "
            "firmware missing or interrupted: run reedboard firmware flash)"
        )
        assert capsys.readouterr().err.count("Board not connected") == 1
        rig.close()
    finally:
        os.close(master)
        os.close(slave)
