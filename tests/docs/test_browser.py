"""The README's first command as a first-time player runs it: the simulated board's page at
the address it prints, in Debian's Chromium."""

from __future__ import annotations

from engines import game_info
from firmware_host.store.config import Config
from testbed.docs import all_blocks, commands
from testbed.docs_run import not_run, serves, stop


def test_the_readme_s_first_command_serves_the_board_in_a_browser(page, sandbox):
    first = next(
        part
        for b in all_blocks()
        if b.doc == "README.md" and b.kind == "shell"
        for c in commands(b.text)
        for part in c.split(" && ")
        if not not_run(part)
    )
    shell, port = sandbox.command(first)
    proc = sandbox.start(shell)
    try:
        assert serves(proc, port) == 200
        address = f"http://127.0.0.1:{port}/"
        said = iter(proc.stderr.readline, "")
        assert any(address in line for line in said), "it did not print its address"
        page.goto(address)
        page.wait_for_selector("#oled[src^='data:image/png']", state="attached")
        title = game_info(Config().game).title  # no config: the built-in defaults
        assert title in page.locator("#oled").get_attribute("alt")
        assert page.locator("#board [data-site]").count() > 0
        page.goto(address + "watch")
        page.locator("#board [data-site]").first.wait_for(state="attached")
    finally:
        stop(proc)
    assert proc.returncode == 0
