"""Every kind of thing the OLED asks or tells the players (tests/ui/scenes.py), rendered on
luma's dummy device for a person to look at (test-output/oled-say-<scene>[-page].png, 4x), each
page fitting the panel; and wherever the board differs from the game, the screen names a site to
put back or take off, in every game, for any pieces put on or lifted."""

from __future__ import annotations

import random
import re

import pytest
from luma.core.device import dummy

from engines import GAME_NAMES
from firmware_host.board.game import Game
from firmware_host.ui.screens import SIZE, fits
from testbed.drive import Drive
from testbed.language import speaking
from tests.net.web.web_tools import OUTPUT
from tests.ui.scenes import SCENES

#: What each scene's screen must say (a pattern searched in its text, every page together).
SAYS = {
    "anti-grid-lifted": r"Move c1 to a lit site",
    "phalanx-lifted": r"Move a1nw, a1se to a lit site",
    "anti-grid-capture": r"Take \w+ off",
    "antipod-twin": r"Place the twin on \w+",
    "antipode-flip": r"Flip a1",
    "antipode-choice": r"Tap the token your pawn lands on: a1 or b1 · OK: a1, BACK: next",
    "phalanx-self-phalanx": r"Remove the lit Archer: e7nw, e7se",
    "antipode-takeback": r"Took back b1:a1.*|Take back: take b1 off",
    "antipode-takeback-carry": r"Blue pawn: a1 back to e1",
    "antipalos-refused": r"C3 already holds a Trirod · Take C3\* off",
    "anti-grid-knocked": r"Put e1 back",
    "antipod-differs": r"Put a1 back, take c3, d4 off",
    "antipalos-new-game": r"New game: take B2\* off",
    "anti-grid-computer": r"Computer plays c1-c2: move c1 to c2",
    "anti-grid-set-back": r"Taking back\? Set the rest back or it's a move",
    "antipalos-over": r"White wins: connection.*Set up to play again",
    "antipalos-corrected": r"Corrected to B3\*",
    "antipode-menu": r"Menu.*MENU: next · OK: pick.*BACK: back / close",
    "antipode-players": r"^Players",
}


def text(drive: Drive) -> str:
    """Every page of what the OLED shows now, as one text."""
    return " / ".join(" / ".join(page.text_lines()) for page in drive.ctl.screen().pages())


@pytest.mark.parametrize("name", list(SCENES))
def test_every_kind_of_instruction_renders_fits_and_says_it(name):
    drive = SCENES[name]()
    said = text(drive)
    assert re.search(SAYS[name], said), said
    OUTPUT.mkdir(exist_ok=True)
    for number, page in enumerate(drive.ctl.screen().pages()):
        assert fits(page), page.text_lines()
        image = page.render(dummy(*SIZE, mode="1"))
        suffix = f"-{number + 1}" if number else ""
        image.convert("L").resize((SIZE[0] * 4, SIZE[1] * 4)).save(OUTPUT / f"oled-say-{name}{suffix}.png")


def named_site(drive: Drive) -> bool:
    """True when the screen names a site the board has to change (one to put back or take
    off), or the board does not differ."""
    sync = drive.ctl.sync
    if sync is None or sync.waiting:
        return True
    sites = set(sync.missing) | set(sync.extra)
    said = text(drive)
    return not sites or any(re.search(rf"(?<![\w*]){re.escape(s)}(?![\w*])", said) for s in sites)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_board_that_differs_always_names_a_site(game):
    """Pieces put on empty sites and lifted off occupied ones, a few at a time, at the start
    and after some moves: whenever the board differs, the screen says where."""
    rng = random.Random(game)
    checked = 0
    for trial in range(6):
        drive = Drive(Game.of(game)).run(300)
        for _ in range(trial):  # a few moves in
            state = drive.ctl.state
            real = state.realisations(rng.choice(state.legal_moves()))[0]
            if real.follow_ups:
                continue
            for site in real.emptied:
                drive.lift(site)
            for site in real.filled:
                drive.place(site)
            drive.run(800)
        labels = [s.label for s in drive.ctl.state.sites()]
        for site in rng.sample(labels, 1 + trial % 3):
            (drive.lift if site in drive.ctl.board else drive.place)(site)
        drive.run(800)
        assert named_site(drive), (game, drive.ctl.sync, text(drive))
        checked += drive.ctl.sync is not None
    assert checked >= 3


#: What some scenes' screens say in each language the board speaks besides English (every scene
#: is rendered and must fit; these say its words are the language's own).
SAYS_IN = {
    "de": {
        "anti-grid-lifted": r"^Anti-Grid 6 / Rot am Zug / c1 auf ein Lichtfeld",
        "antipod-twin": r"Zwilling auf \w+ setzen",
        "antipode-flip": r"Blau am Zug / a1 umdrehen",
        "antipode-takeback-carry": r"Figur Blau: a1 zurück auf e1, dann OK",
        "antipod-differs": r"a1 zurück, c3, d4 weg",
        "antipalos-new-game": r"Neue Partie: B2\* weg",
        "anti-grid-computer": r"Computer spielt c1-c2: c1 nach c2 ziehen",
        "antipalos-over": r"Weiß gewinnt: Verbindung",
        "antipode-menu": r"^Menü / > Neue Partie.*MENU: vor · OK: wahl",
        "antipalos-refused": r"Auf C3 liegt schon ein Trirod · C3\* weg / Phase 1 · In der Hand: Weiß 17",
        "antipode-choice": r"Zielplättchen der Figur antippen: a1 oder b1 · OK: a1, BACK: nächster",
    },
    "fr": {
        "anti-grid-lifted": r"^Anti-Grid 6 / Rouge joue / c1 sur case allumée",
        "antipod-twin": r"Poser le jumeau sur \w+",
        "antipode-flip": r"Bleu joue / Retourner a1",
        "antipode-takeback-carry": r"Pion bleu: a1 revient en e1, puis OK",
        "antipod-differs": r"Remettre a1, retirer c3, d4",
        "antipalos-new-game": r"Nouvelle partie: retirer B2\*",
        "anti-grid-computer": r"L'ordinateur joue c1-c2: déplacer c1 en c2",
        "antipalos-over": r"Blanc gagne: connexion",
        "antipode-menu": r"^Menu / > Nouvelle partie.*MENU: suite · OK: oui",
        "antipalos-refused": r"C3 porte déjà un trirod · Retirer C3\* / Phase 1 · En main: Blanc 17",
        "antipode-choice": r"Toucher le jeton où arrive le pion: a1 ou b1 · OK: a1, BACK: suivant",
    },
}


@pytest.mark.parametrize("code", list(SAYS_IN))
def test_every_kind_of_instruction_renders_and_fits_in_each_language(code):
    """test-output/oled-<language>-<scene>[-page].png for a person to look at, each page fitting."""
    OUTPUT.mkdir(exist_ok=True)
    with speaking(code):
        for name, scene in SCENES.items():
            drive = scene()
            said = text(drive)
            assert re.search(SAYS_IN[code].get(name, ""), said), (name, said)
            for number, page in enumerate(drive.ctl.screen().pages()):
                assert fits(page), page.text_lines()
                image = page.render(dummy(*SIZE, mode="1"))
                suffix = f"-{number + 1}" if number else ""
                big = image.convert("L").resize((SIZE[0] * 4, SIZE[1] * 4))
                big.save(OUTPUT / f"oled-{code}-{name}{suffix}.png")
