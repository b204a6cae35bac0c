"""The player robot that follows the board.

It plays a board under test (:class:`~testbed.board_under_test.BoardUnderTest`) as a player at the
table does, and does only what the board shows it:

- whatever is lit asking for action is done, in a random order, with noise: ``remove`` (and the
  out-of-sync ``extra``, which looks the same) lifted, ``twin``, ``fill`` and ``missing`` placed,
  ``flip`` lifted and set back turned over, ``empty`` lifted (or, when the OLED names an unseen
  piece "… back to …", that piece carried), ``pick`` tapped on the landing it means; OK only
  where the OLED says OK does something; "Take back?" answered;
- when nothing asks and a side played at the table is to move, it picks an intention: a legal
  move made physically (a random realisation of the contract, in a random order, with noise),
  or one from the mix: a correction of its last move, a takeback (menu, command, or the pieces
  set back by hand), a new game (menu or command), another opponent (the computer on or off), a
  restart of the daemon.

It keeps its own belief of the game (its intentions, and the opponent's moves as the OLED
announces them) and of what the sensors cannot see (token faces, unseen pawns), and checks the
invariants whenever the board is idle (:meth:`Robot.check`); the first one broken is raised as
:class:`Violated`, with the stream that led to it.

>>> from firmware_host.board.controller import Game
>>> from testbed.board_under_test import BoardUnderTest
>>> robot = Robot(BoardUnderTest(Game.of("antipalos", 3)), random.Random(2))
>>> for _ in range(3):
...     robot.move()
>>> len(robot.moves), robot.board.held() == tuple(robot.moves)
(3, True)
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any, Iterable

from engines.core import GameState, IllegalMove, Realisation
from firmware_host import i18n
from firmware_host.board.turn import capital
from firmware_host.board.view import A_PIECE, NEXT_WORDS
from firmware_host.store.players import League
from firmware_host.store.timecontrol import Clocks
from firmware_host.ui import speech
from firmware_host.ui.screens import fit_name
from testbed.board_under_test import BoardUnderTest
from testbed.hands import NOISE, Hand, Segment, do

#: What the robot may mix into its play: the hands' noise, pieces resting on a wrong site before
#: going on (read as a move, then corrected), a neighbour knocked off and left for the board to
#: point out, follow-ups made in the player's own order rather than the lights', tokens held a
#: while as they are turned, the daemon restarting in the middle of a turn; ``two hands``: a
#: capture made by lifting the moving piece and the captured one together, held a while;
#: ``turn back``: a set-back by hand of the last turn (on paired boards, of the two turns)
#: turning its tokens back at once, held up to 2 s (the pieces may then equal an earlier
#: position; refused by the other board, the board asks to turn them over again); ``slow``: a
#: set-back by hand with pauses, so that the boards it passes through settle (half of it may
#: be a legal move).
KINDS = (*NOISE, "rest", "knock", "order", "hold", "crash", "two hands", "turn back", "slow")
#: Every game and variant the robot plays, small: (name, size, variant).
GAMES = (
    ("antipalos", 3, "two"),
    ("antipalos", 3, "team"),
    ("antipalos", 3, "cut-throat-3"),
    ("antipalos", 3, "cut-throat-4"),
    ("antipode", None, "standard"),
    ("antipode", None, "no-full-board-turn"),
    ("antipode", None, "no-repetition-draw"),
    ("antipode", None, "rulebook"),
    ("antipod", 4, None),
    ("anti-grid", 6, "plain"),
    ("anti-grid", 6, "chain"),
    ("phalanx", None, None),
)
#: What the robot intends when nothing asks, and how often (weights): moves, mostly.
MIX = {
    "move": 60,
    "correct": 6,
    "takeback menu": 4,
    "takeback command": 3,
    "takeback hands": 4,
    "new_game menu": 2,
    "new_game command": 1,
    "players menu": 2,
    "players command": 1,
    "restart": 3,
    "knock": 3,
}
#: What the café and the menu change at a table, joined to :data:`MIX` in the bench (a mix of
#: its own, so that the episodes found before play as they did): the players named by the
#: café, a league round sent to the table, another language chosen from the menu.
SEATING = {"names command": 2, "table command": 1, "language menu": 1}
#: Names the café gives the players at the seats (the OLED shows them whole).
NAMES = ("Anna", "Ben", "Chloé", "Dmitri", "Eun-ji", "Farah", "Gus", "Hélène")
#: The event a league round the robot is sent belongs to.
EVENT = "Robot league"
#: How long the robot reads the OLED for a line it must show (ms): a long screen's pages turn.
READ_MS = 7000
#: How many rounds of doing what the board asks an intention may take before the robot says the
#: board is stuck.
PATIENCE = 12
#: The longest the board keeps quiet about a piece in the hand (ms) before it says more.
HAND_WAIT_MS = 4000
#: The OLED's words for the opponent's move to carry out, and for an unseen piece to carry back.
TOLD = re.compile(r"^(?:Computer|Opponent) (?:plays|changed to) (\S+(?: - \S+)?): ")
CARRY = re.compile(r"(\w+) \w+: (\S+) back to ([^\s;,]+)")
ASKED = re.compile(r"^Opponent asks to undo (\d+) moves?$")


def planned(seed: int, mix: dict[str, int], length: int) -> list[str]:
    """An episode's ``length`` intentions, drawn from ``mix`` (name -> weight) by ``seed``.

    >>> planned(1, {"move": 1}, 2)
    ['move', 'move']
    """
    pick = random.Random(seed)
    names, weights = zip(*mix.items())
    return [pick.choices(names, weights)[0] for _ in range(length)]


def intend(rng: random.Random, seed: int, i: int, intention: str, over: bool) -> str:
    """Intention ``i`` of the episode ``seed``: ``rng`` seeded by both, so that leaving out an
    intention leaves the others' choices alone; a move or a correction once the game is
    ``over`` is a new game instead.

    >>> intend(random.Random(), 1, 0, "move", over=True)
    'new_game menu'
    """
    rng.seed(seed * 1_000_003 + i)
    return "new_game menu" if over and intention in ("move", "correct") else intention


@dataclass(frozen=True)
class Violation:
    """An invariant broken: which, in words, in which game, and the stream that led to it."""

    invariant: str
    detail: str
    game: str
    stream: str

    def __str__(self) -> str:
        return f"{self.invariant} ({self.game}): {self.detail}"


class Violated(Exception):
    """Raised with the first :class:`Violation` found."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(str(violation))
        self.violation = violation


class Robot:
    """Plays ``board`` with ``rng``'s choices and the noise ``kinds`` (from :data:`KINDS`);
    ``yes``: how often it agrees when the other board asks to take back; ``patient``: it waits
    for the opponent's move when idle (the computer; a paired board's robot moves in turn
    instead, see :mod:`testbed.pair`)."""

    def __init__(
        self,
        board: BoardUnderTest,
        rng: random.Random,
        kinds: Iterable[str] = KINDS,
        yes: float = 0.7,
        patient: bool = True,
    ) -> None:
        self.board, self.rng, self.kinds, self.yes = board, rng, frozenset(kinds), yes
        self.patient = patient
        self.others = {s for s in (board.computer(), board.remote_side()) if s}
        self.told: str | None = None  # the opponent's move the OLED asks to carry out
        self.resumed = False  # the daemon restarted while the robot followed its move
        self.want: tuple[str, Any, Realisation] | None = None  # the own move under way
        self.carried: set[str] = set()  # unseen pieces carried, their lights still on
        self.carrying: str | None = None  # the OLED's carry line they were carried for
        self.answered: list[bool] = []  # the other board's "Take back?", answered yes or no
        self.correctable = False  # its own move was the last thing done: it may change it
        self.heard = 0  # the board's events whose words are checked (check_said)
        self.games = [board.game_id()]  # the games begun as asked (:meth:`began`), the last one played
        self.asked = False  # a new game asked that the board has not yet begun
        self.left = (self.games[-1], "")  # the game (and its token) a new game was asked to leave
        self.tokens: dict[int, str] = {}  # game -> the token it is played under with another board
        self._new_belief()
        self.board.settle()

    # ------------------------------------------------------------------ belief
    def _new_belief(self) -> None:
        start = self.board.game.new()
        self.hand = Hand(self.rng, [s.label for s in start.sites()], self.kinds)  # the game's sites
        self.states: list[GameState] = [start]
        self.moves: list[str] = []
        self.faces = dict(start.faces())  # token faces as they stand (sensors cannot tell)
        self.pawns = dict(start.markers())  # unseen pieces as they stand
        self.in_hand: dict[str, str] = {}  # the faces of tokens lifted off

    @property
    def state(self) -> GameState:
        return self.states[-1]

    def _believe(self, text: str) -> None:
        if self.asked:  # a game played: the one asked, begun (or joined: paired, the same)
            self.check_game()
            self.asked = False
        self.states.append(self.state.play(text))
        self.moves.append(text)

    def _truncate(self, keep: int) -> None:
        del self.states[keep + 1 :], self.moves[keep:]
        self.correctable = False

    def over(self) -> bool:
        """The game is over: as the robot believes it, or on a flag."""
        return self.state.outcome() is not None or self.board.timed_out()

    def at_table(self) -> bool:
        """A side played at the table is to move (the game not over)."""
        return not self.over() and self.state.to_move not in self.others

    # ------------------------------------------------------------------ intentions
    def act(self, intention: str) -> None:
        """Do one intention of :data:`MIX` by its name: "move", "correct", "takeback hands",
        "new_game menu", "players command", "restart"... (the computer's side for "players" is
        drawn at random, or nobody)."""
        what, _, source = intention.partition(" ")
        if what == "takeback" and self.board.timed_out():
            what, source = "new_game", "menu"  # a flag ended the game: the players begin another
        if what == "move":
            self.move()
        elif what == "correct":
            self.correct()
        elif what == "takeback":
            self.take_back(source)
        elif what == "new_game":
            self.new_game(source)
        elif what == "players":
            self.players(self.rng.choice([None, *self.state.sides]), source)
        elif what == "restart":
            self.restart()
        elif what == "knock":
            self.knock()
        elif what == "names":
            self.names()
        elif what == "table":
            self.table()
        elif what == "language":
            self.language()
        else:
            raise ValueError(f"unknown intention {intention!r}")

    def knock(self) -> bool:
        """The side to move (at the table) knocks a token onto an empty neighbour so that the
        pieces equal one of its legal moves (a placement there turning that token), holds it
        0.6 s, then sets it right, in either order: no move was made, and the board must say
        none (against an opponent, send none). False when no knock here equals a move."""
        self.follow()
        if not self.at_table() or self.state.outcome():
            return False
        found = knocks_to_moves(self.state)
        if not found:
            return False
        token, onto, _ = self.rng.choice(found)
        seg = Segment()
        seg.add("lift", token)
        seg.add("place", onto, gap=0.03)
        self._perform(seg)
        self.board.settle()  # read as the move, its token in the hand
        seg = Segment()
        steps = [("place", token), ("lift", onto)]
        self.rng.shuffle(steps)
        for kind, site in steps:
            seg.add(kind, site, gap=self.rng.uniform(0.1, 0.5))
        self._perform(seg)
        self.correctable = False
        self.follow()
        self.check()
        return True

    def names(self) -> None:
        """The café names the players at the seats (``{"command": "players", "names": [...]}``,
        now and then nobody): the game goes on, its record keeps the names, and the OLED names
        the player to move (docs/cafe.md)."""
        self.follow()
        if self.over():
            return
        names = [] if self.rng.random() < 0.2 else self.rng.sample(NAMES, len(self.state.sides))
        self.board.command("players", names=names)
        self.follow()
        self.check()
        if self.board.seated()[0] != tuple(names):
            self.fail("names", f"the café named {names}, the record keeps {self.board.seated()[0]}")
        if names and self.at_table():
            name = fit_name(names[self.state.sides.index(self.state.to_move)])
            self._reads(lambda line: line.startswith(name) and line.endswith(" to move"), f"{name} to move")

    def table(self) -> None:
        """A league round at this table from the café (``{"command": "table", ...}``): the same
        game, a player per seat, no computer. The OLED shows "Table N: A – B" and asks each
        player's OK in turn ("A: press OK"); a move made before the last OK counts for
        nothing; then the board guides the set-up and the round's game begins, its record
        keeping the players and the round (docs/cafe.md)."""
        self.follow()
        g, sides = self.board.game, self.state.sides
        if len(self.state.seat_sides) != len(sides):
            return  # Team play's tables (a seat per player): tests/net/cafe/test_league_pods_on_boards.py
        names = self.rng.sample(NAMES, len(sides))
        league = League(EVENT, self.rng.randint(1, 999), self.rng.randint(1, 999))
        round_ = {"event": league.event, "round": league.round, "table": league.table, "control": "-"}
        self.board.command("table", names=names, game=g.name, size=g.size, variant=g.variant, **round_)
        self.others = set()  # the round is the players' alone
        self.began()
        self._new_belief()
        self.told, self.correctable = None, False
        title = f"Table {league.table}: {' – '.join(names)}"
        early = self.rng.randrange(len(names))  # a move made after this many OKs
        for i, name in enumerate(names):
            self._reads(lambda line: line == title, title)
            self._reads(lambda line: line == f"{name}: press OK", f"{name}: press OK")
            if i == early:
                self._too_early()
            self.board.press("ok")
            self.board.settle()
        self.new_belief(again=True)
        if self.board.seated() != (tuple(names), league):
            self.fail("table", f"the round's record keeps {self.board.seated()}, not {names} at {league}")

    def _too_early(self) -> None:
        """A move made by hand (its hand change) before every player has pressed OK: nothing
        is recorded, the board still asks for the OKs."""
        self.board.settle()
        state, here = self.state, self.board.occupied()
        if here != state.occupied():
            return  # the old game's pieces are still to clear: the set-up comes after the OKs
        real = self.rng.choice(state.realisations(self._choose(state)))
        seg = Segment()
        self.hand.change(seg, real.emptied, real.filled, here)
        for site in real.emptied:
            self.in_hand[site] = self.faces.pop(site, None)
        self._perform(seg)
        self.board.settle()
        if self.board.held():
            self.fail("table", f"{list(self.board.held())} recorded before every player pressed OK")

    def language(self) -> None:
        """The players choose another language from the menu mid-game (MENU, Language), read
        the OLED in it, then choose English again: each time the line saying whose turn it is
        and what to do speaks the language chosen; nothing else changes."""
        self.follow()
        if not self.at_table():
            return
        code = self.rng.choice([c for c in i18n.LANGUAGES if c != i18n.DEFAULT])
        english = self.board.screen()
        try:
            self.menu(_in(i18n.DEFAULT, "Language"), i18n.LANGUAGES[code])
            self._speaks(code, english)
            self.menu(_in(code, "Language"), i18n.LANGUAGES[i18n.DEFAULT])
            self._speaks(i18n.DEFAULT, english)
        except Violated:
            i18n.use(i18n.DEFAULT)  # the next board the process opens speaks its config's
            raise
        self.follow()
        self.check()

    def _speaks(self, code: str, english: tuple[str, ...]) -> None:
        """The OLED says whose turn it is in ``code``, and what to do (the instruction the
        English screen showed, ``english``) in its words or not at all (a crowded screen
        leaves it out), never in the words of the language before."""
        self.board.settle()
        to_move = _in(code, "{side} to move").replace("{side}", "")
        if not self.over():  # (a flag may fall meanwhile: the OLED then says who won)
            self._reads(lambda line: line.endswith(to_move), f"… {to_move.strip()}")
        stale = {line for line in english if _instruction(code, line) not in (None, line)}
        if self._shows(lambda line: line in stale):
            self.fail("shown", f"the OLED still shows {sorted(stale)} in English: {self.board.screen()}")

    def _reads(self, shows, what: str) -> None:
        """Read the OLED until a line ``shows``: else the board does not show ``what``."""
        if not self._shows(shows):
            self.fail("shown", f"the OLED does not show {what!r}: {self.board.screen()}")

    def _shows(self, shows) -> bool:
        """Whether a line the OLED shows ``shows``, read as a long screen's pages turn (for
        :data:`READ_MS` at most)."""
        for _ in range(READ_MS // 100):
            if any(shows(line) for line in self.board.screen()):
                return True
            self.board.run(100)
        return False

    def move(self) -> None:
        """Make a legal move of the side to move, if it is played here; else let the opponent's
        move come and carry it out."""
        self.follow()
        if not self.at_table():
            return
        self.correctable = False
        state = self.state
        move = self._choose(state)
        text = state.notation(move)
        if state.ok_move() is not None and text == state.notation(state.ok_move()):
            if not any("OK" in line for line in self.board.screen()):
                return self.fail("ok unsaid", f"OK would play {text}, the OLED does not say so")
            self.board.press("ok")
        else:
            real = self.rng.choice(state.realisations(move))
            self.want = (text, move, real)
            self._make(state, move, real)
        self._believe(text)
        self.resumed = False
        self.follow()
        self.want = None
        self.check()
        self.correctable = not self.resumed

    def correct(self) -> bool:
        """Change the robot's own last move (no follow-ups, the next side not yet begun) into
        another legal move of the same piece, lifted for a third of a second or more (or slid)
        to another site. False when the last move cannot be corrected so."""
        self.follow()
        if not self.correctable or self.state.outcome() or self.states[-2].to_move in self.others:
            return False
        before, last = self.states[-2], self.moves[-1]
        move = before.parse_move(last)
        real = before.realisations(move)[0]
        alts = _alternatives(before, move, real)
        if not alts:
            return False
        alt = self.rng.choice(alts)
        seg = Segment()
        if "slide" in self.kinds and self.rng.random() < 0.5:
            seg.add("slide", *sorted(real.filled), *sorted(alt), gap=0.1, length=0.08)
        else:
            seg.add("lift", *sorted(real.filled), gap=0.1)
            seg.add("place", *sorted(alt), gap=self.rng.uniform(0.34, 0.8))
        self._truncate(len(self.moves) - 1)
        self.told = None
        self._perform(seg)
        self._believe(before.notation(_move_of(before, real.emptied, alt)))
        self.follow()
        self.check()
        return True

    def take_back(self, source: str, ask: bool = False) -> int | None:
        """Take back by ``source``: ``menu`` (MENU, Take back), ``command`` (as the page and the
        café network send it) or ``hands`` (the pieces set back to the earlier position). The
        board then guides the rest (what the sensors cannot see). How many moves it keeps (None:
        nothing to take back). ``ask``: the other board must agree first; the robot goes on
        with :meth:`agreed` once it has answered."""
        self.follow()
        self.correctable = False
        keep = self._keep()
        by_hand = source == "hands"
        if (
            keep is None
            or by_hand
            and (
                self.over()  # a flag fell while it followed: the pieces lifted would set up
                or self.states[keep].to_move in self.others
                or self.states[keep].occupied() == self.board.occupied()
                or _a_move_shows(self.state, self.states[keep].occupied())
            )
        ):
            return None  # by hand: only the players' own positions, in a game not over, that the
            # pieces do not show already (Anti-Grid's OK ending a chain moves none) and no move
            # of the side to move shows too (the sensors do not see whose piece stands where)
        if source == "menu":
            self.menu("Take back")
        elif source == "command":
            self.board.command("takeback")
        else:
            self._set_back(keep)
            keep = self._recognised(keep)
        if not ask:
            self.agreed(keep)
        return keep

    def agreed(self, keep: int | None) -> None:
        """The takeback to ``keep`` moves happened (None: it was refused); follow the board."""
        if keep is not None:
            self._truncate(keep)
            self.told = None
        self.follow()
        self.check()

    def new_game(self, source: str) -> None:
        """A new game of the same kind from the menu or by a command; the board then guides
        the clearing and the setting up."""
        self.follow()
        if source == "menu":
            self.menu("New game")
        else:
            self.board.command("new_game")
        self.new_belief()

    def players(self, side: str | None, source: str) -> None:
        """The computer plays ``side`` (None: nobody) from a new game: from the menu (Players)
        or by a command."""
        self.follow()
        if source == "menu":
            together = "Two at the table" if len(self.state.sides) == 2 else "All at the table"
            self.menu("Players", f"Computer: {side}" if side else together)
        else:
            self.board.command("players", side)
        self.others = {side} if side else set()
        self.new_belief()

    def restart(self) -> None:
        """The daemon restarts (a new controller from the same database); a finished game is
        not resumed: a new one begins."""
        self.correctable = False
        game, clocks, over = self.board.game_id(), self.board.clocks(), self.over()
        shown = clocks.shown(self.board.now_ms) if clocks is not None else {}
        self.board.restart()
        if self.board.game_id() != game and not over:
            return self._unasked(f"a restart must resume game {game}, not over")
        if self.board.game_id() != game:
            return self.new_belief()
        self.check_resumed(shown)
        self.follow()
        self.check()

    def new_belief(self, again: bool = False) -> None:
        """A new game began (here or, paired, on the other board): follow its setting up
        (``again``: the new game asked last, followed once more)."""
        self.correctable = False
        self.began(again)
        self._new_belief()
        self.told = None
        self.follow()
        self.check()

    # ------------------------------------------------------------------ what the board asks
    def asks(self) -> dict[str, str]:
        """Site -> what the lights ask the robot to do there: lift, place, flip, carry, tap;
        "pawns" when the unseen pieces stand elsewhere than the violet markers show."""
        lit, here = self.board.lit(), self.board.occupied()
        out = {}
        for site, kind in lit.items():
            if kind == "remove" and site in here:
                out[site] = "lift"
            elif kind in ("twin", "fill", "missing") and site not in here:
                out[site] = "place"
            elif kind == "flip":
                out[site] = "flip"
            elif kind == "carry" and site not in self.carried:
                out[site] = "carry"
            elif kind == "empty" and site in here:
                out[site] = "lift"
            elif kind in ("pick", "picked") and self._landing() == site:
                out[site] = "tap"
        markers = {site for site, kind in lit.items() if kind == "marker"}
        if markers and markers != set(self.pawns) and markers == set(self.state.markers()):
            out[min(markers)] = "pawns"  # unseen pieces stand elsewhere than the violet sites
        return out

    def follow(self) -> None:
        """Do what the board asks until it asks nothing (at most :data:`PATIENCE` rounds), then
        wait for the opponent's move if it is the opponent's turn. The daemon restarts at most
        once meanwhile: each restart before a league round's first move asks every player's OK
        again, so restarts in a row would use up the rounds the board's asks need."""
        crashed = False
        for _ in range(PATIENCE):
            if not self.board.settle():
                return self.fail("unsettled", "the lights and screen never stop changing")
            self.carried &= {s for s, kind in self.board.lit().items() if kind == "carry"}
            if (line := self._carry_line()) != self.carrying:  # a new carry asked (a takeback's)
                self.carried, self.carrying = set(), line
            self._hear()
            self._silent()
            if self._answer() or self._ready():
                continue
            if self._waits():
                continue
            asks = self.asks()
            if not asks:
                self.check_record()
                if self._opponent_moves():
                    continue
                return
            if (
                "crash" in self.kinds
                and not crashed
                and self.rng.random() < 0.05
                and self.board.held() == tuple(self.moves)
                and not self.over()  # a game over is not resumed: a new one begins ("restart")
            ):
                self.board.restart()  # the daemon restarts amid the guidance of what is recorded
                crashed = True
                self.resumed = True  # a resumed game's last move stands
                continue
            self._due(asks)
            self._do(asks)
        self.fail("stuck", f"still asked {self.asks()} after {PATIENCE} rounds; OLED {self.board.screen()}")

    def _waits(self) -> bool:
        """The board waits for a piece in the hand or a set-back under way, then says more: wait
        until it does (at most :data:`HAND_WAIT_MS`); True if it waited."""
        waiting = (  # the endings of board/view.py's words for a hold, a doubt, a token off
            "leave it off to undo",
            "or set it as it was",
            " in the hand",
            "or it's a move",
            "to keep the move",
            "Set the rest back",
        )
        said = lambda: any(line.endswith(waiting) for line in self.board.screen())  # noqa: E731
        if not said():
            return False
        for _ in range(HAND_WAIT_MS // 100):
            self.board.run(100)
            if not said():
                break
        return True

    def _hear(self) -> None:
        """The opponent's move the OLED asks to carry out."""
        for line in self.board.screen():
            told = TOLD.match(line)
            if told and not self._believed(told.group(1)):
                self.told = told.group(1)
                mine = self.state.to_move not in self.others
                if " changed to " in line and mine and self.moves and self.moves[-1] != self.told:
                    self._truncate(len(self.moves) - 1)  # the other board corrected its move

    def _believed(self, told: str) -> bool:
        """Whether ``told`` is the opponent's move last believed (still said a while)."""
        return bool(self.moves) and self.moves[-1] == told and self.states[-2].to_move in self.others

    def _silent(self) -> None:
        """The opponent's move that changes nothing the sensors see (OK ending a capture
        chain; a pawn moved, tokens to turn over), told on the OLED and recorded: part of the
        game (its flips are then done as lit)."""
        recorded = self.board.held()[len(self.moves) :][:1]
        if not self.told or self.state.to_move not in self.others or recorded != (self.told,):
            return
        try:
            move = self.state.parse_move(self.told)
            self.state.check(move)
        except IllegalMove:
            return  # the record check says so
        real = self.state.realisations(move)[0]
        if not (real.emptied or real.filled):
            self._believe(self.told)
            self.told = None

    def _opponent_moves(self) -> bool:
        """When the opponent (not at the table) is to move, wait for its move to be lit; True
        once it is."""
        if not self.patient or self.over() or self.state.to_move not in self.others:
            return False
        for _ in range(int(self.board.opponent_ms // 100)):
            self.board.run(100)
            if self.asks():
                return True
        return self.fail(
            "opponent silent",
            f"{self.state.to_move} (not at the table) never moves; OLED {self.board.screen()}",
        )

    def _due(self, asks: dict[str, str]) -> None:
        """Lights asking for a whole turn's removal (a side's due): that is the move meant."""
        due = self.state.due()
        if due is not None and {s for s, what in asks.items() if what == "lift"} == set(due.sites):
            (move,) = self.state.legal_moves()
            self._believe(self.state.notation(move))
            self.told = None  # the opponent's, when told: believed

    def _do(self, asks: dict[str, str]) -> None:
        """Do what is asked, in a random order; the opponent's move once carried out is part
        of the game."""
        lit = self.board.lit()
        opponents = self.told if any(lit[s] in ("fill", "empty") for s in asks) else None
        seg = Segment()
        order = sorted(asks.items())
        self.rng.shuffle(order)
        hold = (0.4, 1.2) if "hold" in self.kinds else (0.1, 0.9)
        for site, what in order:
            if what == "lift":
                seg.add("lift", site, gap=self.rng.uniform(0.05, 0.3))
                self.in_hand[site] = self.faces.pop(site, None)
            elif what == "place":
                seg.add("place", site, gap=self.rng.uniform(0.05, 0.3))
                self._put_down(site)
            elif what == "flip":
                self._flip(seg, [site], hold)
            elif what == "tap":
                return self._pick(site)
            elif what == "pawns":
                self.pawns = dict(self.state.markers())
            else:
                self._carry(site)
        self._perform(seg)
        if opponents and self.state.to_move in self.others:
            self.correctable = False
            try:
                self._believe(opponents)
            except IllegalMove as exc:
                self.fail(
                    "intended",
                    f"the board had {opponents} carried out, illegal in the game meant {self.moves}: {exc}",
                )
            self.pawns = dict(self.state.markers())
            self.told = None

    def _pick(self, site: str) -> None:
        """Choose the landing: a tap, or BACK until the OLED offers the move, then OK."""
        text = self.want[0]
        if self.rng.random() < 0.7:
            seg = Segment()
            self.hand.tap(seg, site, self.board.occupied())
            return self._perform(seg)
        shown = (f"OK: {site}, BACK", f"OK: {text}, BACK")  # the candidate shown, by site or move
        for _ in range(8):
            if any(offer in line for line in self.board.screen() for offer in shown):
                self.board.press("ok")
                return
            self.board.press("back")
            self.board.run(150)

    def _carry(self, site: str) -> None:
        """The unseen piece on ``site`` carried where the OLED says; once every lit one is,
        OK (the OLED asks for it)."""
        line = self._carry_line() or ""
        for side, frm, to in CARRY.findall(line):
            if frm == site and self.pawns.get(frm) == side.lower():
                del self.pawns[frm]
                self.pawns[to] = side.lower()
        self.carried.add(site)
        lit = {s for s, kind in self.board.lit().items() if kind == "carry"}
        if line.endswith("then OK") and lit <= self.carried:
            self.board.press("ok")

    def _carry_line(self) -> str | None:
        return next((line for line in self.board.screen() if CARRY.match(line)), None)

    def _landing(self) -> str | None:
        """The pick site of the robot's own move under way (None: none)."""
        if self.want is None:
            return None
        picks = [s for s in self.want[2].follow_ups if s.action == "pick"]
        return min(picks[0].sites) if picks else None

    def _ready(self) -> bool:
        """A league round's player asked to press OK ("Anna: press OK"; asked again after a
        restart before the round's first move): OK; True if asked."""
        if not any(line.endswith(": press OK") for line in self.board.screen()):
            return False
        self.board.press("ok")
        self.board.settle()
        return True

    def _answer(self) -> bool:
        """Answer the other board's "Take back?" (OK: yes, BACK: no); True if asked."""
        if "Take back?" not in self.board.screen():
            return False
        asked = next((ASKED.match(line) for line in self.board.screen() if ASKED.match(line)), None)
        lit = set(self.board.lit().values()) & {"fill", "empty"}  # the opponent's move lit here
        pending = int(self.state.to_move in self.others and bool(lit or self.told))
        yes = self.rng.random() < self.yes
        self.answered.append(yes)
        self.board.press("ok" if yes else "back")
        self.board.run(100)
        if yes and asked:  # the moves undone count the opponent's move being carried out here
            self._truncate(len(self.moves) + pending - int(asked.group(1)))
            self.told = None
        return True

    # ------------------------------------------------------------------ hands
    def _choose(self, state: GameState):
        """A random legal move; a capture half the time when there is one (games end)."""
        moves = sorted(state.legal_moves(), key=state.notation)
        taking = {state.notation(m) for m, _, _ in state.taking_moves()}
        captures = [m for m in moves if state.notation(m) in taking]
        return self.rng.choice(captures if captures and self.rng.random() < 0.5 else moves)

    def _make(self, state: GameState, move, real: Realisation) -> None:
        """The hand change of ``move`` (resting first on another site, if the robot so chooses),
        with noise; some follow-ups in the robot's own order; the rest is left to the lights."""
        rng, here = self.rng, self.board.occupied()
        rest = _alternatives(state, move, real) if "rest" in self.kinds and rng.random() < 0.2 else []
        self._place_faces(state, move, real)
        seg = Segment()
        if rest:  # rests on another site long enough to be read, then goes on
            spot = rng.choice(rest)
            self.hand.change(seg, real.emptied, spot, here)
            self._perform(seg)
            self.board.settle()
            seg = Segment()
            self.hand.change(seg, spot, real.filled, self.board.occupied())
            return self._perform(seg)
        early = self._early(seg, real) if "order" in self.kinds and rng.random() < 0.5 else ""
        start = seg.t
        if early == "two hands":  # the moving piece is in the hand already
            here = here - real.emptied - real.follow_ups[0].sites
            after = self.hand.change(seg, frozenset(), real.filled, here)
        else:
            after = self.hand.change(seg, real.emptied, real.filled, here)
        self.hand.noise(seg, start, after, here, real.emptied | real.filled | _touches(state, real))
        if early == "tap placement":
            self.hand.tap(seg, min(real.filled), after)
        self._knock(seg, after, real, move)
        self._perform(seg)

    def _early(self, seg: Segment, real: Realisation) -> str:
        """A follow-up the player makes before or with the hand change, which one (empty: none):
        a capture lifted first, the landing tapped before placing (the pawn moved first) or the
        placement tapped at once when the pawn lands on it, the tokens to flip turned by the
        other hand, the last one down 60 ms after the placement."""
        steps, here, landing = real.follow_ups, self.board.occupied(), self._landing()
        flips = {s for step in steps if step.action == "flip" for s in step.sites}
        if steps and steps[0].action == "remove":
            if "two hands" in self.kinds and self.rng.random() < 0.5:  # both lifted, held
                for site in (*sorted(real.emptied), *sorted(steps[0].sites)):
                    seg.add("lift", site, gap=self.rng.uniform(0.02, 0.1))
                seg.t += self.rng.uniform(0.2, 1.0)
                return "two hands"
            self.hand.step(seg, steps[0], here)
            return "remove"
        if landing is not None and landing in real.filled:
            return "tap placement"
        if landing is not None and landing in here and landing not in flips and self.rng.random() < 0.5:
            self.hand.tap(seg, landing, here, (0.2, 0.8))  # a tap before the move shows: 0.2 s
            return "tap landing"
        if steps and steps[0].action == "flip" and real.filled:
            self._flip(seg, steps[0].sites, (0.2, 0.4))  # a flip takes 0.2 s at least
            seg.t -= 0.06
            return "flip"
        return ""

    def _knock(self, seg: Segment, board: frozenset[str], real: Realisation, move) -> None:
        """A neighbour knocked off by the moving hand and left off (the board points it out),
        never a token the move turns over or taps (its lift would be that token's flip under
        way), where that leaves the move recognisable: no other legal move, nor a correction of
        the last one, is as near to the board as the move itself, the pieces left do not
        stand as in an earlier position (the pieces set back by hand, to the board), and the
        game goes on."""
        if "knock" not in self.kinds or self.rng.random() > 0.1:
            return
        steps = frozenset().union(*(step.sites for step in real.follow_ups))  # the move's own touches
        site = self.rng.choice(sorted(board - real.filled - steps) or [None])
        if (
            site is None
            or not _knock_clear(self.states[-2:], board, site, move)
            or any(board - {site} == state.occupied() for state in self.states)
            or self.state.apply(move).outcome()
        ):
            return  # nor after a move that ends the game: the board then only asks to set up
        seg.add("lift", site, gap=0.05)
        self.in_hand[site] = self.faces.pop(site, None)

    def _flip(self, seg: Segment, sites: Iterable[str], hold: tuple[float, float]) -> None:
        """Tokens turned over (lifted and set back): their faces change (one in the hand, off
        the board, is set down turned)."""
        sites = list(sites)
        self.hand.flip(seg, sites, hold)
        sides = self.state.sides
        for site in sites:
            if site not in self.faces and self.in_hand.get(site) is not None:
                self.faces[site] = self.in_hand.pop(site)
            if site in self.faces:
                self.faces[site] = sides[1 - sides.index(self.faces[site])]

    def _perform(self, seg: Segment) -> None:
        begin = self.board.now_ms + self.rng.uniform(50, 300)
        for action in seg.actions:
            self.board.run(max(0.0, begin + 1000 * action.dt - self.board.now_ms))
            do(action, self.board)
        self.board.run(max(0.0, begin + 1000 * seg.end - self.board.now_ms))

    # ------------------------------------------------------------------ what sensors cannot see
    def _place_faces(self, state: GameState, move, real: Realisation) -> None:
        """The placed tokens go down with the face that the move's flips leave right; the pawn
        goes to its landing."""
        for site in real.emptied:
            self.faces.pop(site, None)
        for site, face in _placed_faces(state, move, real).items():
            self.faces[site] = face
        self.pawns = dict(state.apply(move).markers())

    def _put_down(self, site: str) -> None:
        """A token set down: the face the opponent's move puts it down with, else the face it
        had when lifted, else the one the game has there."""
        face, held = None, self.in_hand.pop(site, None)
        if self.told and self.state.to_move in self.others:
            try:
                move = self.state.parse_move(self.told)
                face = _placed_faces(self.state, move, self.state.realisations(move)[0]).get(site)
            except IllegalMove:
                face = None  # the told move is not legal here: the record check says so
        face = face or held or self.state.faces().get(site)
        if face is not None:
            self.faces[site] = face

    def _set_back(self, keep: int) -> None:
        """The pieces set back by hand, quickly, to the position after ``keep`` moves."""
        target, here = self.states[keep].occupied(), self.board.occupied()
        was = self.states[keep].faces()
        seg = Segment()
        order = sorted(here ^ target)
        self.rng.shuffle(order)
        gaps = (0.3, 1.0) if "slow" in self.kinds and self.rng.random() < 0.3 else (0.05, 0.2)
        for site in order:
            seg.add("place" if site in target else "lift", site, gap=self.rng.uniform(*gaps))
            if site in target and site in was:
                self.faces[site] = was[site]
            elif site not in target:  # in the hand as it was (set down so if the board asks)
                self.in_hand[site] = self.faces.pop(site, None)
        if (
            "turn back" in self.kinds
            and (keep == len(self.moves) - 1 or self.board.remote_side())
            and self.rng.random() < 0.5
        ):
            turned = {s for s in target & here if was.get(s) and self.faces.get(s) not in (None, was[s])}
            self._flip(seg, turned, (0.2, 2.0))  # turned back with the set-back, the board not asked
        self._perform(seg)

    def _keep(self) -> int | None:
        """How many moves a takeback keeps: the last one undone; against an opponent not at the
        table, its last turn and the players' turn before it (None: nothing to take back)."""
        keep = len(self.moves)
        if keep == 0:
            return None
        if not self.others:
            return keep - 1
        while keep > 0 and self.states[keep - 1].to_move in self.others:
            keep -= 1
        while keep > 0 and self.states[keep - 1].to_move not in self.others:
            keep -= 1
        return keep if keep < len(self.moves) else None

    def _recognised(self, keep: int) -> int:
        """The position the board goes back to when the pieces show the one after ``keep``
        moves: the most recent earlier one showing the same pieces."""
        board = self.states[keep].occupied()
        for index in range(len(self.moves) - 1, keep - 1, -1):
            if self.states[index].occupied() == board and self.states[index].to_move not in self.others:
                return index
        return keep

    # ------------------------------------------------------------------ the menu
    def menu(self, *items: str) -> None:
        """MENU, then each item chosen: MENU until it is highlighted, OK."""
        self.board.press("menu")
        self.board.run(100)
        for item in items:
            for _ in range(16):
                if f"> {item}" in self.board.screen():
                    break
                self.board.press("menu")
                self.board.run(100)
            else:
                return self.fail("menu", f"no menu item {item!r}: {self.board.screen()}")
            self.board.press("ok")
            self.board.run(100)

    # ------------------------------------------------------------------ invariants
    def check(self) -> None:
        """The invariants of an idle board: the record (:meth:`check_record`), and the pieces,
        the token faces and the unseen pieces standing as the game has them; a flag fallen
        ends the game (the pieces then stand as they may)."""
        self.check_record()
        self.check_said()
        if self.check_flag():
            return
        b = self.board
        want, here = self.state.occupied(), b.occupied()
        if here != want:
            return self.fail(
                "sync",
                f"nothing asked, yet pieces missing {sorted(want - here)}, "
                f"extra {sorted(here - want)}; OLED {b.screen()}",
            )
        faces = dict(self.state.faces())
        if self.faces != faces:
            wrong = sorted(s for s in faces if self.faces.get(s) != faces[s])
            return self.fail("faces", f"tokens {wrong} show the wrong face after following the board")
        if self.pawns != dict(self.state.markers()):
            return self.fail(
                "unseen", f"unseen pieces at {self.pawns}, the game has {dict(self.state.markers())}"
            )

    def began(self, again: bool = False) -> None:
        """A new game asked (a new game, other players, a league round, a restart once the game
        is over; paired, at the other board too): the game the board plays now is the one
        played from now on (a board read over the network may begin it a while later), unless
        it is one played before. ``again``: the same request once more (a league round's game
        once its players' OKs are in), so the game it left is the one left before."""
        if not (self.asked or again):
            self.left = (self.games[-1], self.tokens.get(self.games[-1], ""))
        self.asked = True
        self.check_game()

    def check_game(self) -> None:
        """The board plays the game begun last as asked (:meth:`began`): it never begins a game
        on its own (a flag falling, a token set down, a restart), nor goes back to an earlier
        one, nor plays under an earlier game's token (joined again with the other board). The
        robot never sets the start up by hand to begin a game (a board whose game is over
        begins the next one so): a game begun from the pieces its hands leave, doing what the
        board asks, is one nobody asked for (a token in the hand to be turned as a flag fell)."""
        game = self.board.game_id()
        if game != self.games[-1] and (game in self.games or not self.asked):
            return self._unasked(f"the robot plays game {self.games[-1]}")
        if game != self.games[-1]:
            self.games.append(game)
            self.asked = False
        if not isinstance(self.board, BoardUnderTest):
            return  # a field board's token is read from the broker, late
        token = self.board.token()
        earlier = [g for g, t in self.tokens.items() if t == token and g != game]
        if token and earlier:
            return self.fail(
                "new game not asked",
                f"game {game} joined again game {earlier[0]} played with the other board (token {token})",
            )
        self.tokens[game] = token

    def check_begun(self) -> None:
        """A new game asked has begun by the time the robot checks the board it followed: a
        new game, or (paired) the other board's new game joined under a new token. A board
        read over the network (a field board) may begin it later: its game is not checked."""
        b = self.board
        if self.asked and isinstance(b, BoardUnderTest) and (b.game_id(), b.token()) == self.left:
            self.fail(
                "new game not begun",
                f"a new game was asked, the board plays game {self.left[0]} on; OLED {b.screen()}",
            )

    def _unasked(self, why: str) -> None:
        game = self.board.game_id()
        how = "went back to" if game in self.games else "began"
        self.fail(
            "new game not asked",
            f"the board {how} game {game} on its own ({why}); OLED {self.board.screen()}",
        )

    def check_said(self) -> None:
        """With the loop's speaker (``say`` events): every move recorded and every correction
        is said in the step that tells it, naming its side (a player who cannot see the board
        hears the game)."""
        b = self.board
        if b.speaker is None:
            return
        events, self.heard = b.events[self.heard :], len(b.events)
        said = [(e["t"], e["text"]) for e in events if e["event"] == "say"]
        for e in events:
            if e["event"] in ("move", "correction"):
                who = speech.side(e.get("side"))
                if not any(t == e["t"] and who in text for t, text in said):
                    heard = [text for t, text in said if t == e["t"]]
                    self.fail("unsaid", f"{e['event']} {e['move']} at {e['t']:.0f} ms; said {heard}")

    def check_resumed(self, shown: dict[str, float]) -> None:
        """After a restart: every clock as stored after the last move, none showing less than it
        did before (the turn under way when the daemon stopped is charged to nobody) by a whole
        millisecond, the record's unit (a clock read between milliseconds is kept rounded)."""
        b = self.board
        clocks = b.clocks()
        if clocks is None or not shown:
            return
        kept = b.storage.clocks(b.game_id())
        stored = (
            json.loads(kept[max(kept)])["left"] if kept else Clocks.start(clocks.control, tuple(shown)).left
        )
        if dict(clocks.left) != stored or any(clocks.left[s] <= ms - 1 for s, ms in shown.items()):
            self.fail(
                "clock restart",
                f"the clocks showed {shown}, stored {stored}, after a restart {dict(clocks.left)}",
            )

    def check_flag(self) -> bool:
        """Whether the game ended on a flag, as it must once a flag falls in a game of two
        that is not casual: stored as won "by time"."""
        b = self.board
        clocks = b.clocks()
        if clocks is None or clocks.flag is None or b.controller.clock.casual or len(self.state.sides) > 2:
            return False
        games = b.storage.games(b.game_id())
        if not b.timed_out() or not games or not (games[0].result or "").endswith("by time"):
            self.fail("flag", f"{clocks.flag}'s flag fell, the game goes on; OLED {b.screen()}")
        return True

    def check_record(self) -> None:
        """The stored record is the game the controller holds, a legal game, the one meant (a
        flag ends the game: a move, or a takeback, made after it fell is none); the game the
        robot asked for (:meth:`check_game`), begun once asked (:meth:`check_begun`)."""
        self.check_game()
        self.check_begun()
        b = self.board
        held = b.held()
        if b.timed_out():
            self._flagged(held)
        if b.stored() != held:
            return self.fail("record", f"stored {b.stored()} but the controller holds {held}")
        if held == tuple(self.moves):
            return  # the game meant, each move played by the engine as the robot believed it
        try:
            state = b.game.new()
            for text in held:
                state = state.play(text)
        except Exception as exc:  # noqa: BLE001 - any refusal by the engine is the finding
            return self.fail("legal", f"{held} is not a legal game: {exc}")
        if held != tuple(self.moves):
            return self.fail("intended", f"recorded {list(held)}, meant {self.moves}")

    def _flagged(self, held: tuple[str, ...]) -> None:
        """The game ended on a flag: the robot's last move (or its correction, or a takeback)
        made after it fell is none, so what the board holds from there on stands."""
        same = next(
            (i for i, (a, b) in enumerate(zip(held, self.moves)) if a != b), min(len(held), len(self.moves))
        )
        if same < min(len(held), len(self.moves)) - 1:
            return  # more than the last move differs: check_record says so
        self._truncate(same)
        for text in held[same:]:
            self._believe(text)

    def fail(self, invariant: str, detail: str) -> None:
        g = self.board.game
        name = " ".join(str(x) for x in (g.name, g.size, g.variant) if x)
        raise Violated(Violation(invariant, detail, name, self.board.dump()))


def _in(code: str, message: str) -> str:
    """``message`` in the language ``code``, as its catalogue has it."""
    return i18n.translations(code).gettext(message)


def _instruction(code: str, line: str) -> str | None:
    """An OLED line saying what a move is (board/view.py's words for a piece placed, lifted or
    taken off) in the language ``code`` (None: ``line`` says no such thing)."""
    templates = ("Place {a_piece}, or lift one to move it", *NEXT_WORDS.values())
    for template in templates:
        for piece in A_PIECE.values():
            if capital(template.format(a_piece=piece)) == line:
                return capital(_in(code, template).format(a_piece=_in(code, piece)))
    return None


def _placed_faces(state: GameState, move, real: Realisation) -> dict[str, str]:
    """The faces tokens placed by ``move`` go down with: the move's flips turn them right."""
    faces, sides = state.apply(move).faces(), state.sides
    out = {}
    for site in real.filled & set(faces):
        flips = sum(site in step.sites for step in real.follow_ups if step.action == "flip")
        out[site] = faces[site] if flips % 2 == 0 else sides[1 - sides.index(faces[site])]
    return out


def _alternatives(state: GameState, move, real: Realisation) -> list[frozenset[str]]:
    """The sites of other legal moves the same lifted piece makes onto one other site, alone
    and with no follow-ups (a correction, or a rest on the way)."""
    if len(real.filled) != 1 or real.follow_ups:
        return []
    text, out = state.notation(move), []
    for other in sorted(state.legal_moves(), key=state.notation):
        for alt in state.realisations(other)[:1]:
            if (
                state.notation(other) != text
                and alt.emptied == real.emptied
                and len(alt.filled) == 1
                and not alt.follow_ups
                and not alt.filled & real.filled
                and len(state.moves_for_change(alt.emptied, alt.filled)) == 1
                and not state.apply(other).outcome()
            ):
                out.append(alt.filled)
    return out


def _a_move_shows(state: GameState, board: frozenset[str]) -> bool:
    """Whether a legal move of the side to move leaves the pieces standing as ``board``."""
    here = state.occupied()
    return bool(state.moves_for_change(here - board, board - here))


def _touches(state: GameState, real: Realisation) -> frozenset[str]:
    """The tokens that the moves the board cannot tell from ``real`` by its hand change tap or
    turn over (a bump of one is that touch, to the board as to anyone watching)."""
    return frozenset().union(
        *(
            step.sites
            for _, r, _ in state.moves_for_change(real.emptied, real.filled)
            for step in r.follow_ups
        )
    )


def _knock_clear(states: list[GameState], board: frozenset[str], site: str, move) -> bool:
    """Whether ``board`` (``move``'s) with the piece on ``site`` knocked off still points to that
    move alone: one change away from no other legal move's board, no correction of the move
    before, and not a piece the next side may be lifting to move (``states``: the position
    before that move, if any, and the one to move in)."""
    *before, state = states
    if state.apply(move).targets(site):
        return False
    knocked = board - {site}
    near = {knocked ^ {s} for s in knocked ^ state.occupied()}
    if {b for b in near if _a_move_shows(state, b)} != {board}:
        return False
    return not (before and _a_move_shows(before[0], knocked))


def knocks_to_moves(state: GameState) -> list[tuple[str, str, str]]:
    """(token, empty site, move) triples such that the token pushed onto that site leaves the pieces
    as a legal move of the side to move shows them with the token in the hand: a placement
    there that turns the token over and may land the pawn on it (Antipode's a4:a5, a5 knocked
    onto a4; other landings may be offered to tap).

    >>> from engines import new_game
    >>> knocks_to_moves(new_game("antipalos", 3))
    []
    """
    out = []
    for move in sorted(state.legal_moves(), key=state.notation):
        real = state.realisations(move)[0]
        steps = real.follow_ups
        if (
            not real.emptied
            and len(real.filled) == 1
            and [s.action for s in steps] == ["flip", "pick"]
            and steps[0].sites == steps[1].sites
            and len(steps[0].sites) == 1
        ):
            out.append((min(steps[0].sites), min(real.filled), state.notation(move)))
    return out


def _move_of(state: GameState, emptied: frozenset[str], filled: frozenset[str]):
    (found,) = {state.notation(m): m for m, _, _ in state.moves_for_change(emptied, filled)}.values()
    return found
