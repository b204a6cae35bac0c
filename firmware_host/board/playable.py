"""What a board can play and take from elsewhere, in one place: every path that starts a game or
acts on the board from outside the menu (the café network's commands, the simulator page, Home
Assistant) asks :meth:`Playable.refusal` before it calls the controller; the menu, the board's
state on the café network, the dashboard's New game and Home Assistant's select all offer
:meth:`Playable.choices`.

A board with a layout file plays the games whose every site the file wires, in every size and
variant the engine accepts; without one, every game (the menu lists the games' usual sizes).
Kiosk mode offers no players (the computer) from elsewhere, as its menu offers none;
``takebacks = false`` refuses take backs; a board paired with another board over the network
takes no players either (the other board plays the other side) and plays only the games of
two sides.

>>> from firmware_host.store.layout import Layout
>>> from firmware_host.actions.commands import NewGame, SetPlayers, TakeBack
>>> board = Playable(Layout({"a1": 0}, {"a1": 0}), kiosk=True)
>>> board.refusal(NewGame("phalanx", None, "standard"))[:46]
"this board's layout cannot play Phalanx (no si"
>>> Playable().refusal(NewGame("phalanx", None, "standard")) is None
True
>>> board.refusal(SetPlayers("black", 2))
'kiosk mode: who plays is set at the board only'
>>> Playable(takebacks=False).refusal(TakeBack())
'take backs are off on this board (takebacks = false)'
>>> Playable(paired="friend").refusal(NewGame("antipalos", 5, "cut-throat-3"))
'this board plays board friend: only games of two sides (Antipalos 5 cut-throat-3 has 3)'
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, cast

import engines
from engines.core import OptionError
from firmware_host.actions.commands import Again, NewGame, SetPlayers, TableRound, TakeBack
from firmware_host.board.game import Game
from firmware_host.store.layout import Layout, read_layout
from firmware_host.store.timecontrol import control_refusal
from firmware_host.ui.menu import GameChoice, game_choices


@dataclass(frozen=True)
class Playable:
    """The board's ``layout`` (every site its layout file wires; None: the default layouts, so
    every game), whether it is in ``kiosk`` mode, allows ``takebacks``, and the id of the board
    it is ``paired`` with over the network (None: none)."""

    layout: Layout | None = None
    kiosk: bool = False
    takebacks: bool = True
    paired: str | None = None
    _known: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    _listing: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @classmethod
    def of(cls, config: Any) -> "Playable":
        """What a board with ``config`` can play (its layout file read once)."""
        return cls(
            read_layout(config.layout) if config.layout else None,
            config.kiosk.enabled,
            config.takebacks,
            config.opponent.board if config.opponent.kind == "remote" else None,
        )

    @property
    def chooses_players(self) -> bool:
        """Whether who plays (a computer's seat) may be chosen from elsewhere: not in kiosk mode,
        nor on a board paired with another.

        >>> Playable(paired="friend").chooses_players, Playable(kiosk=True).chooses_players
        (False, False)
        """
        return not self.kiosk and self.paired is None

    def refusal(self, action: Any) -> str | None:
        """Why the board refuses ``action`` (one of its commands,
        ``firmware_host.actions.commands``: a new game, who plays, a take back, ...) from
        elsewhere; None when it may go ahead."""
        timed = isinstance(action, (NewGame, Again))
        if timed and (why := control_refusal("new_game", action.control, action.delay)):
            return why
        if isinstance(action, NewGame):
            players = action.players()
            return self.game_refusal(Game(action.game, action.size, action.variant)) or (
                self.refusal(players) if players else None
            )
        if isinstance(action, TableRound):
            return self.refusal(action.new)
        if isinstance(action, SetPlayers):
            if self.kiosk:
                return "kiosk mode: who plays is set at the board only"
            if self.paired:
                return f"this board plays board {self.paired}: no other players"
        if isinstance(action, TakeBack) and not self.takebacks:
            return "take backs are off on this board (takebacks = false)"
        return None

    def game_refusal(self, game: Game) -> str | None:
        """Why the board cannot play ``game`` (its layout lacks a site, or it has more than two
        sides on a paired board), else None."""
        if self.layout is None and self.paired is None:
            return None
        key = (game.name, game.size, game.variant)
        if key not in self._known:
            self._known[key] = self._missing(game)
        return cast(str | None, self._known[key])

    def _missing(self, game: Game) -> str | None:
        try:
            state = engines.new_game(game.name, game.size, game.variant)
        except (OptionError, ImportError, ValueError) as exc:
            return f"cannot play {game.name}: {exc}"
        title = " ".join(filter(None, (game.title, game.shown_variant)))
        if self.paired and len(state.sides) != 2:
            return (
                f"this board plays board {self.paired}: only games of two sides "
                f"({title} has {len(state.sides)})"
            )
        if self.layout is None:
            return None
        missing = next((s.label for s in state.sites() if s.label not in self.layout.sensor), None)
        if missing is None:
            return None
        return f"this board's layout cannot play {game.title} (no site {missing[:20]!r})"

    @property
    def listed(self) -> bool:
        """True once :meth:`choices` are known (asking for them then costs nothing)."""
        return "choices" in self._known

    def list_soon(self) -> threading.Thread:
        """List :meth:`choices` in a thread of its own (the daemon's, after READY), so that
        neither the start nor the scan loop waits for every engine to load; the thread (the
        same one if asked again).

        >>> board = Playable()
        >>> board.list_soon().join(); board.listed, board.list_soon() is board.list_soon()
        (True, True)
        """
        with self._listing:
            if "lister" not in self._known:
                self._known["lister"] = threading.Thread(target=self.choices, name="playable", daemon=True)
                self._known["lister"].start()
        return cast(threading.Thread, self._known["lister"])

    def choices(self) -> tuple[GameChoice, ...]:
        """Every game, size and variant the board plays: each its layout covers (without a
        layout: the menu's sizes of every game), only those of two sides on a paired board."""
        with self._listing:  # listing them loads every engine: once, whichever thread asks
            if not self.listed:
                self._known["choices"] = self._list()
        return cast(tuple[GameChoice, ...], self._known["choices"])

    def _list(self) -> tuple[GameChoice, ...]:
        """:meth:`choices`, worked out."""
        if self.layout is None:
            listed = [c for c in game_choices() if self.game_refusal(Game(c.game, c.size, c.variant)) is None]
        else:
            listed = [
                GameChoice.of(name, size, variant)
                for name in engines.GAME_NAMES
                for size, variant in self._covered(name, engines.game_info(name))
            ]
        return tuple(listed)

    def offered(self, game: Game) -> tuple[GameChoice, ...]:
        """:meth:`choices`, with ``game`` (the one the board plays now) at the end when they
        lack it (a size outside the menu's, on a board without a layout)."""
        now = GameChoice.of(game.name, game.size, game.variant or "")
        listed = self.choices()
        return listed if now in listed else (*listed, now)

    def titles(self, game: Game | None = None) -> dict[str, NewGame]:
        """Title -> the new game it names, of each game :meth:`offered` (:meth:`choices`
        without ``game``); the same dict for the same list."""
        offered = self.choices() if game is None else self.offered(game)
        key = ("titles", offered)
        if key not in self._known:
            self._known[key] = {c.label: NewGame(c.game, c.size, c.variant) for c in offered}
        return cast(dict[str, NewGame], self._known[key])

    def listing(self, game: Game) -> dict[str, Any]:
        """What the board's state says it plays while it plays ``game``: ``games``, the
        names; ``choice``, the title of ``game``; ``playable``, each game, size and variant
        (:meth:`offered`) with its title."""
        key = ("listing", game.name, game.size, game.variant)
        if key not in self._known:
            offered = self.offered(game)
            self._known[key] = {
                "games": list(dict.fromkeys(c.game for c in offered)),
                "choice": GameChoice.of(game.name, game.size, game.variant or "").label,
                "playable": [
                    {"game": c.game, "size": c.size, "variant": c.variant, "title": c.label} for c in offered
                ],
            }
        return cast(dict[str, Any], self._known[key])

    def picker(self) -> list[dict[str, Any]]:
        """The simulator page's game picker: each game it plays with the sizes and variants it
        can take (without a layout: the engine's sizes, a range of them, every variant)."""
        out = []
        for name in engines.GAME_NAMES:
            info = engines.game_info(name)
            entry = {
                "name": name,
                "title": info.short_title,
                "sizes": list(info.sizes),
                "size_range": list(info.size_range) if info.size_range else None,
                "default_size": info.default_size,
                "variants": list(info.variants),
                "default_variant": info.default_variant,
                "options": [
                    {
                        "name": o.name,
                        "default": o.default,
                        "choices": list(o.choices),
                        "low": o.low,
                        "help": o.help,
                        "default_text": o.default_text,
                    }
                    for o in info.options
                ],
            }
            if self.layout is not None or self.paired:
                pairs = self._covered(name, info)
                entry["variants"] = list(dict.fromkeys(v for _, v in pairs))
                if self.layout is not None:
                    entry["sizes"] = [s for s in dict.fromkeys(s for s, _ in pairs) if s is not None]
                    entry["size_range"] = None
                if not entry["variants"]:
                    continue
            out.append(entry)
        return out

    def _covered(self, name: str, info: Any) -> list[tuple[int | None, str]]:
        """The (size, variant) of game ``name`` the board plays, of every size the engine takes."""
        low, high = info.size_range or (0, -1)
        sizes = sorted(set(info.sizes) | set(range(low, high + 1))) or [None]
        return [
            (s, v) for s in sizes for v in info.variants if self.game_refusal(Game.of(name, s, v)) is None
        ]
