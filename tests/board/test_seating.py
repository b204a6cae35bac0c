"""Two paired boards share who sits at their seats (``Shared``): each board's message carries
its seating, stamped when set; the later setting wins on both, and each seat's OK, pressed at
its own board, counts on both."""

from __future__ import annotations

import itertools

from firmware_host.board.seating import Seating, Shared, read_shared
from firmware_host.store.players import League

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
