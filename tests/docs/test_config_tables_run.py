"""The config tables docs/config.md shows for the clocks and the players, run as a player at a
table would start them: ``reedboard run --sim`` on exactly those blocks (beside a game), a piece
placed through stdin. The names are on the screen and the clocks press themselves as the docs
say (300 s each, 3 s added a move, a Bronstein delay of 2 s)."""

from __future__ import annotations

from testbed.docs import all_blocks
from testbed.running import Running

#: The tables whose blocks are run here, as the doc writes them.
TABLES = ("[clock]", "[players]")


def doc_block(table: str) -> str:
    """The block of docs/config.md that shows ``table``."""
    (block,) = [b for b in all_blocks() if b.doc == "docs/config.md" and b.text.startswith(table)]
    return block.text


def test_the_docs_clock_and_players_tables_run_on_a_board(tmp_path):
    config = tmp_path / "config.toml"
    storage = tmp_path / "games.db"
    body = "\n".join(doc_block(table) for table in TABLES)
    config.write_text(
        f'game = "antipalos"\nsize = 5\nstorage = "{storage}"\n\n{body}\n[web]\nenabled = false\n'
    )
    board = Running(config)
    try:
        screen = board.wait_for("display")["lines"]
        assert "Anna to move" in screen and any("5:00" in line for line in screen), screen
        board.send(site="B2*", on=True)
        pressed = board.wait_for("clock")
        while pressed["running"] != "black":
            pressed = board.wait_for("clock")
        # White's move took a moment: the delay gives it back (at most 2 s) and 3 s are added
        assert 300_000 < pressed["left"]["white"] <= 303_000 and pressed["left"]["black"] == 300_000
        assert "Ben to move" in board.wait_for("display")["lines"]
    finally:
        board.proc.terminate()
        board.proc.wait(20)
    assert "Traceback" not in board.proc.stderr.read()
