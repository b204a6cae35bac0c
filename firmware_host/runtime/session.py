"""Putting a controller together from a config: the game, its layout, the saved game to resume."""

from __future__ import annotations

import sys
from typing import Callable

from engines import game_info
from engines.core import GameState, IllegalMove, OptionError, Outcome, Result
from firmware_host.board.controller import Controller
from firmware_host.board.game import Game
from firmware_host.board.matchplay import OngoingMatch
from firmware_host.board.opponent import Computer, Hints
from firmware_host.board.playable import Playable
from firmware_host.board.settings import Opponents
from firmware_host.i18n import use as speak
from firmware_host.store.config import Config, ConfigError, opponent_side
from firmware_host.store.layout import Layout, default_layout, game_layout, read_layout
from firmware_host.store.storage import Storage, StorageError, StoredGame
from firmware_host.ui.kiosk import Idle
from firmware_host.ui.menu import GameChoice, Menu
from firmware_host.ui.screens import message_screen
from firmware_host.ui.stats import today_screen


def layouts_for(config: Config) -> Callable[[GameState], Layout]:
    """The layout of a game's sites: the config's layout file (which may list the sites of
    several games, so the menu can switch between them; read once), else the default
    numbering."""
    path = config.layout
    if not path:
        return lambda state: default_layout(state.sites())
    board = read_layout(path)
    return lambda state: game_layout(path, board, state.sites())


def configured_game(
    config: Config, name: str | None = None, size: int | None = None, variant: str | None = None
) -> Game:
    """The game named on the command line (else the config's), defaults filled in; matches
    go to the config's ``match`` points if that game offers them (else: single games)."""
    if name is None:
        name, size, variant = config.game, size or config.size, variant or config.variant
    match = config.match if config.match in game_info(name).match_targets else 0
    return Game.of(name, size, variant, match).with_options(config.options.get(name))


def _say(text: str) -> None:
    print(f"reedboard run: {text}", file=sys.stderr)


def open_controller(
    config: Config,
    storage: Storage,
    game: Game,
    address: Callable[[], str] = lambda: "unknown",
    say: Callable[[str], None] = _say,
    sync: bool = False,
    playable: Playable | None = None,
) -> Controller:
    """A controller on the unfinished game in ``storage`` if it can still be played and laid
    out, else on a new ``game``. An unplayable one is set aside: closed with the reason as
    its result (its moves kept), said once (``say``: the journal) and shown on the OLED.
    ``sync``: the computer thinks at once, in this process (a replay's virtual clock).
    ``playable``: what the board plays (the daemon's one, shared with its page and network;
    default: the config's)."""
    speak(config.language)  # the board's words from now on
    lister = (playable or Playable.of(config)).choices
    record = storage.unfinished()
    if record is None:  # a new game, against the computer the last game had, if any
        computer = Computer.of_record(_last_opponent(storage), sync)
        return _controller(config, storage, game, address, None, sync=sync, computer=computer, choices=lister)
    saved = Game(record.game, record.size, record.variant, record.match_target or 0)
    saved = saved.with_options(config.options.get(record.game))
    try:
        if record.problem:
            raise ValueError(record.problem)
        match = resumed_match(storage, record)
        return _controller(
            config,
            storage,
            saved,
            address,
            (record.id, record.moves),
            match,
            sync,
            record.history,
            Computer.of_record(record.opponent, sync),
            lister,
        )
    except (IllegalMove, OptionError, ConfigError, ImportError, TypeError, ValueError) as exc:
        why = " ".join(str(exc).split())[:120] or type(exc).__name__
    storage.finish(record.id, f"set aside: {why}")
    say(
        f"game {record.id} ({record.game}) cannot be resumed and is set aside ({why}); its "
        f"moves are kept in {storage.path}"
    )
    controller = _controller(config, storage, game, address, None, sync=sync, choices=lister)
    controller.notice(
        message_screen("Game set aside", [f"Game {record.id} cannot resume", "Its moves are kept"])
    )
    return controller


def resumed_match(storage: Storage, record: StoredGame) -> OngoingMatch | None:
    """The match the unfinished ``record`` belongs to, its earlier finished games replayed
    (abandoned ones do not count); None for a single game. IllegalMove or OptionError when a
    stored game no longer replays."""
    if record.match_of is None or not record.match_target:
        return None
    tally = OngoingMatch.begin(record.game, record.size, record.variant, record.match_target)
    tally.first_id = record.match_of
    for game in storage.match_games(record.match_of):
        if game.id < record.id and game.winner is not None:
            state = tally.next_game()
            for move in game.moves:
                state = state.play(move)
            timed = Outcome(game.winner, Result.TIME) if state.outcome() is None else None  # a flag's
            tally.record(state, timed)
    return tally


def _last_opponent(storage: Storage) -> str | None:
    try:
        return storage.last_opponent()
    except StorageError:
        return None


def configured_computer(config: Config, sync: bool = False) -> Computer | None:
    """The computer the config's [opponent] names, if any."""
    opponent = config.opponent
    return Computer(opponent_side(config), opponent.level, sync=sync) if opponent.kind == "computer" else None


def computers(sync: bool = False) -> Opponents:
    """The opponent for a choice of players: the computer on its side, or nobody."""
    return lambda players: Computer(players.computer, players.level, sync=sync) if players.computer else None


def _controller(
    config, storage, game, address, resume, match=None, sync=False, history=None, computer=None, choices=None
) -> Controller:
    """The controller; ``computer``: the one a resumed game was played against, or the last
    game for a new one (the menu's Players choice is remembered), else the config's;
    ``choices``: what gives the menu's games (default :func:`menu_choices`)."""
    brightness = config.leds.get("brightness", 1.0)
    kiosk = config.kiosk
    rules = {name: dict(options) for name, options in config.options.items()}  # the menu's too
    menu = Menu(
        choices or menu_choices(config),
        current=GameChoice.of(game.name, game.size, game.variant or ""),
        match=game.match,
        takebacks=config.takebacks,
        kiosk=kiosk.enabled,
        brightness=brightness,
        today=True,
        power_off=kiosk.power_off or not kiosk.enabled,
        rules=rules,
        players=(None, config.opponent.level),
    )
    idle = None
    if kiosk.enabled:
        idle = Idle(kiosk.idle_minutes * 60_000, lambda: today_screen(storage))
    controller = Controller(
        game,
        layouts_for(config),
        config.timing,
        storage,
        takebacks=config.takebacks,
        clock=config.clock,
        players=config.players.names,
        resume=resume,
        history=history,
        brightness=brightness,
        menu=menu,
        address=address,
        idle=idle,
        match=match,
        house_rules=rules,
        opponent=computer if resume or computer else configured_computer(config, sync),
        opponents=computers(sync),
        hints=Hints(config.opponent.level, sync) if kiosk.hints or not kiosk.enabled else None,
    )
    if controller.opponent:
        opponent = controller.opponent  # a player elsewhere has no level: the menu's stays
        menu.players = (opponent.side_in(controller.record.state), opponent.level or menu.players[1])
    return controller


def menu_choices(config: Config) -> Callable[[], tuple[GameChoice, ...]]:
    """A function giving the games, sizes and variants the board plays
    (:meth:`Playable.choices`: every one its layout covers), so that the menu loads every
    engine only when it is opened, not at start."""
    return Playable.of(config).choices
