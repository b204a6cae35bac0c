"""The café dashboard's states for colour-blind staff: "fine", "look at this" and "down" in
colours that stay apart under simulated protanopia and deuteranopia, each with its word and a
mark of its own too, and the page still passes axe-core's checks. Real boards on a real
Mosquitto, the dashboard in Debian's Chromium."""

from __future__ import annotations

import itertools
import signal

from testbed.broker import board_config
from testbed.colours import APART, distance
from testbed.tools import require
from tests.net.web.test_web_browser import AXE

#: Per shown state: its text, its colour or background, and the mark drawn before it.
STATES_JS = """() => {
    const shown = (sel, paint) => { const e = document.querySelector(sel);
        return [e.innerText, getComputedStyle(e)[paint], getComputedStyle(e, '::before').content]; };
    const root = getComputedStyle(document.documentElement);
    const vars = ['--ok', '--warn', '--bad'].map((v) => [v, root.getPropertyValue(v).trim()]);
    return {vars: Object.fromEntries(vars),
            connected: shown('#broker', 'color'), offline: shown('.flag.offline', 'backgroundColor'),
            alert: shown('#alerts li.offline', 'color'),
            tile: getComputedStyle(document.querySelector('article.tile.offline')).borderTopStyle};
}"""


def hex_of(css: str) -> str:
    """ "rgb(r, g, b)" as "#rrggbb"."""
    return "#" + "".join(f"{int(c):02x}" for c in css[css.index("(") + 1 : -1].split(",")[:3])


def test_fine_look_and_down_differ_for_the_colour_blind_and_carry_a_word_and_a_mark(
    tmp_path, broker, watcher, boards, cafe, page
):
    require(AXE.exists(), f"axe-core in {AXE.parent} (tests/run.sh installs it with npm)")
    started = {name: boards(board_config(tmp_path, broker.port, name, size=3)) for name in ("t1", "t2")}
    for name in started:
        watcher.state(name)
    context = page.context.browser.new_context(
        viewport={"width": 1280, "height": 800}, bypass_csp=True
    )  # axe-core is added to the page
    try:
        wall = context.new_page()
        wall.goto(cafe())
        wall.locator('article[data-board="t2"]').wait_for()
        started["t2"].proc.send_signal(signal.SIGKILL)  # table 2 goes dark: flagged, an alert
        wall.locator('article[data-board="t2"] .flag.offline').wait_for()
        wall.locator("#alerts li.offline").wait_for()
        states = wall.evaluate(STATES_JS)
        wall.add_script_tag(path=str(AXE))
        found = wall.evaluate("""async () => (await axe.run(document)).violations
            .filter((v) => ['serious', 'critical'].includes(v.impact))
            .map((v) => `${v.id}: ${v.nodes.length} (${v.nodes[0].target})`)""")
    finally:
        context.close()
    colours = states["vars"]
    for a, b in itertools.combinations(sorted(colours), 2):
        assert distance(colours[a], colours[b]) > APART, (a, b, round(distance(colours[a], colours[b]), 1))
    assert hex_of(states["connected"][1]) == colours["--ok"]
    assert hex_of(states["offline"][1]) == colours["--bad"]
    # Each state says itself in words and marks: ● connected, ✕ down (flag and alert alike).
    assert states["connected"][0] == "broker connected" and states["connected"][2] == '"● "'
    assert states["offline"][0].lower() == "offline" and states["offline"][2] == '"✕ "'
    assert states["alert"][0].endswith("t2: went offline") and states["alert"][2] == '"✕ "'
    assert states["tile"] == "dashed"  # an offline tile's border is dashed, a flagged one solid
    assert found == []
    print(
        {
            f"{a}/{b}": round(distance(colours[a], colours[b]), 1)
            for a, b in itertools.combinations(sorted(colours), 2)
        }
    )
