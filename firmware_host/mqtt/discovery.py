"""Home Assistant MQTT discovery: one device per board, its entities announced (retained) under
``homeassistant/<component>/reedboard_<id>/<object>/config``.

Sensors game, to move, status and ply read the board's state; a connectivity binary sensor
reads its availability; a button starts a new game of the same kind; a select picks the game.

>>> messages = dict(discovery_messages("table-7"))
>>> sorted(topic.split("/")[1] + "/" + topic.split("/")[3] for topic in messages)[:3]
['binary_sensor/connectivity', 'button/new_game', 'select/game']
>>> json.loads(messages["homeassistant/sensor/reedboard_table-7/ply/config"])["state_topic"]
'reedboard/table-7/state'
"""

from __future__ import annotations

import json
from typing import Any, Iterator

from engines import GAME_NAMES
from firmware_host.mqtt import topics

PREFIX = "homeassistant"

#: (component, object, its own fields): the entities of one board.
ENTITIES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("sensor", "game", {"name": "Game", "value_template": "{{ value_json.title }}",
                        "icon": "mdi:checkerboard"}),
    ("sensor", "to_move", {"name": "To move", "value_template": "{{ value_json.to_move }}",
                           "icon": "mdi:account-arrow-right"}),
    ("sensor", "status", {"name": "Status", "value_template": "{{ value_json.status }}",
                          "icon": "mdi:message-text"}),
    ("sensor", "ply", {"name": "Ply", "value_template": "{{ value_json.ply }}",
                       "state_class": "measurement", "icon": "mdi:counter"}),
    ("binary_sensor", "connectivity", {"name": "Connected", "device_class": "connectivity",
                                       "payload_on": topics.ONLINE,
                                       "payload_off": topics.OFFLINE}),
    ("button", "new_game", {"name": "New game", "payload_press": '{"command": "new_game"}',
                            "icon": "mdi:restart"}),
    ("select", "game", {"name": "Game choice", "options": list(GAME_NAMES),
                        "value_template": "{{ value_json.game }}",
                        "command_template": '{"command": "new_game", "game": "{{ value }}"}'}),
)


def discovery_messages(board: str) -> Iterator[tuple[str, str]]:
    """(topic, JSON config) for each entity of ``board``."""
    node = f"reedboard_{board}"
    device = {"identifiers": [node], "name": f"reedboard {board}", "manufacturer": "reedboard",
              "model": "sensor game board"}
    for component, name, fields in ENTITIES:
        config: dict[str, Any] = {"unique_id": f"{node}_{component}_{name}", "device": device, **fields}
        if component == "binary_sensor":
            config["state_topic"] = topics.availability_topic(board)
        else:
            config["availability_topic"] = topics.availability_topic(board)
        if component in ("sensor", "select"):
            config["state_topic"] = topics.state_topic(board)
        if component in ("button", "select"):
            config["command_topic"] = topics.command_topic(board)
        yield f"{PREFIX}/{component}/{node}/{name}/config", json.dumps(config)
