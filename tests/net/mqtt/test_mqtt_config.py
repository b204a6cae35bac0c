"""The [mqtt] table: defaults, and one-line errors naming the key."""

from __future__ import annotations

import subprocess
import sys

import pytest

from firmware_host.net.cafe.fleet import Fleet
from firmware_host.net.mqtt.peer import peer_token
from firmware_host.net.mqtt.untrusted import Bad
from firmware_host.store.config import MAX_BOARD_ID, Config, ConfigError, load_config, topic_name


def _load(tmp_path, text: str) -> Config:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return load_config(str(path))


def test_defaults_keep_the_board_off_the_network():
    mqtt = Config().mqtt
    assert mqtt.host is None and mqtt.port == 1883 and mqtt.discovery and not mqtt.kiosk_commands
    assert mqtt.board_id == topic_name(mqtt.board_id) != ""


def test_a_full_table_loads_with_paths_made_absolute(tmp_path):
    (tmp_path / "pw").write_text("secret\n")
    (tmp_path / "ca.pem").write_text("not checked here\n")
    mqtt = _load(
        tmp_path,
        '[mqtt]\nhost = "broker.lan"\nport = 8883\nboard = "table-7"\n'
        'username = "table-7"\npassword_file = "pw"\ntls = "ca.pem"\n',
    ).mqtt
    assert (mqtt.host, mqtt.port, mqtt.board_id) == ("broker.lan", 8883, "table-7")
    assert mqtt.password_file == str(tmp_path / "pw") and mqtt.tls == str(tmp_path / "ca.pem")


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            'board = "Table 7"',
            "[mqtt] board must use only a-z, 0-9, '-' and '_', at most 64 characters, e.g. 'table-7'",
        ),
        (f'board = "{"t" * 65}"', "[mqtt] board must use only a-z, 0-9, '-' and '_', at most 64"),
        ('board = "a/b"', "[mqtt] board must use only"),
        ("port = 0", "[mqtt] port must be between 1 and 65535"),
        ('password_file = "nowhere"\nusername = "x"', "[mqtt] password_file: cannot read"),
        ('tls = "nowhere.pem"', "[mqtt] tls: cannot read"),
        ("host = 7", "[mqtt] host must be a non-empty string"),
        ("qos = 2", "unknown key 'qos' in [mqtt]"),
    ],
)
def test_bad_values_are_one_line_naming_the_key(tmp_path, text, expected):
    (tmp_path / "pw").write_text("x\n")
    with pytest.raises(ConfigError) as error:
        _load(tmp_path, f"[mqtt]\n{text}\n")
    assert expected in str(error.value) and "\n" not in str(error.value)


def test_a_password_needs_a_user(tmp_path):
    (tmp_path / "pw").write_text("x\n")
    with pytest.raises(ConfigError, match=r"\[mqtt\] password_file needs a username"):
        _load(tmp_path, '[mqtt]\npassword_file = "pw"\n')


@pytest.mark.parametrize("board", ["#", "+", "a/b", "t2/#", "", "T2", "t" * 65])
def test_the_other_board_is_checked_as_a_board_id(tmp_path, board):
    """A wildcard would make every board the opponent (or stop the network thread)."""
    with pytest.raises(ConfigError) as error:
        _load(tmp_path, f'[mqtt]\nhost = "b"\nboard = "t1"\n[opponent]\nkind = "remote"\nboard = "{board}"\n')
    text = str(error.value)
    assert "config.toml: [opponent] board" in text and "\n" not in text


def test_a_board_cannot_play_itself_and_a_page_address_is_checked(tmp_path):
    with pytest.raises(ConfigError, match=r"\[opponent\] board is this board's own id"):
        _load(tmp_path, '[mqtt]\nhost = "b"\nboard = "t1"\n[opponent]\nkind = "remote"\nboard = "t1"\n')
    with pytest.raises(ConfigError, match=r"\[mqtt\] configuration_url must be an http"):
        _load(tmp_path, '[mqtt]\nconfiguration_url = "javascript:alert(1)"\n')
    url = "http://cafe.lan:8090/watch/t1"
    assert _load(tmp_path, f'[mqtt]\nconfiguration_url = "{url}"\n').mqtt.configuration_url == url


def test_an_id_the_config_takes_is_taken_by_the_other_board_and_the_dashboard():
    """One limit everywhere: an id of 64 characters passes the config, a paired board's token and
    the dashboard; one of 65 passes none (before: the config took ids the other board refused,
    and the pair never played)."""
    longest, longer = "t" * MAX_BOARD_ID, "t" * (MAX_BOARD_ID + 1)
    assert peer_token(f"{'0' * 20}:{longest}", now_ns=10**19) == f"{'0' * 20}:{longest}"
    with pytest.raises(Bad):
        peer_token(f"{'0' * 20}:{longer}", now_ns=10**19)
    fleet, seen = Fleet(), []
    fleet.listener = seen.append
    fleet.receive(f"reedboard/{longest}/availability", b"online")
    assert [table["id"] for table in seen] == [longest]
    with pytest.raises(Bad, match="at most 64 characters"):
        fleet.receive(f"reedboard/{longer}/availability", b"online")
    assert topic_name("Ta" * 40) == "ta" * 32


def test_a_too_long_id_stops_the_board_at_start_in_one_line(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(
        f'game = "antipalos"\nstorage = "{tmp_path / "g.db"}"\n[mqtt]\n'
        f'host = "127.0.0.1"\nboard = "t1"\n[opponent]\nkind = "remote"\n'
        f'board = "{"t" * 65}"\n'
    )
    done = subprocess.run(
        [sys.executable, "-m", "firmware_host.cli.main", "run", "--sim", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert f"{config}: [opponent] board must use only" in done.stderr
    assert "at most 64 characters" in done.stderr
