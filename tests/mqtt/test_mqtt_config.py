"""The [mqtt] table: defaults, and one-line errors naming the key."""

from __future__ import annotations

import pytest

from firmware_host.store.config import Config, ConfigError, load_config, topic_name


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
    mqtt = _load(tmp_path, '[mqtt]\nhost = "broker.lan"\nport = 8883\nboard = "table-7"\n'
                           'username = "table-7"\npassword_file = "pw"\ntls = "ca.pem"\n').mqtt
    assert (mqtt.host, mqtt.port, mqtt.board_id) == ("broker.lan", 8883, "table-7")
    assert mqtt.password_file == str(tmp_path / "pw") and mqtt.tls == str(tmp_path / "ca.pem")


@pytest.mark.parametrize("text, expected", [
    ('board = "Table 7"', "[mqtt] board must use only a-z, 0-9, '-' and '_', e.g. 'table-7'"),
    ('board = "a/b"', "[mqtt] board must use only"),
    ('port = 0', "[mqtt] port must be between 1 and 65535"),
    ('password_file = "nowhere"\nusername = "x"', "[mqtt] password_file: cannot read"),
    ('tls = "nowhere.pem"', "[mqtt] tls: cannot read"),
    ('host = 7', "[mqtt] host must be a non-empty string"),
    ('qos = 2', "unknown key 'qos' in [mqtt]"),
])
def test_bad_values_are_one_line_naming_the_key(tmp_path, text, expected):
    (tmp_path / "pw").write_text("x\n")
    with pytest.raises(ConfigError) as error:
        _load(tmp_path, f"[mqtt]\n{text}\n")
    assert expected in str(error.value) and "\n" not in str(error.value)


def test_a_password_needs_a_user(tmp_path):
    (tmp_path / "pw").write_text("x\n")
    with pytest.raises(ConfigError, match=r"\[mqtt\] password_file needs a username"):
        _load(tmp_path, '[mqtt]\npassword_file = "pw"\n')


@pytest.mark.parametrize("board", ["#", "+", "a/b", "t2/#", "", "T2"])
def test_the_other_board_is_checked_as_a_board_id(tmp_path, board):
    """A wildcard would make every board the opponent (or stop the network thread)."""
    with pytest.raises(ConfigError) as error:
        _load(tmp_path, f'[mqtt]\nhost = "b"\nboard = "t1"\n[opponent]\nkind = "remote"\n'
                        f'board = "{board}"\n')
    text = str(error.value)
    assert "config.toml: [opponent] board" in text and "\n" not in text


def test_a_board_cannot_play_itself_and_a_page_address_is_checked(tmp_path):
    with pytest.raises(ConfigError, match=r"\[opponent\] board is this board's own id"):
        _load(tmp_path, '[mqtt]\nhost = "b"\nboard = "t1"\n[opponent]\nkind = "remote"\nboard = "t1"\n')
    with pytest.raises(ConfigError, match=r"\[mqtt\] configuration_url must be an http"):
        _load(tmp_path, '[mqtt]\nconfiguration_url = "javascript:alert(1)"\n')
    url = "http://cafe.lan:8090/watch/t1"
    assert _load(tmp_path, f'[mqtt]\nconfiguration_url = "{url}"\n').mqtt.configuration_url == url
