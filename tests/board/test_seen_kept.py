"""What an opponent away from the board is shown (``Controller.seen()``, polled at every scan)
is made again only when something it is made of changed, and always tells the game as it
stands: a game against a scripted opponent, driven scan by scan on the simulated board."""

from __future__ import annotations

from engines import new_game
from firmware_host.board.game import Game
from testbed.drive import Drive, Scripted


class Watching(Scripted):
    """A scripted opponent that keeps every ``Seen`` it is polled with, beside the record's
    moves at that moment."""

    def __init__(self, side: str, *moves: str) -> None:
        super().__init__(side, *moves)
        self.polls: list = []
        self.drive: Drive | None = None

    def poll(self, seen):
        record = self.drive.ctl.record
        self.polls.append((seen, tuple(record.moves), tuple(record.states)))
        return super().poll(seen)


def test_seen_is_kept_while_nothing_changes_and_follows_every_move():
    start = new_game("antipalos", 3)
    first = "*C1"
    reply = str(next(iter(start.play(first).legal_moves())))
    opponent = Watching(start.sides[1], reply)
    d = Drive(Game.of("antipalos", 3), opponent=opponent)
    opponent.drive = d
    d.run(1000).place(first).run(1000)  # the players' move; the computer answers
    for site in start.play(first).realisations(start.play(first).parse_move(reply))[0].filled:
        d.place(site)
    d.run(2000)
    assert d.ctl.record.moves == [first, reply]
    assert all(seen.moves == moves and seen.states == states for seen, moves, states in opponent.polls)
    made = {id(seen) for seen, _, _ in opponent.polls}
    assert len(opponent.polls) >= 300 and len(made) <= 12, (len(opponent.polls), len(made))
