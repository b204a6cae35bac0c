"""The examples the docs show, read as a user would copy them: every code block of README.md,
docs/*.md and docs/play/*.md, and the ``reedboard ...`` commands written inline, each with
where it stands and what kind of example it is. tests/docs/ runs them against the product.

A block is fenced (```` ```toml ````, ```` ```sh ````, or no language) or indented by four
spaces. Its kind comes from the fence's language, else from what its lines are:

>>> kind('listener 1883\\nallow_anonymous false\\n', "")
'mosquitto'
>>> kind('user cafe\\ntopic readwrite reedboard/#\\n', "")
'acl'
>>> kind('reedboard play GAME [--size N]\\n', "")
'synopsis'
>>> kind('reedboard doctor --config board.toml    # OK  sensors: ...\\n', "")
'shell'
>>> kind('{"event": "setup", "step": "check"}\\n', "")
'json'
>>> kind('engines/        pure rules\\n', "")
'text'

A doc marks a block it cannot run with ``<!-- doc-test: skip (reason) -->`` on the line before
it; :attr:`Block.skip` holds the reason.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The docs whose examples are tested.
DOCS = ("README.md", "docs/*.md", "docs/play/*.md")
#: The words a Mosquitto config's lines begin with (docs/cafe.md's conf and bridge).
MOSQUITTO_WORDS = {
    "listener",
    "allow_anonymous",
    "password_file",
    "acl_file",
    "set_tcp_nodelay",
    "connection",
    "address",
    "bridge_cafile",
    "remote_username",
    "remote_password",
    "remote_clientid",
    "topic",
    "persistence",
    "certfile",
    "keyfile",
    "cafile",
}
#: The words a Mosquitto ACL's lines begin with.
ACL_WORDS = {"user", "topic", "pattern"}
#: The programs a shell line may begin with.
PROGRAMS = {
    "reedboard",
    ".venv/bin/reedboard",
    ".venv/bin/python",
    "python",
    "python3",
    "bash",
    "sudo",
    "echo",
    "cd",
    "git",
    "journalctl",
    "systemctl",
    "mosquitto_pub",
    "mosquitto_sub",
    "mosquitto_passwd",
    "make",
    "pip",
    "bench/run",
}
SKIP = re.compile(r"<!--\s*doc-test:\s*skip\s*\((.+?)\)\s*-->")
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
#: A file a block is, named on its first line (``# board.toml``) or at the end of the
#: paragraph before it (``with `/etc/reedboard/cafe.toml` (...):``).
NAMED = re.compile(r"`([\w./~-]+\.(?:toml|conf|acl))`")


@dataclass(frozen=True)
class Block:
    """One code block of a doc."""

    doc: str  #: the doc's path from the repository's root
    line: int  #: the line its text starts on (1-based)
    lang: str  #: the fence's language ("" for none, or an indented block)
    text: str
    skip: str | None = None  #: why the doc says it cannot run
    file: str | None = None  #: the file the doc says this is (``/etc/reedboard/cafe.toml``)

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"

    @property
    def kind(self) -> str:
        return kind(self.text, self.lang)


def kind(text: str, lang: str) -> str:
    """What a block is: ``toml``, ``json``, ``shell``, ``synopsis`` (a command's usage),
    ``mosquitto``, ``acl``, ``python``, ``ini`` or ``text`` (a drawing, a tree, output)."""
    if lang in ("toml", "json", "python", "ini"):
        return lang
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    words = [line.split()[0] for line in lines if not line.startswith("#")]
    if lang in ("sh", "shell", "bash") or (lines and all(map(_is_command, commands(text)))):
        return "synopsis" if lang == "" and all(map(is_synopsis, commands(text))) else "shell"
    if words and all(w in ACL_WORDS for w in words) and any(w != "topic" for w in words):
        return "acl"
    if words and all(w in MOSQUITTO_WORDS for w in words):
        return "mosquitto"
    if lines and all(_is_json(line) for line in lines):
        return "json"
    return "text"


def _is_command(line: str) -> bool:
    """Whether a line runs one of :data:`PROGRAMS` (after ``NAME=value`` settings)."""
    words = [w for w in line.split() if not re.fullmatch(r"[A-Z_]+=\S*", w)]
    return bool(words) and words[0] in PROGRAMS


def _is_json(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


def is_synopsis(command: str) -> bool:
    """A command's usage rather than a command: it has ``[--options]`` or a METAVAR.

    >>> is_synopsis("reedboard export [--config F] [--game-id N]"), is_synopsis("reedboard games")
    (True, False)
    """
    words = command.split()
    return "[" in command or any(re.fullmatch(r"[A-Z][A-Z0-9_]*", w) for w in words[2:])


def commands(text: str) -> list[str]:
    """A shell block's commands: one a line, comments off, a line ending in ``\\`` and a
    usage's continuation lines (indented, ``[--more]``) joined to the line before.

    >>> commands("reedboard plan x --pitch 32   # x-plan.pdf\\n# a comment\\n")
    ['reedboard plan x --pitch 32']
    >>> commands("reedboard ai GAME [--size N]\\n      [--json]\\n")
    ['reedboard ai GAME [--size N] [--json]']
    """
    found: list[str] = []
    joined = False
    for raw in text.splitlines():
        line = comment_off(raw).strip()
        if not line:
            continue
        if found and (joined or (raw[:1].isspace() and line.startswith("["))):
            found[-1] += " " + line
        else:
            found.append(line)
        joined = found[-1].endswith("\\")
        found[-1] = found[-1].rstrip("\\").rstrip()
    return found


def said(text: str, command: str) -> str:
    """The comment beside ``command`` (one of :func:`commands` of ``text``), on any of its
    lines ("" for none).

    >>> said("reedboard a  # b\\nreedboard d  # e\\n", "reedboard d")
    '# e'
    """
    lines = text.splitlines()
    for i, line in enumerate(lines):
        head = comment_off(line).strip().rstrip("\\").rstrip()
        if head and command.startswith(head):
            end = i
            while comment_off(lines[end]).rstrip().endswith("\\") and end + 1 < len(lines):
                end += 1
            return next((comment(r) for r in lines[i : end + 1] if comment(r)), "")
    return ""


def comment_off(line: str) -> str:
    """A shell line without its comment (a ``#`` after a space, outside quotes).

    >>> comment_off("mosquitto_sub -t 'a/#' -v  # replies")
    "mosquitto_sub -t 'a/#' -v"
    """
    return line[: len(line) - len(comment(line))].rstrip() if comment(line) else line


def comment(line: str) -> str:
    """A shell line's comment, with its ``#`` ("" for none).

    >>> comment("reedboard plan antipode --format pdf   # antipode-plan.pdf")
    '# antipode-plan.pdf'
    """
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[i:]
    return ""


def blocks(text: str, doc: str) -> list[Block]:
    """Every code block of a doc's ``text``."""
    lines = text.splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        indented = (
            lines[i].startswith("    ")
            and lines[i].strip()
            and (i == 0 or not lines[i - 1].strip())
            and not _in_list(lines, i)
        )
        if fence:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
            indent = len(fence.group(1))
            body = "".join(line[indent:] + "\n" for line in lines[i + 1 : end])
            found.append(_block(lines, doc, i, i + 2, fence.group(2), body))
            i = end + 1
        elif indented:
            end = i
            while end < len(lines) and (lines[end].startswith("    ") or not lines[end].strip()):
                end += 1
            body = "".join(line[4:] + "\n" for line in lines[i:end]).rstrip("\n") + "\n"
            found.append(_block(lines, doc, i, i + 1, "", body))
            i = end
        else:
            i += 1
    return found


def _in_list(lines: list[str], i: int) -> bool:
    """Whether line ``i`` continues a list item (indented text there is no code)."""
    for j in range(i - 1, -1, -1):
        line = lines[j]
        if line.strip() and not line[:1].isspace():
            return bool(re.match(r"(\d+\.|[-*]) ", line))
    return False


def _block(lines: list[str], doc: str, start: int, first: int, lang: str, body: str) -> Block:
    """The block whose opening line is ``start`` (0-based); its text's first line ``first``."""
    above = start - 1
    while above >= 0 and not lines[above].strip():
        above -= 1
    mark = SKIP.search(lines[above]) if above >= 0 else None
    return Block(doc, first, lang, body, mark.group(1) if mark else None, _named(body, lines, above))


def _named(body: str, lines: list[str], above: int) -> str | None:
    """The file the block is, as the doc names it (see :data:`NAMED`)."""
    head = body.split("\n", 1)[0]
    if re.fullmatch(r"#\s*[\w./-]+\.(toml|conf|acl)\s*", head):
        return head.lstrip("#").strip()
    if above >= 0 and lines[above].rstrip().endswith(":"):
        names = NAMED.findall(lines[above])
        return names[-1] if names else None
    return None


def inline(text: str) -> list[str]:
    """The ``reedboard ...`` commands a doc writes inline (in backticks), without `` ` ``.

    >>> inline("Run `reedboard doctor [--config F]`, then `reedboard`.")
    ['reedboard doctor [--config F]']
    """
    return [c for c in re.findall(r"`([^`\n]+)`", text) if c.startswith("reedboard ")]


def docs() -> list[Path]:
    """The docs, in a fixed order."""
    return [p for pattern in DOCS for p in sorted(ROOT.glob(pattern))]


def all_blocks() -> list[Block]:
    """Every code block of every doc."""
    return [
        b
        for path in docs()
        for b in blocks(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
    ]


def words(command: str) -> list[str]:
    """A command's words as the shell splits them (``shlex``): its last pipeline stage's, up to
    a redirection, without ``NAME=value`` settings before it.

    >>> words("reedboard layout antipalos --size 12 > layout.toml")
    ['reedboard', 'layout', 'antipalos', '--size', '12']
    >>> words("echo '{}' | TOKEN=x reedboard run --sim")
    ['reedboard', 'run', '--sim']
    """
    split = shlex.split(command.split(" | ")[-1])
    while split and re.fullmatch(r"[A-Z_]+=\S*", split[0]):
        split.pop(0)
    cut = next((i for i, w in enumerate(split) if w in (">", "|", "&&", "<")), len(split))
    return split[:cut]
