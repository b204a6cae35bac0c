"""Putting a controller together from a config: the game, its layout, the saved game to resume."""

from __future__ import annotations

from typing import Callable

from engines.core import GameState, IllegalMove, OptionError
from firmware_host.config import Config, ConfigError
from firmware_host.controller import Controller, Game
from firmware_host.layout import Layout, default_layout, load_layout
from firmware_host.storage import Storage


def layouts_for(config: Config) -> Callable[[GameState], Layout]:
    """The layout of a game's sites: the config's layout file, else the default numbering."""

    def layout(state: GameState) -> Layout:
        if config.layout:
            return load_layout(config.layout, state.sites())
        return default_layout(state.sites())

    return layout


def configured_game(
    config: Config, name: str | None = None, size: int | None = None, variant: str | None = None
) -> Game:
    """The game named on the command line (else the config's), defaults filled in."""
    if name is None:
        name, size, variant = config.game, size or config.size, variant or config.variant
    return Game.of(name, size, variant)


def open_controller(config: Config, storage: Storage, game: Game) -> Controller:
    """A controller on the unfinished game in ``storage`` if it can still be played and laid
    out, else on a new ``game`` (the unplayable one is closed as abandoned)."""
    options = dict(takebacks=config.takebacks, brightness=config.leds.get("brightness", 1.0))
    layouts = layouts_for(config)
    record = storage.unfinished()
    if record is not None:
        saved = Game(record.game, record.size, record.variant)
        try:
            return Controller(
                saved, layouts, config.timing, storage, resume=(record.id, record.moves), **options
            )
        except (IllegalMove, OptionError, ConfigError, ImportError):
            storage.finish(record.id, "abandoned")
    return Controller(game, layouts, config.timing, storage, **options)
