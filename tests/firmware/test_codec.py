"""The firmware's COBS and CRC code (firmware/cobs.c, crc.c), compiled for this machine, agrees
with the host's (the ``cobs`` package, ``binascii.crc_hqx``) on any bytes: encoding, decoding a
byte at a time, and packets cut short."""

from __future__ import annotations

import binascii
import shutil
import subprocess
from pathlib import Path

import pytest
from cobs import cobs
from hypothesis import given
from hypothesis import strategies as st

from testbed.firmware_emulator import FIRMWARE, missing

HERE = Path(__file__).parent
#: Long runs without zeros (COBS blocks of 254) are what matters; keep zeros rare in some.
payloads = st.one_of(
    st.binary(max_size=700),
    st.lists(st.integers(1, 255), max_size=700).map(bytes),
    st.lists(st.sampled_from([0, 1, 255]), max_size=600).map(bytes),
)


@pytest.fixture(scope="module")
def codec(tmp_path_factory):
    if "gcc" in missing() or not shutil.which("cc"):
        pytest.fail("the firmware's codec test needs a C compiler: apt-get install gcc")
    binary = tmp_path_factory.mktemp("codec") / "codec"
    subprocess.run(
        [
            "cc",
            "-std=gnu11",
            "-Wall",
            "-Werror",
            f"-I{FIRMWARE}",
            "-o",
            str(binary),
            str(HERE / "codec_main.c"),
            str(FIRMWARE / "cobs.c"),
            str(FIRMWARE / "crc.c"),
        ],
        check=True,
    )
    process = subprocess.Popen(
        [str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def ask(command: str, data: bytes) -> str:
        process.stdin.write(f"{command} {data.hex()}\n")
        process.stdin.flush()
        return process.stdout.readline().rstrip("\n")

    yield ask
    process.stdin.close()
    process.wait()


@given(payloads)
def test_encoding_is_the_hosts(codec, payload):
    assert bytes.fromhex(codec("e", payload)) == cobs.encode(payload)


@given(payloads)
def test_the_crc_is_the_hosts(codec, payload):
    assert int(codec("c", payload), 16) == binascii.crc_hqx(payload, 0xFFFF)


@given(st.lists(payloads, min_size=1, max_size=4), st.integers(0, 300))
def test_decoding_a_byte_at_a_time_finds_each_packet_and_a_cut_one_is_bad(codec, packets, cut):
    wire = b"".join(b"\0" + cobs.encode(p) + b"\0" for p in packets)
    assert codec("d", wire).split() == [f"p{p.hex()}" for p in packets]
    encoded = cobs.encode(packets[0])
    if encoded[0] > 1:  # cut inside the first block, after its code byte
        cut_short = b"\0" + encoded[: 1 + cut % (encoded[0] - 1)] + b"\0"
        assert codec("d", cut_short).split() == ["bad"]
