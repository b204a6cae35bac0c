"""Two paired boards share who sits at their seats (``Shared``): each board's message carries
its seating, stamped when set; the later setting wins on both, and each seat's OK, pressed at
its own board, counts on both. A board takes the other's seating as its own: shown, kept with
the game, its OKs asked for."""

from __future__ import annotations

import itertools

from firmware_host.board.game import Game
from firmware_host.board.opponent import Seated
from firmware_host.board.seating import Seating, Shared, read_shared
from firmware_host.store.players import League
from firmware_host.ui.menu import GameChoice, Menu
from testbed.board_under_test import BoardUnderTest
from testbed.drive import Drive
from testbed.streams import of

TABLE = Seating.table(("Anna", "Ben"), League("Thursday", 1, 3))
NANOSECONDS = itertools.count(1)


class Board:
    """A board's seating and its share of the pair's (what the controller and the remote keep);
    the time goes on by a nanosecond at each message either board makes."""

    def __init__(self, name: str) -> None:
        self.shared, self.seating = Shared(name), Seating()

    def said(self) -> dict | None:
        return self.shared.told(self.seating, next(NANOSECONDS))

    def hears(self, other: "Board") -> None:
        said = other.said()
        if said is not None:
            self.said()  # a change made here is stamped first
            taken = self.shared.heard(self.seating, said["stamp"], read_shared(said))
            self.seating = taken or self.seating


def test_a_table_set_on_one_board_is_played_on_both() -> None:
    home, friend = Board("home"), Board("friend")
    home.seating = TABLE
    friend.hears(home)
    assert friend.seating == TABLE and friend.seating.asked() == "Anna: press OK"
    home.seating = home.seating.pressed()  # Anna at home
    friend.hears(home)
    assert friend.seating.asked() == "Ben: press OK"
    friend.seating = friend.seating.pressed()  # Ben at friend
    home.hears(friend)
    assert not home.seating.waiting and not friend.seating.waiting
    home.hears(friend)
    friend.hears(home)
    assert home.seating == friend.seating == TABLE.pressed().pressed()


def test_the_later_setting_wins_and_the_same_one_set_twice_still_shares_its_oks() -> None:
    home, friend = Board("home"), Board("friend")
    home.seating = Seating(("Anna", "Ben"))
    home.said()
    friend.seating = Seating(("Cleo", "Dan"))  # named later at friend
    home.hears(friend)
    friend.hears(home)
    assert home.seating == friend.seating == Seating(("Cleo", "Dan"))
    # the same table sent to both boards: the later stamp is taken, and the OKs go on
    home.seating, friend.seating = TABLE, TABLE
    home.said()
    friend.hears(home)
    home.hears(friend)
    home.seating = home.seating.pressed()
    friend.hears(home)
    assert friend.seating.asked() == "Ben: press OK"


class Paired:
    """The other board, as the controller meets it: it sends one seating once."""

    WAIT, rethinks, times_itself, level, note, present = "Wait", False, True, None, None, True

    def __init__(self, seating: Seating) -> None:
        self.sends = [Seated(seating)]

    def side_in(self, state) -> str:
        return state.sides[1]

    def record(self, state) -> str:
        return "board friend"

    def poll(self, seen):
        sends, self.sends = self.sends, []
        return sends

    def takeback(self, seen, to=None):
        return 0

    def close(self) -> None:
        pass


def test_a_seating_from_the_paired_board_is_shown_kept_and_asks_its_oks() -> None:
    menu = Menu((GameChoice("antipod", 4, None, "Antipod 4"),), GameChoice("antipod", 4, None, "Antipod 4"))
    drive = Drive(Game.of("antipod", 4, None), menu=menu, opponent=Paired(TABLE)).run(300)
    assert drive.ctl.seating == TABLE and menu.names == ("Anna", "Ben")
    (stored,) = drive.storage.games(drive.ctl.record.game_id)
    assert (stored.players, stored.league) == TABLE.kept()
    assert drive.ctl.screen().lines[0] == "Anna: press OK"
    drive.press("ok").run(200)  # Anna sits here
    assert drive.ctl.screen().lines[0] == "Ben: OK at the other board"
    drive.press("ok").run(200)  # Ben's OK is not pressed here
    assert drive.ctl.seating.asked() == "Ben: press OK"


def test_a_takeback_of_a_rounds_first_move_resumed_after_a_restart_asks_its_flip_after_the_oks(
    tmp_path,
) -> None:
    """A league round sent to the table (the café's ``table`` command), its first move made:
    Blue places b1, turns a1 over, taps a1 (the pawn lands), turns b1. The café takes it back;
    the daemon restarts before anything is undone. The round asks both OKs again (no move is
    recorded); then the board still asks for the takeback's steps: b1 off, a1 turned back. It
    is the round's game resumed, not a new one, and what it asks is told at the time it asks."""
    board = BoardUnderTest(Game.of("antipode", None, "standard"), str(tmp_path / "games.db"))
    try:
        round_ = {"event": "Thursday", "round": 1, "table": 3, "control": "-"}
        board.command(
            "table", names=["Anna", "Ben"], game="antipode", size=None, variant="standard", **round_
        )
        for _ in range(2):
            board.press("ok"), board.settle()
        board.place("b1"), board.settle()
        for site in ("a1", "a1", "b1"):  # a1 turned, a1 tapped, b1 turned
            board.lift(site), board.run(300), board.place(site), board.settle()
        assert board.held() == ("b1:a1",)
        board.command("takeback"), board.settle()
        restarted = board.now_ms
        board.restart(), board.settle()
        assert "Anna: press OK" in board.screen()
        for _ in range(2):
            board.press("ok"), board.settle()
        assert board.lit().get("b1") == "remove"
        assert board.screen()[2] == "Take b1 off"  # not "New game: take b1 off"
        board.lift("b1"), board.settle()
        since = board.events[board.restarts[-1] :]
        assert all(restarted <= a["t"] <= b["t"] for a, b in zip(since, since[1:]))
        assert board.lit().get("a1") is not None and "Flip a1" in " ".join(board.screen())
        assert {"action": "flip", "sites": ["a1"]} in of(since, "guide")
        board.lift("a1"), board.run(300), board.place("a1"), board.settle()
        assert "Flip a1" not in " ".join(board.screen()) and board.stored() == ()
    finally:
        board.close()
