"""The loop's side in this process, on a real Mosquitto: a loop that stops stepping is
reported, and a command waits for the loop instead of touching the controller from the
network's thread."""

from __future__ import annotations

import json
import subprocess
import time
from dataclasses import replace

import pytest

from firmware_host.net.mqtt import topics
from firmware_host.net.mqtt.link import Link
from firmware_host.net.mqtt.observer import NetBoard
from firmware_host.runtime.session import configured_game, open_controller
from firmware_host.store.config import Config, Mqtt
from firmware_host.store.storage import Storage
from testbed.broker import Broker
from testbed.tools import wait_until


def _board(tmp_path, port: int):
    config = replace(Config(), game="antipalos", size=5, storage=str(tmp_path / "games.db"))
    controller = open_controller(config, Storage(config.storage), configured_game(config))
    link = Link(Mqtt(host="127.0.0.1", port=port), "reedboard-t1")
    net = NetBoard(link, "t1")
    link.on_connect, link.every_second = net.on_connect, net.check_alive
    link.start()
    return controller, net


def test_a_loop_that_stops_stepping_says_so_and_recovers(tmp_path, broker, watcher):
    controller, net = _board(tmp_path, broker.port)
    try:
        net.sync(0, controller, [])
        assert watcher.state("t1")["hardware"] == "ok"
        watcher.state("t1", lambda s: s["hardware"] == "not responding")  # 3 s without a step
        net.sync(10, controller, [])
        deadline = time.monotonic() + 10
        while json.loads(watcher.texts("reedboard/t1/state")[-1])["hardware"] != "ok":
            assert time.monotonic() < deadline, "the state did not recover"
            time.sleep(0.05)
    finally:
        net.stop()


def test_commands_wait_for_the_loop(tmp_path, broker, watcher):
    controller, net = _board(tmp_path, broker.port)
    try:
        net.sync(0, controller, [])
        watcher.state("t1")
        watcher.publish("reedboard/t1/command", '{"command": "brightness", "value": 0.25, "id": 5}')
        assert wait_until(lambda: not net.quiet, 15)  # the board has it ...
        assert controller.brightness == 0.5  # ... and waits: only a step applies it
        while not watcher.texts("reedboard/t1/reply"):
            net.sync(1, controller, [])
            time.sleep(0.01)
        assert controller.brightness == 0.25
        assert json.loads(watcher.wait("reedboard/t1/reply")) == {"id": 5, "ok": True}
    finally:
        net.stop()


@pytest.mark.broker  # its own Mosquitto, with a password file and an ACL
def test_a_pairing_whose_acl_lacks_the_read_lines_is_seen_within_seconds(tmp_path):
    """The docs' ACL without the pair's read lines: Mosquitto grants the subscription and sends
    nothing, so after SILENT_SECONDS connected the link says it cannot read the other board;
    with the lines, the other board's retained availability comes and it never says so.
    (remote.py shows it on the OLED.)"""
    passwords, acl = tmp_path / "passwd", tmp_path / "acl"
    for create, user in (["-c"], "t1"), ([], "t2"):
        subprocess.run(
            ["mosquitto_passwd", *create, "-b", str(passwords), user, "secret"],
            check=True,
            capture_output=True,
        )
    (tmp_path / "pw").write_text("secret\n")
    docs = (
        "pattern write reedboard/%u/#\npattern read reedboard/%u/command\n"
        "pattern write homeassistant/+/reedboard_%u/#\n"
    )
    for lines, silent in (("", True), ("user t1\ntopic read reedboard/t2/#\n", False)):
        acl.write_text(docs + lines)
        broker = Broker(tmp_path, f"password_file {passwords}\nacl_file {acl}\n").start()
        links = {
            user: Link(
                Mqtt(host="127.0.0.1", port=broker.port, username=user, password_file=str(tmp_path / "pw")),
                f"reedboard-{user}",
                will=(topics.availability_topic(user), topics.OFFLINE),
            )
            for user in ("t1", "t2")
        }
        other = topics.availability_topic("t2")
        links["t2"].publish(other, topics.ONLINE, retain=True)
        links["t2"].start()
        time.sleep(0.5)
        links["t1"].subscribe(other, lambda *_: None)
        links["t1"].start()
        t1 = links["t1"]
        try:
            assert wait_until(lambda: other in t1.heard or t1.cannot_read(other), timeout=10)
            assert not t1.unreadable(other)  # granted either way
            assert t1.cannot_read(other) is silent and (other in t1.heard) is not silent
        finally:
            for link in links.values():
                link.stop()
            broker.stop()
