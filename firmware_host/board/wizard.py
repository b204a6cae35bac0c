"""The set-up wizard: a pure state machine on a caller's clock, as the controller is for games.
It learns which sensor channel reads each site and which LED channel lights it (docs/build.md).

Phases, each driven by the board's buttons (or the page's, or stdin's) and the sensors:

``check``   a live view of the sensors while the builder sweeps a piece over the board; OK
            ends it with a report: switches that were closed all the time, groups of switches
            none of which closed (a row, a register, a chip: most likely one loose wire), and
            readings that ghost (a matrix without diodes). A check in which no switch closed
            at all says so and is asked again.
``sensor``  one site at a time, in rows, each row the other way (serpentine): "Put a piece on
            A1*"; the channel that closes is recorded, whatever order the board is wired in.
            A channel that is already another site's (doubled), several at once, or a ghosting
            reading are said at once and recorded not. BACK asks the last site again; MENU
            skips a site whose switch closes nothing (dead). At the end, on a board that
            mostly follows the channels it was expected to use (its old layout, or the
            engine's order), pairs of sites with each other's channels are named (swapped).
``led``     one LED channel lit at a time: the builder puts a piece on the lit site, which the
            learned sensors name. BACK skips a channel that lights nothing.
``done``    every site has both channels (the loop writes the layout), or some are missing.

Sites already in the layout file (other games', or this game's unless learned again) are kept
and not asked; their channels count as taken.

>>> from engines.core.contract import Site
>>> from hardware.base import Scan
>>> w = Wizard([Site("a1", 0, 0), Site("b1", 1, 0)], led_channels=2, scans=1, check=False)
>>> w.start()
[{'event': 'setup', 'step': 'sensor', 'site': 'a1', 'n': 1, 'of': 2}]
>>> w.step(0, Scan(frozenset()), [])  # the first scan: what is closed already is ignored
[]
>>> [e.get("learned") for e in w.step(10, Scan(frozenset({5})), [])]
['a1', None]
>>> w.prompt
'b1'

"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from engines.core.contract import Site
from firmware_host.board.debounce import Debouncer
from firmware_host.i18n import _, ngettext
from firmware_host.store.layout import Layout
from firmware_host.ui.screens import Screen, message_screen
from hardware.base import ButtonEvent, Led, Scan

Event = dict[str, Any]
#: What the lit LED channel shows while the builder looks for it.
LIT = Led((255, 255, 255), "steady")
#: Rows of sites: a site starts a new row when its centre is this much lower (board units).
ROW_STEP = 0.4


def serpentine(sites: Sequence[Site]) -> list[str]:
    """The sites in rows, each row the other way round (serpentine), beginning with the row
    and the end of it where the engine's first site is (A1 at the bottom left of Antipalos,
    a1 at the top of Antipode); sites that share a centre keep the engine's order.

    >>> serpentine([Site("a1", 0, 0), Site("a2", 0, 1), Site("b1", 1, 0), Site("b2", 1, 1)])
    ['a1', 'b1', 'b2', 'a2']
    >>> serpentine([Site("a1", 0, 1), Site("a2", 1, 1), Site("b1", 0, 0), Site("b2", 1, 0)])
    ['a1', 'a2', 'b2', 'b1']
    """
    index = {s.label: i for i, s in enumerate(sites)}
    rows: list[list[Site]] = []
    for site in sorted(sites, key=lambda s: (s.y, s.x, index[s.label])):
        if rows and site.y - rows[-1][0].y < ROW_STEP:
            rows[-1].append(site)
        else:
            rows.append([site])
    first = sites[0]
    if first.y - rows[0][0].y > rows[-1][0].y - first.y:  # nearer the top: begin there
        rows.reverse()
    row = next(r for r in rows if first in r)
    rows.remove(row)
    rows.insert(0, row)  # the first row is the first site's own (it is at one end already)
    xs = [s.x for s in row]
    rightwards = first.x - min(xs) <= max(xs) - first.x
    order = []
    for n, row in enumerate(rows):
        ahead = rightwards if n % 2 == 0 else not rightwards
        row.sort(key=lambda s: (s.x if ahead else -s.x, index[s.label]))
        order += [s.label for s in row]
    return order


@dataclass
class Progress:
    """What the wizard has learned: saved after every step, so an interrupted set-up resumes."""

    phase: str = "check"
    sensor: dict[str, int] = field(default_factory=dict)
    led: dict[str, int] = field(default_factory=dict)
    #: Sites whose switch closed nothing (skipped with MENU).
    dead: list[str] = field(default_factory=list)
    #: LED channels that lit nothing (skipped with BACK).
    dark: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "sensor": self.sensor,
            "led": self.led,
            "dead": self.dead,
            "dark": self.dark,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Progress":
        """The progress saved as :meth:`to_json`; ValueError for anything else."""
        try:
            progress = cls(
                str(data["phase"]),
                dict(data["sensor"]),
                dict(data["led"]),
                list(data["dead"]),
                list(data["dark"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a set-up's progress ({exc})") from None
        numbers = [*progress.sensor.values(), *progress.led.values(), *progress.dark]
        if progress.phase not in PHASES or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in numbers
        ):
            raise ValueError("not a set-up's progress (bad phase or channel)")
        return progress

    def check(self, labels: Sequence[str], keep: Layout) -> None:
        """ValueError saying what makes this progress impossible for a set-up learning
        ``labels`` beside the ``keep`` sites, as a layout's check says it: a site it does not
        learn, a channel two sites share, an LED for a site with no sensor, the LED phase
        before every site has its sensor (or is dead).

        >>> Progress("sensor", {"a1": 0, "b1": 0}).check(["a1", "b1"], Layout({}, {}))
        Traceback (most recent call last):
        ...
        ValueError: sensor channel 0 of "b1" is also used by "a1"
        """
        known = set(labels)
        for kind, named in (("sensor", self.sensor), ("led", self.led), ("dead", self.dead)):
            stranger = next((s for s in named if not isinstance(s, str) or s not in known), None)
            if stranger is not None:
                raise ValueError(f"{kind}: {_quote(stranger)} is not a site this set-up learns")
        for kind, table, kept in (("sensor", self.sensor, keep.sensor), ("led", self.led, keep.led)):
            owners = {channel: site for site, channel in kept.items()}
            for site, channel in table.items():
                other = owners.setdefault(channel, site)
                if other != site:
                    raise ValueError(
                        f"{kind} channel {channel} of {_quote(site)} is also used by {_quote(other)}"
                    )
        lit = set(self.dark) & {*self.led.values(), *keep.led.values()}
        if lit:
            raise ValueError(f"led channel {min(lit)} is both a site's and dark")
        for site in labels:
            if site in self.led and site not in self.sensor:
                raise ValueError(f"{_quote(site)} has an LED channel but no sensor channel")
            if site in self.dead and site in self.sensor:
                raise ValueError(f"{_quote(site)} is both learned and dead")
            if self.phase in ("led", "done") and site not in self.sensor and site not in self.dead:
                raise ValueError(f"phase {self.phase}, but {_quote(site)} has no sensor channel")

    def resumed(self) -> "Progress":
        """Where a set-up goes on from this progress: a set-up that ended with sites missing
        (a dead switch, an LED found on no site) asks those again; else where it stopped.

        >>> Progress("done", {"a1": 0}, {"a1": 0}, ["b1"], [1]).resumed()
        Progress(phase='sensor', sensor={'a1': 0}, led={'a1': 0}, dead=[], dark=[])
        """
        if self.phase != "done":
            return self
        return Progress("sensor", self.sensor, self.led)


PHASES = ("check", "sensor", "led", "done")


def _quote(label: object) -> str:
    """A site label as a layout file writes it: in double quotes."""
    return json.dumps(label) if isinstance(label, str) else repr(label)


class Wizard:
    """Learns the channels of ``sites``. ``keep``: channels already known and kept (the layout
    file's sites that are not learned now); ``expected``: the sensor channel each site was
    expected to use (to say when one is wired otherwise); ``led_channels``: how many LED
    channels to try; ``groups(channel)``: the wires a channel shares (for the check's causes);
    ``channels``: how many sensor channels the check looks at; ``check``: begin with the
    sensor check; ``progress``: what an interrupted set-up learned."""

    def __init__(
        self,
        sites: Sequence[Site],
        *,
        led_channels: int,
        keep: Layout | None = None,
        expected: Mapping[str, int] | None = None,
        groups: Callable[[int], tuple[str, ...]] = lambda ch: (),
        channels: int = 0,
        scans: int = 3,
        check: bool = True,
        progress: Progress | None = None,
    ) -> None:
        self.order = serpentine(sites)
        self.keep = keep or Layout({}, {})
        self.expected = dict(expected or {})
        self.led_channels, self.groups, self.channels = led_channels, groups, channels
        self.progress = progress or Progress("check" if check else "sensor")
        self._debouncer = Debouncer(scans, settle_ms=0)
        self._history: list[str] = []  # sites learned this session, for BACK
        self._seen_closed: set[int] = set()
        self._always_closed: set[int] | None = None
        self._ghosted = False  # the check saw a ghosting reading
        self._ghost_said = False  # a ghosting reading now was said while learning
        self._now_closed: frozenset[int] = frozenset()
        self._said: Event | None = None  # the last problem, shown until the next step
        self.version = 0  # counts changes of what is shown (screen and LEDs)

    def start(self) -> list[Event]:
        """The first question (where an interrupted set-up stopped, when resumed)."""
        if self.phase == "check":
            return [{"event": "setup", "step": "check"}]
        return self._enter(self.phase, [])

    # -------------------------------------------------------------------------- the state
    @property
    def phase(self) -> str:
        return self.progress.phase

    @property
    def prompt(self) -> str | None:
        """The site to put a piece on now (sensor phase), else None."""
        if self.phase != "sensor":
            return None
        return next(
            (s for s in self.order if s not in self.progress.sensor and s not in self.progress.dead), None
        )

    @property
    def lit(self) -> int | None:
        """The LED channel lit now (LED phase), else None."""
        if self.phase != "led":
            return None
        taken = set(self.keep.led.values()) | set(self.progress.led.values()) | set(self.progress.dark)
        return next((c for c in range(self.led_channels) if c not in taken), None)

    def owner(self, channel: int) -> str | None:
        """The site a sensor channel is known to read (kept or learned)."""
        for table in (self.progress.sensor, self.keep.sensor):
            for site, ch in table.items():
                if ch == channel:
                    return site
        return None

    def missing(self) -> dict[str, list[str]]:
        """This set-up's sites that lack a sensor or an LED channel."""
        return {
            "sensor": [s for s in self.order if s not in self.progress.sensor],
            "led": [s for s in self.order if s not in self.progress.led],
        }

    def layout(self) -> Layout:
        """The kept sites and the learned ones (only complete sites)."""
        learned = [s for s in self.order if s in self.progress.sensor and s in self.progress.led]
        sensor = {**self.keep.sensor, **{s: self.progress.sensor[s] for s in learned}}
        led = {**self.keep.led, **{s: self.progress.led[s] for s in learned}}
        return Layout(sensor, led)

    # ----------------------------------------------------------------------------- a step
    def step(self, now: float, scan: Scan, buttons: Iterable[ButtonEvent]) -> list[Event]:
        """One scan and the buttons pressed since the last; the events it causes."""
        events: list[Event] = []
        if self.phase == "check":
            self._watch(scan)
        change = self._debouncer.feed(now, scan)
        if change.closed or change.opened:
            self._now_closed = self._debouncer.stable
            self.version += 1 if self.phase == "check" else 0
        for press in buttons:
            events += self._press(press)
        if change.closed and self.phase in ("sensor", "led"):
            events += self._closed(change.closed)
        if scan.ambiguous and self.phase in ("sensor", "led") and not self._ghost_said:
            self._ghost_said = True
            events.append(self._problem("ghost", channels=sorted(scan.ambiguous)))
        elif not scan.ambiguous:
            self._ghost_said = False
        return events

    def _press(self, press: ButtonEvent) -> list[Event]:
        phase, button = self.phase, press.button
        if phase == "check" and button == "ok" and not self._seen_closed and not self._ghosted:
            return self._check_again()
        if phase == "check" and button == "ok":
            return [self._report(), *self._enter("sensor", [])]
        if phase == "sensor" and button == "back" and self._history:
            site = self._history.pop()
            del self.progress.sensor[site]
            return self._ask(redo=True)
        if phase == "sensor" and button == "menu" and self.prompt:
            self.progress.dead.append(self.prompt)
            return [{"event": "setup", "dead": self.progress.dead[-1]}, *self._next_site()]
        if phase == "led" and button == "back" and self.lit is not None:
            self.progress.dark.append(self.lit)
            return [{"event": "setup", "dark": self.progress.dark[-1]}, *self._next_led()]
        return []

    # ------------------------------------------------------------------------- the check
    def _watch(self, scan: Scan) -> None:
        self._seen_closed |= scan.closed
        self._always_closed = (
            set(scan.closed) if self._always_closed is None else self._always_closed & scan.closed
        )
        self._ghosted = self._ghosted or bool(scan.ambiguous)

    def _check_again(self) -> list[Event]:
        """No switch closed in the whole check: said, and the check begins again."""
        self._always_closed = None
        report = self._report()
        report["report"]["causes"].insert(
            0,
            "no switch closed: sweep a piece over every site "
            "(none at all: check the sensors' cable and config)",
        )
        said = self._problem("none closed")
        return [report, said, {"event": "setup", "step": "check", "again": True}]

    def _report(self) -> Event:
        """What the check found, each with its likely cause."""
        stuck = sorted(self._always_closed or ())
        causes = [f"switch at channel {ch} stuck closed (or a piece left on it)" for ch in stuck]
        members: dict[str, list[int]] = {}
        for ch in range(self.channels):
            for group in self.groups(ch):
                members.setdefault(group, []).append(ch)
        dead_groups = [
            g for g, chs in members.items() if len(chs) > 1 and not self._seen_closed.intersection(chs)
        ]
        causes += [
            f"{g}: none of its {len(members[g])} switches closed: {g} not connected" for g in dead_groups
        ]
        if self._ghosted:
            causes.append(
                "readings ghost: a matrix without diodes reads a fourth switch closed "
                "at the corner of three; learn with one piece at a time"
            )
        return {
            "event": "setup",
            "report": {
                "closed": len(self._seen_closed),
                "stuck": stuck,
                "dead": dead_groups,
                "ghosting": self._ghosted,
                "causes": causes,
            },
        }

    # --------------------------------------------------------------------- learning
    def _enter(self, phase: str, events: list[Event]) -> list[Event]:
        self.progress.phase = phase
        self.version += 1
        if phase == "sensor":
            return events + self._next_site()
        if phase == "led":
            return events + self._next_led()
        return events + [self._done()]

    def _next_site(self) -> list[Event]:
        if self.prompt is None:
            return self._enter("led", [])
        return self._ask()

    def _ask(self, redo: bool = False) -> list[Event]:
        self.version += 1
        self._said = None
        site = self.prompt
        event = {
            "event": "setup",
            "step": "sensor",
            "site": site,
            "n": len(self.progress.sensor) + len(self.progress.dead) + 1,
            "of": len(self.order),
        }
        return [{**event, "redo": True} if redo else event]

    def _next_led(self) -> list[Event]:
        self.version += 1
        self._said = None
        wanting = [s for s in self.order if s in self.progress.sensor and s not in self.progress.led]
        if not wanting or self.lit is None:
            return self._enter("done", [])
        return [
            {
                "event": "setup",
                "step": "led",
                "channel": self.lit,
                "n": len(self.progress.led) + 1,
                "of": len(self.progress.sensor),
            }
        ]

    def _closed(self, channels: frozenset[int]) -> list[Event]:
        if len(channels) > 1:
            return [self._problem("several", channels=sorted(channels))]
        (channel,) = channels
        if self.phase == "sensor":
            return self._learn_sensor(channel)
        return self._learn_led(channel)

    def _learn_sensor(self, channel: int) -> list[Event]:
        site = self.prompt
        if site is None:
            return []  # every site learned: nothing is asked
        owner = self.owner(channel)
        if owner is not None:
            return [self._problem("doubled", channel=channel, site=site, owner=owner)]
        self.progress.sensor[site] = channel
        self._history.append(site)
        return [{"event": "setup", "learned": site, "channel": channel}, *self._next_site()]

    def _learn_led(self, channel: int) -> list[Event]:
        site, lit = self.owner(channel), self.lit
        if lit is None:
            return []  # no light is asked about
        if site is None:
            return [self._problem("unknown", channel=channel)]
        if site in self.progress.led or site in self.keep.led:
            had = self.progress.led.get(site, self.keep.led.get(site))
            return [self._problem("doubled", site=site, led=had, channel=lit)]
        self.progress.led[site] = lit
        return [{"event": "setup", "learned_led": site, "channel": lit}, *self._next_led()]

    def _problem(self, kind: str, **fields: Any) -> Event:
        self._said = {"event": "setup", "problem": kind, **fields}
        self.version += 1
        return self._said

    def _done(self) -> Event:
        missing = self.missing()
        swapped = self.swaps()
        return {
            "event": "setup",
            "step": "done",
            "missing": missing,
            "dead": self.progress.dead,
            "swapped": swapped,
        }

    def swaps(self) -> list[list[str]]:
        """Pairs of sites whose learned sensor channels are each other's expected ones, on a
        board that mostly follows the expected channels: one wired in an order of its own is
        learned as it is, with no pairs named.

        >>> w = Wizard([Site(x, i, 0) for i, x in enumerate("abcd")], led_channels=4,
        ...            expected={"a": 0, "b": 1, "c": 2, "d": 3}, check=False)
        >>> w.progress.sensor = {"a": 1, "b": 0, "c": 2, "d": 3}
        >>> w.swaps()
        [['a', 'b']]
        >>> w.progress.sensor = {"a": 1, "b": 0, "c": 7, "d": 5}  # an order of its own
        >>> w.swaps()
        []
        """
        pairs: list[list[str]] = []
        learned, expected = self.progress.sensor, self.expected
        compared = [s for s in learned if s in expected]
        if 2 * sum(learned[s] == expected[s] for s in compared) < len(compared):
            return pairs
        for a in self.order:
            for b in self.order:
                if (
                    a < b
                    and a in learned
                    and b in learned
                    and learned[a] != learned[b]
                    and learned[a] == expected.get(b)
                    and learned[b] == expected.get(a)
                ):
                    pairs.append([a, b])
        return pairs

    # ------------------------------------------------------------------------- shown
    def frame(self) -> dict[int, Led]:
        """The LEDs: the channel being looked for, lit."""
        lit = self.lit
        return {} if lit is None else {lit: LIT}

    def screen(self) -> Screen:
        """What the OLED shows (in the board's language)."""
        said = self._said_lines()
        if self.phase == "check":
            return message_screen(
                _("Sensor check"),
                [
                    ngettext("{n} closed now", "{n} closed now", len(self._now_closed)).format(
                        n=len(self._now_closed)
                    ),
                    *said,
                    _("Sweep a piece over"),
                    _("every site, then OK"),
                    ngettext("{n} channel seen", "{n} channels seen", len(self._seen_closed)).format(
                        n=len(self._seen_closed)
                    ),
                ],
            )
        if self.phase == "sensor":
            done, total = len(self.progress.sensor), len(self.order)
            return message_screen(
                _("Sensors {done}/{total}").format(done=done + 1, total=total),
                [
                    _("Piece on {site}").format(site=self.prompt),
                    *said,
                    _("BACK: redo last"),
                    _("MENU: dead switch"),
                ],
            )
        if self.phase == "led":
            return message_screen(
                _("LED {led}").format(led=self.lit),
                [
                    _("Piece on lit site"),
                    *said,
                    _("{found} of {sites} found").format(
                        found=len(self.progress.led), sites=len(self.progress.sensor)
                    ),
                    _("BACK: lights none"),
                ],
            )
        missing = self.missing()
        if missing["sensor"] or missing["led"]:
            return message_screen(
                _("Set-up incomplete"),
                [
                    _("{n} no sensor").format(n=len(missing["sensor"])),
                    _("{n} no LED").format(n=len(missing["led"])),
                    _("Fix, run again"),
                ],
            )
        return message_screen(
            _("Set-up done"),
            [
                ngettext("{n} site", "{n} sites", len(self.order)).format(n=len(self.order)),
                _("Layout written"),
            ],
        )

    def _said_lines(self) -> list[str]:
        said = self._said
        if said is None:
            return []
        kind = said["problem"]
        if kind == "doubled" and "owner" in said:
            return [_("Ch {channel} is {site}!").format(channel=said["channel"], site=said["owner"])]
        if kind == "doubled":
            return [_("{site} has LED {led}").format(site=said["site"], led=said["led"])]
        if kind == "several":
            return [_("One piece at a time")]
        if kind == "ghost":
            return [_("Ghosting: one piece")]
        if kind == "none closed":
            return [_("None closed! Again")]
        return [_("ch {channel}: no site").format(channel=said["channel"])]
