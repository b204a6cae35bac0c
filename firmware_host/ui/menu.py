"""The MENU/OK/BACK menu: a pure state machine. Button presses in, actions out.

Closed, only a short MENU press concerns the menu (it opens it); OK and BACK belong to the game
then. Open: MENU moves to the next item, OK chooses it, BACK steps back over the MENU presses
made on this page, then goes up a level (and closes the menu from the top). The first page says
so (:data:`HELP`) while its first item is chosen. A long MENU press offers power-off (when
``power_off``): a confirm page where OK powers off and BACK cancels.

>>> menu = Menu([GameChoice("antipalos", 12, "standard", "Antipalos")],
...             current=GameChoice("antipalos", 12, "standard", "Antipalos"))
>>> menu.press(ButtonEvent("menu")), menu.screen().text_lines()[:2], menu.screen().footer
(None, ('Menu', '> New game'), ('MENU: next · OK: pick', 'BACK: back / close'))
>>> menu.press(ButtonEvent("menu")), menu.press(ButtonEvent("back")), menu.is_open
(None, None, True)
>>> action = menu.press(ButtonEvent("ok"))
>>> action.game, action.size, action.control, menu.is_open
('antipalos', 12, None, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable, NamedTuple, Sequence

import engines
from engines.core import OptionError
from firmware_host import i18n
from firmware_host.actions.commands import (
    NewGame,
    PowerOff,
    SetBrightness,
    SetClock,
    SetNames,
    SetPlayers,
    ShowIP,
    ShowToday,
    TakeBack,
)
from firmware_host.i18n import N_, _
from firmware_host.store.timecontrol import CONTROLS, control_label, seconds_label
from firmware_host.ui.screens import Screen, menu_screen
from hardware.base import ButtonEvent

#: What the three buttons do, on the first menu page.
HELP = (N_("MENU: next · OK: pick"), N_("BACK: back / close"))
#: LED brightness levels the menu steps through.
BRIGHTNESS_LEVELS = (0.1, 0.25, 0.5, 0.75, 1.0)
#: The time an arbiter's press on the clock page adds or removes (seconds).
ADJUST_STEPS = (10, 60)


#: The board's commands the menu gives (``firmware_host.actions.commands``: the same the page and
#: the broker give).
Action = NewGame | TakeBack | SetBrightness | ShowIP | ShowToday | PowerOff | SetPlayers | SetClock | SetNames


# -------------------------------------------------------------------------------- choices
class GameChoice(NamedTuple):
    """A game, size and variant the board can play; ``title`` is the game's short title,
    ``match_targets`` the points its matches can go to (none: no match play)."""

    game: str
    size: int | None
    variant: str
    title: str
    match_targets: tuple[int, ...] = ()

    @classmethod
    def of(cls, game: str, size: int | None, variant: str) -> "GameChoice":
        """The choice of a registered game, its title and match targets from the engine."""
        info = engines.game_info(game)
        return cls(game, size, variant, info.short_title, info.match_targets)

    @property
    def label(self) -> str:
        """The title with the size, and the variant unless it is the game's default (a
        registered game's).

        >>> GameChoice.of("anti-grid", 6, "chain").label, GameChoice.of("antipalos", 5, "two").label
        ('Anti-Grid 6 chain', 'Antipalos 5')
        """
        default = engines.game_info(self.game).default_variant
        shown = (self.title, self.size, None if self.variant == default else self.variant)
        return " ".join(str(part) for part in shown if part)


def game_choices() -> tuple[GameChoice, ...]:
    """Every game in each of its menu sizes and variants (the games a board plays, see
    ``firmware_host.board.playable``, narrow them to what its layout covers)."""
    out = []
    for game in engines.GAME_NAMES:
        info = engines.game_info(game)
        for size in info.sizes or (info.default_size,):
            for variant in info.variants:
                out.append(GameChoice.of(game, size, variant))
    return tuple(out)


# ----------------------------------------------------------------------------------- menu
class _Item(NamedTuple):
    label: str
    #: What OK on the item does: an action (the menu closes), a page (opened), or None (closes).
    choose: Callable[[], "Action | _Page | None"]
    keeps_open: bool = False


@dataclass
class _Page:
    """One page of the menu: its items, and where its cursor is."""

    title: str
    items: tuple[_Item, ...]
    cursor: int = 0
    #: MENU presses on this page since it was last shown (BACK steps back over them first).
    moves: int = 0
    #: The page drawn again after an item that keeps it open (None: as it is), at a cursor.
    again: Callable[[int], "_Page"] | None = None


class Menu:
    """The menu over ``choices`` (the board's, ``Playable.choices``; or a function giving them, called
    when the menu first needs them: listing every game loads every engine). ``match``: the points the current
    match goes to (0: single games; the controller keeps it up to date). ``kiosk``: only picking
    a game and starting a new one. ``brightness``: the LED level now (snapped to a menu level).
    ``today``: offer today's games; ``power_off``: a long MENU press offers power-off.
    ``rules``: the house rules in force by game (the config's, as the menu changes them).
    ``players``: the side the computer plays (None: nobody) and its level. ``control``: the
    games' time control (``"-"``: no clock; the controller keeps it up to date). ``names``: who
    sits at each seat (the controller keeps it up to date); ``roster``: the café's players,
    offered for each seat (none: "Player 1", "Player 2" ...)."""

    def __init__(
        self,
        choices: Sequence[GameChoice] | Callable[[], Sequence[GameChoice]],
        current: GameChoice,
        takebacks: bool = True,
        kiosk: bool = False,
        brightness: float = 0.5,
        today: bool = False,
        power_off: bool = False,
        match: int = 0,
        rules: dict[str, dict[str, object]] | None = None,
        players: tuple[str | None, int] = (None, 1),
        control: str = "-",
    ) -> None:
        self._choices = choices
        self.control = control
        self.players = players
        self.names: tuple[str, ...] = ()
        self.roster: tuple[str, ...] = ()
        self.rules = {} if rules is None else rules
        self.match = match
        self.today = today
        self.power_off = power_off
        self.current = current
        self.takebacks = takebacks
        self.kiosk = kiosk
        self.show_brightness(brightness)
        self._pages: list[_Page] = []

    @property
    def choices(self) -> tuple[GameChoice, ...]:
        if callable(self._choices):
            self._choices = self._choices()
        return tuple(self._choices)

    @property
    def is_open(self) -> bool:
        return bool(self._pages)

    def press(self, event: ButtonEvent) -> Action | None:
        """Handle a button press; the action for the controller to carry out, if any."""
        if event.long:
            if event.button == "menu" and self.power_off:
                self._pages = [
                    _Page(
                        _("Power off?"),
                        (_Item(_("Power off now"), PowerOff), _Item(_("Cancel"), lambda: None)),
                    )
                ]
            return None
        if not self._pages:
            if event.button == "menu":
                self._pages = [self._main()]
            return None
        page = self._pages[-1]
        if event.button == "menu":
            page.cursor, page.moves = (page.cursor + 1) % len(page.items), page.moves + 1
        elif event.button == "back" and page.moves:
            page.cursor, page.moves = (page.cursor - 1) % len(page.items), page.moves - 1
        elif event.button == "back":
            self._pages.pop()
            if self._pages:
                self._pages[-1].moves = 0
        elif event.button == "ok":
            return self._choose(page.items[page.cursor])
        return None

    def close(self) -> None:
        self._pages = []

    def show_brightness(self, level: float) -> None:
        """The brightness item shows the menu's level nearest ``level`` (set at the board or
        elsewhere), and OK steps on from it."""
        self.brightness = min(BRIGHTNESS_LEVELS, key=lambda step: abs(step - level))

    def screen(self) -> Screen:
        """The open menu's screen (the top level when closed)."""
        page = self._pages[-1] if self._pages else self._main()
        first = len(self._pages) <= 1 and page.title == _("Menu") and page.cursor == 0
        return menu_screen(
            page.title,
            [item.label for item in page.items],
            page.cursor,
            [_(h) for h in HELP] if first else (),
        )

    # ---------------------------------------------------------------------- internals
    def _choose(self, item: _Item) -> Action | None:
        outcome = item.choose()
        if isinstance(outcome, _Page):
            self._pages.append(outcome)
            return None
        if item.keeps_open:
            page = self._pages[-1]
            self._pages[-1] = page.again(page.cursor) if page.again else page
        else:
            self.close()
        return outcome

    def _main(self, cursor: int = 0) -> _Page:
        items = [_Item(_("New game"), lambda: self._start(self.current))]
        if len(self.choices) > 1:
            items.append(_Item(_("Choose game"), self._games_page))
        if self.current.match_targets and not self.kiosk:
            items.append(_Item(_("Match play"), self._matches_page))
        if self.today:
            items.append(_Item(_("Today"), ShowToday))
        if not self.kiosk:
            if self.takebacks:
                items.append(_Item(_("Take back"), TakeBack))
            items += [
                _Item(
                    _("Brightness {percent}%").format(percent=round(self.brightness * 100)),
                    self._brighter,
                    True,
                ),
                _Item(_("Show IP address"), ShowIP),
            ]
            if _menu_options(self.current.game):
                items.append(_Item(_("House rules"), self._rules_page))
            items.append(_Item(_("Players"), self._players_page))
            items.append(_Item(_("Clock"), self._clock_page))
            items.append(_Item(_("Names"), self._names_page))
            items.append(_Item(_("Language"), self._languages_page))
        items.append(_Item(_("Exit"), lambda: None))
        return _Page(_("Menu"), tuple(items), cursor, again=self._main)

    def _languages_page(self) -> _Page:
        """The languages the board speaks, each in its own words: OK speaks it from now on."""
        codes = list(i18n.LANGUAGES)
        items = tuple(_Item(name, partial(i18n.use, code)) for code, name in i18n.LANGUAGES.items())
        return _Page(_("Language"), items, _index(codes, i18n.current()))

    def _brighter(self) -> SetBrightness:
        index = BRIGHTNESS_LEVELS.index(self.brightness)
        self.brightness = BRIGHTNESS_LEVELS[(index + 1) % len(BRIGHTNESS_LEVELS)]
        return SetBrightness(self.brightness)

    def _games_page(self) -> _Page:
        games = list(dict.fromkeys((c.game, c.title) for c in self.choices))
        items = tuple(_Item(title, partial(self._narrow_to, "game", game)) for game, title in games)
        return _Page(_("Game"), items, _index([g for g, _ in games], self.current.game))

    def _narrow_to(
        self, field: str, value: object, keep: Callable[[GameChoice], bool] = lambda c: True
    ) -> Action | _Page:
        """:meth:`_narrow` to the choices ``keep`` selects whose ``field`` is ``value``."""
        return self._narrow(lambda c: keep(c) and getattr(c, field) == value)

    def _narrow(self, keep: Callable[[GameChoice], bool]) -> Action | _Page:
        """The choices ``keep`` selects: a new game when one is left, else a page to pick the
        size (when they differ in size) or the variant, the current game's under the cursor."""
        left = [c for c in self.choices if keep(c)]
        if len(left) == 1:
            return self._start(left[0])
        current = self.current if self.current.game == left[0].game else None
        sizes = list(dict.fromkeys(c.size for c in left))
        if len(sizes) > 1:
            items = tuple(
                _Item(_("Size {size}").format(size=size), partial(self._narrow_to, "size", size, keep))
                for size in sizes
            )
            return _Page(
                _("{game} size").format(game=left[0].title), items, _index(sizes, current and current.size)
            )
        variants = [c.variant for c in left]
        items = tuple(_Item(c.variant, partial(self._start, c)) for c in left)
        cursor = _index(variants, current and current.variant)
        return _Page(_("{game} variant").format(game=left[0].title), items, cursor)

    def _rules_page(self, cursor: int = 0) -> _Page:
        """The current game's yes/no and word options: OK steps one to its next value, which
        holds from the next new game (whole numbers are set in the config)."""
        game = self.current.game
        options = _menu_options(game)
        rules = self.rules.setdefault(game, {})
        items = tuple(
            _Item(
                f"{o.name}: {_(o.shown(o.read(rules.get(o.name, o.default))))}",
                partial(self._next_rule, o, i),
            )
            for i, o in enumerate(options)
        )
        return _Page(_("Rules (next game)"), items, cursor)

    def _next_rule(self, option, index: int) -> _Page:
        """Step ``option`` to its next value the current game takes (a side it has)."""
        c = self.current
        rules = self.rules.setdefault(c.game, {})
        values = [True, False] if isinstance(option.default, bool) else list(option.choices)
        now = values.index(option.read(rules.get(option.name, option.default)))
        for step in range(1, len(values)):
            value = values[(now + step) % len(values)]
            try:
                engines.new_game(c.game, c.size, c.variant, {**rules, option.name: value})
            except OptionError:
                continue
            rules[option.name] = value
            break
        self._pages.pop()
        return self._rules_page(index)

    def _players_page(self, cursor: int | None = None) -> _Page:
        """All at the table, or the computer playing one side; its level (OK steps it)."""
        c = self.current
        computer, level = self.players
        try:
            sides = engines.new_game(c.game, c.size, c.variant).sides
        except OptionError:  # a game these engines do not know: nobody to play
            sides = ()
        items = (
            _Item(
                _("Two at the table") if len(sides) == 2 else _("All at the table"),
                lambda: self._set_players(None),
            ),
            *(
                _Item(_("Computer: {side}").format(side=_(side)), partial(self._set_players, side))
                for side in sides
            ),
            _Item(_("Level {level}").format(level=level), self._next_level),
        )
        if cursor is None:
            cursor = 1 + sides.index(computer) if computer in sides else 0
        return _Page(_("Players"), items, cursor)

    def _sides(self) -> tuple[str, ...]:
        c = self.current
        try:
            return tuple(engines.new_game(c.game, c.size, c.variant).sides)
        except OptionError:  # a game these engines do not know: no seats
            return ()

    def _names_page(self) -> _Page:
        """A seat per item, with who sits there; OK on one offers the names for it."""
        sides = self._sides()
        items = tuple(
            _Item(f"{side}: {self.names[i] if i < len(self.names) else '-'}", partial(self._seat_page, i))
            for i, side in enumerate(sides)
        )
        return _Page(_("Names"), (*items, _Item(_("Nobody named"), lambda: SetNames(()))))

    def _seat_page(self, seat: int) -> _Page:
        """The names a seat may take: the café's players, else "Player 1", "Player 2" ..."""
        sides = self._sides()
        offered = self.roster or tuple(_("Player {n}").format(n=n) for n in range(1, len(sides) + 1))
        items = tuple(_Item(name, partial(self._name_seat, seat, name)) for name in offered)
        now = self.names[seat] if seat < len(self.names) else None
        return _Page(_("{side} is").format(side=sides[seat]), items, _index(list(offered), now))

    def _name_seat(self, seat: int, name: str) -> SetNames:
        """``name`` at ``seat``; a seat nobody was named at yet is "Player N"."""
        count = len(self._sides())
        names = [
            self.names[i] if i < len(self.names) else _("Player {n}").format(n=i + 1) for i in range(count)
        ]
        names[seat] = name
        return SetNames(tuple(names))

    def _set_players(self, computer: str | None) -> SetPlayers:
        self.players = (computer, self.players[1])
        return SetPlayers(*self.players)

    def _next_level(self) -> _Page:
        computer, level = self.players
        self.players = (computer, level % 5 + 1)
        page = self._pages.pop()
        return self._players_page(page.cursor)

    def _clock_page(self) -> _Page:
        """The time control of a new game; with a clock, an arbiter's pause, resume and
        corrections."""
        items = [
            _Item(_("Control: {control}").format(control=_(control_label(self.control))), self._controls_page)
        ]
        if self.control != "-":
            items += [
                _Item(_("Pause clocks"), lambda: SetClock("pause")),
                _Item(_("Resume clocks"), lambda: SetClock("resume")),
                _Item(_("Adjust time"), self._adjust_page),
            ]
        return _Page(_("Clock"), tuple(items))

    def _controls_page(self) -> _Page:
        """OK on a control starts a new game of the current choice on it."""
        start = partial(self._start, self.current, None)
        items = tuple(_Item(_(control_label(c)), partial(start, c)) for c in CONTROLS)
        return _Page(_("Clock: new game"), items, _index(list(CONTROLS), self.control))

    def _adjust_page(self) -> _Page:
        """A player's clock (a side's, or a team player's) given or taken a few seconds at each
        OK (the page stays open)."""
        c = self.current
        try:
            sides = engines.new_game(c.game, c.size, c.variant).players
        except OptionError:  # a game these engines do not know: no clocks
            sides = ()
        items = tuple(
            _Item(
                f"{side.capitalize()} {sign}{seconds_label(step)}",
                partial(SetClock, "adjust", side, step * int(f"{sign}1")),
                True,
            )
            for side in sides
            for step in ADJUST_STEPS
            for sign in "+-"
        )
        return _Page(_("Adjust time"), items)

    def _matches_page(self) -> _Page:
        targets = [0, *self.current.match_targets]
        items = tuple(
            _Item(
                _("Match to {target}").format(target=target) if target else _("Single games"),
                partial(self._start, self.current, target),
            )
            for target in targets
        )
        return _Page(_("Match play"), items, _index(targets, self.match))

    def _start(self, choice: GameChoice, match: int | None = None, control: str | None = None) -> NewGame:
        """A new game of ``choice``: a match to ``match`` points (default: the current target
        for the same game, single games for another game), on ``control`` (None: as it is)."""
        if match is None:
            match = self.match if choice.game == self.current.game else 0
        self.current, self.match = choice, match
        self.control = self.control if control is None else control
        return NewGame(choice.game, choice.size, choice.variant, match, control=control)


def _menu_options(game: str) -> tuple:
    """The options of ``game`` the menu can step through: yes/no and words (none for a game
    it does not know)."""
    try:
        options = engines.game_info(game).options
    except OptionError:
        return ()
    return tuple(o for o in options if isinstance(o.default, bool) or o.choices)


def _index(values: list, value) -> int:
    return values.index(value) if value in values else 0
