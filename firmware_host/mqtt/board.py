"""The run loop's side of the café network: :class:`NetBoard` is a ``Daemon`` observer.

After every step it carries out the commands the broker sent (between steps, so only the loop
touches the controller), hands each event to the link and, when something happened, the board's
state: JSON text queued, never a wait for the network. A command that is refused (bad, or from
the broker in kiosk mode) is answered on ``reedboard/<id>/reply`` and changes nothing.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections import deque
from typing import Any, Iterable

from firmware_host.controller import Controller
from firmware_host.menu import TakeBack
from firmware_host.mqtt import topics
from firmware_host.mqtt.commands import Again, Command, parse
from firmware_host.mqtt.discovery import discovery_messages
from firmware_host.mqtt.link import Link
from firmware_host.mqtt.remote import Remote
from firmware_host.stats import today
from firmware_host.storage import StorageError
from firmware_host.web.commands import CommandError, NewGame

#: Commands waiting for the loop at most (more are refused: the board is busy).
PENDING = 16
#: Seconds without a step after which the state says the hardware is not responding.
STALE_SECONDS = 3.0
#: Events after which today's games are counted again.
DAY_EVENTS = {"new_game", "game_over", "takeback"}


class NetBoard:
    """Board ``board_id`` on ``link``; ``obey_commands``: False in kiosk mode unless the
    config allows; ``hardware``: "ok", or "not connected" when the configured hardware is
    missing (the simulated board stands in)."""

    #: How the daemon names it when its threads fail ("Network restarting").
    label = "Network"

    def __init__(self, link: Link, board_id: str, obey_commands: bool = True,
                 hardware: str = "ok", discovery: bool = True) -> None:
        self.link, self.board = link, board_id
        self.obey = obey_commands
        self.hardware = hardware
        self.discovery = discovery
        self._commands: deque[tuple[Command, Any]] = deque()
        self._lock = threading.Lock()
        self._state: dict[str, Any] | None = None
        self._sent = ""
        self._game_id: Any = None
        self._today: dict[str, Any] | None = None
        self._last_move_at: str | None = None
        self._stepped = time.monotonic()
        self._stale = False
        self._quiet_until = 0.0
        self._waker: Any = None
        link.subscribe(topics.command_topic(board_id), self._on_command)

    # ------------------------------------------------------------------ the loop's thread
    def wakes(self, waker: Any) -> None:
        """Set ``waker`` (the loop's, which may be waiting on a quiet board) on a command."""
        self._waker = waker

    @property
    def quiet(self) -> bool:
        """True when no command waits for the loop."""
        return not self._commands

    def sync(self, now: float, controller: Controller, events: Iterable[dict[str, Any]]) -> None:
        """After a controller step: apply the due commands, publish events and the state."""
        self._stepped = time.monotonic()
        with self._lock:
            commands = list(self._commands)
            self._commands.clear()
        for command, ident in commands:
            self._apply(controller, command, ident)
        events = list(events)
        for event in events:
            self.link.publish(topics.events_topic(self.board), topics.event_json(event))
        if events or commands or self._state is None or self._stale:
            self._publish_state(controller, events)

    def _apply(self, controller: Controller, command: Command, ident: Any) -> None:
        if isinstance(command, TakeBack) and not controller.moves:
            return self._reply(ident, "no move to take back")
        if isinstance(command, Again):
            controller.new_game(controller.game)
        elif isinstance(command, NewGame) and command.players() is not None:
            controller.set_players(command.players(), command.game)
        elif isinstance(command, NewGame):
            controller.new_game(command.game)
        else:
            controller.command(command)
        self._reply(ident, None)

    def _publish_state(self, controller: Controller, events: list[dict[str, Any]]) -> None:
        first_move = len(controller.moves) == 1 and any(e["event"] == "move" for e in events)
        if (controller.game_id != self._game_id or first_move
                or any(e["event"] in DAY_EVENTS for e in events)):
            self._game_id = controller.game_id
            self._today = _today(controller)
        if any(e["event"] == "move" for e in events):
            self._last_move_at = topics.utc_now()
        self._stale = False
        state = topics.board_state(
            controller, board=self.board, hardware=self.hardware,
            opponent=controller.opponent.record(controller.state) if controller.opponent else None,
            last_move_at=self._last_move_at, today=self._today,
        )
        self._send_state(state)

    def _send_state(self, state: dict[str, Any]) -> None:
        text = json.dumps(state)
        if text != self._sent:
            self._sent, self._state = text, state
            self.link.publish(topics.state_topic(self.board), text, retain=True)

    def check(self) -> str | None:
        """The link's threads kept going (one that died is started again): what is wrong."""
        return self.link.check()

    def stop(self, timeout: float = 1.0) -> None:
        """Offline (retained), then disconnect: at most about ``timeout`` s."""
        self.link.stop(last=(topics.availability_topic(self.board), topics.OFFLINE), timeout=timeout)

    # ------------------------------------------------------------------ the link's threads
    def on_connect(self) -> None:
        """Online, and (again) the discovery configs for Home Assistant."""
        self.link.publish(topics.availability_topic(self.board), topics.ONLINE, retain=True)
        if self.discovery:
            for topic, payload in discovery_messages(self.board):
                self.link.publish(topic, payload, retain=True)

    def check_alive(self) -> None:
        """Called now and then off the loop: a loop that has not stepped for STALE_SECONDS
        (a scan failing or hung) makes the state say the hardware is not responding."""
        if self._state is None or self._stale:
            return
        if time.monotonic() - self._stepped > STALE_SECONDS:
            self._stale = True
            self._send_state({**self._state, "hardware": "not responding"})

    def _on_command(self, _: str, payload: bytes) -> None:
        try:
            command, ident = parse(payload)
        except CommandError as exc:
            return self._reply(None, str(exc))
        if not self.obey:
            return self._reply(ident, "commands are off in kiosk mode ([mqtt] kiosk_commands)")
        with self._lock:
            if len(self._commands) >= PENDING:
                return self._reply(ident, "busy: too many commands waiting")
            self._commands.append((command, ident))
        if self._waker is not None:
            self._waker.set()

    def _reply(self, ident: Any, error: str | None) -> None:
        reply = {"id": ident, "ok": error is None, **({"error": error} if error else {})}
        if error and time.monotonic() >= self._quiet_until:  # a flood is said once a second
            self._quiet_until = time.monotonic() + 1.0
            print(f"reedboard run: a command from the broker was refused: {error}", file=sys.stderr)
        self.link.publish(topics.reply_topic(self.board), json.dumps(reply))


def _today(controller: Controller) -> dict[str, Any] | None:
    try:
        return topics.day_json(today(controller.storage))
    except StorageError:
        return None


def attach(daemon, config) -> NetBoard:
    """Put ``daemon``'s board on the broker the config's [mqtt] names (connecting in the
    background); :meth:`NetBoard.stop` at the end."""
    settings = config.mqtt
    board_id = settings.board_id
    availability = topics.availability_topic(board_id)
    link = Link(settings, f"reedboard-{board_id}", will=(availability, topics.OFFLINE))
    net = NetBoard(link, board_id, obey_commands=not config.kiosk.enabled or settings.kiosk_commands,
                   hardware="not connected" if daemon.note else "ok", discovery=settings.discovery)
    link.on_connect = net.on_connect
    link.every_second = net.check_alive
    if config.opponent.kind == "remote":
        daemon.controller.opponent = Remote(link, board_id, config.opponent.board, config.opponent.side)
    daemon.attach(net)
    link.start()
    return net
