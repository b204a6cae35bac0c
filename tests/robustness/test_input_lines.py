"""Lines no reader should choke on, fed as an outsider would: a line of 100,000 ``[`` and one of
10 MB on the stdin of ``reedboard run --sim`` and ``reedboard setup``, and in a file given to
``reedboard replay``. Each is refused in one line naming it, never a traceback, and the reader
goes on with the next line."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

from testbed.running import Running
from testbed.stopping import stop
from testbed.tools import REEDBOARD, sim_config
from tests.cli.test_setup import chain_wiring, sites_of, write_board

DEEP = "[" * 100_000
LONG = '{"site": "' + "x" * 10_000_000 + '", "on": true}'


def test_run_sim_reads_on_after_a_deep_and_a_huge_stdin_line(tmp_path: Path):
    board = Running(sim_config(tmp_path))
    board.wait_for("display")
    for line in (DEEP, LONG):
        board.write(line)
    board.send(site="B2*", on=True)
    assert board.wait_for("move")["move"] == "B2*"  # the reader is still reading
    assert board.stop() == 0
    said = board.stderr()
    assert "stdin line 1: nested too deeply" in said
    assert "stdin line 2: too long: more than" in said
    assert "Traceback" not in said


def test_setup_reads_on_after_a_deep_and_a_huge_stdin_line(tmp_path: Path):
    sites = sites_of("antipode")
    config = write_board(tmp_path, "antipode", chain_wiring(sites, random.Random(1), h_first=True))
    setup = subprocess.Popen(
        [str(REEDBOARD[0]), *REEDBOARD[1:], "setup", "--config", str(config)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert json.loads(setup.stdout.readline()) == {"event": "setup", "step": "check"}
        setup.stdin.write(f"{DEEP}\n{LONG}\n" + json.dumps({"button": "ok"}) + "\n")
        setup.stdin.flush()
        # The OK after them was read: with no switch closed, the check says so and asks again.
        while (event := json.loads(setup.stdout.readline())).get("problem") != "none closed":
            assert "problem" not in event, event
        stop(setup)
    finally:
        setup.kill()  # whatever failed, no wizard is left running
    said = setup.stderr.read()
    assert "stdin line 1: nested too deeply" in said and "stdin line 2: too long" in said
    assert "Traceback" not in said


def test_replay_refuses_a_deep_or_huge_line_in_one_line(tmp_path: Path):
    config = sim_config(tmp_path)
    for n, line in enumerate((DEEP, LONG)):
        events = tmp_path / f"bad{n}.jsonl"
        events.write_text('{"t": 0, "site": "B2*", "on": true}\n' + line + "\n")
        done = subprocess.run(
            [*REEDBOARD, "replay", "--config", str(config), str(events)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and "line 2:" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_run_sim_reads_on_after_more_refusals_than_a_pipe_holds(tmp_path: Path):
    """3,000 bad lines, each refused in a line on stderr (more than a pipe's 64 KB), which the
    test does not read meanwhile: the harness drains it, so the daemon never waits to say it."""
    board = Running(sim_config(tmp_path))
    board.wait_for("display")
    for n in range(3000):
        board.write(f'{{"site": "Z{n}*", "on": true}}')
    board.send(site="B2*", on=True)
    assert board.wait_for("move", timeout=60)["move"] == "B2*"
    assert board.stop() == 0
    said = board.stderr()
    assert len(said) > 65536 and said.count("\n") >= 3000 and "Traceback" not in said
