"""A first-time player walks the page through all five games in turn: a real `reedboard run
--sim` process, a new game from the page's New game each time, in Debian's chromium. After each,
everything the page shows that names a side names the current game's sides: on the page, after
a reload, and on /watch."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import engines
from testbed.stopping import stop
from testbed.tools import free_port, wait_until
from tests.net.web.web_tools import screenshot

REEDBOARD = Path(sys.executable).with_name("reedboard")
#: Every side any game has: the words a stale page would show.
SIDES = sorted({side for name in engines.GAME_NAMES for side in engines.new_game(name, None, None).sides})
#: The games in turn from the first (the config's): Anti-Grid and Phalanx count lost pieces,
#: the others do not; each pair in turn has different sides.
ORDER = ["anti-grid", "phalanx", "antipode", "antipod", "antipalos"]
#: The side names the page shows, in its text and in the names it gives elements (tooltips,
#: a piece's side, the OLED's words), of the elements shown.
NAMED = """(names) => {
  const shown = (el) => el.checkVisibility ? el.checkVisibility() : true;
  const texts = [document.body.innerText, document.title];
  for (const el of document.querySelectorAll("[title], [aria-label], [alt], [data-side], title")) {
    const node = el.tagName === "title" ? el.parentElement : el;
    if (!node || !shown(node)) continue;
    texts.push(el.getAttribute("title") || "", el.getAttribute("aria-label") || "",
               el.getAttribute("alt") || "", el.getAttribute("data-side") || "",
               el.tagName === "title" ? el.textContent : "");
  }
  const text = texts.join("\\n").toLowerCase();
  return names.filter((n) => new RegExp(`\\\\b${n}\\\\b`).test(text));
}"""


@pytest.fixture
def running(tmp_path):
    """`reedboard run --sim` with a config of its own: the page's address."""
    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(f'game = "antipalos"\nstorage = "{tmp_path}/games.db"\n[web]\nport = {port}\n')
    said = tmp_path / "stderr"
    with open(said, "w") as err:
        proc = subprocess.Popen(
            [str(REEDBOARD), "run", "--sim", "--config", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=err,
            stdin=subprocess.DEVNULL,
        )
    try:
        assert wait_until(lambda: "is at http" in said.read_text() or proc.poll() is not None, timeout=30), (
            said.read_text()
        )
        assert proc.poll() is None, said.read_text()
        yield f"http://127.0.0.1:{port}/"
    finally:
        stop(proc)


def sides_named(page, game: str) -> set[str]:
    """The side names ``page`` shows, once it shows ``game``'s title and no other game's
    sides (if it never does: with the other game's it shows)."""
    title = engines.game_info(game).title.split(" (")[0]
    page.wait_for_function(
        "(t) => { const shown = document.getElementById('title').textContent;"
        " return (shown === t || shown.startsWith(t + ' '))"
        " && document.getElementById('turn').textContent; }",
        arg=title,
    )
    own = list(engines.new_game(game, None, None).sides)
    foreign = [n for n in SIDES if n not in own]
    try:
        page.wait_for_function(f"(names) => ({NAMED})(names).length === 0", arg=foreign, timeout=3000)
    except Exception:  # noqa: BLE001 - the assertion below says what it shows
        pass
    return set(page.evaluate(NAMED, SIDES))


def shows_only(page, game: str, where: str) -> None:
    """``page`` names ``game``'s sides (the side to move at least), and no other's."""
    own = set(engines.new_game(game, None, None).sides)
    named = sides_named(page, game)
    assert named and named <= own, f"{where}: {sorted(named)}, not only {sorted(own)}"


def start(page, game: str) -> None:
    """Press New game until the board starts ``game``, pressing again when it says it takes
    one new game a second at most (the last one was started just now), as a player would."""
    title = engines.game_info(game).title.split(" (")[0]
    for _ in range(5):
        page.evaluate("document.getElementById('notice').textContent = ''")
        page.click("#picker button[type=submit]")
        page.wait_for_function(
            "(t) => { const shown = document.getElementById('title').textContent;"
            " return shown === t || shown.startsWith(t + ' ')"
            " || document.getElementById('notice').textContent; }",
            arg=title,
        )
        if "one new game every" not in page.locator("#notice").inner_text():
            return
        page.wait_for_timeout(1000)
    raise AssertionError(f"New game of {game} was refused: {page.locator('#notice').inner_text()}")


def test_every_new_game_from_the_page_shows_its_own_sides(running, page, browser):
    page.on("dialog", lambda dialog: dialog.accept())  # "Abandon the game in progress?"
    page.goto(running)
    page.wait_for_selector('[data-site="A1*"]')
    page.locator('g[data-site="A1*"] > *').first.click()  # a move: the story names White
    page.wait_for_function("() => document.getElementById('last').textContent.startsWith('Last: White')")
    watcher = browser.new_page()
    watcher.goto(running + "watch")
    for game in ORDER:
        if not page.locator("details#new-game").evaluate("(d) => d.open"):
            page.locator("details#new-game summary").click()
        page.select_option("#pick-game", game)
        start(page, game)
        shows_only(page, game, f"{game} after New game")
        screenshot(page, f"new-game-{game}")
        shows_only(watcher, game, f"{game} on /watch")
        page.reload()
        shows_only(page, game, f"{game} after a reload")
        fresh = browser.new_page()
        fresh.goto(running + "watch")
        shows_only(fresh, game, f"{game} on a /watch opened now")
        screenshot(fresh, f"new-game-{game}-watch")
        fresh.close()
    watcher.close()
