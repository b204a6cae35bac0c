"""Printed sheets as a few drawn items in millimetres (y downwards), written as SVG or PDF.

One model, two writers, so a sheet printed from the SVG and from the PDF are the same drawing.
Items carry a ``style`` (a key of :data:`STYLES`); groups carry ``data`` (written as SVG
``data-*`` attributes, so a program can read the sheet back).

>>> sheet = Sheet(40, 20, [Group("site", {"site": "a1"}, [Circle((10, 10), 2, "switch"),
...                                                      Text((10, 5), "a1", 3, "label")])])
>>> svg = to_svg(sheet)
>>> 'data-site="a1"' in svg and 'width="40mm"' in svg
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator, Union
from xml.sax.saxutils import escape, quoteattr

Point = tuple[float, float]

#: style -> (stroke colour, stroke width in mm, fill colour or None). Text uses the stroke
#: colour as its colour.
STYLES = {
    "outline": ("#9a9a9a", 0.25, None),
    "frame": ("#c8c8c8", 0.2, None),
    "switch": ("#000000", 0.3, None),
    "centre": ("#000000", 0.0, "#000000"),
    "label": ("#000000", 0, None),
    "channel": ("#1f5fa8", 0, None),
    "note": ("#555555", 0, None),
    "mark": ("#d01010", 0.6, None),
    "mark-label": ("#d01010", 0, None),
    "chain": ("#1f5fa8", 0.35, None),
    "chain-start": ("#1f5fa8", 0.35, "#1f5fa8"),
    "switch-body": ("#000000", 0.25, "#e8e8e8"),
    "led": ("#000000", 0.25, "#ffffff"),
    "pin-free": ("#9a9a9a", 0.25, None),
    "pin-used": ("#000000", 0.3, "#000000"),
}


@dataclass(frozen=True)
class Line:
    points: tuple[Point, ...]
    style: str
    closed: bool = False


@dataclass(frozen=True)
class Circle:
    centre: Point
    r: float
    style: str


@dataclass(frozen=True)
class Text:
    at: Point
    text: str
    size: float  # the height of capitals, roughly: the font size in mm
    style: str
    anchor: str = "middle"  # start, middle or end
    mono: bool = False  # fixed-width letters (tables)


@dataclass(frozen=True)
class Group:
    """Items that belong together (a site), with ``data`` for programs reading the sheet."""

    kind: str
    data: dict[str, object]
    items: list["Item"] = field(default_factory=list)


@dataclass(frozen=True)
class Clip:
    """Items drawn only inside the rectangle ``box`` (x, y, width, height): a page's share of
    a larger drawing."""

    box: tuple[float, float, float, float]
    items: list["Item"] = field(default_factory=list)


Item = Union[Line, Circle, Text, Group, Clip]


@dataclass
class Sheet:
    """A page ``width`` x ``height`` mm; ``data`` describes it (e.g. a tile's origin)."""

    width: float
    height: float
    items: list[Item] = field(default_factory=list)
    data: dict[str, object] = field(default_factory=dict)
    title: str = ""


def flatten(items: Iterable[Item]) -> Iterator[Line | Circle | Text]:
    """Every drawn item, groups and clips opened."""
    for item in items:
        if isinstance(item, (Group, Clip)):
            yield from flatten(item.items)
        else:
            yield item


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _pts(points: Iterable[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _data(data: dict[str, object]) -> str:
    return "".join(f" data-{key}={quoteattr(str(value))}" for key, value in data.items())


def _svg_item(item: Item, out: list[str]) -> None:
    if isinstance(item, Clip):
        left, top, w, h = map(_n, item.box)
        out.append(
            f'<clipPath id="page"><rect x="{left}" y="{top}" width="{w}" height="{h}"/></clipPath>'
            '<g clip-path="url(#page)">'
        )
        for child in item.items:
            _svg_item(child, out)
        out.append("</g>")
    elif isinstance(item, Group):
        out.append(f'<g class="{item.kind}"{_data(item.data)}>')
        for child in item.items:
            _svg_item(child, out)
        out.append("</g>")
    elif isinstance(item, Line):
        tag = "polygon" if item.closed else "polyline"
        out.append(f'<{tag} class="{item.style}" points="{_pts(item.points)}"/>')
    elif isinstance(item, Circle):
        x, y = item.centre
        out.append(f'<circle class="{item.style}" cx="{_n(x)}" cy="{_n(y)}" r="{_n(item.r)}"/>')
    else:
        x, y = item.at
        mono = ' font-family="monospace" xml:space="preserve"' if item.mono else ""
        out.append(
            f'<text class="{item.style}" x="{_n(x)}" y="{_n(y)}" font-size="{_n(item.size)}" '
            f'text-anchor="{item.anchor}"{mono}>{escape(item.text)}</text>'
        )


def _svg_styles() -> str:
    rules = []
    for name, (stroke, width, fill) in STYLES.items():
        if width == 0 and fill is None:  # text
            rules.append(f"text.{name}{{fill:{stroke}}}")
        else:
            rules.append(f".{name}{{stroke:{stroke};stroke-width:{_n(width)};fill:{fill or 'none'}}}")
    return "text{font-family:Helvetica,Arial,sans-serif}" + "".join(rules)


def to_svg(sheet: Sheet) -> str:
    """The sheet as an SVG document at 1:1 (user units are millimetres)."""
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(sheet.width)}mm" '
        f'height="{_n(sheet.height)}mm" viewBox="0 0 {_n(sheet.width)} {_n(sheet.height)}"'
        f"{_data(sheet.data)}>",
    ]
    if sheet.title:
        out.append(f"<title>{escape(sheet.title)}</title>")
    out.append(f"<style>{_svg_styles()}</style>")
    for item in sheet.items:
        _svg_item(item, out)
    out.append("</svg>")
    return "\n".join(out) + "\n"


#: Points per millimetre (PDF font sizes are in points).
PT_PER_MM = 72 / 25.4


def to_pdf(sheets: list[Sheet]) -> bytes:
    """The sheets as the pages of one PDF (vector, at 1:1), through fpdf2."""
    from fpdf import FPDF

    pdf = FPDF(unit="mm")
    pdf.set_auto_page_break(False)
    pdf.set_creator("reedboard plan")
    for sheet in sheets:
        pdf.add_page(format=(sheet.width, sheet.height))
        for item in sheet.items:
            if isinstance(item, Clip):
                with pdf.rect_clip(*item.box):
                    for part in flatten(item.items):
                        _pdf_item(pdf, part)
            else:
                for part in flatten([item]):
                    _pdf_item(pdf, part)
    return bytes(pdf.output())


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def _pdf_item(pdf, item: Line | Circle | Text) -> None:
    stroke, width, fill = STYLES[item.style]
    if isinstance(item, Text):
        pdf.set_text_color(*_rgb(stroke))
        pdf.set_font("courier" if item.mono else "helvetica", size=item.size * PT_PER_MM)
        text = item.text.encode("latin-1", "replace").decode("latin-1")
        w = pdf.get_string_width(text)
        shift = {"start": 0, "middle": w / 2, "end": w}[item.anchor]
        pdf.text(item.at[0] - shift, item.at[1], text)
        return
    pdf.set_draw_color(*_rgb(stroke))
    pdf.set_line_width(max(width, 0.01))
    style = "D" if fill is None else ("F" if width == 0 else "DF")
    if fill is not None:
        pdf.set_fill_color(*_rgb(fill))
    if isinstance(item, Circle):
        pdf.circle(item.centre[0], item.centre[1], item.r, style=style)
    elif len(item.points) == 2 and not item.closed:
        (x1, y1), (x2, y2) = item.points
        pdf.line(x1, y1, x2, y2)
    else:
        pdf.polyline(list(item.points), polygon=item.closed, style=style)
