"""A whole game of every game, to its end, played on the simulated board through the daemon's
controller (with contact bounce): every move is accepted as played, and the game ends as the
engine says."""

import random

import pytest

from bench.robust.noisy import whole_game
from firmware_host.board.game import Game
from hardware.sim import Noise

#: The longest games run in the slow run only (the quick run keeps two of the five).
LONG = pytest.mark.slow


@pytest.mark.parametrize(
    "name, size",
    [
        pytest.param("antipalos", 5, marks=LONG),
        pytest.param("antipode", None, marks=LONG),
        ("antipod", 4),
        ("anti-grid", 6),
        pytest.param("phalanx", None, marks=LONG),
    ],
)
def test_a_whole_game_through_the_daemon(name, size):
    game = Game.of(name, size)
    run, plan, unsettled = whole_game(game, random.Random(7), 3000, Noise(bounce=(0.0005, 0.001), seed=7))
    final = game.new()
    for move in plan.moves:
        final = final.play(move)
    assert final.outcome() is not None, "the planned game must end"
    assert unsettled == 0, "the board settles after every action"
    accepted = [e["move"] for e in run.events if e["event"] == "move"]
    assert accepted == plan.moves
    (over,) = [e for e in run.events if e["event"] == "game_over"]
    assert (over["winner"], over["result"]) == (final.outcome().winner, final.outcome().result)
    assert run.controller.state.outcome() == final.outcome()
