"""The dashboard running: the fleet fed by a broker link, the page served, until a signal;
their threads are checked every second (one that died is started again and said)."""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import TextIO

from firmware_host.cafe.fleet import Fleet
from firmware_host.cafe.server import Dashboard
from firmware_host.config import Mqtt
from firmware_host.mqtt import topics
from firmware_host.mqtt.link import Link
from firmware_host.web.address import is_loopback, new_token
from firmware_host.web.server import WebServer

#: What the dashboard listens to on every board.
KINDS = ("state", "availability", "reply")


def start(settings: Mqtt, broker: str, broker_port: int, host: str, port: int,
          token: str | None, out: TextIO = sys.stderr) -> tuple[Link, WebServer]:
    """The link (connecting in the background) and the served page; OSError if the page's
    address cannot be used."""
    if not is_loopback(host):
        token = token or new_token()
        print(f"reedboard cafe: WARNING: serving the dashboard beyond this machine ({host}); "
              "the commands need the token in the address below", file=out)
    fleet = Fleet()
    link = Link(settings, f"reedboard-cafe-{os.getpid()}", host=broker, port=broker_port)
    dashboard = Dashboard(fleet, lambda board, text: link.publish(topics.command_topic(board), text),
                          token, host)
    fleet.listener, fleet.on_reply = dashboard.table_changed, dashboard.replied
    link.on_connect = lambda: dashboard.broker_changed(True)
    link.on_disconnect = lambda: dashboard.broker_changed(False)
    for kind in KINDS:
        link.subscribe(topics.topic("+", kind), fleet.receive)
    server = WebServer(dashboard, host, port)
    server.start()
    link.start()
    query = f"?token={token}" if token else ""
    print(f"reedboard cafe: the dashboard is at {server.url}{query} (broker {broker}:{broker_port})",
          file=out, flush=True)
    return link, server


def serve(settings: Mqtt, broker: str, broker_port: int, host: str, port: int,
          token: str | None) -> int:
    """Run until SIGTERM or SIGINT."""
    try:
        link, server = start(settings, broker, broker_port, host, port, token)
    except OSError as exc:
        print(f"reedboard cafe: cannot serve the page on {host}:{port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    while not stop.wait(1.0):  # the helpers' threads kept going; one that died is said
        for name, part in (("network", link), ("page", server)):
            if said := part.check():
                print(f"reedboard cafe: {name}: {said}", file=sys.stderr)
    link.stop()
    server.stop()
    return 0
