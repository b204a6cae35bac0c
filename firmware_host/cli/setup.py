"""``reedboard setup``: the wall-clock loop around the set-up wizard (firmware_host/board/wizard.py).

It scans the configured sensors, steps the wizard, lights its LED, shows its screen on the OLED,
prints its events as JSON lines on stdout, and saves what it learned after every step in
``LAYOUT.setup.json`` beside the layout file, so an interrupted set-up resumes where it
stopped (that file is checked as a layout is). When every site has its channels it writes the
layout file (keeping the sites of other games already in it) and ends. It never edits the
config: when the config does not name the file written, it says what to add.

On the simulated board JSON lines on stdin put pieces and press buttons, as for ``reedboard
run``: ``{"site": "A1*", "on": true}``, ``{"button": "back"}``; the board's ``wiring`` (a
layout file, ``[sensors] wiring``) says which channels a piece really closes and lights.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, TextIO

from firmware_host.actions import inbound
from firmware_host.board.game import Game
from firmware_host.board.wizard import Progress, Wizard
from firmware_host.runtime.replay import feed
from firmware_host.runtime.stopping import stop_on_signals
from firmware_host.store.config import Config, ConfigError
from firmware_host.store.layout import Layout, default_layout, layout_toml, read_layout
from firmware_host.store.tomlfile import one_line, read_small_file
from hardware import backends
from hardware.wiring import channel_groups


@dataclass
class SetupJob:
    """What a set-up learns and where it writes: the wizard, the layout file, the progress
    file, and the channels a simulated board believes in (when it has no wiring of its own)."""

    wizard: Wizard
    #: The sites learned, in the engine's order (a saved progress is for exactly these).
    labels: list[str]
    target: str
    progress_file: str
    believed: dict[str, int]
    resumed: bool


def layout_target(config: Config, layout: str | None) -> str:
    """The layout file to write: ``--layout``, the config's ``layout``, else ``layout.toml``
    beside the config (in the current folder without one)."""
    if layout:
        return os.path.abspath(layout)
    if config.layout:
        return config.layout
    folder = os.path.dirname(os.path.abspath(config.source)) if config.source else os.getcwd()
    return os.path.join(folder, "layout.toml")


def prepare(
    config: Config, game: Game, target: str, again: bool, led_channels: int, sensor_channels: int
) -> SetupJob:
    """The wizard for ``game``'s sites that ``target`` lacks (all of them, ``again``);
    ConfigError for a bad layout or progress file, or when there is nothing to learn."""
    sites = game.new().sites()
    labels = {s.label for s in sites}
    existing = read_layout(target) if os.path.exists(target) else Layout({}, {})
    keep_labels = [s for s in existing.sensor if not (again and s in labels)]
    keep = Layout({s: existing.sensor[s] for s in keep_labels}, {s: existing.led[s] for s in keep_labels})
    learn = [s for s in sites if s.label not in keep.sensor]
    if not learn:
        raise ConfigError(
            f"{target}: already has all {len(sites)} sites of {game.title} (--again learns them anew)"
        )
    expected = {s: existing.sensor[s] for s in labels if s in existing.sensor} if again else {}
    if not os.path.exists(target):  # a new board: expected in the engine's order
        expected = default_layout(sites).sensor
    believed = {**default_layout(sites).sensor, **existing.sensor}
    progress_file = target + ".setup.json"
    _check_writable(target)
    progress, resumed = read_progress(progress_file, game, [s.label for s in learn], keep)
    sensors = config.hardware("sensors")
    checked = sensor_channels
    if sensors["backend"] == "sim":
        wired = [pair[0] for pair in sensors.get("wiring", {}).values()]
        checked = max(len(sites) + len(keep.sensor), *(ch + 1 for ch in wired), 1)
    wizard = Wizard(
        learn,
        led_channels=led_channels,
        keep=keep,
        expected=expected,
        groups=channel_groups(sensors, checked),
        channels=checked,
        scans=config.timing.debounce_scans,
        progress=progress,
    )
    return SetupJob(wizard, [s.label for s in learn], target, progress_file, believed, resumed)


def _check_writable(target: str) -> None:
    """ConfigError when the layout file (and its progress file beside it) cannot be written
    where ``target`` names it, said before anything is asked."""
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise ConfigError(f"{target}: cannot write the layout here (there is no folder {folder})")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(f"{target}: cannot write the layout here (no permission to write in {folder})")


def read_progress(path: str, game: Game, labels: list[str], keep: Layout) -> tuple[Progress | None, bool]:
    """The progress an interrupted set-up of the same sites saved (None: none); ConfigError
    naming the file and what is wrong when it is damaged or impossible (a site not learned
    now, a channel two sites share)."""
    if not os.path.exists(path):
        return None, False
    try:
        text = read_small_file(path)
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else one_line(exc)
        raise _unusable(path, f"cannot read ({why})") from None
    try:
        data = inbound.loads(text)
    except inbound.Unreadable as exc:
        raise _unusable(path, str(exc)) from None
    if not isinstance(data, dict) or not isinstance(data.get("progress"), dict):
        raise _unusable(path, "not a set-up's progress (expected its JSON object)")
    if data.get("game") != game_key(game) or data.get("sites") != labels:
        print(f"reedboard setup: {path} is another set-up's progress: beginning again", file=sys.stderr)
        return None, False
    try:
        progress = Progress.from_json(data["progress"])
        progress.check(labels, keep)
    except ValueError as exc:
        raise _unusable(path, str(exc)) from None
    return progress.resumed(), True


def _unusable(path: str, why: str) -> ConfigError:
    return ConfigError(f"{path}: {why} (remove it to begin again)")


def game_key(game: Game) -> dict[str, Any]:
    return {"name": game.name, "size": game.size, "variant": game.variant}


def _write(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all."""
    temporary = f"{path}.tmp"
    with open(temporary, "w", encoding="utf-8") as fp:
        fp.write(text)
        fp.flush()
        os.fsync(fp.fileno())
    os.replace(temporary, path)


def save_progress(plan: SetupJob, game: Game) -> None:
    data = {"game": game_key(game), "sites": plan.labels, "progress": plan.wizard.progress.to_json()}
    _write(plan.progress_file, json.dumps(data) + "\n")


def _save(plan: SetupJob, game: Game) -> None:
    """Save the progress; said in one line when it cannot be written (the set-up goes on, and
    tries again at its next step)."""
    try:
        save_progress(plan, game)
    except OSError as exc:
        print(
            f"reedboard setup: {plan.progress_file}: cannot save the progress ({exc.strerror or exc})",
            file=sys.stderr,
        )


def finish(plan: SetupJob, game: Game, config: Config) -> dict[str, Any]:
    """Write the layout (the set-up is complete); the done event, with the line to ``add`` to
    the config when it does not name the file written (said on stderr too: the config is
    never edited)."""
    layout = plan.wizard.layout()
    _write(plan.target, layout_toml(layout, game.name, game.size, game.variant))
    if os.path.exists(plan.progress_file):
        os.remove(plan.progress_file)
    event: dict[str, Any] = {"event": "setup", "done": plan.target, "sites": len(layout.sensor)}
    if config.layout != plan.target:
        event["add"] = line = layout_line(config.source, plan.target)
        where = config.source or "the config"
        if config.layout is None:
            say = (
                f"add {line} to {where} (above its first [table]): reedboard run uses the "
                "default order until it names the file"
            )
        else:
            say = f"{where} names {config.layout}: make it {line} for reedboard run to use this one"
        print(f"reedboard setup: {say}", file=sys.stderr)
    return event


def layout_line(config_path: str | None, layout: str) -> str:
    """The config's line naming ``layout``: relative to the config's folder when inside it.

    >>> layout_line("/etc/reedboard/config.toml", "/etc/reedboard/layout.toml")
    'layout = "layout.toml"'
    >>> layout_line(None, "/home/pi/layout.toml")
    'layout = "/home/pi/layout.toml"'
    """
    folder = os.path.dirname(os.path.abspath(config_path)) if config_path else None
    name = os.path.relpath(layout, folder) if folder and layout.startswith(folder + os.sep) else layout
    return f"layout = {json.dumps(name)}"


# ------------------------------------------------------------------------------- the loop
def run_setup(config: Config, game: Game, layout: str | None, again: bool, out: TextIO = sys.stdout) -> int:
    """Run the wizard until the layout is written (0), the set-up stops incomplete (1), or it
    is interrupted (130, its progress saved); 2 for a bad config."""
    from firmware_host.runtime.loop import open_hardware

    target = layout_target(config, layout)
    try:
        hardware = open_hardware(config, len(game.new().sites()))
    except backends.HardwareOptionError as exc:
        print(f"reedboard setup: {config.option_error(exc)}", file=sys.stderr)
        return 2
    except backends.HardwareUnavailable as exc:
        print(f"reedboard setup: {exc}; see reedboard doctor", file=sys.stderr)
        return 2
    try:
        plan = prepare(config, game, target, again, hardware.leds.channels, hardware.scanner.channels)
    except ConfigError as exc:
        hardware.close()
        print(f"reedboard setup: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()
    stop_on_signals(stop.set)  # before the page's address is said
    page = _page(hardware, plan, game, config)
    if hardware.sim is not None and not sys.stdin.isatty():
        timing = config.timing
        gap = max(0.05, 3 * timing.debounce_scans / timing.scan_hz)  # a quick tap is seen
        threading.Thread(
            target=feed,
            args=(hardware.sim, lambda: plan.believed, sys.stdin, "setup", gap),
            daemon=True,
            name="stdin",
        ).start()
    try:
        return _loop(plan, game, config, hardware, stop, out, page)
    finally:
        if page is not None:
            page.stop()
        hardware.leds.show({})
        hardware.close()


def _page(hardware, plan: SetupJob, game: Game, config: Config):
    """The wizard's page at the config's ``[web]`` address (loopback by default; beyond it the
    controls need a token, printed); None, said why, when the address is taken."""
    from firmware_host.net import web
    from firmware_host.net.address import host_address
    from firmware_host.net.web.setup_page import SetupPage
    from firmware_host.net.web.spacing import gap
    from firmware_host.net.web.tap import tap

    board = hardware.sim if hardware.sim is not None else tap(hardware)
    spaced = gap(config.timing.debounce_scans, config.timing.scan_hz)
    bridge = SetupPage(board, game.new().sites(), plan.believed, game, *spaced)
    try:
        return web.bind_bridge(bridge, config.web.host, config.web.port, None, lan=host_address)
    except OSError as exc:
        print(
            f"reedboard setup: no page on {config.web.host}:{config.web.port} "
            f"({exc.strerror or exc}); the board's buttons and OLED work",
            file=sys.stderr,
        )
        return None


def _loop(
    plan: SetupJob, game: Game, config: Config, hardware, stop: threading.Event, out: TextIO, page=None
) -> int:
    wizard, period = plan.wizard, 1.0 / config.timing.scan_hz
    say = _printer(out)
    if plan.resumed:
        say(
            {
                "event": "setup",
                "resumed": plan.progress_file,
                "learned": len(wizard.progress.sensor),
                "leds": len(wizard.progress.led),
            }
        )
    start = time.monotonic()
    wizard.step(0.0, hardware.scanner.scan(), [])  # what the board holds before the question
    events, shown = wizard.start(), -1
    if page is not None:
        page.serve_soon()
    while True:
        if wizard.version != shown:  # shown before the question is asked
            shown = wizard.version
            hardware.leds.show(wizard.frame())
            hardware.display.show(wizard.screen().render(hardware.display.size))
        if events:
            _save(plan, game)
        for event in events:
            say(event)
        if page is not None:
            page.sync((time.monotonic() - start) * 1000, wizard, events)
        if wizard.phase == "done":
            return _end(plan, game, config, say)
        if stop.is_set():
            say({"event": "setup", "stopped": plan.progress_file})
            return 130
        time.sleep(period)
        now = (time.monotonic() - start) * 1000
        events = wizard.step(now, hardware.scanner.scan(), hardware.buttons.events())


def _end(plan: SetupJob, game: Game, config: Config, say) -> int:
    missing = plan.wizard.missing()
    if missing["sensor"] or missing["led"]:
        say({"event": "setup", "incomplete": missing, "progress": plan.progress_file})
        return 1
    try:
        say(finish(plan, game, config))
    except OSError as exc:
        print(
            f"reedboard setup: {plan.target}: cannot write the layout ({exc.strerror or exc}); "
            f"what was learned is kept in {plan.progress_file}",
            file=sys.stderr,
        )
        return 1
    return 0


def _printer(out: TextIO):
    def say(event: dict[str, Any]) -> None:
        print(json.dumps(event), file=out, flush=True)

    return say
