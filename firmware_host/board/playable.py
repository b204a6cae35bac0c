"""What a board can play and take from elsewhere, in one place: every path that starts a game or
acts on the board from outside the menu (the café network's commands, the simulator page, Home
Assistant) asks :meth:`Playable.refusal` before it calls the controller, and the menu offers only
:meth:`Playable.choices`.

A board with a layout file plays the games whose every site the file wires (any size or variant
the engine accepts); without one, every game. Kiosk mode offers no players (the computer) from
elsewhere, as its menu offers none; ``takebacks = false`` refuses take backs; a board paired with
another board over the network takes no players either (the other board plays the other side).

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
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import engines
from engines.core import OptionError
from firmware_host.actions.commands import NewGame, SetPlayers, TakeBack
from firmware_host.board.game import Game
from firmware_host.store.layout import Layout, read_layout
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
    #: The config's game: the layout covers it (the config check makes sure), even at a size
    #: the menu does not list.
    own: str | None = None
    _known: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, config: Any) -> "Playable":
        """What a board with ``config`` can play (its layout file read once)."""
        return cls(read_layout(config.layout) if config.layout else None, config.kiosk.enabled,
                   config.takebacks,
                   config.opponent.board if config.opponent.kind == "remote" else None,
                   config.game)

    def refusal(self, action: Any) -> str | None:
        """Why the board refuses ``action`` (one of its commands,
        ``firmware_host.actions.commands``: a new game, who plays, a take back, ...) from
        elsewhere; None when it may go ahead."""
        if isinstance(action, NewGame):
            players = action.players()
            return (self.game_refusal(Game(action.game, action.size, action.variant))
                    or (self.refusal(players) if players else None))
        if isinstance(action, SetPlayers):
            if self.kiosk:
                return "kiosk mode: who plays is set at the board only"
            if self.paired:
                return f"this board plays board {self.paired}: no other players"
        if isinstance(action, TakeBack) and not self.takebacks:
            return "take backs are off on this board (takebacks = false)"
        return None

    def game_refusal(self, game: Game) -> str | None:
        """Why the board cannot play ``game`` (its layout lacks a site), else None."""
        if self.layout is None:
            return None
        key = (game.name, game.size, game.variant)
        if key not in self._known:
            self._known[key] = self._missing(game, self.layout)
        return self._known[key]

    def _missing(self, game: Game, layout: Layout) -> str | None:
        try:
            sites = engines.new_game(game.name, game.size, game.variant).sites()
        except (OptionError, ImportError, ValueError) as exc:
            return f"cannot play {game.name}: {exc}"
        missing = next((s.label for s in sites if s.label not in layout.sensor), None)
        if missing is None:
            return None
        return f"this board's layout cannot play {game.title} (no site {missing[:20]!r})"

    def choices(self) -> tuple[GameChoice, ...]:
        """The games, menu sizes and variants the board plays (the menu's choices)."""
        if "choices" not in self._known:  # listing them loads every engine: once
            self._known["choices"] = game_choices(self.layout)
        return self._known["choices"]

    def games(self) -> tuple[str, ...]:
        """The games the board plays in some size and variant."""
        if self.layout is None:
            return tuple(engines.GAME_NAMES)
        found = {c.game for c in self.choices()} | {self.own}
        return tuple(name for name in engines.GAME_NAMES if name in found)

    def picker(self) -> list[dict[str, Any]]:
        """The simulator page's game picker: each game it plays with the sizes and variants it
        can take (without a layout: the engine's sizes, a range of them, every variant)."""
        out = []
        for name in engines.GAME_NAMES:
            info = engines.game_info(name)
            entry = {"name": name, "title": info.title.split(" (")[0], "sizes": list(info.sizes),
                     "size_range": list(info.size_range) if info.size_range else None,
                     "default_size": info.default_size, "variants": list(info.variants),
                     "default_variant": info.default_variant,
                     "options": [{"name": o.name, "default": o.default, "choices": list(o.choices),
                                  "low": o.low, "help": o.help, "default_text": o.default_text}
                                 for o in info.options]}
            if self.layout is not None:
                entry.update(self._picked(name, info))
                if not entry["variants"]:
                    continue
            out.append(entry)
        return out

    def _picked(self, name: str, info: Any) -> dict[str, Any]:
        low, high = info.size_range or (0, -1)
        sizes = sorted(set(info.sizes) | set(range(low, high + 1))) or [None]
        pairs = [(s, v) for s in sizes for v in info.variants
                 if self.game_refusal(Game.of(name, s, v)) is None]
        return {"sizes": [s for s in dict.fromkeys(s for s, _ in pairs) if s is not None],
                "size_range": None, "variants": list(dict.fromkeys(v for _, v in pairs))}

