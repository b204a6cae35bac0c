"""The docs' examples that need no broker: every config a doc shows loads through the product's
own config check, every usage line names options the command has, every JSON example has the
fields the product prints, the Python example runs. A doc that drifts from the product fails
here, naming the doc and the line."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import tomllib

import pytest

from engines import GAME_NAMES
from firmware_host.cli.main import build_parser
from firmware_host.store.config import load_config
from firmware_host.store.layout import default_layout_toml, read_layout
from testbed.docs import ROOT, Block, all_blocks, commands, docs, inline, words
from testbed.docs_run import CAFE, Sandbox, not_run

BLOCKS = all_blocks()
#: What the suite does with each kind of block (``text``: drawings, trees, outputs: nothing).
TESTED_BY = {
    "toml": "test_config_example, test_output_example",
    "json": "test_json_example_* (the board's state: tests/docs/test_cafe.py)",
    "synopsis": "test_usage",
    "shell": "tests/docs/test_commands.py, tests/docs/test_cafe.py",
    "mosquitto": "tests/docs/test_cafe.py",
    "acl": "tests/docs/test_cafe.py",
    "python": "test_python_example",
    "ini": "tests/system/test_pi_docs.py (the unit's drop-in, through systemd-analyze)",
    "text": "",
}
#: The most blocks the docs may mark as not runnable.
SKIPS = 2


def of(kind: str) -> list[Block]:
    return [b for b in BLOCKS if b.kind == kind and not b.skip]


def columns(text: str) -> list[str]:
    """A block showing two files side by side (headed by a comment naming each; the second
    commented out, after two spaces or more on every line; a comment beside a comment stays
    one) as the two files; any other block as itself.

    >>> columns('# a         # b\\nx = 1       # x = 2\\n')
    ['# a\\nx = 1\\n', '# b\\nx = 2\\n']
    """
    lines = [line for line in text.splitlines() if line.strip()]
    split = [re.fullmatch(r"(.+?)\s{2,}(#.*)", line) for line in lines]
    if not lines or not all(split) or not lines[0].startswith("#"):
        return [text]
    left = "".join(m[1].rstrip() + "\n" for m in split)
    right = "".join(
        (m[2] if m[1].startswith("#") else re.sub(r"^#\s?", "", m[2])).rstrip() + "\n" for m in split
    )
    return [left, right]


CONFIGS = [(b, part) for b in of("toml") if not b.text.startswith("# reedboard ") for part in columns(b.text)]
EXAMPLE = (ROOT / "docs" / "config.example.toml").read_text(encoding="utf-8")


def test_every_example_is_tested_or_says_why_not():
    skipped = [b for b in BLOCKS if b.skip]
    elsewhere = [b for b in skipped if b.skip.startswith("run by tests/")]  # by the test named
    for b in elsewhere:
        assert (ROOT / b.skip.split()[2].rstrip(",")).is_file(), b.where
    assert len(skipped) - len(elsewhere) <= SKIPS, [b.where for b in skipped if b not in elsewhere]
    assert {b.kind for b in BLOCKS} <= set(TESTED_BY)
    assert len(of("toml")) >= 15 and of("shell") and of("json") and of("mosquitto") and of("acl")
    assert any(len(columns(b.text)) == 2 for b in of("toml"))  # the paired boards' configs


@pytest.mark.parametrize("block, text", CONFIGS, ids=[f"{b.where}#{i}" for i, (b, _) in enumerate(CONFIGS)])
def test_config_example(block, text, sandbox):
    """Loads as the product loads a config; one named ``/etc/reedboard/config.toml`` is a
    change to the one the installer puts there (docs/config.example.toml)."""
    installed = tomllib.loads(EXAMPLE) if block.file == "/etc/reedboard/config.toml" else None
    name = f"/etc/reedboard/examples/{block.doc.replace('/', '-')}-{block.line}-{len(text)}.toml"
    config = load_config(str(sandbox.config(text, name, installed)))
    shown = tomllib.loads(text)
    assert config.game == shown.get("game", "antipalos")
    for table in ("sensors", "leds", "display", "buttons"):
        if table in shown:
            assert getattr(config, table)["backend"] == shown[table]["backend"]


@pytest.mark.parametrize(
    "block", [b for b in of("toml") if b.text.startswith("# reedboard ")], ids=lambda b: b.where
)
def test_output_example(block, sandbox):
    """A block headed ``# reedboard layout for GAME ...`` (the header the command writes)
    shows a part of what that command prints: its lines are the command's, in order, and it
    reads as such a file."""
    printed = subprocess.run(
        words(block.text.split("\n", 1)[0].lstrip("# ").replace(" for ", " ")),
        capture_output=True,
        text=True,
        cwd=sandbox.work,
        env=sandbox.env(),
        check=True,
    ).stdout.splitlines()
    lines = [line for line in block.text.splitlines() if line.strip()]
    assert lines[0] == printed[0]
    at = [printed.index(line) for line in lines]
    assert at == sorted(at), "the lines come in another order"
    part = sandbox.work / f"part-{block.line}.toml"
    part.write_text(block.text)
    assert set(read_layout(str(part)).sensor) == set(re.findall(r'^"(.+?)" =', block.text, re.M))


def usages() -> list[tuple[str, str]]:
    """Every ``reedboard`` usage and command the docs write (blocks and inline), by where."""
    found = [
        (b.where, c)
        for b in BLOCKS
        if b.kind in ("synopsis", "shell")
        for c in commands(b.text)
        if c.startswith("reedboard ")
    ]
    for path in docs():
        where = path.relative_to(ROOT).as_posix()
        found += [(where, c) for c in inline(path.read_text(encoding="utf-8"))]
    return [(w, c) for w, c in found if re.fullmatch(r"reedboard [a-z]+( .*)?", c)]


def _subcommand(words: list[str]) -> argparse.ArgumentParser:
    """The parser of the command ``words`` name (``firmware flash``: its action's own)."""
    parser, name = build_parser(), words[0]
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert name in sub.choices, f"there is no command reedboard {name}"
    parser = sub.choices[name]
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if actions and len(words) > 1 and words[1] in actions[0].choices:
        parser = actions[0].choices[words[1]]
    return parser


@pytest.mark.parametrize("where, usage", usages(), ids=[f"{w}:{c[:40]}" for w, c in usages()])
def test_usage(where, usage):
    """Each command exists and has each option the docs give it, and takes the words the docs
    give a choice (``--format svg|pdf``)."""
    said = usage.replace("\\|", "|").split()
    parser = _subcommand(said[1:])
    options = {o: a for a in parser._actions for o in a.option_strings}
    for i, word in enumerate(said):
        option = word.strip("[]")
        if not option.startswith("--"):
            continue
        assert option in options, f"reedboard {said[1]} has no {option}"
        choices = options[option].choices
        value = said[i + 1].strip("[]") if i + 1 < len(said) else ""
        if choices and not re.fullmatch(r"[A-Z]+|", value):
            span = re.fullmatch(r"(\d+)\.\.(\d+)", value)
            given = range(int(span[1]), int(span[2]) + 1) if span else value.split("|")
            assert {str(v) for v in given} <= {str(c) for c in choices}, (
                f"{option} takes {choices}, not {value}"
            )


def json_examples() -> list[tuple[Block, dict]]:
    """Each JSON block's object, or each line's of a block of JSON lines."""
    found = []
    for block in of("json"):
        try:
            found.append((block, json.loads(block.text)))
        except ValueError:
            found += [(block, json.loads(line)) for line in block.text.splitlines() if line.strip()]
    return found


def same_shape(shown: object, real: object, where: str = "") -> None:
    """The doc's ``shown`` JSON has the product's fields, each of the same type (null and
    empty containers match any value; numbers match numbers; a list's first items alike)."""
    if shown is None or real is None:
        return
    if isinstance(shown, (int, float)) and not isinstance(shown, bool):
        assert isinstance(real, (int, float)) and not isinstance(real, bool), f"{where}: {real!r}"
        return
    assert type(shown) is type(real), f"{where}: the docs show {shown!r}, the product {real!r}"
    if isinstance(shown, dict) and shown and real:
        assert set(shown) == set(real), (
            f"{where}: fields only in the docs {sorted(set(shown) - set(real))}, "
            f"only in the product {sorted(set(real) - set(shown))}"
        )
        for key in shown:
            same_shape(shown[key], real[key], f"{where}.{key}")
    if isinstance(shown, list) and shown and real:
        same_shape(shown[0], real[0], f"{where}[0]")


def test_json_example_the_referee_prints(sandbox):
    """``reedboard play --json`` prints what the README shows."""
    ((block, shown),) = [(b, j) for b, j in json_examples() if "legal_moves" in j]
    run = sandbox.run(f"reedboard play {shown['game']} --json")
    assert run.returncode == 0, run.stderr
    same_shape(shown, json.loads(run.stdout), block.where)


def test_json_example_the_wizard_prints(sandbox):
    """``reedboard setup`` begins with the docs' first line (the lines after it come as the
    wizard's steps are answered: tests/net/web/test_web_setup.py and tests/cli/test_setup.py follow them)."""
    lines = [j for _, j in json_examples() if j.get("event") == "setup"]
    config = sandbox.config('[sensors]\nbackend = "sim"\n', "wizard.toml")
    proc = sandbox.start(f"reedboard setup --config {config}", stdin=subprocess.PIPE)
    try:
        first = json.loads(proc.stdout.readline())
    finally:
        proc.kill()
        proc.communicate()
    assert first == lines[0]


def test_json_examples_are_known():
    """Every JSON block is one the tests check (the referee's, the wizard's, the state, the
    games a board plays)."""
    for block, shown in json_examples():
        assert (
            "legal_moves" in shown or shown.get("event") == "setup" or "sync" in shown or "playable" in shown
        ), block.where


@pytest.mark.parametrize("block", of("python"), ids=lambda b: b.where)
def test_python_example(block):
    """Each line runs, or raises HardwareUnavailable as the docs say it does without the
    hardware."""
    from hardware import backends

    names = {n: getattr(backends, n) for n in dir(backends) if n.startswith("make_")}
    for line in block.text.splitlines():
        try:
            exec(line, names)
        except backends.HardwareUnavailable:
            pass


def test_commands_the_suite_does_not_run_say_why():
    """Every shell command is run (tests/docs/test_commands.py or test_cafe.py) or listed in
    NOT_RUN with the reason."""
    for block in of("shell"):
        for command in commands(block.text):
            for part in command.split(" && "):
                assert not_run(part) or re.match(CAFE, part) or _runnable(part), (block.where, part)


def _runnable(command: str) -> bool:
    said = words(command)
    return bool(said) and said[0] in ("reedboard", ".venv/bin/reedboard")


def inline_json(doc_text: str) -> list[dict]:
    """The JSON objects a doc writes inline (in backticks)."""
    found = []
    for code in re.findall(r"`(\{[^`]*\})`", doc_text):
        try:
            found.append(json.loads(code))
        except ValueError:
            pass
    return found


INLINE = [(p.relative_to(ROOT).as_posix(), inline_json(p.read_text(encoding="utf-8"))) for p in docs()]


def test_the_computer_prints_what_the_docs_show(sandbox):
    """``reedboard ai --json``'s line has the fields the docs show (``nodes`` instead of
    ``playouts`` for the games the docs name)."""
    shown = [o for _, found in INLINE for o in found if {"move", "level"} <= set(o)]
    assert shown
    printed = []
    for game in GAME_NAMES:
        run = sandbox.run(f"reedboard ai {game} --json --level 1")
        assert run.returncode == 0, run.stderr
        printed.append(json.loads(run.stdout))
    for line in shown:
        other = {k.replace("playouts", "nodes") for k in line}
        assert all(set(p) in (set(line), other) for p in printed), printed
        same_shape(line, next(p for p in printed if set(p) == set(line)), "reedboard ai --json")


@pytest.mark.parametrize(
    "doc, found",
    [(d, f) for d, f in INLINE if any("t" in o for o in f)],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_the_replay_lines_the_docs_show_replay(doc, found, sandbox):
    """The replay input lines a doc shows replay: its timed lines as one stream, each set-up
    line it shows as a stream's first line; each ends with the ``end`` event."""
    timed = [o for o in found if "t" in o]
    wait = min((o for o in timed if len(o) == 1), key=lambda o: o["t"])  # {"t": 5000}
    streams = [timed] + [[o, wait] for o in found if "setup" in o]
    for n, stream in enumerate(streams):
        path = sandbox.work / f"{doc.replace('/', '-')}-{n}.jsonl"
        path.write_text("".join(json.dumps(o) + "\n" for o in stream))
        run = sandbox.run(f"reedboard replay {path}")
        assert run.returncode == 0, (stream, run.stderr)
        events = [json.loads(line) for line in run.stdout.splitlines()]
        assert events[-1]["event"] == "end", stream
        if any("site" in o for o in stream):
            assert any(e["event"] == "move" for e in events), stream


def _layout_without(site: str) -> str:
    """Antipalos 12's layout (the docs' game) lacking ``site``."""
    printed = default_layout_toml("antipalos", 12, None)
    return "".join(line + "\n" for line in printed.splitlines() if not line.startswith(f'"{site}"'))


#: How to make each config error the docs show: its pattern -> the files that make it.
ERRORS = {
    r"config\.toml: \[(\w+)\] (\w+) must be an integer \(got '(.+)'\)": lambda m: {
        "config.toml": f'[{m[1]}]\n{m[2]} = "{m[3]}"\n'
    },
    r"config\.toml: \[(\w+)\] (\w+): GPIO pin (\d+) is also used by \[(\w+)\] (\w+)$": lambda m: {
        "config.toml": f'[{m[4]}]\nbackend = "gpio-matrix"\n{m[5]} = [{m[3]}]\n'
        f'columns = [5]\n[{m[1]}]\nbackend = "gpio"\n{m[2]} = {m[3]}\n'
    },
    r'layout\.toml: \[sites\] "(.+)" is missing$': lambda m: {
        "config.toml": 'game = "antipalos"\nsize = 12\nlayout = "layout.toml"\n',
        "layout.toml": _layout_without(m[1]),
    },
}
SAID = [
    (b.where, line)
    for b in BLOCKS
    if b.kind == "text"
    for line in b.text.splitlines()
    if re.match(r"reedboard: /etc/reedboard/", line)
]


@pytest.mark.parametrize("where, said", SAID, ids=[w for w, _ in SAID])
def test_config_errors_are_the_product_s(where, said, tmp_path):
    """Each config error the docs show is what ``reedboard`` says, word for word, for a
    config with that mistake."""
    made = [make(m) for pattern, make in ERRORS.items() if (m := re.search(pattern, said))]
    assert made, f"no test makes the error {where} shows"
    sandbox = Sandbox(tmp_path)
    for name, text in made[0].items():
        sandbox.mapped(f"/etc/reedboard/{name}").write_text(text)
    run = sandbox.run(sandbox.text("reedboard doctor --config /etc/reedboard/config.toml"))
    assert (run.returncode, run.stderr) == (2, sandbox.text(said) + "\n")


def test_the_installed_example_lets_the_voice_follow_the_language(sandbox):
    """A café that sets ``language = "de"`` and ``speech = true`` in the config the installer
    put in place hears German words in eSpeak NG's German voice: the example names no voice
    (docs/config.md: left out, the language's)."""
    text = EXAMPLE.replace("takebacks = true", 'language = "de"\ntakebacks = true').replace(
        "speech = false", "speech = true"
    )
    config = load_config(str(sandbox.config(text, "/etc/reedboard/examples/speaking-de.toml")))
    assert config.language == "de" and config.sound.speech
    assert config.sound.voice in ("", "de"), "the installed example pins a voice of its own"
