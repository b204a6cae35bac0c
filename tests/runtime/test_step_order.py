"""What a step announces goes out before the OLED is drawn: the event line and the observers
(the page, the café network) have the move while the screen, the slowest part of the step, is
still to draw."""

from __future__ import annotations

from firmware_host.store.config import Config
from firmware_host.store.storage import Storage
from hardware.sim import SimDisplay
from testbed.stepped import Stepped


class WatchedDisplay(SimDisplay):
    """The simulated OLED, noting for each image drawn the moves already written and observed."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[list[str], list[str]]] = []
        self.board: Stepped | None = None
        self.observed: list[str] = []

    def show(self, image) -> None:
        super().show(image)
        if self.board is not None:
            self.seen.append((self.board.moves(), list(self.observed)))


def test_a_move_reaches_the_log_and_the_observers_before_the_screen_shows_it(tmp_path):
    display = WatchedDisplay()
    board = Stepped(Config(game="antipalos", size=5), Storage(str(tmp_path / "games.db")), display=display)
    board.daemon.observers.append(
        lambda now, controller, events: display.observed.extend(
            e["move"] for e in events if e["event"] == "move"
        )
    )
    board.wait(500)
    display.board = board
    board.put("B2*")
    assert board.moves() == ["B2*"]
    drawn_after_move = [seen for seen in display.seen if "B2*" in seen[0]]
    assert drawn_after_move, "the screen is drawn again for the move"
    assert all(written == observed == ["B2*"] for written, observed in display.seen)
