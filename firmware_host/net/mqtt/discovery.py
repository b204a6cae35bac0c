"""Home Assistant MQTT discovery: one device per board, its entities announced (retained) under
``homeassistant/<component>/reedboard_<id>/<object>/config``.

Sensors Game, To move, Status, Ply (a count that starts again each game: no statistics), Last
result read the board's state, and Time left 1 to 4 their own topics
(``reedboard/<id>/clock/<n>``: each player's clock in seconds, in turn order, the sides or in
Team play each of the four players; unknown without a clock; sent at each change of the state
and each second while it runs);
binary sensors Out of sync and Needs attention (out of sync, or the hardware missing or not
responding) read it too, Connected its availability; a button starts a new game of the same
kind and a select picks one of the games the board can play (by title, "Antipalos 5",
"Anti-Grid 6 chain": each game, size and variant its state's ``playable`` lists; its value is
the state's ``choice``, the game now). A board that refuses commands (kiosk mode without
``[mqtt] kiosk_commands``) announces neither, and clears what an earlier start announced (an
empty retained config removes an entity).

>>> messages = dict(discovery_messages(Device("table-7")))
>>> sorted(topic.split("/")[1] + "/" + topic.split("/")[3] for topic in messages)[:4]
['binary_sensor/attention', 'binary_sensor/connectivity', 'binary_sensor/out_of_sync', 'button/new_game']
>>> json.loads(messages["homeassistant/sensor/reedboard_table-7/ply/config"])["state_topic"]
'reedboard/table-7/state'
>>> json.loads(messages["homeassistant/sensor/reedboard_table-7/clock_2/config"])["state_topic"]
'reedboard/table-7/clock/2'
>>> kiosk = dict(discovery_messages(Device("table-7"), obeys=False))
>>> kiosk["homeassistant/button/reedboard_table-7/new_game/config"]
''
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, Iterator, Sequence

from firmware_host.actions.reading import MOST_SIDES
from firmware_host.net.mqtt import topics

PREFIX = "homeassistant"


def _version() -> str:
    try:
        return metadata.version("reedboard")
    except metadata.PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class Device:
    """How Home Assistant shows board ``board``: the page it links to (``configuration_url``,
    None: none) and the software's version."""

    board: str
    configuration_url: str | None = None
    sw_version: str = field(default_factory=_version)

    def json(self) -> dict[str, Any]:
        node = f"reedboard_{self.board}"
        device = {
            "identifiers": [node],
            "name": f"reedboard {self.board}",
            "manufacturer": "reedboard",
            "model": "sensor game board",
            "sw_version": self.sw_version,
        }
        if self.configuration_url:
            device["configuration_url"] = self.configuration_url
        return device


_PROBLEM = {"device_class": "problem", "payload_on": "ON", "payload_off": "OFF"}

#: (component, object, its own fields): the entities every board has.
ENTITIES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    (
        "sensor",
        "game",
        {"name": "Game", "value_template": "{{ value_json.title }}", "icon": "mdi:checkerboard"},
    ),
    (
        "sensor",
        "to_move",
        {
            "name": "To move",
            "value_template": "{{ value_json.to_move or 'game over' }}",
            "icon": "mdi:account-arrow-right",
        },
    ),
    (
        "sensor",
        "status",
        {"name": "Status", "value_template": "{{ value_json.status }}", "icon": "mdi:message-text"},
    ),
    ("sensor", "ply", {"name": "Ply", "value_template": "{{ value_json.ply }}", "icon": "mdi:counter"}),
    (
        "sensor",
        "last_result",
        {
            "name": "Last result",
            "value_template": "{{ value_json.last_result or 'none yet' }}",
            "icon": "mdi:trophy",
        },
    ),
    (
        "binary_sensor",
        "connectivity",
        {
            "name": "Connected",
            "device_class": "connectivity",
            "payload_on": topics.ONLINE,
            "payload_off": topics.OFFLINE,
        },
    ),
    (
        "binary_sensor",
        "out_of_sync",
        {
            "name": "Out of sync",
            **_PROBLEM,
            "value_template": "{{ 'ON' if value_json.sync == 'out_of_sync' else 'OFF' }}",
        },
    ),
    (
        "binary_sensor",
        "attention",
        {
            "name": "Needs attention",
            **_PROBLEM,
            "value_template": "{{ 'ON' if value_json.sync == 'out_of_sync' or value_json.hardware "
            "!= 'ok' else 'OFF' }}",
        },
    ),
    *(
        (
            "sensor",
            f"clock_{seat + 1}",
            {
                "name": f"Time left {seat + 1}",
                "device_class": "duration",
                "unit_of_measurement": "s",
                "value_template": "{{ value_json.left }}",
                "icon": "mdi:timer-sand",
            },
        )
        for seat in range(MOST_SIDES)
    ),
)

#: The entities that send commands: announced only on a board that takes them.
COMMANDS = (
    (
        "button",
        "new_game",
        {"name": "New game", "payload_press": '{"command": "new_game"}', "icon": "mdi:restart"},
    ),
    (
        "select",
        "game",
        {
            "name": "Game choice",
            "value_template": "{{ value_json.choice }}",
            "command_template": '{"command": "new_game", "title": "{{ value }}"}',
        },
    ),
)


def discovery_messages(
    device: Device, titles: Sequence[str] = (), obeys: bool = True
) -> Iterator[tuple[str, str]]:
    """(topic, JSON config) for each entity of the board; with ``obeys`` False the command
    entities' configs are empty (removed). The select offers the games ``titles`` name (the
    state's ``playable`` titles)."""
    node = f"reedboard_{device.board}"
    for component, name, fields in ENTITIES + COMMANDS:
        topic = f"{PREFIX}/{component}/{node}/{name}/config"
        if (component, name, fields) in COMMANDS and not obeys:
            yield topic, ""
            continue
        config: dict[str, Any] = {
            "unique_id": f"{node}_{component}_{name}",
            "device": device.json(),
            **fields,
        }
        if name == "connectivity":
            config["state_topic"] = topics.availability_topic(device.board)
        else:
            config["availability_topic"] = topics.availability_topic(device.board)
        if name.startswith("clock_"):  # its own topic, sent each second while it runs
            config["state_topic"] = topics.clock_topic(device.board, int(name[6:]))
        elif component in ("sensor", "select", "binary_sensor") and name != "connectivity":
            config["state_topic"] = topics.state_topic(device.board)
        if component in ("button", "select"):
            config["command_topic"] = topics.command_topic(device.board)
        if component == "select":
            config["options"] = list(titles)
        yield topic, json.dumps(config)


def removal_messages(board: str) -> Iterator[tuple[str, str]]:
    """An empty retained config for every entity of ``board``: its device goes from Home
    Assistant (a retired table)."""
    for topic, _ in discovery_messages(Device(board, sw_version="")):
        yield topic, ""
