"""Short run of bench/robust/faults.py: every helper process killed by PID, an exception raised
in every helper thread, the I2C, SPI and serial devices failing, the games file locked, full,
refused and (as root) its card failing, the observers raising, once each at a random moment of
a game against the computer: the daemon steps on, says every fault, every part works again,
and no acknowledged move is lost."""

import os
import signal

import pytest

from bench.robust import faults
from bench.robust.common import Stop
from bench.robust.faults import FAULTS, make_card, run
from firmware_host.store.storage import Storage
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


@pytest.mark.broker
def test_sigterm_inside_a_write_lets_it_end_and_the_rig_close(monkeypatch, capsys):
    """SIGTERM arriving while a move is being saved (sent from inside the write here): the write
    ends whole, the run stops between two of the daemon's steps, closes its rig, card and broker
    and says so (SystemExit was raised inside the write before)."""
    add_move, saved, brokers = Storage.add_move, [], []

    def signalled(self, *args) -> None:
        if not saved:
            os.kill(os.getpid(), signal.SIGTERM)
        add_move(self, *args)
        saved.append(args)

    def started(self):
        brokers.append(self)
        return start(self)

    start = Broker.start
    monkeypatch.setattr(Storage, "add_move", signalled)
    monkeypatch.setattr(Broker, "start", started)
    monkeypatch.setattr(faults, "STOP", Stop())
    handler = signal.getsignal(signal.SIGTERM)
    try:
        status = faults.main(["--quick"])
    finally:
        signal.signal(signal.SIGTERM, handler)
    assert status == 1 and len(saved) == 1, saved  # the first move's write ended, no other began
    assert "faults: stopped by SIGTERM before the figures were made" in capsys.readouterr().err
    assert [broker.proc.poll() is not None for broker in brokers] == [True]
