"""Short run of bench/robust/soak.py: minutes of play on the virtual clock leave the open file
descriptors as they were and the resident memory nearly so."""

from bench.robust.soak import run
from firmware_host.board.game import Game


def test_play_on_the_virtual_clock_leaks_no_descriptors():
    figures = run(hours=0.1, game=Game.of("antipalos", 4), seed=2)
    assert figures["moves"] > 50 and figures["games"] >= 2
    assert figures["games_stored"] in (figures["games"], figures["games"] + 1)  # + the new one
    assert figures["never_settled"] == 0
    assert figures["fds_end"] == figures["fds_start"]
    assert figures["rss_end_kb"] - figures["rss_start_kb"] < 8_000
