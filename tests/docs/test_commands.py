"""Every command the docs show (blocks of shell lines) runs as a real process in the sandbox
(testbed/docs_run.py): a one-shot command exits with status 0 and writes the file its comment
names; one that serves a page (``reedboard run``, ``setup``) answers there (HTTP 200) and stops
on SIGTERM. The café's commands need its broker: tests/docs/test_cafe.py. What is not run, and
why: ``NOT_RUN``."""

from __future__ import annotations

import contextlib
import io
import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from firmware_host.cli.main import build_parser
from testbed.docs import ROOT, all_blocks, commands, docs, inline, is_synopsis, said, words
from testbed.docs_run import CAFE, Sandbox, not_run, serves, stop


def whole(command: str) -> bool:
    """Whether an inline ``reedboard ...`` is a whole command (it parses), not a usage or an
    option named in passing (``reedboard play --json``)."""
    if is_synopsis(command):
        return False
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            build_parser().parse_args(words(command)[1:])
    except SystemExit:
        return False
    return True


def inline_commands() -> list[tuple[str, str, str]]:
    """The whole commands the docs write inline, each where it is first written."""
    found: dict[str, str] = {}
    for path in docs():
        for command in inline(path.read_text(encoding="utf-8")):
            found.setdefault(command, path.relative_to(ROOT).as_posix())
    return [(where, c, "") for c, where in found.items() if whole(c)]


#: The commands to run: (where, the command, its comment), each doc's blocks in its order,
#: then its inline commands.
COMMANDS = [
    (w, c, s)
    for w, c, s in [
        *(
            (b.where, part, said(b.text, command))
            for b in all_blocks()
            if b.kind == "shell" and not b.skip
            for command in commands(b.text)
            for part in command.split(" && ")
        ),
        *inline_commands(),
    ]
    if not not_run(c) and not re.match(CAFE, c)
]
#: A comment that shows a line the command prints (``# OK  sensors: board on ... answered``).
PRINTS = re.compile(r"#\s+((?:OK|FAIL)\s.*)")
#: The status each serving command ends with on SIGTERM: the daemon and the dashboard end
#: cleanly (docs/daemon.md), the wizard says it was interrupted, its progress kept.
STOPPED = {"run": 0, "cafe": 0, "setup": 130}
#: A file a command's comment says it writes (``# antipode-plan.pdf``).
WRITES = re.compile(r"#\s+([\w.-]+\.(?:pdf|svg|txt|toml))\b")


def pattern(shown: str) -> str:
    """A regular expression for a printed line the docs show, ``...`` standing for any text.

    >>> bool(re.search(pattern("OK  a ... b=2"), "OK    a: x, y b=2, c"))
    True
    """
    return ".*".join(r"\s+".join(map(re.escape, part.split())) for part in shown.split("..."))


def installed(sandbox: Sandbox) -> Sandbox:
    """The sandbox as a user has it when a doc's commands run: the installer's config
    (docs/config.example.toml) in /etc/reedboard, the files the docs name written, a token."""
    example = (ROOT / "docs" / "config.example.toml").read_text(encoding="utf-8")
    sandbox.config(example, "/etc/reedboard/config.toml")
    for block in all_blocks():
        if block.kind == "toml" and block.file and not block.file.endswith("/config.toml"):
            sandbox.config(block.text, block.file)
    token = sandbox.home / ".config" / "reedboard" / "token"
    token.parent.mkdir(parents=True, exist_ok=True)
    token.write_text("doc-test-token\n")
    return sandbox


def outcome(sandbox: Sandbox, command: str, comment: str) -> str:
    """ "" when ``command`` did what the docs say; else what went wrong."""
    shell, port = sandbox.command(command)
    if port is None:
        run = sandbox.run(shell)
        if run.returncode:
            return f"exit {run.returncode}: {run.stderr[-2000:]}"
        missing = [n for n in WRITES.findall(comment) if not (sandbox.work / n).is_file()]
        if missing:
            return f"it wrote no {missing[0]}"
        shown = PRINTS.match(comment)
        if shown and not re.search(pattern(shown[1]), run.stdout):
            return f"it did not print {shown[1]!r}: {run.stdout[-2000:]}"
        return ""
    proc = sandbox.start(shell)
    status = serves(proc, port)
    out, err = stop(proc)
    if status != 200:
        return f"its page on {port} answered {status or 'nothing'}: {err[-2000:]}"
    expected = {STOPPED[words(command)[1]]} | ({-15} if " | " in command else set())  # bash's
    return "" if proc.returncode in expected else f"stopped with {proc.returncode}: {err[-2000:]}"


@pytest.fixture(scope="session")
def outcomes(tmp_path_factory):
    """Every command's outcome. Each doc's commands run in its order on a machine of their own
    (as a reader follows one doc), the docs a few at a time. Once a worker (not once a module:
    a worker given this file's tests in several runs would follow every doc again each time)."""

    def follow(doc: str) -> dict[str, str]:
        sandbox = installed(Sandbox(tmp_path_factory.mktemp(doc.replace("/", "-"))))
        try:
            return {c: outcome(sandbox, c, s) for w, c, s in COMMANDS if w.split(":")[0] == doc}
        finally:
            sandbox.close()

    docs = sorted({w.split(":")[0] for w, _, _ in COMMANDS})
    tmp_path_factory.getbasetemp()  # made here: four threads making it at once collide
    with ThreadPoolExecutor(4) as pool:
        return {c: o for found in pool.map(follow, docs) for c, o in found.items()}


def test_the_docs_show_commands():
    assert len(COMMANDS) >= 10


@pytest.mark.parametrize("where, command, said", COMMANDS, ids=[f"{w}:{c[:50]}" for w, c, _ in COMMANDS])
def test_command(where, command, said, outcomes):
    assert outcomes[command] == ""
