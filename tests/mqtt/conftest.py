"""Fixtures: a fresh Mosquitto per test, a watcher on it, boards stopped at the end."""

from __future__ import annotations

import pytest

from tests.mqtt.mqtt_tools import Board, Broker, Watcher


@pytest.fixture
def broker(tmp_path):
    broker = Broker(tmp_path).start()
    yield broker
    broker.stop()


@pytest.fixture
def watcher(broker):
    watcher = Watcher(broker.port, "reedboard/#", "homeassistant/#")
    yield watcher
    watcher.close()


@pytest.fixture
def boards():
    """Start boards with ``boards(config)``; all are stopped at the end."""
    started: list[Board] = []

    def start(config) -> Board:
        started.append(Board(config))
        return started[-1]

    yield start
    for board in started:
        board.stop()
