"""The dashboard running: the fleet fed by a broker link, the archive it keeps, the page served,
until a signal; their threads are checked every second (one that died is started again and
said). Closing them after the signal has CLOSE_SECONDS, whatever a part does."""

from __future__ import annotations

import json
import os
import secrets
import sys
import threading
from typing import Any, TextIO, cast

from firmware_host.league.store import LeagueStore
from firmware_host.net.address import host_address
from firmware_host.net.cafe.archive import Archive
from firmware_host.net.cafe.clock import Clock
from firmware_host.net.cafe.fleet import Fleet
from firmware_host.net.cafe.league_web import LeagueDesk
from firmware_host.net.cafe.server import Dashboard
from firmware_host.net.mqtt import topics
from firmware_host.net.mqtt.discovery import Device
from firmware_host.net.mqtt.link import Link
from firmware_host.net.web.address import is_loopback, new_token, page_address
from firmware_host.net.web.base import WebServer
from firmware_host.runtime.closing import Closing
from firmware_host.runtime.stopping import stop_on_signals
from firmware_host.store.config import Mqtt

#: After a signal, closing the parts (the broker link, the page, the archive's last writes)
#: may take this long; then the dashboard says which part hung and ends at once (status 1),
#: well within its unit's TimeoutStopSec (10 s), so that a stop never needs a SIGKILL.
CLOSE_SECONDS = 5.0
#: What the dashboard listens to on every board.
KINDS = ("state", "availability", "reply", "record", "games")
#: The dashboard's alerts (retained JSON: the latest, and how many tables need attention), and
#: how Home Assistant shows them: a device "reedboard café" with two sensors.
ALERTS_TOPIC = "reedboard-cafe/alerts"
CAFE_ENTITIES = (
    (
        "last_alert",
        {
            "name": "Last alert",
            "value_template": "{{ value_json.what }}",
            "json_attributes_topic": ALERTS_TOPIC,
            "icon": "mdi:bell-alert",
        },
    ),
    (
        "attention",
        {
            "name": "Tables needing attention",
            "value_template": "{{ value_json.attention }}",
            "icon": "mdi:table-alert",
        },
    ),
)


def start(
    settings: Mqtt,
    broker: str,
    broker_port: int,
    host: str,
    port: int,
    token: str | None,
    out: TextIO = sys.stderr,
    archive: Archive | None = None,
    clock: Clock | None = None,
    league: tuple[LeagueStore, tuple[str, ...]] | None = None,
) -> tuple[Link, WebServer]:
    """The link (connecting in the background) and the served page; ``archive``: where finished
    games are kept (None: nowhere); ``clock``: the café's (None: the system's zone);
    ``league``: the league's store and its tables' boards (None: no league pages). OSError if
    the page's address cannot be used."""
    if not is_loopback(host):
        token = token or new_token()
        print(
            f"reedboard cafe: WARNING: serving the dashboard beyond this machine ({host}); "
            "the commands need the token in the address below",
            file=out,
        )
    fleet = Fleet(archive, clock)
    # Its own client id, never another dashboard's (the broker drops the older of two alike, and
    # each then takes the other's place every second): two started in one process, or two
    # containers each its process 1, share a pid.
    link = Link(
        settings,
        f"reedboard-cafe-{os.getpid()}-{secrets.token_hex(3)}",
        host=broker,
        port=broker_port,
        who="reedboard cafe",
    )
    publish = lambda topic, text, retain: link.publish(topic, text, retain)  # noqa: E731
    desk = LeagueDesk(league[0], league[1], fleet, publish) if league else None
    dashboard = Dashboard(fleet, publish, token, host, desk)
    if desk is not None:
        fleet.on_record = desk.game_over
    fleet.listener, fleet.on_reply = dashboard.table_changed, dashboard.replied

    def alerted(alert: dict[str, Any]) -> None:
        dashboard.alerted(alert)
        attention = sum(1 for view in fleet.views() if _needs_attention(view))
        link.publish(ALERTS_TOPIC, json.dumps({**alert, "attention": attention}), retain=True)

    def connected() -> None:
        fleet.broker(True)
        dashboard.broker_changed(True)
        for topic, payload in _cafe_discovery():
            link.publish(topic, payload, retain=True)

    def disconnected() -> None:
        fleet.broker(False)
        dashboard.broker_changed(False)

    fleet.on_alert = alerted
    link.on_connect, link.on_disconnect, link.every_second = connected, disconnected, fleet.tick
    for kind in KINDS:
        link.subscribe(topics.topic("+", kind), fleet.receive)
    server = WebServer(dashboard, host, port)
    server.start()
    link.start()
    query = f"?token={token}" if token else ""
    where = f"; games kept in {archive.where}" if archive else ""
    url = page_address(host, server.port, host_address())
    print(
        f"reedboard cafe: the dashboard is at {url}{query} (broker {broker}:{broker_port}{where})",
        file=out,
        flush=True,
    )
    return link, server


def _needs_attention(view: dict[str, Any]) -> bool:
    state = view["state"]
    return not view["online"] or state.get("sync") == "out_of_sync" or state.get("hardware", "ok") != "ok"


def _cafe_discovery() -> list[tuple[str, str]]:
    """Home Assistant's configs for the dashboard's own entities."""
    device = {
        **Device("cafe").json(),
        "identifiers": ["reedboard_cafe_dashboard"],
        "name": "reedboard café",
        "model": "café dashboard",
    }
    return [
        (
            f"homeassistant/sensor/reedboard_cafe_dashboard/{name}/config",
            json.dumps(
                {
                    "unique_id": f"reedboard_cafe_dashboard_{name}",
                    "device": device,
                    "state_topic": ALERTS_TOPIC,
                    **fields,
                }
            ),
        )
        for name, fields in CAFE_ENTITIES
    ]


def serve(
    settings: Mqtt,
    broker: str,
    broker_port: int,
    host: str,
    port: int,
    token: str | None,
    archive: Archive | None = None,
    clock: Clock | None = None,
    league: tuple[LeagueStore, tuple[str, ...]] | None = None,
) -> int:
    """Run until SIGTERM or SIGINT (one that comes while it starts too)."""
    stop = threading.Event()
    stop_on_signals(stop.set)  # before the address is said
    try:
        link, server = start(
            settings, broker, broker_port, host, port, token, archive=archive, clock=clock, league=league
        )
    except OSError as exc:
        print(
            f"reedboard cafe: cannot serve the page on {host}:{port}: {exc.strerror or exc}", file=sys.stderr
        )
        return 2
    parts: list[tuple[str, Any]] = [("network", link), ("page", server)]
    parts += [("archive", archive)] if archive is not None else []
    parts += [("league", cast(Dashboard, server.pages).league)] if league is not None else []
    while not stop.wait(1.0):  # the helpers' threads kept going; one that died is said
        for name, part in parts:
            if said := part.check():
                print(f"reedboard cafe: {name}: {said}", file=sys.stderr)
    with Closing("reedboard cafe", CLOSE_SECONDS) as closing:
        closing.part("the broker link")
        link.stop()
        closing.part("the page")
        server.stop()
        closing.part("the archive")
        if archive is not None and not archive.flush(max(0.0, closing.left() - 0.5)):
            print(
                f"reedboard cafe: stopped with {archive.waiting} writes not made to the archive "
                f"({archive.where} is away); each board keeps its own games",
                file=sys.stderr,
            )
    return 0
