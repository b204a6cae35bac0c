"""Until a board started by a test is online on its broker: the board says ``online`` (its
``availability`` topic) once connected, after asking for its subscriptions, and the broker
takes a connection's requests in order, so a command sent from then on reaches it.
"""

from __future__ import annotations

import threading
from pathlib import Path

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from firmware_host.net.mqtt import topics
from firmware_host.store.config import load_config

#: How long a board may take to come online (a guard: the wait ends when it does).
ONLINE_SECONDS = 20.0


def wait_online(config: Path, timeout: float = ONLINE_SECONDS) -> bool | None:
    """Until the board that ``config`` sets up says it is online on its broker (True). None
    at once when there is nothing to wait for or to watch with: no ``[mqtt] host``, a broker
    that is down, or one that takes no anonymous client (a café with passwords: its own
    tests wait on what its logins may read); None after ``timeout`` s from a broker that never
    answered. False when a broker that took this watcher heard no ``online`` in ``timeout`` s."""
    settings = load_config(str(config)).mqtt
    if settings.host is None or settings.tls:
        return None
    done, online, watching = threading.Event(), threading.Event(), threading.Event()
    client = paho.Client(CallbackAPIVersion.VERSION2)
    topic = topics.availability_topic(settings.board_id)

    def connected(client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            done.set()
        else:
            watching.set()
            client.subscribe(topic, qos=1)

    def message(client, userdata, msg) -> None:
        if msg.payload == topics.ONLINE.encode():
            online.set()
            done.set()

    client.on_connect, client.on_message = connected, message
    try:
        client.connect(settings.host, settings.port)
    except OSError:
        return None
    client.loop_start()
    try:
        done.wait(timeout)
    finally:
        client.disconnect()
        client.loop_stop()
    return online.is_set() if watching.is_set() else None
