"""`reedboard doctor` on the simulated board, on a simulated microcontroller over a real pty,
and against devices that are missing."""

import os

import pytest

from firmware_host.cli.main import main
from hardware.mcu_sim import SimMcu
from hardware.sim import SimBoard
from testbed.tools import write_config


def config_of(tmp_path, body: str) -> str:
    """``body`` with the games file in a folder of its own, not made yet."""
    return str(write_config(tmp_path, body, storage="state/games.db", web=False))


def test_simulated_board_passes(tmp_path, capsys):
    assert main(["doctor", "--config", config_of(tmp_path, "")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["OK"] * 6
    assert any("storage" in line and "writable" in line for line in lines)
    assert (tmp_path / "state").is_dir()


def test_missing_devices_fail_with_a_fix(tmp_path, capsys):
    config = config_of(
        tmp_path,
        """
[sensors]
backend = "serial"
port = "/dev/ttyREEDBOARD-missing"
channels = 288

[display]
backend = "ssd1306"
port = 97
address = 0x3C
""",
    )
    assert main(["doctor", "--config", config]) == 1
    out = capsys.readouterr().out
    assert "FAIL  sensors port: /dev/ttyREEDBOARD-missing does not exist -> plug in" in out
    assert "FAIL  display: /dev/i2c-97 does not exist -> enable I2C" in out
    assert "Traceback" not in out


def test_unwritable_storage_fails(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    config = tmp_path / "config.toml"
    config.write_text(f'storage = "{blocker}/games.db"\n')
    assert main(["doctor", "--config", str(config)]) == 1
    assert "FAIL  storage: cannot write" in capsys.readouterr().out


@pytest.fixture
def mcu(tmp_path):
    board = SimBoard(channels=16)
    board.place(3)
    device = SimMcu(board, str(tmp_path / "ttyBOARD"), heartbeat=0.2)
    yield device
    device.close()


@pytest.mark.parametrize(
    "channels, status, said",
    [
        (16, 0, "OK    sensors: board on {path} answered"),
        (20, 1, "board reports 16 sensor channels, config says 20"),  # as `run` would refuse it
    ],
)
def test_serial_board_handshake_over_a_pty(tmp_path, capsys, mcu, channels, status, said):
    config = config_of(
        tmp_path,
        f"""
[sensors]
backend = "serial"
port = "{mcu.path}"
channels = {channels}
""",
    )
    assert os.path.exists(mcu.path)
    assert main(["doctor", "--config", config]) == status
    assert said.format(path=mcu.path) in capsys.readouterr().out


@pytest.mark.parametrize(
    "release, said",
    [
        (2, "OK    sensors firmware: firmware 2, serial protocol v1, as this host's"),
        (
            1,
            "FAIL  sensors firmware: the board runs firmware 1, this host ships 2 "
            "-> reedboard firmware flash --port {path}",
        ),  # a board from before INFO said it
    ],
)
def test_doctor_compares_the_boards_firmware_with_the_hosts(tmp_path, capsys, release, said):
    device = SimMcu(SimBoard(channels=16), str(tmp_path / "ttyBOARD"), heartbeat=0.2, firmware=release)
    try:
        config = write_config(
            tmp_path,
            f"""
[sensors]
backend = "serial"
port = "{device.path}"
channels = 16
""",
        )
        assert main(["doctor", "--config", str(config)]) == (release != 2)
        assert said.format(path=device.path) in capsys.readouterr().out.splitlines()
    finally:
        device.close()


def test_silent_serial_port_fails(tmp_path, capsys):
    master, slave = os.openpty()
    try:
        config = config_of(
            tmp_path,
            f"""
[sensors]
backend = "serial"
port = "{os.ttyname(slave)}"
channels = 16
""",
        )
        assert main(["doctor", "--config", config]) == 1
        out = capsys.readouterr().out
        assert "no handshake from the board" in out
        assert "firmware missing or interrupted: run reedboard firmware flash" in out
    finally:
        os.close(master)
        os.close(slave)


def test_a_file_that_is_no_database_fails_with_its_fix(tmp_path, capsys):
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "games.db").write_bytes(b"not sqlite " * 400)
    assert main(["doctor", "--config", config_of(tmp_path, "")]) == 1
    out = capsys.readouterr().out
    assert "FAIL  storage:" in out and "file is not a database" in out and "move " in out
