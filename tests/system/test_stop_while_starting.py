"""A SIGTERM that comes the moment a command has said where it is (the café's address, the
board's page bound) stops it cleanly (status 0; the set-up wizard's 130, interrupted), as one
that comes later does: the stop is taken before anything is said. It once came before the
handler was set, and the default one ended the process at once (status -15, nothing closed).
The process sends the signal itself, just after the part that says its address, so it always
falls in that moment."""

from __future__ import annotations

import subprocess
import sys

from testbed.stopping import HANG_SECONDS
from testbed.tools import free_port, sim_config

# ``module.name`` wrapped: the real call, then SIGTERM to this process; then the command.
SCRIPT = """
import importlib, os, signal, sys
from firmware_host.cli.main import main

module, name = sys.argv[1].rsplit(".", 1)
where = importlib.import_module(module)
real = getattr(where, name)

def said(*args, **kwargs):
    done = real(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGTERM)
    return done

setattr(where, name, said)
sys.exit(main(sys.argv[2:]))
"""


def stopped_after(call: str, *command: str) -> subprocess.CompletedProcess:
    """``reedboard *command`` sent SIGTERM by itself just after ``call`` returned."""
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, call, *command],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
    )


def test_the_cafe_stopped_as_it_says_its_address_ends_cleanly(tmp_path):
    config = tmp_path / "cafe.toml"
    config.write_text(f'[mqtt]\nhost = "127.0.0.1"\nport = {free_port()}\n')  # nobody's broker
    done = stopped_after(
        "firmware_host.net.cafe.run.start", "cafe", "--config", str(config), "--port", str(free_port())
    )
    assert (done.returncode, "the dashboard is at" in done.stderr) == (0, True), done.stderr


def test_a_board_stopped_as_its_page_is_bound_ends_cleanly(tmp_path):
    config = sim_config(tmp_path)
    done = stopped_after("firmware_host.cli.run._bind_page", "run", "--sim", "--config", str(config))
    assert (done.returncode, "Traceback" in done.stderr) == (0, False), done.stderr


def test_the_set_up_wizard_stopped_as_its_page_is_bound_ends_as_interrupted(tmp_path):
    config = sim_config(tmp_path, '[sensors]\nbackend = "sim"\n')
    done = stopped_after("firmware_host.cli.setup._page", "setup", "--config", str(config))
    assert (done.returncode, "Traceback" in done.stderr) == (130, False), done.stderr  # its progress kept
