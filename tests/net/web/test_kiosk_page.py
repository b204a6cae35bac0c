"""A kiosk board's own page, as a café's staff use it: ``reedboard run --sim`` with the
``[kiosk]`` block docs/raspberry-pi.md shows. Who plays is set at the board only, so the page's
New game offers no computer, and its new game is started, not refused for that."""

from __future__ import annotations

import subprocess

from testbed.docs import all_blocks
from testbed.tools import REEDBOARD, free_port, wait_until


def test_a_kiosk_board_s_page_starts_a_new_game(tmp_path, page):
    (kiosk,) = [b.text for b in all_blocks() if b.doc == "docs/raspberry-pi.md" and "[kiosk]" in b.text]
    port, config, said = free_port(), tmp_path / "config.toml", tmp_path / "stderr"
    config.write_text(f'storage = "{tmp_path}/games.db"\n{kiosk}\n[web]\nport = {port}\n')
    with open(said, "w") as err:
        board = subprocess.Popen(
            [*REEDBOARD, "run", "--sim", "--config", str(config)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        assert wait_until(lambda: "is at http" in said.read_text() or board.poll() is not None, 30)
        page.goto(f"http://127.0.0.1:{port}/")
        page.locator("#new-game summary").click()
        page.wait_for_selector("#pick-game option[value=antipode]", state="attached")
        assert page.locator("#pick-players").is_hidden()  # no computer to offer
        page.select_option("#pick-game", "antipode")
        page.click("#picker button[type=submit]")
        page.locator("#title").filter(has_text="Antipode").wait_for()
    finally:
        board.terminate()
        board.wait(20)
