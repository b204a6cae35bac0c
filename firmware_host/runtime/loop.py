"""The wall-clock loop of ``reedboard run`` (:class:`Daemon`): scans the sensors at scan_hz,
steps the controller, sends an LED frame or a screen image only when they change, logs every
event as a JSON line on stdout, and speaks to systemd (docs/daemon.md): READY once the first
scan worked (the hardware is up, the game resumed), STATUS= whenever the game or the side to
move changes, and a watchdog ping only after a scan that worked, so a scan that fails or hangs
gets the service restarted. A stop ends it cleanly: moves are already saved (each is committed
before it is shown), and a board still settling (a piece just set down) is judged first, for at
most DRAIN_SECONDS. Every step checks the helpers (the computer's worker, the OLED's and LEDs'
threads, the page's server, the café network's threads, the observers): what died is started
again, and a failure is said once in the journal and STATUS. ``firmware_host/cli/run.py`` puts
the loop together with its page and the café network.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, TextIO

from firmware_host.board import Controls
from firmware_host.board.events import Event
from firmware_host.runtime.notify import Notifier
from firmware_host.runtime.service import PowerOffProcess, status_text
from firmware_host.runtime.sound import Speaker
from firmware_host.store.config import Config
from firmware_host.store.storage import BUSY_MS, Storage, StorageError
from firmware_host.store.wal import lost_commits
from firmware_host.ui.screens import message_screen
from hardware import backends
from hardware.supervise import describe
from hardware.wake import Waker

if TYPE_CHECKING:  # loaded with a simulated board only
    from hardware.sim import SimBoard

#: Sensor and LED channels of the simulated board: enough for every game the menu offers.
SIM_CHANNELS = 1024
#: After SIGTERM the loop goes on at most this long for a board that is still settling.
DRAIN_SECONDS = 1.2
#: A scan that keeps failing this long ends the daemon with status 1 (systemd restarts it).
FAILING_SECONDS = 10.0
#: A board that has not answered this long (a serial board absent, unplugged, or refusing the
#: handshake) is said to be not connected; one whose scan raises, at once.
SILENT_SECONDS = 2.0
#: While the games cannot be saved, the waiting writes (and a refused move) are tried again
#: this often.
RETRY_SECONDS = 1.0
#: The parts written to (said as "cannot write to the LEDs"); other helpers are "restarting".
OUTPUTS = ("LEDs", "display")
#: What the OLED's message line says while the computer's worker is started again.
COMPUTER_RESTARTING = "Computer restarting"
#: Events an observer that keeps failing is given again at most (the newest).
MISSED_EVENTS = 1000
#: Longest wait for a wake-up on a settled board whose parts wake the loop themselves (the
#: power-off command's end and the like are noticed by then).
IDLE_WAIT = 0.5


class Hardware:
    """The board's parts (each may be wrapped in place, as the page taps them)."""

    def __init__(self, scanner: Any, leds: Any, display: Any, buttons: Any) -> None:
        self.scanner, self.leds, self.display, self.buttons = scanner, leds, display, buttons

    @property
    def sim(self) -> SimBoard | None:
        return backends.simulated(self.scanner)

    def close(self) -> None:
        for part in (self.leds, self.display, self.buttons, self.scanner):
            part.close()


def open_hardware(config: Config, channels: int) -> Hardware:
    """The configured backends (HardwareUnavailable / backends.HardwareOptionError on failure)."""
    sensors = config.hardware("sensors")
    if sensors["backend"] == "sim":
        sensors.setdefault("channels", max(channels, SIM_CHANNELS))
    scanner = backends.make_scanner(sensors)
    sim = backends.simulated(scanner)
    # The daemon dims the LEDs itself (the menu changes the level), so the sink gets colours.
    return Hardware(
        scanner,
        backends.make_leds(config.hardware("leds"), sim=sim),
        backends.make_display(config.hardware("display"), sim=sim),
        backends.make_buttons(config.hardware("buttons"), sim=sim),
    )


class Daemon:
    """The loop over one controller and its hardware."""

    def __init__(
        self,
        controller: Controls,
        hardware: Hardware,
        scan_hz: int,
        log: TextIO = sys.stdout,
        idle_scan_hz: int = 0,
    ) -> None:
        self.controller = controller
        # A write waits for another process's lock a scan period or two, then is kept for later.
        controller.settings.storage.set_busy_ms(min(BUSY_MS, 2000 / scan_hz))
        #: Called as ``observer(now_ms, controller, events)`` after every step.
        self.observers: list[Callable[[float, Controls, list], None]] = []
        self.hardware = hardware
        self.period = 1.0 / scan_hz
        #: Between scans of a settled board that must be polled (``[timing] idle_scan_hz``).
        self.idle_period = 1.0 / idle_scan_hz if idle_scan_hz else self.period
        #: Where the events go, one JSON line each (None: its reader went away).
        self.log: TextIO | None = log
        #: The status run() ends with once stopped (1: a failure, for Restart=on-failure).
        self.exit_status = 0
        #: Wakes the loop: parts that can tell when there is news set it, and so does a stop.
        self.waker = Waker()
        self.stop = _Stop(self.waker)
        self._wakeable = _wakes(hardware.scanner, self.waker) & _wakes(hardware.buttons, self.waker)
        self._pages: list[Any] = []
        self._had_events = True
        #: True while the loop waits for a wake-up (the board settled, nothing in progress).
        self.waiting = False
        #: Run once, right after READY (e.g. start serving the simulator page).
        self.when_ready: list[Callable[[], None]] = []
        self.notifier = Notifier()
        #: What a confirmed power-off runs (None, the simulated board: only shown).
        self.power_off: PowerOffProcess | None = None
        #: Said after the status line, e.g. that the configured hardware was missing.
        self.note: str | None = None
        #: What the board says and plays after each step (``[sound]``): its ``say`` events.
        self.speaker = Speaker()
        self._frame_version = -1
        self._status: str | None = None
        self._scan_error: str | None = None
        #: Why the games cannot be saved, as last said (None: they can).
        self._save_error: str | None = None
        self._retry_at = 0.0
        #: Why the board does not answer, as said (None: it answers); since when it is silent.
        self._board_problem: str | None = None
        self._silent_since: float | None = None
        #: The helpers that fail now ("LEDs", "display", "Computer", ...), and why, as said.
        self._failing: dict[str, str] = {}
        #: Observers whose last call raised: why, and the events they are to get again.
        self._unsynced: dict[Callable, tuple[str, list[Event]]] = {}
        #: When the game being played began (ms, the loop's clock): the events' ``t`` count
        #: from it, as the page's log and replay files do (a resumed game: from the resume).
        self._game_t0 = 0.0

    def run(self) -> int:
        """Loop until stopped (0) or until the scan has failed for FAILING_SECONDS (1)."""
        start = tick = next_ping = time.monotonic()
        watchdog = self.notifier.watchdog_seconds
        failing_since = stop_by = None
        hurried = False  # the last scan came early, for a wake-up
        while True:
            now = time.monotonic()
            now_ms = (now - start) * 1000.0
            if worked := self.step(now_ms):
                failing_since = None
                if watchdog and now >= next_ping:
                    self.notifier.watchdog()
                    next_ping = now + watchdog / 2
            elif failing_since is None:
                failing_since = now
            elif now - failing_since >= FAILING_SECONDS:
                print(f"reedboard run: the scan failed for {FAILING_SECONDS:g} s; stopping", file=sys.stderr)
                return 1
            if self.stop.is_set():
                stop_by = stop_by or now + DRAIN_SECONDS
                if self.controller.quiet(now_ms) or now >= stop_by:
                    return self.exit_status
            tick += self._period(now_ms) if worked else self.period
            if tick < now:  # fell behind (a slow move): skip, do not rush to catch up
                tick = now + self.period
            if worked and self._can_wait(now_ms):
                until = min(now + IDLE_WAIT, next_ping) if watchdog else now + IDLE_WAIT
                self.waiting = True
                self.waker.wait(
                    min(until, now + longest_wait(self.controller, now_ms) / 1000) - time.monotonic()
                )
                self.waiting = False
                tick = time.monotonic()  # woken (or due): scan at once
            else:
                tick, hurried = self._pause(self._settling(tick, start), hurried)

    def _pause(self, tick: float, hurried: bool) -> tuple[float, bool]:
        """Wait for the scan due at ``tick`` (monotonic s) on a board in motion; a wake-up (a
        piece set down) brings it forward, the pace going on from it, but once a period at most
        (``hurried``: the last scan came early), so a stream of wake-ups cannot make the loop
        spin. The next scan's time and whether it comes early."""
        if not hurried and not self.stop.is_set() and self.waker.wait(tick - time.monotonic()):
            return time.monotonic(), True
        if self.stop.is_set():  # draining: at the scan rate
            time.sleep(max(0.0, tick - time.monotonic()))
        elif self.stop.wait(max(0.0, tick - time.monotonic())):  # a stop ends the wait
            return time.monotonic(), False
        return tick, False

    def _settling(self, tick: float, start: float) -> float:
        """The next scan's time (monotonic s, the loop begun at ``start``): ``tick``, or sooner
        the moment the board settles if nothing changes first, so that a move is judged then
        and not up to a scan period later (a settle falls between two scans as often as not)."""
        due = self.controller.settles_at()
        if due is None:
            return tick
        at = start + due / 1000.0
        return at if time.monotonic() < at < tick else tick

    def attach(self, page: Any) -> None:
        """Step ``page`` after every step (``page.sync``, as an observer); it wakes the loop
        (``page.wakes(waker)``) and ``page.quiet`` says whether it has work left."""
        page.wakes(self.waker)
        self._pages.append(page)
        self.observers.append(page.sync)

    def _can_wait(self, now_ms: float) -> bool:
        """True when nothing can happen until a part wakes the loop: the parts can wake it and
        have nothing in progress, the board answers, the games can be saved, the board has
        settled and been judged, and the last step had nothing to say (its effects, e.g. a
        notice, are shown by the next)."""
        parts = (self.hardware.scanner, self.hardware.buttons, *self._pages)
        return (
            self._wakeable
            and not self._had_events
            and not self.stop.is_set()
            and (
                self.controller.settings.storage.failure is None or self.controller.settings.storage.in_memory
            )
            and self._silent_since is None
            and self.controller.quiet(now_ms)
            and all(getattr(part, "quiet", True) for part in parts)
        )

    def _period(self, now_ms: float) -> float:
        """The time to the next scan: the idle period on a settled board, if one is set."""
        if self.idle_period > self.period and not self._had_events and self.controller.quiet(now_ms):
            return self.idle_period
        return self.period

    def step(self, now_ms: float) -> bool:
        """One scan and controller step; False (nothing else done) when the scan raised."""
        hw, controller = self.hardware, self.controller
        try:
            scan = hw.scanner.scan()
        except Exception as exc:  # noqa: BLE001 - any driver's failure: logged once, pings stop
            self._scan_failed(exc)
            return False
        if self._scan_error is not None:
            print("reedboard run: the scan works again", file=sys.stderr)
            self._scan_error = None
        events: list[Event] = []
        presses = hw.buttons.events()
        try:
            events = controller.step(now_ms, scan, presses, screen=False)
        except StorageError as exc:  # a read that failed; every write is kept or refused
            self._storage_changed(exc.reason)
        self._had_events = bool(events)
        self._watch_storage(now_ms / 1000)
        # After the step: a board back is judged once its state has been seen (debounced).
        self._check_board(now_ms / 1000, getattr(hw.scanner, "problem", None))
        self._check_helpers()
        self._tell_systemd(events)  # ready once a scan worked; what it shows follows at once
        if controller.frame_version != self._frame_version:
            self._frame_version = controller.frame_version
            hw.leds.show(controller.frame())
        shown = controller.screen_step()  # the frame is out: a long screen takes longer
        self._had_events = self._had_events or bool(shown)
        events += shown
        events += self.speaker.step(now_ms, controller, events, presses)
        for event in events:
            if event["event"] == "new_game":
                self._game_t0 = event["t"]
            t = max(0, round(event["t"] - self._game_t0))
            self._write(json.dumps({**event, "t": t}))
        for observer in self.observers:
            self._sync(observer, now_ms, events)
        kinds = {event["event"] for event in events}
        if "display" in kinds:  # drawn once the events (a move) are out: drawing takes longest
            hw.display.show(controller.screen().render(hw.display.size))
        if "power_off" in kinds:
            self._power_off()
        if self.power_off and (why := self.power_off.failure()):
            self._power_off_failed(why)
        return True

    def _write(self, line: str) -> None:
        """One event line to the log; a log that cannot take it (stdout's reader went away)
        stops the daemon with a failure, said in the journal, so that systemd starts it again."""
        if self.log is None:
            return
        try:
            print(line, file=self.log, flush=True)
        except (OSError, ValueError) as exc:  # a closed pipe (EPIPE), a closed file
            log, self.log = self.log, None
            print(
                f"reedboard run: cannot write the events to stdout ({describe(exc)}): its "
                "reader went away; stopping with a failure",
                file=sys.stderr,
            )
            _to_null(log)
            self.exit_status = 1
            self.stop.set()

    def _watch_storage(self, now: float) -> None:
        """Try the writes that failed again now and then (a refused move too: its events come
        with the next step); say when saving fails or works again."""
        storage = self.controller.settings.storage
        if storage.failure is not None and now >= self._retry_at:
            self._retry_at = now + RETRY_SECONDS
            if storage.flush():
                self.controller.rejudge()
        if storage.failure != self._save_error:
            self._storage_changed(storage.failure)

    def _storage_changed(self, why: str | None) -> None:
        storage = self.controller.settings.storage
        if why is None:
            print("reedboard run: the games can be saved again", file=sys.stderr)
            self.controller.notice(None)
        elif storage.in_memory:
            print(
                f"reedboard run: Cannot save: {why} ({storage.path}); the game goes on from "
                f"memory, every move kept in order, and they are saved once the file can be "
                f"written (tried every {RETRY_SECONDS:g} s)",
                file=sys.stderr,
            )
            self.controller.notice(message_screen("Cannot save", [why, "Moves kept till then"]))
        else:
            print(
                f"reedboard run: cannot save the games in {storage.path} ({why}); "
                f"{len(storage.pending)} waiting, trying again every {RETRY_SECONDS:g} s",
                file=sys.stderr,
            )
            self.controller.notice(message_screen("Cannot save", [why, "Trying again"]))
        self._save_error = why
        self._status = self._status and ""  # STATUS= says it at the next step

    def _check_board(self, now: float, problem: str | None) -> None:
        """While the board does not answer nothing it shows is judged (the OLED says "Board
        not connected" at once); once it has been silent SILENT_SECONDS the journal and
        STATUS say so too, and again when it is back."""
        self.controller.set_connected(problem is None)
        if problem is None:
            self._silent_since = None
            if self._board_problem is not None:
                print("reedboard run: the board is connected again", file=sys.stderr)
                self._board_problem = None
                self._status = self._status and ""  # STATUS= says it at the next step
            return
        if self._silent_since is None:
            self._silent_since = now
        if self._board_problem is None and now - self._silent_since >= SILENT_SECONDS:
            print(f"reedboard run: Board not connected ({problem})", file=sys.stderr)
            self._board_problem = problem
            self._status = self._status and ""

    def _sync(self, observer: Callable, now_ms: float, events: list[Event]) -> None:
        """Call ``observer`` (the page, the café network); one that raises is said (as a
        helper) and gets the events it missed again with the next step's."""
        missed = self._unsynced.pop(observer, ("", []))[1]
        try:
            observer(now_ms, self.controller, missed + events)
        except Exception as exc:  # noqa: BLE001 - any bug in it: said, the loop goes on
            why = f"it failed ({describe(exc)}); it is called again with what it missed"
            self._unsynced[observer] = (why, (missed + events)[-MISSED_EVENTS:])

    def _helpers(self) -> dict[str, str | None]:
        """What is wrong with each part that works on its own (None: nothing), by name;
        asking starts again a thread or process that died."""
        c = self.controller
        found = {"LEDs": _check(self.hardware.leds), "display": _check(self.hardware.display)}
        found["Sound"] = self.speaker.check()
        for name, thinker in (("Computer", c.opponent), ("Hints", c.settings.hints)):
            if (worker := getattr(thinker, "worker", None)) is not None:
                worker.on_news = self.waker.set  # an answer wakes a waiting loop
                found[name] = worker.check()
        for observer in self.observers:
            part = getattr(observer, "__self__", observer)
            name = getattr(part, "label", type(part).__name__)
            found[name] = self._unsynced.get(observer, (None,))[0] or _check(part)
        return found

    def _check_helpers(self) -> None:
        """A helper that fails (an output that cannot be written, a thread or process that
        died, an observer that raised) is said once, in the journal and STATUS, and again when
        it works; "Computer restarting" on the OLED too. The game goes on without it."""
        found = self._helpers()
        for name in {**self._failing, **found}:
            failure = found.get(name)
            if (failure is None) == (name not in self._failing):
                continue
            if failure is None:
                del self._failing[name]
                back = f"writing to the {name} works again" if name in OUTPUTS else f"{name} works again"
                print(f"reedboard run: {back}", file=sys.stderr)
            else:
                self._failing[name] = failure
                said = (
                    (
                        f"cannot write to the {name} ({failure}); the game goes on, and it is "
                        "tried again every second"
                    )
                    if name in OUTPUTS
                    else f"{name} restarting: {failure}"
                )
                print(f"reedboard run: {said}", file=sys.stderr)
            if name == "Computer":
                self._say_computer(failure is not None)
            self._status = self._status and ""  # STATUS= says it at the next step

    def _say_computer(self, restarting: bool) -> None:
        """The OLED's message line says the computer is restarting, while it is."""
        if restarting:
            self.controller.say(COMPUTER_RESTARTING)
        elif self.controller.snapshot().message == COMPUTER_RESTARTING:
            self.controller.say(None)

    def _tell_systemd(self, events: list[Event]) -> None:
        """READY after the first good step, then STATUS= whenever the status line changes;
        it can only change when something happened (an event)."""
        if self._status and not events:
            return
        status = status_text(self.controller)
        if self.note:
            status += f" ({self.note})"
        if self._board_problem:
            status += f" (Board not connected: {self._board_problem})"
        if self._save_error:
            status += f" (cannot save: {self._save_error})"
        for name, failure in self._failing.items():
            status += f" ({name}: {failure})" if name in OUTPUTS else f" ({name} restarting)"
        if self._status is None:
            self.notifier.ready(status)
            for action in self.when_ready:
                action()
        elif status != self._status:
            self.notifier.status(status)
        self._status = status

    def _scan_failed(self, exc: Exception) -> None:
        """Said once; the OLED and STATUS say the board is not connected (the loop, which
        would refresh them, stops at the scan)."""
        error = f"{type(exc).__name__}: {exc}"
        if error == self._scan_error:
            return
        print(
            f"reedboard run: Board not connected: the scan failed ({error}); no watchdog "
            "pings until it works",
            file=sys.stderr,
        )
        self._scan_error = self._board_problem = error
        self.controller.set_connected(False)
        self.hardware.display.show(self.controller.screen().render(self.hardware.display.size))
        if self._status is not None:
            self._status = ""
            self._tell_systemd([])

    def _power_off(self) -> None:
        if self.power_off is None:  # the simulated board: never this machine
            print(
                "reedboard run: power-off on the simulated board: shown, the host is not powered off",
                file=sys.stderr,
            )
            self.controller.notice(message_screen("Powered off", ["(simulated)", "Any button: back"]))
            return None
        print(f"reedboard run: powering off ({' '.join(self.power_off.command)})", file=sys.stderr)
        if why := self.power_off.start():
            self._power_off_failed(why)

    def _power_off_failed(self, why: str) -> None:
        print(f"reedboard run: cannot power off: {why}", file=sys.stderr)
        self.controller.notice(message_screen("Cannot power off", [why]))

    def close(self) -> None:
        self.notifier.stopping()
        self.hardware.leds.show({})
        self.hardware.close()
        self.speaker.close()
        self._keep_unsaved()
        self.controller.settings.storage.close()
        for thinker in (self.controller.opponent, self.controller.settings.hints):
            if thinker:
                thinker.close()
        self.notifier.close()
        self.waker.close()

    def _keep_unsaved(self) -> None:
        """A stop while the games file cannot be written: tried once more, else what is kept
        in memory is written to a file beside it (or in the runtime or temporary folder), and
        where is said in one line; if none takes it, what is lost is said."""
        storage = self.controller.settings.storage
        if not storage.pending or storage.flush():
            return
        import tempfile

        why, moves = storage.failure, storage.unsaved_moves
        folders = [
            os.path.dirname(os.path.abspath(storage.path)),
            *filter(None, [os.environ.get("RUNTIME_DIRECTORY", "").split(":")[0]]),
            tempfile.gettempdir(),
        ]
        where = storage.save_aside(folders)
        head = (
            f"reedboard run: stopping while the games cannot be saved in {storage.path} "
            f"({why}): the {moves} moves kept in memory ({len(storage.pending)} writes in all)"
        )
        if where:
            print(
                f"{head} are saved in {where} (a games file: copy it over {storage.path} "
                "once it can be written)",
                file=sys.stderr,
            )
        else:
            print(f"{head} are LOST: no folder took a copy ({', '.join(folders)})", file=sys.stderr)


def _to_null(stream: TextIO) -> None:
    """Point ``stream``'s descriptor at /dev/null: what it still buffers is then dropped
    quietly at exit (not an "Exception ignored" on a broken pipe)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError):  # no descriptor (a test's StringIO)
        pass


class _Stop(threading.Event):
    """The daemon's stop flag; setting it (from a signal handler or a thread) wakes the loop."""

    def __init__(self, waker: Waker) -> None:
        super().__init__()
        self._waker = waker

    def set(self) -> None:
        super().set()
        self._waker.set()


def _check(part: Any) -> str | None:
    """``part.check()`` (which also starts again what died) if it has one, else its
    ``failure`` (None: nothing wrong, or nothing to say)."""
    if hasattr(part, "check"):
        return part.check()
    return getattr(part, "failure", None)


def _wakes(part: Any, waker: Waker) -> bool:
    """Let ``part`` wake the loop if it can (``part.wakes(waker)``); whether it could."""
    if not hasattr(part, "wakes"):
        return False
    part.wakes(waker)
    return True


def longest_wait(controller: Controls, now_ms: float) -> float:
    """The longest (ms) the loop waits for a wake-up on a settled board at ``now_ms``:
    :data:`IDLE_WAIT`, or until the kiosk's next change, or the running game clock's next draw
    or its flag (a flag falls at its time, the last seconds shown in tenths)."""
    waits = [1000 * IDLE_WAIT]
    idle, clock = controller.settings.idle, controller.clock.due(now_ms)
    if idle is not None:
        waits.append(idle.due(now_ms))
    if clock is not None:
        waits.append(clock)
    return min(waits)


def open_storage(path: str) -> tuple[Storage, str | None]:
    """The games database and what was set aside (None: nothing). A damaged one (not a
    database, malformed) is moved aside, never deleted, and a new one begun; one whose log lost
    saved moves is copied aside and opened with what SQLite can still read. Each said in one
    line."""
    lost = lost_commits(path) if path != ":memory:" else 0
    if lost:
        aside = _set_aside(path, copy=True)
        print(
            f"reedboard run: {path}-wal is damaged: {lost} saved change(s) cannot be read; "
            f"the files are kept as {aside}",
            file=sys.stderr,
        )
    try:
        return Storage(path), "Some saves damaged" if lost else None
    except StorageError as exc:
        if not exc.corrupt:
            raise
        why = exc.reason
    aside = _set_aside(path)
    print(
        f"reedboard run: {path} is damaged ({why}); it is kept as {aside} and a new database begun",
        file=sys.stderr,
    )
    return Storage(path), "The file was damaged"


def _set_aside(path: str, copy: bool = False) -> str:
    """:meth:`Storage.set_aside`, or why it cannot be (a read-only card: left as it is)."""
    try:
        return Storage.set_aside(path, copy)
    except OSError as exc:
        return f"{path} (it cannot be moved: {exc.strerror or exc})"
