"""The players' names on the OLED in every game, rendered on luma's dummy device and saved for a
person to look at (test-output/oled-<game>-table.png, -players.png, 4x): a league round's
"Table 3: Anna – Ben" with whose OK it waits for, then "Anna to move" once both have pressed OK;
a name too long for the main line is cut short and the screen still fits."""

from __future__ import annotations

import pytest

from engines import GAME_NAMES, new_game
from firmware_host.actions.commands import NewGame, SetNames, TableRound
from firmware_host.board.game import Game
from firmware_host.board.opponent import Computer
from testbed.drive import Drive
from tests.ui.test_oled_renders import save

NAMES = ("Anna", "Maximiliane Wolkenstein", "Cleo", "Dan")


def table(game: str, variant: str | None = None) -> TableRound:
    state = new_game(game, None, variant)
    new = NewGame(game, None, variant or "")
    return TableRound(3, NAMES[: len(state.sides)], new, "300+3", "Thursday league", 2)


@pytest.mark.parametrize("game, variant", [(g, None) for g in GAME_NAMES] + [("antipalos", "cut-throat-4")])
def test_a_league_round_names_the_players_on_the_oled(game, variant):
    drive = Drive(Game.of(game, None, None)).run(300)
    round_ = table(game, variant)
    drive.ctl.command(round_)
    drive.run(300)
    for site in drive.ctl.expected - drive.ctl.board:  # the new game's pieces set up
        drive.place(site)
    drive.run(600)
    screen = drive.ctl.screen()
    title = f"Table 3: {' – '.join(round_.names)}"
    assert screen.title == title and screen.lines[0] == "Anna: press OK", screen
    name = f"{game}{'-' + variant if variant else ''}"
    save(drive, f"{name}-table")
    clock = drive.ctl.clock
    assert clock.control.text == "300+3" and clock.clocks.running is None  # no time before the OKs
    for seat, player in enumerate(round_.names):
        assert drive.ctl.seating.asked() == f"{player}: press OK"
        drive.press("ok").run(200)
    drive.run(600)
    assert drive.ctl.seating.asked() is None and clock.clocks.running == drive.ctl.to_act
    side = drive.ctl.to_act
    seat = drive.ctl.state.sides.index(side)
    screen = drive.ctl.screen()
    assert screen.title.startswith(f"Table 3 · {drive.ctl.game.title}")
    to_move = next(line for line in screen.lines if line.endswith(" to move"))
    assert to_move.startswith(round_.names[seat][:8]), screen
    save(drive, f"{name}-players")


def test_a_long_name_is_cut_short_and_the_game_counts_only_after_the_oks():
    drive = Drive(Game.of("antipod", 4, None)).run(300)
    drive.ctl.command(SetNames(("Maximiliane Wolkenstein-Rodenegg", "Ben")))
    drive.run(300)
    assert "Maximilia… to move" in drive.ctl.screen().lines
    drive.ctl.command(table("antipod"))
    drive.run(600)
    move = drive.ctl.state.legal_moves()[0]
    for site in drive.ctl.state.realisations(move)[0].filled:
        drive.place(site)
    drive.run(800)
    assert drive.ctl.moves == [] and drive.ctl.seating.asked() == "Anna: press OK"
    drive.press("ok").run(100).press("ok").run(800)
    assert drive.ctl.moves == [] and drive.ctl.sync is not None  # the piece is no move: it is extra
    drive.ctl.command(NewGame("antipod", 4, ""))  # a game begun at the board: no round, no clock
    drive.run(300)
    assert drive.ctl.seating.league is None and drive.ctl.seating.names == table("antipod").names
    assert drive.ctl.clock.control is None and drive.ctl.clock.clocks is None


def test_a_league_round_on_a_board_playing_the_computer_is_the_players_alone():
    drive = Drive(Game.of("antipod", 4, None), opponent=Computer("black", 1, sync=True)).run(100)
    assert drive.ctl.opponent is not None
    drive.ctl.command(table("antipod"))
    assert drive.ctl.opponent is None and drive.ctl.seating.asked() == "Anna: press OK"
