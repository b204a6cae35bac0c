"""`reedboard firmware flash` as a maker runs it: with avrdude missing, with no board on the
port, and with Debian's avrdude refusing a port that is no board (never a real serial port)."""

import shutil
import subprocess
import sys

import pytest

from hardware.flash import FIRMWARE, avrdude_command

REEDBOARD = [sys.executable, "-c", "import sys; from firmware_host.cli.main import main; sys.exit(main())"]
#: An Intel HEX file with nothing but its end record: avrdude fails at the port before writing.
EMPTY_HEX = ":00000001FF\n"


def reedboard(*args: str, path: str | None = None) -> subprocess.CompletedProcess:
    env = None if path is None else {"PATH": path}
    return subprocess.run([*REEDBOARD, *args], capture_output=True, text=True, env=env, timeout=60)


def test_without_avrdude_the_command_says_which_package(tmp_path):
    port = tmp_path / "ttyACM0"
    port.write_text("")
    done = reedboard("firmware", "flash", "--port", str(port), path=str(tmp_path))
    assert done.returncode == 1
    assert done.stderr == "reedboard firmware flash: avrdude is not installed: sudo apt-get install avrdude\n"


@pytest.mark.skipif(not shutil.which("avrdude"), reason="avrdude not installed (tests/run.sh)")
def test_no_board_on_the_port_says_plug_it_in(tmp_path):
    done = reedboard("firmware", "flash", "--port", str(tmp_path / "ttyACM0"))
    assert done.returncode == 1
    assert f"no board on {tmp_path}/ttyACM0: plug in its USB cable" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not shutil.which("avrdude"), reason="avrdude not installed (tests/run.sh)")
def test_avrdude_failing_gives_one_line_with_what_to_do(tmp_path):
    port, image = tmp_path / "not-a-board", tmp_path / "reedboard.hex"
    port.write_text("")  # exists, but no serial port: avrdude cannot set its speed
    image.write_text(EMPTY_HEX)
    done = reedboard("firmware", "flash", "--board", "uno", "--port", str(port), "--hex", str(image))
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith(f"reedboard firmware flash: avrdude could not flash the board on {port} (")
    assert "the bootloader stays, so a board whose flash was cut short takes it" in line


def test_without_a_port_or_config_it_asks_for_one():
    done = reedboard("firmware", "flash")
    assert done.returncode == 2
    assert "give --port" in done.stderr


def test_the_command_is_make_flashs():
    make = subprocess.run(
        ["make", "-n", "-s", "-C", "firmware", "flash", "BOARD=mega", "PORT=/dev/ttyACM0"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    ours = avrdude_command("mega", "/dev/ttyACM0", "build/mega/reedboard.hex")
    assert make[make.index("avrdude") :] == ours


@pytest.mark.skipif(
    not shutil.which("avrdude") or not shutil.which("avr-gcc"),
    reason="avrdude and the AVR toolchain not installed (tests/run.sh)",
)
def test_without_hex_it_builds_the_firmware_then_runs_avrdude(tmp_path):
    port = tmp_path / "not-a-board"
    port.write_text("")
    done = reedboard("firmware", "flash", "--board", "nano", "--port", str(port))
    assert done.returncode == 1  # built, then avrdude could not open a serial port there
    assert "avrdude could not flash the board on" in done.stderr
    assert (FIRMWARE / "build" / "uno" / "reedboard.hex").read_text().startswith(":")
