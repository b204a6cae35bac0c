"""The serial protocol between the host and the board's microcontroller (docs/serial-protocol.md).

A frame on the wire is ``00 COBS(kind seq body crc16) 00``: the CRC is ``binascii.crc_hqx``
(CRC-16/CCITT, start 0xFFFF) over kind, seq and body, big-endian. The same code runs on both
ends: the host link and the simulated microcontroller.

>>> wire = encode(Frame(CHANGE, 7, encode_changes({3: (True, False)})))
>>> reader = FrameReader()
>>> frames = reader.feed(b"garbage" + wire[:5] + wire)
>>> frames == [Frame(CHANGE, 7, b"\\x80\\x03")], reader.dropped
(True, 2)
>>> decode_changes(frames[0].body)
{3: (True, False)}
"""

from __future__ import annotations

import binascii
from collections import Counter
from typing import Iterable, Mapping, NamedTuple

from cobs import cobs

from hardware.base import PATTERNS, Led

VERSION = 1
#: The firmware release this host ships (firmware/version.h), reported in INFO since release 2.
FIRMWARE = 2
#: What to do about a board on another firmware or protocol.
FLASH = "reedboard firmware flash"
#: Why a board's port opens but nothing answers: a flash cut short leaves the bootloader, but
#: maybe not the program it starts.
SILENT = f"firmware missing or interrupted: run {FLASH}"
#: Longest payload (kind + seq + body + crc) either end accepts.
MAX_PAYLOAD = 1024
#: Most channels / LEDs a board may have (14-bit channel numbers).
MAX_CHANNELS = 1 << 14

# host -> board
HELLO, REQUEST_STATE, LEDS = 0x01, 0x02, 0x03
# board -> host
INFO, STATE, CHANGE = 0x81, 0x82, 0x83
KINDS = {HELLO, REQUEST_STATE, LEDS, INFO, STATE, CHANGE}

#: LED chunk flags.
FIRST, LAST = 0x01, 0x02
LED_ENTRY = 5
LEDS_PER_CHUNK = (MAX_PAYLOAD - 6) // LED_ENTRY
CHANGES_PER_FRAME = (MAX_PAYLOAD - 4) // 2


class FrameError(ValueError):
    """A frame or message body that cannot be read; ``reason`` names the counter."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Frame(NamedTuple):
    kind: int
    seq: int
    body: bytes = b""


def encode(frame: Frame) -> bytes:
    payload = bytes((frame.kind, frame.seq & 0xFF)) + frame.body
    if len(payload) + 2 > MAX_PAYLOAD:
        raise ValueError(f"frame payload of {len(payload) + 2} bytes exceeds {MAX_PAYLOAD}")
    crc = binascii.crc_hqx(payload, 0xFFFF).to_bytes(2, "big")
    return b"\0" + cobs.encode(payload + crc) + b"\0"


def decode(packet: bytes) -> Frame:
    """One COBS packet (without delimiters) to a frame; FrameError when it cannot be trusted."""
    try:
        payload = cobs.decode(packet)
    except cobs.DecodeError:
        raise FrameError("bad_cobs") from None
    if len(payload) < 4:
        raise FrameError("short")
    if binascii.crc_hqx(payload[:-2], 0xFFFF) != int.from_bytes(payload[-2:], "big"):
        raise FrameError("bad_crc")
    if payload[0] not in KINDS:
        raise FrameError("unknown_kind")
    return Frame(payload[0], payload[1], bytes(payload[2:-2]))


class FrameReader:
    """Splits a byte stream into frames. Bad frames are dropped and counted in ``stats``;
    nothing a peer sends can make it raise or grow without bound."""

    max_packet = MAX_PAYLOAD + MAX_PAYLOAD // 254 + 2

    def __init__(self) -> None:
        self.stats: Counter[str] = Counter()
        self._buffer = bytearray()
        self._skipping = False

    @property
    def dropped(self) -> int:
        return sum(v for k, v in self.stats.items() if k != "frames")

    def reset(self) -> None:
        """Forget a partial frame (the port was reopened); keep the counts."""
        self._buffer.clear()
        self._skipping = False

    def feed(self, data: bytes) -> list[Frame]:
        frames = []
        *complete, rest = data.split(b"\0")
        for piece in complete:
            packet = self._take(piece)
            if packet:
                try:
                    frames.append(decode(packet))
                    self.stats["frames"] += 1
                except FrameError as error:
                    self.stats[error.reason] += 1
        self._take(rest, keep=True)
        return frames

    def _take(self, piece: bytes, keep: bool = False) -> bytes:
        """Add ``piece`` to the buffer; return the whole packet unless ``keep``."""
        if not self._skipping:
            self._buffer += piece
            if len(self._buffer) > self.max_packet:
                self.stats["oversized"] += 1
                self._buffer.clear()
                self._skipping = True
        if keep:
            return b""
        packet = bytes(self._buffer)
        self._buffer.clear()
        self._skipping = False
        return packet


# -- message bodies -----------------------------------------------------------------------


class BoardInfo(NamedTuple):
    """INFO's body. ``firmware``: the board's firmware release; 1 for a board from before
    INFO carried it (six bytes, without the release)."""

    version: int
    channels: int
    leds: int
    senses_polarity: bool
    firmware: int = FIRMWARE


def encode_info(info: BoardInfo) -> bytes:
    """INFO's body, with the firmware release (a release-1 board's six bytes without it).

    >>> decode_info(encode_info(BoardInfo(1, 64, 64, False, firmware=1)))
    BoardInfo(version=1, channels=64, leds=64, senses_polarity=False, firmware=1)
    """
    release = bytes((info.firmware,)) if info.firmware > 1 else b""
    return (
        bytes((info.version,))
        + info.channels.to_bytes(2, "big")
        + info.leds.to_bytes(2, "big")
        + bytes((int(info.senses_polarity),))
        + release
    )


def decode_info(body: bytes) -> BoardInfo:
    if len(body) not in (6, 7):
        raise FrameError("malformed")
    return BoardInfo(
        body[0],
        int.from_bytes(body[1:3], "big"),
        int.from_bytes(body[3:5], "big"),
        bool(body[5] & 1),
        body[6] if len(body) == 7 else 1,
    )


def _mask(channels: Iterable[int], size: int) -> bytes:
    bits = 0
    for channel in channels:
        bits |= 1 << channel
    return bits.to_bytes(size, "little")


#: The set bits of each byte value, lowest first.
_BITS = [tuple(b for b in range(8) if value >> b & 1) for value in range(256)]


def closed_channels(data: bytes) -> frozenset[int]:
    """The set bits of ``data``, byte k holding channels 8k..8k+7 (bit i = channel 8k+i): the
    mask layout of state reports and of a 74HC165 chain's bytes.

    >>> sorted(closed_channels(bytes([0b101, 0, 0x80])))
    [0, 2, 23]
    """
    return frozenset(8 * k + b for k, byte in enumerate(data) if byte for b in _BITS[byte])


def encode_state(
    closed: Iterable[int], north: Mapping[int, bool] | None, channels: int, led_frame: int
) -> bytes:
    """Full state: the LED frame id last shown, the closed mask, and (boards that sense
    polarity) the north-up mask, one bit per channel, little-endian."""
    size = (channels + 7) // 8
    body = bytes((led_frame & 0xFF,)) + _mask(closed, size)
    if north is not None:
        body += _mask((c for c, up in north.items() if up), size)
    return body


def decode_state(
    body: bytes, channels: int, polarity: bool
) -> tuple[frozenset[int], dict[int, bool] | None, int]:
    size = (channels + 7) // 8
    if len(body) != 1 + size * (2 if polarity else 1):
        raise FrameError("malformed")
    closed = closed_channels(body[1 : 1 + size])
    if max(closed, default=-1) >= channels:
        raise FrameError("malformed")
    north = None
    if polarity:
        up = closed_channels(body[1 + size :])
        north = {c: c in up for c in closed}
    return closed, north, body[0]


def encode_changes(changes: Mapping[int, tuple[bool, bool]]) -> bytes:
    """Changed channels: channel -> (closed, north up), two bytes each."""
    out = bytearray()
    for channel, (closed, north) in changes.items():
        out += (channel | closed << 15 | north << 14).to_bytes(2, "big")
    return bytes(out)


def decode_changes(body: bytes) -> dict[int, tuple[bool, bool]]:
    if len(body) % 2:
        raise FrameError("malformed")
    out = {}
    for i in range(0, len(body), 2):
        word = int.from_bytes(body[i : i + 2], "big")
        out[word & 0x3FFF] = (bool(word & 0x8000), bool(word & 0x4000))
    return out


def encode_leds(frame: Mapping[int, Led], frame_id: int) -> list[bytes]:
    """An LED frame as chunk bodies: frame id, flags (FIRST clears, LAST shows), then
    five bytes per lit LED: pattern << 14 | channel, red, green, blue."""
    entries = [
        (PATTERNS.index(led.pattern) << 14 | ch).to_bytes(2, "big") + bytes(led.colour)
        for ch, led in sorted(frame.items())
        if any(led.colour)
    ]
    chunks = [entries[i : i + LEDS_PER_CHUNK] for i in range(0, len(entries), LEDS_PER_CHUNK)] or [[]]
    bodies = []
    for i, chunk in enumerate(chunks):
        flags = (FIRST if i == 0 else 0) | (LAST if i == len(chunks) - 1 else 0)
        bodies.append(bytes((frame_id & 0xFF, flags)) + b"".join(chunk))
    return bodies


def decode_leds(body: bytes) -> tuple[int, int, dict[int, Led]]:
    """One chunk: (frame id, flags, channel -> Led)."""
    if len(body) < 2 or (len(body) - 2) % LED_ENTRY:
        raise FrameError("malformed")
    leds = {}
    for i in range(2, len(body), LED_ENTRY):
        word = int.from_bytes(body[i : i + 2], "big")
        leds[word & 0x3FFF] = Led((body[i + 2], body[i + 3], body[i + 4]), PATTERNS[word >> 14])
    return body[0], body[1], leds
