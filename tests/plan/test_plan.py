"""`reedboard plan`: the board at 1:1 measured from its SVG, the pages that overlap by their
marks, the wiring sheet, and the parts list counted against the game and the scanner."""

import math
import re
import xml.etree.ElementTree as ET
from itertools import combinations

import pytest

import engines
from firmware_host.cli.main import main

SVG = "{http://www.w3.org/2000/svg}"
GAMES = [("antipalos", 12), ("antipode", None), ("antipod", 6), ("anti-grid", 8), ("phalanx", None)]


def plan(tmp_path, capsys, game, *args):
    out = tmp_path / f"{game}.svg"
    assert main(["plan", game, "--out", str(out), *args]) == 0
    written = capsys.readouterr().out.split()
    return out, written


def sites_of(root):
    """label -> (centre, switch, labels drawn, data) of every site group in an SVG."""
    found = {}
    for group in root.iter(f"{SVG}g"):
        if group.get("class") != "site":
            continue
        centre = next(c for c in group.iter(f"{SVG}circle") if c.get("class") == "centre")
        switch = next(c for c in group.iter(f"{SVG}circle") if c.get("class") == "switch")
        labels = [t.text for t in group.iter(f"{SVG}text") if t.get("class") == "label"]
        found[group.get("data-site")] = (
            (float(centre.get("cx")), float(centre.get("cy"))),
            (float(switch.get("cx")), float(switch.get("cy"))),
            labels,
            dict(group.attrib),
        )
    return found


def size_mm(root):
    return float(root.get("width").removesuffix("mm")), float(root.get("height").removesuffix("mm"))


@pytest.mark.parametrize("game,size", GAMES)
def test_site_centres_are_a_pitch_apart_where_the_geometry_says(tmp_path, capsys, game, size):
    pitch = 27.5
    args = ["--pitch", str(pitch)] + (["--size", str(size)] if size else [])
    out, _ = plan(tmp_path, capsys, game, *args)
    root = ET.parse(out).getroot()
    drawn = sites_of(root)
    engine = engines.new_game(game, size, None).sites()
    assert set(drawn) == {s.label for s in engine}
    for site in engine:
        assert drawn[site.label][2] == [site.label]  # one label per site, its own
    # Every pair of sites d board units apart is d * pitch mm apart on the sheet.
    sample = engine[:: max(1, len(engine) // 40)]
    for a, b in combinations(sample, 2):
        expected = math.dist((a.x, a.y), (b.x, b.y)) * pitch
        assert math.dist(drawn[a.label][0], drawn[b.label][0]) == pytest.approx(expected, abs=0.02)
    # Sites a whole number of units apart (neighbours: one; Phalanx's alike triangles: two)
    # are that many pitches apart.
    whole = [
        (a, b, round(math.dist((a.x, a.y), (b.x, b.y))))
        for a, b in combinations(engine[:60], 2)
        if math.isclose(math.dist((a.x, a.y), (b.x, b.y)) % 1, 0, abs_tol=1e-6)
    ]
    assert any(n in (1, 2) for *_, n in whole)
    for a, b, n in whole:
        assert math.dist(drawn[a.label][0], drawn[b.label][0]) == pytest.approx(n * pitch, abs=0.02)
    width, height = size_mm(root)
    assert root.get("viewBox") == f"0 0 {width:g} {height:g}".replace(".0 ", " ")


def test_switches_stay_apart_where_sites_share_a_centre(tmp_path, capsys):
    out, _ = plan(tmp_path, capsys, "antipalos", "--size", "12", "--pitch", "30")
    drawn = sites_of(ET.parse(out).getroot())
    a, b = drawn["A1*"], drawn["*A1"]
    assert a[0] == b[0]  # one square: one centre
    assert math.dist(a[1], b[1]) == pytest.approx(15.0, abs=0.02)  # two switches 15 mm apart
    switches = [v[1] for v in drawn.values()]
    assert len(set(switches)) == len(switches)


def test_channels_come_from_the_layout(tmp_path, capsys):
    layout = tmp_path / "layout.toml"
    sites = engines.new_game("antipode", None, None).sites()
    lines = [f'"{s.label}" = {{ sensor = {60 - i}, led = {i} }}' for i, s in enumerate(sites)]
    layout.write_text("[sites]\n" + "\n".join(lines) + "\n")
    out, written = plan(tmp_path, capsys, "antipode", "--pitch", "30", "--layout", str(layout))
    drawn = sites_of(ET.parse(out).getroot())
    assert {label: int(v[3]["data-sensor"]) for label, v in drawn.items()} == {
        s.label: 60 - i for i, s in enumerate(sites)
    }
    table = (tmp_path / "antipode-wiring.txt").read_text().splitlines()
    assert table[1].split()[:2] == ["0", sites[60].label]  # sensor order
    assert "register U0 (1st from the Pi), input A (pin 11)" in table[1]


def test_a_large_board_is_cut_into_pages_that_overlap_by_their_marks(tmp_path, capsys):
    out, written = plan(tmp_path, capsys, "antipalos", "--size", "12", "--pitch", "30")
    pages = [ET.parse(path).getroot() for path in written if "-page-" in path]
    whole = ET.parse(out).getroot()
    width, height = size_mm(whole)
    assert len(pages) >= 4
    seen_marks, seen_sites = {}, {}
    for page in pages:
        assert sorted(size_mm(page)) == [210, 297]
        ox, oy = map(float, page.get("data-origin").split(","))
        for group in page.iter(f"{SVG}g"):
            if group.get("class") == "align":
                # An L, not a cross and circle like a switch's: its corner is the mark.
                assert not list(group.iter(f"{SVG}circle"))
                arms = [
                    tuple(map(float, p.split(",")))
                    for p in next(group.iter(f"{SVG}polyline")).get("points").split()
                ]
                assert len(arms) == 3 and arms[0][0] == arms[1][0] and arms[1][1] == arms[2][1]
                label = next(group.iter(f"{SVG}text")).text
                assert label == group.get("data-mark")
                board = (arms[1][0] + ox, arms[1][1] + oy)
                seen_marks.setdefault(group.get("data-mark"), []).append(board)
                # Clear of every switch's cross (3.2 mm arms) on the page.
                for _, switch, *_ in sites_of(page).values():
                    assert math.dist(arms[1], switch) > 4
        for label, (centre, *_rest) in sites_of(page).items():
            seen_sites.setdefault(label, []).append((centre[0] + ox, centre[1] + oy))
    # Each mark is on two pages or more, at the same point of the board on each.
    assert seen_marks and all(len(at) >= 2 for at in seen_marks.values())
    for at in seen_marks.values():
        assert all(math.dist(p, at[0]) < 0.01 for p in at)
    # Every site is on some page, at its place on the whole board.
    whole_sites = sites_of(whole)
    assert set(seen_sites) == set(whole_sites)
    for label, at in seen_sites.items():
        assert all(math.dist(p, whole_sites[label][0]) < 0.01 for p in at)
    assert width > 210 and height > 297 - 16


def test_a_board_that_fits_the_paper_is_one_page(tmp_path, capsys):
    out, written = plan(tmp_path, capsys, "anti-grid", "--size", "6", "--pitch", "12", "--paper", "letter")
    assert not [p for p in written if "-page-" in p]
    assert f"{tmp_path}/anti-grid-wiring.svg" in written
    assert f"{tmp_path}/anti-grid-pins.svg" in written


def test_pdf_holds_the_pages_the_wiring_sheet_and_table(tmp_path, capsys):
    out = tmp_path / "board.pdf"
    assert main(["plan", "antipode", "--pitch", "25", "--format", "pdf", "--out", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type /Page\b", data))
    assert pages == 2 + 1 + 1 + 1  # two board pages, the pins, the wiring sheet, one table page


def test_the_guides_drawings_are_what_plan_draws_now(tmp_path, capsys):
    """docs/build.md shows drawings made by docs/drawings/make.py: they match the code."""
    from pathlib import Path

    drawings = Path(__file__).resolve().parents[2] / "docs" / "drawings"
    out = tmp_path / "antipode.svg"
    assert main(["plan", "antipode", "--pitch", "32", "--scanner", "74hc165", "--out", str(out)]) == 0
    assert out.read_text() == (drawings / "antipode-plan.svg").read_text()
    for sheet in ("antipode-wiring.svg", "antipode-pins.svg"):
        assert (tmp_path / sheet).read_text() == (drawings / sheet).read_text()
