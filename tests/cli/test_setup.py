"""The set-up wizard learns a scrambled board's wiring: the pure core on a virtual clock for
every game and several kinds of wiring, and `reedboard setup` driven from outside over stdin,
interrupted and resumed."""

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import engines
from firmware_host.board.game import Game
from firmware_host.board.wizard import Progress, Wizard, serpentine
from firmware_host.cli.setup import prepare, save_progress
from firmware_host.store.config import ConfigError, load_config
from firmware_host.store.layout import Layout, layout_toml, read_layout
from hardware.base import ButtonEvent
from hardware.sim import SimBoard
from testbed.language import speaking
from testbed.running import Running
from testbed.tools import free_port

GAMES = [
    ("antipalos", 4),
    ("antipalos", 12),
    ("antipode", None),
    ("antipod", 5),
    ("anti-grid", 6),
    ("phalanx", None),
]
REEDBOARD = Path(sys.executable).with_name("reedboard")


def sites_of(game, size=None):
    return engines.new_game(game, size, None).sites()


# ------------------------------------------------------------------------ true wirings
def matrix_wiring(sites, rng, columns=16):
    """Sites soldered to random cells of a matrix; the LED strip in serpentine order."""
    cells = rng.sample(range(columns * (len(sites) // columns + 2)), len(sites))
    order = serpentine(sites)
    return {s.label: (cells[i], order.index(s.label)) for i, s in enumerate(sites)}


def chain_wiring(sites, rng, h_first):
    """Sites in rows on a 74HC165 chain whose registers were soldered H..A (h_first) or A..H,
    some registers swapped; LEDs in engine order from a random start."""
    registers = list(range(len(sites) // 8 + 1))
    rng.shuffle(registers)
    start = rng.randrange(len(sites))
    wiring = {}
    for i, label in enumerate(serpentine(sites)):
        bit = 7 - i % 8 if h_first else i % 8
        wiring[label] = (8 * registers[i // 8] + bit, (start + i) % len(sites))
    return wiring


# ------------------------------------------------------------------------ the builder
class Builder:
    """Does what the wizard asks on a simulated board wired as ``wiring``, on a virtual clock;
    ``dead`` sites close nothing and get MENU."""

    def __init__(self, wizard, board, wiring):
        self.wizard, self.board, self.wiring = wizard, board, wiring
        self.t, self.events = 0.0, []
        self.by_led = {led: site for site, (_, led) in wiring.items()}

    def scans(self, n=4, buttons=()):
        out = []
        for i in range(n):
            self.t += 10
            out += self.wizard.step(self.t, self.board.scan(), list(buttons) if i == 0 else [])
        self.events += out
        return out

    def tap(self, site):
        """Put a piece on ``site`` and take it off again."""
        channel = self.wiring.get(site, (None, None))[0]
        if channel is None:
            return self.scans(buttons=[ButtonEvent("menu")])
        self.board.place(channel)
        out = self.scans()
        self.board.lift(channel)
        return out + self.scans()

    def answer(self, event):
        if event.get("step") == "check":  # a piece swept over the board, then OK
            swept = [self.tap(site) for site in self.wiring]
            return sum(swept, []) + self.scans(buttons=[ButtonEvent("ok")])
        if event.get("step") == "sensor":
            return self.tap(event["site"])
        if event.get("step") == "led":
            site = self.by_led.get(event["channel"])
            return self.tap(site) if site else self.scans(buttons=[ButtonEvent("back")])
        return []

    def run(self):
        self.scans(1)
        queue = self.wizard.start()
        self.events += queue
        while queue and self.wizard.phase != "done":
            queue = self.answer(queue.pop(0)) + queue
            if len(self.events) > 20 * len(self.wiring) + 100:
                raise AssertionError("the wizard keeps asking")
        return self.events


def learn(sites, wiring, *, columns=None, diodes=True, keep=None, expected=None, check=True):
    board = SimBoard(2048, columns=columns, diodes=diodes, leds=max(led for _, led in wiring.values()) + 1)
    wizard = Wizard(
        sites, led_channels=board.leds.channels, keep=keep, expected=expected, scans=3, check=check
    )
    builder = Builder(wizard, board, wiring)
    return wizard, builder.run()


def as_layout(wiring):
    return Layout({s: w[0] for s, w in wiring.items()}, {s: w[1] for s, w in wiring.items()})


@pytest.mark.parametrize("game,size", GAMES)
@pytest.mark.parametrize("kind", ["matrix", "matrix-no-diodes", "chain-a-first", "chain-h-first"])
def test_random_wirings_are_learned_for_every_game(game, size, kind):
    sites = sites_of(game, size)
    rng = random.Random(f"{game}{size}{kind}")
    if kind.startswith("matrix"):
        wiring = matrix_wiring(sites, rng)
        wizard, events = learn(sites, wiring, columns=16, diodes=kind == "matrix")
    else:
        wiring = chain_wiring(sites, rng, h_first=kind == "chain-h-first")
        wizard, events = learn(sites, wiring)
    assert wizard.phase == "done"
    assert wizard.layout() == as_layout(wiring)
    assert not [e for e in events if "problem" in e]
    asked = [e["site"] for e in events if e.get("step") == "sensor"]
    assert asked == serpentine(sites)


def test_sites_come_in_serpentine_rows_from_a1():
    order = serpentine(sites_of("antipalos", 4))
    assert order[:8] == ["A1*", "*A1", "B1*", "*B1", "C1*", "*C1", "D1*", "*D1"]
    assert order[8:10] == ["D2*", "*D2"]  # the next row comes back from the right


def test_a_dead_switch_is_reported_and_nothing_is_written():
    sites = sites_of("antipode")
    wiring = matrix_wiring(sites, random.Random(3))
    del wiring["e5"]  # its switch closes nothing; its LED lights nothing either
    wizard, events = learn(sites, wiring, check=False)
    done = next(e for e in events if e.get("step") == "done")
    assert done["dead"] == ["e5"] and done["missing"] == {"sensor": ["e5"], "led": ["e5"]}
    assert wizard.screen().title == "Set-up incomplete"


def test_the_check_names_stuck_switches_and_loose_rows():
    sites = sites_of("antipode")
    board = SimBoard(128, columns=8)
    wizard = Wizard(
        sites, led_channels=61, channels=128, groups=lambda ch: (f"row {ch // 8}", f"column {ch % 8}")
    )
    board.place(41)  # stuck closed all along
    wizard.step(0, board.scan(), [])
    assert wizard.start() == [{"event": "setup", "step": "check"}]
    t = 0
    for channel in range(128):
        if channel // 8 == 3 or channel == 41:  # row 3's wire is loose
            continue
        board.place(channel)
        t += 10
        wizard.step(t, board.scan(), [])
        board.lift(channel)
        t += 10
        wizard.step(t, board.scan(), [])
    assert wizard.screen().title == "Sensor check"
    report = wizard.step(t + 10, board.scan(), [ButtonEvent("ok")])[0]["report"]
    assert report["stuck"] == [41]
    assert report["dead"] == ["row 3"]
    assert "switch at channel 41 stuck closed (or a piece left on it)" in report["causes"]
    assert "row 3: none of its 8 switches closed: row 3 not connected" in report["causes"]
    assert not report["ghosting"]


def test_ghosting_is_said_in_the_check_and_while_learning():
    board = SimBoard(64, columns=8, diodes=False)
    wizard = Wizard(sites_of("antipode"), led_channels=61, channels=64)
    wizard.step(0, board.scan(), [])
    for ch in (0, 1, 8):
        board.place(ch)
    wizard.step(10, board.scan(), [])
    events = wizard.step(20, board.scan(), [ButtonEvent("ok")])
    report = events[0]["report"]
    assert report["ghosting"] and "readings ghost" in report["causes"][-1]
    assert events[1]["step"] == "sensor"  # learning begins: the ghosting reading is said
    assert events[2] == {"event": "setup", "problem": "ghost", "channels": [0, 1, 8, 9]}
    assert wizard.step(30, board.scan(), []) == []  # once, until it is gone


def test_doubled_and_swapped_channels_are_said():
    sites = sites_of("antipode")
    expected = {s.label: i for i, s in enumerate(sites)}
    wiring = {label: (ch, ch) for label, ch in expected.items()}
    wiring["a1"], wiring["a2"] = (1, 0), (0, 1)  # two wires swapped
    board = SimBoard(64, leds=61)
    wizard = Wizard(sites, led_channels=61, expected=expected, scans=1, check=False)
    builder = Builder(wizard, board, wiring)
    builder.scans(1)
    wizard.start()
    first = builder.tap("a1")
    assert first[0] == {"event": "setup", "learned": "a1", "channel": 1}  # learned as it is
    doubled = builder.tap("a1")  # the same site again instead of a2
    assert doubled[0] == {"event": "setup", "problem": "doubled", "channel": 1, "site": "a2", "owner": "a1"}
    assert "Ch 1 is a1!" in wizard.screen().lines
    several = (board.place(0), board.place(2), builder.scans(), board.lift(0), board.lift(2))[2]
    assert several[0]["problem"] == "several" and wizard.prompt == "a2"
    redo = builder.scans(1, buttons=[ButtonEvent("back")])  # BACK: a1 again
    assert redo[0] == {"event": "setup", "step": "sensor", "site": "a1", "n": 1, "of": 61, "redo": True}
    events = builder.run()
    done = next(e for e in events if e.get("step") == "done")
    assert done["swapped"] == [["a1", "a2"]]
    assert wizard.layout() == as_layout(wiring)


def test_a_board_wired_in_its_own_order_is_learned_with_no_problem_said():
    """The docs say any order is fine: a board expected in the engine's order (a new one) but
    wired otherwise is learned as it is, no site called wrong and no pair called swapped."""
    sites = sites_of("antipalos", 4)
    expected = {s.label: i for i, s in enumerate(sites)}
    wiring = matrix_wiring(sites, random.Random(7))
    assert sum(wiring[s][0] == ch for s, ch in expected.items()) < len(sites) // 2
    wizard, events = learn(sites, wiring, expected=expected)
    assert wizard.layout() == as_layout(wiring)
    assert [e for e in events if "problem" in e or "expected" in e] == []
    assert next(e for e in events if e.get("step") == "done")["swapped"] == []


def test_a_sensor_check_with_no_switch_closed_says_so_and_asks_again():
    sites = sites_of("antipode")
    board = SimBoard(64, leds=61)
    wizard = Wizard(sites, led_channels=61, channels=64, scans=1)
    builder = Builder(wizard, board, {s.label: (i, i) for i, s in enumerate(sites)})
    builder.scans(1)
    assert wizard.start() == [{"event": "setup", "step": "check"}]
    report, said, again = builder.scans(2, buttons=[ButtonEvent("ok")])  # nothing swept
    assert report["report"]["closed"] == 0
    assert report["report"]["causes"][0].startswith("no switch closed: sweep a piece over every site")
    assert said == {"event": "setup", "problem": "none closed"}
    assert again == {"event": "setup", "step": "check", "again": True}
    assert wizard.phase == "check" and "None closed! Again" in wizard.screen().lines
    events = builder.answer(again)  # swept this time
    assert events[0]["report"]["closed"] == 61 and events[1]["step"] == "sensor"


def test_only_a_new_games_sites_are_learned_and_the_others_kept():
    antipode = sites_of("antipode")
    kept = Layout(
        {s.label: 100 + i for i, s in enumerate(antipode)}, {s.label: 200 + i for i, s in enumerate(antipode)}
    )
    sites = sites_of("antipalos", 4)
    wiring = {s.label: (i, i) for i, s in enumerate(sites)}
    wizard, events = learn(sites, wiring, keep=kept, check=False)
    assert len([e for e in events if e.get("step") == "sensor"]) == len(sites)
    layout = wizard.layout()
    assert {s: layout.sensor[s] for s in kept.sensor} == kept.sensor
    assert all(layout.sensor[s.label] == wiring[s.label][0] for s in sites)


# ------------------------------------------------------------------------ from outside
def write_board(tmp_path, game, wiring, size=None):
    wired = tmp_path / "wiring.toml"
    wired.write_text(layout_toml(as_layout(wiring), game, size, None))
    config = tmp_path / "config.toml"
    config.write_text(
        f'game = "{game}"\n'
        + (f"size = {size}\n" if size else "")
        + f'storage = "{tmp_path}/games.db"\n[timing]\nscan_hz = 200\n'
        f"[web]\nport = {free_port()}\n"
        '[sensors]\nbackend = "sim"\nwiring = "wiring.toml"\n'
    )
    return config


class Session:
    """`reedboard setup` in a process of its own (both of its pipes drained meanwhile:
    testbed/running.py), answered over stdin as a builder would."""

    def __init__(self, config, wiring):
        self.board = Running(config, "setup")
        self.by_led = {led: site for site, (_, led) in wiring.items()}
        self.events = []

    def send(self, obj):
        self.board.send(**obj)

    def tap(self, site):
        self.send({"site": site, "on": True})
        time.sleep(0.04)
        self.send({"site": site, "on": False})

    def stderr(self):
        """All it said on stderr (the whole of it once it has ended)."""
        return self.board.stderr()

    def run(self, stop_after=None):
        """Answer each question; one left unanswered for 3 s is answered again (a tap the
        board missed on a loaded machine, as a builder taps again). Its exit status."""
        event = None
        while True:
            line = self.board.events.next(timeout=3)
            if line is None:
                self.answer(event)
                continue
            if not line:
                return self.board.proc.wait(timeout=30)
            event = json.loads(line)
            self.events.append(event)
            if (
                stop_after is not None
                and event.get("learned_led")
                and len([e for e in self.events if "learned_led" in e]) == stop_after
            ):
                self.board.proc.send_signal(signal.SIGTERM)
            else:
                self.answer(event)

    def answer(self, event):
        if event is None:
            return
        if event.get("step") == "check":  # a piece over one site, then OK
            self.tap(next(iter(self.by_led.values())))
            self.send({"button": "ok"})
        elif event.get("step") == "sensor":
            self.tap(event["site"])
        elif event.get("step") == "led":
            site = self.by_led.get(event["channel"])
            self.tap(site) if site else self.send({"button": "back"})


@pytest.mark.slow  # the quick run sets up from outside below (the docs' config)
def test_setup_from_outside_learns_a_scrambled_board_and_resumes(tmp_path):
    sites = sites_of("antipode")
    wiring = chain_wiring(sites, random.Random(11), h_first=True)
    config = write_board(tmp_path, "antipode", wiring)
    written = config.read_text()
    first = Session(config, wiring)
    assert first.run(stop_after=10) == 130  # interrupted while learning the LEDs
    assert first.events[0] == {"event": "setup", "step": "check"}
    assert first.events[-1] == {"event": "setup", "stopped": f"{tmp_path}/layout.toml.setup.json"}
    assert not (tmp_path / "layout.toml").exists()
    second = Session(config, wiring)
    assert second.run() == 0, second.stderr()
    assert second.events[0]["resumed"] == f"{tmp_path}/layout.toml.setup.json"
    assert second.events[0]["learned"] == 61 and second.events[0]["leds"] >= 10
    assert not [e for e in second.events if e.get("step") == "sensor"]  # not asked again
    assert second.events[-1]["done"] == f"{tmp_path}/layout.toml"
    assert read_layout(str(tmp_path / "layout.toml")) == as_layout(wiring)
    # The config is never edited: what to add is said, in one line and in the last event.
    assert config.read_text() == written
    said = [line for line in second.stderr().splitlines() if "layout =" in line]
    assert said == [
        f'reedboard setup: add layout = "layout.toml" to {config} (above its first '
        "[table]): reedboard run uses the default order until it names the file"
    ]
    assert second.events[-1]["add"] == 'layout = "layout.toml"'
    assert not os.path.exists(f"{tmp_path}/layout.toml.setup.json")
    # The board now plays with what was learned: the daemon's config check accepts it.
    done = subprocess.run(
        [str(REEDBOARD), "setup", "--config", str(config)], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 2 and "already has all 61 sites of Antipode" in done.stderr


@pytest.mark.parametrize("code", ["en", "de", "fr"])
def test_the_wizards_screens_fit_the_oled(code):
    """Each phase's screen (and a problem said) fits the panel in each language; saved in
    test-output/ to look at (oled-setup-<moment>.png, oled-de-setup-<moment>.png, 4x)."""
    from luma.core.device import dummy

    from firmware_host.ui.screens import SIZE, fits

    out = Path(__file__).resolve().parents[2] / "test-output"
    out.mkdir(exist_ok=True)
    sites = sites_of("antipalos", 12)
    wiring = {s.label: (i, i) for i, s in enumerate(sites)}
    board = SimBoard(400, leds=288)
    wizard = Wizard(sites, led_channels=288, scans=1)
    builder = Builder(wizard, board, wiring)
    builder.scans(1)
    wizard.start()
    moments = [("none-closed", lambda: builder.scans(1, [ButtonEvent("ok")]))]
    moments.append(("check", lambda: board.place(5) or builder.scans(1)))
    moments.append(("sensor", lambda: (board.lift(5), builder.scans(1, [ButtonEvent("ok")]))))
    moments.append(("doubled", lambda: (builder.tap("A1*"), builder.tap("A1*"))))
    for site in serpentine(sites)[1:]:
        moments.append((None, lambda site=site: builder.tap(site)))
    moments.append(("led", lambda: None))
    prefix = "oled-setup" if code == "en" else f"oled-{code}-setup"
    for name, act in moments:
        act()
        if name is None:
            continue
        with speaking(code):
            screen = wizard.screen()
        assert fits(screen), screen.text_lines()
        image = screen.render(dummy(*SIZE, mode="1"))
        image.convert("L").resize((SIZE[0] * 4, SIZE[1] * 4)).save(out / f"{prefix}-{name}.png")
    assert wizard.phase == "led"


# ---------------------------------------------------- the docs' config, and what it may hold
DOCS = Path(__file__).resolve().parents[2] / "docs" / "build.md"


def docs_block(after: str, holding: str) -> str:
    """The first ```toml block of docs/build.md after the line ``after`` that holds
    ``holding``."""
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text[text.index(after) :], re.S)
    return next(block for block in blocks if holding in block)


def docs_board(tmp_path, wiring):
    """The board as docs/build.md sets it up for `reedboard setup`: its config (with
    /etc/reedboard/ in ``tmp_path``) and the simulated board's wiring it shows for trying."""
    etc = tmp_path / "etc" / "reedboard"
    etc.mkdir(parents=True)
    config = docs_block("## 5. `reedboard setup`", "layout =").replace("/etc/reedboard/", f"{etc}/")
    sim = docs_block("To try it without a board", 'backend = "sim"')
    sim = sim[sim.index("\n[") + 1 :]  # its tables: the game is the config's own
    wired = re.search(r'wiring = "([^"]+)"', sim).group(1)
    (etc / wired).write_text(layout_toml(as_layout(wiring), "antipode", None, None))
    quick = f"[web]\nport = {free_port()}\n[timing]\nscan_hz = 200\n"  # a free port, quicker taps
    (etc / "config.toml").write_text(config + sim + quick)
    return etc / "config.toml", etc / "layout.toml"


def test_setup_writes_the_layout_the_docs_config_names_then_learns_what_it_lacks(tmp_path):
    sites = sites_of("antipode")
    wiring = chain_wiring(sites, random.Random(5), h_first=False)
    config, layout = docs_board(tmp_path, wiring)
    written = config.read_text()
    assert 'layout = "' in written and not layout.exists()
    first = Session(config, wiring)
    assert first.run() == 0, first.stderr()
    assert first.events[-1] == {"event": "setup", "done": str(layout), "sites": 61}
    assert read_layout(str(layout)) == as_layout(wiring)
    assert config.read_text() == written and "layout =" not in first.stderr()
    assert load_config(str(config)).layout == str(layout)  # as `reedboard run` reads it
    # A layout that lacks two of the game's sites: the set-up learns those two.
    lacking = as_layout({s: w for s, w in wiring.items() if s not in ("a1", "e5")})
    layout.write_text(layout_toml(lacking, "antipode", None, None))
    second = Session(config, wiring)
    assert second.run() == 0, second.stderr()
    assert sorted(e["site"] for e in second.events if e.get("step") == "sensor") == ["a1", "e5"]
    assert read_layout(str(layout)) == as_layout(wiring)


def progress_of(tmp_path, change):
    """A set-up interrupted after its first two sites, its progress file then changed by
    ``change(data)``: what `reedboard setup` says of it (ConfigError's words)."""
    sites = sites_of("antipode")
    wiring = {s.label: (i, i) for i, s in enumerate(sites)}
    config, layout = docs_board(tmp_path, wiring)
    game = Game.of("antipode", None, None)
    plan = prepare(load_config(str(config), learning=True), game, str(layout), False, 61, 64)
    plan.wizard.progress.phase = "sensor"
    plan.wizard.progress.sensor.update({"a1": 0, "a2": 1})
    save_progress(plan, game)
    path = Path(plan.progress_file)
    data = json.loads(path.read_text())
    text = change(data) if callable(change) else change
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(ConfigError) as caught:
        prepare(load_config(str(config), learning=True), game, str(layout), False, 61, 64)
    return str(path), str(caught.value)


def changed(**progress):
    return lambda data: json.dumps({**data, "progress": {**data["progress"], **progress}})


@pytest.mark.parametrize(
    "change, why",
    [
        ("{not json", "not JSON"),
        ("[" * 100_000, "nested too deeply"),
        ("[]", "not a set-up's progress"),
        (b"\xff\xfe", "not UTF-8 text"),
        (changed(phase="sewing"), "not a set-up's progress"),
        (changed(sensor={"a1": 0, "zz9": 7}), 'sensor: "zz9" is not a site this set-up learns'),
        (changed(sensor={"a1": 0, "a2": 0}), 'sensor channel 0 of "a2" is also used by "a1"'),
        (changed(led={"a3": 3}), '"a3" has an LED channel but no sensor channel'),
        (changed(dead=["a1"]), '"a1" is both learned and dead'),
        (changed(phase="led"), 'phase led, but "a3" has no sensor channel'),
    ],
)
def test_a_damaged_or_impossible_progress_file_is_said_in_one_line(tmp_path, change, why):
    path, said = progress_of(tmp_path, change)
    assert said.startswith(f"{path}: ") and why in said and "\n" not in said
    assert said.endswith("(remove it to begin again)")


def test_a_damaged_progress_file_stops_the_process_with_one_line(tmp_path):
    sites = sites_of("antipode")
    config, layout = docs_board(tmp_path, {s.label: (i, i) for i, s in enumerate(sites)})
    Path(f"{layout}.setup.json").write_text("[" * 100_000)
    done = subprocess.run(
        [str(REEDBOARD), "setup", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"reedboard setup: {layout}.setup.json: nested too deeply")


def test_a_finished_set_up_with_dead_switches_asks_them_again():
    """The last run ended with a dead switch (MENU): run again, only that site is asked."""
    sites = sites_of("antipalos", 4)
    wiring = {s.label: (i, i) for i, s in enumerate(sites)}
    first = Wizard(sites, led_channels=len(sites), scans=3)
    Builder(first, SimBoard(64, leds=len(sites)), {s: w for s, w in wiring.items() if s != "B2*"}).run()
    assert first.phase == "done" and first.missing()["sensor"] == ["B2*"]
    again = Wizard(
        sites,
        led_channels=len(sites),
        scans=3,
        progress=Progress.from_json(first.progress.to_json()).resumed(),
    )
    events = Builder(again, SimBoard(64, leds=len(sites)), wiring).run()
    assert [e["site"] for e in events if e.get("step") == "sensor"] == ["B2*"]
    assert again.phase == "done" and again.layout() == as_layout(wiring)


def test_a_layout_it_cannot_read_or_write_is_said_before_anything_is_asked(tmp_path):
    sites = sites_of("antipode")
    config, layout = docs_board(tmp_path, {s.label: (i, i) for i, s in enumerate(sites)})
    layout.write_text('[sites]\n"a1" = { sensor = 0 }\n')
    with pytest.raises(ConfigError, match=f'^{layout}: \\[sites\\] "a1" has no led channel$'):
        load_config(str(config), learning=True)
    layout.unlink()
    config.write_text(config.read_text().replace(str(layout), f"{tmp_path}/nowhere/layout.toml"))
    with pytest.raises(ConfigError, match="cannot write the layout here \\(there is no folder"):
        prepare(
            load_config(str(config), learning=True),
            Game.of("antipode", None, None),
            f"{tmp_path}/nowhere/layout.toml",
            False,
            61,
            64,
        )
