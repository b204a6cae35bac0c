"""A kiosk board's own page, as a café's staff use it: ``reedboard run --sim`` with the
``[kiosk]`` block docs/raspberry-pi.md shows. Who plays is set at the board only, so the page's
New game offers no computer, and its new game is started, not refused for that."""

from __future__ import annotations

from testbed.docs import all_blocks
from testbed.running import Running
from testbed.tools import free_port


def test_a_kiosk_board_s_page_starts_a_new_game(tmp_path, page):
    (kiosk,) = [b.text for b in all_blocks() if b.doc == "docs/raspberry-pi.md" and "[kiosk]" in b.text]
    port, config = free_port(), tmp_path / "config.toml"
    config.write_text(f'storage = "{tmp_path}/games.db"\n{kiosk}\n[web]\nport = {port}\n')
    board = Running(config)
    try:
        assert board.said("is at http")
        page.goto(f"http://127.0.0.1:{port}/")
        page.locator("#new-game summary").click()
        page.wait_for_selector("#pick-game option[value=antipode]", state="attached")
        assert page.locator("#pick-players").is_hidden()  # no computer to offer
        page.select_option("#pick-game", "antipode")
        page.click("#picker button[type=submit]")
        page.locator("#title").filter(has_text="Antipode").wait_for()
    finally:
        board.stop()
