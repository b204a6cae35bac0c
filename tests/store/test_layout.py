"""Layouts: the default numbering, the TOML file `reedboard layout` prints, and its errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engines
from engines.core.contract import Site
from firmware_host.store.config import ConfigError
from firmware_host.store.layout import (
    Layout,
    default_layout,
    layout_for,
    layout_toml,
    load_layout,
    read_layout,
)
from tests.store.toml_fuzz import VALUES, toml_table

SITES = (Site("a1", 0, 0), Site("b1", 1, 0), Site("B4*", 1, 1), Site('q"x', 2, 2))
TWO_SITES = SITES[:2]


def write(tmp_path, text: str, name: str = "layout.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def error_of(path: str, sites=SITES) -> str:
    with pytest.raises(ConfigError) as info:
        load_layout(path, sites)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{path}: ")
    return message


def test_default_layout_numbers_sites_in_engine_order():
    layout = default_layout(SITES)
    assert layout.sensor == {"a1": 0, "b1": 1, "B4*": 2, 'q"x': 3}
    assert layout.led == layout.sensor
    assert (layout.sensor_channels, layout.led_channels) == (4, 4)
    assert [layout.site_of_sensor(ch) for ch in (0, 3, 4, -1)] == ["a1", 'q"x', None, None]
    assert layout.covers(SITES) and not layout.covers(SITES + (Site("z9", 9, 9),))


def test_empty_layout_needs_no_channels():
    layout = default_layout(())
    assert (layout.sensor_channels, layout.led_channels) == (0, 0)


def test_sites_of_ignores_unused_channels():
    layout = Layout(sensor={"a1": 5, "b1": 7}, led={"a1": 0, "b1": 1})
    assert layout.sites_of({5, 6, 7, 100}) == {"a1", "b1"}
    assert layout.site_of_sensor(6) is None


def test_printed_layout_loads_back_unchanged(tmp_path):
    layout = default_layout(SITES)
    text = layout_toml(layout, "antipalos", 12, None)
    assert text.startswith("# reedboard layout for antipalos --size 12\n")
    assert load_layout(write(tmp_path, text), SITES) == layout


def test_edited_layout_keeps_its_channels(tmp_path):
    text = (
        layout_toml(default_layout(SITES), "g", None, "v")
        .replace('"a1" = { sensor = 0, led = 0 }', '"a1" = { sensor = 40, led = 9 }')
        .replace('"B4*" = { sensor = 2, led = 2 }', '"B4*" = { sensor = 2, led = 0 }')
    )
    layout = load_layout(write(tmp_path, text), SITES)
    assert layout.sensor["a1"] == 40 and layout.led["a1"] == 9 and layout.led["B4*"] == 0
    assert layout.sensor_channels == 41 and layout.site_of_sensor(40) == "a1"


def test_a_board_layout_can_serve_a_game_with_fewer_sites(tmp_path):
    path = write(tmp_path, layout_toml(default_layout(SITES), "big", None, None))
    assert read_layout(path) == default_layout(SITES)
    small = layout_for(path, TWO_SITES)
    assert small == Layout(sensor={"a1": 0, "b1": 1}, led={"a1": 0, "b1": 1})
    assert layout_for(None, TWO_SITES) == default_layout(TWO_SITES)
    assert read_layout(path).restricted(SITES[2:]).sensor == {"B4*": 2, 'q"x': 3}
    with pytest.raises(ConfigError, match='"c1" is missing'):
        layout_for(path, (Site("c1", 0, 0),))
    with pytest.raises(ConfigError, match='"B4\\*" is not a site of this game'):
        load_layout(path, TWO_SITES)


def lines(**entries: str) -> str:
    return "[sites]\n" + "".join(f'"{k}" = {v}\n' for k, v in entries.items())


GOOD = {"a1": "{ sensor = 0, led = 0 }", "b1": "{ sensor = 1, led = 1 }"}


@pytest.mark.parametrize(
    "text, expected",
    [
        (lines(**GOOD, c9="{ sensor = 2, led = 2 }"), '[sites] "c9" is not a site of this game'),
        (lines(a1=GOOD["a1"]), '[sites] "b1" is missing'),
        (
            lines(a1=GOOD["a1"], b1="{ sensor = 0, led = 1 }"),
            '[sites] "b1" sensor channel 0 is also used by "a1"',
        ),
        (
            lines(a1=GOOD["a1"], b1="{ sensor = 1, led = 0 }"),
            '[sites] "b1" led channel 0 is also used by "a1"',
        ),
        (
            lines(a1=GOOD["a1"], b1='{ sensor = "one", led = 1 }'),
            "[sites] \"b1\" sensor must be a channel number 0 or more (got 'one')",
        ),
        (
            lines(a1=GOOD["a1"], b1="{ sensor = -1, led = 1 }"),
            '[sites] "b1" sensor must be a channel number 0 or more (got -1)',
        ),
        (
            lines(a1=GOOD["a1"], b1="{ sensor = true, led = 1 }"),
            '[sites] "b1" sensor must be a channel number 0 or more (got True)',
        ),
        (lines(a1=GOOD["a1"], b1="{ sensor = 1 }"), '[sites] "b1" has no led channel'),
        (
            lines(a1=GOOD["a1"], b1="{ sensor = 1, led = 1, colour = 2 }"),
            "[sites] \"b1\" has unknown key 'colour' (only sensor and led)",
        ),
        (lines(a1=GOOD["a1"], b1="7"), '[sites] "b1" must be a table like { sensor = 0, led = 0 }'),
        ("game = 'x'\n" + lines(**GOOD), "unknown key 'game' (a layout has only [sites])"),
        ("sites = 3\n", "[sites] is missing"),
        ("", "[sites] is missing"),
        ("[sites\n", "not valid TOML (Expected ']' at the end of a table declaration"),
    ],
)
def test_bad_layout_names_file_and_site(tmp_path, text, expected):
    assert expected in error_of(write(tmp_path, text), TWO_SITES)


def test_unreadable_layout(tmp_path):
    assert "cannot read (No such file or directory)" in error_of(str(tmp_path / "none.toml"))
    assert "cannot read" in error_of(str(tmp_path))
    path = tmp_path / "latin1.toml"
    path.write_bytes(b"# caf\xe9\n")
    assert error_of(str(path)).endswith("not UTF-8 text")


@given(st.binary(max_size=300))
def test_random_bytes_never_raise_anything_but_config_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "layout.toml"
    path.write_bytes(data)
    try:
        load_layout(str(path), SITES)
    except ConfigError as e:
        assert str(e).startswith(f"{path}: ") and "\n" not in str(e)


@given(
    st.dictionaries(
        st.sampled_from([s.label for s in SITES] + ["zz", ""]),
        st.one_of(
            VALUES,
            st.fixed_dictionaries({"sensor": st.integers(-1, 5), "led": st.integers(0, 5)}),
        ),
        max_size=6,
    )
)
def test_mutated_layouts_load_or_raise_config_error(tmp_path_factory, entries):
    path = tmp_path_factory.mktemp("fuzz") / "layout.toml"
    path.write_text(toml_table("sites", entries), encoding="utf-8")
    try:
        layout = load_layout(str(path), SITES)
    except ConfigError as e:
        assert str(e).startswith(f"{path}: ") and "\n" not in str(e)
    else:
        assert set(layout.sensor) == {s.label for s in SITES}
        assert len(set(layout.sensor.values())) == len(SITES) == len(set(layout.led.values()))


@pytest.mark.parametrize("game", engines.GAME_NAMES)
def test_every_game_round_trips_its_default_layout(tmp_path, game):
    info = engines.game_info(game)
    for size in info.sizes or (None,):
        sites = engines.new_game(game, size).sites()
        layout = default_layout(sites)
        assert layout.sensor_channels == len(sites) == len(set(layout.sensor))
        text = layout_toml(layout, game, size, None)
        assert load_layout(write(tmp_path, text, f"{game}{size}.toml"), sites) == layout


def test_cli_prints_a_layout_that_loads_back(tmp_path, capsys):
    from firmware_host.cli.main import main

    game = engines.GAME_NAMES[0]
    assert main(["layout", game]) == 0
    text = capsys.readouterr().out
    info = engines.game_info(game)
    size, variant = info.check_options(None, None)
    sites = engines.new_game(game, size, variant).sites()
    assert text.startswith(f"# reedboard layout for {game}")
    assert load_layout(write(tmp_path, text), sites) == default_layout(sites)


def test_cli_bad_option_is_one_line_and_status_2(capsys):
    from firmware_host.cli.main import main

    game = engines.GAME_NAMES[0]
    assert main(["layout", game, "--variant", "nonesuch"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"reedboard layout: {game} has no variant 'nonesuch'")
    assert captured.err.count("\n") == 1


def test_a_board_layout_for_several_games_offers_them_all(tmp_path):
    from firmware_host.runtime.session import menu_choices
    from firmware_host.store.config import Config

    antipod, phalanx = engines.new_game("antipod", 4).sites(), engines.new_game("phalanx").sites()
    board = Layout(
        sensor={s.label: i for i, s in enumerate([*antipod, *phalanx])},
        led={s.label: i for i, s in enumerate([*antipod, *phalanx])},
    )
    path = tmp_path / "board.toml"
    path.write_text(layout_toml(board, "antipod", 4, None), encoding="utf-8")
    offered = {(c.game, c.size) for c in menu_choices(Config(layout=str(path)))()}
    assert offered == {("antipod", 4), ("phalanx", None)}
