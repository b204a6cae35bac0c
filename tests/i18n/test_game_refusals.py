"""The game's words in the board's language: every reason an engine gives for a piece
set down at the start of a game (``refusal``) reads in French on a French board, as the OLED
and the page say it (``i18n.reword``)."""

from __future__ import annotations

import pytest

import engines
from firmware_host import i18n
from testbed.language import speaking


@pytest.mark.parametrize("game", engines.GAME_NAMES)
def test_every_refusal_of_a_piece_set_down_reads_in_french(game):
    state = engines.new_game(game, None, None)
    said = {
        reason for site in state.sites() if (reason := state.refusal(frozenset(), frozenset({site.label})))
    }
    with speaking("fr"):
        english = sorted(r for r in said if i18n.reword(r) == r)
    assert english == [], f"{game}: said in English on a French board"


def test_a_match_s_score_reads_in_french():
    """Match play on a French board: the score line under the result ("Match 3-0 (à 6)")."""
    from firmware_host.board.matchplay import OngoingMatch

    tally = OngoingMatch.begin("antipalos", 3, "two", 6)
    state = tally.next_game()
    for move in ["B1*", "A1*", "*B2", "C1*", "B3*"]:  # White connects: 3 points
        state = state.play(move)
    tally.record(state)
    with speaking("fr"):
        assert tally.score == "3-0 (à 6)"
