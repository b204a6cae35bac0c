"""The café wall draws what is seen and what changed: a move on one table redraws that table's
board alone (only the parts the move changed) and writes nothing else on the page but its words,
a table out of view is neither drawn nor rendered until it is scrolled into view, then with its
latest state; the clocks and "since" tick in view and a tile scrolled to is brought up to date;
a jump renders a far board in the frame that shows it; a new window size fits every board as a
wall opened at that size would; the pieces' shadows, and the cells drawn in a frame beneath the
pieces', look as on the board's page; a move's message leaves out the games the table plays,
which its tile keeps offering; the page passes axe-core's checks. Real boards on a real
Mosquitto, the dashboard in Debian's Chromium."""

from __future__ import annotations

import json
import re
import signal
from io import BytesIO

from PIL import Image, ImageChops

from testbed.broker import board_config
from testbed.tools import require
from tests.net.cafe.test_cafe import OUTPUT
from tests.net.web.test_web_browser import AXE

TABLES = ("t1", "t2", "t3")
LAYOUT = "antipalos/3/two"

#: Records, per table, the layers of its board that changed, and every other write on the page
#: (a MutationObserver on the whole page: a write counts even when it changes nothing).
WATCH_BOARDS_JS = """() => {
  window.redrawn = {};
  window.written = new Set();
  new MutationObserver((records) => {
    for (const r of records) {
      const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      const mini = node.closest('svg.mini');
      const board = node.closest('article')?.dataset.board ?? 'page';
      if (!mini) {
        const part = node.closest('.controls') ? 'controls' : node.className || node.tagName;
        written.add(`${board} ${part} ${r.attributeName ?? r.type}`);
        continue;
      }
      const layer = node === mini ? 'svg' : node.closest('svg.mini > g')?.getAttribute('class');
      (redrawn[board] ||= new Set()).add(layer);
    }
  }).observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}"""

#: Whether the browser renders a tile's words (false: it skips the tile, far from the screen).
RENDERED_JS = "(e) => e.querySelector('.turn').checkVisibility({contentVisibilityAuto: true})"
#: Whether the browser renders a tile's board, its cells and its pieces' frames (false: over 200
#: px from the screen, cafe.css).
BOARD_RENDERED_JS = """(e) => [...e.querySelectorAll('.under .cells, .mini .figures')]
  .map((g) => g.checkVisibility({contentVisibilityAuto: true}))"""


def _tile(page, board: str, ply: int | None = None):
    return page.locator(f'article[data-board="{board}"]' + (f'[data-ply="{ply}"]' if ply else ""))


def test_a_move_redraws_its_own_board_and_a_table_out_of_view_is_drawn_when_seen(
    tmp_path, broker, watcher, boards, cafe, page
):
    started = {name: boards(board_config(tmp_path, broker.port, name, size=3)) for name in TABLES}
    for name in TABLES:
        watcher.state(name)
    page.goto(cafe())
    for name in TABLES:
        page.locator(f'article[data-board="{name}"][data-drawn="{LAYOUT}"]').wait_for()
        # The games it plays come on their own topic, maybe after its first state: its New
        # game list takes their width once they are in.
        widest = max(len(p["title"]) for p in watcher.playable(name))
        page.wait_for_function(
            "([board, n]) => [...document.querySelectorAll(`article[data-board='${board}'] "
            "select.game option`)].some((o) => o.text.length === n)",
            arg=[name, widest],
        )
    page.evaluate(WATCH_BOARDS_JS)
    others = [_tile(page, name).bounding_box() for name in TABLES[1:]]
    started["t1"].place("A1*")
    _tile(page, "t1", 1).wait_for()
    assert [_tile(page, name).bounding_box() for name in TABLES[1:]] == others  # none moved
    redrawn = page.evaluate("() => Object.fromEntries(Object.entries(redrawn).map(([k, v]) => [k, [...v]]))")
    assert list(redrawn) == ["t1"]  # the other tables' boards untouched
    # Its new piece and its last move drawn; the board's sites, coordinates and lights untouched.
    assert "figures" in redrawn["t1"] and set(redrawn["t1"]) <= {"figures", "pieces", "last"}
    assert _tile(page, "t1").locator(".figures .figure").count() == 1
    # Beside its board, the move wrote its tile's words and when it was shown, nothing else: no
    # control of its own, no other tile, not the header.
    written = page.evaluate("() => [...written]")
    assert {w.split()[0] for w in written} == {"t1"}, written
    assert not [w for w in written if " controls " in w], written
    words = {"turn", "since", "status", "clocks", "SUMMARY", "tile"}  # SUMMARY: the day's line
    assert {w.split()[1] for w in written} <= words, written

    # A phone-sized window: one tile under the other, table 3 well below the fold.
    page.set_viewport_size({"width": 420, "height": 500})
    assert _tile(page, "t3").bounding_box()["y"] > 500 + 400
    started["t3"].place("A1*")
    watcher.state("t3", lambda s: s["ply"] == 1)
    # The dashboard passes the boards' states on in the order the broker had them: once table
    # 1's next move is on its tile, the page has table 3's move too.
    started["t1"].place("A3*")
    _tile(page, "t1", 2).wait_for()
    assert _tile(page, "t3").get_attribute("data-ply") == "0"  # out of view: not drawn yet
    assert _tile(page, "t3").locator(".figures .figure").count() == 0
    assert not _tile(page, "t3").evaluate(RENDERED_JS)  # nor laid out or painted by the browser
    # Nor has it controls (the browser's autofill would read their fields at each change).
    assert _tile(page, "t3").locator(".controls").count() == 0
    # Nearer, 350 px below the screen: the browser renders the tile, but not yet its board.
    top = _tile(page, "t3").evaluate("(e) => e.getBoundingClientRect().top + scrollY")
    page.evaluate(
        "(y) => new Promise((done) => { scrollTo(0, y); requestAnimationFrame(() => "
        "requestAnimationFrame(done)); })",
        top - 500 - 350,
    )
    assert _tile(page, "t3").evaluate(RENDERED_JS)
    assert _tile(page, "t3").evaluate(BOARD_RENDERED_JS) == [False, False]
    _tile(page, "t3").scroll_into_view_if_needed()
    _tile(page, "t3", 1).wait_for()
    assert _tile(page, "t3").evaluate(BOARD_RENDERED_JS) == [True, True]
    _tile(page, "t3").locator("button.new").wait_for()  # its controls, as it comes into view
    assert _tile(page, "t3").locator(".figures .figure").count() == 1
    assert _tile(page, "t3").evaluate(RENDERED_JS)
    assert _tile(page, "t3").locator(".turn").inner_text() == "Black to move · move 2"


def test_a_board_out_of_view_is_built_ahead_and_its_state_drawn_when_seen(
    tmp_path, broker, watcher, boards, cafe, page
):
    """A tile below the fold has its board built in the page's idle time (its cells and
    coordinates, beneath), neither rendered nor with its table's pieces drawn until it is
    scrolled to: then its pieces and words are drawn on the board already built."""
    started = {name: boards(board_config(tmp_path, broker.port, name, size=3)) for name in TABLES}
    for name in TABLES:
        watcher.state(name)
    started["t3"].place("A1*")
    watcher.state("t3", lambda s: s["ply"] == 1)
    page.set_viewport_size({"width": 420, "height": 500})  # one tile under the other
    page.goto(cafe())
    built = page.locator(f'article.far[data-board="t3"][data-drawn="{LAYOUT}"]')
    built.wait_for(state="attached", timeout=10_000)
    assert _tile(page, "t3").bounding_box()["y"] > 500 + 200  # never in view
    assert built.locator(".under .cells .cell").count() == 9
    assert built.locator(".mini .figures .figure").count() == 0  # its state not drawn
    assert built.get_attribute("data-ply") is None
    assert not built.evaluate(RENDERED_JS)
    cells = built.locator(".under").inner_html()
    _tile(page, "t3").scroll_into_view_if_needed()
    _tile(page, "t3", 1).wait_for()
    assert _tile(page, "t3").locator(".mini .figures .figure").count() == 1
    assert _tile(page, "t3").locator(".under").inner_html() == cells  # not built again


def test_a_move_brings_the_page_its_table_without_the_games_it_plays_and_new_game_keeps_them(
    tmp_path, broker, watcher, boards, cafe, page
):
    """The games a table plays (every size and variant: a few kilobytes) come to the page when
    they change, not with each move; its tile's New game offers them all after its moves."""
    board = boards(board_config(tmp_path, broker.port, "t1", size=3))
    titles = [p["title"] for p in watcher.playable("t1")]
    received: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda text: received.append(json.loads(text))))
    page.goto(cafe())
    offered = _tile(page, "t1").locator("select.game option")
    _tile(page, "t1").locator("select.game").focus()  # the owner opens the list
    page.wait_for_function(
        "(n) => document.querySelectorAll('select.game option').length === n", arg=len(titles)
    )
    for ply, site in enumerate(("A1*", "A3*"), 1):
        board.place(site)
        _tile(page, "t1", ply).wait_for()
    moves = [m["table"]["state"] for m in received if m["type"] == "table" and m["table"]["state"].get("ply")]
    assert moves and all("playable" not in state for state in moves)
    assert offered.all_inner_texts() == titles
    assert _tile(page, "t1").locator("select.game").input_value() == "Antipalos 3"


def test_a_tile_says_how_long_ago_its_last_move_was_in_steps_of_ten_seconds(
    tmp_path, broker, watcher, boards, cafe, page
):
    """Under a minute the time since a table's last move goes in steps of 10 s: the tiles in
    view are not written again every second."""
    board = boards(board_config(tmp_path, broker.port, "t1", size=3))
    watcher.state("t1")
    page.clock.install()
    page.goto(cafe())
    board.place("A1*")
    since = _tile(page, "t1", 1).locator(".since")
    assert since.inner_text() == "last move 0 s ago"
    page.clock.fast_forward("00:05")
    assert since.inner_text() == "last move 0 s ago"
    page.clock.fast_forward("00:06")
    page.wait_for_function("() => document.querySelector('.since').textContent.includes('10 s')")
    page.clock.fast_forward("01:00")
    page.wait_for_function("() => document.querySelector('.since').textContent.includes('1 min')")


def test_the_clocks_and_since_tick_in_view_and_a_tile_scrolled_to_is_brought_up_to_date(
    tmp_path, broker, watcher, boards, cafe, page
):
    """On a clock, a tile in view counts its running clock down and steps its "since" on; a tile
    out of view is left as it was, and shows the time at once when it is scrolled to."""
    top = '[clock]\ncontrol = "300+3"\n'
    started = {name: boards(board_config(tmp_path, broker.port, name, size=3, top=top)) for name in TABLES}
    for name in TABLES:
        watcher.state(name, lambda s: s["clock"] is not None)
    page.set_viewport_size({"width": 420, "height": 500})  # one tile under the other
    page.clock.install()
    page.goto(cafe())
    for name in ("t1", "t3"):
        started[name].place("A1*")
    _tile(page, "t1", 1).wait_for()
    _tile(page, "t3").scroll_into_view_if_needed()
    _tile(page, "t3", 1).wait_for()  # drawn once ...
    page.evaluate("() => scrollTo(0, 0)")
    page.locator('article.far[data-board="t3"]').wait_for(state="attached")  # ... and out of view again
    assert _tile(page, "t3").evaluate(BOARD_RENDERED_JS) == [False, False]
    far = _tile(page, "t3").locator(".clocks, .since").all_text_contents()
    assert re.search(r"▶ Black [45]:\d\d", far[0]) and re.search(r"last move [12]?0 s ago", far[1]), far
    near = _seconds(_tile(page, "t1").locator(".clocks").inner_text())
    page.clock.fast_forward("00:30")
    _ticked(page, "t1", near)
    assert _tile(page, "t3").locator(".clocks, .since").all_text_contents() == far  # not written
    _tile(page, "t3").scroll_into_view_if_needed()
    _ticked(page, "t3", _seconds(far[0]))


#: Whether a tile shows its running clock at or below a time (s) and 30 s or more since its
#: move (the real time a loaded machine takes between two readings only adds to both).
TICKED_JS = """([board, most]) => {
    const tile = document.querySelector(`article[data-board="${board}"]`);
    const clock = /▶ Black (\\d+):(\\d\\d)/.exec(tile.querySelector('.clocks').textContent);
    const since = /last move (\\d+) s ago|last move \\d+ min/.exec(tile.querySelector('.since').textContent);
    return !!clock && !!since && 60 * +clock[1] + +clock[2] <= most && !(+since[1] < 30); }"""


def _seconds(clocks: str) -> int:
    """The running clock's time on a tile's clock line, in seconds ("▶ Black 4:58" -> 298)."""
    minutes, seconds = re.search(r"▶ Black (\d+):(\d\d)", clocks).groups()
    return 60 * int(minutes) + int(seconds)


def _ticked(page, board: str, before: int) -> None:
    """Waits until ``board``'s tile shows its running clock 30 s or more below ``before`` (s)
    and 30 s or more since its move."""
    page.wait_for_function(TICKED_JS, arg=[board, before - 30])


def test_a_board_far_away_is_rendered_in_the_frame_a_jump_brings_it_into(
    tmp_path, broker, watcher, boards, cafe, page
):
    """A jump to a tile whose board was far from the screen (not rendered): the first frame that
    shows the tile renders its board (the browser renders the tile's own content in that frame),
    not a blank until the next."""
    for name in TABLES:
        boards(board_config(tmp_path, broker.port, name, size=3))
        watcher.state(name)
    page.set_viewport_size({"width": 420, "height": 500})  # one tile under the other
    page.goto(cafe())
    _tile(page, "t3").scroll_into_view_if_needed()
    page.locator(f'article[data-board="t3"][data-drawn="{LAYOUT}"]').wait_for()
    page.evaluate("() => scrollTo(0, 0)")
    page.locator('article.far[data-board="t3"]').wait_for(state="attached")
    styled = page.evaluate(  # as that frame is about to render
        "(e) => new Promise((done) => { scrollTo(0, e.getBoundingClientRect().top + scrollY - 60);"
        " requestAnimationFrame(() => done([...e.querySelectorAll('.under, .mini')]"
        ".map((svg) => getComputedStyle(svg).contentVisibility))); })",
        _tile(page, "t3").element_handle(),
    )
    assert styled == ["visible", "visible"]


#: The boards not rendered, as in a frame the browser draws before the page renders the boards
#: a scroll brought: ``arg`` the tile kept far from the screen.
UNRENDERED_JS = """(e) => {
  const style = document.createElement('style');
  style.textContent = '.tile .mini, .tile .under { content-visibility: hidden !important; }';
  document.head.append(style);
  e.classList.add('far');
}"""


def _mean_apart(first: bytes, second: bytes) -> float:
    """How far apart two screenshots are, on average over their pixels (0-255)."""
    apart = _apart(first, second)
    return sum(apart) / len(apart)


def test_a_board_not_rendered_yet_shows_a_picture_of_its_cells(tmp_path, broker, watcher, boards, cafe, page):
    """A board far from the screen is not rendered; in its place its tile shows a picture of its
    cells and coordinates, so that a frame drawn before the page renders a board a scroll brings
    (a dragged scroll bar) shows the board and not a blank."""
    boards(board_config(tmp_path, broker.port, "t1", size=3))
    watcher.state("t1")
    page.goto(cafe())
    page.locator(f'article[data-board="t1"][data-drawn="{LAYOUT}"]').wait_for()
    board = _tile(page, "t1").locator(".board")
    drawn = board.screenshot()
    page.evaluate(UNRENDERED_JS, _tile(page, "t1").element_handle())
    page.wait_for_function(TWO_FRAMES_JS)
    assert _tile(page, "t1").evaluate(BOARD_RENDERED_JS) == [False, False]
    shown = board.screenshot()
    page.evaluate("() => document.querySelector('.board').style.background = 'none'")
    page.wait_for_function(TWO_FRAMES_JS)
    blank = board.screenshot()
    OUTPUT.mkdir(exist_ok=True)
    for name, png in (("drawn", drawn), ("picture", shown), ("blank", blank)):
        (OUTPUT / f"cafe-far-board-{name}.png").write_bytes(png)
    assert _mean_apart(shown, drawn) < 2 < 8 < _mean_apart(blank, drawn), [
        _mean_apart(shown, drawn),
        _mean_apart(blank, drawn),
    ]


def test_the_wall_has_no_serious_accessibility_violations(tmp_path, broker, watcher, boards, cafe, page):
    """Every tile drawn, the controls shown (the page on loopback)."""
    require(AXE.exists(), f"axe-core in {AXE.parent} (tests/run.sh installs it with npm)")
    for name in TABLES[:2]:
        boards(board_config(tmp_path, broker.port, name, size=3))
        watcher.state(name)
    context = page.context.browser.new_context(
        viewport={"width": 1280, "height": 800}, bypass_csp=True
    )  # axe-core is added to the page
    try:
        wall = context.new_page()
        wall.goto(cafe())
        for name in TABLES[:2]:
            wall.locator(f'article[data-board="{name}"][data-drawn="{LAYOUT}"]').wait_for()
        wall.add_script_tag(path=str(AXE))
        found = wall.evaluate("""async () => (await axe.run(document)).violations
            .filter((v) => ['serious', 'critical'].includes(v.impact))
            .map((v) => `${v.id}: ${v.nodes.length} (${v.nodes[0].target})`)""")
    finally:
        context.close()
    assert found == []


#: A tile's board as drawn: its frames' view box (the pieces' and the cells' beneath) and its
#: coordinates.
BOARD_JS = """(e) => [e.getAttribute('viewBox'), e.previousElementSibling.getAttribute('viewBox'),
  e.previousElementSibling.querySelector('.coords').innerHTML]"""


def test_a_new_screen_size_draws_every_board_as_a_wall_opened_at_that_size(
    tmp_path, broker, watcher, boards, cafe, page
):
    """The window made phone-sized: each board in view is fitted to its new tile as if the wall
    had been opened at that size, and one out of view when it changed, once scrolled to."""
    for name in TABLES:
        boards(board_config(tmp_path, broker.port, name, size=8))
        watcher.state(name)
    layout = "antipalos/8/two"
    url = cafe()
    page.goto(url)
    for name in TABLES:
        page.locator(f'article[data-board="{name}"][data-drawn="{layout}"]').wait_for()
    wide = _tile(page, "t1").locator("svg.mini").evaluate(BOARD_JS)
    phone = {"width": 420, "height": 500}
    page.set_viewport_size(phone)
    fresh = page.context.browser.new_page(viewport=phone)
    try:
        fresh.goto(url)
        for name in TABLES:
            _tile(fresh, name).scroll_into_view_if_needed()
            fresh.locator(f'article[data-board="{name}"][data-drawn="{layout}"]').wait_for()
        expected = {name: _tile(fresh, name).locator("svg.mini").evaluate(BOARD_JS) for name in TABLES}
    finally:
        fresh.close()
    assert expected["t1"] != wide  # the sizes draw the board differently
    for name in TABLES:
        _tile(page, name).scroll_into_view_if_needed()
        mini = _tile(page, name).locator("svg.mini")
        page.wait_for_function(
            "([e, b]) => e.getAttribute('viewBox') === b[0]", arg=[mini.element_handle(), expected[name]]
        )
        assert mini.evaluate(BOARD_JS) == expected[name]
        assert expected[name][1] == expected[name][0]  # the cells' frame fitted as the pieces'


#: Waits for the page's next two frames (what was changed before them is painted).
TWO_FRAMES_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def _two_moves_on_t1(tmp_path, broker, watcher, boards, cafe, page):
    """Table t1 on the wall with two moves played: its board, and its tile's (``svg.mini``)."""
    board = boards(board_config(tmp_path, broker.port, "t1", size=3))
    watcher.state("t1")
    page.goto(cafe())
    for ply, site in enumerate(("A1*", "A3*"), 1):
        board.place(site)
        _tile(page, "t1", ply).wait_for()
    return board, _tile(page, "t1").locator("svg.mini")


def test_the_pieces_on_a_tile_cast_the_shadow_each_casts_on_the_boards_page(
    tmp_path, broker, watcher, boards, cafe, page
):
    """A tile draws its pieces' shadow once for them all: it looks as the board's page draws it,
    a shadow for each piece."""
    _, mini = _two_moves_on_t1(tmp_path, broker, watcher, boards, cafe, page)
    assert mini.locator(".figures .figure").count() == 2
    together = mini.screenshot()
    page.evaluate(EACH_SHADOW_JS)  # the board's page's own rule: a shadow for each piece
    page.wait_for_function(TWO_FRAMES_JS)
    each = mini.screenshot()
    apart = _apart(together, each)
    # The same to the eye: a few pixels of the shadows' edges rounded apart (no shadow at all
    # would leave a thousand pixels 30 and more apart).
    assert len(apart) > 10_000 and max(apart) <= 8 and sum(map(bool, apart)) < len(apart) / 1000, max(apart)


def test_a_tile_s_board_drawn_in_two_frames_looks_as_drawn_in_one(
    tmp_path, broker, watcher, boards, cafe, page
):
    """A tile's cells and coordinates are drawn once, in a frame of their own beneath its pieces':
    the board looks as it does drawn in one frame (as the board's page draws it)."""
    _, mini = _two_moves_on_t1(tmp_path, broker, watcher, boards, cafe, page)
    assert mini.locator(".cells, .coords").count() == 0  # beneath, in the other frame
    assert _tile(page, "t1").locator("svg.under .cells .cell").count() == 9
    assert max(_apart(*_two_frames_and_one(page, mini, "cafe-board"))) == 0


#: The pieces' shadows drawn as the board's page draws them, one for each piece.
EACH_SHADOW_JS = """() => {
  const sheet = [...document.styleSheets].find((s) => s.href && s.href.endsWith('/static/cafe.css'));
  sheet.insertRule('.tile .mini .figures { filter: none; }', sheet.cssRules.length);
  sheet.insertRule('.tile .mini .figures .figure { filter: drop-shadow(0 calc(var(--unit) * .03) '
                   + 'calc(var(--unit) * .03) #000a); }', sheet.cssRules.length);
}"""


def _two_frames_and_one(page, mini, name: str) -> tuple[bytes, bytes]:
    """Screenshots of a tile's board (``mini``) as drawn, in two frames, then with its cells
    moved into its pieces' frame (one frame, as the board's page draws it); both saved as
    ``name``-two-frames.png and -one-frame.png."""
    two = mini.screenshot()
    page.evaluate(
        "() => { const under = document.querySelector('svg.under'); "
        "under.nextElementSibling.prepend(...under.children); }"
    )
    page.wait_for_function(TWO_FRAMES_JS)
    one = mini.screenshot()
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / f"{name}-two-frames.png").write_bytes(two)
    (OUTPUT / f"{name}-one-frame.png").write_bytes(one)
    return two, one


def _apart(first: bytes, second: bytes) -> list[int]:
    """How far apart two screenshots (PNG) are at each pixel: the largest of its channels'
    differences, 0-255."""
    a, b = (Image.open(BytesIO(png)).convert("RGB") for png in (first, second))
    d = ImageChops.difference(a, b).tobytes()
    return [max(d[i : i + 3]) for i in range(0, len(d), 3)]


def test_an_offline_tile_s_board_fades_as_one_as_drawn_in_one_frame(
    tmp_path, broker, watcher, boards, cafe, page
):
    """A table gone offline has its board faded as one picture, its cells beneath and its pieces
    above together: where a piece covers a cell, the cell does not show through it (the two
    frames each faded apart let it, a few levels of 255). Pixel for pixel the same board drawn in
    one frame and faded."""
    board, mini = _two_moves_on_t1(tmp_path, broker, watcher, boards, cafe, page)
    board.proc.send_signal(signal.SIGKILL)
    page.locator('article.offline[data-board="t1"]').wait_for(timeout=40_000)
    page.wait_for_function(TWO_FRAMES_JS)
    assert max(_apart(*_two_frames_and_one(page, mini, "cafe-offline-board"))) == 0
