"""The simulated board's page as players set the start up again after an Antipode game: a real
``reedboard run --sim`` resuming a game Blue has won, its pieces taken off and the six corner
tokens set down through stdin. The page shows the faces the players are asked for on its OLED
while they set up, and once the new game begins, its corner tokens with the start's faces (the
last game left i5 blue up: the board cannot see that)."""

from __future__ import annotations

from engines import new_game
from firmware_host.store.storage import Storage
from testbed.running import Running
from testbed.tools import free_port
from tests.board.test_start_faces import CORNERS, FACES, GAME
from tests.net.web.web_tools import screenshot

#: The start's corner tokens: site -> the face up.
START = {"e1": "blue", "a5": "blue", "i9": "blue", "a1": "red", "e9": "red", "i5": "red"}


def ended():
    """The position Blue's win left."""
    state = new_game("antipode")
    for move in GAME:
        state = state.play(move)
    return state


def faces(page) -> dict[str, str]:
    """Corner site -> the face the page draws its token with."""
    return page.evaluate(
        """(sites) => Object.fromEntries(sites.map((s) => [s,
             document.querySelector(`#board .figure.token[data-sites="${s}"]`)?.dataset.side]))""",
        list(START),
    )


def test_the_page_asks_for_the_faces_and_draws_them_once_the_new_game_begins(tmp_path, page):
    storage = Storage(str(tmp_path / "games.db"))
    game_id = storage.start("antipode", None, "standard")
    for ply, move in enumerate(GAME, 1):
        storage.add_move(game_id, ply, move)
    storage.close()
    port, config = free_port(), tmp_path / "config.toml"
    config.write_text(f'game = "antipode"\nstorage = "{tmp_path}/games.db"\n[web]\nport = {port}\n')
    board = Running(config)
    try:
        assert board.wait_for("game_over")["winner"] == "blue"
        assert board.said("is at http")
        page.goto(f"http://127.0.0.1:{port}/")
        oled = page.locator("#oled")
        for words in ("Set up to play again", *FACES):
            page.wait_for_function("(w) => document.getElementById('oled').alt.includes(w)", arg=words)
        assert faces(page)["i5"] == "blue"  # the last game's face, as it ended
        screenshot(page, "page-start-faces-over")
        for site in sorted(ended().occupied()):  # the last game's tokens off
            board.send(site=site, on=False)
        for site in CORNERS:
            board.send(site=site, on=True)
        assert board.wait_for("new_game")["game"] == "antipode"
        page.wait_for_function("() => document.getElementById('oled').alt.includes('Place a token')")
        assert all(words in oled.get_attribute("alt") for words in FACES)
        page.wait_for_function(
            "(want) => Object.entries(want).every(([s, side]) => document.querySelector("
            '`#board .figure.token[data-sites="${s}"]`)?.dataset.side === side)',
            arg=START,
        )
        assert faces(page) == START
        screenshot(page, "page-start-faces-begun")
    finally:
        board.stop()
