"""Bad input: hypothesis fuzzes the config loader, layout files, replay files, game records, the
lines every reader takes from outside, the set-up's progress file and the records the café's
archive keeps.

Every input must end in a result or a clear one-line rejection: ConfigError for config and
layout files and the set-up's progress file (naming the file), exit status 0 or 2 (one
``reedboard replay: line N: ...`` message) for replay files, exit status 0, 1 or 2 (one
``reedboard play: ...`` message) for game records, one line (``Unreadable``) for a line read from
stdin, a page or the broker, and one line (``Bad``) for an archive record. Figures: inputs tried
per target, tracebacks (must be 0) and the first few of them.

    .venv/bin/python -m bench.robust.bad_input [--quick] [--examples N] [--seed S]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tempfile
import time
import traceback
from contextlib import redirect_stderr
from dataclasses import dataclass, field
from typing import Any, Callable

import tomli_w
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from bench.robust.common import report
from engines import GAME_NAMES, new_game
from firmware_host.actions import inbound
from firmware_host.board.game import Game
from firmware_host.board.wizard import PHASES
from firmware_host.cli import play as referee
from firmware_host.cli.setup import game_key, read_progress
from firmware_host.net.cafe.archive import read_record
from firmware_host.net.mqtt.untrusted import Bad
from firmware_host.runtime.replay import replay
from firmware_host.store.config import Config, ConfigError, load_config
from firmware_host.store.layout import Layout, default_layout_toml, load_layout

SMALL = {"antipalos": 3, "antipod": 4, "anti-grid": 6}  # small boards keep replays quick

# -- values and text mutations ----------------------------------------------------------------
SCALARS = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.integers(-5, 2000),
    st.booleans(),
    st.text(max_size=12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["sim", "serial", "gpio-matrix", "ws2812", "ssd1306", "/dev/null", "", "~"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)
CONFIG_KEYS = {
    None: ["game", "size", "variant", "takebacks", "layout", "storage", "bogus"],
    "timing": ["scan_hz", "debounce_scans", "settle_ms", "tap_ms", "bogus"],
    "sensors": ["backend", "rows", "columns", "port", "channels", "diodes", "bogus"],
    "leds": ["backend", "brightness", "count", "pin", "bogus"],
    "display": ["backend", "port", "address", "rotate", "bogus"],
    "buttons": ["backend", "ok", "back", "menu", "bogus"],
    "kiosk": ["enabled", "idle_minutes", "bogus"],
    "web": ["host", "port", "bogus"],
}


@st.composite
def config_text(draw) -> str:
    data: dict[str, Any] = {}
    for section, keys in CONFIG_KEYS.items():
        chosen = draw(st.lists(st.sampled_from(keys), max_size=3, unique=True))
        table = data.setdefault(section, {}) if section else data
        for key in chosen:
            table[key] = draw(VALUES | st.sampled_from(list(GAME_NAMES)) | st.sampled_from([3, 12, 100, 300]))
    return mutate(draw, tomli_w.dumps(data))


def mutate(draw, text: str) -> str:
    """``text`` with a few random edits (or none)."""
    for _ in range(draw(st.integers(0, 3))):
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        edit = draw(st.sampled_from(["drop", "insert", "dup", "cut"]))
        if edit == "drop":
            text = text[:i] + text[i + 1 :]
        elif edit == "insert":
            text = text[:i] + draw(st.text(max_size=3)) + text[i:]
        elif edit == "dup":
            text = text[:i] + text[i:] + text[i:]
        else:
            text = text[:i]
    return text


# -- the targets ----------------------------------------------------------------------------
@dataclass
class Target:
    name: str
    tried: int = 0
    rejected: int = 0
    tracebacks: list[str] = field(default_factory=list)

    def attempt(self, fn: Callable[[], bool]) -> None:
        """Run one input; ``fn`` returns True when it was (cleanly) rejected."""
        self.tried += 1
        try:
            self.rejected += bool(fn())
        except Exception:  # the figure: nothing may escape as a traceback
            self.tracebacks.append(traceback.format_exc(limit=-3))

    def refuses(self, fn: Callable[[], Any], errors: type[Exception], naming: str = "") -> None:
        """Run one input through ``fn``: a result, or one of ``errors`` said in one line that
        names ``naming`` (the file)."""

        def body() -> bool:
            try:
                fn()
            except errors as exc:
                assert one_line(str(exc)) and naming in str(exc), str(exc)
                return True
            return False

        self.attempt(body)


def one_line(message: str) -> bool:
    text = message.strip()
    return bool(text) and "\n" not in text and "Traceback (most recent call last)" not in text


class Fuzz:
    def __init__(self, directory: str, examples: int, seed_value: int) -> None:
        self.dir = directory
        self.examples = examples
        self.seed = seed_value
        self.targets = {
            n: Target(n) for n in ("config", "layout", "replay", "record", "line", "progress", "archive")
        }

    def write(self, name: str, text: str | bytes) -> str:
        path = os.path.join(self.dir, name)
        with open(path, "wb") as fp:
            fp.write(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
        return path

    def run(self, test: Callable) -> None:
        test = settings(
            max_examples=self.examples, database=None, deadline=None, suppress_health_check=list(HealthCheck)
        )(test)
        seed(self.seed)(test)()

    # -- config ---------------------------------------------------------------------------
    def config(self) -> None:
        target = self.targets["config"]

        @given(config_text() | st.binary(max_size=200))
        def test(text):
            path = self.write("config.toml", text)
            # names the config or a file it points to
            target.refuses(lambda: load_config(path), ConfigError, self.dir)

        self.run(test)

    # -- layout ---------------------------------------------------------------------------
    def layout(self) -> None:
        target = self.targets["layout"]
        texts = {g: default_layout_toml(g, SMALL.get(g), None) for g in GAME_NAMES}

        @given(st.sampled_from(sorted(GAME_NAMES)), st.data())
        def test(game, data):
            text = mutate(data.draw, texts[game])
            if data.draw(st.booleans()):  # a channel used twice, a bad value, a stray key
                text += data.draw(
                    st.sampled_from(
                        [
                            '"A1*" = { sensor = 1, led = 0 }\n',
                            "x = 1\n",
                            '"zz" = 3\n',
                            '"a1" = { sensor = -1, led = 2 }\n',
                            "[sites]\n",
                            '"c3" = { sensor = true, led = 1 }\n',
                        ]
                    )
                )
            path = self.write("layout.toml", text)
            sites = new_game(game, SMALL.get(game), None).sites()
            target.refuses(lambda: load_layout(path, sites), ConfigError, path)

        self.run(test)

    # -- replay files ---------------------------------------------------------------------
    def replay(self) -> None:
        target = self.targets["replay"]
        games = {g: Game.of(g, SMALL.get(g)) for g in GAME_NAMES}
        labels = {g: [s.label for s in games[g].new().sites()] for g in GAME_NAMES}

        @st.composite
        def stream(draw, game):
            lines, t = [], 0
            if draw(st.booleans()):
                lines.append(json.dumps({"setup": draw(st.sampled_from(["start", "empty"]))}))
            for _ in range(draw(st.integers(0, 25))):
                t += draw(st.integers(0, 700))
                kind = draw(st.sampled_from(["site", "site", "site", "button", "time"]))
                if kind == "site":
                    obj = {"t": t, "site": draw(st.sampled_from(labels[game])), "on": draw(st.booleans())}
                elif kind == "button":
                    obj = {"t": t, "button": draw(st.sampled_from(["ok", "back", "menu"]))}
                else:
                    obj = {"t": t}
                lines.append(json.dumps(obj))
            if draw(st.booleans()):  # spoil one line
                bad = draw(
                    st.one_of(
                        st.text(max_size=20),
                        VALUES.map(json.dumps),
                        st.fixed_dictionaries({"t": SCALARS}).map(json.dumps),
                        st.fixed_dictionaries(
                            {"t": st.integers(0, 10**6), "site": SCALARS, "on": SCALARS}
                        ).map(json.dumps),
                        st.fixed_dictionaries({"t": st.integers(0, 10**6), "button": SCALARS}).map(
                            json.dumps
                        ),
                        st.just('{"setup": "start"}'),
                        st.just('{"t": -1}'),
                        st.just('{"t": 1e400}'),
                    )
                )
                lines.insert(draw(st.integers(0, len(lines))), bad)
            return lines

        @given(st.sampled_from(sorted(GAME_NAMES)), st.data())
        def test(game, data):
            lines = data.draw(stream(game))

            def body() -> bool:
                out, err = io.StringIO(), io.StringIO()
                with redirect_stderr(err):
                    status = replay(lines, Config(), games[game], out)
                if status == 2:
                    assert out.getvalue() == "" and one_line(err.getvalue()), err.getvalue()
                    assert err.getvalue().startswith("reedboard replay: line "), err.getvalue()
                    return True
                assert status == 0, status
                assert json.loads(out.getvalue().splitlines()[-1])["event"] == "end"
                return False

            target.attempt(body)

        self.run(test)

    # -- game records ---------------------------------------------------------------------
    def record(self) -> None:
        target = self.targets["record"]

        @given(st.sampled_from(sorted(GAME_NAMES)), st.data())
        def test(game, data):
            state = new_game(game, SMALL.get(game), None)
            texts = []
            for _ in range(data.draw(st.integers(0, 12))):
                if state.outcome() is not None:
                    break
                move = data.draw(st.sampled_from(state.legal_moves()))
                texts.append(state.notation(move))
                state = state.apply(move)
            texts = [mutate(data.draw, t) if data.draw(st.integers(0, 3)) == 0 else t for t in texts]
            if data.draw(st.booleans()):
                texts.insert(data.draw(st.integers(0, len(texts))), data.draw(st.text(max_size=15)))
            sep = data.draw(st.sampled_from([";", "\n", " ; ", ";;"]))
            size = data.draw(st.sampled_from([SMALL.get(game), None, 0, 2, 99]))
            variant = data.draw(st.sampled_from([None, None, "bogus", "two", "chain", "rulebook"]))
            flags = data.draw(st.sampled_from([{}, {"as_json": True}, {"trace": True}, {"legal": True}]))

            def body() -> bool:
                out, err = io.StringIO(), io.StringIO()
                status = referee.play(game, size, variant, moves=sep.join(texts), out=out, err=err, **flags)
                if status:
                    assert status in (1, 2), status
                    assert one_line(err.getvalue()), err.getvalue()
                    assert err.getvalue().startswith("reedboard play: "), err.getvalue()
                    return True
                return False

            target.attempt(body)

        self.run(test)

    # -- a line from outside (stdin, a page, the broker) ----------------------------------
    def line(self) -> None:
        target = self.targets["line"]
        deep = st.integers(1, 3 * inbound.MAX_DEPTH).map(lambda n: "[" * n + "]" * n)

        @given(st.one_of(VALUES.map(json.dumps), deep, st.text(max_size=40)), st.booleans(), st.data())
        def test(text, as_bytes, data):
            text = mutate(data.draw, text)
            if as_bytes:  # as the broker and a page's socket hand it over
                text = text.encode("utf-8", "surrogatepass")
            target.refuses(lambda: inbound.loads(text), inbound.Unreadable)

        self.run(test)

    # -- the set-up's progress file --------------------------------------------------------
    def progress(self) -> None:
        target = self.targets["progress"]
        game = Game.of("antipode", None)
        labels = [s.label for s in game.new().sites()]

        @given(st.data())
        def test(data):
            learned = data.draw(st.lists(st.sampled_from(labels), max_size=6, unique=True))
            progress = {
                "phase": data.draw(st.sampled_from([*PHASES, "bogus"])),
                "sensor": {s: data.draw(st.integers(-1, 70)) for s in learned},
                "led": {},
                "dead": data.draw(st.lists(st.sampled_from(labels), max_size=2)),
                "dark": [],
            }
            saved = {"game": game_key(game), "sites": labels, "progress": progress}
            path = self.write("layout.toml.setup.json", mutate(data.draw, json.dumps(saved)))

            def read() -> None:
                with redirect_stderr(io.StringIO()):  # "another set-up's progress": said
                    read_progress(path, game, labels, Layout({}, {}))

            target.refuses(read, ConfigError, path)

        self.run(test)

    # -- a finished game as the café's archive takes it --------------------------------------
    def archive(self) -> None:
        target = self.targets["archive"]
        game = {
            "id": 4,
            "game": "antipalos",
            "size": 3,
            "variant": "two",
            "started": "2026-11-23T20:01:00Z",
            "finished": "2026-11-23T20:09:00Z",
            "result": "white wins by connection",
            "winner": "white",
            "moves": ["A1*", "A3*", "B2*", "C1*", "C3*"],
        }

        @given(st.data())
        def test(data):
            changed = dict(game)
            for key in data.draw(
                st.lists(st.sampled_from([*game, "first", "opponent", "options"]), max_size=3, unique=True)
            ):
                changed[key] = data.draw(
                    VALUES
                    | st.sampled_from(
                        ["9999-12-31T23:59:59Z", "2026-02-30T10:00:00Z", "purple", "black", None]
                    )
                )
            payload = mutate(data.draw, json.dumps(changed)).encode("utf-8", "surrogatepass")
            target.refuses(lambda: read_record(payload), Bad)

        self.run(test)


def run(examples: int, seed_value: int) -> dict:
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as directory:
        fuzz = Fuzz(directory, examples, seed_value)
        for name in fuzz.targets:
            getattr(fuzz, name)()
    targets = fuzz.targets.values()
    return {
        "bench": "robust_bad_input",
        "inputs_tried": sum(t.tried for t in targets),
        "tracebacks": sum(len(t.tracebacks) for t in targets),
        **{f"{t.name}_tried": t.tried for t in targets},
        **{f"{t.name}_rejected": t.rejected for t in targets},
        **{f"{t.name}_tracebacks": len(t.tracebacks) for t in targets},
        "first_tracebacks": [tb for t in targets for tb in t.tracebacks][:3],
        "seconds": round(time.perf_counter() - began, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 inputs per target")
    parser.add_argument("--examples", type=int, help="inputs per target (default 2500)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    examples = args.examples or (100 if args.quick else 2_500)
    figures = run(examples, args.seed)
    rows = [(k.replace("_", " "), v) for k, v in figures.items() if k not in ("bench", "first_tracebacks")]
    for tb in figures["first_tracebacks"]:
        print(tb)
    report(f"Bad input: up to {examples} inputs per target, seed {args.seed}", rows, figures)
    return 1 if figures["tracebacks"] else 0


if __name__ == "__main__":
    sys.exit(main())
