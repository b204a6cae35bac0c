"""The daemon's configuration: a TOML file, validated in full before anything starts.

Every problem is a :class:`ConfigError` whose text is one line naming the file and the key.
"""

from __future__ import annotations

import os
import re
import socket
import sys
from dataclasses import dataclass, field, fields, replace
from typing import Annotated, Any, Iterable, Mapping, NamedTuple, get_args, get_origin, get_type_hints

from engines import GAME_NAMES, game_info, game_name, new_game
from engines.core import OptionError
from engines.core.contract import Site
from firmware_host.actions.commands import SEATS, names_problem, seat
from firmware_host.i18n import LANGUAGES
from firmware_host.store.layout import layout_for, read_layout
from firmware_host.store.timecontrol import CARRIERS, TAKEBACKS, ControlError, TimeControl
from firmware_host.store.tomlfile import ConfigError, describe, read_small_file, read_toml
from hardware.pins import gpio_pins

__all__ = ["Config", "ConfigError", "load_config", "load_config_or_exit", "read_toml"]


#: The environment variable that can hold the page's token (``ps`` shows command lines).
TOKEN_VARIABLE = "REEDBOARD_TOKEN"


def read_token(path: str | None, environ: Mapping[str, str] = os.environ) -> str | None:
    """The page's token: the first line of the file ``path`` (a regular file of at most
    4 KB), else ``$REEDBOARD_TOKEN``, else None. ConfigError for a file that cannot serve.

    >>> read_token(None, {"REEDBOARD_TOKEN": "s3cret"})
    's3cret'
    """
    if path is None:
        return environ.get(TOKEN_VARIABLE) or None
    try:
        lines = read_small_file(path, 4096).decode("utf-8").splitlines()
    except (OSError, ValueError) as e:
        raise ConfigError(f"{path}: cannot read the token ({getattr(e, 'strerror', None) or e})") from None
    token = lines[0].strip() if lines else ""
    if not token:
        raise ConfigError(f"{path}: the token file is empty")
    return token


def key_name(section: str | None, key: str) -> str:
    """How a message names a key: ``[timing] settle_ms`` or ``game`` at the top level."""
    return f"[{section}] {key}" if section else key


# ------------------------------------------------------------------------------- the schema
class Key(NamedTuple):
    """What a key's value is checked against besides its type: a number's range (``low`` to
    ``high``), or that it names a file (``path``: relative to the config file's folder).
    Written in the key's type: ``Annotated[int, Key(1, 1000)]``."""

    low: float | None = None
    high: float | None = None
    path: bool = False


#: A key that names a file.
PATH = Key(path=True)


class Timing(NamedTuple):
    """How the sensors are read and how long the board must be quiet."""

    scan_hz: Annotated[int, Key(1, 1000)] = 100
    debounce_scans: Annotated[int, Key(1, 50)] = 3
    settle_ms: Annotated[int, Key(0, 5000)] = 300
    tap_ms: Annotated[int, Key(100, 10000)] = 1500
    #: Scans per second while the board is settled and nothing happens (0: scan_hz). Only for
    #: sensors the daemon must poll (a GPIO matrix, shift registers); see docs/performance.md.
    idle_scan_hz: Annotated[int, Key(0, 1000)] = 0
    #: The settle time of a board showing exactly one legal move whose piece cannot still be on
    #: its way (docs/daemon.md); at most settle_ms.
    quick_settle_ms: Annotated[int, Key(0, 5000)] = 90
    #: The settle time of such a board when the piece was lifted from a site and set down on
    #: the one site it can land on, and of the opponent's move carried out (only its contact
    #: bounce to wait for); at most quick_settle_ms.
    landing_settle_ms: Annotated[int, Key(0, 5000)] = 40
    #: How long the players' last move may be held off the board (a correction on its way)
    #: before the board reads it as taken back.
    takeback_ms: Annotated[int, Key(0, 10000)] = 1500


class Kiosk(NamedTuple):
    """A board nobody administers (docs/config.md, docs/raspberry-pi.md)."""

    enabled: bool = False
    idle_minutes: Annotated[int, Key(1, 1440)] = 10
    #: A long MENU press offers power-off in kiosk mode too (outside kiosk mode it always does).
    power_off: bool = True
    #: A long OK press shows the computer's hint in kiosk mode too (outside it always does).
    hints: bool = False


class Web(NamedTuple):
    #: A real board's own page (the simulated board always has its page). Off: the board
    #: loads no web server (about 25 MB less memory, docs/performance.md).
    enabled: bool = True
    host: str = "127.0.0.1"
    port: Annotated[int, Key(1, 65535)] = 8080


class Mqtt(NamedTuple):
    """The café network (docs/cafe.md): the board on an MQTT broker; no ``host``, no network."""

    host: str | None = None
    port: Annotated[int, Key(1, 65535)] = 1883
    #: The board's id in topic names (default: this machine's name).
    board: str | None = None
    username: str | None = None
    password_file: Annotated[str | None, PATH] = None
    #: A CA certificate file: connect with TLS, checking the broker's certificate against it.
    tls: Annotated[str | None, PATH] = None
    #: Commands from the broker are obeyed in kiosk mode too.
    kiosk_commands: bool = False
    #: Announce the board to Home Assistant (MQTT discovery under ``homeassistant/``).
    discovery: bool = True
    #: The page Home Assistant links the board's device to (the café dashboard's /watch/<id>).
    configuration_url: str | None = None

    @property
    def board_id(self) -> str:
        """``board``, else this machine's name made fit for a topic level."""
        return self.board or topic_name(socket.gethostname())


#: The longest board id: the same limit for the config, a paired board's token and the café
#: dashboard (a longer one would pass one and fail another).
MAX_BOARD_ID = 64
#: A board id: one topic level of a-z, 0-9, '-' and '_', at most MAX_BOARD_ID characters (the
#: pattern, compiled when first used: a board off the café network never does).
BOARD_ID = rf"[a-z0-9_-]{{1,{MAX_BOARD_ID}}}"


def is_board_id(text: Any) -> bool:
    """Whether ``text`` is a board id (the one check, wherever an id is read).

    >>> is_board_id("table-7"), is_board_id("t" * 64), is_board_id("t" * 65), is_board_id("#")
    (True, True, False, False)
    """
    return isinstance(text, str) and re.fullmatch(BOARD_ID, text) is not None


def topic_name(text: str) -> str:
    """``text`` as a board id: one MQTT topic level, lower case, letters, digits, '-' and '_'
    only, at most MAX_BOARD_ID characters.

    >>> topic_name("Table 7.local")
    'table-7-local'
    """
    name = re.sub(r"[^a-z0-9_-]+", "-", text.lower()).strip("-")[:MAX_BOARD_ID]
    return name.strip("-") or "board"


class OpponentConfig(NamedTuple):
    """Who plays the other side: ``none`` (two at the table), the ``computer`` playing ``side``
    (default: the side that moves second) at ``level`` 1 (gentle) to 5, or the players at
    ``remote`` board ``board`` (its id on the café network's broker) playing ``side``.
    ``side`` is a seat, "first" or "second", or a side of the configured game (its seat)."""

    kind: str = "none"
    side: str | None = None
    level: Annotated[int, Key(1, 5)] = 1
    board: str | None = None


class ArchiveConfig(NamedTuple):
    """The café dashboard's game archive: None keeps it in SQLite in the dashboard's state
    directory; ``postgresql://user@host/db`` in PostgreSQL (docs/cafe.md)."""

    url: str | None = None


class CafeConfig(NamedTuple):
    """The café dashboard: ``timezone``, the café's IANA zone ("America/New_York") its times
    and its day are shown in (None: the system's local zone)."""

    timezone: str | None = None


class LeagueConfig(NamedTuple):
    """League nights (docs/league.md): ``tables``, the boards' ids the rounds' tables are
    played on, table 1 first."""

    tables: tuple[str, ...] = ()


class PlayersConfig(NamedTuple):
    """Who sits at the board's seats when it starts: ``names``, one per seat in the order of
    the game's sides (none: "Player 1", "Player 2" on the menu; the menu, the page and the café
    network change them)."""

    names: tuple[str, ...] = ()


class ClockConfig(NamedTuple):
    """The game clocks (docs/config.md): ``control`` in PGN's TimeControl notation ("300+3",
    "40/5400+30:1800+30", "*60"; None or "-": no clock), ``delay`` ("bronstein:5",
    "simple:5"), ``casual``: a game goes on after a flag falls (the flag shown); ``warn``: the
    LEDs warn while the running clock has fewer seconds than this left (0: no warning);
    ``takeback``: "restore" sets the clocks back with the moves, "keep" leaves them (tournament
    play); ``carry``: whose clock runs while the players carry out the computer's or the other
    board's move ("nobody", "opponent", "players")."""

    control: str | None = None
    delay: str = ""
    casual: bool = False
    warn: Annotated[float, Key(0, 3600)] = 0
    takeback: str = "restore"
    carry: str = "nobody"

    def time_control(self) -> TimeControl | None:
        """The control these name (None: no clock); ControlError when it does not read."""
        return None if self.control is None else TimeControl.parse(self.control, self.delay)


class SoundConfig(NamedTuple):
    """What the board plays and says (docs/config.md): cues on a ``buzzer`` at a GPIO pin
    (``tonal``: a passive buzzer that plays notes) and on the ``audio`` out; ``speech``: every
    move and instruction said aloud by eSpeak NG in ``voice`` at ``rate`` words a minute;
    ``low_time``: the seconds left on a clock that sound its cue."""

    buzzer: Annotated[int | None, Key(0, 27)] = None
    tonal: bool = False
    audio: bool = False
    speech: bool = False
    voice: str = ""
    rate: Annotated[int, Key(80, 450)] = 170
    low_time: Annotated[int, Key(0, 3600)] = 10


#: The kinds of opponent.
OPPONENT_KINDS = ("none", "computer", "remote")

#: The LED brightness when the config names none.
DEFAULT_BRIGHTNESS = 0.5


def _backend(**options: Any):
    return field(default_factory=lambda: {"backend": "sim", **options})


def default_storage(environ: Mapping[str, str] = os.environ) -> str:
    """Where games are saved: systemd's StateDirectory (``/var/lib/reedboard`` for the service),
    else ``$XDG_STATE_HOME/reedboard`` (``~/.local/state/reedboard``)."""
    if environ.get("STATE_DIRECTORY"):
        # systemd may pass several directories separated by ':'; the unit declares only one.
        return os.path.join(environ["STATE_DIRECTORY"].split(":")[0], "games.db")
    state = environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state")
    return os.path.join(state, "reedboard", "games.db")


@dataclass(frozen=True)
class Config:
    """Everything the daemon is told. Backend tables are plain dicts (``backend`` + options)
    handed to ``hardware.backends``; paths are absolute."""

    game: str = "antipalos"
    size: int | None = None
    variant: str | None = None
    #: The points a match goes to (0: single games); one of the game's match targets.
    match: int = 0
    takebacks: bool = True
    layout: Annotated[str | None, PATH] = None
    storage: Annotated[str, PATH] = field(default_factory=default_storage)
    #: The language of the board's words (OLED, page, dashboard): one of ``i18n.LANGUAGES``.
    language: str = "en"
    #: What the confirmed long MENU press runs (logind powers off; see docs/raspberry-pi.md).
    poweroff_command: tuple[str, ...] = ("systemctl", "poweroff")
    timing: Timing = field(default_factory=Timing)
    #: House rules by game: ``[options.anti-grid] first = "blue"`` (see ``reedboard games``).
    options: dict[str, Any] = field(default_factory=dict)
    sensors: dict[str, Any] = _backend()
    leds: dict[str, Any] = _backend(brightness=DEFAULT_BRIGHTNESS)
    display: dict[str, Any] = _backend()
    buttons: dict[str, Any] = _backend()
    kiosk: Kiosk = field(default_factory=Kiosk)
    web: Web = field(default_factory=Web)
    mqtt: Mqtt = field(default_factory=Mqtt)
    opponent: OpponentConfig = field(default_factory=OpponentConfig)
    archive: ArchiveConfig = field(default_factory=ArchiveConfig)
    cafe: CafeConfig = field(default_factory=CafeConfig)
    league: LeagueConfig = field(default_factory=LeagueConfig)
    clock: ClockConfig = field(default_factory=ClockConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    players: PlayersConfig = field(default_factory=PlayersConfig)
    #: The file this came from (None: built-in defaults).
    source: str | None = field(default=None, compare=False)

    def hardware(self, name: str) -> dict[str, Any]:
        """The options of backend table ``name`` for the hardware factory: without the keys
        the daemon itself uses (the LED brightness, which the controller applies)."""
        table = dict(getattr(self, name))
        for key in _DAEMON_OPTIONS.get(name, {}):
            table.pop(key, None)
        return table

    def option_error(self, error: Exception) -> str:
        """A hardware option's error (``scanner.mcp23017: 'addresses' must be ...``) as the
        config's: naming the file and the table (``config.toml: [sensors] mcp23017: ...``), or
        the key where the error names one (``scanner.mcp23017.addresses: ...``).

        >>> Config(source="c.toml").option_error(ValueError("scanner.mcp23017.addresses: 64"))
        'c.toml: [sensors] addresses: 64'
        """
        where, _, what = str(error).partition(": ")
        kind, _, backend = where.partition(".")
        table = {"scanner": "sensors"}.get(kind, kind)
        name = backend.partition(".")[2] or backend
        name = f" {name}" if name else ""
        return f"{self.source or 'built-in defaults'}: [{table}]{name}: {what}"

    def simulated(self) -> "Config":
        """This config on the simulated board (``reedboard run --sim``)."""
        brightness = self.leds.get("brightness", DEFAULT_BRIGHTNESS)
        return replace(
            self,
            sensors={"backend": "sim"},
            leds={"backend": "sim", "brightness": brightness},
            display={"backend": "sim"},
            buttons={"backend": "sim"},
        )


#: The tables handed to the hardware factories.
BACKEND_TABLES = ("sensors", "leds", "display", "buttons")
#: The config file the service reads when none is named.
SYSTEM_CONFIG = "/etc/reedboard/config.toml"


# ---------------------------------------------------------------------------------- loading
def load_config(path: str | None = None, learning: bool = False) -> Config:
    """Read and validate a config file; ``None`` means :data:`SYSTEM_CONFIG` when it exists,
    else the defaults (a laptop needs no file). ConfigError for any problem. ``learning``: for
    ``reedboard setup``, which writes the layout file: it need not exist yet, nor have every
    site of the game (those it lacks are what the set-up learns)."""
    if path is None:
        if not os.path.exists(SYSTEM_CONFIG):
            return _checked(Config(), "built-in defaults", learning)
        path = SYSTEM_CONFIG
    data = read_toml(path)
    values = _table(path, None, Config, data, base=os.path.dirname(os.path.abspath(path)))
    return _checked(Config(**values, source=path), path, learning)


def load_config_or_exit(path: str | None = None, command: str = "reedboard") -> Config:
    """:func:`load_config` for the CLI: a problem is printed as one line after the ``command``
    and exits with 2."""
    try:
        return load_config(path)
    except ConfigError as e:
        print(f"{command}: {e}", file=sys.stderr)
        raise SystemExit(2) from None


def table_keys(cls: type) -> dict[str, Any]:
    """The keys of config table ``cls`` (:class:`Config`'s top level or one of its sections),
    each with its type as written (``Annotated`` with its :class:`Key`, where it has one).

    >>> table_keys(Web)["port"]
    typing.Annotated[int, Key(low=1, high=65535, path=False)]
    """
    hints = get_type_hints(cls, include_extras=True)
    if is_section(cls):
        names: Iterable[str] = getattr(cls, "_fields")
    else:
        names = [f.name for f in fields(cls) if f.init and f.name != "source"]
    return {name: hints[name] for name in names}


def is_section(hint: Any) -> bool:
    """Whether ``hint`` is one of the config's sections (a table of keys, ``[web]``...)."""
    return isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields")


def _table(path: str, section: str | None, cls: type, data: Any, base: str) -> dict[str, Any]:
    """The values of one table of ``cls``'s keys, checked; defaults are left to ``cls``."""
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: [{section}] must be a table (got {describe(data)})")
    known = table_keys(cls)
    for key in data:
        if key not in known:
            where = f"in [{section}]" if section else "at the top level"
            raise ConfigError(f"{path}: unknown key {key!r} {where} (known: {', '.join(known)})")
    return {key: _value(path, section, key, known[key], value, base) for key, value in data.items()}


def _value(path: str, section: str | None, name: str, hint: Any, value: Any, base: str) -> Any:
    hint, key = get_args(hint) if get_origin(hint) is Annotated else (hint, Key())
    if is_section(hint):
        return hint(**_table(path, name, hint, value, base))
    if name in BACKEND_TABLES:
        return _backend_table(path, name, value, getattr(Config(), name), base)
    if name == "options":
        return _options_table(path, value)
    if hint == tuple[str, ...]:
        return _strings(path, key_name(section, name), value)
    kind = next(t for t in (bool, int, float, str) if t in _types(hint))
    if not _is(value, kind):
        raise ConfigError(
            f"{path}: {key_name(section, name)} must be {_KIND_NAMES[kind]} (got {describe(value)})"
        )
    low, high = key.low, key.high
    if low is not None and not low <= value <= high:
        raise ConfigError(
            f"{path}: {key_name(section, name)} must be between {low} and {high} (got {describe(value)})"
        )
    if key.path:
        return os.path.join(base, os.path.expanduser(value))
    return value


def _strings(path: str, name: str, value: Any) -> tuple[str, ...]:
    """A non-empty list of non-empty strings (a command and its arguments)."""
    if not isinstance(value, list) or not value or not all(_is(v, str) for v in value):
        raise ConfigError(
            f'{path}: {name} must be a list of non-empty strings, e.g. ["systemctl", '
            f'"poweroff"] (got {describe(value)})'
        )
    return tuple(value)


_KIND_NAMES = {
    bool: "true or false",
    int: "an integer",
    float: "a number",
    str: "a non-empty string",
}


def _types(hint: Any) -> tuple[type, ...]:
    return get_args(hint) if get_args(hint) else (hint,)


def _is(value: Any, kind: type) -> bool:
    """TOML's types as the schema means them: booleans are not numbers, ints are numbers."""
    if kind is bool or isinstance(value, bool):
        return kind is bool and isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float))
    if kind is str:
        return isinstance(value, str) and value != ""
    return isinstance(value, kind)


def _options_table(path: str, value: Any) -> dict[str, dict[str, Any]]:
    """``[options.GAME]`` tables: each game's house rules, checked by the game itself."""
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: [options] must hold one table per game (got {describe(value)})")
    tables = {}
    for game, table in value.items():
        try:
            name = game_name(game)
            if not isinstance(table, dict):
                raise OptionError(f'must be a table like {{ first = "blue" }} (got {describe(table)})')
            game_info(name).check_game_options(table)
        except OptionError as e:
            raise ConfigError(f"{path}: [options.{game}] {e}") from None
        tables[name] = dict(table)
    return tables


# -------------------------------------------------------------------------- backend tables
#: Options of a backend table that the daemon itself uses: (low, high) of a number.
_DAEMON_OPTIONS = {"leds": {"brightness": (0.0, 1.0)}}


def _wiring(path: str, value: Any, base: str) -> dict[str, tuple[int, int]]:
    """``[sensors] wiring = "FILE"`` of the simulated board: a layout file saying how that
    board is really wired (site -> sensor and LED channel), read as a layout is."""
    if not _is(value, str):
        raise ConfigError(f"{path}: [sensors] wiring must be a layout file's name (got {describe(value)})")
    file = os.path.join(base, os.path.expanduser(value))
    if not os.path.isfile(file):
        raise ConfigError(f"{path}: [sensors] wiring: there is no file {file}")
    wired = read_layout(file)
    return {site: (wired.sensor[site], wired.led[site]) for site in wired.sensor}


def _backend_table(
    path: str, name: str, value: Any, defaults: dict[str, Any], base: str = ""
) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: [{name}] must be a table (got {describe(value)})")
    table = {**defaults, **value}
    backend = table["backend"]
    if not _is(backend, str):
        raise ConfigError(f"{path}: [{name}] backend must be {_KIND_NAMES[str]} (got {describe(backend)})")
    if name == "sensors" and backend == "sim" and "wiring" in table:
        table["wiring"] = _wiring(path, table["wiring"], base)
    for key, (low, high) in _DAEMON_OPTIONS.get(name, {}).items():
        number = table[key]
        if not _is(number, float) or not low <= number <= high:
            raise ConfigError(
                f"{path}: [{name}] {key} must be a number from {low} to {high} (got {describe(number)})"
            )
    return table


# --------------------------------------------------------------------- whole-config checks
def _checked(config: Config, path: str, learning: bool = False) -> Config:
    """``config`` once the checks that span keys pass: pins, game options and the layout (a
    layout file, if there is one yet, while ``learning`` it)."""
    owners: dict[int | str, tuple[str, str | None]] = {}
    for name in BACKEND_TABLES:
        kind = "scanner" if name == "sensors" else name
        for pin, what, bus in gpio_pins(kind, getattr(config, name)):
            where = f"[{name}] {what}"
            if pin in owners and (bus is None or owners[pin][1] != bus):
                other = owners[pin][0]
                other = "another entry there" if other == where else other
                raise ConfigError(f"{path}: {where}: GPIO pin {pin} is also used by {other}")
            owners[pin] = (where, bus)
    if config.sound.buzzer is not None and config.sound.buzzer in owners:
        other = owners[config.sound.buzzer][0]
        raise ConfigError(f"{path}: [sound] buzzer: GPIO pin {config.sound.buzzer} is also used by {other}")
    if config.sound.voice and not re.fullmatch(r"[a-z]{2,3}(-[a-z0-9]+)*(\+[a-z0-9]+)?", config.sound.voice):
        raise ConfigError(
            f'{path}: [sound] voice must be an eSpeak NG voice name such as "en", "de" or "fr-fr" '
            f"(got {describe(config.sound.voice[:40])})"
        )
    if config.language not in LANGUAGES:
        raise ConfigError(
            f"{path}: language must be one of {', '.join(LANGUAGES)} (got {describe(config.language)})"
        )
    _check_mqtt(path, config.mqtt)
    url = config.archive.url
    if url is not None and not url.startswith(("postgresql://", "postgres://", "sqlite:///")):
        raise ConfigError(
            f"{path}: [archive] url must be postgresql://... or sqlite:///path (got {describe(url[:40])})"
        )
    _check_zone(path, config.cafe.timezone)
    for board in config.league.tables:
        _check_board_id(path, "[league] tables", board)
    try:
        config.clock.time_control()
    except ControlError as e:
        key = "delay" if config.clock.delay and str(e).startswith(repr(config.clock.delay)) else "control"
        raise ConfigError(f"{path}: [clock] {key}: {e}") from None
    if (why := names_problem(config.players.names)) is not None:
        raise ConfigError(f"{path}: [players] names: {why}")
    _check_choice(path, "[clock] takeback", config.clock.takeback, TAKEBACKS)
    _check_choice(path, "[clock] carry", config.clock.carry, CARRIERS)
    sites = _game_sites(path, config)
    _check_opponent(path, config)
    if config.layout is not None and learning:
        if os.path.exists(config.layout):
            read_layout(config.layout)
    elif config.layout is not None:
        if not os.path.isfile(config.layout):
            raise ConfigError(f"{path}: layout: there is no file {config.layout} (reedboard setup writes it)")
        layout_for(config.layout, sites)
    return config


def _check_choice(path: str, key: str, value: str, choices: tuple[str, ...]) -> None:
    """ConfigError naming ``key`` when ``value`` is not one of ``choices``."""
    if value not in choices:
        raise ConfigError(f"{path}: {key} must be one of {', '.join(choices)} (got {describe(value)})")


def _check_mqtt(path: str, mqtt: Mqtt) -> None:
    """The board id is one topic level; the password and CA files can be read."""
    _check_board_id(path, "[mqtt] board", mqtt.board)
    for key in ("password_file", "tls"):
        file = getattr(mqtt, key)
        if file is not None and not os.access(file, os.R_OK):
            raise ConfigError(f"{path}: [mqtt] {key}: cannot read {file}")
    if mqtt.password_file and not mqtt.username:
        raise ConfigError(f"{path}: [mqtt] password_file needs a username")
    url = mqtt.configuration_url
    if url is not None and not re.fullmatch(r"https?://[^\s/]+(/\S*)?", url):
        raise ConfigError(
            f"{path}: [mqtt] configuration_url must be an http:// or https:// address (got {describe(url)})"
        )


def _check_zone(path: str, name: str | None) -> None:
    """``[cafe] timezone`` names a zone this machine knows (its IANA name)."""
    if name is None:
        return
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # only the café's config names one

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            f"{path}: [cafe] timezone must be an IANA zone name such as "
            f'"America/New_York" (got {describe(name[:60])})'
        ) from None


def _check_board_id(path: str, key: str, board: str | None) -> None:
    """A board id is one topic level (no wildcard, no '/') of at most MAX_BOARD_ID
    characters: ConfigError naming ``key``."""
    if board is not None and not is_board_id(board):
        raise ConfigError(
            f"{path}: {key} must use only a-z, 0-9, '-' and '_', at most "
            f"{MAX_BOARD_ID} characters, e.g. {topic_name(board)!r} "
            f"(got {describe(board)})"
        )


def _game_sites(path: str, config: Config) -> tuple[Site, ...]:
    """The sites of the configured game; ConfigError naming the key for a bad game option."""
    if config.game not in GAME_NAMES:
        raise ConfigError(f"{path}: game {config.game!r} is not a game (choose from {', '.join(GAME_NAMES)})")
    try:
        info = game_info(config.game)
        for key, size in (("variant", None), ("size", config.size)):
            try:
                info.check_options(size, config.variant)
            except OptionError as e:
                raise ConfigError(f"{path}: {key}: {e}") from None
        if config.match:
            try:
                info.check_match(config.match)
            except OptionError as e:
                raise ConfigError(f"{path}: match: {e} (0: single games)") from None
        return new_game(config.game, config.size, config.variant).sites()
    except ImportError:
        raise ConfigError(f"{path}: game {config.game!r} is not installed") from None


def _check_opponent(path: str, config: Config) -> None:
    """ConfigError naming the key for an unknown kind or a side the configured game lacks."""
    kind, side = config.opponent.kind, config.opponent.side
    if kind not in OPPONENT_KINDS:
        raise ConfigError(
            f"{path}: [opponent] kind must be one of {', '.join(OPPONENT_KINDS)} (got {describe(kind)})"
        )
    if kind == "remote" and not config.opponent.board:
        raise ConfigError(f'{path}: [opponent] board must name the other board\'s id for kind = "remote"')
    _check_board_id(path, "[opponent] board", config.opponent.board)
    if kind == "remote" and config.opponent.board == config.mqtt.board_id:
        raise ConfigError(
            f"{path}: [opponent] board is this board's own id "
            f"({config.opponent.board!r}): name the other board"
        )
    if kind == "remote" and config.mqtt.host is None:
        raise ConfigError(
            f'{path}: [opponent] kind = "remote" needs [mqtt] host (the broker both boards use)'
        )
    sides = new_game(config.game, config.size, config.variant).sides
    index = None if side is None else seat(side, sides)
    if side is not None and index is None:
        raise ConfigError(
            f'{path}: [opponent] side must be "first", "second" or a side of '
            f"{config.game}: {', '.join(sides)} (got {describe(side)})"
        )
    if kind == "remote" and (index is None or index >= len(SEATS)):
        raise ConfigError(
            f"{path}: [opponent] side must say which seat board "
            f'{config.opponent.board} takes: "first" or "second" '
            f"(got {describe(side) if side else 'none'})"
        )


def opponent_side(config: Config) -> str | None:
    """The configured ``[opponent] side`` as the seat it names in the configured game
    ("first", "second"), so that it means the same seat in every game; a side past the second
    stays as named; None: none named.

    >>> opponent_side(Config(game="antipod", opponent=OpponentConfig("computer", "black")))
    'second'
    """
    side = config.opponent.side
    if side is None:
        return None
    index = seat(side, new_game(config.game, config.size, config.variant).sides)
    return SEATS[index] if index is not None and index < len(SEATS) else side
