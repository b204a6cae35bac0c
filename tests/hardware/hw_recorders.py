"""Recording stand-ins for the buses under luma's real device classes (not for the libraries):
luma's own ``noop`` serial interface, but remembering what was sent; and the small C API of
``_rpi_ws281x`` that luma's ws2812 calls, which needs a Pi's DMA hardware."""


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
        self.renders += 1
        return 0

    def ws2811_init(self, leds):
        return 0

    def ws2811_channel_t_gpionum_set(self, *a): pass
    def ws2811_channel_t_invert_set(self, *a): pass
    def ws2811_channel_t_strip_type_set(self, *a): pass
    def ws2811_t_freq_set(self, *a): pass
    def ws2811_t_dmanum_set(self, *a): pass
    def ws2811_fini(self, *a): pass
    def delete_ws2811_t(self, *a): pass
