"""Which sensor channel and which LED channel each site of a game uses.

The default layout numbers the sites in the order the engine lists them (``state.sites()``, a
stable order) and gives each site the same sensor and LED channel. A board built in that order
needs no layout file; any other wiring (a serpentine LED strip, a rotated matrix) is a layout
file, best started from ``reedboard layout GAME`` and edited::

    [sites]
    "a1" = { sensor = 0, led = 0 }
    "b1" = { sensor = 1, led = 7 }

>>> from engines.core.contract import Site
>>> layout = default_layout([Site("a1", 0, 0), Site("b1", 1, 0)])
>>> layout.site_of_sensor(1), layout.sensor_channels, layout.led["a1"]
('b1', 2, 0)
>>> sorted(layout.sites_of({0, 1, 9}))
['a1', 'b1']
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import engines
from engines.core.contract import Site
from firmware_host.store.tomlfile import ConfigError, describe, read_toml

#: The channel kinds a site has, in the order a layout file lists them.
KINDS = ("sensor", "led")


@dataclass(frozen=True)
class Layout:
    """Site label -> sensor channel and site label -> LED channel."""

    sensor: dict[str, int]
    led: dict[str, int]
    _by_sensor: dict[int, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_sensor", {ch: site for site, ch in self.sensor.items()})

    def site_of_sensor(self, channel: int) -> str | None:
        """The site read by a sensor channel, or None for an unused channel."""
        return self._by_sensor.get(channel)

    def sites_of(self, channels: Iterable[int]) -> frozenset[str]:
        """The sites read by these sensor channels (unused channels are left out)."""
        by_sensor = self._by_sensor
        return frozenset(by_sensor[ch] for ch in channels if ch in by_sensor)

    @property
    def sensor_channels(self) -> int:
        """How many sensor channels the board needs (highest used + 1)."""
        return max(self.sensor.values(), default=-1) + 1

    @property
    def led_channels(self) -> int:
        """How many LED channels the board needs (highest used + 1)."""
        return max(self.led.values(), default=-1) + 1

    def covers(self, sites: Iterable[Site]) -> bool:
        """True when every one of ``sites`` has a channel in this layout."""
        return all(s.label in self.sensor for s in sites)

    def restricted(self, sites: Iterable[Site]) -> "Layout":
        """The part of this layout for ``sites`` (all covered), in their order."""
        labels = [s.label for s in sites]
        return Layout(
            {label: self.sensor[label] for label in labels},
            {label: self.led[label] for label in labels},
        )


def default_layout(sites: Sequence[Site]) -> Layout:
    """Sensor channel = LED channel = the site's index in the engine's order."""
    channels = {site.label: i for i, site in enumerate(sites)}
    return Layout(sensor=dict(channels), led=dict(channels))


def load_layout(path: str, sites: Sequence[Site]) -> Layout:
    """The layout of exactly ``sites`` from a layout file; ConfigError naming the file and the
    site for an unknown or missing site, a channel used twice or a value of the wrong type."""
    layout = read_layout(path)
    labels = {s.label for s in sites}
    for label in layout.sensor:
        if label not in labels:
            raise ConfigError(f"{path}: [sites] {_quote(label)} is not a site of this game")
    return game_layout(path, layout, sites)


def read_layout(path: str) -> Layout:
    """Every site a layout file lists, whatever the game (a board may serve several games)."""
    data = read_toml(path)
    unknown = sorted(set(data) - {"sites"})
    if unknown:
        raise ConfigError(f"{path}: unknown key {unknown[0]!r} (a layout has only [sites])")
    table = data.get("sites")
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [sites] is missing (one line per site: sensor and led)")
    channels: dict[str, dict[str, int]] = {kind: {} for kind in KINDS}
    owners: dict[str, dict[int, str]] = {kind: {} for kind in KINDS}
    for label, entry in table.items():
        for kind, channel in _site_channels(path, label, entry).items():
            other = owners[kind].setdefault(channel, label)
            if other != label:
                raise ConfigError(
                    f"{path}: [sites] {_quote(label)} {kind} channel {channel} "
                    f"is also used by {_quote(other)}"
                )
            channels[kind][label] = channel
    return Layout(sensor=channels["sensor"], led=channels["led"])


def game_layout(path: str, layout: Layout, sites: Sequence[Site]) -> Layout:
    """The part of a board's ``layout`` (read from ``path``) that ``sites`` use; ConfigError
    when it misses one."""
    missing = [s.label for s in sites if s.label not in layout.sensor]
    if missing:
        raise ConfigError(f"{path}: [sites] {_quote(missing[0])} is missing")
    return layout.restricted(sites)


def layout_for(path: str | None, sites: Sequence[Site]) -> Layout:
    """The layout a game uses on this board: the default one without a file, else the file's
    channels of ``sites`` (the file may list more sites, for other games)."""
    return default_layout(sites) if path is None else game_layout(path, read_layout(path), sites)


def _site_channels(path: str, label: str, entry: Any) -> dict[str, int]:
    where = f"{path}: [sites] {_quote(label)}"
    if not isinstance(entry, dict):
        raise ConfigError(f"{where} must be a table like {{ sensor = 0, led = 0 }}")
    extra = sorted(set(entry) - set(KINDS))
    if extra:
        raise ConfigError(f"{where} has unknown key {extra[0]!r} (only sensor and led)")
    out = {}
    for kind in KINDS:
        value = entry.get(kind)
        if value is None:
            raise ConfigError(f"{where} has no {kind} channel")
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ConfigError(f"{where} {kind} must be a channel number 0 or more (got {describe(value)})")
        out[kind] = value
    return out


def layout_toml(layout: Layout, game: str, size: int | None, variant: str | None) -> str:
    """The layout as a TOML file to edit, headed by comments saying what it is for."""
    options = " ".join(f"--{name} {value}" for name, value in (("size", size), ("variant", variant)) if value)
    lines = [
        f"# reedboard layout for {' '.join(filter(None, (game, options)))}",
        "# One line per site: the sensor channel that reads it and the LED channel that lights it.",
        "# Channels count from 0; no two sites may share a sensor or an LED channel.",
        "",
        "[sites]",
    ]
    for label, sensor in layout.sensor.items():
        lines.append(f"{_quote(label)} = {{ sensor = {sensor}, led = {layout.led[label]} }}")
    return "\n".join(lines) + "\n"


def default_layout_toml(game: str, size: int | None, variant: str | None) -> str:
    """What ``reedboard layout GAME`` prints; OptionError for an unknown game, size or variant."""
    size, variant = engines.game_info(game).check_options(size, variant)
    sites = engines.new_game(game, size, variant).sites()
    return layout_toml(default_layout(sites), game, size, variant)


def _quote(label: str) -> str:
    """A site label as a TOML key (a basic string: JSON's escapes are TOML's, except DEL)."""
    return json.dumps(label, ensure_ascii=False).replace("\x7f", "\\u007f")
