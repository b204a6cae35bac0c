"""Every message the daemon can put on the 128x64 OLED, in every game, at its longest, laid out
with the real fonts: nothing leaves the panel, nothing is cut or dropped.

Every language the board speaks is laid out (the daemon's words from its catalogues; the
engines' own words are English). The texts come from where the daemon gets them: the engines'
own refusal reasons (asked as the controller asks them, for every site of positions from seeded
random games), their status lines and results, the controller's instructions and board-differs
line, the menus walked item by item and the notices. Each status screen is built with all its
parts at once: the worst case.
"""

from __future__ import annotations

import random
from itertools import islice

import pytest

import engines
from firmware_host import i18n
from firmware_host.board import turn
from firmware_host.board.game import Game
from firmware_host.board.opponent import Computer
from firmware_host.board.recognise import attempt_reason
from firmware_host.board.view import SET_BACK
from firmware_host.net.mqtt.remote import OFFLINE, Remote
from firmware_host.ui import screens
from firmware_host.ui.menu import Menu, game_choices
from firmware_host.ui.screens import message_screen, result_words, status_screen
from firmware_host.ui.stats import Day, day_screen
from hardware.base import ButtonEvent
from testbed.language import speaking

#: How many random positions per game are asked for refusal reasons, and how many sites each;
#: how long the random games are.
POSITIONS, SITES, PLIES = 6, 40, 80


def shown_whole(screen):
    """True when the screen's pages each fit the panel and together show every line, and a
    status screen's instruction (and error) is on every page; a page shows each other line
    whole, or some of the things it says (" · "), never a piece cut between words, and never
    a label ("Took back:") without what it labels."""
    pages = screen.pages()
    if not all(screens.fits(page) for page in pages):
        return False
    if any(line.endswith(":") for page in pages for line in page.lines):
        return False
    kept = screen.lines[: screen.keep]
    if len(pages) == 1:
        return True

    def words(lines):
        return "".join(lines).replace("·", "").replace(" ", "")

    rest = [line for page in pages for line in page.lines[len(kept) :]]
    titled = all(page.title.startswith(screen.title) for page in pages)
    whole = screen.lines[len(kept) :] + (() if titled else (screen.title,))
    said = {
        " · ".join(parts[i:j])
        for parts in (line.split(" · ") for line in whole)
        for i in range(len(parts))
        for j in range(i + 1, len(parts) + 1)
    }
    return (
        all(page.lines[: len(kept)] == kept for page in pages)
        and words(rest) == words(whole)
        and set(rest) <= said
    )


def widest(texts, n=3):
    """The ``n`` texts that need the most room on the panel."""
    font = screens._font(screens.SMALL_SIZE)
    return sorted(set(texts), key=font.width, reverse=True)[:n]


def playout(state, rng):
    """The states of a random game from ``state`` (to its end or 200 moves)."""
    states = [state]
    while state.outcome() is None and len(states) < PLIES:
        moves = state.legal_moves()
        if not moves:
            break
        state = state.apply(rng.choice(moves))
        states.append(state)
    return states


def reasons(states, rng):
    """The refusals the controller shows for hand changes on these positions: a piece put on
    a site, a piece lifted from one site and put on another."""
    found = []
    for state in islice(states[:: max(1, len(states) // POSITIONS)], POSITIONS):
        labels = [s.label for s in state.sites()]
        occupied = sorted(state.occupied())
        for site in rng.sample(labels, min(SITES, len(labels))):
            found.append(attempt_reason(state, frozenset(), frozenset({site})))
            if occupied:
                source = rng.choice(occupied)
                found.append(attempt_reason(state, frozenset({source}), frozenset({site})))
    return [i18n.reword(r) for r in found if r]


def follow_ups(states):
    """The follow-up steps of sampled legal moves (each as the screen words it, naming its
    sites), and the pick steps among them."""
    steps, picks = [], []
    for s in states[:: max(1, len(states) // 8)]:
        for m in s.legal_moves()[:60]:
            for real in s.realisations(m):
                for step in real.follow_ups:
                    steps.append(turn.words(step, step.sites))
                    picks += [step] if step.action == "pick" else []
    return steps, picks


def instructions(states):
    """The follow-up instructions the game needs, at their longest; the short instructions of
    a move (a lifted piece: the widest sites it can cover); a choice between moves, worded as
    the controller words it (its pick among the widest sites, or the longest moves)."""
    steps, picks = follow_ups(states)
    labels = widest([s.label for s in states[0].sites()], 3)
    notations = [s.notation(m) for s in states[:: max(1, len(states) // 4)] for m in s.legal_moves()[:50]]
    shown = i18n._("OK: {move}, BACK: next")
    choices = [shown.format(move=move) for move in widest(notations, 2)]
    for step in picks[:1]:
        ask = turn.words(step, labels[:2])
        choices.append(f"{ask} · {shown.format(move=labels[0])}")
    pieces = [turn.named(turn.by_name(f.sites)) for s in states for f in s.figures()] or labels
    lifted = i18n._("Move {pieces} to a lit site").format(pieces=widest(pieces, 1)[0])
    moving = [lifted, i18n._("OK ends the turn"), None]
    return widest(steps, 3), moving, choices


def takebacks(states):
    """The notices of a takeback, as the controller words them: of one move and of two (the
    players' and the computer's), the widest moves of the game."""
    notations = [s.notation(m) for s in states[:: max(1, len(states) // 4)] for m in s.legal_moves()[:50]]
    moves = widest(notations, 2)
    return [i18n._("Took back {moves}").format(moves=", ".join(moves[:n])) for n in (1, 2)]


def game_screens(choice):
    """The status screens of one game, size and variant at their longest: a follow-up step
    while a wrong piece makes the board differ (by one or two sites) or the engine refuses a
    move; a cleared or crowded board (it differs by every site) during a move; a choice
    between moves; the result."""
    rng = random.Random(f"{choice.game}{choice.size}{choice.variant}")
    game = Game(choice.game, choice.size, choice.variant)
    start = game.new()
    states = playout(start, rng)
    sides = list(start.sides)
    outcomes = [s.outcome() for s in states if s.outcome()]
    results = [result_words(o.winner, o.result) for o in outcomes]
    results += [result_words(side, o.result) for side in sides for o in outcomes]
    status_lines = []
    for index in range(max(len(s.status_lines()) for s in states)):
        status_lines.append(
            widest(
                [i18n.reword(s.status_lines()[index]) for s in states if len(s.status_lines()) > index], 1
            )[0]
        )
    phase = max((s.phase for s in states if s.phase is not None), default=None)
    targets = engines.game_info(choice.game).match_targets
    match = f"{'-'.join(['10'] * len(sides))} (to 10)" if targets else None
    side = widest(sides, 1)[0]
    steps, moving, prompts = instructions(states)
    labels = [site.label for site in start.sites()]
    wide = widest(labels, 3)
    small = [turn.fix_words(wide[:2], wide[:1]), *widest(reasons(states, rng))]
    half = len(labels) // 2  # a board set up wrong all over: no piece lifted then
    every = [turn.fix_words(labels[:half], labels[half:]), turn.fix_words(labels, [])]
    for instruction, error in [
        *((i, e) for i in steps for e in [None, *small]),
        *((i, e) for i in moving for e in small),
        *((i, e) for i in moving[1:] for e in every),
        *((p, None) for p in [*prompts, i18n._(SET_BACK)]),
    ]:
        yield status_screen(
            game.title, game.shown_variant, side, None, phase, status_lines, instruction, error, None, match
        )
    for result in widest(results, 4):
        yield status_screen(
            game.title,
            game.shown_variant,
            None,
            None,
            phase,
            status_lines,
            i18n._("Set up to play again"),
            None,
            result,
            match,
        )


CHOICES = game_choices()
#: The longest texts come with the largest board of each game and variant.
LARGEST = [
    c for c in CHOICES if c.size == max(d.size or 0 for d in CHOICES if d.game == c.game) or c.size is None
]


#: The languages the board speaks, each laid out.
LANGUAGES = list(i18n.LANGUAGES)


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("choice", LARGEST, ids=lambda c: f"{c.game}-{c.size}-{c.variant}")
def test_every_status_screen_fits(choice, code):
    checked = 0
    with speaking(code):
        for screen in game_screens(choice):
            assert shown_whole(screen), [page.text_lines() for page in screen.pages()]
            # Six at the worst: a team or four-side match game of Antipalos, its counts in hand
            # kept whole (five when they were cut between words).
            pages = len(screen.pages())
            assert pages <= 6, screen.text_lines()
            checked += 1
    assert checked > 10


def takeback_screens(choice):
    """The status screens of one game, at its longest, just after a takeback with the clocks
    running: the notice of the moves taken back (one, or two: the players' and the
    computer's), what to set back on the board, and the game's status lines."""
    rng = random.Random(f"{choice.game}{choice.size}{choice.variant}")
    game = Game(choice.game, choice.size, choice.variant)
    states = playout(game.new(), rng)
    sides = list(states[0].sides)
    clocks = " ".join([">4:58", *["5:00"] * (len(sides) - 1)])
    before, after = states[-2], states[-1]
    undo = turn.fix_words(
        sorted(before.occupied() - after.occupied()), sorted(after.occupied() - before.occupied())
    )
    status = [i18n.reword(line) for line in before.status_lines()]
    for news in takebacks(states):
        yield status_screen(
            game.title,
            game.shown_variant,
            before.to_move,
            None,
            before.phase,
            status,
            undo,
            None,
            None,
            None,
            news,
            clocks,
        )


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("choice", LARGEST, ids=lambda c: f"{c.game}-{c.size}-{c.variant}")
def test_a_takeback_notice_never_leaves_its_label_alone(choice, code):
    """ "Took back: C3*" split over two pages would show the label on one and the moves on the
    next: every page shows a label with (some of) what it labels."""
    with speaking(code):
        for screen in takeback_screens(choice):
            pages = screen.pages()
            assert all(screens.fits(page) for page in pages), [p.text_lines() for p in pages]
            labels = [line for page in pages for line in page.lines if line.endswith(":")]
            assert not labels, [page.text_lines() for page in pages]


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_menu_page_fits(code):
    """Walk every page of the menu (each item chosen that opens a page), both kinds of menu, in
    each language; each screen seen is drawn once (most pages are the same whatever game is
    current)."""
    seen: set[screens.Screen] = set()
    with speaking(code):
        for kiosk in (False, True):
            for current in CHOICES:
                menu = Menu(CHOICES, current, kiosk=kiosk, today=True, power_off=True)
                walked = walk(menu, [])
                assert walked
                seen.update(walked)
    assert not [s.text_lines() for s in seen if not screens.fits(s)]


def walk(menu, path, depth=0):
    """Open the menu, follow ``path`` (items by index), and return the screens of every item
    on every page below."""
    seen = []
    menu.close()
    menu.press(ButtonEvent("menu"))
    for index in path:
        for _ in range(index):
            menu.press(ButtonEvent("menu"))
        menu.press(ButtonEvent("ok"))
    if not menu.is_open or depth > 3:
        return seen
    page = menu.screen()
    for index in range(len(page.lines)):
        seen.append(menu.screen())
        menu.press(ButtonEvent("menu"))
    leaves = [i18n._(item) for item in ("Exit", "Take back", "Show IP address", "Today", "Language")]
    for index in range(len(page.lines)):
        if page.lines[index] in leaves or page.lines[index].startswith(i18n._("Brightness {percent}%")[:5]):
            continue
        seen += walk(menu, [*path, index], depth + 1)
    return seen


@pytest.mark.parametrize("code", LANGUAGES)
def test_notices_fit(code):
    with speaking(code):
        _ = i18n._
        asks = i18n.ngettext("Opponent asks to undo {n} move", "Opponent asks to undo {n} moves", 2)
        notices = [
            message_screen(_("IP address"), ["192.168.100.200"]),
            message_screen(_("Powering off"), [_("Wait for the screen to go dark")]),
            message_screen("Cannot power off", ["not available here"]),
            day_screen(Day(0, {}, 0, None)),
            day_screen(Day(188, {"white": 99, "black": 88, "draw": 1}, 1, "white wins by connection")),
            message_screen(_("Today"), [_("Not available"), _("The games cannot be read")]),
            status_screen(
                "Antipode", None, None, None, None, [], None, None, result_words("green", "no-moves")
            ),
            message_screen(_("Take back?"), [asks.format(n=2), _("OK: yes, BACK: no")]),
        ]
        for said in (Remote.WAIT, Remote.ASKED, Remote.REFUSED, OFFLINE, Computer.WAIT):
            notices.append(
                status_screen(
                    "Antipalos 20",
                    "Cut-throat",
                    "black",
                    None,
                    2,
                    ["In hand: White 30 · Black 30 · Red 30"],
                    _("Put it on a lit site"),
                    _(said),
                    None,
                    None,
                )
            )
        for screen in notices:
            assert shown_whole(screen), screen.text_lines()
