"""The config file: defaults, the example, every kind of mistake, and fuzzing."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engines
from firmware_host.runtime import session
from firmware_host.store import config as config_module
from firmware_host.store.config import Config, ConfigError, default_storage, load_config, load_config_or_exit
from firmware_host.store.layout import default_layout, layout_toml
from testbed.tools import write_config
from tests.store.toml_fuzz import VALUES, toml_document

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXAMPLE = DOCS / "config.example.toml"
#: A game whose engine is in the tree and has sizes, so game options can be checked.
GAME = next(g for g in engines.GAME_NAMES if engines.game_info(g).sizes)


def write(tmp_path, text: str, name: str = "config.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def config_of(tmp_path, text: str) -> Config:
    return load_config(write(tmp_path, f'game = "{GAME}"\n' + text))


def error_of(path: str) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{path}: ")
    return message


def test_no_file_gives_the_defaults(monkeypatch, tmp_path):
    monkeypatch.setattr(config_module, "SYSTEM_CONFIG", str(tmp_path / "absent.toml"))
    monkeypatch.setattr(config_module.Config.__dataclass_fields__["game"], "default", GAME)
    assert load_config(None) == Config(game=GAME)


def test_system_config_is_read_when_present(monkeypatch, tmp_path):
    path = write(tmp_path, f'game = "{GAME}"\n[web]\nport = 9000\n')
    monkeypatch.setattr(config_module, "SYSTEM_CONFIG", path)
    config = load_config(None)
    assert config.web.port == 9000 and config.source == path


def test_defaults():
    config = Config()
    assert (config.game, config.size, config.variant, config.takebacks) == ("antipalos", None, None, True)
    assert config.timing == config_module.Timing(100, 3, 300, 1500)
    assert config.sensors == config.display == config.buttons == {"backend": "sim"}
    assert config.leds == {"backend": "sim", "brightness": 0.5}
    assert (config.kiosk.enabled, config.kiosk.idle_minutes) == (False, 10)
    assert (config.web.host, config.web.port, config.layout) == ("127.0.0.1", 8080, None)


def test_example_config_loads_with_the_documented_values():
    config = load_config(str(EXAMPLE))
    assert (config.game, config.size) == ("antipalos", 12)
    assert config.timing == Config().timing and config.leds["brightness"] == 0.5


def test_docs_name_every_key_with_its_default():
    text = (DOCS / "config.md").read_text(encoding="utf-8")
    sections = {
        "timing": config_module.Timing,
        "kiosk": config_module.Kiosk,
        "web": config_module.Web,
        "mqtt": config_module.Mqtt,
        "opponent": config_module.OpponentConfig,
        "archive": config_module.ArchiveConfig,
        "cafe": config_module.CafeConfig,
        "league": config_module.LeagueConfig,
        "clock": config_module.ClockConfig,
        "sound": config_module.SoundConfig,
        "players": config_module.PlayersConfig,
    }
    tables = set(sections) | set(config_module.BACKEND_TABLES) | {"source"}
    for name in tables - {"source"}:
        assert f"## [{name}]" in text or f"[{name}]," in text or f"[{name}]\n" in text, name
    for cls in [Config, *sections.values()]:
        for key in config_module.table_keys(cls):
            if key not in tables:
                assert f"| `{key}` | " in text, key


def test_storage_default_follows_systemd_then_xdg():
    assert default_storage({"STATE_DIRECTORY": "/var/lib/reedboard"}) == "/var/lib/reedboard/games.db"
    assert default_storage({"XDG_STATE_HOME": "/x/state"}) == "/x/state/reedboard/games.db"
    assert default_storage({}) == os.path.expanduser("~/.local/state/reedboard/games.db")


def test_relative_paths_are_relative_to_the_config_file(tmp_path):
    sites = engines.new_game(GAME).sites()
    write(tmp_path, layout_toml(default_layout(sites), GAME, None, None), "layout.toml")
    config = config_of(tmp_path, 'layout = "layout.toml"\nstorage = "games/games.db"\n')
    assert config.layout == str(tmp_path / "layout.toml")
    assert config.storage == str(tmp_path / "games" / "games.db")
    home = config_of(tmp_path, 'storage = "~/g.db"\n')
    assert home.storage == os.path.expanduser("~/g.db")


def test_backend_options_pass_through_and_merge_with_defaults(tmp_path):
    serial = '[sensors]\nbackend = "serial"\nport = "/dev/ttyACM0"\n'
    config = config_of(tmp_path, "[leds]\nbrightness = 1\n" + serial)
    assert config.leds == {"backend": "sim", "brightness": 1}
    assert config.sensors == {"backend": "serial", "port": "/dev/ttyACM0"}


def test_simulated_replaces_every_backend_and_keeps_brightness(tmp_path):
    leds = '[leds]\nbackend = "ws2812"\nbrightness = 0.2\ncount = 9\n'
    config = config_of(tmp_path, leds + BUTTONS.format(ok=5))
    sim = config.simulated()
    assert sim.leds == {"backend": "sim", "brightness": 0.2} and sim.buttons == {"backend": "sim"}
    assert sim.game == config.game and sim.timing == config.timing


MATRIX = '[sensors]\nbackend = "gpio-matrix"\nrows = [5, 6]\ncolumns = [13, 19]\n'
BUTTONS = '[buttons]\nbackend = "gpio"\nok = {ok}\nback = 20\nmenu = 21\n'


def test_pins_are_told_apart_and_counts_are_not_pins(tmp_path):
    config = config_of(tmp_path, MATRIX + BUTTONS.format(ok=26))
    assert config.buttons == {"backend": "gpio", "ok": 26, "back": 20, "menu": 21}
    sim = config_of(tmp_path, "[sensors]\ncolumns = 20\nchannels = 64\n" + BUTTONS.format(ok=26))
    assert sim.sensors["columns"] == 20


def test_hardware_options_leave_out_what_the_daemon_uses(tmp_path):
    config = config_of(tmp_path, '[leds]\nbackend = "ws2812"\ncount = 64\nbrightness = 0.25\n')
    assert config.hardware("leds") == {"backend": "ws2812", "count": 64}
    assert config.leds["brightness"] == 0.25 and config.hardware("display") == {"backend": "sim"}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("colour = 1\n", "unknown key 'colour' at the top level (known: game, size, variant,"),
        ("[timing]\nfast = 1\n", "unknown key 'fast' in [timing] (known: scan_hz,"),
        ("[gpio]\nx = 1\n", "unknown key 'gpio' at the top level"),
        ('[timing]\nsettle_ms = "fast"\n', "[timing] settle_ms must be an integer (got 'fast')"),
        ("[timing]\nsettle_ms = 2.5\n", "[timing] settle_ms must be an integer (got 2.5)"),
        ("[timing]\nscan_hz = true\n", "[timing] scan_hz must be an integer (got True)"),
        ("[timing]\nscan_hz = 0\n", "[timing] scan_hz must be between 1 and 1000 (got 0)"),
        ("[timing]\ndebounce_scans = 99\n", "[timing] debounce_scans must be between 1 and 50"),
        ("timing = 3\n", "[timing] must be a table (got 3)"),
        ("takebacks = 1\n", "takebacks must be true or false (got 1)"),
        ("[kiosk]\nenabled = 'yes'\n", "[kiosk] enabled must be true or false (got 'yes')"),
        ("[web]\nport = 70000\n", "[web] port must be between 1 and 65535 (got 70000)"),
        ('[web]\nhost = ""\n', "[web] host must be a non-empty string (got '')"),
        ('storage = ""\n', "storage must be a non-empty string (got '')"),
        ("[leds]\nbrightness = 1.5\n", "[leds] brightness must be a number from 0.0 to 1.0 (got 1.5)"),
        ("[leds]\nbrightness = nan\n", "[leds] brightness must be a number from 0.0 to 1.0 (got nan)"),
        ("[leds]\nbrightness = 'dim'\n", "[leds] brightness must be a number from 0.0 to 1.0"),
        ("[display]\nbackend = 3\n", "[display] backend must be a non-empty string (got 3)"),
        ("sensors = 'gpio'\n", "[sensors] must be a table (got 'gpio')"),
        (MATRIX + BUTTONS.format(ok=6), "[buttons] ok: GPIO pin 6 is also used by [sensors] rows"),
        (
            MATRIX + BUTTONS.format(ok='"GPIO13"'),
            "[buttons] ok: GPIO pin 13 is also used by [sensors] columns",
        ),
        (
            '[sensors]\nbackend = "gpio-matrix"\nrows = [5, 6, 5]\ncolumns = [7]\n',
            "[sensors] rows: GPIO pin 5 is also used by another entry there",
        ),
        (
            '[sensors]\nbackend = "gpio-matrix"\nrows = ["BCM4"]\ncolumns = ["gpio4"]\n',
            "[sensors] columns: GPIO pin 4 is also used by [sensors] rows",
        ),
        (
            BUTTONS.format(ok='"J8:11"').replace("back = 20", 'back = "j8:11"'),
            "[buttons] back: GPIO pin J8:11 is also used by [buttons] ok",
        ),
        ('variant = "nonesuch"\n', "variant: "),
        ("size = 1\n", "size: "),
        ("size = 'big'\n", "size must be an integer (got 'big')"),
        ('layout = "missing.toml"\n', "layout: there is no file "),
        ("[timing\n", "not valid TOML ("),
        (
            '[opponent]\nkind = "robot"\n',
            "[opponent] kind must be one of none, computer, remote (got 'robot')",
        ),
        ('[opponent]\nkind = "remote"\n', "[opponent] board must name the other board's id"),
        ('[opponent]\nkind = "remote"\nboard = "t2"\n', '[opponent] kind = "remote" needs [mqtt] host'),
        ("[opponent]\nlevel = 6\n", "[opponent] level must be between 1 and 5 (got 6)"),
        ('[opponent]\nside = "purple"\n', f'[opponent] side must be "first", "second" or a side of {GAME}: '),
        ("[opponent]\nside = 2\n", "[opponent] side must be a non-empty string (got 2)"),
        ('[clock]\ncontrol = "5 minutes"\n', "[clock] control: '5 minutes' is no time control: e.g. 300+3"),
        ('[clock]\ncontrol = "300"\ndelay = "fischer:2"\n', "[clock] delay: 'fischer:2' is no delay"),
        ("[clock]\ncasual = 1\n", "[clock] casual must be true or false (got 1)"),
        ('[clock]\ntakeback = "undo"\n', "[clock] takeback must be one of restore, keep (got 'undo')"),
        ('[clock]\ncarry = "me"\n', "[clock] carry must be one of nobody, opponent, players (got 'me')"),
    ],
)
def test_mistakes_are_one_line_naming_file_and_key(tmp_path, text, expected):
    path = write(tmp_path, f'game = "{GAME}"\n' + text)
    assert expected in error_of(path)


def test_no_clock_section_is_no_clock_and_a_control_reads_as_pgn(tmp_path):
    assert config_of(tmp_path, "").clock.time_control() is None
    clock = config_of(
        tmp_path, '[clock]\ncontrol = "40/5400+30:1800+30"\ndelay = "bronstein:5"\ncasual = true\n'
    ).clock
    control = clock.time_control()
    assert control is not None and control.text == "40/5400+30:1800+30" and clock.casual
    assert [(s.moves, s.seconds, s.increment) for s in control.stages] == [(40, 5400, 30), (None, 1800, 30)]


def test_the_computer_opponent(tmp_path):
    side = engines.new_game(GAME).sides[0]
    config = config_of(tmp_path, f'[opponent]\nkind = "computer"\nside = "{side}"\nlevel = 3\n')
    assert config.opponent == config_module.OpponentConfig("computer", side, 3)
    assert Config().opponent == config_module.OpponentConfig("none", None, 1)


PAIRED = '[mqtt]\nhost = "broker.example"\nboard = "home"\n[opponent]\nkind = "remote"\nboard = "friend"\n'


@pytest.mark.parametrize(
    "game, side, seat",
    [
        ("antipalos", "second", "second"),
        ("phalanx", "first", "first"),
        ("antipalos", "black", "second"),
        ("anti-grid", "red", "first"),
    ],
)
def test_a_paired_board_names_the_other_boards_seat_once_for_every_game(tmp_path, game, side, seat):
    """The other board's seat, as a seat word or as a colour of the configured game: the same
    seat in every game (a colour another game lacks, or has in another seat, is not read again)."""
    config = load_config(write(tmp_path, f'game = "{game}"\n{PAIRED}side = "{side}"\n'))
    assert config_module.opponent_side(config) == seat


NOT_A_SEAT = '[opponent] side must be "first", "second" or a side of '


@pytest.mark.parametrize(
    "game, side, expected",
    [
        (
            "antipalos",
            None,
            '[opponent] side must say which seat board friend takes: "first" or "second" (got none)',
        ),
        ("antipalos", "red", NOT_A_SEAT + "antipalos: white, black (got 'red')"),
        ("phalanx", "black", NOT_A_SEAT + "phalanx: green, red (got 'black')"),
    ],
)
def test_a_paired_boards_side_naming_no_seat_is_said_in_one_line(tmp_path, game, side, expected):
    path = write(tmp_path, f'game = "{game}"\n{PAIRED}' + (f'side = "{side}"\n' if side else ""))
    message = error_of(path)
    assert message == f"{path}: {expected}"


def test_the_computer_takes_a_seat_too(tmp_path):
    """``side = "first"``: the computer moves first in every game, whatever its colours."""
    config = config_of(tmp_path, '[opponent]\nkind = "computer"\nside = "first"\n')
    computer = session.configured_computer(config, sync=True)
    assert computer is not None
    assert [computer.side_in(engines.new_game(g)) for g in ("antipod", "phalanx", "anti-grid")] == [
        "white",
        "green",
        "red",
    ]


def test_unknown_game(tmp_path):
    message = error_of(write(tmp_path, 'game = "chess"\n'))
    assert message.endswith("game 'chess' is not a game (choose from " + ", ".join(engines.GAME_NAMES) + ")")


def test_layout_that_misses_a_site_names_the_layout_file(tmp_path):
    sites = engines.new_game(GAME).sites()
    text = layout_toml(default_layout(sites[1:]), GAME, None, None)
    layout = write(tmp_path, text, "layout.toml")
    with pytest.raises(ConfigError) as info:
        config_of(tmp_path, 'layout = "layout.toml"\n')
    assert str(info.value) == f'{layout}: [sites] "{sites[0].label}" is missing'


def test_cli_helper_prints_one_line_and_exits_2(tmp_path, capsys):
    path = write(tmp_path, "[web]\nport = 0\n")
    with pytest.raises(SystemExit) as info:
        load_config_or_exit(path)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err == f"reedboard: {path}: [web] port must be between 1 and 65535 (got 0)\n"


@given(st.binary(max_size=400))
def test_random_bytes_never_raise_anything_but_config_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "config.toml"
    path.write_bytes(data)
    try:
        load_config(str(path))
    except ConfigError as e:
        assert str(e).startswith(f"{path}: ") and "\n" not in str(e)


def _mutations():
    example = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    example["game"] = GAME
    del example["size"]
    keys = [(k,) for k in example]
    keys += [(k, sub) for k, v in example.items() if isinstance(v, dict) for sub in v]
    return example, st.lists(
        st.tuples(st.sampled_from(keys + [("extra",), ("timing", "extra")]), st.one_of(VALUES, st.none())),
        max_size=4,
    )


EXAMPLE_DATA, MUTATIONS = _mutations()


@given(MUTATIONS)
def test_mutated_configs_load_or_raise_config_error(tmp_path_factory, mutations):
    data = {k: dict(v) if isinstance(v, dict) else v for k, v in EXAMPLE_DATA.items()}
    for key, value in mutations:
        table = data if len(key) == 1 else data.setdefault(key[0], {})
        if not isinstance(table, dict):
            continue
        if value is None:
            table.pop(key[-1], None)
        else:
            table[key[-1]] = value
    path = tmp_path_factory.mktemp("fuzz") / "config.toml"
    path.write_text(toml_document(data), encoding="utf-8")
    try:
        config = load_config(str(path))
    except ConfigError as e:
        assert str(e).startswith(f"{path}: ") and "\n" not in str(e)
    else:
        assert isinstance(config.timing.scan_hz, int) and 1 <= config.timing.scan_hz <= 1000


def test_config_examples_in_the_docs_load(tmp_path):
    text = (DOCS / "config.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```toml\n")[1:]]
    configs = [b for b in blocks if "[sites]" not in b]
    assert len(configs) >= 2
    sites = engines.new_game("antipalos", 12).sites()
    write(tmp_path, layout_toml(default_layout(sites), "antipalos", 12, None), "layout.toml")
    for block in configs:
        load_config(write(tmp_path, block))


SHIFT = '[sensors]\nbackend = "74hc165"\nregisters = 100\nlatch = 25\n'


@pytest.mark.parametrize(
    "text, expected",
    [
        (SHIFT + BUTTONS.format(ok=8), "[buttons] ok: GPIO pin 8 is also used by [sensors] SPI0 CE0"),
        (
            '[leds]\nbackend = "ws2812"\ncount = 64\n' + BUTTONS.format(ok=18),
            "[buttons] ok: GPIO pin 18 is also used by [leds] WS2812 data (PWM0)",
        ),
        (
            '[display]\nbackend = "ssd1306"\n' + BUTTONS.format(ok='"GPIO3"'),
            "[buttons] ok: GPIO pin 3 is also used by [display] I2C1 SCL",
        ),
        (
            SHIFT + '[leds]\nbackend = "max7219"\n',
            "[leds] SPI0 CE0: GPIO pin 8 is also used by [sensors] SPI0 CE0",
        ),
    ],
)
def test_pins_taken_by_buses_count_too(tmp_path, text, expected):
    assert expected in error_of(write(tmp_path, text))


def test_devices_on_one_bus_share_its_lines(tmp_path):
    both = SHIFT + '[leds]\nbackend = "max7219"\nspi_device = 1\n'
    config = config_of(tmp_path, both + '[display]\nbackend = "sh1106"\n' + BUTTONS.format(ok=26))
    assert config.leds["spi_device"] == 1 and config.sensors["latch"] == 25


def test_house_rules_are_options_per_game(tmp_path):
    config = load_config(
        write(
            tmp_path,
            'game = "anti-grid"\n[options.anti-grid]\nfirst = "blue"\n'
            "trapped = false\n[options.Antipalos]\nsupply = 4\n",
        )
    )
    assert config.options == {"anti-grid": {"first": "blue", "trapped": False}, "antipalos": {"supply": 4}}


@pytest.mark.parametrize(
    "text, message",
    [
        (
            '[options.anti-grid]\nfirst = "green"\n',
            "[options.anti-grid] option first is one of red, blue, not 'green'",
        ),
        (
            '[options.anti-grid]\nfrist = "blue"\n',
            "[options.anti-grid] no option 'frist' (options: first, trapped)",
        ),
        (
            '[options.antigrid]\nfirst = "blue"\n',
            "[options.antigrid] unknown game 'antigrid': did you mean anti-grid?",
        ),
        ("[options]\nanti-grid = 3\n", "[options.anti-grid] must be a table like"),
    ],
)
def test_bad_house_rules_name_the_table(tmp_path, text, message):
    assert message in error_of(write(tmp_path, text))


def test_the_configured_house_rules_reach_every_new_game(tmp_path):
    from firmware_host.actions.commands import NewGame
    from firmware_host.runtime.session import configured_game, open_controller
    from firmware_host.store.storage import Storage

    config = load_config(
        write(
            tmp_path,
            f'game = "anti-grid"\nstorage = "{tmp_path / "g.db"}"\n[options.anti-grid]\nfirst = "blue"\n',
        )
    )
    storage = Storage(config.storage)
    controller = open_controller(config, storage, configured_game(config))
    assert controller.state.to_move == "blue"
    controller.command(NewGame("anti-grid", 8, "plain", 0))  # the menu's or the page's choice
    assert controller.state.to_move == "blue" and controller.game.size == 8
    storage.close()
    resumed = open_controller(config, Storage(config.storage), configured_game(config))
    assert resumed.state.to_move == "blue" and resumed.game.size == 8


def test_the_sound_table_is_read_and_a_bad_value_named(tmp_path):
    good = write_config(tmp_path, '[sound]\nbuzzer = 12\nspeech = true\nvoice = "fr-fr"', web=False)
    sound = load_config(str(good)).sound
    assert (sound.buzzer, sound.speech, sound.voice, sound.audio) == (12, True, "fr-fr", False)
    for body, said in [
        ('[sound]\nvoice = "--help"', "[sound] voice must be an eSpeak NG voice name"),
        ("[sound]\nrate = 9000", "[sound] rate must be between 80 and 450"),
        ('[sound]\nspeech = "yes"', "[sound] speech must be true or false"),
        (
            '[buttons]\nbackend = "gpio"\nok = 12\nback = 13\nmenu = 14\n[sound]\nbuzzer = 12',
            "[sound] buzzer: GPIO pin 12",
        ),
    ]:
        with pytest.raises(ConfigError) as info:
            load_config(str(write_config(tmp_path, body, web=False)))
        assert said in str(info.value) and "config.toml" in str(info.value)


def test_language_is_read_and_a_language_the_board_lacks_is_named(tmp_path):
    assert load_config(write(tmp_path, 'language = "de"\n')).language == "de"
    assert Config().language == "en"
    with pytest.raises(ConfigError) as e:
        load_config(write(tmp_path, 'language = "xx"\n'))
    assert str(e.value).endswith("config.toml: language must be one of en, de, fr (got 'xx')")
