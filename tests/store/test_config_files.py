"""Config files that are not files (a FIFO, /dev/zero, a directory) or are too large are refused
in one line, never read; the page's token comes from a file or the environment, not only from
``--token`` (which ``ps`` shows)."""

from __future__ import annotations

import os
import signal
import subprocess

import pytest

from testbed.tools import REEDBOARD, free_port


def reedboard(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*REEDBOARD, *args],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.parametrize(
    "kind, why",
    [
        ("fifo", "not a regular file"),
        ("device", "not a regular file"),
        ("folder", "not a regular file"),
        ("large", "larger than 1024 KB"),
    ],
)
@pytest.mark.parametrize("command", ["run", "export", "doctor"])
def test_config_that_is_no_small_file_is_refused_in_one_line(tmp_path, kind, why, command):
    path = {
        "fifo": tmp_path / "fifo",
        "device": "/dev/zero",
        "folder": tmp_path,
        "large": tmp_path / "large.toml",
    }[kind]
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "large":
        path.write_text("# padding\n" * 110_000)
    done = reedboard(command, "--config", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"reedboard {command}: {path}: cannot read ({why})"
    ] or done.stderr.splitlines() == [f"reedboard: {path}: cannot read ({why})"]


def start_with_token(tmp_path, *args: str, env: dict | None = None) -> tuple[str, list[str]]:
    """The address ``run --sim --host 0.0.0.0`` prints, and its command line as ps sees it."""
    config = tmp_path / "config.toml"
    config.write_text(f'storage = "{tmp_path / "games.db"}"\n[web]\nport = {free_port()}\n')
    proc = subprocess.Popen(
        [*REEDBOARD, "run", "--sim", "--host", "0.0.0.0", "--config", str(config), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        for line in proc.stderr:
            if "is at http" in line:
                with open(f"/proc/{proc.pid}/cmdline", "rb") as fp:
                    return line, fp.read().decode().split("\0")
        raise AssertionError("no address printed")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(5)


def test_the_token_from_a_file_or_the_environment_never_shows_in_ps(tmp_path):
    secret = tmp_path / "token"
    secret.write_text("file-s3cret\n")
    line, argv = start_with_token(tmp_path, "--token-file", str(secret))
    assert "?token=file-s3cret " in line and not any("s3cret" in a for a in argv)
    line, argv = start_with_token(tmp_path, env={"REEDBOARD_TOKEN": "env-s3cret"})
    assert "?token=env-s3cret " in line and not any("s3cret" in a for a in argv)


@pytest.mark.parametrize("content, why", [("", "the token file is empty")])
def test_a_bad_token_file_is_refused_in_one_line(tmp_path, content, why):
    secret = tmp_path / "token"
    secret.write_text(content)
    done = reedboard("run", "--sim", "--token-file", str(secret))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"reedboard run: {secret}: {why}"]
    done = reedboard("run", "--sim", "--token-file", "/dev/zero")
    assert done.stderr.splitlines() == [
        "reedboard run: /dev/zero: cannot read the token (not a regular file)"
    ]
