"""The link's stop on a broker that does not answer: ``timeout`` bounds the whole stop (the
sender's end, the last message's acknowledgement and paho's end share one deadline; each had
the whole timeout before, up to three times it), and the journal says what was left."""

from __future__ import annotations

import os
import signal
import threading

from firmware_host.net.mqtt.link import Link
from firmware_host.store.config import Mqtt
from testbed.broker import gone
from testbed.tools import wait_until

#: The stop's bound here.
TIMEOUT = 2.0


def _stuck_link(port: int) -> tuple[Link, threading.Event]:
    """A link to ``port`` whose liveness check (run by its sender once a second) hangs until
    released; once it hangs."""
    link = Link(Mqtt(host="127.0.0.1", port=port), "reedboard-stop")
    entered, released = threading.Event(), threading.Event()

    def hang() -> None:
        entered.set()
        released.wait()

    link.every_second = hang
    link.start()
    assert entered.wait(10)
    return link, released


def _stopped(link: Link, released: threading.Event) -> None:
    """Stop ``link`` with its goodbye (the suite times nothing: the journal says what the one
    deadline left)."""
    try:
        link.stop(last=("reedboard/t1/availability", "offline"), timeout=TIMEOUT)
    finally:
        released.set()


def test_a_broker_that_stopped_answering_ends_the_stop_saying_what_was_left(broker, capsys):
    link, released = _stuck_link(broker.port)
    assert wait_until(link.connected.is_set, 10)
    os.kill(broker.proc.pid, signal.SIGSTOP)  # its machine hangs: nothing is acknowledged
    try:
        _stopped(link, released)
    finally:
        os.kill(broker.proc.pid, signal.SIGCONT)
    said = capsys.readouterr().err
    assert f"reedboard run: the broker link's stop took its {TIMEOUT:g} s; left: the sender, " in said
    assert "the last message unacknowledged ('reedboard/t1/availability')" in said


def test_a_broker_gone_mid_connect_ends_the_stop_saying_what_was_left(capsys):
    """Its machine gone (connections neither taken nor refused): paho's thread still tries."""
    with gone() as port:
        link, released = _stuck_link(port)
        _stopped(link, released)
    said = capsys.readouterr().err
    assert "left: the sender, paho's network thread" in said
