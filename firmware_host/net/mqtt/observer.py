"""The run loop's side of the café network: :class:`NetBoard` is a ``Daemon`` observer.

After every step it carries out the commands the broker sent (between steps, so only the loop
touches the controller), hands each event to the link and, when something happened, the board's
state: JSON text queued, never a wait for the network. A command that is refused (bad, too many,
one the board cannot play, or from the broker in kiosk mode) is answered on
``reedboard/<id>/reply`` with its ``id`` and a reason, and changes nothing; one that fails in the
controller is answered so too, said in the journal, and the daemon goes on. A finished game's
record (as ``reedboard export`` reads it from the games file) is published, retained, on
``reedboard/<id>/record`` for the café's archive.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections import deque
from typing import Any, Iterable

from firmware_host.actions.commands import Again, NewGame, Roster, SetClock, TakeBack
from firmware_host.actions.limits import BURST, NEW_GAME_SECONDS, RATE, Bucket
from firmware_host.actions.reading import MOST_SIDES
from firmware_host.board import Controls
from firmware_host.board.events import Event
from firmware_host.board.game import Game
from firmware_host.board.playable import Playable
from firmware_host.net.mqtt import topics
from firmware_host.net.mqtt.commands import BrokerCommand, Recent, Refused, parse
from firmware_host.net.mqtt.discovery import Device, discovery_messages
from firmware_host.net.mqtt.link import Link
from firmware_host.net.mqtt.remote import Remote
from firmware_host.net.mqtt.untrusted import shown
from firmware_host.store.storage import StorageError
from firmware_host.ui.stats import today

#: Commands waiting for the loop at most (more are refused: the board is busy).
PENDING = 16
#: Seconds without a step after which the state says the hardware is not responding.
STALE_SECONDS = 3.0
#: Events after which today's games are counted again.
DAY_EVENTS = {"new_game", "game_over", "takeback"}
#: Seconds between two readings of the running clock sent for Home Assistant.
TICK_SECONDS = 1.0


class NetBoard:
    """Board ``board_id`` on ``link``; ``obey_commands``: False in kiosk mode unless the
    config allows; ``hardware``: "ok", or "not connected" when the configured hardware is
    missing (the simulated board stands in); ``game``: the game it plays at the start."""

    #: How the daemon names it when its threads fail ("Network restarting").
    label = "Network"

    def __init__(
        self,
        link: Link,
        board_id: str,
        obey_commands: bool = True,
        hardware: str = "ok",
        discovery: bool = True,
        playable: Playable = Playable(),
        device: Device | None = None,
        game: Game | None = None,
    ) -> None:
        self.link, self.board = link, board_id
        self.obey = obey_commands
        self.hardware = hardware
        self.discovery = discovery
        #: What the board can play: every command is checked against it before it waits.
        self.playable = playable
        #: The titles of the games the board offers (its state's ``playable``, Home Assistant's
        #: select) and the new game each names, as last published (none until they are listed,
        #: off the scan loop: Playable.list_soon).
        self._titles = playable.titles(game) if playable.listed else {}
        #: Whether the state published last had the games listed.
        self._listing_sent = False
        #: How Home Assistant shows the board (its page, software version).
        self.device = device or Device(board_id)
        self._bucket = Bucket(RATE, BURST)
        self._new_games = Bucket(1 / NEW_GAME_SECONDS, 1)
        self._commands: deque[tuple[BrokerCommand, Any]] = deque()
        self._recent = Recent()
        self._lock = threading.Lock()
        self._state: dict[str, Any] | None = None
        self._sent = self._games_sent = ""
        self._game_id: Any = None
        self._today: dict[str, Any] | None = None
        self._last_move_at: str | None = None
        self._stepped = time.monotonic()
        self._stale = False
        self._quiet_until = 0.0
        self._waker: Any = None
        self._ticked = -TICK_SECONDS  # when the clocks were last sent (monotonic s)
        self._times: list[str] = [""] * MOST_SIDES  # each player's time left as last sent
        link.subscribe(topics.command_topic(board_id), self._on_command, retained=self._on_kept_command)
        #: The café's players as last published, until the loop hands them to the menu.
        self._roster: tuple[str, ...] | None = None
        link.subscribe(topics.ROSTER_TOPIC, self._on_roster)

    # ------------------------------------------------------------------ the loop's thread
    def wakes(self, waker: Any) -> None:
        """Set ``waker`` (the loop's, which may be waiting on a quiet board) on a command."""
        self._waker = waker

    @property
    def quiet(self) -> bool:
        """True when no command waits for the loop."""
        return not self._commands

    def sync(self, now: float, controller: Controls, events: Iterable[Event]) -> None:
        """After a controller step: apply the due commands, publish events and the state."""
        self._stepped = time.monotonic()
        with self._lock:
            commands = list(self._commands)
            self._commands.clear()
            roster, self._roster = self._roster, None
        if roster is not None:  # the café's players, for the menu's Names
            controller.command(Roster(roster))
        for command, ident in commands:
            self._apply(controller, command, ident)
        events = list(events)
        for event in events:
            self.link.publish(topics.events_topic(self.board), topics.event_json(event))
        if (
            events
            or commands
            or self._state is None
            or self._stale
            or (not self._listing_sent and self.playable.listed)
        ):  # now with the games
            self._publish_state(controller, events)
            self._send_times(controller)
        elif self._stepped - self._ticked >= TICK_SECONDS:
            self._send_times(controller)

    def _apply(self, controller: Controls, command: BrokerCommand, ident: Any) -> None:
        """Carry out a checked command; a failure is answered and said, and the loop goes on."""
        if isinstance(command, TakeBack) and not controller.record.moves:
            return self._reply(ident, "no move to take back")
        if isinstance(command, SetClock) and (why := controller.clock.refusal(command)):
            return self._reply(ident, why)
        try:
            controller.command(command)
        except Exception as exc:  # noqa: BLE001 - a command must never end the daemon
            why = " ".join(str(exc).split())[:160] or type(exc).__name__
            print(
                f"reedboard run: a command from the broker failed: {type(exc).__name__}: {why}",
                file=sys.stderr,
            )
            return self._reply(ident, f"failed: {why}")
        self._reply(ident, None)

    def _publish_state(self, controller: Controls, events: list[Event]) -> None:
        kinds = {e["event"] for e in events}
        first_move = len(controller.record.moves) == 1 and "move" in kinds
        if controller.record.game_id != self._game_id or first_move or kinds & DAY_EVENTS:
            if controller.record.game_id != self._game_id or "takeback" in kinds:
                self._last_move_at = _last_move_at(controller)  # a restart, a new game
            self._game_id = controller.record.game_id
            self._today = _today(controller)
        if "move" in kinds:
            self._last_move_at = topics.utc_now()
        if "game_over" in kinds:
            self._publish_record(controller)
        self._stale = False
        state = topics.board_state(
            controller,
            board=self.board,
            hardware=self.hardware,
            opponent=controller.opponent.record(controller.record.state) if controller.opponent else None,
            last_move_at=self._last_move_at,
            today=self._today,
        )
        state["last_result"] = state["result"] or (self._today or {}).get("last")
        self._listing_sent = self.playable.listed
        if not self._listing_sent:  # listed off the scan loop; the state again once they are
            self.playable.list_soon()
        else:  # what the dashboard's New game offers
            listing = self.playable.listing(controller.record.game)
            state.update(games=listing["games"], choice=listing["choice"])
            self._send_games(listing["playable"])
            titles = self.playable.titles(controller.record.game)
            if titles is not self._titles:  # Home Assistant's select offers the game now
                self._titles = titles
                self._announce()
        self._send_state(state)

    def _publish_record(self, controller: Controls) -> None:
        """The finished game as stored, retained on ``reedboard/<id>/record`` (the archive)."""
        try:
            records = controller.settings.storage.games(controller.record.game_id)
        except StorageError:
            return
        if records and records[0].finished:
            self.link.publish(topics.record_topic(self.board), topics.record_json(records[0]), retain=True)

    @property
    def sent_state(self) -> str:
        """The JSON text of the state last published (bench/cafe.py measures its size)."""
        return self._sent

    def _send_games(self, playable: list[dict[str, Any]]) -> None:
        """Every game, size and variant the board plays, retained on ``reedboard/<id>/games``
        when it changes: a list too long to send with every state."""
        text = json.dumps({"playable": playable})
        if text != self._games_sent:
            self._games_sent = text
            self.link.publish(topics.games_topic(self.board), text, retain=True)

    def _send_times(self, controller: Controls) -> None:
        """Each player's time left (s, tenths) on its own topic, where it differs from what was
        sent: the running one's at most each :data:`TICK_SECONDS`, the others' when the state
        changes (Home Assistant's Time left sensors)."""
        self._ticked = self._stepped
        clocks = controller.clock.clocks
        left = list(clocks.shown(controller.now).values()) if clocks else []
        for n in range(MOST_SIDES):
            text = json.dumps({"left": round(max(0.0, left[n]) / 1000, 1) if n < len(left) else None})
            if text != self._times[n]:
                self._times[n] = text
                self.link.publish(topics.clock_topic(self.board, n + 1), text, retain=True)

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
        self._announce()

    def _announce(self) -> None:
        """The discovery configs for Home Assistant (retained: the link sends them again on
        every reconnection); none before the games are listed (the scan loop announces them
        then)."""
        if self.discovery and self._titles:
            for topic, payload in discovery_messages(self.device, list(self._titles), self.obey):
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
        """A command from the broker: checked here (its form, the rate, what the board plays),
        then handed to the loop; anything refused is answered at once with the reason. An
        empty message (one clearing a kept command) is no command."""
        if not payload:
            return None
        if not self._bucket.take():
            return self._reply(None, f"too many commands (at most {RATE:g} a second)")
        try:
            command, ident = parse(payload, self._titles)
        except Refused as exc:
            return self._reply(exc.ident, str(exc))
        why = self._refusal(command)
        if why:
            return self._reply(ident, why)
        with self._lock:
            if ident in self._recent:
                return self._reply(ident, f"ignored: a command with id {shown(ident)} was taken already")
            if len(self._commands) >= PENDING:
                return self._reply(ident, "busy: too many commands waiting")
            self._commands.append((command, ident))
            self._recent.add(ident)
        if self._waker is not None:
            self._waker.set()

    def _on_roster(self, _: str, payload: bytes) -> None:
        """The café's list of players (retained): handed to the menu at the next step."""
        with self._lock:
            self._roster = topics.roster(payload)
        if self._waker is not None:
            self._waker.set()

    def _on_kept_command(self, topic: str, payload: bytes) -> None:
        """A command the broker kept (published with retain) and sends at each connection:
        never acted on (it was, when it was sent), removed from the broker where the ACL lets
        the board, and answered."""
        if not payload:
            return None
        self.link.clear(topic)
        try:
            ident = parse(payload)[1]
        except Refused as exc:
            ident = exc.ident
        self._reply(
            ident,
            "ignored: a retained command is acted on once, when it is sent (publish commands without retain)",
        )

    def _refusal(self, command: BrokerCommand) -> str | None:
        if not self.obey:
            return "commands are off in kiosk mode ([mqtt] kiosk_commands)"
        why = self.playable.refusal(command)
        if why is None and isinstance(command, (NewGame, Again)) and not self._new_games.take():
            why = f"one new game every {NEW_GAME_SECONDS:g} s at most"
        return why

    def _reply(self, ident: Any, error: str | None) -> None:
        reply = {"id": ident, "ok": error is None, **({"error": error} if error else {})}
        if error and time.monotonic() >= self._quiet_until:  # a flood is said once a second
            self._quiet_until = time.monotonic() + 1.0
            print(f"reedboard run: a command from the broker was refused: {error}", file=sys.stderr)
        self.link.publish(topics.reply_topic(self.board), json.dumps(reply))


def _today(controller: Controls) -> dict[str, Any] | None:
    try:
        return topics.day_json(today(controller.settings.storage))
    except StorageError:
        return None


def _last_move_at(controller: Controls) -> str | None:
    """When the game's last move was saved (a resumed game's too), None before the first."""
    try:
        return controller.settings.storage.last_move_time(controller.record.game_id)
    except StorageError:
        return None


def attach(daemon, config, playable: Playable | None = None) -> NetBoard:
    """Put ``daemon``'s board on the broker the config's [mqtt] names (connecting in the
    background); :meth:`NetBoard.stop` at the end. ``playable``: what the board plays (the
    daemon's, shared with its menu and page; default: the config's)."""
    settings = config.mqtt
    board_id = settings.board_id
    availability = topics.availability_topic(board_id)
    link = Link(settings, f"reedboard-{board_id}", will=(availability, topics.OFFLINE))
    playable = playable or Playable.of(config)
    playable.list_soon()  # while the daemon starts, off its scan loop
    net = NetBoard(
        link,
        board_id,
        obey_commands=not config.kiosk.enabled or settings.kiosk_commands,
        hardware="not connected" if daemon.note else "ok",
        discovery=settings.discovery,
        playable=playable,
        device=Device(board_id, settings.configuration_url),
        game=daemon.controller.record.game,
    )
    link.on_connect = net.on_connect
    link.every_second = net.check_alive
    if config.opponent.kind == "remote":
        controller = daemon.controller
        remote = Remote.configured(link, config, can_play=playable.game_refusal)
        remote.wakes(daemon.waker)  # the other board's news is read at once, not at an idle scan
        controller.opponent = remote
        _name_opponent(controller)
    daemon.attach(net)
    link.start()
    return net


def _name_opponent(controller: Controls) -> None:
    """The game begun before the other board was named as its opponent gets its ``Opponent``
    tag now (a resumed game already has it)."""
    if controller.opponent is None:
        return
    try:
        (record,) = controller.settings.storage.games(controller.record.game_id)
        if record.opponent is None:
            controller.settings.storage.set_opponent(
                controller.record.game_id, controller.opponent.record(controller.record.state)
            )
    except (StorageError, ValueError):
        return
