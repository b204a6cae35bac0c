"""The link's threads on a real Mosquitto: a message handler that raises is one line in the
journal and the next message is handled; paho's network thread or the sender killed (an
exception nothing catches, raised in it) is started again by ``check()``, said once, and
messages flow both ways again."""

from __future__ import annotations

import threading
import time

import paho.mqtt.publish as publish

from firmware_host.net.mqtt.link import Link
from firmware_host.store.config import Mqtt
from testbed.tools import inject, wait_until


def _link(port: int) -> tuple[Link, list]:
    link = Link(Mqtt(host="127.0.0.1", port=port), "reedboard-sv")
    got: list[tuple[str, bytes]] = []
    link.subscribe("t/ok", lambda topic, payload: got.append((topic, payload)))
    link.subscribe("t/bad", lambda topic, payload: 1 / 0)
    link.start()
    deadline = time.monotonic() + 10
    while not got:  # until the link's subscriptions are in place, messages are lost
        assert time.monotonic() < deadline, "the link never subscribed"
        publish.single("t/ok", "hello", hostname="127.0.0.1", port=port)
        time.sleep(0.1)
    got.clear()
    return link, got


def test_a_handler_that_raises_is_one_line_and_the_network_goes_on(broker, watcher, capsys):
    link, got = _link(broker.port)
    try:
        for _ in range(3):
            watcher.publish("t/bad", "x")
        watcher.publish("t/ok", "after")
        assert wait_until(lambda: ("t/ok", b"after") in got, 10)  # (a late "hello" may come first)
        err = capsys.readouterr().err
        assert err.count("dropped a message on 't/bad': ZeroDivisionError: division by zero") == 1
        assert "Traceback" not in err and link.check() is None
    finally:
        link.stop()


def test_dead_network_and_sender_threads_are_started_again(broker, watcher):
    link, got = _link(broker.port)
    try:
        for thread in (link.client._thread, link._sender.thread):
            assert inject(thread)  # paho's wakes within a second, the sender every second
            assert wait_until(lambda: not thread.is_alive(), 5)
        said: list[str] = []
        assert wait_until(
            lambda: (
                said.append(link.check())
                or all(t is not None and t.is_alive() for t in (link.client._thread, link._sender.thread))
            ),
            5,
        )
        assert [s for s in said if s] == [
            "its thread ended (ThreadDeath); it is started again; its network thread ended "
            "(ThreadDeath); it is started again"
        ]  # both, in one answer, once
        assert link.check() is None
        assert link.connected.wait(10)
        watcher.publish("t/ok", "again")
        assert wait_until(lambda: ("t/ok", b"again") in got, 10)
        link.publish("reedboard/sv/out", "from the board")
        watcher.wait("reedboard/sv/out", lambda text: text == "from the board")
    finally:
        link.stop()
    assert not any(t.name == "mqtt-send" and t.is_alive() for t in threading.enumerate())
