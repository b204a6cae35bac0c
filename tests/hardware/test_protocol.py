"""Frame and message encoding of the serial protocol."""

import binascii
from pathlib import Path

import pytest
from cobs import cobs
from hypothesis import given
from hypothesis import strategies as st

from hardware import protocol as p
from hardware.base import PATTERNS, Led

frames = st.builds(
    p.Frame, st.sampled_from(sorted(p.KINDS)), st.integers(0, 255), st.binary(max_size=p.MAX_PAYLOAD - 4)
)


@given(frames)
def test_frame_round_trip(frame):
    wire = p.encode(frame)
    assert wire[0] == 0 and wire[-1] == 0 and b"\0" not in wire[1:-1]
    assert p.FrameReader().feed(wire) == [frame]


@given(st.lists(frames, max_size=5), st.data())
def test_frames_survive_any_split_of_the_stream(sent, data):
    wire = b"".join(map(p.encode, sent))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=6)))
    reader = p.FrameReader()
    got = []
    for a, b in zip([0] + cuts, cuts + [len(wire)]):
        got += reader.feed(wire[a:b])
    assert got == sent and reader.dropped == 0


@given(st.binary(max_size=3000))
def test_random_bytes_never_raise(noise):
    reader = p.FrameReader()
    reader.feed(noise)
    assert len(reader._buffer) <= reader.max_packet


@given(st.binary(max_size=200), frames)
def test_a_frame_after_noise_still_arrives(noise, frame):
    assert p.FrameReader().feed(noise + p.encode(frame))[-1] == frame


def test_bad_crc_truncated_and_oversized_are_dropped_and_counted():
    good = p.encode(p.Frame(p.STATE, 1, b"\x00\x01"))
    payload = bytes((p.STATE, 1, 0, 1)) + b"\x12\x34"
    bad_crc = b"\0" + cobs.encode(payload) + b"\0"
    reader = p.FrameReader()
    frames = reader.feed(bad_crc + good[:4] + b"\xff" * 3000 + good)
    assert frames == [p.Frame(p.STATE, 1, b"\x00\x01")]
    assert reader.stats["bad_crc"] == 1 and reader.stats["oversized"] == 1


def test_unknown_kind_is_dropped():
    payload = bytes((0x55, 0))
    crc = binascii.crc_hqx(payload, 0xFFFF).to_bytes(2, "big")
    reader = p.FrameReader()
    assert reader.feed(b"\0" + cobs.encode(payload + crc) + b"\0") == []
    assert reader.stats["unknown_kind"] == 1


@given(
    st.integers(1, 900).flatmap(
        lambda n: st.tuples(st.just(n), st.dictionaries(st.integers(0, n - 1), st.booleans(), max_size=40))
    )
)
def test_state_round_trip(case):
    channels, north = case
    body = p.encode_state(north, north, channels, 9)
    assert p.decode_state(body, channels, True) == (frozenset(north), north, 9)
    plain = p.encode_state(north, None, channels, 0)
    assert p.decode_state(plain, channels, False) == (frozenset(north), None, 0)


@given(st.dictionaries(st.integers(0, p.MAX_CHANNELS - 1), st.tuples(st.booleans(), st.booleans())))
def test_changes_round_trip(changes):
    assert p.decode_changes(p.encode_changes(changes)) == changes


leds = st.builds(Led, st.tuples(*[st.integers(0, 255)] * 3), st.sampled_from(PATTERNS))


@given(st.dictionaries(st.integers(0, 999), leds, max_size=600), st.integers(0, 255))
def test_led_frames_round_trip_in_chunks(frame, frame_id):
    bodies = p.encode_leds(frame, frame_id)
    got, flags = {}, []
    for body in bodies:
        assert len(body) + 4 <= p.MAX_PAYLOAD
        fid, f, part = p.decode_leds(body)
        assert fid == frame_id
        flags.append(f)
        got.update(part)
    assert got == {ch: led for ch, led in frame.items() if any(led.colour)}
    assert flags[0] & p.FIRST and flags[-1] & p.LAST
    assert all(not f & p.LAST for f in flags[:-1])


def test_malformed_bodies_raise_frame_error():
    for decode, body in [
        (p.decode_info, b"\x01"),
        (lambda b: p.decode_state(b, 16, False), b"\x00\x01"),
        (lambda b: p.decode_state(b, 10, False), b"\x00\x00\xff"),
        (p.decode_changes, b"\x01"),
        (p.decode_leds, b"\x01\x03\x00"),
    ]:
        with pytest.raises(p.FrameError):
            decode(body)


def test_the_host_ships_the_firmware_release_the_firmware_says():
    """`reedboard doctor` compares the board's INFO with p.FIRMWARE: the same number as the
    firmware this checkout builds (firmware/version.h)."""
    version_h = (Path(__file__).resolve().parents[2] / "firmware" / "version.h").read_text()
    assert f"#define FIRMWARE_RELEASE {p.FIRMWARE}\n" in version_h


def test_a_board_from_before_the_release_in_info_is_still_read():
    old = p.BoardInfo(1, 64, 300, True, firmware=1)
    assert len(p.encode_info(old)) == 6  # the six bytes release 1 sends
    assert p.decode_info(p.encode_info(old)) == old
    assert p.decode_info(p.encode_info(p.BoardInfo(1, 64, 300, True))).firmware == p.FIRMWARE
