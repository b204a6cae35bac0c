"""An in-memory message bus on a virtual clock, offering what ``firmware_host/net/mqtt/link.py``'s
:class:`Link` offers a board (``subscribe``, ``publish`` with ``retain``), with the faults a
café network has: messages dropped, sent twice, delayed, and reordered across topics. As with
an MQTT broker at QoS 1, messages on one topic arrive in the order sent, and the latest retained
message of every topic is delivered again when a board reconnects (a dropped message is made
good that way, after ``reconnect_ms``), to the subscription's ``retained`` handler when it has
one (as the broker marks what it kept: ``Link.subscribe``).

>>> bus = Bus()
>>> heard = []
>>> bus.link("b").subscribe("x/moves", lambda topic, payload: heard.append(payload))
>>> bus.link("a").publish("x/moves", "[1]", retain=True); bus.deliver(0.0); heard
[b'[1]']
>>> late = []
>>> bus.link("c").subscribe("x/moves", lambda topic, payload: late.append(payload))
>>> bus.deliver(0.0); late
[b'[1]']
"""

from __future__ import annotations

import heapq
import itertools
import random
from dataclasses import dataclass, field
from typing import Callable

Handler = Callable[[str, bytes], None]


@dataclass(frozen=True)
class Faults:
    """What the bus does to messages: the chance each one is ``dropped`` or sent twice
    (``repeated``), and its delay in ms (a random one from ``delay``: later messages on other
    topics may overtake it)."""

    dropped: float = 0.0
    repeated: float = 0.0
    delay: tuple[float, float] = (0.0, 0.0)


@dataclass
class BusLink:
    """One board's connection: its subscriptions (exact topics), and the handlers of those
    that take what the broker kept apart."""

    bus: "Bus"
    name: str
    handlers: dict[str, Handler] = field(default_factory=dict)
    kept: dict[str, Handler] = field(default_factory=dict)

    def subscribe(self, topic: str, handler: Handler, retained: Handler | None = None) -> None:
        self.handlers[topic] = handler
        if retained is not None:
            self.kept[topic] = retained
        if topic in self.bus.retained:
            self.bus.send(self, topic, self.bus.retained[topic], kept=True)

    def drop(self) -> None:
        """The connection is gone (its board lost power): nothing reaches it until it
        subscribes again."""
        self.handlers.clear()
        self.kept.clear()

    def publish(self, topic: str, payload: str | bytes, retain: bool = False) -> None:
        data = payload.encode() if isinstance(payload, str) else payload
        if retain:
            self.bus.retained[topic] = data
        for link in self.bus.links.values():
            if topic in link.handlers:
                self.bus.send(link, topic, data)


class Bus:
    """The broker; ``faults`` and ``rng`` say how it misbehaves."""

    def __init__(
        self, faults: Faults = Faults(), rng: random.Random | None = None, reconnect_ms: float = 2000.0
    ) -> None:
        self.faults = faults
        self.rng = rng or random.Random(0)
        self.reconnect_ms = reconnect_ms
        self.now = 0.0
        self.links: dict[str, BusLink] = {}
        self.retained: dict[str, bytes] = {}
        self._queue: list[tuple[float, int, BusLink, str, bytes, bool]] = []
        self._last: dict[tuple[str, str], float] = {}  # (link, topic) -> its last arrival
        self._order = itertools.count()
        self._reconnect: dict[str, float] = {}  # link -> when it reconnects
        self._cut: set[str] = set()  # links whose connection is down until they reconnect
        self.dropped = self.repeated = 0

    def link(self, name: str) -> BusLink:
        """The connection of board ``name`` (the same one on every call)."""
        return self.links.setdefault(name, BusLink(self, name))

    def cut(self, name: str) -> None:
        """Board ``name``'s connection goes down: what is sent to it is lost until it
        reconnects (``reconnect_ms`` after the first message lost)."""
        self._cut.add(name)

    def send(self, link: BusLink, topic: str, data: bytes, kept: bool = False) -> None:
        """``data`` on its way to ``link``; ``kept``: the retained message, sent again at a
        (re)connection (never lost)."""
        f, rng = self.faults, self.rng
        if not kept and (link.name in self._cut or f.dropped and rng.random() < f.dropped):
            self.dropped += 1
            self._reconnect.setdefault(link.name, self.now + self.reconnect_ms)
            return
        copies = 2 if not kept and f.repeated and rng.random() < f.repeated else 1
        self.repeated += copies - 1
        for _ in range(copies):
            due = max(self.now + rng.uniform(*f.delay), self._last.get((link.name, topic), 0.0))
            self._last[(link.name, topic)] = due
            heapq.heappush(self._queue, (due, next(self._order), link, topic, data, kept))

    def deliver(self, now: float) -> None:
        """Hand over every message due by ``now`` (ms); reconnect links whose time came."""
        self.now = now
        for name, when in list(self._reconnect.items()) if self._reconnect else ():
            if when <= now:
                del self._reconnect[name]
                self._cut.discard(name)
                link = self.links[name]
                for topic in link.handlers:
                    if topic in self.retained:
                        self.send(link, topic, self.retained[topic], kept=True)
        while self._queue and self._queue[0][0] <= now:
            _, _, link, topic, data, kept = heapq.heappop(self._queue)
            handler = link.kept.get(topic) if kept and topic in link.kept else link.handlers.get(topic)
            if handler is not None:
                handler(topic, data)

    def due(self) -> float | None:
        """When the next message arrives or a link reconnects (ms; None: nothing due)."""
        first = self._queue[0][0] if self._queue else None
        if not self._reconnect:
            return first
        return min(self._reconnect.values()) if first is None else min(first, *self._reconnect.values())

    def idle(self) -> bool:
        """Nothing in flight and no reconnection due."""
        return not self._queue and not self._reconnect
