"""Recording stand-ins for the buses under luma's real device classes (not for the libraries):
luma's own ``noop`` serial interface, but remembering what was sent; and the small C API of
``_rpi_ws281x`` that luma's ws2812 calls, which needs a Pi's DMA hardware; and the smbus calls
of luma's ``i2c`` interface."""

import errno
import threading
import time


class RecordingSerial:
    """A luma serial interface (command/data/cleanup) that records the bytes sent."""

    def __init__(self):
        self.commands, self.writes = [], []

    def command(self, *cmd):
        self.commands.append(list(cmd))

    def data(self, data):
        self.writes.append(list(data))

    def cleanup(self):
        pass


class RecordingWs281x:
    """The functions of ``_rpi_ws281x`` used by ``luma.led_matrix.device.ws2812``."""

    WS2811_STRIP_GRB = 0x00081000

    def __init__(self):
        self.leds, self.brightness, self.renders, self.count = {}, None, 0, 0
        self.tried = 0  # renders asked for, the failed ones too
        self.failing = 0  # what ws2811_render returns (the C library's error codes are < 0)

    def new_ws2811_t(self):
        return object()

    def ws2811_channel_get(self, leds, channum):
        return channum

    def ws2811_channel_t_count_set(self, channel, count):
        if channel == 0:
            self.count = count

    def ws2811_channel_t_brightness_set(self, channel, value):
        if channel == 0:
            self.brightness = value

    def ws2811_led_set(self, channel, index, colour):
        self.leds[index] = ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255)

    def ws2811_render(self, leds):
        self.tried += 1
        if self.failing:
            return self.failing
        self.renders += 1
        return 0

    def ws2811_init(self, leds):
        return 0

    def ws2811_channel_t_gpionum_set(self, *a):
        pass

    def ws2811_channel_t_invert_set(self, *a):
        pass

    def ws2811_channel_t_strip_type_set(self, *a):
        pass

    def ws2811_t_freq_set(self, *a):
        pass

    def ws2811_t_dmanum_set(self, *a):
        pass

    def ws2811_fini(self, *a):
        pass

    def delete_ws2811_t(self, *a):
        pass


class I2cBus:
    """The smbus calls luma's ``i2c`` interface makes with a bus of the caller's, as a panel
    answers them: each transfer takes the time it takes at ``hz`` (9 bits a byte, 0: no time),
    waits while ``gate`` is clear (failing after 5 s: a caller that waited for it would hang),
    and raises EREMOTEIO (no acknowledge) while ``broken``."""

    def __init__(self, hz: int = 0) -> None:
        self.hz, self.broken, self.transfers, self.attempts = hz, False, 0, 0
        self.gate = threading.Event()
        self.gate.set()
        self.data: list[int] = []  # every data byte sent (``frame``: the last whole frame)

    def write_i2c_block_data(self, address, register, data):
        self.attempts += 1
        if not self.gate.wait(5):
            raise TimeoutError("the bus stayed busy")
        if self.broken:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if self.hz:
            time.sleep((len(data) + 2) * 9 / self.hz)
        self.transfers += 1
        if register == 0x40:  # luma's data mode: the frame's bytes in 32-byte blocks
            self.data.extend(data)

    def frame(self) -> bytes:
        """The last 1,024 data bytes sent: a whole 128x64 frame."""
        return bytes(self.data[-1024:])


class SpiBus:
    """The spidev calls luma's ``spi`` interface makes with a bus of the caller's: the bytes
    written are kept (``writes``); while ``broken`` a write fails with EIO, as a bus whose
    device is gone does."""

    def __init__(self) -> None:
        self.broken, self.writes, self.max_speed_hz, self.mode = False, [], 0, 0

    def open(self, port, device):
        pass

    def writebytes(self, data):
        if self.broken:
            raise OSError(errno.EIO, "Input/output error")
        self.writes.append(list(data))

    def close(self):
        pass


class NoGpio:
    """A MAX7219 wires no data/command or reset pin: luma's ``spi`` asks the GPIO library
    (RPi.GPIO) for its constants only, and to set up and clean up no pin."""

    LOW, HIGH, OUT = 0, 1, 0

    def setup(self, *args, **kwargs):
        pass

    def output(self, *args):
        pass

    def cleanup(self, *args):
        pass
