"""Short run of bench/robust/faults.py: every helper process killed by PID, an exception raised
in every helper thread, the I2C, SPI and serial devices failing, the games file locked, full,
refused and (as root) its card failing, the observers raising, once each at a random moment of
a game against the computer: the daemon steps on, says every fault, every part works again,
and no acknowledged move is lost."""

import pytest

from bench.robust.faults import FAULTS, make_card, run
from testbed.broker import Broker

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


@pytest.mark.broker  # its own Mosquitto, for the MQTT link's faults
def test_every_fault_is_survived_and_said_and_no_move_is_lost(tmp_path):
    broker = Broker(tmp_path).start()
    card = make_card(tmp_path)
    try:
        figures = run(rounds=1, seed=3, broker=broker.port, card=card, folder=tmp_path)
    finally:
        if card is not None:
            card.close()
        broker.stop()
    assert figures["faults_tried"] == len(FAULTS) - len(figures["skipped"])
    assert figures["skipped"] == ([] if card else ["card fails mid-game"])
    assert [r["fault"] for r in figures["failed"]] == []
    assert figures["survived"] == figures["said"] == figures["faults_tried"]
    assert figures["daemon_ended"] == 0 and figures["moves_lost"] == 0
    assert figures["moves_acknowledged"] > 2 * figures["faults_tried"]  # the game went on
