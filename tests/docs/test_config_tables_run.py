"""The config tables docs/config.md shows for the clocks, the players and the sound, run as a
player at a table (or a maker on a laptop) would start them: ``reedboard run --sim`` on exactly
those blocks (beside a game), a piece placed through stdin. The names are on the screen and the
clocks press themselves as the docs say (300 s each, 3 s added a move, a Bronstein delay of
2 s); the sound block says each move as a ``say`` event, and a buzzer the machine has no GPIO
for is one line, not the pin library's warnings."""

from __future__ import annotations

from testbed.docs import all_blocks
from testbed.running import Running
from testbed.tools import free_port

#: The tables whose blocks are run here, as the doc writes them.
TABLES = ("[clock]", "[players]")
#: The simulated board always serves its page: on a port of its own here, 8080 may be taken.
WEB = "\n[web]\nport = {}\n"


def doc_block(table: str) -> str:
    """The block of docs/config.md that shows ``table``."""
    (block,) = [b for b in all_blocks() if b.doc == "docs/config.md" and b.text.startswith(table)]
    return block.text


def test_the_docs_clock_and_players_tables_run_on_a_board(tmp_path):
    config = tmp_path / "config.toml"
    storage = tmp_path / "games.db"
    body = "\n".join(doc_block(table) for table in TABLES)
    config.write_text(
        f'game = "antipalos"\nsize = 5\nstorage = "{storage}"\n\n{body}' + WEB.format(free_port())
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
        board.stop()
    assert "Traceback" not in board.stderr()


def test_the_docs_sound_table_says_each_move_and_a_missing_buzzer_in_one_line(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(
        f'game = "antipalos"\nsize = 5\nstorage = "{tmp_path / "games.db"}"\n\n'
        + doc_block("[sound]")
        + WEB.format(free_port())
    )
    board = Running(config)
    try:
        board.wait_for("display")
        board.send(site="B2*", on=True)
        assert "B 2" in board.wait_for("say")["text"]
    finally:
        board.stop()
    said = board.stderr().splitlines()
    # a machine without GPIO (this one, a laptop) cannot open the buzzer: said once, by us
    assert said and all(line.startswith("reedboard") for line in said), said
