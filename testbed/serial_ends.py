"""The far ends of the serial link that tests and benches run the host against, behind one
interface: the simulated microcontroller (``hardware/mcu_sim.py``, Python) and the board's
firmware in the emulator (``firmware/``, C in simavr; testbed/firmware_emulator.py).

An end has a pty at ``path`` and takes board changes (``place``, ``lift``, ``flip``, as
:class:`hardware.sim.SimBoard`), noise towards the host (``send_raw``), frames from the host
lost on the line (``lose_from_host``), cable pulls (``unplug``, ``plug``), and says whether its
LEDs show a frame (``shows``) or nothing (``dark``).

    end = make_end("firmware", "/tmp/board", channels=64, leds=300)
"""

from __future__ import annotations

from typing import Mapping

from hardware.base import Led
from hardware.mcu_sim import SimMcu
from hardware.sim import SimBoard
from testbed.firmware_emulator import EmulatedBoard, build

ENDS = ("python", "firmware")


class PythonEnd:
    """hardware/mcu_sim.py on a :class:`SimBoard`."""

    kind = "python"

    def __init__(self, path: str, channels: int, leds: int, polarity: bool, heartbeat: float) -> None:
        self.path, self.heartbeat = path, heartbeat
        self.board = SimBoard(channels, senses_polarity=polarity, leds=leds)
        self.mcu = SimMcu(self.board, path, heartbeat=heartbeat)
        self.place, self.lift, self.flip = self.board.place, self.board.lift, self.board.flip
        self.send_raw, self.unplug, self.plug = self.mcu.send_raw, self.mcu.unplug, self.mcu.plug
        self.lose_from_host = self.mcu.lose_from_host

    @property
    def closed(self) -> frozenset[int]:
        return frozenset(self.board.closed)

    def shows(self, frame: Mapping[int, Led]) -> bool:
        return self.board.leds.frame == dict(frame)

    def dark(self) -> bool:
        return self.board.leds.frame == {}

    def close(self) -> None:
        self.mcu.close()


class FirmwareEnd(EmulatedBoard):
    """The firmware on an emulated Mega 2560 reading a 74HC165 chain (with polarity: two
    inputs a channel), built for these counts and heartbeat."""

    kind = "firmware"

    def __init__(self, path: str, channels: int, leds: int, polarity: bool, heartbeat: float) -> None:
        inputs = channels * (2 if polarity else 1)
        if inputs % 8:
            raise ValueError(f"a 74HC165 chain has inputs in eights, not {inputs}")
        variant = build(
            "mega",
            SCANNER="SCANNER_165",
            SR_REGISTERS=inputs // 8,
            SR_POLARITY_PAIRS=int(polarity),
            LED_COUNT=leds,
            HEARTBEAT_MS=round(heartbeat * 1000),
        )
        self.heartbeat = heartbeat
        super().__init__(variant, path)


def make_end(
    kind: str, path: str, channels: int, leds: int, *, polarity: bool = False, heartbeat: float = 0.2
) -> PythonEnd | FirmwareEnd:
    """A board end of ``kind`` (one of :data:`ENDS`) on a pty at ``path``."""
    end = {"python": PythonEnd, "firmware": FirmwareEnd}[kind]
    return end(path, channels, leds, polarity, heartbeat)
