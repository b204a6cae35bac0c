"""One connection to the broker, kept up by paho-mqtt's own thread.

:class:`Link` connects in the background and reconnects with backoff (1 s, doubling to 30 s)
whenever the broker goes away, the first time included. Any thread may :meth:`~Link.publish`:
it only queues, and a sender thread of the link's own hands the messages to paho, so the caller
never waits for the network. Retained messages are kept (the latest per topic) and sent again on
every connection; the others are sent only while connected, and dropped (counted) when the queue
is full or the broker is away.

What arrives is another machine's word: a message longer than ``MAX_PAYLOAD``, or one its
handler cannot take (a handler raising anything), is dropped and said in one journal line (at
most one a second, with the count dropped meanwhile); paho's thread never stops on one.
A pairing that cannot read the other board (the ACL lacks its read lines, a wrong id) is seen
from here: :meth:`Link.unreadable` for a subscription the broker refused outright, and
:meth:`Link.silent` for one that brought nothing, not even a retained availability, for some
seconds of being connected (Mosquitto grants a subscription its ACL forbids and sends nothing).

Both threads are supervised (:meth:`Link.check`, which the daemon calls every step): one that
dies is started again with backoff (paho's keeps its session and reconnects; the sender's
queue waits for it).
"""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections import deque
from typing import Callable

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from firmware_host.net.mqtt.untrusted import MAX_PAYLOAD
from firmware_host.runtime.closing import until
from firmware_host.store.config import Mqtt
from hardware.supervise import Backoff, Supervised, describe, restarted

#: Messages waiting for the sender at most; more are dropped (the oldest first).
QUEUE = 1000
#: Reconnection backoff (seconds): the first wait and the longest.
BACKOFF = (1, 30)
#: Seconds between keep-alive pings; the broker declares the link dead after 1.5 times this.
KEEPALIVE = 10
#: Seconds a retained topic may bring nothing before :meth:`Link.cannot_read` says so.
SILENT_SECONDS = 3.0

Handler = Callable[[str, bytes], None]


class Link:
    """A paho client for ``settings`` (host, port, credentials, TLS) named ``client_id``;
    ``will``: (topic, payload) the broker publishes, retained, if the link dies."""

    def __init__(
        self,
        settings: Mqtt,
        client_id: str,
        will: tuple[str, str] | None = None,
        host: str | None = None,
        port: int | None = None,
        who: str = "reedboard run",
    ) -> None:
        host = host or settings.host
        if host is None:
            raise ValueError("a link needs the broker's host ([mqtt] host)")
        self.host, self.port = host, port or settings.port
        self.client = client = paho.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
        client.reconnect_delay_set(*BACKOFF)
        client.max_queued_messages_set(QUEUE)
        if will:
            client.will_set(will[0], will[1], qos=1, retain=True)
        if settings.username:
            client.username_pw_set(settings.username, _password(settings.password_file))
        if settings.tls:
            client.tls_set(ca_certs=settings.tls)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_subscribe = self._on_subscribe
        client.on_socket_open = _no_delay
        # what paho's thread runs, wrapped to keep what ends it (paho offers no hook for that)
        client.loop_forever = self._network(client.loop_forever)  # type: ignore[method-assign]
        #: Who says the journal's lines ("reedboard run", "reedboard cafe").
        self.who = who
        #: Subscriptions the broker refused on the last connection (not allowed to read them).
        self.refused: set[str] = set()
        #: Messages dropped as malformed since the start.
        self.bad = 0
        self._said_at, self._unsaid = 0.0, 0
        self._asked: dict[int, str] = {}  # subscription request id -> its topic
        #: Subscription -> when a message for it last came (monotonic s; absent: none yet).
        self.heard: dict[str, float] = {}
        self._since: dict[str, float] = {}  # subscription -> when it was last made (connected)
        self.connected = threading.Event()
        #: Called (in paho's thread) after each connection, once the kept messages are queued.
        self.on_connect: Callable[[], None] = lambda: None
        #: Called (in paho's thread) when the connection is lost.
        self.on_disconnect: Callable[[], None] = lambda: None
        #: Called about once a second from the sender thread (the board's liveness check).
        self.every_second: Callable[[], None] = lambda: None
        self.dropped = 0
        self._handlers: dict[str, Handler] = {}
        self._stale: dict[str, Handler] = {}  # subscription -> its handler of retained ones
        self._retained: dict[str, bytes] = {}
        self._queue: deque[tuple[str, bytes, bool]] = deque(maxlen=QUEUE)
        self._wake = threading.Condition()
        self._stopping = False
        self._sender = Supervised("mqtt-send", self._send)
        #: Why paho's network thread ended, until it is started again (None: it runs).
        self._network_ended: str | None = None
        self._network_backoff = Backoff()

    def start(self) -> None:
        """Connect in the background (and keep connecting until :meth:`stop`)."""
        self.client.connect_async(self.host, self.port, keepalive=KEEPALIVE)
        self._network_backoff.started()
        self.client.loop_start()
        self._sender.start()

    def check(self) -> str | None:
        """Start paho's network thread or the sender again if one died (said in the answer,
        once); None when both run."""
        if self._stopping:
            return None
        said = [self._sender.check()]
        ended = self._network_ended
        if ended is not None and self._network_backoff.due():
            if self.client.loop_start() == paho.MQTT_ERR_SUCCESS:  # paho let its thread go
                self._network_ended = None
                self._network_backoff.started()
                said.append(restarted(f"its network thread ended ({ended})"))
        return "; ".join(filter(None, said)) or None

    def _network(self, loop: Callable) -> Callable:
        """``loop`` (paho's loop_forever), keeping what ends it for :meth:`check`."""

        def run(*args, **kwargs):
            try:
                return loop(*args, **kwargs)
            except BaseException as exc:  # noqa: BLE001 - said by check(), which restarts it
                self._network_ended = describe(exc)

        return run

    def publish(self, topic: str, payload: str | bytes, retain: bool = False) -> None:
        """Queue a message; never blocks. Retained ones are also kept for every reconnection."""
        data = payload.encode() if isinstance(payload, str) else payload
        with self._wake:
            if retain:
                self._retained[topic] = data
            elif not self.connected.is_set():
                self.dropped += 1
                return
            if len(self._queue) == QUEUE:
                self.dropped += 1
            self._queue.append((topic, data, retain))
            self._wake.notify()

    def clear(self, topic: str) -> None:
        """Remove the message the broker keeps on ``topic`` (an empty retained message, sent
        once); never blocks."""
        with self._wake:
            self._retained.pop(topic, None)
            self._queue.append((topic, b"", True))
            self._wake.notify()

    def subscribe(self, topic: str, handler: Handler, retained: Handler | None = None) -> None:
        """Call ``handler(topic, payload)`` (in paho's thread) for messages on ``topic``
        (wildcards allowed), on this and every later connection; ``retained``, when given,
        takes instead the messages the broker kept and sends again at each connection."""
        self._handlers[topic] = handler
        if retained is not None:
            self._stale[topic] = retained
        if self.connected.is_set():
            self._subscribe(topic)

    def _subscribe(self, topic: str) -> None:
        result, mid = self.client.subscribe(topic, qos=1)
        if result == paho.MQTT_ERR_SUCCESS and mid is not None:
            self._asked[mid] = topic
            self._since[topic] = time.monotonic()

    def unreadable(self, topic: str) -> bool:
        """Whether the broker refused this login the subscription ``topic`` (its ACL lacks a
        read line for it), on the current connection."""
        return topic in self.refused

    def silent(self, topic: str, seconds: float) -> bool:
        """Whether subscription ``topic`` has brought nothing since it was made, ``seconds``
        or more ago, on a connection still up (a retained topic answers at once when it can be
        read)."""
        made = self._since.get(topic)
        return (
            self.connected.is_set()
            and topic not in self.heard
            and made is not None
            and time.monotonic() - made >= seconds
        )

    def cannot_read(self, topic: str, seconds: float = SILENT_SECONDS) -> bool:
        """The flag for a pairing: the broker refused the subscription ``topic``, or it has
        brought nothing (a retained topic such as the other board's availability) for
        ``seconds`` of being connected: its ACL lacks the read line, or no board has that id."""
        return self.unreadable(topic) or self.silent(topic, seconds)

    def stop(self, last: tuple[str, str] | None = None, timeout: float = 1.0) -> None:
        """Publish ``last`` (retained) if connected, then disconnect (the broker then does not
        send the will) and end the threads: all within ``timeout`` s, one deadline shared by
        the waits. What is left then is said in the journal and holds up nobody (daemon
        threads): paho's thread still trying a broker that does not answer (its machine gone)
        ends once that try ends."""
        deadline = time.monotonic() + timeout
        with self._wake:
            self._stopping = True
            self._wake.notify()
        self._sender.join(until(deadline))
        left = ["the sender"] if self._sender.alive() else []
        if last and self.connected.is_set():
            info = self.client.publish(last[0], last[1], qos=1, retain=True)
            try:
                info.wait_for_publish(until(deadline))
                if not info.is_published():
                    left.append(f"the last message unacknowledged ({last[0][:80]!r})")
            except (RuntimeError, ValueError):  # the link went meanwhile (the broker sends the will)
                pass
        self.client.disconnect()
        ending = threading.Thread(target=self.client.loop_stop, name="mqtt-stop", daemon=True)
        ending.start()
        ending.join(until(deadline))
        if ending.is_alive():
            left.append("paho's network thread")
        if left:
            print(
                f"{self.who}: the broker link's stop took its {timeout:g} s; left: {', '.join(left)}",
                file=sys.stderr,
            )

    # ------------------------------------------------------------------ paho's thread
    def _on_connect(self, client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            return
        self.refused = set()
        for topic in list(self._handlers):
            self._subscribe(topic)
        with self._wake:
            self.connected.set()
            kept = set(self._retained)
            self._queue = deque(((t, d, r) for t, d, r in self._queue if t not in kept), maxlen=QUEUE)
            self._queue.extend((t, d, True) for t, d in self._retained.items())
            self._wake.notify()
        self._guarded("on_connect", self.on_connect)

    def _on_disconnect(self, client, userdata, flags, reason, properties) -> None:
        self.connected.clear()
        self._guarded("on_disconnect", self.on_disconnect)

    def _on_subscribe(self, client, userdata, mid, reasons, properties) -> None:
        topic = self._asked.pop(mid, None)
        if topic is not None and any(r.is_failure for r in reasons):
            self.refused = self.refused | {topic}
            self._say(f"cannot read {topic[:80]!r}: the broker does not let this login read it (its ACL)")

    def _on_message(self, client, userdata, message) -> None:
        if len(message.payload) > MAX_PAYLOAD:
            return self.drop(message.topic, f"too long ({len(message.payload)} bytes)")
        for pattern, handler in list(self._handlers.items()):
            if paho.topic_matches_sub(pattern, message.topic):
                self.heard[pattern] = time.monotonic()
                take = self._stale.get(pattern, handler) if message.retain else handler
                try:
                    take(message.topic, message.payload)
                except Exception as exc:  # noqa: BLE001 - a message never stops paho's thread
                    self.drop(message.topic, describe(exc))

    def drop(self, topic: str, why: str) -> None:
        """Count a message on ``topic`` dropped as malformed and say why in the journal."""
        self.bad += 1
        self._say(f"dropped a message on {topic[:80]!r}: {why[:160]}")

    def _say(self, text: str) -> None:
        """One journal line, at most one a second (the next says how many were not said)."""
        now = time.monotonic()
        if now - self._said_at < 1.0:
            self._unsaid += 1
            return
        more = f" ({self._unsaid} more not said)" if self._unsaid else ""
        self._said_at, self._unsaid = now, 0
        print(f"{self.who}: {text}{more}", file=sys.stderr)

    def _guarded(self, what: str, callback: Callable, *args) -> None:
        """``callback(*args)`` in paho's thread: one that raises (a bug) is said, and paho's
        thread goes on."""
        try:
            callback(*args)
        except Exception as exc:  # noqa: BLE001 - any bug in a callback: said once a second
            self._say(f"{what} failed ({describe(exc)}); the network goes on")

    # ------------------------------------------------------------------ the sender thread
    def _send(self) -> None:
        tick = time.monotonic() + 1.0
        while True:
            with self._wake:
                if not self._stopping and not (self._queue and self.connected.is_set()):
                    self._wake.wait(max(0.0, tick - time.monotonic()))
                if self._stopping:
                    return
                batch = list(self._queue) if self.connected.is_set() else []
                if batch:
                    self._queue.clear()
            if time.monotonic() >= tick:
                tick = time.monotonic() + 1.0
                self.every_second()
            for topic, data, retain in batch:
                info = self.client.publish(topic, data, qos=1 if retain else 0, retain=retain)
                if info.rc != paho.MQTT_ERR_SUCCESS:
                    self.dropped += 1


def _no_delay(client, userdata, sock) -> None:
    """Send each message at once: with Nagle's algorithm a state sent right after an event
    waits for the event's delayed ACK (some 40 ms)."""
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except (OSError, AttributeError):  # not a TCP socket (a proxy, a test stand-in)
        pass


def _password(path: str | None) -> str | None:
    """The first line of the password file (the config check made sure it can be read)."""
    if path is None:
        return None
    with open(path, encoding="utf-8") as fp:
        return fp.readline().rstrip("\r\n")
