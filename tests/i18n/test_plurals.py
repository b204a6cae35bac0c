"""Counts are worded by the language's plural forms (gettext's, from the catalogues): "1 channel
seen", never "1 channels seen", on the set-up wizard's screen and in a game's status lines, in
English, German and French (where 0 takes the singular)."""

from __future__ import annotations

import pytest

from engines.antipode.board import CELLS
from firmware_host import i18n
from firmware_host.board.game import Game
from firmware_host.board.wizard import Wizard
from hardware.sim import SimBoard
from testbed.language import speaking

SEEN = {
    "en": {1: "1 channel seen", 2: "2 channels seen"},
    "de": {1: "1 Kanal gesehen", 2: "2 Kanäle gesehen"},
    "fr": {1: "1 canal vu", 2: "2 canaux vus"},
}


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_the_sensor_check_counts_the_channels_seen_in_words_that_agree(code):
    game = Game.of("antipode").new()
    board = SimBoard(64)
    wizard = Wizard(list(game.sites()), led_channels=61, channels=64)
    wizard.step(0, board.scan(), [])
    wizard.start()
    with speaking(code):
        for t, channel in enumerate((5, 9), 1):
            board.place(channel)
            wizard.step(t * 10, board.scan(), [])
            board.lift(channel)
            wizard.step(t * 10 + 5, board.scan(), [])
            assert SEEN[code][t] in wizard.screen().lines, wizard.screen().lines


POOL = {"en": "Pool: 1 token", "de": "Vorrat: 1 Plättchen", "fr": "Réserve: 1 jeton"}


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_a_game_s_count_of_one_is_singular_in_every_language(code):
    state = Game.of("antipode").new()
    while len(CELLS) - state.tokens.bit_count() > 1:  # play until one token is left in the pool
        state = state.apply(state.legal_moves()[0])
    with speaking(code):
        assert POOL[code] in [i18n.reword(line) for line in state.status_lines()]
