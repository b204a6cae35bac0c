"""The controller driven scan by scan on a simulated board, every 10 ms (:class:`Drive`), with
an opponent that plays a script (:class:`Scripted`): the board's tests, the OLED's scenes and
the players' guides build on them."""

from __future__ import annotations

from firmware_host.board.controller import Controller
from firmware_host.board.game import Game
from firmware_host.board.opponent import Play
from firmware_host.store.config import Timing
from firmware_host.store.layout import default_layout
from firmware_host.store.storage import Storage
from hardware.base import Scan
from hardware.sim import SimBoard


class Drive:
    """A controller and a simulated board, stepped every 10 ms."""

    def __init__(
        self,
        game: Game,
        *,
        polarity=False,
        takebacks=True,
        storage=None,
        menu=None,
        resume=None,
        setup=True,
        opponent=None,
        clock=None,
    ) -> None:
        self.storage = storage or Storage(":memory:")
        layouts = lambda state: default_layout(state.sites())  # noqa: E731
        self.ctl = Controller(
            game,
            layouts,
            Timing(),
            self.storage,
            takebacks=takebacks,
            menu=menu,
            resume=resume,
            address=lambda: "192.0.2.7",
            opponent=opponent,
            clock=clock,
        )
        self.sim = SimBoard(self.ctl.layout.sensor_channels, senses_polarity=polarity)
        if setup:
            for site in self.ctl.boards[-1]:
                self.place(site)
        self.t = 0
        self.events: list[dict] = []

    def channel(self, site: str) -> int:
        return self.ctl.layout.sensor[site]

    def scan(self, scan: Scan | None = None) -> None:
        scan = scan or self.sim.scan()
        self.events += self.ctl.step(self.t, scan, self.sim.buttons.events())
        self.t += 10

    def run(self, ms: int = 500) -> "Drive":
        for _ in range(ms // 10):
            self.scan()
        return self

    def place(self, site: str, north: bool = True) -> "Drive":
        self.sim.place(self.channel(site), north)
        return self

    def lift(self, site: str) -> "Drive":
        self.sim.lift(self.channel(site))
        return self

    def press(self, button: str, long: bool = False) -> "Drive":
        self.sim.buttons.press(button, long)
        return self.run(50)

    def kinds(self) -> list[str]:
        return [e["event"] for e in self.events if e["event"] != "display"]

    def last(self, kind: str) -> dict:
        return [e for e in self.events if e["event"] == kind][-1]

    def lit(self, site: str):
        return self.ctl.frame().get(self.ctl.layout.led[site])


class Scripted:
    """An opponent (firmware_host/board/opponent.py's protocol) that plays ``moves`` in turn on
    ``side``."""

    WAIT, rethinks, level, note, times_itself, present = "Wait", False, None, None, False, True

    def __init__(self, side: str, *moves: str) -> None:
        self.side, self.moves = side, list(moves)

    def side_in(self, state):
        return self.side

    def record(self, state):
        return f"scripted {self.side}"

    def poll(self, seen):
        if seen.awaiting and self.moves:
            move = self.moves.pop(0)
            return [Play(move, f"Computer plays {move}: move it")]
        return []

    def takeback(self, seen, to=None):
        return seen.turns_back(self.side, to)

    def close(self):
        pass


#: A Phalanx game after which e5se-e7se leaves a piece of the mover's own side phalanxed.
SELF_PHALANX = [
    "e2ne-e6ne",
    "f7ne-h5ne",
    "g1se-h2se",
    "e7se-a3se",
    "a1se-d4se",
    "h5ne-g6ne",
    "h2se-e5se",
    "d7ne-a4ne",
    "f2nw-g3nw",
    "a4ne-b3ne",
    "d2nw-e3nw",
    "b8se-a7se",
    "b1sw-a2sw",
    "c7nw-a5nw",
    "e6ne-d5ne",
    "d8se-h4se",
    "f1sw-f3sw",
    "a5nw-c5nw",
    "f3sw-h5sw",
    "g6ne-f5ne",
]
