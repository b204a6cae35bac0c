"""The game-agnostic state machine: debounced scans and button presses in; events, an LED frame
and a screen out. It knows a game only through the GameState interface and the physical
contract (``engines/core/contract.py``), and time only through the ``now`` (ms) it is given.

How a turn goes (docs/daemon.md has the whole story):

- A debounced lift of a piece the side to move may move lights its targets at once.
- When the board settles it is judged against the expected occupancy: equal -> nothing; the
  hand change of legal moves -> accept (several: they differ by a pick, which a tap or the
  buttons settle); an earlier position -> takeback (when allowed); anything else -> out of
  sync, with the missing and extra sites lit and, if it looks like an attempted move, the
  engine's reason on the screen.
- An accepted move is saved, then announced, then its follow-ups run in order: remove and
  twin are checked by the sensors, flips by polarity sensors or an OK press.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping

from engines.core import FollowUp, GameState, Outcome, Realisation
from engines.core.options import write_options
from firmware_host import recognise
from firmware_host.config import Timing
from firmware_host.debounce import Debouncer
from firmware_host.game import Game, result_text
from firmware_host.kiosk import Idle
from firmware_host.layout import Layout
from firmware_host.matchplay import OngoingMatch
from firmware_host import menu as menus
from firmware_host.menu import Menu
from firmware_host.recognise import Candidate
from firmware_host.screens import Screen
from firmware_host.storage import Storage, StorageError
from firmware_host.turn import Choice, Pending, Sync, Turn, taps_in, undo_steps
from firmware_host.buttons import Buttons
from firmware_host.judge import Judge
from firmware_host.view import Display
from hardware.base import ButtonEvent, Led, Scan

Event = dict[str, Any]
#: A screen too long for the OLED shows its pages in turn, each this long (ms).
PAGE_MS = 3000

#: How long a passing message ("Corrected to E5*") stays unless the board changes first.
FLASH_MS = 4000


class Controller(Judge, Buttons, Display):
    """One board's game: ``step(now, scan, buttons)`` -> events; :meth:`frame`, :meth:`screen`.

    ``storage`` holds the game (a new one is started unless ``resume`` gives the stored record's
    id and moves); ``layouts`` gives the layout for a game's state (a new game may change it).
    ``match``: the match a resumed game belongs to (default: a new one when ``game.match``).
    ``idle``: kiosk mode's idle spells (docs/daemon.md); ``house_rules``: the config's options by
    game, for the games the menu or the page start.
    """

    def __init__(
        self,
        game: Game,
        layouts: Callable[[GameState], Layout],
        timing: Timing,
        storage: Storage,
        *,
        takebacks: bool = True,
        resume: tuple[int, Iterable[str]] | None = None,
        brightness: float = 1.0,
        menu: Menu | None = None,
        address: Callable[[], str] = lambda: "unknown",
        idle: Idle | None = None,
        match: OngoingMatch | None = None,
        house_rules: Mapping[str, Mapping[str, Any]] | None = None,
        opponent: Any = None,
        hints: Any = None,
    ) -> None:
        self.timing = timing
        self.idle = idle
        self.takebacks = takebacks
        self.house_rules = {} if house_rules is None else house_rules
        self.storage = storage
        self.brightness = brightness
        self.menu = menu
        self._address = address
        self._notice: Screen | None = None
        self._notice_until: float | None = None  # a passing notice's end
        self._answer: Callable[[bool], None] | None = None  # the notice's question's
        self._layouts = layouts
        self._events: list[Event] = []
        self._now: float = 0.0
        self._polarity: Mapping[int, bool] | None = None
        self._frame: dict[int, Led] = {}
        self._lines: tuple[str, ...] = ()
        self._pages = self._page = 0
        self._shown: Screen | None = None  # the screen shown (its pages turned from _shown_at)
        self._shown_at = 0.0
        self._dirty = True
        self._screen_due = False  # the screen is to be laid out again (after the frame)
        self.frame_version = 0
        self.debouncer = Debouncer(timing.debounce_scans, timing.settle_ms,
                                   quick_ms=timing.quick_settle_ms)
        #: False while the board does not answer (the daemon says): nothing is judged.
        self.connected = True
        self.opponent = opponent  # the computer (firmware_host/opponent.py): ticked each step
        self.hints = hints  # hints on request (opponent.Hints), ticked each step
        self.match = match or game.new_match()
        self._start(game, resume)

    # ------------------------------------------------------------------ set-up
    def _start(self, game: Game, resume: tuple[int, Iterable[str]] | None) -> None:
        self.game = game
        if self.menu:  # the menu's "New game" means this game from now on
            self.menu.current = menus.Choice.of(game.name, game.size, game.variant or "")
            self.menu.match = game.match
        state = self.match.next_game() if self.match else game.new()
        self.layout = self._layouts(state)
        self._order = {s.label: i for i, s in enumerate(state.sites())}
        self.states: list[GameState] = [state]
        self.boards: list[frozenset[str]] = [state.occupied()]
        self.moves: list[str] = []
        if resume is None:
            self.game_id = self._store_start(game)
        else:
            self.game_id, played = resume
            for text in played:
                self._push(self.state.play(text), self.state.notation(self.state.parse_move(text)))
        if self.match and self.match.first_id is None:
            self.match.first_id = self.game_id  # this game begins the match
        self.board = self.layout.sites_of(self.debouncer.stable)
        self.mode = "move"
        self.turn: Turn | None = None
        self.choice: Choice | None = None
        self.pending: Pending | None = None
        self.due: FollowUp | None = None  # a step that is the whole turn
        self.sync: Sync | None = None
        self.targets: frozenset[str] = frozenset()
        self.hinted: frozenset[str] = frozenset()  # the sites of a hint shown
        self.message: str | None = None
        self._toggles: dict[str, float] = {}
        self._evaluated: frozenset[str] | None = None
        self._check_only = True  # until a piece moves, a settled board is only compared
        self._correctable = False
        self._ok_waiting = False  # OK pressed while a hand was over the board
        self._flashed: tuple[str, float] | None = None
        self._targets: dict[str, frozenset[str]] = {}
        outcome = self.state.outcome()
        if outcome:
            self._game_over(outcome)
        else:
            self._begin_turn()

    def _store_start(self, game: Game) -> int:
        """Store the new game (with its match, which it may begin, and who begins); its id."""
        match_of, target = (self.match.first_id, self.match.target) if self.match else (None, None)
        return self.storage.start(game.name, game.size, game.variant, match_of, target,
                                  first=self.state.to_move,
                                  options=write_options(dict(game.options)) or None,
                                  opponent=self.opponent.record(self.state) if self.opponent else None)

    @property
    def state(self) -> GameState:
        return self.states[-1]

    @property
    def expected(self) -> frozenset[str]:
        """The occupancy the board should show now."""
        return self.turn.board() if self.turn else self.boards[-1]

    # ------------------------------------------------------------------- input
    def step(self, now: float, scan: Scan, buttons: Iterable[ButtonEvent] = (),
             screen: bool = True) -> list[Event]:
        """Take one scan (and the button presses since the last) at ``now`` ms; the events.
        With ``screen`` False a changed screen is laid out (and its ``display`` event given)
        only by :meth:`screen_step`: the daemon sends the LED frame first, since a long screen
        takes far longer to lay out than the frame to build."""
        self._now = now
        if scan.polarity is not None:
            self._polarity = scan.polarity
        fresh = not self.debouncer.started
        change = self.debouncer.feed(now, scan)
        if fresh or change.closed or change.opened:
            self.board = self.layout.sites_of(self.debouncer.stable)
            if not fresh:
                self._wake()
                self._on_change(self.layout.sites_of(change.closed | change.opened))
        for press in buttons:
            if not self._wake():  # a press that wakes the board does nothing else
                self._on_button(press)
        if change.settled:
            self._on_settle()
        if self.idle:
            self._idle_tick()
        if self._pages > 1 and (now - self._shown_at) // PAGE_MS != self._page:
            self._dirty = True  # the next page of a long screen
        if self._flashed and now >= self._flashed[1]:
            self._flashed = None
            self._dirty = True
        if self._notice_until is not None and now >= self._notice_until:
            self._notice = self._notice_until = None
            self._dirty = True
        if self.opponent:
            self.opponent.tick(self)
        if self.hints:
            self.hints.tick(self)
        if self._dirty:
            self._refresh()
        if screen:
            self._refresh_screen()
        events, self._events = self._events, []
        return events

    def screen_step(self) -> list[Event]:
        """After a ``step(..., screen=False)``: the screen laid out if it changed; its
        ``display`` event."""
        self._refresh_screen()
        events, self._events = self._events, []
        return events

    def _emit(self, event: str, **fields: Any) -> None:
        self._events.append({"t": self._now, "event": event, **fields})
        self._dirty = True

    def _sorted(self, sites: Iterable[str]) -> list[str]:
        return sorted(sites, key=lambda s: self._order.get(s, len(self._order)))

    # -------------------------------------------------- debounced sensor changes
    def _on_change(self, changed: frozenset[str]) -> None:
        taps = taps_in(self._toggles, changed, self._now, self.timing.tap_ms)
        self._dirty = True
        self._flashed, self.hinted = None, frozenset()
        if self._notice_until is not None:
            self._notice = self._notice_until = None
        self._check_only = False  # someone is playing
        if self.mode == "choose":
            self._choice_change(taps)
        elif self.mode == "follow":
            if self.turn.touches is not None:
                self.turn.touches.see(self.board)
            self._follow_progress()
        elif self.mode == "move" and not self.sync:
            self._light_targets()
        # the settle policy: a board showing one whole legal move is judged sooner
        self.debouncer.complete = (self.mode == "move" and not self.choice
                                   and recognise.complete(self.state, self.board))

    def _choice_change(self, taps: frozenset[str]) -> None:
        """A shared flip is tracked by its lifts (never read as taps); then taps choose."""
        touches = self.choice.touches
        if touches is not None:
            touches.see(self.board)
            return
        for site in taps & self.choice.sites if self.choice.armed else ():
            self._choose_site(site)
            if self.mode != "choose":
                break

    def _settle_touches(self) -> None:
        """A lifted flip token is set back once the board settles with it down."""
        if self.choice and self.choice.touches is not None:
            touches = self.choice.touches
            if touches.see(self.board, settled=True) and not touches.left:
                self._choice_advance()
        elif self.mode == "follow" and self.turn.touches is not None:
            self.turn.touches.see(self.board, settled=True)
            self._follow_progress()

    def _choice_advance(self) -> None:
        self.choice.advance()
        self._toggles.clear()
        self._emit("guide", action=self.choice.action, sites=self._sorted(self.choice.sites))

    def _targets_of(self, site: str) -> frozenset[str]:
        """The engine's targets of a piece lifted from ``site``, asked once per position."""
        if site not in self._targets:
            self._targets[site] = self.state.targets(site)
        return self._targets[site]

    def _light_targets(self) -> None:
        targets: set[str] = set()
        for site in self.boards[-1] - self.board:
            targets |= self._targets_of(site)
        if targets != self.targets:
            self.targets = frozenset(targets)
            self._emit("targets", sites=self._sorted(targets))

    def set_connected(self, connected: bool) -> None:
        """The board stopped answering (False: no guidance about pieces nobody can see) or
        answers again (True: the board is judged again)."""
        if connected == self.connected:
            return
        self.connected = connected
        self._dirty = True
        if connected:
            self._rejudge()
        else:
            self.sync = None
            self._clear_targets()

    # ------------------------------------------------------ moves chosen elsewhere
    def expect(self, move_text: str, say: str) -> None:
        """Have the players carry out ``move_text`` (chosen by a computer or a remote board):
        its sites to empty and to fill are lit, ``say`` is shown ("Computer plays E5*: move
        it"), and only a board that shows this move is accepted. IllegalMove for a bad move."""
        state = self.state
        move = state.parse_move(move_text)
        state.check(move)
        self.pending = Pending(move, state.notation(move), state.realisations(move)[0], say)
        self.choice = None
        real = self.pending.real
        self._emit("expect", move=self.pending.text, empty=self._sorted(real.emptied),
                   fill=self._sorted(real.filled))
        self._rejudge()

    @property
    def to_act(self) -> str | None:
        """The side who must act now: during a follow-up the side whose step it is."""
        return self.turn.side if self.turn else self.state.to_move

    def hint(self, move_text: str) -> None:
        """Light ``move_text`` as a hint for the side to move until the board changes."""
        state = self.state
        move = state.parse_move(move_text)
        real = state.realisations(move)[0]
        self.hinted = real.emptied | real.filled
        self._emit("hint", move=state.notation(move), sites=self._sorted(self.hinted))
        self._flash(f"Hint: {state.notation(move)}")

    def _clear_targets(self) -> None:
        self.targets = frozenset()
        self._dirty = True

    # ------------------------------------------------------------------ moves
    def _take(self, found: list[Candidate], board: frozenset[str]) -> None:
        if len(found) == 1:
            return self._accept(found[0])
        self._offer(found, board)

    def _offer(self, found: list[Candidate], board: frozenset[str]) -> None:
        """Let the players pick among moves: taps count from now."""
        self.mode = "choose"
        self.choice = Choice(found, board)
        self._toggles.clear()
        self._clear_targets()
        self._emit("guide", action=self.choice.action, sites=self._sorted(self.choice.sites))

    def _choose_site(self, site: str) -> None:
        chosen = recognise.choose(self.choice.cands, site)
        if len(chosen) == 1:
            self._accept(chosen[0])
        elif chosen:
            self.choice = Choice(chosen, self.choice.board)
            self._emit("guide", action="pick", sites=self._sorted(self.choice.sites))

    def _accept(self, cand: Candidate, replaces: str | None = None) -> None:
        """Save the move (or, ``replaces`` given, the correction of the last move), then announce
        it and start its follow-ups."""
        state = self.states[-2] if replaces else self.state
        text, side = state.notation(cand.move), state.maker(cand.move)
        ply = len(self.moves) + (0 if replaces else 1)
        try:
            if replaces:
                self.storage.correct(self.game_id, ply, text, replaces)
            else:
                self.storage.add_move(self.game_id, ply, text)
        except StorageError as exc:
            self.message = str(exc)
            self._dirty = True
            return
        self.message = None
        if replaces:
            del self.states[-1], self.boards[-1], self.moves[-1]
        before = self.boards[-1]
        self._push(state.apply(cand.move), text)
        self.choice = None
        self._clear_targets()
        if replaces:
            self._emit("correction", move=text, replaces=replaces, side=side)
            self._flash(f"Corrected to {text}")
        else:
            self._emit("move", move=text, side=side)
        self._correctable = True
        self.mode, self.due = "follow", None
        self.turn = Turn(cand, before, cand.done, side)
        self._follow()

    def _push(self, state: GameState, text: str) -> None:
        self.hinted = frozenset()
        self.states.append(state)
        self.boards.append(state.occupied())
        self.moves.append(text)
        self._targets = {}

    # -------------------------------------------------------------- follow-ups
    def _follow(self) -> None:
        """Run the accepted move's follow-ups from the current one until one must wait."""
        turn = self.turn
        while (step := turn.current) is not None:
            if step.action == "pick" or self._step_done():
                turn.step += 1  # the move is known, so its pick is made
                continue
            if turn.announce():
                if turn.touches is not None:
                    turn.touches.see(self.board)
                self._emit("guide", action=step.action, sites=self._sorted(step.sites))
            return
        self.turn = None
        self._dirty = True
        outcome = self.state.outcome()
        if outcome:
            self._game_over(outcome)
        else:
            self._begin_turn()

    def _faces_shown(self, sites: frozenset[str]) -> bool:
        """True when polarity sensors read the face the game expects on every site."""
        north, faces = self.state.sides[0], self.state.faces()
        readings = [self._polarity.get(self.layout.sensor[site]) for site in sites]
        return all(r is not None and r == (faces.get(s) == north) for s, r in zip(sites, readings))

    def _follow_progress(self) -> None:
        step = self.turn.current
        if step is not None and step.action != "pick" and self._step_done():
            self._follow()

    def _step_done(self) -> bool:
        return self.turn.step_done(self.board, self._faces_shown if self._polarity is not None else None)

    def _begin_turn(self) -> None:
        self.mode = "move"
        offered = recognise.offered(self.state)
        self.due = self.state.due()
        if self.due is not None:
            self._emit("guide", action=self.due.action, sites=self._sorted(self.due.sites))
        elif offered:
            self._offer(offered, self.boards[-1])
        elif self.state.ok_move() is not None:
            self._emit("guide", action="confirm", sites=[])

    def _game_over(self, outcome: Outcome) -> None:
        self.mode = "over"
        self.choice = None
        self.storage.finish(self.game_id, result_text(outcome), outcome.winner)
        self._emit(
            "game_over",
            winner=outcome.winner,
            result=outcome.result,
            sites=self._sorted(self._win_sites(outcome)),
        )
        if self.match:
            self.match.record(self.state)
            self._emit("match", **self.match.event())

    def _win_sites(self, outcome: Outcome) -> set[str]:
        """The sites that show the win (a point may have several, e.g. an Antipod edge point)."""
        return {site for name in outcome.sites for site in self.state.sites_of(name)}

    def _flash(self, text: str) -> None:
        """Show ``text`` briefly: until the next board change or a few seconds pass."""
        self._flashed = (text, self._now + FLASH_MS)

    def _take_back(self, index: int) -> None:
        self._correctable = False
        unscore = self.mode == "over" and self.match is not None
        undone, played = self.moves[index:], self.state
        self.storage.truncate(self.game_id, index)
        del self.states[index + 1 :], self.boards[index + 1 :], self.moves[index:]
        self._targets = {}
        self.turn = self.choice = self.pending = None
        self._clear_targets()
        for text in reversed(undone):
            self._emit("takeback", move=text)
        if unscore:
            self.match.unrecord()
            self._emit("match", **self.match.event())
        steps = undo_steps(played, self.state)
        if not steps:
            return self._begin_turn()
        self.mode = "follow"  # what the sensors cannot see is undone by hand, step by step
        undo = Realisation(frozenset(), frozenset(), steps)
        self.turn = Turn(Candidate(None, undo), self.boards[-1], 0, self.state.to_move)
        self._follow()

    def new_game(self, game: Game) -> None:
        """Start ``game`` at once, as the menu's choice does (the simulator page's picker)."""
        self._new_game(game)

    def _new_game(self, game: Game) -> None:
        """Start ``game``: the next game of the match when it continues the one being played
        (an unfinished game is abandoned unscored), else a new match or a single game."""
        game = game.with_options(self.house_rules.get(game.name))
        if self.mode != "over":
            self.storage.finish(self.game_id, "abandoned")
        if not (self.match and game == self.game and not self.match.won):
            self.match = game.new_match()
        self._start(game, None)
        self._emit("new_game", game=game.name, size=game.size, variant=game.variant)
        self._rejudge()

    # -------------------------------------------------------------- idle spells
    def _wake(self) -> bool:
        """Someone is at the board: end an idle spell; True if one ended."""
        if self.idle is None or not self.idle.activity(self._now):
            return False
        self._emit("wake")
        return True

    def _idle_tick(self) -> None:
        what = self.idle.tick(self._now, self._events)
        if what == "attract":
            self._notice = self._answer = None
            if self.menu:
                self.menu.close()
            self._emit("attract")
        elif what == "frame":
            self._dirty = True

    # ----------------------------------------------------------------- output
    def _refresh(self) -> None:
        self._dirty = False
        frame = self._build_frame()
        if frame != self._frame:
            self._frame = frame
            self.frame_version += 1
        self._screen_due = True

    def _refresh_screen(self) -> None:
        if not self._screen_due:
            return
        self._screen_due = False
        shown = self._screen()
        if shown != self._shown:  # a new screen starts on its first page
            self._shown, self._shown_at = shown, self._now
        self._page = int((self._now - self._shown_at) // PAGE_MS)
        screen = replace(shown, page=self._page)  # what screen() gives now
        self._pages = len(screen.pages())
        lines = screen.text_lines()
        if lines != self._lines:
            self._lines = lines
            self._events.append({"t": self._now, "event": "display", "lines": list(lines)})

    def frame(self) -> dict[int, Led]:
        """LED channel -> what it shows now."""
        return self._frame
