"""OLED screens: their text, and what they look like, checked on luma's real dummy device."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from luma.core.device import dummy
from PIL import Image

from firmware_host.ui import screens
from firmware_host.ui.screens import Screen, menu_screen, message_screen, status_screen

WIDTH, HEIGHT = screens.SIZE


def status(**changes) -> Screen:
    fields = dict(
        game_title="Antipalos 12",
        variant=None,
        to_move="white",
        side_colour=None,
        phase=None,
        status_lines=(),
        instruction=None,
        error=None,
        result=None,
        match_score=None,
    )
    return status_screen(**{**fields, **changes})


def lit_rows(image: Image.Image, left: int = 0, right: int = WIDTH) -> list[int]:
    """The rows with at least one lit pixel between ``left`` and ``right``."""
    return [y for y in range(image.height) if any(image.getpixel((x, y)) for x in range(left, right))]


def lit_fraction(image: Image.Image, box: tuple[int, int, int, int]) -> float:
    region = image.crop(box)
    return region.histogram()[255] / (region.width * region.height)


def layout(screen: Screen) -> list[tuple[str, int]]:
    """(text, font size) of each row as laid out on the 128x64 screen."""
    return [(row.text, row.font.font.size) for row in screens.layout(screen, WIDTH, HEIGHT)[0]]


def ink_runs(rows: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs of rows: each run is one line of text (first row, last row)."""
    runs: list[tuple[int, int]] = []
    for y in rows:
        if runs and y == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], y)
        else:
            runs.append((y, y))
    return runs


# --------------------------------------------------------------------------- the text
def test_whose_turn_with_phase_and_supply():
    screen = status(
        phase=1, status_lines=["14 left", "3 captured"], instruction="Flip the 4 lit tokens, then OK"
    )
    assert screen.text_lines() == (
        "Antipalos 12",
        "White to move",
        "Flip the 4 lit tokens, then OK",
        "Phase 1 · 14 left",
        "3 captured",
    )
    assert not screen.invert_title and screen.large


def test_side_colour_is_named_when_it_differs_from_the_side():
    assert status(to_move="north", side_colour="red").lines[0] == "North (red) to move"
    assert status(to_move="blue", side_colour="Blue").lines[0] == "Blue to move"


def test_error_comes_first_and_lights_the_title():
    screen = status(
        error="Square B4 already holds a Trirod",
        instruction="Place a Trirod",
        variant="team",
        match_score="2-1",
    )
    assert screen.text_lines() == (
        "Antipalos 12 · team",
        "White to move",
        "Square B4 already holds a Trirod",
        "Place a Trirod",
        "Match 2-1",
    )
    assert screen.invert_title


def test_result_replaces_whose_turn():
    screen = status(to_move=None, result=screens.result_words("black", "ring"), phase=2)
    assert screen.text_lines() == ("Antipalos 12", "Black wins: ring", "Phase 2")
    assert screens.result_words("draw", "repetition") == "Draw: repetition"
    assert status(to_move=None).lines[0] == "Game over"


def test_message_screen():
    screen = message_screen("IP address", ["192.168.1.20", "reedboard.local"])
    assert screen.text_lines() == ("IP address", "192.168.1.20", "reedboard.local")
    assert screen.invert_title and screen.large


def test_menu_text_marks_the_selected_line():
    screen = menu_screen("Menu", ["New game", "Take back"], 1)
    assert screen == Screen("Menu", ("New game", "Take back"), invert_title=True, selected=1)
    assert screen.text_lines() == ("Menu", "New game", "> Take back")
    assert layout(screen)[0] == ("Menu 2/2", screens.SMALL_SIZE)


# --------------------------------------------------------------------------- the drawing
def test_renders_on_a_luma_dummy_device_and_returns_the_same_image():
    device = dummy(WIDTH, HEIGHT, mode="1")
    image = status(phase=1).render(device)
    assert image.mode == "1" and image.size == (WIDTH, HEIGHT)
    assert device.image.tobytes() == image.tobytes()
    assert status(phase=1).render().tobytes() == image.tobytes()


def test_renders_on_a_colour_device_too():
    device = dummy(WIDTH, HEIGHT, mode="RGB")
    status().render(device)
    assert device.image.mode == "RGB" and device.image.getbbox() is not None


def test_main_line_is_large_for_arm_s_length():
    image = status(phase=1, status_lines=["14 left"]).render()
    runs = ink_runs(lit_rows(image))
    title, main, small = runs[0], runs[1], runs[2]

    def height(run):
        return run[1] - run[0] + 1

    assert height(main) >= 13 and height(main) > height(small) + 3  # no descenders in either
    assert title[0] <= 2 and small[1] < HEIGHT
    assert [size for _, size in layout(status(phase=1))] == [screens.SMALL_SIZE, 18, screens.SMALL_SIZE]


def test_an_error_lights_the_title_bar_and_normal_play_does_not():
    assert lit_fraction(status(error="Square B4 is empty").render(), (0, 0, WIDTH, 10)) > 0.5
    assert lit_fraction(status().render(), (0, 0, WIDTH, 10)) < 0.3


def test_long_lines_wrap_and_smaller_type_makes_room_before_anything_is_cut():
    screen = status(error="Square B4 already holds a Trirod", instruction="Place it", phase=1)
    rows = layout(screen)
    assert [text for text, _ in rows][:2] == ["Antipalos 12", "White to move"]
    assert rows[1][1] < 18 and screens.fits(screen)  # the main line gave way first
    assert " ".join(text for text, _ in rows[2:]) == "Square B4 already holds a Trirod Place it Phase 1"
    assert layout(status(error="Square B4 is empty")) == [
        ("Antipalos 12", screens.SMALL_SIZE),
        ("White to move", 18),
        ("Square B4 is empty", screens.SMALL_SIZE),
    ]
    for row in screens.layout(screen, WIDTH, HEIGHT)[0]:
        left, top, right, bottom = row.box()
        # (a "T" overhangs its start by a pixel)
        assert left >= screens.MARGIN - 1 and right <= WIDTH - screens.MARGIN and bottom <= HEIGHT


def test_a_screen_too_long_for_the_panel_is_shown_as_pages_each_with_the_instruction():
    screen = status(
        error="Square B4 already holds a Trirod of the other side",
        instruction="Then place your Trirod",
        phase=1,
        match_score="2-1 (to 6)",
    )
    pages = screen.pages()
    assert len(pages) > 1 and all(screens.fits(page) for page in pages)
    assert all(page.lines[:3] == screen.lines[:3] for page in pages)
    assert {"Phase 1", "Match 2-1 (to 6)"} <= {line for page in pages for line in page.lines}
    first = pages[0].text_lines()
    assert first[0].endswith(f"p1/{len(pages)}") or first[-1] == f"p1/{len(pages)}"
    assert screen.text_lines() == pages[0].text_lines()
    assert replace(screen, page=1).text_lines() == pages[1].text_lines()


def test_a_paged_status_line_is_broken_where_it_says_two_things_never_between_words():
    """The computer's move to carry out and a board that differs leave one row below them: the
    phase line goes on pages of its own, each page a whole thing said (a player reading page 2
    alone once saw "17 Black 18")."""
    screen = status_screen(
        "Antipalos 12",
        None,
        "white",
        None,
        1,
        ["In hand: White 17 · Black 18"],
        "Computer plays K3*: move it",
        "Board differs: take off 1",
        None,
    )
    pages = screen.pages()
    assert [page.lines[3:] for page in pages] == [("Phase 1",), ("In hand: White 17",), ("Black 18",)]
    assert all(screens.fits(page) for page in pages)
    quiet = status_screen(
        "Antipalos 12", None, "white", None, 1, ["In hand: White 17 · Black 18"], "Place a Trirod", None, None
    )
    assert quiet.pages() == (quiet,)
    assert [text for text, _ in layout(quiet)][3:] == ["Phase 1 · In hand:", "White 17 · Black 18"]


def test_a_text_too_long_for_any_style_ends_in_an_ellipsis():
    screen = status(error="Square B4 already holds a Trirod " * 4, instruction="Place it", phase=1)
    rows = screens.layout(screen)[0]
    assert not screens.fits(screen) and rows[-1].text.endswith(screens.ELLIPSIS)
    assert all(row.bottom < HEIGHT and row.box()[2] <= WIDTH - screens.MARGIN for row in rows)


def test_rows_keep_a_margin_at_both_sides():
    image = status(instruction="Flip the 4 lit tokens, then OK WWWWWWWWWWWWWWW").render()
    assert not any(image.getpixel((x, y)) for y in range(HEIGHT) for x in (0, 1, WIDTH - 2, WIDTH - 1))


def test_a_long_main_line_shrinks_before_it_wraps():
    large = screens._font(screens.LARGE_SIZES[0])
    assert large.width("White to move") <= WIDTH
    assert screens._large_font("Draw: repetition", WIDTH - 4, 18) is screens._font(15)
    assert screens._large_font("Phalanx: Vertical wins by blockade", WIDTH, 18) is None
    assert layout(status(to_move=None, result="White wins: connection")) == [
        ("Antipalos 12", screens.SMALL_SIZE),
        ("White wins:", 18),
        ("connection", 18),
    ]


def test_a_count_is_not_left_alone_on_the_last_row():
    font = screens._font(screens.SMALL_SIZE)
    width = WIDTH - 2 * screens.MARGIN
    rows = screens._wrap("Board differs: put back 1", font, width)
    assert rows == ("Board differs: put", "back 1")
    assert screens._wrap("Board differs: put back 1, take off 2", font, width)[-1] != "2"
    assert screens._wrap("White to move", font, width) == ("White to move",)


def test_a_word_wider_than_the_screen_is_broken():
    font = screens._font(screens.SMALL_SIZE)
    rows = screens._wrap("Antidisestablishmentarianism-of-boards", font, WIDTH)
    assert len(rows) == 2 and "".join(rows) == "Antidisestablishmentarianism-of-boards"
    assert all(font.width(row) <= WIDTH for row in rows)


def test_menu_highlights_the_selected_item_and_scrolls_to_it():
    items = tuple(f"Item {i}" for i in range(10))
    top = Screen("Menu", items, selected=0).render()
    bottom = Screen("Menu", items, selected=9).render()

    def bar(image):
        return [y for y in range(HEIGHT) if lit_fraction(image, (0, y, WIDTH, y + 1)) > 0.6]

    assert bar(top) and bar(top)[0] < 25
    assert bar(bottom) and bar(bottom)[-1] > 50
    shown = layout(Screen("Menu", items, selected=9))
    assert shown[0][0] == "Menu 10/10" and shown[-1][0] == "Item 9" and len(shown) == 5


def test_menu_shows_its_position_and_arrows_where_more_items_follow():
    items = tuple(f"Item {i}" for i in range(8))
    rows, more = screens.layout(Screen("Menu", items, selected=2))
    assert rows[0].text == "Menu 3/8"
    assert [(row.text, up) for row, up in more] == [("Item 3", False)]  # more below, none above
    rows, more = screens.layout(Screen("Menu", items, selected=5))
    assert sorted(up for _, up in more) == [False, True]  # more above and below
    image = Screen("Menu", items, selected=2).render()
    assert any(image.getpixel((x, rows[-1].top + 6)) for x in range(WIDTH - 12, WIDTH - 2))
    rows, more = screens.layout(Screen("Menu", items[:3], selected=0))
    assert rows[0].text == "Menu 1/3" and more == []


def test_typographic_characters_the_font_lacks_are_drawn_plainly():
    assert screens._plain("Match 2–1 — “ok”") == 'Match 2-1 - "ok"'


@given(
    st.text(max_size=60),
    st.lists(st.text(max_size=80), max_size=6),
    st.booleans(),
    st.one_of(st.none(), st.integers(-2, 8)),
)
def test_any_text_renders_within_the_screen(title, lines, large, selected):
    image = Screen(title, tuple(lines), large=large, selected=selected).render()
    assert image.size == (WIDTH, HEIGHT) and image.mode == "1"


@given(st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=120))
def test_wrapped_rows_fit_the_width_and_keep_every_word(text):
    font = screens._font(screens.SMALL_SIZE)
    plain = screens._plain(text)
    rows = screens._wrap(plain, font, WIDTH)
    assert all(font.width(row) <= WIDTH or len(row) == 1 for row in rows)
    assert "".join(rows).replace(" ", "") == plain.replace(" ", "")


@pytest.mark.parametrize("size", [(128, 64), (128, 32), (96, 96)])
def test_other_panel_sizes(size):
    image = status(error="Square B4 already holds a Trirod", phase=1).render(size)
    assert image.size == size and image.getbbox() is not None
