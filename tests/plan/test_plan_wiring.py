"""The wiring sheets a maker solders from, read back from their SVG: each wire at the pin the
config gives it, every site named with its switch's terminal and its LED, the LED path running
row by row with no long way back, and a large board on pages of rows that are still readable."""

import math
import re
import xml.etree.ElementTree as ET

import pytest

import engines
from firmware_host.cli.main import main

SVG = "{http://www.w3.org/2000/svg}"
GAMES = [("antipalos", 12), ("antipode", None), ("antipod", 6), ("anti-grid", 8), ("phalanx", None)]
#: A few of the Pi's GPIOs and their pins on its 40-pin header (the Pi's own pinout).
PI_HEADER = {
    2: 3,
    3: 5,
    5: 29,
    6: 31,
    12: 32,
    13: 33,
    16: 36,
    17: 11,
    18: 12,
    19: 35,
    20: 38,
    21: 40,
    22: 15,
    23: 16,
    24: 18,
    25: 22,
    26: 37,
    27: 13,
}


def draw(tmp_path, capsys, game, *args):
    out = tmp_path / f"{game}.svg"
    assert main(["plan", game, "--out", str(out), *args]) == 0
    return capsys.readouterr().out.split()


def groups(path, kind):
    return [g for g in ET.parse(path).getroot().iter(f"{SVG}g") if g.get("class") == kind]


def pins_of(path):
    """(host, pin) -> the wire named at it, from the pins sheet."""
    found = {}
    for block in ET.parse(path).getroot().iter(f"{SVG}g"):
        if block.get("class") == "pin" and block.get("data-pin"):
            found[int(block.get("data-pin"))] = (block.get("data-wire"), int(block.get("data-place")))
    return found


def test_the_pins_sheet_names_each_wire_at_the_pin_the_config_gives_it(tmp_path, capsys):
    config = tmp_path / "config.toml"
    rows, columns = [5, 6, 12, 13, 16, 19, 20, 21], [23, 24, 25, 26, 27, 22, 17, 4]
    config.write_text(f"""
game = "antipode"
[sensors]
backend = "gpio-matrix"
rows = {rows}
columns = {columns}
[leds]
backend = "ws2812"
count = 61
[buttons]
backend = "gpio"
ok = 9
back = 10
menu = 11
""")
    written = draw(tmp_path, capsys, "antipode", "--config", str(config), "--pitch", "30")
    sheet = next(p for p in written if p.endswith("-pins.svg"))
    found = pins_of(sheet)
    expected = {
        **{pin: f"row {i}" for i, pin in enumerate(rows)},
        **{pin: f"column {i}" for i, pin in enumerate(columns)},
        9: "button OK",
        10: "button BACK",
        11: "button MENU",
        2: "SDA (I2C)",
        3: "SCL (I2C)",
        18: "LED data (74AHCT125)",
    }
    assert {pin: wire for pin, (wire, _) in found.items()} == expected
    for pin, (_, place) in found.items():
        assert PI_HEADER.get(pin, place) == place
    # The board's sheet names each switch by the row and column those pins drive and read.
    wiring = next(p for p in written if p.endswith("-wiring.svg"))
    table = next(p for p in written if p.endswith("-wiring.txt"))
    lines = {line.split()[1]: line for line in open(table).read().splitlines()[1:]}
    for site in groups(wiring, "wire"):
        channel = int(site.get("data-sensor"))
        r, c = divmod(channel, len(columns))
        assert site.get("data-terminal") == f"R{r}C{c}"
        assert f"row {r} (GPIO {rows[r]}), column {c} (GPIO {columns[c]})" in lines[site.get("data-site")]
        texts = [t.text for t in site.iter(f"{SVG}text")]
        assert texts == [f"L{site.get('data-led')}", site.get("data-site"), f"R{r}C{c}"]


def test_a_mega_builds_sheet_shows_the_megas_pins_and_its_chains(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text('game = "antipalos"\n[leds]\nbackend = "serial"\nport = "/dev/ttyACM0"\n')
    written = draw(
        tmp_path,
        capsys,
        "antipalos",
        "--size",
        "12",
        "--config",
        str(config),
        "--scanner",
        "serial",
        "--pitch",
        "30",
    )
    sheet = next(p for p in written if p.endswith("-pins.svg"))
    mega = {
        g.get("data-name"): g.get("data-wire")
        for g in groups(sheet, "pin")
        if g.get("data-wire") and g.get("data-name").startswith(("D", "A"))
    }
    assert mega["D22"] == "row 0" and mega["D30"] == "row 15" and mega["A0"] == "column 0"
    assert mega["D43"] == "column 17"
    assert [mega[f"D{pin}"] for pin in (6, 7, 8)] == [
        "LED chain 0 (L0-L95)",
        "LED chain 1 (L96-L191)",
        "LED chain 2 (L192-L287)",
    ]
    pi = {
        g.get("data-name"): g.get("data-wire")
        for g in groups(sheet, "pin")
        if g.get("data-wire") and g.get("data-name").startswith("GPIO")
    }
    assert pi == {
        "GPIO 2": "SDA (I2C)",
        "GPIO 3": "SCL (I2C)",
        "GPIO 17": "button OK",
        "GPIO 27": "button BACK",
        "GPIO 22": "button MENU",
    }  # no LED data on the Pi
    # Each chain's first LED says where its data comes from.
    starts = [
        t.text
        for p in written
        if "-wiring" in p and p.endswith(".svg")
        for t in ET.parse(p).getroot().iter(f"{SVG}text")
        if "data in from" in (t.text or "")
    ]
    assert sorted(starts) == [f"chain {i}: data in from D{6 + i} (330 Ω)" for i in range(3)]


def wiring_pages(written):
    return [p for p in written if re.search(r"-wiring(-\d+)?\.svg$", p)]


def leds_on(pages):
    """LED number -> (page, its square's centre on that page), and the scale of each page."""
    found, scales = {}, {}
    for n, path in enumerate(pages):
        root = ET.parse(path).getroot()
        scales[n] = float(root.get("data-scale"))
        for site in root.iter(f"{SVG}g"):
            if site.get("class") != "wire":
                continue
            square = next(p for p in site.iter(f"{SVG}polygon") if p.get("class") == "led")
            corners = [tuple(map(float, c.split(","))) for c in square.get("points").split()]
            centre = (sum(x for x, _ in corners) / 4, sum(y for _, y in corners) / 4)
            assert int(site.get("data-led")) not in found  # each site on one page
            found[int(site.get("data-led"))] = (n, centre)
    return found, scales


@pytest.mark.parametrize("game,size", GAMES)
def test_the_led_path_runs_row_by_row_without_long_returns(tmp_path, capsys, game, size):
    pitch = 30
    written = draw(tmp_path, capsys, game, *(["--size", str(size)] if size else []), "--pitch", str(pitch))
    found, scales = leds_on(wiring_pages(written))
    state = engines.new_game(game, size, None)
    assert len(found) == len(state.sites())
    hops = []
    for led in range(len(found) - 1):
        (page, a), (other, b) = found[led], found[led + 1]
        if page == other:
            hops.append(math.dist(a, b) / (pitch * scales[page]))
    # Neighbours along a row, or a row's end to the next row's: never back across the board
    # (Antipod's two hemispheres are joined once, across the gap between them).
    long = [h for h in hops if h > 2.05]
    assert len(long) <= (1 if game == "antipod" else 0)
    # The chain's path is drawn through the squares in order, with its start marked.
    layout = next(p for p in written if p.endswith("-layout.toml"))
    assert "led = 0 }" in open(layout).read()


def test_a_large_board_is_wired_from_readable_pages(tmp_path, capsys):
    written = draw(tmp_path, capsys, "antipalos", "--size", "20", "--pitch", "30")
    pages = wiring_pages(written)
    assert len(pages) > 1 and all(re.search(r"-wiring-\d\d\.svg$", p) for p in pages)
    found, scales = leds_on(pages)
    assert len(found) == 800
    for path in pages:
        root = ET.parse(path).getroot()
        assert sorted(float(root.get(k).removesuffix("mm")) for k in ("width", "height")) == [210, 297]
        # Switches a quarter along a square's two diagonals are 15 mm apart at pitch 30: on the
        # page at least 11 mm, room for their names.
        assert 15 * float(root.get("data-scale")) >= 11 - 0.01
        # Where the chain leaves the page, it says where it goes on.
        for text in root.iter(f"{SVG}text"):
            if m := re.match(r"to L(\d+), page (\d+)", text.text or ""):
                assert found[int(m.group(1))][0] == int(m.group(2)) - 1


def test_the_layout_written_beside_the_sheets_is_the_wiring_drawn(tmp_path, capsys):
    """A board wired as the sheet draws it needs only the layout file named in its config."""
    from firmware_host.store.layout import load_layout

    written = draw(tmp_path, capsys, "antipode", "--pitch", "30")
    path = next(p for p in written if p.endswith("-layout.toml"))
    layout = load_layout(path, engines.new_game("antipode", None, None).sites())
    drawn = {
        g.get("data-site"): (int(g.get("data-sensor")), int(g.get("data-led")))
        for p in wiring_pages(written)
        for g in groups(p, "wire")
    }
    assert drawn == {site: (layout.sensor[site], layout.led[site]) for site in layout.sensor}
    # Drawn from that layout, the plan writes no other.
    (tmp_path / "again").mkdir()
    again = draw(tmp_path / "again", capsys, "antipode", "--pitch", "30", "--layout", path)
    assert not [p for p in again if p.endswith("-layout.toml")]
