"""A whole game of every game, to its end, played on the simulated board through the daemon's
controller (with contact bounce): every move is accepted as played, and the game ends as the
engine says."""

import random

import pytest

from bench.robust.noisy import Run, play
from bench.robust.player import Player, capturing_first
from firmware_host.config import Config
from firmware_host.controller import Game
from firmware_host.session import open_controller
from firmware_host.storage import Storage
from hardware.clock import VirtualClock
from hardware.sim import Noise, SimBoard


@pytest.mark.parametrize(
    "name, size", [("antipalos", 5), ("antipode", None), ("antipod", 4), ("anti-grid", 6),
                   ("phalanx", None)])
def test_a_whole_game_through_the_daemon(name, size):
    rng = random.Random(7)
    controller = open_controller(Config(), Storage(":memory:"), Game.of(name, size))
    layout, clock = controller.layout, VirtualClock()
    board = SimBoard(layout.sensor_channels, clock=clock, leds=layout.led_channels,
                     noise=Noise(bounce=(0.0005, 0.001), seed=7))
    for site in controller.boards[0]:
        board.place(layout.sensor[site])
    run = Run(controller, board, clock, 1000 / controller.timing.scan_hz)
    start = controller.state
    sites = [s.label for s in start.sites()]
    plan = Player(rng, sites, frozenset(), choose=capturing_first).plan(start, 3000)
    final = start
    for move in plan.moves:
        final = final.play(move)
    assert final.outcome() is not None, "the planned game must end"
    for segment in plan.segments:
        assert play(run, segment, rng), "the board settles after every action"
    accepted = [e["move"] for e in run.events if e["event"] == "move"]
    assert accepted == plan.moves
    (over,) = [e for e in run.events if e["event"] == "game_over"]
    assert (over["winner"], over["result"]) == (final.outcome().winner, final.outcome().result)
    assert controller.state.outcome() == final.outcome()
